"""Paraphrases from a synonym dictionary shipped with the package (``generate/data/synonyms_{ru,en}.txt``).

The files use the format of :class:`ragauge.guard.synonyms.SynonymDictionary` (``term: syn, syn``). One
word of the question whose lemma is a term is replaced by a synonym in the same word form: a Russian
noun only by a noun of the same gender and number (pymorphy3 inflects it into the original case; after a
preposition, the case the preposition governs: «к стоимости полиса» -> «к цене полиса», never «к цены»), an
adjective into the same case, number and gender; so "Какова стоимость укладки ламината?" becomes
"Какова цена укладки ламината?". English swaps whole words, keeping a plural "s".
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from importlib import resources
from typing import Any, Sequence

from ragauge.generate.questions import morph

_WORD = re.compile(r"[A-Za-zА-Яа-яЁё-]+")


def _parse_file(text: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line or ":" not in line:
            continue
        term, rest = line.split(":", 1)
        out.setdefault(term.strip().lower(), []).extend(s.strip() for s in rest.split(",") if s.strip())
    return out


@lru_cache(maxsize=4)
def synonyms(lang: str) -> dict[str, list[str]]:
    """term -> synonyms of the bundled dictionary for ``lang`` ("ru" or "en")."""
    path = resources.files("ragauge.generate").joinpath("data", f"synonyms_{lang}.txt")
    return _parse_file(path.read_text(encoding="utf-8"))


#: The cases a preposition governs: «к стоимости» is a dative, so its synonym is «к цене», never «к цены».
_GOVERNS = {"к": {"datv"}, "ко": {"datv"}, "по": {"datv", "loct", "accs"}, "о": {"loct", "accs"},
            "об": {"loct", "accs"}, "при": {"loct"}, "в": {"loct", "accs"}, "во": {"loct", "accs"}, "на": {"loct", "accs"},
            "за": {"ablt", "accs"}, "под": {"ablt", "accs"}, "над": {"ablt"}, "перед": {"ablt"}, "между": {"ablt"},
            "через": {"accs"}, "про": {"accs"}, "с": {"gent", "ablt", "accs"}, "со": {"gent", "ablt", "accs"},
            "для": {"gent"}, "до": {"gent"}, "от": {"gent"}, "из": {"gent"}, "у": {"gent"}, "без": {"gent"},
            "после": {"gent"}, "около": {"gent"}, "кроме": {"gent"}, "вместо": {"gent"}, "сверх": {"gent"}}


def _governed(before: Sequence[str]) -> set[str] | None:
    """The cases the preposition before a word allows (adjectives between them skipped), None when there is none."""
    analyzer = morph._analyzer()
    for word in reversed(before[-3:]):
        low = word.lower()
        if low in _GOVERNS:
            return _GOVERNS[low]
        if not any(p.tag.POS in ("ADJF", "PRTF", "NUMR") for p in analyzer.parse(low)):
            return None
    return None


def _ru_swap(word: str, synonym: str, before: Sequence[str] = ()) -> str | None:
    """``synonym`` in ``word``'s form. The form is the word's most probable parse, or, after a preposition, its
    parse in a case the preposition governs («стоимости» after «к» is a dative); None when no parse fits, when
    the synonym's form would depend on a case the context does not settle, or when it does not inflect."""
    analyzer = morph._analyzer()
    if analyzer is None or " " in synonym:
        return None
    parses = analyzer.parse(word.lower())
    src = parses[0]
    governed = _governed(list(before))
    if governed is not None:
        fits = [p for p in parses if p.tag.POS == src.tag.POS and p.normal_form == src.normal_form
                and p.tag.case in governed]
        if not fits or len({_form(p, synonym) for p in fits}) > 1:
            return None  # no parse, or two the preposition allows that give the synonym different forms
        src = fits[0]
    return _form(src, synonym, word)


def _form(src: Any, synonym: str, word: str = "") -> str | None:
    """``synonym`` in the form of the parse ``src`` (None when it cannot be: another part of speech or gender)."""
    analyzer = morph._analyzer()
    dst = next((p for p in analyzer.parse(synonym) if p.tag.POS == src.tag.POS and p.normal_form == synonym), None)
    if dst is None or src.tag.POS not in ("NOUN", "ADJF"):
        return None
    if src.tag.POS == "NOUN":
        if dst.tag.gender != src.tag.gender or src.tag.case is None:
            return None
        form = dst.inflect({src.tag.case, src.tag.number or "sing"})
    else:
        grams = {g for g in (src.tag.case, src.tag.number, src.tag.gender) if g}
        form = dst.inflect(grams)
    if form is None:
        return None
    out = form.word
    if "ё" not in synonym and "ё" in out:
        out = out.replace("ё", "е")
    return out[:1].upper() + out[1:] if word[:1].isupper() else out


def paraphrase(question: str, lang: str, rng: random.Random) -> tuple[str, str] | None:
    """(new question, "word->synonym") with one dictionary word swapped, or None when none applies."""
    table = synonyms(lang)
    options = []
    quoted = [(q.start(), q.end()) for q in re.finditer(r"«[^»]*»|\"[^\"]*\"", question)]
    for m in _WORD.finditer(question):
        word = m.group()
        if any(a <= m.start() < b for a, b in quoted):
            continue  # a section or document name is quoted as written
        if lang == "ru":
            if not morph.available():
                return None
            lemma = morph._analyzer().parse(word.lower())[0].normal_form
            for syn in table.get(lemma, []):
                new = _ru_swap(word, syn, _WORD.findall(question[:m.start()]))
                if new:
                    options.append((m.start(), m.end(), new, f"{lemma}->{syn}"))
        else:
            low = word.lower()
            plural = low.endswith("s") and low[:-1] in table
            base = low[:-1] if plural else low
            for syn in table.get(base, []):
                new = syn + ("s" if plural else "")
                new = new[:1].upper() + new[1:] if word[:1].isupper() else new
                options.append((m.start(), m.end(), new, f"{base}->{syn}"))
    if not options:
        return None
    start, end, new, note = rng.choice(options)
    return question[:start] + new + question[end:], note


__all__ = ["paraphrase", "synonyms"]
