"""Run the reference RAG over a questions file and write samples that ``ragauge eval`` can score.

The input is any file :func:`ragauge.data.load` reads (a golden set or a samples file): ``id`` and
``question`` are used; ``relevant_ids``, ``reference``, ``tags`` and ``metadata`` are carried over;
old ``answer``/``contexts``/timings are replaced. ``metadata.filters`` (a mapping), when present, is
passed into retrieval. Guarded runs put the guard's outcome under ``metadata.guard`` and
``metadata.guard_kind`` (answer | no_answer | clarifying_question | blocked) and the text the user
sees (the no-answer or clarifying text) as the answer.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..data.schema import Sample
from ..errors import InputError
from .pipeline import ReferenceRAG

Progress = Callable[[int, int], None]


def _filters(sample: Sample) -> Mapping[str, Any] | None:
    value = sample.metadata.get("filters") if sample.metadata else None
    if value is not None and not isinstance(value, Mapping):
        raise InputError("metadata.filters must be an object field -> value(s)", field="metadata.filters",
                         value=value, hint='e.g. {"doc_id": "price-list-2026"}')
    return value


def run_samples(rag: ReferenceRAG, questions: Iterable[Sample] | Any, *, guard: Any = None, k: int | None = None,
                progress: Progress | None = None) -> list[Sample]:
    """Answer every question (guarded when ``guard`` is a :class:`ragauge.guard.Guard`); labels kept."""
    from ..data import load

    items: Sequence[Sample] = (list(questions) if isinstance(questions, (list, tuple)) and
                               all(isinstance(q, Sample) for q in questions) else load(questions))
    from ..data import require_questions

    require_questions(items, purpose="ragauge rag run")
    out = []
    for i, src in enumerate(items):
        filters = _filters(src)
        if guard is None:
            got = rag.answer(src.question, id=src.id, filters=filters, k=k)
        else:
            got = rag.answer_guarded(guard, src.question, id=src.id, filters=filters, k=k)
        keep = {key: v for key, v in (src.metadata or {}).items() if key not in ("rag", "guard", "guard_kind")}
        out.append(replace(got, relevant_ids=src.relevant_ids, reference=src.reference, tags=src.tags,
                           language=src.language or got.language, metadata={**keep, **got.metadata}))
        if progress is not None:
            progress(i + 1, len(items))
    return out


def run_to_jsonl(rag: ReferenceRAG, questions: Any, out: str | os.PathLike[str], *, guard: Any = None,
                 k: int | None = None, progress: Progress | None = None) -> list[Sample]:
    """:func:`run_samples` and write the result with :func:`ragauge.data.write_jsonl`."""
    from ..data import write_jsonl

    samples = run_samples(rag, questions, guard=guard, k=k, progress=progress)
    write_jsonl(samples, out)
    return samples


__all__ = ["run_samples", "run_to_jsonl"]
