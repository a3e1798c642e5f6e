"""Content lemmas, lexical overlap, negation and scope cues for claim-evidence pairs.

Every word is analysed once per process (LRU caches per word form): Cyrillic words by pymorphy3
(most probable parse), Latin words by a Porter stemmer written below, numbers normalised
("1 150" -> "1150", "0,5" -> "0.5"). The analyser picks the method by the script of each *word*,
so a Russian price list with "Knauf" or "IP65" needs no language switch; ``lang`` arguments are
accepted for symmetry with the rest of the judge and only used when they matter (none today).

Overlap features of a claim C and an evidence E (sets of content lemmas)::

    recall    = |C & E| / |C|          precision = |C & E| / |E|
    jaccard   = |C & E| / |C | E|      weighted_recall = sum(idf[l] for l in C & E) / sum(idf[l] for l in C)
    rare_recall = |R & E| / |R|, R = the claim's rare lemmas (see :func:`overlap`)

Empty sets give 0.0 (a claim without content lemmas has no lexical support); ``n_claim`` says so.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from ragauge.judges.offline import deps

# ---------------------------------------------------------------- Porter stemmer
# Martin Porter, "An algorithm for suffix stripping", Program 14(3), 1980: steps 1a-5b with the
# measure m of a stem ([C](VC)^m[V]). Stems are not words ("warranty" -> "warranti"); they only
# need to agree between a claim and its evidence.

_VOWELS = frozenset("aeiou")


def _is_consonant(word: str, i: int) -> bool:
    ch = word[i]
    if ch in _VOWELS:
        return False
    if ch == "y":
        return i == 0 or not _is_consonant(word, i - 1)
    return True


def _measure(stem: str) -> int:
    m = 0
    prev_vowel = False
    for i in range(len(stem)):
        vowel = not _is_consonant(stem, i)
        if prev_vowel and not vowel:
            m += 1
        prev_vowel = vowel
    return m


def _has_vowel(stem: str) -> bool:
    return any(not _is_consonant(stem, i) for i in range(len(stem)))


def _double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _is_consonant(word, len(word) - 1)


def _cvc(word: str) -> bool:
    if len(word) < 3:
        return False
    return (
        _is_consonant(word, len(word) - 3)
        and not _is_consonant(word, len(word) - 2)
        and _is_consonant(word, len(word) - 1)
        and word[-1] not in "wxy"
    )


def _replace(word: str, rules: tuple[tuple[str, str], ...], min_m: int) -> str:
    for suffix, repl in rules:
        if word.endswith(suffix):
            stem = word[: len(word) - len(suffix)]
            return stem + repl if _measure(stem) > min_m else word
    return word


_STEP2 = (
    ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"),
    ("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"),
    ("ization", "ize"), ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"),
    ("fulness", "ful"), ("ousness", "ous"), ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"),
    ("logi", "log"),
)
_STEP3 = (
    ("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""),
    ("ness", ""),
)
_STEP4 = (
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou",
    "ism", "ate", "iti", "ous", "ive", "ize",
)


@lru_cache(maxsize=65536)
def porter_stem(word: str) -> str:
    """Porter stem of a lower-case English word ("payments" -> "payment", "agreed" -> "agre").

    >>> porter_stem("warranties"), porter_stem("warranty")
    ('warranti', 'warranti')
    """
    if len(word) <= 2 or not word.isalpha():
        return word
    # step 1a
    if word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("ies"):
        word = word[:-2]
    elif word.endswith("ss"):
        pass
    elif word.endswith("s"):
        word = word[:-1]
    # step 1b
    extra = False
    if word.endswith("eed"):
        if _measure(word[:-3]) > 0:
            word = word[:-1]
    elif word.endswith("ed") and _has_vowel(word[:-2]):
        word, extra = word[:-2], True
    elif word.endswith("ing") and _has_vowel(word[:-3]):
        word, extra = word[:-3], True
    if extra:
        if word.endswith(("at", "bl", "iz")):
            word += "e"
        elif _double_consonant(word) and word[-1] not in "lsz":
            word = word[:-1]
        elif _measure(word) == 1 and _cvc(word):
            word += "e"
    # step 1c
    if word.endswith("y") and _has_vowel(word[:-1]):
        word = word[:-1] + "i"
    # steps 2-3
    word = _replace(word, _STEP2, 0)
    word = _replace(word, _STEP3, 0)
    # step 4
    for suffix in _STEP4:
        if word.endswith(suffix):
            stem = word[: len(word) - len(suffix)]
            if _measure(stem) > 1 and (suffix != "ion" or stem.endswith(("s", "t"))):
                word = stem
            break
    # step 5
    if word.endswith("e"):
        stem = word[:-1]
        m = _measure(stem)
        if m > 1 or (m == 1 and not _cvc(stem)):
            word = stem
    if _measure(word) > 1 and _double_consonant(word) and word.endswith("l"):
        word = word[:-1]
    return word



# ---------------------------------------------------------------- tokens

# Numbers first ("1 150 000", "0,5", "4.2"), then words that may carry digits ("IP65", "B25", "м²")
# and inner hyphens or apostrophes ("кого-то", "don't").
_TOKEN = re.compile(
    r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?!\d)(?:[.,]\d+)?"
    r"|\d+(?:[.,]\d+)?"
    r"|[^\W_]+(?:[-'’][^\W_]+)*"
)
_NUMBER = re.compile(r"[\d \u00a0\u202f]+(?:[.,]\d+)?")

_RU_STOP = frozenset(
    """
    и в во не что он она оно они я ты мы вы на с со как а то так но да к у же за бы по о об от из
    до для без под над при про через между перед после около возле кроме вместо ради сквозь
    ли если уже или либо ни ведь вот там тут здесь где куда когда тогда потом теперь даже ну
    быть есть это этот тот такой такой-то который свой мой твой наш ваш его ее их себя сам
    кто чем чтобы чтоб будто тоже также еще уж лишь только весь все всё каждый любой иной
    другой сей оба также ибо причем притом именно т е п д др пр см
    """.split()
)
# pymorphy3 parts of speech that never carry content.
_RU_FUNCTION_POS = frozenset({"PREP", "CONJ", "PRCL", "NPRO"})  # not INTJ: pymorphy3 reads "мм" so
_EN_STOP = frozenset(
    """
    a an the and or but if then else of in on at to for from by with as is are was were be been
    being am do does did doing have has had having it its this that these those there here which
    who whom whose what when where why how nor so than too very can could will would shall should
    may might must i you he she we they me him her us them my your his our their mine yours also
    just only all any each every both either some such own same other into onto over under about
    above below between through during before after again further once up down out off per via
    etc eg ie s t
    """.split()
)


@dataclass(frozen=True, slots=True)
class Token:
    """One word or number of a text: ``text[start:end]``, its lemma and whether it is a stop word."""

    text: str
    start: int
    end: int
    lemma: str
    is_number: bool
    is_stop: bool
    pos: str | None  # pymorphy3 part of speech for Cyrillic words, else None


def _is_cyrillic_word(word: str) -> bool:
    return any("\u0400" <= ch <= "\u04ff" for ch in word)


@lru_cache(maxsize=200_000)
def _ru_word(word: str) -> tuple[str, str | None]:
    parse = deps.morph_analyzer().parse(word)[0]
    return parse.normal_form.replace("ё", "е"), parse.tag.POS


@lru_cache(maxsize=200_000)
def _word(lower: str) -> tuple[str, bool, str | None]:
    """(lemma, is_stop, pos) of a lower-case word form."""
    if _is_cyrillic_word(lower):
        lemma, pos = _ru_word(lower)
        stop = pos in _RU_FUNCTION_POS or lemma in _RU_STOP or len(lemma) < 2
        return lemma, stop, pos
    if lower.isascii():
        stop = lower in _EN_STOP or len(lower) < 2
        return porter_stem(lower), stop, None
    return lower, False, None


def normalize_number(text: str) -> str:
    """"1 150" -> "1150", "0,5" -> "0.5": the form numbers take among lemmas."""
    return re.sub(r"[ \u00a0\u202f]", "", text).replace(",", ".")


def analyze(text: str) -> list[Token]:
    """All tokens of ``text`` with lemmas (cached per distinct text)."""
    return list(_analyze(text))


@lru_cache(maxsize=32768)
def _analyze(text: str) -> tuple[Token, ...]:
    out = []
    for match in _TOKEN.finditer(text):
        raw = match.group()
        if raw[0].isdigit() and _NUMBER.fullmatch(raw):
            out.append(Token(raw, match.start(), match.end(), normalize_number(raw), True, False, "NUMB"))
            continue
        lemma, stop, pos = _word(raw.lower())
        out.append(Token(raw, match.start(), match.end(), lemma, False, stop, pos))
    return tuple(out)


def content_lemmas(text: str, lang: str | None = None, *, numbers: bool = True) -> list[str]:
    """Lemmas of the content words of ``text``, in order, repeats kept; numbers too unless ``numbers=False``.

    >>> content_lemmas("Подрядчик предоставляет гарантию 5 лет на кровельные работы", "ru")
    ['подрядчик', 'предоставлять', 'гарантия', '5', 'год', 'кровельный', 'работа']
    """
    return [t.lemma for t in _analyze(text) if not t.is_stop and (numbers or not t.is_number)]


# ---------------------------------------------------------------- overlap


@dataclass(frozen=True, slots=True)
class Overlap:
    """Lexical overlap of a claim with an evidence text (formulas in the module doc)."""

    recall: float
    precision: float
    jaccard: float
    weighted_recall: float
    rare_recall: float
    n_claim: int
    n_rare: int


def idf_table(documents: Iterable[Collection[str]]) -> dict[str, float]:
    """BM25 idf of each lemma over ``documents``: ``ln(1 + (N - df + 0.5) / (df + 0.5))``, always > 0."""
    df: dict[str, int] = {}
    n = 0
    for doc in documents:
        n += 1
        for lemma in set(doc):
            df[lemma] = df.get(lemma, 0) + 1
    return {lemma: math.log(1.0 + (n - d + 0.5) / (d + 0.5)) for lemma, d in df.items()}


def _is_rare_by_shape(lemma: str) -> bool:
    return len(lemma) >= 6 or any(ch.isdigit() for ch in lemma)


def overlap(
    claim_lemmas: Iterable[str], evidence_lemmas: Iterable[str], *, idf: Mapping[str, float] | None = None
) -> Overlap:
    """Overlap features of a claim's content lemmas with an evidence's (sets; repeats ignored).

    Rare lemmas: with ``idf``, the claim lemmas whose idf is at least the median idf of the claim's
    lemmas (a lemma missing from ``idf`` counts as never seen, the rarest); without it, a shape
    fallback: lemmas of 6+ characters or with a digit. ``weighted_recall`` uses ``idf`` (missing
    lemmas get the largest idf in the table), and equals ``recall`` without it.

    >>> o = overlap(["гарантия", "5", "год"], ["гарантия", "10", "год", "кровля"])
    >>> round(o.recall, 3), round(o.precision, 3), o.jaccard
    (0.667, 0.5, 0.4)
    """
    claim = set(claim_lemmas)
    evidence = set(evidence_lemmas)
    common = claim & evidence
    n_claim = len(claim)
    if not claim:
        return Overlap(0.0, 0.0, 0.0, 0.0, 0.0, 0, 0)
    recall = len(common) / n_claim
    precision = len(common) / len(evidence) if evidence else 0.0
    jaccard = len(common) / len(claim | evidence)
    if idf is None:
        weighted = recall
        rare = {lemma for lemma in claim if _is_rare_by_shape(lemma)}
    else:
        top = max(idf.values(), default=1.0)
        weights = {lemma: idf.get(lemma, top) for lemma in claim}
        total = sum(weights.values())
        weighted = sum(weights[lemma] for lemma in common) / total if total > 0 else 0.0
        ordered = sorted(weights.values())
        median = ordered[(len(ordered) - 1) // 2]
        rare = {lemma for lemma, w in weights.items() if w >= median}
    rare_recall = len(rare & evidence) / len(rare) if rare else 0.0
    return Overlap(recall, precision, jaccard, weighted, rare_recall, n_claim, len(rare))


# ---------------------------------------------------------------- negation

_RU_CUES = frozenset({"не", "нет", "ни", "без", "никогда", "нельзя", "ничто", "нигде", "никакой", "отсутствовать", "невозможно"})
_EN_CUES = frozenset({"not", "no", "never", "without", "none", "nothing", "nobody", "neither", "nor", "nowhere", "cannot"})
# "не более 5 дней", "no later than": bounds on a quantity, not negations (numbers.py reads them).
_BOUND_WORDS = frozenset(
    "более менее больше меньше позднее позже ранее раньше свыше выше ниже more less later earlier fewer greater sooner".split()
)
_CLAUSE_END = re.compile(r"[.!?;:]")
# A negated modal passes the negation to the next content word: "не может расторгнуть".
_MODALS = frozenset({"мочь", "должный", "должен", "являться", "стать", "следовать", "вправе", "обязанный", "обязан"})


@dataclass(frozen=True, slots=True)
class Negation:
    """A negation cue at ``start:end`` and the lemmas of the words it negates (may be empty)."""

    cue: str
    heads: tuple[str, ...]
    start: int
    end: int


def _is_cue(token: Token) -> bool:
    lower = token.text.lower()
    if token.is_number:
        return False
    return (
        lower in _RU_CUES
        or token.lemma in _RU_CUES
        or lower in _EN_CUES
        or lower.endswith(("n't", "n’t"))
    )


def negations(text: str, lang: str | None = None) -> list[Negation]:
    """Negation cues of ``text`` with their heads: the next content word (two when the first is a
    modal, "не может расторгнуть"), else the previous content word ("Гарантии нет").

    Quantity bounds ("не более", "не позднее", "no later than") are not negations.

    >>> [(n.cue, n.heads) for n in negations("Заказчик не может расторгнуть договор")]
    [('не', ('мочь', 'расторгнуть'))]
    """
    tokens = _analyze(text)
    out = []
    for i, token in enumerate(tokens):
        if not _is_cue(token):
            continue
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if nxt is not None and nxt.text.lower() in _BOUND_WORDS:
            continue
        heads: list[str] = []
        prev_end = token.end
        for other in tokens[i + 1 : i + 5]:
            if _CLAUSE_END.search(text, prev_end, other.start):
                break  # "Гарантии нет. Цена ..." : the head is not in the next sentence
            prev_end = other.end
            if other.is_stop or _is_cue(other):
                continue
            heads.append(other.lemma)
            if other.lemma not in _MODALS:
                break
        if not heads:
            next_start = token.start
            for other in reversed(tokens[max(0, i - 3) : i]):
                if _CLAUSE_END.search(text, other.end, next_start):
                    break
                next_start = other.start
                if not other.is_stop and not _is_cue(other):
                    heads.append(other.lemma)
                    break
        out.append(Negation(token.text.lower(), tuple(heads), token.start, token.end))
    return out


def negation_mismatch(claim: str, evidence: str, *, lang: str | None = None) -> int:
    """How many negated words are negated on one side and asserted on the other.

    A head negated in the claim counts when the evidence has it un-negated, and vice versa.
    Modal heads ("мочь") are skipped when a main verb follows. 0 means no polarity conflict seen.

    >>> negation_mismatch("Заказчик не может расторгнуть договор", "Заказчик вправе расторгнуть договор")
    1
    """
    return len(_mismatched_heads(claim, evidence))


def _mismatched_heads(claim: str, evidence: str) -> set[str]:
    def sides(text: str) -> tuple[set[str], set[str]]:
        negated = set()
        for neg in negations(text):
            heads = [h for h in neg.heads if h not in _MODALS] or list(neg.heads)
            negated.update(heads)
        lemmas = {t.lemma for t in _analyze(text) if not t.is_stop}
        return negated, lemmas

    claim_neg, claim_lemmas = sides(claim)
    evid_neg, evid_lemmas = sides(evidence)
    return {h for h in claim_neg if h in evid_lemmas and h not in evid_neg} | {
        h for h in evid_neg if h in claim_lemmas and h not in claim_neg
    }


# ---------------------------------------------------------------- scope

# (tag, phrase). Russian phrases are matched on lemmas, English ones on Porter stems, so
# "любой из сторон", "заказчику", "parties" all match. Longer phrases win over their parts.
_SCOPE_PHRASES: tuple[tuple[str, str], ...] = (
    ("party:any", "любой из сторона"),
    ("party:any", "любой сторона"),
    ("party:any", "каждый сторона"),
    ("party:any", "каждый из сторона"),
    ("party:any", "один из сторона"),
    ("party:both", "оба сторона"),
    ("party:customer", "заказчик"),
    ("party:customer", "генеральный заказчик"),
    ("party:customer", "клиент"),
    ("party:customer", "покупатель"),
    ("party:contractor", "подрядчик"),
    ("party:contractor", "генподрядчик"),
    ("party:contractor", "генеральный подрядчик"),
    ("party:contractor", "исполнитель"),
    ("party:subcontractor", "субподрядчик"),
    ("party:supplier", "поставщик"),
    ("q:only", "только"),
    ("q:only", "лишь"),
    ("q:only", "исключительно"),
    ("q:all", "весь"),
    ("q:all", "каждый"),
    ("q:any", "любой"),
    ("q:none", "никакой"),
    ("party:any", "any party"),
    ("party:any", "either party"),
    ("party:any", "each party"),
    ("party:any", "any of the parties"),
    ("party:any", "either of the parties"),
    ("party:any", "one of the parties"),
    ("party:both", "both parties"),
    ("party:customer", "customer"),
    ("party:customer", "client"),
    ("party:customer", "buyer"),
    ("party:customer", "employer"),
    ("party:contractor", "contractor"),
    ("party:contractor", "general contractor"),
    ("party:subcontractor", "subcontractor"),
    ("party:supplier", "supplier"),
    ("party:supplier", "vendor"),
    ("q:only", "only"),
    ("q:only", "solely"),
    ("q:only", "exclusively"),
    ("q:all", "all"),
    ("q:all", "every"),
    ("q:all", "each"),
    ("q:any", "any"),
    # "каждый месяц" is a frequency ("ежемесячно"), not the quantifier "every": no tag
    *(("", f"{q} {unit}") for q in ("каждый", "every", "each")
      for unit in ("день", "неделя", "месяц", "квартал", "год", "час", "day", "week", "month", "quarter", "year", "hour")),
)
_PARTIES = frozenset({"party:customer", "party:contractor", "party:subcontractor", "party:supplier"})


def _phrase_key(phrase: str) -> tuple[str, ...]:
    return tuple(w if _is_cyrillic_word(w) else porter_stem(w) for w in phrase.split())


_SCOPE_INDEX: dict[tuple[str, ...], str] = {_phrase_key(p): tag for tag, p in _SCOPE_PHRASES}
_SCOPE_MAX = max(len(k) for k in _SCOPE_INDEX)


def scope_terms(text: str, lang: str | None = None) -> frozenset[str]:
    """Party and quantifier scope tags of ``text``: ``party:any|both|customer|contractor|
    subcontractor|supplier`` and ``q:only|all|any|none``. "исполнитель" counts as the contractor.

    >>> sorted(scope_terms("Любая из сторон вправе расторгнуть договор"))
    ['party:any']
    """
    lemmas = [t.lemma for t in _analyze(text)]
    tags = set()
    i = 0
    while i < len(lemmas):
        for size in range(min(_SCOPE_MAX, len(lemmas) - i), 0, -1):
            tag = _SCOPE_INDEX.get(tuple(lemmas[i : i + size]))
            if tag is not None:
                if tag:
                    tags.add(tag)
                i += size
                break
        else:
            i += 1
    return frozenset(tags)


def _covered(tag: str, evidence: frozenset[str]) -> bool:
    if tag in evidence:
        return True
    if tag in _PARTIES or tag in ("party:any", "party:both"):
        return "party:any" in evidence or "party:both" in evidence
    return False


def scope_mismatch(claim: str, evidence: str, *, lang: str | None = None) -> int:
    """How many scope tags of the claim the evidence does not cover.

    A named party in the claim is covered by itself or by "any/each/both parties" in the evidence
    (what any party may do, the customer may do); "any party" in the claim is covered only by
    "any/both parties". Quantifiers must appear as such.

    >>> scope_mismatch("Любая из сторон может расторгнуть договор", "Заказчик вправе расторгнуть договор")
    1
    """
    evid = scope_terms(evidence)
    return sum(1 for tag in scope_terms(claim) if not _covered(tag, evid))


__all__ = [
    "Negation",
    "Overlap",
    "Token",
    "analyze",
    "content_lemmas",
    "idf_table",
    "negation_mismatch",
    "negations",
    "normalize_number",
    "overlap",
    "porter_stem",
    "scope_mismatch",
    "scope_terms",
]
