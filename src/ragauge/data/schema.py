"""The one sample schema every front door (files, DataFrames, pytest plugin, guard, collector) produces.

Samples are plain frozen dataclasses: cheap to build, hashable ids, no validation magic here.
Validation with file/line/field errors lives in :mod:`ragauge.data.validate`, which is the only
place that builds a ``Sample`` from untrusted records.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:  # pragma: no cover
    from ragauge.data.tools import ExpectedTool, ToolCall

# Mapping defaults are plain dicts (default_factory): a MappingProxyType default is rejected by
# dataclasses on Python 3.11 (unhashable) and cannot be pickled (process pools).


@dataclass(frozen=True, slots=True)
class Context:
    """One retrieved chunk as the generator saw it.

    ``id`` links the chunk to ``relevant_ids``; ``score`` is the retriever's score when known.
    """

    text: str
    id: str | None = None
    score: float | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Sample:
    """One evaluated interaction of a RAG system.

    - ``retrieved_ids``: the ranking, best first, *as given* (never re-sorted). When absent and every
      context has an id, the contexts' order is the ranking.
    - ``relevant_ids``: document id -> graded relevance (a plain list in the input means grade 1 each).
      Grades follow trec_eval: ``>= 1`` is relevant, ``0`` and negatives are judged non-relevant.
    - Timings are in milliseconds; ``None`` means not measured (never 0).
    - ``question`` is None when the input has none (NLI-style or summary data); metrics that need a
      question list it in their spec's ``requires`` and leave such a sample unscored with a reason.
    - Agents (:mod:`ragauge.data.tools`): ``tool_calls`` the agent made (``None``: not recorded, ``()``:
      none made), ``expected_tools`` the task needs, ``tools_ordered`` whether their order matters, and
      ``expected_outcome`` the result the task should reach.
    """

    id: str
    question: str | None = None
    answer: str | None = None
    contexts: tuple[Context, ...] = ()
    retrieved_ids: tuple[str, ...] | None = None
    relevant_ids: Mapping[str, float] | None = None
    reference: str | None = None
    tags: tuple[str, ...] = ()
    language: str | None = None
    latency_ms: float | None = None
    retrieval_ms: float | None = None
    ttft_ms: float | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    tool_calls: "tuple[ToolCall, ...] | None" = None
    expected_tools: "tuple[ExpectedTool, ...] | None" = None
    tools_ordered: bool = False
    expected_outcome: str | None = None

    @property
    def ranking(self) -> tuple[str, ...] | None:
        """The ranked ids used by ranking metrics: ``retrieved_ids``, else the contexts' ids in order."""
        if self.retrieved_ids is not None:
            return self.retrieved_ids
        if self.contexts and all(c.id is not None for c in self.contexts):
            return tuple(c.id for c in self.contexts)  # type: ignore[misc]
        return None

    @property
    def context_ids(self) -> tuple[str, ...] | None:
        """Ids of the chunks the generator saw: the contexts' ids, else ``retrieved_ids`` (all of them)."""
        if self.contexts and all(c.id is not None for c in self.contexts):
            return tuple(c.id for c in self.contexts)  # type: ignore[misc]
        return self.retrieved_ids

    @property
    def context_texts(self) -> tuple[str, ...]:
        return tuple(c.text for c in self.contexts)


#: Timing fields of a sample, in milliseconds.
TIMING_FIELDS = ("latency_ms", "retrieval_ms", "ttft_ms")

#: Every field name of the canonical schema, in order.
SAMPLE_FIELDS = (
    "id",
    "question",
    "answer",
    "contexts",
    "retrieved_ids",
    "relevant_ids",
    "reference",
    "tags",
    "language",
    "latency_ms",
    "retrieval_ms",
    "ttft_ms",
    "metadata",
)

#: The agent's fields (:mod:`ragauge.data.tools`): optional, written only when given, so a plain RAG
#: sample keeps exactly :data:`SAMPLE_FIELDS`.
AGENT_FIELDS = ("tool_calls", "expected_tools", "tools_ordered", "expected_outcome")
