"""The review loop: export a golden set for an expert, import the reviewed sheet back, versioned and audited.

Generation gives most of a golden set in a day; an expert then reviews it in an hour or two
(unreviewed sets carry 10-20 % broken cases). The loop::

    export_review("golden.jsonl", "review.xlsx", kb="kb.jsonl")     # one row per case
    # ... the expert fills decision (accept/edit/reject), *_edit, comment, reviewer ...
    result = import_review("review.xlsx", "golden.jsonl", "golden.v2.jsonl", kb="kb.jsonl")
    print(result.summary())

:func:`import_review` writes the new golden file, its version sidecar (``golden.v2.meta.json``:
version = parent + 1, parent's hash, counts, history; see :mod:`ragauge.generate.versioning`) and an
audit (``golden.v2.audit.jsonl``: one line per case of the parent -- status, decision, reviewer,
comment, and each change as field/old/new). Each kept case also carries its audit entry as
``metadata.review``. Every problem in the sheet is reported at once in one :class:`InputError`
(row, column, what to do), and nothing is written until the sheet is clean. Sheet rules:
:mod:`ragauge.generate._review_apply`; file formats: :mod:`ragauge.generate._review_table`.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from ragauge.errors import ConfigError, InputError
from ragauge.generate._review_apply import UNREVIEWED_POLICIES, apply_review
from ragauge.generate._review_table import read_sheet, suffix_of, write_csv, write_xlsx
from ragauge.generate.case import GoldenCase
from ragauge.generate.versioning import read_golden, read_version, utc_now, write_golden

#: Characters of each chunk shown in the ``context`` column (the full text is in kb.jsonl).
PREVIEW_CHARS = 1500


def load_kb(path: str | Path) -> dict[str, dict[str, Any]]:
    """``kb.jsonl`` (id, doc_id, title, version, section, text) as ``{id: record}``."""
    from ragauge.generate.kb import read_kb_records

    return {rec["id"]: rec for rec in read_kb_records(path)}


def _cases(golden: str | Path | Iterable[GoldenCase]) -> list[GoldenCase]:
    if isinstance(golden, (str, Path)):
        return read_golden(golden)
    return list(golden)


def _sources(source: Mapping[str, Any]) -> str:
    titles = list(source.get("titles") or [])
    versions = list(source.get("versions") or [])
    lines = []
    for i, title in enumerate(titles):
        v = versions[i] if i < len(versions) and versions[i] else ""
        line = f"{title} ({v})" if v else str(title)
        if line not in lines:
            lines.append(line)
    return "\n".join(lines)


def _context(case: GoldenCase, kb: Mapping[str, Mapping[str, Any]] | None, limit: int) -> str:
    if kb is None:
        return ""
    parts = []
    for cid in case.relevant_ids:
        rec = kb.get(cid)
        if rec is None:
            parts.append(f"[{cid}] (not in the knowledge base)")
            continue
        text = str(rec.get("text") or "")
        parts.append(f"[{cid}]\n" + (text if len(text) <= limit else text[:limit].rstrip() + " …"))
    return "\n\n".join(parts)


def review_rows(cases: Sequence[GoldenCase], kb: Mapping[str, Mapping[str, Any]] | None = None, *,
                preview_chars: int = PREVIEW_CHARS) -> list[dict[str, str]]:
    """One sheet row per case (the reviewer's columns empty)."""
    return [{"id": c.id, "type": c.type, "slices": ", ".join(c.slices), "behaviour": c.expected_behaviour,
             "question": c.question, "reference": c.reference, "relevant_ids": "\n".join(c.relevant_ids),
             "sources": _sources(c.source), "context": _context(c, kb, preview_chars)} for c in cases]


def _about(golden: str | Path | Iterable[GoldenCase], n: int, now: str) -> list[tuple[str, str]]:
    rows = [("cases", str(n)), ("exported", now)]
    if isinstance(golden, (str, Path)):
        v = read_version(golden)
        rows = [("golden file", str(golden)), ("golden version", str(v.version)), ("golden sha256", v.sha256)] + rows
    return rows + [
        ("decision", "accept = correct as is; edit = apply the *_edit cells; reject = drop the case; "
                     "empty = not reviewed (kept and marked unreviewed by default)"),
        ("решение", "accept — верно; edit — применить столбцы *_edit; reject — удалить пример; "
                    "пусто — не проверено (по умолчанию остаётся с пометкой unreviewed)"),
        ("edits", "Write new text in question_edit / reference_edit; relevant_ids_edit: chunk ids from kb.jsonl, "
                  "one per line or separated by ';'. Do not change the original columns."),
        ("new cases", "To add a case of your own: a new row with the id EMPTY, question, reference, relevant_ids "
                      "(chunk ids from kb.jsonl or a document name) and decision accept; import gives it an id "
                      "expert-0001, ... An id that is filled in must be one of the golden file."),
        ("новые примеры", "Чтобы добавить свой пример: новая строка с ПУСТЫМ id, вопрос (question), эталонный ответ "
                          "(reference), relevant_ids (id фрагментов из kb.jsonl или имя документа) и решение "
                          "accept; при импорте он получит id expert-0001, …"),
        ("import", "ragauge review import REVIEWED --golden GOLDEN --out golden.v2.jsonl [--kb kb.jsonl]"),
    ]


def export_review(golden: str | Path | Iterable[GoldenCase], out_path: str | Path, *,
                  kb: str | Path | Mapping[str, Mapping[str, Any]] | None = None, delimiter: str = ";",
                  preview_chars: int = PREVIEW_CHARS) -> Path:
    """Write the review sheet for ``golden`` (a golden JSONL path or cases) to ``out_path`` (.xlsx or .csv).

    ``kb``: the knowledge base (path or ``{id: record}``) to fill the ``context`` column with the
    relevant chunks' text (first ``preview_chars`` characters of each). ``delimiter``: CSV only.
    """
    out_path = Path(out_path)
    suffix = suffix_of(out_path)
    cases = _cases(golden)
    kb_map = load_kb(kb) if isinstance(kb, (str, Path)) else kb
    rows = review_rows(cases, kb_map, preview_chars=preview_chars)
    if suffix == ".csv":
        write_csv(rows, out_path, delimiter=delimiter)
    else:
        write_xlsx(rows, out_path, about=_about(golden, len(cases), utc_now()))
    return out_path


@dataclass(frozen=True)
class ReviewResult:
    """What :func:`import_review` wrote and decided."""

    cases: list[GoldenCase]
    audit: list[dict[str, Any]]
    meta: dict[str, Any]
    golden_path: Path
    audit_path: Path
    counts: dict[str, int] = field(default_factory=dict)

    def summary(self) -> str:
        c = self.counts
        return (f"{self.golden_path}: version {self.meta['version']} (parent {self.meta['parent']['version']}), "
                f"{len(self.cases)} cases kept -- accepted {c.get('accepted', 0)}, edited {c.get('edited', 0)}, "
                f"rejected {c.get('rejected', 0)}, unreviewed {c.get('unreviewed', 0)} "
                f"({c.get('unreviewed_dropped', 0)} dropped, {c.get('not_in_review_file', 0)} not in the review "
                f"file); {c.get('changes', 0)} field changes; {c.get('added', 0)} new case(s) added by experts; "
                f"audit: {self.audit_path}")


def audit_path_for(out_path: str | Path) -> Path:
    """``golden.v2.jsonl`` -> ``golden.v2.audit.jsonl``."""
    p = Path(out_path)
    stem = p.name[: -len(p.suffix)] if p.suffix else p.name
    return p.with_name(stem + ".audit.jsonl")


def import_review(review_path: str | Path, golden_path: str | Path, out_path: str | Path, *,
                  kb: str | Path | Mapping[str, Mapping[str, Any]] | None = None, unreviewed: str = "keep",
                  reviewer: str | None = None, audit_path: str | Path | None = None,
                  now: str | None = None) -> ReviewResult:
    """Apply the reviewed sheet to ``golden_path`` and write ``out_path`` (+ sidecar + audit).

    ``kb``: checks edited relevant ids (without it, only ids already in the golden file are accepted).
    ``unreviewed``: ``"keep"`` (default; marked ``review.status = "unreviewed"``), ``"drop"`` or
    ``"error"``. ``reviewer``: the name for rows whose ``reviewer`` cell is empty. Raises
    :class:`InputError` listing every problem of the sheet; writes nothing then.
    """
    if unreviewed not in UNREVIEWED_POLICIES:
        raise ConfigError(f"unreviewed must be one of {UNREVIEWED_POLICIES} (got {unreviewed!r})")
    review_path, golden_path, out_path = Path(review_path), Path(golden_path), Path(out_path)
    cases = read_golden(golden_path)
    parent = read_version(golden_path)
    sheet = read_sheet(review_path)
    kb_map = load_kb(kb) if isinstance(kb, (str, Path)) else kb
    if kb_map is not None:
        known = set(kb_map)
    else:
        known = {i for c in cases for i in c.relevant_ids} | {str(i) for c in cases
                                                              for i in (c.source.get("chunk_ids") or [])}
    now = now or utc_now()
    docs: dict[str, list[str]] = {}
    for cid, rec in (kb_map or {}).items():
        if rec.get("doc_id"):
            docs.setdefault(str(rec["doc_id"]), []).append(cid)
    kept, audit, problems = apply_review(cases, sheet.rows, known_ids=known, kb_given=kb_map is not None,
                                         unreviewed=unreviewed, reviewer=reviewer, round_=parent.version + 1,
                                         at=now, docs=docs)
    if problems:
        problems.sort(key=lambda p: (p.row or 10**9))
        if sheet.encoding == "cp1251":
            problems = [replace(p, hint=p.hint + " (this CSV was saved in the legacy cp1251 encoding, which turns "
                                "characters such as '²' or '₽' into '?': save as 'CSV UTF-8' or use .xlsx)")
                        if p.column in ("question", "reference") else p for p in problems]
        if len(problems) == 1:
            p = problems[0]
            raise InputError(p.message, file=str(review_path), line=p.row, field=p.column, hint=p.hint)
        shown = "\n".join(f"  {p}" for p in problems[:30])
        more = f"\n  ... and {len(problems) - 30} more" if len(problems) > 30 else ""
        raise InputError(f"{len(problems)} problems in the review file; fix them and import again (nothing was "
                         f"written). Rows as the spreadsheet numbers them:\n{shown}{more}", file=str(review_path))
    status = Counter(a["status"] for a in audit if not a.get("added_by_expert"))
    tally = {"accepted": status["accepted"], "edited": status["edited"], "rejected": status["rejected"],
             "unreviewed": status["unreviewed"],
             "unreviewed_dropped": sum(1 for a in audit if a["status"] == "unreviewed" and not a["kept"]),
             "not_in_review_file": sum(1 for a in audit if a.get("note") == "not in the review file"),
             "changes": sum(len(a["changes"]) for a in audit),
             "added": sum(1 for a in audit if a.get("added_by_expert") and a["kept"])}
    reviewers = sorted({a["reviewer"] for a in audit if a["reviewer"]})
    apath = Path(audit_path) if audit_path is not None else audit_path_for(out_path)
    lines = [json.dumps({"golden_version": parent.version + 1, "review_file": review_path.name, **a},
                        ensure_ascii=False) for a in audit]
    meta = write_golden(kept, out_path, parent=parent, event="reviewed", now=now,  # + sidecar + audit, together
                        details={"review_file": review_path.name, "reviewers": reviewers, "review": tally,
                                 "unreviewed_policy": unreviewed},
                        also={apath: "".join(line + "\n" for line in lines)})
    return ReviewResult(kept, audit, meta, out_path, apath, tally)


__all__ = ["PREVIEW_CHARS", "ReviewResult", "audit_path_for", "export_review", "import_review", "load_kb",
           "review_rows"]
