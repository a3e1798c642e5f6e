"""The user-facing texts of the guard (ru/en) and the language pick. Pure functions, no judge."""

from __future__ import annotations

from typing import Sequence

from ..lang import ru_or_en


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
    """``lang`` when given, else the detected one, as "ru" or "en" (:func:`ragauge.lang.ru_or_en`)."""
    return ru_or_en(text, lang)


def _topic(text: str, words: int = 8) -> str:
    parts = text.split()
    head = " ".join(parts[:words])
    return head + ("…" if len(parts) > words else "")


#: the value a question part asks for, as a clarifying question names it when the documents lack it
KIND_NAMES = {
    "ru": {"price": "цена или сумма", "duration": "срок", "date": "дата или время", "count": "количество",
           "who": "кто именно", "where": "место или адрес", "how": "порядок действий", "definition": "определение",
           "list": "перечень"},
    "en": {"price": "a price or amount", "duration": "a duration or deadline", "date": "a date or time",
           "count": "a number", "who": "who", "where": "a place or address", "how": "the procedure",
           "definition": "a definition", "list": "a list"},
}


def clarifying_question(found: Sequence[str], missing: Sequence[str], lang: str, *,
                        kinds: Sequence[str] = ()) -> str:
    """Built from what the context covers (``found``: short topics) and what it lacks: ``missing`` subject
    words (never question words) and, when the subject is there but the value is not, ``kinds`` -- the
    value types asked for (:data:`KIND_NAMES`).

    >>> clarifying_question(["Штукатурка стен"], ["яхты"], "ru").startswith("Уточните")
    True
    >>> "срок" in clarifying_question(["Гарантия"], [], "ru", kinds=["duration"])
    True
    """
    topics = "; ".join(_topic(t) for t in found if t.strip())
    values = [KIND_NAMES[lang][k] for k in kinds if k in KIND_NAMES[lang]]
    if lang == "ru":
        parts = ["Уточните, пожалуйста, вопрос."]
        if topics:
            parts.append(f"В базе нашлось: {topics}.")
        if missing:
            parts.append(f"Но нет сведений о: {', '.join(missing)}.")
        elif values:
            parts.append(f"Но в них не указано: {', '.join(values)}.")
        parts.append("Что именно вас интересует?")
    else:
        parts = ["Could you clarify the question?"]
        if topics:
            parts.append(f"The documents cover: {topics}.")
        if missing:
            parts.append(f"They say nothing about: {', '.join(missing)}.")
        elif values:
            parts.append(f"They do not state {', '.join(values)}.")
        parts.append("What exactly would you like to know?")
    return " ".join(parts)


def flagged_answer(answer: str, unsupported: Sequence[str], lang: str) -> str:
    """The answer followed by the list of its unsupported claims."""
    if not unsupported:
        return answer
    lines = "\n".join(f"- {c}" for c in unsupported)
    return f"{answer}\n\n{FLAG_HEADER[lang]}\n{lines}"
