"""The pipeline contract at run time: a guard with a threshold at every stage of a team's own RAG.

>>> from ragauge.guard import Guard
>>> guard = Guard(retrieve, generate, post_check="flag")      # doctest: +SKIP
>>> result = guard.run("Какая гарантия на кровлю?", filters={"city": "Казань"})  # doctest: +SKIP
>>> result.kind, result.text, [s.decision for s in result.stages]  # doctest: +SKIP
"""

from .guard import DEFAULT_GRADE_THRESHOLDS, POST_CHECKS, Guard
from .result import KINDS, Chunk, GuardResult, StageRecord, normalize_chunks
from .synonyms import SynonymDictionary
from .templates import BLOCKED, NO_ANSWER

__all__ = [
    "BLOCKED", "DEFAULT_GRADE_THRESHOLDS", "KINDS", "NO_ANSWER", "POST_CHECKS", "Chunk", "Guard", "GuardResult",
    "StageRecord", "SynonymDictionary", "normalize_chunks",
]
