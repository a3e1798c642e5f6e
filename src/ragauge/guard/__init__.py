"""The pipeline contract at run time: a guard with a threshold at every stage of a team's own RAG.

>>> from ragauge.guard import Guard
>>> guard = Guard(retrieve, generate, post_check="flag")      # doctest: +SKIP
>>> result = guard.run("Какая гарантия на кровлю?", filters={"city": "Казань"})  # doctest: +SKIP
>>> result.kind, result.text, [s.decision for s in result.stages]  # doctest: +SKIP

Adapters (optional extras): ``ragauge.guard.adapters.langchain`` / ``.llamaindex``. Tracing:
``Guard(..., trace=ListSink() | "trace.jsonl" | callable)`` or :func:`set_default_sink`. Threshold
calibration: ``ragauge.guard.thresholds.calibrate_threshold`` and ``ragauge guard thresholds``.
"""

from .guard import DEFAULT_GRADE_THRESHOLDS, POST_CHECKS, Guard
from .result import KINDS, Chunk, GuardResult, StageRecord, normalize_chunks
from .synonyms import SynonymDictionary
from .templates import BLOCKED, NO_ANSWER
from .trace import JsonlSink, ListSink, TraceEvent, set_default_sink

__all__ = [
    "BLOCKED", "DEFAULT_GRADE_THRESHOLDS", "KINDS", "NO_ANSWER", "POST_CHECKS", "Chunk", "Guard", "GuardResult",
    "JsonlSink", "ListSink", "StageRecord", "SynonymDictionary", "TraceEvent", "normalize_chunks",
    "set_default_sink",
]
