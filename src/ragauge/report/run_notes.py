"""What every report (terminal, Markdown, HTML) says about the run beside the metrics: the evaluated app,
the golden set's unreviewed cases, the production targets beside the CI gates, the hallucination
classes counted over the samples, and where a ``--shards`` run's per-sample rows are.

Plain text in the report's language, from the results document only (``app``, ``golden_review``,
``gates[].target``, ``samples[].artifacts.hallucination_taxonomy``); the caller escapes it for its medium.

    >>> target_text({"target": {"op": ">=", "value": 0.85, "status": "missed"}}, "en")
    '>= 0.85 · missed'
    >>> targets_line({"gates": [{"metric": "a", "target": {"op": ">=", "value": 0.9, "status": "missed"}},
    ...                         {"metric": "b", "target": {"op": ">=", "value": 0.9, "status": "met"}}]}, "en")
    '1 of 2 production targets missed: a'
"""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping

from .messages import MESSAGES, msg, plural

#: the taxonomy's classes (metrics/taxonomy.py CLASSES), in the order a report lists them
CLASSES = ("contradiction", "fabrication", "outdated_source", "factual_error", "logical_contradiction")


def _target(g: Mapping[str, Any]) -> Mapping[str, Any] | None:
    t = g.get("target")
    return t if isinstance(t, Mapping) else None


def target_text(g: Mapping[str, Any], lang: str, *, op: Callable[[str], str] = str) -> str:
    """``>= 0.85 · missed`` (``op`` shows the operator: the HTML page passes its ``≥``); ``""`` without a target."""
    t = _target(g)
    if t is None:
        return ""
    value = t.get("value")
    shown = f"{value:g}" if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
    status = str(t.get("status") or "unknown")
    word = msg(lang, f"tg_{status}") if f"tg_{status}" in MESSAGES else status
    return f"{op(str(t.get('op') or ''))} {shown} · {word}"


def targets_line(results: Mapping[str, Any], lang: str, *, name: Callable[[object], str] = str) -> str | None:
    """``3 of 5 production targets missed: a, b, c`` / ``All 5 production targets met``; ``None`` when no gate
    has a target. A target of a metric not evaluated (status ``None``) counts as not met."""
    with_target = [g for g in results.get("gates") or [] if isinstance(g, Mapping) and _target(g)]
    if not with_target:
        return None
    missed = [g for g in with_target if (_target(g) or {}).get("status") != "met"]
    total = len(with_target)
    targets = plural(lang, total, "production targets")
    if not missed:
        return msg(lang, "targets_met", targets=targets, total=total)
    return msg(lang, "targets_missed", missed=len(missed), targets=targets, total=total,
               names=", ".join(name(g.get("metric")) for g in missed))


def app_text(results: Mapping[str, Any]) -> str | None:
    """``support-bot 1.3`` (name and version of the evaluated app), ``None`` when the run names none."""
    app = results.get("app")
    if not isinstance(app, Mapping):
        return None
    parts = [str(app[k]) for k in ("name", "version") if app.get(k) not in (None, "")]
    return " ".join(parts) or None


def golden_warning(results: Mapping[str, Any], lang: str) -> str | None:
    """The warning when generated golden cases were never reviewed (count and share), else ``None``."""
    block = results.get("golden_review")
    if not isinstance(block, Mapping) or not _count(block.get("unreviewed")):
        return None
    share = block.get("share")
    pct = f"{share:.0%}" if isinstance(share, (int, float)) and not isinstance(share, bool) else "?"
    return msg(lang, "golden_unreviewed", n=_count(block.get("unreviewed")), total=_count(block.get("generated")),
               pct=pct)


def _count(x: Any) -> int:
    return x if isinstance(x, int) and not isinstance(x, bool) else 0


def class_name(cls: object, lang: str) -> str:
    """A hallucination class in ``lang`` (``fabrication`` -> ``выдумка``); an unknown one as stored."""
    key = f"hc_{cls}"
    return msg(lang, key) if key in MESSAGES else str(cls)


def taxonomy_counts(results: Mapping[str, Any]) -> tuple[int, int, dict[str, int]] | None:
    """``(answers with a hallucination, answers classified, {class: answers})`` over the samples' taxonomy
    artifacts (an answer counts once per class it has); ``None`` when no sample has one."""
    per_class: dict[str, int] = {}
    classified = with_any = 0
    for s in results.get("samples") or []:
        art = ((s.get("artifacts") or {}) if isinstance(s, Mapping) else {}).get("hallucination_taxonomy")
        if not isinstance(art, Mapping) or not isinstance(art.get("classes"), list):
            continue
        classified += 1
        classes = {str(c) for c in art["classes"]}
        with_any += bool(classes)
        for c in classes:
            per_class[c] = per_class.get(c, 0) + 1
    if not classified:
        return None
    order = {c: i for i, c in enumerate(CLASSES)}
    return with_any, classified, dict(sorted(per_class.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0])))


def taxonomy_line(results: Mapping[str, Any], lang: str) -> str | None:
    """``Hallucinations by class (answers with any: 12 of 50): fabrication 9, outdated source 2`` or ``None``."""
    counts = taxonomy_counts(results)
    if counts is None:
        return None
    with_any, classified, per_class = counts
    shown = ", ".join(f"{class_name(c, lang)} {n}" for c, n in per_class.items()) or msg(lang, "hc_none")
    return msg(lang, "hc_counts", n=with_any, total=classified, counts=shown)



#: how a --shards run's rows are read, as the reports show it (code)
SHARDS_READERS = {"reader": "pyarrow.dataset.dataset(PATH).to_table()", "pandas": "Results.to_pandas()"}


def shards_note(results: Mapping[str, Any], lang: str, *, text: Callable[[str], str] = str,
                code: Callable[[str], str] = str) -> list[str] | None:
    """Where a ``--shards`` run's per-sample rows are (results.json ``samples_in: "shards"``, ``source.shards``):
    two sentences, the folder and how to read it, ``text`` escaping the words and ``code`` showing the folder
    and the calls in the report's medium; ``None`` for a run that keeps its rows in results.json.

    >>> shards_note({"samples_in": "shards", "source": {"shards": {"path": "/o/s", "files": 2, "n_samples": 9}}},
    ...             "en", code=lambda s: f"`{s}`")[0][-21:]
    'in the folder `/o/s`.'
    """
    if results.get("samples_in") != "shards":
        return None
    src = results.get("source") if isinstance(results.get("source"), Mapping) else {}
    block = src.get("shards") if isinstance(src.get("shards"), Mapping) else {}
    n, files = block.get("n_samples", src.get("n_samples")), block.get("files")
    words = {"samples": plural(lang, n, "samples") if isinstance(n, int) else "?",
             "files": plural(lang, files, "files") if isinstance(files, int) else "?",
             "n_files": files if isinstance(files, int) else "?"}
    codes = {"path": str(block.get("path") or "?"), **SHARDS_READERS}
    out = []
    for key in ("s_in_shards", "s_shards_read"):
        parts = re.split(r"\{(path|reader|pandas)\}", MESSAGES[key][lang if lang in ("en", "ru") else "en"])
        out.append("".join(code(codes[p]) if k % 2 else text(p.format(**words)) for k, p in enumerate(parts)))
    return out
