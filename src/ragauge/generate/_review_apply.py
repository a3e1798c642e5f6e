"""Apply a reviewed sheet to golden cases: a pure function from (cases, rows) to (cases, audit, problems).

Per case, by the ``decision`` cell (case-insensitive; Russian words accepted too):

- ``accept`` (принять): kept as is; filling an ``*_edit`` column too is a problem (say ``edit``);
- ``edit`` (исправить): the non-empty ``question_edit`` / ``reference_edit`` / ``relevant_ids_edit``
  replace the fields; at least one must differ from the original;
- ``reject`` (отклонить): dropped; edits written beside it are kept in the audit as ``proposed``;
- empty, or the case has no row: *unreviewed*, handled by ``unreviewed`` = ``"keep"`` (kept, marked
  ``review.status = "unreviewed"``; default), ``"drop"`` (left out, listed in the audit) or
  ``"error"`` (a problem: finish the review first).

A row with an empty ``id`` and a question is a *new case* an expert adds (:mod:`._review_expert`):
with ``accept`` it gets the next ``expert-NNNN`` id and goes after the golden cases; ``reject`` skips it.

Problems (every one is collected, none stops the others): a row without an id, an id that is not in
the golden file, an id on two rows, an unknown decision, edits without ``edit``, ``edit`` without
edits, an edited relevant id that is not in the knowledge base, an original column (question,
reference, relevant_ids) that no longer matches the golden file (edited in place, or the golden file
changed since the export). ``relevant_ids_edit`` lists ids one per line or separated by ``;``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from ragauge.generate._review_expert import expert_case, is_new_case, next_ids
from ragauge.generate._review_table import EDIT_COLUMNS, SheetRow, clean
from ragauge.generate.case import GoldenCase

ALIASES = {
    "accept": "accept", "accepted": "accept", "ok": "accept", "принять": "accept", "принято": "accept",
    "edit": "edit", "edited": "edit", "исправить": "edit", "исправлено": "edit",
    "reject": "reject", "rejected": "reject", "отклонить": "reject", "отклонено": "reject",
}
STATUS = {"accept": "accepted", "edit": "edited", "reject": "rejected", None: "unreviewed"}
UNREVIEWED_POLICIES = ("keep", "drop", "error")
_FIELD = {"question_edit": "question", "reference_edit": "reference", "relevant_ids_edit": "relevant_ids"}


@dataclass(frozen=True)
class Problem:
    row: int | None
    column: str | None
    message: str
    hint: str

    def __str__(self) -> str:
        where = ", ".join(x for x in (f"row {self.row}" if self.row else "", f"column '{self.column}'"
                                      if self.column else "") if x)
        return f"{where}: {self.message}. {self.hint}" if where else f"{self.message}. {self.hint}"


def split_ids(text: str) -> list[str]:
    """``"a#1\\nb#2; c#3"`` -> ``["a#1", "b#2", "c#3"]`` (order kept, duplicates dropped)."""
    out: list[str] = []
    for part in re.split(r"[\n;]", text):
        part = part.strip()
        if part and part not in out:
            out.append(part)
    return out


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", clean(text)).strip()


def _stale(case: GoldenCase, values: Mapping[str, str], row: int) -> list[Problem]:
    out = []
    for column, original in (("question", case.question), ("reference", case.reference)):
        if values.get(column, "").strip() and _norm(values[column]) != _norm(original):
            out.append(Problem(row, column, f"differs from the golden file's {column} of case {case.id!r}",
                               f"Write the new text in '{column}_edit' and leave '{column}' as exported; if the "
                               "golden file changed since the export, export the review file again"))
    rel = values.get("relevant_ids", "")
    if rel.strip() and split_ids(rel) != list(dict.fromkeys(case.relevant_ids)):
        out.append(Problem(row, "relevant_ids", f"differs from the golden file's relevant ids of case {case.id!r}",
                           "Write new ids in 'relevant_ids_edit' and leave 'relevant_ids' as exported"))
    return out


def _changes(case: GoldenCase, values: Mapping[str, str], row: int, known: set[str], kb_given: bool
             ) -> tuple[list[dict[str, Any]], list[Problem]]:
    changes, problems = [], []
    for column in ("question_edit", "reference_edit"):
        new = clean(values.get(column, "")).strip()
        old = getattr(case, _FIELD[column])
        if new and _norm(new) != _norm(old):
            changes.append({"field": _FIELD[column], "old": old, "new": new})
    raw = values.get("relevant_ids_edit", "")
    if raw.strip():
        new_ids = split_ids(raw)
        unknown = [i for i in new_ids if i not in known]
        if case.type == "unanswerable" or case.expected_behaviour == "not_found":
            problems.append(Problem(row, "relevant_ids_edit", f"case {case.id!r} is unanswerable (nothing in the "
                                    "corpus answers it), so it cannot get relevant ids",
                                    "If the corpus does answer it, reject the case and say so in 'comment'"))
        elif unknown:
            hint = ("Use chunk ids from kb.jsonl (column 'id'), one per line or separated by ';'" if kb_given else
                    "These ids appear nowhere in the golden file; pass the knowledge base (--kb kb.jsonl) so "
                    "new ids can be checked")
            problems.append(Problem(row, "relevant_ids_edit", f"unknown chunk id(s) {unknown}", hint))
        elif new_ids != list(case.relevant_ids):
            changes.append({"field": "relevant_ids", "old": list(case.relevant_ids), "new": new_ids})
    return changes, problems


def _with_changes(case: GoldenCase, changes: Sequence[Mapping[str, Any]]) -> GoldenCase:
    fields: dict[str, Any] = {}
    for ch in changes:
        fields[ch["field"]] = tuple(ch["new"]) if ch["field"] == "relevant_ids" else ch["new"]
    return replace(case, **fields)


def _review_entry(case: GoldenCase, entry: Mapping[str, Any]) -> GoldenCase:
    """``entry`` as the case's ``review`` metadata; an earlier review moves into ``previous``."""
    old = dict(case.extra.get("review") or {})
    new = dict(entry)
    if old:
        new["previous"] = list(old.pop("previous", [])) + [old]
    return replace(case, extra={**dict(case.extra), "review": new})


