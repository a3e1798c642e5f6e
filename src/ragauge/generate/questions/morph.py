"""Russian word forms for question templates: pymorphy3 inflection of a noun phrase's head.

Templates need a few operations only: lower-case the first word of a table item without breaking
abbreviations ("ГКЛ") or names, put the head of a noun phrase into another case ("стоимость чего" ->
genitive: "укладка ламината" -> "укладки ламината"), and know its gender and number to agree a word
with it ("Какова стоимость", "Сколько стоила облицовка"). The head is the first noun of the phrase
together with the adjectives that agree with it just before and just after it; every other word is
kept as written ("облицовка стен ГКЛ в один слой" changes only "облицовка").

When pymorphy3 (``pip install 'ragauge[offline]'``) is missing, :func:`available` is False and the
generator skips the Russian templates that need a case other than the nominative, reporting it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

_WORD = re.compile(r"[А-Яа-яЁё]+(?:-[А-Яа-яЁё]+)*")
_CASES = {"nomn", "gent", "datv", "accs", "ablt", "loct"}


@lru_cache(maxsize=1)
def _analyzer() -> Any:
    try:
        from ragauge.judges.offline import deps

        return deps.morph_analyzer()
    except Exception:  # noqa: BLE001 - missing package or dictionary: degrade, the caller reports it
        return None


def available() -> bool:
    """True when pymorphy3 and its Russian dictionary can be loaded."""
    return _analyzer() is not None


@lru_cache(maxsize=50_000)
def _nominative_parse(word: str) -> Any:
    """The most probable parse of ``word`` that is in the nominative, else None."""
    morph = _analyzer()
    if morph is None:
        return None
    for parse in morph.parse(word.lower()):
        if parse.tag.case == "nomn" and parse.tag.POS in ("NOUN", "ADJF", "PRTF"):
            return parse
    return None


def is_abbreviation(word: str) -> bool:
    """"ГКЛ", "НДС", "B25", "М500", "iPhone": words whose case must stay as written."""
    letters = [c for c in word if c.isalpha()]
    if len(letters) >= 2 and all(c.isupper() for c in letters):
        return True
    return any(c.isupper() for c in word[1:]) or any(c.isdigit() for c in word)


def is_proper(word: str) -> bool:
    """A name, surname, place or organisation that keeps its capital letter."""
    morph = _analyzer()
    if morph is None or not _WORD.fullmatch(word):
        return False
    tag = morph.parse(word)[0].tag
    return any(g in tag for g in ("Name", "Surn", "Patr", "Geox", "Orgn", "Trad"))


def lower_first(phrase: str) -> str:
    """Lower-case the first letter unless the first word is an abbreviation, a code or a name:
    "Монтаж ГКЛ в один слой" -> "монтаж ГКЛ в один слой"; "ГКЛ в один слой" stays.
    """
    if not phrase:
        return phrase
    first = phrase.split(" ", 1)[0]
    if is_abbreviation(first) or is_proper(first):
        return phrase
    return phrase[0].lower() + phrase[1:]


def _head_positions(words: list[str]) -> tuple[list[int], Any]:
    """Indexes of the head noun and its agreeing adjectives (nominative), and the noun's parse."""
    noun_at, noun = None, None
    for i, word in enumerate(words[:4]):
        parse = _nominative_parse(word.strip(",.;:")) if _WORD.fullmatch(word.strip(",.;:")) else None
        if parse is None:
            return [], None
        if parse.tag.POS == "NOUN":
            noun_at, noun = i, parse
            break
    if noun is None:
        return [], None
    idx = list(range(noun_at + 1))
    for j in range(noun_at + 1, len(words)):  # post-positive adjectives: "кирпич керамический полнотелый"
        word = words[j]
        if word != word.strip(",.;:") and not word.endswith("-"):
            clean = word.strip(",.;:")
            parse = _nominative_parse(clean) if _WORD.fullmatch(clean) else None
            if parse is not None and parse.tag.POS in ("ADJF", "PRTF") and _agrees(parse, noun):
                idx.append(j)
            break
        parse = _nominative_parse(word) if _WORD.fullmatch(word) else None
        if parse is None or parse.tag.POS not in ("ADJF", "PRTF") or not _agrees(parse, noun):
            break
        idx.append(j)
    return idx, noun


