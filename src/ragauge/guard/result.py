"""What the guard returns: the normalised chunks, one record per stage, and the typed result.

Retrieved items come in three shapes (a string, a dict ``{id, text, score, metadata}``, an object with
those attributes); :func:`normalize_chunks` turns each into a :class:`Chunk` so no stage cares which.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Literal, Sequence

from ..errors import InputError

Kind = Literal["answer", "no_answer", "clarifying_question", "blocked"]
KINDS = ("answer", "no_answer", "clarifying_question", "blocked")


@dataclass(frozen=True, slots=True)
class Chunk:
    """One retrieved passage. ``score`` is ``None`` when the retriever gave none."""

    id: str
    text: str
    score: float | None = None
    metadata: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "text": self.text, "score": self.score, "metadata": dict(self.metadata)}


def _get(item: Any, name: str, default: Any = None) -> Any:
    if isinstance(item, dict):
        return item.get(name, default)
    return getattr(item, name, default)


def normalize_chunk(item: Any, index: int) -> Chunk:
    """A string, a dict or an object with ``text`` (or ``page_content``) -> :class:`Chunk`."""
    if isinstance(item, str):
        return Chunk(id=str(index), text=item)
    text = _get(item, "text")
    if text is None:
        text = _get(item, "page_content")  # LangChain's Document, so adapters stay thin
    if not isinstance(text, str):
        raise InputError("a retrieved item has no text", field="text", value=item,
                         hint="return strings, dicts {id, text, score, metadata} or objects with those attributes")
    metadata = _get(item, "metadata") or {}
    cid = _get(item, "id")
    if cid is None:
        cid = metadata.get("id", index) if isinstance(metadata, dict) else index
    score = _get(item, "score")
    if score is not None:
        try:
            score = float(score)
        except (TypeError, ValueError):
            raise InputError("a retrieved item's score is not a number", field="score", value=score) from None
    return Chunk(id=str(cid), text=text, score=score, metadata=dict(metadata) if isinstance(metadata, dict) else {})


def normalize_chunks(items: Iterable[Any] | None) -> list[Chunk]:
    if items is None:
        return []
    if isinstance(items, (str, bytes)):
        raise InputError("the retriever returned one string, not a list of items", value=items,
                         hint="return a list (of strings, dicts or objects)")
    return [normalize_chunk(item, i) for i, item in enumerate(items)]


def _score_key(c: Chunk) -> float:
    return c.score if c.score is not None else -math.inf  # a score of 0.0 is a score, not "none"


def merge_chunks(chunks: Sequence[Chunk], k: int) -> list[Chunk]:
    """Merge the results of several queries: one chunk per id (its best score), best first, top k."""
    best: dict[str, Chunk] = {}
    order: list[str] = []
    for c in chunks:
        if c.id not in best:
            order.append(c.id)
            best[c.id] = c
        elif _score_key(c) > _score_key(best[c.id]):
            best[c.id] = c
    merged = [best[i] for i in order]
    if any(c.score is not None for c in merged):
        merged.sort(key=lambda c: -_score_key(c))
    return merged[:k]


@dataclass(frozen=True, slots=True)
class StageRecord:
    """One stage's decision: ``decision`` is e.g. "pass", "skipped", "no_answer", "clarify", "flag"."""

    name: str
    decision: str
    scores: dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    duration_ms: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "decision": self.decision, "scores": dict(self.scores),
                "reason": self.reason, "duration_ms": round(self.duration_ms, 3)}


@dataclass(frozen=True, slots=True)
class GuardResult:
    """The guard's verdict on one question.

    ``kind`` is "answer", "no_answer" (nothing retrieved above the score threshold),
    "clarifying_question" (the context graded below the gates) or "blocked" (the post-check refused
    the answer). ``text`` is what to show the user. ``unsupported`` lists the post-check's unsupported
    claims (verdict dicts) in "flag"/"strip"/"block" modes.
    """

    kind: Kind
    text: str
    question: str
    rewritten: str | None
    contexts: tuple[Chunk, ...]
    citations: tuple[dict[str, Any], ...]
    stages: tuple[StageRecord, ...]
    timings: dict[str, float]
    unsupported: tuple[dict[str, Any], ...] = ()
    request_id: str | None = None  #: the trace events' id; ``None`` when tracing is off

    def stage(self, name: str) -> StageRecord | None:
        """The record of stage ``name``, or ``None`` if the run stopped before it."""
        return next((s for s in self.stages if s.name == name), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "text": self.text, "question": self.question, "rewritten": self.rewritten,
            "contexts": [c.to_dict() for c in self.contexts], "citations": [dict(c) for c in self.citations],
            "stages": [s.to_dict() for s in self.stages],
            "timings": {k: round(v, 3) for k, v in self.timings.items()},
            "unsupported": [dict(u) for u in self.unsupported], "request_id": self.request_id,
        }
