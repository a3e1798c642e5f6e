"""Turn one untrusted record (a dict from JSONL, CSV, Parquet, a DataFrame...) into a :class:`Sample`.

This is the only place that builds a ``Sample`` from user data. Every problem becomes an
:class:`~ragauge.errors.InputError` naming the file, line (or row), field, the bad value and the fix;
all problems of a record are reported together. The rules are documented in ``docs/data-format.md``.

>>> s = sample_from_record({"id": 7, "user_input": "Who?", "retrieved_context_ids": ["d1"]}, file=None, line=3)
>>> s.id, s.question, s.retrieved_ids
('7', 'Who?', ('d1',))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Sequence

from ragauge.data import _ids, _values as v
from ragauge.data._text_checks import check_surrogates, json_cell_problems
from ragauge.data._collect import ErrorCollector, Location
from ragauge.data._fields import SECONDS_ALIASES, check_field_map, resolve
from ragauge.data.schema import TIMING_FIELDS, Sample
from ragauge.data.tools import read_calls, read_expected, read_ordered
from ragauge.errors import InputError

__all__ = ["require_questions", "sample_from_record"]


def sample_from_record(
    record: Mapping[str, Any],
    *,
    file: str | None,
    line: int | None,
    field_map: Mapping[str, str] | None = None,
    row: int | None = None,
) -> Sample:
    """Validate ``record`` and return a ``Sample``; raise ``InputError`` naming every problem.

    ``file``/``line`` (1-based) or ``row`` (0-based) say where the record came from: they appear in
    error messages and give a record without ``id`` its id (``line-17``, ``row-17``).
    ``field_map`` renames the user's keys first: ``{"query": "question"}``.
    """
    errors = ErrorCollector()
    sample = build_sample(record, Location(file, line, row), check_field_map(field_map), errors)
    errors.raise_if_any(file)
    assert sample is not None  # no error was collected, so a sample was built
    return sample


def require_questions(samples: Sequence[Sample], *, purpose: str, source: str | None = None) -> None:
    """Raise ``InputError`` naming the samples without a question (``question`` is optional since
    issue 13), for callers that ask each sample's question: the RAG runner, a user's pipeline.

    ``purpose`` starts the hint: ``"ragauge rag run"`` -> "ragauge rag run asks each sample's question".
    """
    missing = [s.id for s in samples if s.question is None]
    if not missing:
        return
    shown = ", ".join(repr(i) for i in missing[:5])
    if len(missing) > 5:
        shown += f" and {len(missing) - 5} more"
    raise InputError(
        f"{len(missing)} of {len(samples)} samples have no question: {shown}",
        file=source,
        field="question",
        hint=f"{purpose} asks each sample's question: give one (Ragas: 'user_input'), "
        "or map your column with --field-map THEIRS=question (Python: field_map=)",
    )


def build_sample(
    record: Any, loc: Location, field_map: Mapping[str, str], errors: ErrorCollector, *, check_text: bool = True
) -> Sample | None:
    """Loader-facing core: add every problem to ``errors`` and return None when there was one.

    ``check_text=False``: the reader already looked for lone surrogates (JSON readers do it on the
    raw text, much faster than walking every string of every record)."""
    if not isinstance(record, Mapping):
        errors.add(
            loc.error(
                f"a sample must be an object with named fields, not {v.type_name(record)}",
                value=record,
                hint='Write one object per sample, e.g. {"id": "q1", "question": "..."}',
            )
        )
        return None
    before = errors.total
    if check_text:
        check_surrogates(record, loc, errors)
    bad_cells = json_cell_problems(record, loc, errors)
    if bad_cells:
        record = {key: value for key, value in record.items() if key not in bad_cells}
    found, extras = resolve(record, field_map, loc, errors)

    def get(name: str) -> tuple[str, str, Any] | None:
        return found.get(name)

    docs = get("retrieved_ids")
    if docs is not None and docs[1] in _ids.DOC_OBJECT_NAMES and get("contexts") is None and _doc_texts(docs[2]):
        found["contexts"] = docs  # retrieved_docs as objects {id, text}: the texts are the contexts

    fields: dict[str, Any] = {}
    fields["id"] = v.sample_id(get("id"), loc, errors)
    fields["question"] = v.question(get("question"), loc, errors)
    fields["answer"] = v.optional_str(get("answer"), loc, errors)
    fields["reference"] = v.reference(get("reference"), loc, errors, extras)
    fields["language"] = v.optional_str(get("language"), loc, errors)
    fields["contexts"] = v.contexts(get("contexts"), loc, errors)
    fields["retrieved_ids"] = _ids.retrieved_ids(get("retrieved_ids"), loc, errors)
    fields["relevant_ids"] = _ids.relevant_ids(get("relevant_ids"), loc, errors)
    fields["tags"] = v.tags(get("tags"), loc, errors)
    for name in TIMING_FIELDS:
        given = get(name)
        scale = 1000.0 if given is not None and given[1] in SECONDS_ALIASES else 1.0
        fields[name] = v.timing(given, loc, errors, scale=scale)
    fields["metadata"] = v.metadata(get("metadata"), extras, loc, errors)
    chat = read_calls(get("tool_calls"), loc, errors)
    if chat is not None:
        fields["tool_calls"] = chat.calls
        # chat messages: the first user message is the question, the last assistant text the answer
        if fields["question"] is None and chat.question is not None and chat.question.strip():
            fields["question"] = chat.question
        if fields["answer"] is None and chat.answer is not None:
            fields["answer"] = chat.answer
    fields["expected_tools"] = read_expected(get("expected_tools"), loc, errors)
    fields["tools_ordered"] = read_ordered(get("tools_ordered"), loc, errors)
    fields["expected_outcome"] = v.optional_str(get("expected_outcome"), loc, errors)
    _check_context_ranking(fields, loc, errors)

    if errors.total > before:
        return None
    return Sample(**fields)



def _doc_texts(value: Any) -> bool:
    items = v.as_list(v.decode_text(value))
    return bool(items) and all(
        isinstance(item, Mapping) and any(item.get(k) is not None for k in v.TEXT_KEYS) for item in items  # type: ignore[union-attr]
    )


def _check_context_ranking(fields: dict[str, Any], loc: Location, errors: ErrorCollector) -> None:
    # Without retrieved_ids the contexts' ids are the ranking (Sample.ranking): same rule as for
    # retrieved_ids, each document once.
    ctx_ids = [c.id for c in fields["contexts"]]
    if fields["retrieved_ids"] is not None or not ctx_ids or None in ctx_ids:
        return
    seen: set[str | None] = set()
    for i, ctx_id in enumerate(ctx_ids):
        if ctx_id in seen:
            errors.add(
                loc.error(
                    f"duplicate context id {ctx_id!r} (context {i}); "
                    "without retrieved_ids the contexts' ids are the ranking",
                    field="contexts",
                    hint="Give retrieved_ids explicitly, or make context ids unique",
                )
            )
            return
        seen.add(ctx_id)
