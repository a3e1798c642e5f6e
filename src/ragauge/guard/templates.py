"""The user-facing texts of the guard (ru/en) and the language pick. Pure functions, no judge."""

from __future__ import annotations

import re
from typing import Sequence

_CYRILLIC = re.compile(r"[А-Яа-яЁё]")

NO_ANSWER = {
    "ru": "В базе нет подходящих документов, чтобы ответить на этот вопрос. "
          "Попробуйте переформулировать вопрос или уточнить, о чём именно идёт речь.",
    "en": "No suitable documents were found to answer this question. "
          "Try rephrasing it or saying more precisely what it is about.",
}

BLOCKED = {
    "ru": "Ответ не показан: часть его утверждений не подтверждается найденными документами.",
    "en": "The answer was withheld: some of its statements are not supported by the retrieved documents.",
}

FLAG_HEADER = {"ru": "Не подтверждается документами:", "en": "Not supported by the documents:"}


def detect_lang(text: str, lang: str | None = None) -> str:
    """``lang`` when given, else "ru" for text with Cyrillic letters, else "en"."""
    if lang:
        return "ru" if lang.lower().startswith("ru") else "en"
    return "ru" if _CYRILLIC.search(text) else "en"


def _topic(text: str, words: int = 8) -> str:
    parts = text.split()
    head = " ".join(parts[:words])
    return head + ("…" if len(parts) > words else "")


def clarifying_question(found: Sequence[str], missing: Sequence[str], lang: str) -> str:
    """Built from what the context covers (``found``: short topics) and what it lacks (``missing`` words).

    >>> clarifying_question(["Штукатурка стен"], ["яхты"], "ru").startswith("Уточните")
    True
    """
    topics = "; ".join(_topic(t) for t in found if t.strip())
    if lang == "ru":
        parts = ["Уточните, пожалуйста, вопрос."]
        if topics:
            parts.append(f"В базе нашлось: {topics}.")
        if missing:
            parts.append(f"Но нет сведений о: {', '.join(missing)}.")
        parts.append("Что именно вас интересует?")
    else:
        parts = ["Could you clarify the question?"]
        if topics:
            parts.append(f"The documents cover: {topics}.")
        if missing:
            parts.append(f"They say nothing about: {', '.join(missing)}.")
        parts.append("What exactly would you like to know?")
    return " ".join(parts)


def flagged_answer(answer: str, unsupported: Sequence[str], lang: str) -> str:
    """The answer followed by the list of its unsupported claims."""
    if not unsupported:
        return answer
    lines = "\n".join(f"- {c}" for c in unsupported)
    return f"{answer}\n\n{FLAG_HEADER[lang]}\n{lines}"
