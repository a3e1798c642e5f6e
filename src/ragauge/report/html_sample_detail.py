"""Per-sample blocks of the HTML samples section that read a metric family's artifacts: the hallucination
classes (badges, the class of each claim, the answer's self-contradictions), RAGChecker's claim-level
diagnostics (the values with their definitions on hover, the claims and chunks one click away) and the
agent's tool calls (missing / out of order / unexpected tools, each argument row's mismatched keys).

Every string from the data is escaped with :func:`~ragauge.report.html_doc._e` and capped at
``MAX_CHARS``; the long parts sit in a collapsed ``<details>``. The diagnostics columns share one artifact
(results.json repeats it under each column), so the page shows it once.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .html_doc import _Doc, _e, _num, _str
from .messages import msg
from .metric_text import metric_description
from .reason_text import reason_text
from .run_notes import CLASSES, class_name

TAXONOMY = "hallucination_taxonomy"
#: RAGChecker's diagnostics (metrics/diagnostics.py), in the order the block lists them
DIAGNOSTICS = ("claim_recall", "claim_precision", "context_utilization", "noise_sensitivity_relevant",
               "noise_sensitivity_irrelevant", "hallucinated_claims", "self_knowledge")
TOOLS, ARGUMENTS = "tool_correctness", "argument_correctness"
#: artifact keys the blocks below show in full: left out of the raw artifact list
SHOWN_KEYS = frozenset({*DIAGNOSTICS, TOOLS, ARGUMENTS})
MAX_ITEMS = 30  #: claims / calls / pairs listed per block (the rest is in results.json)
_TEXT = 300  #: characters of one claim or value shown


def _short(text: Any, limit: int = _TEXT) -> str:
    s = _str(text)
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _artifact(sample: Mapping[str, Any], key: str) -> Mapping[str, Any] | None:
    art = (sample.get("artifacts") or {}).get(key) if isinstance(sample.get("artifacts"), Mapping) else None
    return art if isinstance(art, Mapping) else None


# --- the hallucination taxonomy ---------------------------------------------------------------------

def classes_of(sample: Mapping[str, Any]) -> list[str]:
    art = _artifact(sample, TAXONOMY)
    classes = art.get("classes") if art else None
    return [str(c) for c in classes] if isinstance(classes, list) else []


def class_badges(sample: Mapping[str, Any], lang: str) -> str:
    """One badge per hallucination class of the answer (``выдумка``, ``устаревший источник``)."""
    return "".join(f'<span class="hc hc-{_e(c) if c in CLASSES else "other"}" title="{_e(c)}">{_e(class_name(c, lang))}</span>'
                   for c in classes_of(sample))


def claim_classes(sample: Mapping[str, Any]) -> dict[tuple[int, int], str]:
    """``{(start, end): class}`` of the answer's classified claims (offsets into the answer)."""
    art = _artifact(sample, TAXONOMY)
    out: dict[tuple[int, int], str] = {}
    for c in (art or {}).get("claims") or []:
        if isinstance(c, Mapping) and c.get("class") and isinstance(c.get("start"), int) and isinstance(c.get("end"), int):
            out[(c["start"], c["end"])] = str(c["class"])
    return out


def class_label(cls: str, lang: str) -> str:
    """The class written after a highlighted claim."""
    return f'<sup class="hc-label hc-{_e(cls) if cls in CLASSES else "other"}">{_e(class_name(cls, lang))}</sup>'


def self_contradictions(sample: Mapping[str, Any], lang: str) -> str:
    """The answer's pairs of claims that contradict each other, as a list (empty string when none)."""
    art = _artifact(sample, TAXONOMY)
    pairs = [p for p in (art or {}).get("self_contradictions") or [] if isinstance(p, Mapping)]
    items = []
    for p in pairs[:MAX_ITEMS]:
        texts = p.get("texts") if isinstance(p.get("texts"), list) and len(p["texts"]) == 2 else ["?", "?"]
        items.append(f"<li>{_e(msg(lang, 'hc_pair', a=_short(texts[0]), b=_short(texts[1])))}</li>")
    return f'<ul class="plain hc-pairs">{"".join(items)}</ul>' if items else ""


def taxonomy_block(sample: Mapping[str, Any], lang: str) -> str:
    badges = class_badges(sample, lang)
    if not badges:
        return ""
    return f'<div class="taxonomy"><h4>{msg(lang, "hc_head")}</h4><p>{badges}</p>{self_contradictions(sample, lang)}</div>'


# --- RAGChecker's diagnostics -----------------------------------------------------------------------

def diagnostics_block(doc: _Doc, sample: Mapping[str, Any]) -> str:
    """The diagnostics' values (definition on hover) and, collapsed, the answer's and the reference's claims
    with the chunks that entail them; empty when the sample has none."""
    lang = doc.lang
    scores = sample.get("scores") or {}
    unscored = sample.get("unscored") or {}
    names = [n for n in DIAGNOSTICS if n in scores]
    if not names:
        return ""
    cells = []
    for n in names:
        value = _num(scores.get(n))
        shown = doc.fmt(n, value) if value is not None else "—"
        tip = metric_description(doc.specs.get(n, {"base": n}), lang) or n
        why = f' <span class="muted">({_e(_short(reason_text(_str(unscored.get(n)), lang), 120))})</span>' if value is None and unscored.get(n) else ""
        cells.append(f'<li><abbr title="{_e(tip)}">{_e(n)}</abbr> <b>{_e(shown)}</b>{why}</li>')
    art = next((a for n in names if (a := _artifact(sample, n)) is not None), None)
    return (f'<div class="diagnostics"><h4>{msg(lang, "dg_head")}</h4><ul class="diag-values">{"".join(cells)}</ul>'
            + (_diagnostics_detail(art, lang) if art else "") + "</div>")


