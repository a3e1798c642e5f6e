"""What an answer does: answers, says the knowledge base has nothing (not found), or asks to clarify.

A golden case may declare the behaviour a good system shows (``metadata.expected_behaviour``: ``answer``,
``not_found``, ``clarify``, ``refuse_or_caution``; see :mod:`ragauge.generate.case`); the test helpers compare
it with what the answer did. The rules are the offline judge's own (:func:`ragauge.judges.offline.claims.is_refusal`
and its clarifying-question opener), so a test and the faithfulness metric read an answer the same way.

    >>> answer_behaviour("К сожалению, в базе нет документов о гарантии на окна.")
    'not_found'
    >>> answer_behaviour("Уточните, пожалуйста, что именно вас интересует: монтаж или демонтаж?")
    'clarify'
    >>> answer_behaviour("Монтаж стоит 1150 рублей за м².")
    'answer'
"""

from __future__ import annotations

from typing import Literal

from ragauge.judges.offline.claims import _CLARIFY, is_refusal

Behaviour = Literal["answer", "not_found", "clarify"]


def answer_behaviour(answer: str | None, lang: str | None = None) -> Behaviour:
    """``clarify`` when the answer opens by asking the user to clarify, ``not_found`` when it declines and says
    nothing checkable (an empty answer too), else ``answer``."""
    text = (answer or "").strip()
    if text and _CLARIFY.match(text):
        return "clarify"
    if is_refusal(text, lang):
        return "not_found"
    return "answer"


__all__ = ["Behaviour", "answer_behaviour"]
