"""Production requests as golden-set candidates: rows ``ragauge review export`` and ``ragauge eval`` read.

A row is a golden case (:class:`ragauge.generate.case.GoldenCase`) plus what the trace saw::

    {"id": "trace-t42", "question": "...", "reference": "", "relevant_ids": [], "tags": ["simple"],
     "language": "ru", "answer": "...", "contexts": [{"id", "text", "score", "metadata"}],
     "metadata": {"type": "simple", "slices": [], "language": "ru", "source": {"chunk_ids": [...]},
                  "generator": "ragauge serve", "expected_behaviour": "answer",
                  "trace_id": "t42", "app_name": "...", "app_version": "...", "received_at": ...,
                  "scores": {"faithfulness": 0.5, ...}, "feedback": [{"rating": -1, "comment": "..."}],
                  "observed_behaviour": "answer"}}

``reference`` is empty and ``relevant_ids`` too: what the right answer and the relevant chunks are is the
reviewer's call (the retrieved chunk ids are in ``metadata.source.chunk_ids`` to start from). The
observed behaviour becomes ``expected_behaviour`` only for a clarifying question or a "not found"
answer the reviewer may confirm; anything else is ``answer``.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Iterator


def candidate_row(item: dict[str, Any]) -> dict[str, Any]:
    """One golden candidate from :func:`ragauge.serve.dashboard.queries.get_request`'s item."""
    row, record = item["row"], item["record"]
    language = row.language or "ru"
    contexts = record.get("contexts") or []
    chunk_ids = [str(c["id"]) for c in contexts if c.get("id") is not None]
    behaviour = item.get("behaviour") or "answer"
    meta = {
        "type": "simple", "slices": [], "language": language,
        "source": {"chunk_ids": chunk_ids}, "generator": "ragauge serve",
        "expected_behaviour": behaviour if behaviour in ("answer", "not_found", "clarify") else "answer",
        "trace_id": row.id, "app_name": row.app_name, "app_version": row.app_version,
        "received_at": row.received_at, "observed_behaviour": behaviour,
        "scores": {m: s["value"] for m, s in sorted(item["scores"].items())},
        "feedback": [{"rating": f["rating"], "comment": f.get("comment")} for f in item.get("feedback", [])],
    }
    if row.meta:
        meta["trace_metadata"] = row.meta
    out: dict[str, Any] = {"id": f"trace-{row.id}", "question": row.question or "", "reference": "",
                           "relevant_ids": [], "tags": ["simple"], "language": language}
    if row.answer is not None:
        out["answer"] = row.answer
    if contexts:
        out["contexts"] = contexts
    out["metadata"] = meta
    return out


def jsonl_lines(items: Iterable[dict[str, Any]]) -> Iterator[str]:
    """One JSON line per item with a question (a trace without one cannot be a test case)."""
    for item in items:
        if not (item["row"].question or "").strip():
            continue
        yield json.dumps(candidate_row(item), ensure_ascii=False, allow_nan=False) + "\n"
