"""Offline question generation for golden sets (no model, no network); see :mod:`.generate`."""

from __future__ import annotations

from ragauge.generate.questions.generate import chunk_language, generate_questions, summarize
from ragauge.generate.questions.typos import wrong_layout

__all__ = ["chunk_language", "generate_questions", "summarize", "wrong_layout"]
