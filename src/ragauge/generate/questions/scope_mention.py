"""A thing the question's sentence calls by its kind only, named earlier in the same chunk.

«Опцию «Отмена поездки» можно добавить к любой программе. Страховая сумма по опции — до 2 000 €.» gives «Какова
страховая сумма по опции?», and a reader of documents that offer several options cannot tell which. When the
chunk names exactly one thing of that kind (a noun followed by a quoted or Latin name in Russian; "the Trip
Cancellation option", capitalised words between an article and the noun, in English) and the sentence the
question is from uses the noun without a name, the question gets the name after the noun: «Какова страховая
сумма по опции «Отмена поездки»?», "What is the cover under the Trip Cancellation option?".
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragauge.generate.chunking import Chunk
from ragauge.generate.questions import morph

_RU_NAMED = re.compile(r"(?<![\w-])([А-Яа-яЁё]+)\s+(«[^«»]+»|[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*(?![\w-]))")
_EN_NAMED = re.compile(r"\b(?:[Tt]he|[Aa]n?|[Oo]ur)\s+((?:[A-Z][\w'-]*\s+){1,3})([a-z][a-z-]+)\b")


@lru_cache(maxsize=8192)
def _ru_lemma(word: str) -> str:
    return morph._analyzer().parse(word.lower())[0].normal_form


def _ru_names(text: str) -> dict[str, set[str]]:
    """Noun lemma -> the names the text gives things of that kind."""
    out: dict[str, set[str]] = {}
    for m in _RU_NAMED.finditer(text):
        parse = morph._analyzer().parse(m.group(1).lower())[0]
        if parse.tag.POS == "NOUN":
            out.setdefault(parse.normal_form, set()).add(m.group(2))
    return out


def _en_names(text: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for m in _EN_NAMED.finditer(text):
        out.setdefault(m.group(2).lower(), set()).add(m.group(1).strip())
    return out


def named(question: str, sentence: str, chunk: Chunk, lang: str) -> str:
    """``question`` with the name of the one thing of its kind ``chunk`` names, when ``sentence`` (the
    question's source) calls that thing by its kind only; else ``question`` as it is."""
    if lang == "ru":
        if not morph.available():
            return question
        names = _ru_names(chunk.text)
        if not names:
            return question
        own = _ru_names(sentence)
        said = {_ru_lemma(t) for t in re.findall(r"[А-Яа-яЁё]+", sentence)}
        words = question.split(" ")
        for i, w in enumerate(words):
            clean, tail = re.fullmatch(r"(.*?)([?,.]*)", w).groups()
            if not re.fullmatch(r"[а-яё]+", clean):
                continue
            lemma = _ru_lemma(clean)
            found = names.get(lemma, set())
            nxt = words[i + 1] if i + 1 < len(words) and not tail else ""
            if len(found) == 1 and lemma in said and lemma not in own and not nxt.startswith(("«", "\"")) \
                    and not nxt[:1].isupper():
                return " ".join(words[:i] + [f"{clean} {next(iter(found))}{tail}"] + words[i + 1:])
        return question
    names = _en_names(chunk.text)
    own = _en_names(sentence)
    for noun, found in names.items():
        if len(found) != 1 or noun in own or not re.search(rf"\b{re.escape(noun)}\b", sentence, re.IGNORECASE):
            continue
        m = re.search(rf"\bthe {re.escape(noun)}\b", question)
        if m:
            return f"{question[:m.start()]}the {next(iter(found))} {noun}{question[m.end():]}"
    return question


__all__ = ["named"]
