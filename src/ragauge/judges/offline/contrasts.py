"""Words that exclude each other: a swap the number check cannot see.

"Доставка работает по выходным" against "Доставка работает по будням" has no number and shares every
other word; the embedding calls it a paraphrase. Each group below holds terms of which a statement
names one: day type (weekdays / weekends / holidays), part of day, frequency (daily ... yearly, with
"ежемесячно" = "каждый месяц" = "monthly"), season and material. A claim term is *swapped* when it
is the claim's only term of its group, no sentence of the evidence or the contexts (``background``)
states it with most of the claim's other words, and the evidence names another term of the same group.

    >>> contrast_swap("Доставка работает по выходным.", "Доставка работает по будням.")
    ('по выходным', 'по будням')
    >>> contrast_swap("Абонентская плата ежемесячная.", "Плата вносится каждый месяц.") is None
    True

Russian phrases match on lemmas, English ones on Porter stems (``lemmas.analyze``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from ragauge.judges.offline.lemmas import analyze

from ragauge.judges.offline.scope import _phrase_key

__all__ = ["CONTRAST_TERMS", "contrast_swap", "contrast_terms", "shared_term_words"]

# (group:term, phrase). Longer phrases win over their parts.
CONTRAST_TERMS: tuple[tuple[str, str], ...] = (
    ("days:weekday", "будни"), ("days:weekday", "будний"), ("days:weekday", "будень"), ("days:weekday", "будний день"),
    ("days:weekend", "выходной"), ("days:weekend", "выходной день"), ("days:holiday", "праздничный"),
    ("days:holiday", "праздник"), ("days:holiday", "праздничный день"),
    ("days:weekday", "weekday"), ("days:weekend", "weekend"), ("days:holiday", "holiday"),
    ("daypart:morning", "утро"), ("daypart:morning", "утром"), ("daypart:evening", "вечер"),
    ("daypart:evening", "вечером"), ("daypart:night", "ночь"), ("daypart:night", "ночью"),
    ("daypart:morning", "morning"), ("daypart:evening", "evening"), ("daypart:night", "night"),
    ("freq:day", "ежедневно"), ("freq:day", "ежедневный"), ("freq:day", "каждый день"),
    ("freq:week", "еженедельно"), ("freq:week", "еженедельный"), ("freq:week", "каждый неделя"),
    ("freq:month", "ежемесячно"), ("freq:month", "ежемесячный"), ("freq:month", "каждый месяц"),
    ("freq:quarter", "ежеквартально"), ("freq:quarter", "ежеквартальный"), ("freq:quarter", "каждый квартал"),
    ("freq:year", "ежегодно"), ("freq:year", "ежегодный"), ("freq:year", "каждый год"),
    ("freq:day", "daily"), ("freq:day", "every day"), ("freq:week", "weekly"), ("freq:week", "every week"),
    ("freq:month", "monthly"), ("freq:month", "every month"), ("freq:quarter", "quarterly"),
    ("freq:quarter", "every quarter"), ("freq:year", "yearly"), ("freq:year", "annually"), ("freq:year", "every year"),
    ("season:winter", "зима"), ("season:winter", "зимой"), ("season:winter", "зимний"), ("season:spring", "весна"),
    ("season:spring", "весной"), ("season:spring", "весенний"), ("season:summer", "лето"), ("season:summer", "летом"),
    ("season:summer", "летний"), ("season:autumn", "осень"), ("season:autumn", "осенью"), ("season:autumn", "осенний"),
    ("season:winter", "winter"), ("season:summer", "summer"), ("season:autumn", "autumn"),
    ("material:gypsum", "гипсокартон"), ("material:gypsum", "гипсокартонный"), ("material:gypsum", "гкл"),
    ("material:gypsum", "гипсокартонный лист"), ("material:plastic", "пластик"), ("material:plastic", "пластика"),
    ("material:plastic", "пластиковый"), ("material:plastic", "пвх"), ("material:metal", "металл"),
    ("material:metal", "металлический"), ("material:wood", "дерево"), ("material:wood", "деревянный"),
    ("material:wood", "древесина"), ("material:brick", "кирпич"), ("material:brick", "кирпичный"),
    ("material:concrete", "бетон"), ("material:concrete", "бетонный"), ("material:concrete", "железобетон"),
    ("material:concrete", "железобетонный"), ("material:glass", "стекло"), ("material:glass", "стеклянный"),
    ("material:gypsum", "plasterboard"), ("material:gypsum", "drywall"), ("material:gypsum", "gypsum board"),
    ("material:plastic", "plastic"), ("material:plastic", "pvc"), ("material:metal", "metal"),
    ("material:wood", "wood"), ("material:wood", "wooden"), ("material:wood", "timber"), ("material:brick", "brick"),
    ("material:concrete", "concrete"), ("material:glass", "glass"),
    ("days:weekday", "по рабочий день"), ("days:weekday", "в рабочий день"),
    # a working-week range is the weekdays: "понедельник–пятница", "с понедельника по пятницу", "пн-пт"
    ("days:weekday", "понедельник пятница"), ("days:weekday", "с понедельник по пятница"),
    ("days:weekday", "пн-пт"), ("days:weekday", "monday friday"), ("days:weekday", "monday to friday"),
    ("days:weekday", "mon-fri"), ("days:weekday", "from monday to friday"),
    # the period of a rate: "до 2 дней в неделю" is not "до 2 дней в месяц"
    ("period:week", "в неделя"), ("period:month", "в месяц"), ("period:year", "в год"), ("period:quarter", "в квартал"),
    ("period:week", "per week"), ("period:month", "per month"), ("period:year", "per year"),
    ("material:ceramic", "металлокерамический"), ("material:zirconia", "диоксид циркония"),
    ("material:composite", "композит"), ("material:composite", "композитный"),
    ("material:cement", "стеклоиономерный цемент"),
    # kinds of a material are written "material:<kind>.<sort>": steel is a metal, so "из металла" and "из стали"
    # do not exclude each other, while "из стали" and "из алюминия" do
    ("material:metal.steel", "сталь"), ("material:metal.steel", "стальной"), ("material:metal.steel", "нержавейка"),
    ("material:metal.steel", "из стать"),  # pymorphy3 reads "стали" as the verb "стать"
    ("material:metal.steel", "нержавеющий сталь"), ("material:metal.copper", "медь"), ("material:metal.copper", "медный"),
    ("material:metal.aluminium", "алюминий"), ("material:metal.aluminium", "алюминиевый"),
    ("material:metal.iron", "чугун"), ("material:metal.iron", "чугунный"),
    ("material:plastic.pp", "полипропилен"), ("material:plastic.pp", "полипропиленовый"),
    ("material:plastic.pe", "полиэтилен"), ("material:plastic.pe", "полиэтиленовый"),
    ("material:concrete.aerated", "газобетон"), ("material:concrete.aerated", "газобетонный"),
    ("material:concrete.aerated", "газоблок"), ("material:concrete.aerated", "пенобетон"),
    ("material:concrete.aerated", "пенобетонный"), ("material:concrete.aerated", "пеноблок"),
    ("material:ceramic", "керамика"), ("material:ceramic", "керамический"),
    ("material:stone", "гранит"), ("material:stone", "гранитный"),
    ("material:metal.steel", "steel"), ("material:metal.steel", "stainless steel"), ("material:metal.copper", "copper"),
    ("material:metal.aluminium", "aluminium"), ("material:metal.aluminium", "aluminum"),
    ("material:metal.iron", "cast iron"), ("material:plastic.pp", "polypropylene"), ("material:plastic.pe", "polyethylene"),
    # not "stone"/"камень": "look like stone", "зубной камень" name no material of the thing
    ("material:concrete.aerated", "aerated concrete"), ("material:ceramic", "ceramic"), ("material:stone", "granite"),
    # how a service is given: in person or at a distance
    ("mode:person", "очно"), ("mode:person", "очный"), ("mode:person", "лично"), ("mode:remote", "онлайн"),
    ("mode:remote", "дистанционно"), ("mode:remote", "дистанционный"), ("mode:remote", "удалённо"),
    ("mode:remote", "удаленно"), ("mode:remote", "удалённый"), ("mode:remote", "удаленный"),
    ("mode:person", "in person"), ("mode:remote", "online"), ("mode:remote", "remotely"),
)
_INDEX: dict[tuple[str, ...], str] = {_phrase_key(p): tag for tag, p in CONTRAST_TERMS}
_MAX = max(len(k) for k in _INDEX)


@lru_cache(maxsize=16384)
def _terms(text: str) -> tuple[tuple[str, str], ...]:
    """(tag, surface) of every contrast term of ``text``, in order (a preposition before it kept in the
    surface: "по выходным")."""
    tokens = analyze(text)
    lemmas = [t.lemma for t in tokens]
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(tokens):
        for size in range(min(_MAX, len(tokens) - i), 0, -1):
            tag = _INDEX.get(tuple(lemmas[i : i + size]))
            if tag is not None:
                first = i - 1 if i > 0 and tokens[i - 1].is_stop and len(tokens[i - 1].text) <= 3 else i
                out.append((tag, text[tokens[first].start : tokens[i + size - 1].end]))
                i += size
                break
        else:
            i += 1
    return tuple(out)


def contrast_terms(text: str) -> frozenset[str]:
    """The contrast tags of ``text`` ("days:weekend", "freq:month", "material:gypsum", ...)."""
    return frozenset(tag for tag, _ in _terms(text))


def shared_term_words(claim: str, known_texts: Sequence[str]) -> frozenset[str]:
    """Lower-cased words of the claim's contrast terms that ``known_texts`` state in some form: "ежемесячная"
    is known from "каждый месяц" (one tag, "freq:month")."""
    known = {tag for text in known_texts for tag in contrast_terms(text)}
    return frozenset(w.lower() for tag, surface in _terms(claim) if tag in known for w in surface.split())


def contrast_swap(claim: str, evidence: str, background: Sequence[str] = ()) -> tuple[str, str] | None:
    """``(claim surface, evidence surface)`` of the first swapped term (module doc), else None."""
    claim_terms = _terms(claim)
    if not claim_terms:
        return None
    evid = _terms(evidence)
    if not evid:
        return None
    for tag, surface in claim_terms:
        group = tag.partition(":")[0]
        if len({t for t, _ in claim_terms if t.partition(":")[0] == group}) != 1:
            continue
        rival = next((s for t, s in evid if t.partition(":")[0] == group and not _compatible(t, tag)), None)
        if rival is None or _stated_elsewhere(claim, tag, [evidence, *background]):
            continue
        return surface, rival
    return None


def _compatible(a: str, b: str) -> bool:
    """Same term, or one a kind of the other ("material:metal" and "material:metal.steel")."""
    return a == b or a.startswith(b + ".") or b.startswith(a + ".")


def _has_term(text: str, tag: str) -> bool:
    return any(_compatible(t, tag) for t in contrast_terms(text))


_CLAUSE_RE = re.compile(r"\s*;\s*")
_CLAIM_CLAUSE_RE = re.compile(r"\s*[,;]\s*")

STATED_ELSEWHERE_RECALL = 0.5  # share of the claim's other content words a sentence with the term must have


def _stated_elsewhere(claim: str, tag: str, background: Sequence[str]) -> bool:
    """Does a sentence of ``background`` that has the claim's term also state most of the claim's other
    content words? "По выходным работает только приём заявок" elsewhere in the contexts does not make
    "Выезд инженера выполняется по выходным" supported when the sentence about the engineer says "по будням"."""
    from ragauge.judges.offline.lemmas import content_lemmas
    from ragauge.judges.offline.text import split_sentences

    # the claim's other words: not its contrast terms (any of them: "утра", "вечера" too), nor numbers in words
    term_words = {x for _, s in _terms(claim) for x in content_lemmas(s, numbers=False)}
    # the words of the claim's own clause with the term: "..., а в воскресенье — выходной" is about Sunday
    clause = next((c for c in _CLAIM_CLAUSE_RE.split(claim) if _has_term(c, tag)), claim)
    numerals = {t.lemma for t in analyze(clause) if t.pos == "NUMR"}  # "с девяти до шести" is "9:00-18:00"
    words = {x[:5] for x in content_lemmas(clause, numbers=False) if x not in term_words and x not in numerals}
    for text in background:
        if not _has_term(text, tag):
            continue
        if not words:
            return True
        # clauses, not sentences: "Выезд мастера по будням; по выходным работает только горячая линия"
        for clause in (c for sentence in split_sentences(text) for c in _CLAUSE_RE.split(sentence.text)):
            if _has_term(clause, tag):
                found = words & {x[:5] for x in content_lemmas(clause, numbers=False)}
                if len(found) / len(words) >= STATED_ELSEWHERE_RECALL:
                    return True
    return False
