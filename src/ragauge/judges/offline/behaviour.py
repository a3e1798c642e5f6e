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

import re
from typing import Literal

from ragauge.judges.offline.claims import _CLARIFY, is_refusal

Behaviour = Literal["answer", "not_found", "clarify"]


# A request to clarify as LLMs and people write it: "Уточните, пожалуйста, о какой услуге идёт речь?",
# "Пожалуйста, уточните ...", "Не могли бы вы уточнить ...", "Чтобы ответить точно, уточните ...",
# "Could you specify which ...?", "Which warranty do you mean?"
_ASK_RU = re.compile(r"(?:^|[\s,.:;—-])(?:уточните|поясните|конкретизируйте|укажите,?\s+пожалуйста"
                     r"|(?:не\s+)?могли\s+бы\s+вы\s+(?:уточнить|пояснить|указать)|нужно\s+уточнить"
                     r"|(?:как\w*|что|чем)\s+(?:\w+\s+){0,4}вы\s+имеете\s+в\s+виду)", re.IGNORECASE)
_ASK_EN = re.compile(r"\b(?:(?:could|can|would)\s+you\s+(?:please\s+)?(?:clarify|specify|tell\s+me\s+which)"
                     r"|please\s+(?:clarify|specify)|(?:which|what)\s+(?:\w+\s+){0,4}do\s+you\s+mean)\b", re.IGNORECASE)
_FIRST_SENTENCE = re.compile(r"^.*?(?:[.!?…](?=\s|$)|$)", re.DOTALL)


def _asks_to_clarify(text: str) -> bool:
    """The answer's first sentence asks the user to clarify (a request, not an answer that mentions it)."""
    if _CLARIFY.match(text):
        return True
    head = _FIRST_SENTENCE.match(text)
    first = head.group(0) if head else text
    for pattern in (_ASK_RU, _ASK_EN):
        m = pattern.search(first)
        # the request opens the answer, after at most a short lead ("Чтобы ответить точно, ..."), not after a fact
        if m and len(first[:m.start()].split()) <= 4 and not any(ch.isdigit() for ch in first[:m.start()]):
            return True
    return False


def answer_behaviour(answer: str | None, lang: str | None = None) -> Behaviour:
    """``clarify`` when the answer opens by asking the user to clarify, ``not_found`` when it declines and says
    nothing checkable (an empty answer too), else ``answer``.

    >>> answer_behaviour("Пожалуйста, уточните, какой объект вы имеете в виду.")
    'clarify'
    >>> answer_behaviour("Could you specify which warranty you mean?")
    'clarify'
    >>> answer_behaviour("Гарантия 5 лет. Уточните у менеджера сроки монтажа.")
    'answer'
    """
    text = (answer or "").strip()
    if text and _asks_to_clarify(text):
        return "clarify"
    if is_refusal(text, lang):
        return "not_found"
    return "answer"


__all__ = ["Behaviour", "answer_behaviour"]