def apply_review(cases: Sequence[GoldenCase], rows: Sequence[SheetRow], *, known_ids: set[str], kb_given: bool,
                 unreviewed: str = "keep", reviewer: str | None = None, round_: int = 2, at: str | None = None,
                 docs: Mapping[str, Sequence[str]] | None = None
                 ) -> tuple[list[GoldenCase], list[dict[str, Any]], list[Problem]]:
    """The reviewed cases (golden order, then the experts' new cases), one audit entry per golden case and per
    new case, and every problem found. ``docs``: doc_id -> chunk ids, so a new row may name a document."""
    by_id = {c.id: c for c in cases}
    problems: list[Problem] = []
    decided: dict[str, tuple[SheetRow, str | None]] = {}
    first_row: dict[str, int] = {}
    new_rows: list[SheetRow] = []
    by_question = {_norm(c.question): c.id for c in cases}
    for r in rows:
        cid = r.values.get("id", "").strip()
        same = by_question.get(_norm(r.values.get("question", ""))) if not cid else None
        if is_new_case(r) and same is None:
            new_rows.append(r)
            continue
        if not cid:
            problems.append(Problem(r.row, "id", "the row has no id" + (f" (its question is case {same!r})"
                                                                         if same else ""),
                                    "Fill in the case id as exported, or delete the row; a new case of your own "
                                    "needs a question that is not in the golden file yet"))
            continue
        if cid in first_row:
            problems.append(Problem(r.row, "id", f"id {cid!r} is also on row {first_row[cid]}",
                                    "Keep one row per case: merge the two rows and delete one"))
            continue
        first_row[cid] = r.row
        if cid not in by_id:
            problems.append(Problem(r.row, "id", f"id {cid!r} is not in the golden file",
                                    "Check the id, or import against the golden file this sheet was exported from; "
                                    "to add a new case, leave its id empty and write accept"))
            continue
        word = r.values.get("decision", "").strip().lower()
        if word and word not in ALIASES:
            problems.append(Problem(r.row, "decision", f"invalid decision {r.values['decision'].strip()!r}",
                                    "Use accept, edit or reject (or leave empty: not reviewed)"))
            continue
        decided[cid] = (r, ALIASES.get(word))
    out: list[GoldenCase] = []
    audit: list[dict[str, Any]] = []
    for case in cases:
        row, decision = decided.get(case.id, (None, None))
        values = row.values if row is not None else {}
        rownum = row.row if row is not None else None
        changes: list[dict[str, Any]] = []
        if row is not None:
            problems.extend(_stale(case, values, rownum))
            changes, bad = _changes(case, values, rownum, known_ids, kb_given)
            if decision != "reject":  # a rejected case's proposed edits are only recorded, not applied
                problems.extend(bad)
            has_edits = any(values.get(c, "").strip() for c in EDIT_COLUMNS)
            if has_edits and decision in (None, "accept"):
                problems.append(Problem(rownum, "decision", f"edits are filled in but the decision is "
                                        f"{decision or 'empty'!r}", "Set the decision to 'edit' to apply "
                                        "them, or clear the *_edit cells"))
            elif decision == "edit" and not changes and not bad:
                problems.append(Problem(rownum, "decision", "decision 'edit' but no *_edit cell changes anything",
                                        "Fill question_edit, reference_edit or relevant_ids_edit, or say 'accept'"))
        status = STATUS[decision]
        if decision is None and unreviewed == "error":
            problems.append(Problem(rownum, "decision", f"case {case.id!r} is not reviewed" +
                                    ("" if row else " (no row in the review file)"),
                                    "Fill in every decision, or import with --unreviewed keep|drop"))
        kept = decision in ("accept", "edit") or (decision is None and unreviewed == "keep")
        entry: dict[str, Any] = {"status": status, "decision": decision, "round": round_, "at": at,
                                 "reviewer": (values.get("reviewer", "").strip() or reviewer or None),
                                 "comment": values.get("comment", "").strip() or None, "row": rownum,
                                 "changes": changes if decision == "edit" else []}
        if decision == "reject" and changes:
            entry["proposed"] = changes
        if row is None:
            entry["note"] = "not in the review file"
        audit.append({"id": case.id, "kept": kept, **entry})
        if kept:
            new = _with_changes(case, changes) if decision == "edit" else case
            out.append(_review_entry(new, entry))
    added, added_audit = _expert_rows(cases, new_rows, problems, known_ids=known_ids, kb_given=kb_given,
                                      docs=docs or {}, reviewer=reviewer, round_=round_, at=at)
    return out + added, audit + added_audit, problems


