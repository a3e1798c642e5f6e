"""Context for prose questions: a question whose sentence leans on the one before names its section, and the
same question from sentences with different answers names where each is from (so each has one answer)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

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
    """The same question from sentences with different answers: name the section (or the document) so that
    each has exactly one answer; identical sentences stay as one question (merged later)."""
    groups: dict[str, list[int]] = {}
    for i, q in enumerate(items):
        groups.setdefault(q.question.casefold(), []).append(i)
    out = list(items)
    for idxs in groups.values():
        if len({items[i].reference for i in idxs}) < 2:
            continue
        for i in idxs:
            q = items[i]
            sections = {items[j].chunk.section[-1] if items[j].chunk.section else "" for j in idxs}
            name = q.chunk.section[-1] if len(sections) == len(idxs) and q.chunk.section else q.chunk.title
            where = (f" согласно разделу «{name}»" if q.chunk.section and name == q.chunk.section[-1]
                     else f" по документу «{name}»") if q.lang == "ru" else f" according to “{name}”"
            out[i] = replace(q, question=q.question[:-1] + where + "?")
    return out


__all__ = ["ANAPHORA", "in_context", "qualify"]
