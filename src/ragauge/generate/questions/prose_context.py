"""Context for prose questions: a question whose sentence leans on the one before names its section, and the
same question from sentences with different answers names where each is from (so each has one answer)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from ragauge.generate.questions.qualifier import distinguished

if TYPE_CHECKING:
    from ragauge.generate.chunking import Chunk
    from ragauge.generate.questions.prose import ProseQuestion


#: Words that lean on the sentence before ("за каждые последующие сутки", "the remaining days"): the question
#: names its section so it keeps its context.
ANAPHORA = re.compile(r"\b(?:последующ|остальн|указанн|вышеуказанн|данн(?:ый|ая|ое|ые|ого|ой|ых)\b|"
                       r"subsequent|remaining|such)", re.IGNORECASE)


def in_context(question: str, chunk: Chunk, lang: str) -> str:
    """«Какая плата взимается за каждые последующие сутки (раздел «Хранение и оплата»)?»: the section's name."""
    name = chunk.section[-1] if chunk.section else chunk.title
    if not name or name.casefold() in question.casefold():
        return question
    where = f" (раздел «{name}»)" if lang == "ru" else f" (section “{name}”)"
    return question.rstrip("?") + where + "?"


def qualify(items: list[ProseQuestion]) -> list[ProseQuestion]:
    """The same question from sentences with different answers: name what tells their chunks apart (the thing
    each section names, else the section, else the document; :mod:`.qualifier`) so that each has exactly one
    answer; identical sentences stay as one question (merged later), and names that tell nothing apart leave
    the question as it is (dropped later as ambiguous)."""
    groups: dict[str, list[int]] = {}
    for i, q in enumerate(items):
        groups.setdefault(q.question.casefold(), []).append(i)
    out = list(items)
    for idxs in groups.values():
        if len({items[i].reference for i in idxs}) < 2:
            continue
        asked = distinguished([items[i].question for i in idxs], [items[i].chunk for i in idxs],
                              [items[i].lang for i in idxs])
        for i, question in zip(idxs, asked or []):
            out[i] = replace(items[i], question=question)
    return out


__all__ = ["ANAPHORA", "in_context", "qualify"]