def _expert_rows(cases: Sequence[GoldenCase], rows: Sequence[SheetRow], problems: list[Problem], *,
                 known_ids: set[str], kb_given: bool, docs: Mapping[str, Sequence[str]], reviewer: str | None,
                 round_: int, at: str | None) -> tuple[list[GoldenCase], list[dict[str, Any]]]:
    """New cases from id-less rows (:mod:`._review_expert`), ids ``expert-NNNN`` in row order."""
    out: list[GoldenCase] = []
    audit: list[dict[str, Any]] = []
    fresh = iter(next_ids(cases, len(rows)))
    for r in rows:
        word = r.values.get("decision", "").strip().lower()
        if word and word not in ALIASES:
            problems.append(Problem(r.row, "decision", f"invalid decision {r.values['decision'].strip()!r}",
                                    "Write accept to add this new case, or delete the row"))
            continue
        decision = ALIASES.get(word)
        author = r.values.get("reviewer", "").strip() or reviewer or None
        entry: dict[str, Any] = {"status": STATUS[decision] if decision == "reject" else "accepted",
                                 "decision": decision, "round": round_, "at": at, "reviewer": author,
                                 "comment": r.values.get("comment", "").strip() or None, "row": r.row,
                                 "changes": [], "added_by_expert": True}
        case, bad = expert_case(r, "", decision=decision, known_ids=known_ids, kb_given=kb_given, docs=docs,
                                reviewer=reviewer, entry=entry, problem=Problem)
        problems.extend(bad)
        if case is not None:
            case = replace(case, id=next(fresh))
            out.append(case)
            audit.append({"id": case.id, "kept": True, **entry, "question": case.question,
                          "reference": case.reference, "relevant_ids": list(case.relevant_ids),
                          "author": case.extra["author"]})
        elif decision == "reject" and not bad:
            audit.append({"id": None, "kept": False, **entry, "note": "new case rejected in the sheet"})
    return out, audit


__all__ = ["ALIASES", "Problem", "UNREVIEWED_POLICIES", "apply_review", "split_ids"]