def _chunks(ids: Any, lang: str) -> str:
    if not isinstance(ids, list) or not ids:
        return msg(lang, "dg_no_chunk")
    return msg(lang, "dg_chunks", ids=", ".join(str(int(i) + 1) if isinstance(i, int) else _str(i) for i in ids))


def _diagnostics_detail(art: Mapping[str, Any], lang: str) -> str:
    answer = [c for c in art.get("answer_claims") or [] if isinstance(c, Mapping)]
    reference = [c for c in art.get("reference_claims") or [] if isinstance(c, Mapping)]
    relevant = art.get("relevant_chunks") if isinstance(art.get("relevant_chunks"), list) else []
    how = msg(lang, "dg_by_ids") if art.get("relevance") == "relevant_ids" else msg(lang, "dg_by_claims")
    head = msg(lang, "dg_claims", correct=sum(1 for c in answer if c.get("correct")), n=len(answer),
               found=sum(1 for c in reference if c.get("in_answer")), m=len(reference))
    if relevant:
        head += "; " + msg(lang, "dg_relevance", k=sum(1 for r in relevant if r), n=len(relevant), how=how)

    def rows(claims: Sequence[Mapping[str, Any]], key: str, yes: str, no: str) -> str:
        items = [f'<li class="claim claim-{"ok" if c.get(key) else "warn"}"><span class="verdict-tag">'
                 f'{_e(msg(lang, yes if c.get(key) else no))}</span> {_e(_short(c.get("text")))} '
                 f'<span class="muted">· {_e(_chunks(c.get("chunks"), lang))}</span></li>' for c in claims[:MAX_ITEMS]]
        return f'<ul class="claims">{"".join(items)}</ul>'

    return (f'<details class="diag-detail"><summary>{_e(head)}</summary>'
            f'<h5>{msg(lang, "dg_answer_claims")}</h5>{rows(answer, "correct", "dg_correct", "dg_wrong")}'
            f'<h5>{msg(lang, "dg_reference_claims")}</h5>{rows(reference, "in_answer", "dg_in_answer", "dg_not_in_answer")}'
            "</details>")


# --- agent metrics ----------------------------------------------------------------------------------

def _names(x: Any) -> str:
    return ", ".join(_short(n, 80) for n in x[:MAX_ITEMS]) if isinstance(x, list) else ""


def agent_block(sample: Mapping[str, Any], lang: str) -> str:
    """Tool correctness (expected vs called; missing, out of order, unexpected) and argument correctness
    (each call's mismatched keys, or the judge's verdict, and the mode); empty without either artifact."""
    tools, args = _artifact(sample, TOOLS), _artifact(sample, ARGUMENTS)
    if tools is None and args is None:
        return ""
    out = [f'<div class="agent"><h4>{msg(lang, "ag_head")}</h4>']
    if tools is not None:
        order = msg(lang, "ag_in_order") if tools.get("ordered") else ""
        lines = [f'{msg(lang, "ag_expected")}{order}: <code>{_e(_names(tools.get("expected"))) or "—"}</code>',
                 f'{msg(lang, "ag_called")}: <code>{_e(_names(tools.get("called"))) or "—"}</code>']
        lines += [f'<span class="agent-bad">{msg(lang, "ag_" + k)}: <code>{_e(_names(tools.get(k)))}</code></span>'
                  for k in ("missing", "out_of_order", "unexpected") if tools.get(k)]
        out.append('<ul class="plain">' + "".join(f"<li>{x}</li>" for x in lines) + "</ul>")
    if args is not None:
        out.append(_arguments(args, lang))
    return "".join(out) + "</div>"


def _arguments(art: Mapping[str, Any], lang: str) -> str:
    mode = _str(art.get("mode"))
    mode_text = msg(lang, f"ag_mode_{mode}") if mode in ("expected", "judge") else mode
    items = []
    for row in [r for r in art.get("calls") or [] if isinstance(r, Mapping)][:MAX_ITEMS]:
        name = f"<code>{_e(_short(row.get('name'), 80))}</code>"
        if mode == "judge":
            ok = row.get("supported") is True
            detail = msg(lang, "ag_supported" if ok else "ag_unsupported")
        elif row.get("given") is None:
            ok, detail = False, msg(lang, "ag_not_called")
        else:
            keys = [str(k) for k in row.get("mismatched") or []]
            ok = not keys
            detail = msg(lang, "ag_mismatched", keys=", ".join(keys)) if keys else msg(lang, "ag_all_match")
        items.append(f'<li class="claim claim-{"ok" if ok else "bad"}">{name}: {_e(detail)}{_given(row, keys=not ok)}</li>')
    return (f'<p><b>{msg(lang, "ag_args_head")}</b> <span class="muted">({_e(mode_text)})</span></p>'
            f'<ul class="claims">{"".join(items)}</ul>')


def _given(row: Mapping[str, Any], *, keys: bool) -> str:
    """For a mismatched call: what was expected and what was given, key by key."""
    expected, given = row.get("expected"), row.get("given")
    if not keys or not isinstance(expected, Mapping) or not isinstance(given, Mapping):
        return ""
    def side(args: Mapping[str, Any], k: Any) -> str:
        return _e(_short(args[k], 80)) if k in args else "—"

    parts = [f"{_e(_short(k, 60))}: {side(expected, k)} → {side(given, k)}" for k in row.get("mismatched") or []]
    return f' <span class="muted">({"; ".join(parts)})</span>' if parts else ""
