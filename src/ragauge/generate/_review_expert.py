"""New cases an expert adds in the review sheet: a row with an empty ``id`` and a question.

The row gives ``question`` (or ``question_edit``), ``reference`` (or ``reference_edit``), the relevant
chunks in ``relevant_ids`` (or ``relevant_ids_edit``): chunk ids of kb.jsonl or a document's name
(its ``doc_id``, meaning all its chunks; needs the knowledge base), optionally ``type`` and
``behaviour``, and the decision ``accept``. Import gives it the next free id ``expert-0001`` …,
``metadata.generator = None``, ``metadata.author`` = the reviewer's name (else ``"expert"``) and
``review.status = "accepted"``. A row that is not clean is refused with its row number and the fix.
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from ragauge.generate._review_table import SheetRow, clean
from ragauge.generate.case import BEHAVIOURS, TYPES, GoldenCase

#: Columns whose text makes an id-less row a new case (an empty row is only a missing id).
CONTENT = ("question", "question_edit", "reference", "reference_edit", "relevant_ids", "relevant_ids_edit")
_EXPERT_ID = re.compile(r"^expert-(\d+)$")


def is_new_case(row: SheetRow) -> bool:
    return not row.values.get("id", "").strip() and any(row.values.get(c, "").strip() for c in CONTENT)


def _text(values: Mapping[str, str], column: str) -> str:
    return clean(values.get(column + "_edit", "") or values.get(column, "")).strip()


def next_ids(cases: Sequence[GoldenCase], k: int) -> list[str]:
    """``k`` fresh ids after the highest ``expert-NNNN`` already in the golden file."""
    top = max((int(m.group(1)) for c in cases if (m := _EXPERT_ID.match(c.id))), default=0)
    return [f"expert-{top + i:04d}" for i in range(1, k + 1)]


def _language(text: str) -> str:
    from ragauge.judges.offline.text import detect_language

    return {"en": "en"}.get(detect_language(text) or "", "ru")


def expert_case(row: SheetRow, case_id: str, *, decision: str | None, known_ids: set[str], kb_given: bool,
                docs: Mapping[str, Sequence[str]], reviewer: str | None, entry: Mapping[str, Any], problem: Any
                ) -> tuple[GoldenCase | None, list[Any]]:
    """The new case of ``row`` (None when refused or rejected) and the problems (``problem(row, column,
    message, hint)`` builds each). ``docs``: doc_id -> its chunk ids (from the knowledge base)."""
    values, n = row.values, row.row
    out: list[Any] = []
    if decision != "accept":
        if decision == "reject":
            return None, []
        out.append(problem(n, "decision", f"a new case (empty id) needs the decision 'accept', not "
                           f"{decision or 'empty'!r}", "Write accept in 'decision' to add it, or delete the row"))
    question, reference = _text(values, "question"), _text(values, "reference")
    behaviour = values.get("behaviour", "").strip() or "answer"
    ctype = values.get("type", "").strip() or ("unanswerable" if behaviour == "not_found" else "simple")
    if not question:
        out.append(problem(n, "question", "a new case has no question",
                           "Write the question in 'question' (leave 'id' empty: import gives it an id)"))
    if behaviour not in BEHAVIOURS:
        out.append(problem(n, "behaviour", f"unknown behaviour {behaviour!r}", f"Use one of {', '.join(BEHAVIOURS)}"))
    if ctype not in TYPES:
        out.append(problem(n, "type", f"unknown type {ctype!r}", f"Use one of {', '.join(TYPES)}"))
    if not reference and behaviour == "answer":
        out.append(problem(n, "reference", "a new case has no reference answer",
                           "Write the correct answer in 'reference'"))
    from ragauge.generate._review_apply import split_ids

    ids: list[str] = []
    unknown: list[str] = []
    for item in split_ids(values.get("relevant_ids_edit", "") or values.get("relevant_ids", "")):
        if item in known_ids:
            ids.append(item)
        elif item in docs:
            ids += [c for c in docs[item] if c not in ids]
        else:
            unknown.append(item)
    if unknown:
        hint = ("Use chunk ids from kb.jsonl (column 'id') or a document name (its 'doc_id'), one per line or "
                "separated by ';'" if kb_given else "Pass the knowledge base (--kb kb.jsonl) so new chunk ids and "
                "document names can be checked")
        out.append(problem(n, "relevant_ids", f"unknown chunk id(s) or document(s) {unknown}", hint))
    elif not ids and behaviour == "answer":
        out.append(problem(n, "relevant_ids", "a new answerable case names no relevant chunk",
                           "Write the chunk ids from kb.jsonl, or the document's name, in 'relevant_ids'"))
    if out:
        return None, out
    author = values.get("reviewer", "").strip() or reviewer or "expert"
    doc_of = {c: d for d, chunks in docs.items() for c in chunks}
    doc_ids = list(dict.fromkeys(doc_of[i] for i in ids if i in doc_of))
    case = GoldenCase(id=case_id, question=question, reference=reference, relevant_ids=tuple(ids), type=ctype,
                      language=_language(question), source={"chunk_ids": ids, "doc_ids": doc_ids},
                      generator=None, expected_behaviour=behaviour,
                      extra={"author": author, "review": dict(entry)})
    return case, []


__all__ = ["CONTENT", "expert_case", "is_new_case", "next_ids"]