def _agrees(adj: Any, noun: Any) -> bool:
    if adj.tag.number != noun.tag.number:
        return False
    return noun.tag.number == "plur" or adj.tag.gender == noun.tag.gender


def _match_case(original: str, form: str) -> str:
    if original[:1].isupper():
        return form[:1].upper() + form[1:]
    return form


def inflect(phrase: str, case: str) -> str | None:
    """``phrase`` with its head put into ``case`` (pymorphy3 grammeme), or None when not possible
    (no pymorphy3, no nominative noun head): "укладка ламината" -> "укладки ламината" (gent);
    "кирпич керамический полнотелый М150" -> "кирпича керамического полнотелого М150".
    Examples are checked in ``tests/generate/test_questions.py`` (doctests would need pymorphy3).
    """
    if case not in _CASES:
        raise ValueError(f"unknown case {case!r}")
    if case == "nomn":
        return phrase
    words = phrase.split(" ")
    idx, noun = _head_positions(words)
    if noun is None:
        return None
    out = list(words)
    for group in _coordinated(words, idx):
        if not _inflect_group(words, out, group, case):
            return None
    return " ".join(out)


def _coordinated(words: list[str], idx: list[int]) -> list[list[int]]:
    """The head group, plus "и"/"или" + another nominative noun group right after it ("приём и укладка")."""
    groups = [idx]
    while groups[-1] and groups[-1][-1] + 2 < len(words) and words[groups[-1][-1] + 1] in ("и", "или") \
            and not words[groups[-1][-1]].endswith(","):
        start = groups[-1][-1] + 2
        nxt, noun = _head_positions(words[start:])
        if noun is None or _maybe_genitive(words[start + nxt[-1]]):
            break
        groups.append([start + i for i in nxt])
    return groups


def _maybe_genitive(word: str) -> bool:
    """"обрешётки" may be a genitive complement, not a second head: leave such words alone."""
    return any(p.tag.case == "gent" for p in _analyzer().parse(word.strip(",.;:").lower()))


def _inflect_group(words: list[str], out: list[str], idx: list[int], case: str) -> bool:
    noun = next(_nominative_parse(words[i].strip(",.;:")) for i in idx
                if _nominative_parse(words[i].strip(",.;:")).tag.POS == "NOUN")
    number = noun.tag.number
    for i in idx:
        raw = words[i]
        clean = raw.strip(",.;:")
        parse = _nominative_parse(clean)
        grammemes = {case, number}
        if parse.tag.POS in ("ADJF", "PRTF") and case == "accs" and noun.tag.animacy:
            grammemes.add(noun.tag.animacy)
        form = parse.inflect(grammemes)
        if form is None:
            return False
        word = form.word
        if "ё" not in clean.lower() and "ё" in word:
            word = word.replace("ё", "е")
        out[i] = raw.replace(clean, _match_case(clean, word))
    return True


def head_lemma(phrase: str) -> str | None:
    """Dictionary form of the head noun: "минимальная сумма заказа" -> "сумма"."""
    _, noun = _head_positions(phrase.split(" "))
    return None if noun is None else noun.normal_form


def gender_number(phrase: str) -> str | None:
    """"masc", "femn", "neut" or "plur" for the head noun of ``phrase``, None when unknown."""
    _, noun = _head_positions(phrase.split(" "))
    if noun is None:
        return None
    if noun.tag.number == "plur":
        return "plur"
    return noun.tag.gender or "masc"


def agree(forms: dict[str, str], phrase: str, default: str = "masc") -> str:
    """Pick the word form agreeing with ``phrase``: ``agree({"masc": "Каков", "femn": "Какова", ...}, ...)``."""
    key = gender_number(phrase) or default
    return forms.get(key, forms[default])


__all__ = ["agree", "available", "gender_number", "head_lemma", "inflect", "is_abbreviation", "is_proper",
           "lower_first"]
