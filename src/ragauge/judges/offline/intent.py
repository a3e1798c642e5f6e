"""What a question asks for, and whether an answer gives it: the rules behind offline answer relevancy.

A question is cut into parts ("Сколько стоит X и когда Y?" -> two parts); each part gets an *intent* and
a *subject*:

* intent, in this order of precedence: ``definition``, ``price`` (money, rates, percentages),
  ``duration`` (how long, deadlines), ``date`` (when, what time), ``count`` (how many), ``who``,
  ``where``, ``how`` (procedure), ``list``, ``yesno``, else ``other``; Russian and English cues;
* subject: the content lemmas of the part (:func:`.lemmas.content_lemmas`) minus the interrogative
  frame ("сколько", "стоить", "how", "much", ...).

An answer *gives* a part when it states a value of the part's type (a money quantity or "бесплатно"
for price, a date or clock time for date, a time quantity for duration, a number for count, a role,
organisation or name for who, a place, site or address for where, an infinitive, imperative or
procedure verb for how, "X — это"/"is a" for definition; for yesno "да"/"нет", a polarity or modality
cue ("можно", "не", "must") or a statement about at least half of the subject; any statement for other) and talks
about its subject: ``value_share`` = share of parts with a value and at least one subject lemma found
(or no subject at all). ``overlap`` = share of all subject lemmas found in the answer (same lemma, or
the same first five letters for words of five letters or more, "ё"/"э" read as "е").

``evasive``: the answer deflects ("зависит от многих факторов", "уточните у менеджера", "it depends")
and states no value of the asked type. ``declines``: it says the documents do not answer.

Everything here is a pure function of the texts (lemmas and quantities are cached per text); the
learned part (USE similarity, rudeness, the fitted weights) is combined in :func:`combine`.

    >>> question_intent("Сколько стоит выезд за МКАД и когда приедет инженер?").kinds
    ('price', 'date')
    >>> f = relevance_features("Сколько стоит выезд за МКАД?", "Выезд за МКАД стоит 2 400 рублей.")
    >>> (f.value_share, f.overlap, f.evasive)
    (1.0, 1.0, False)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping

from ._quantity_atoms import detect_lang
from .claims import _REFUSAL
from .lemmas import analyze, content_lemmas
from .quantities import extract_quantities

__all__ = ["FEATURES", "INTENTS", "Intent", "RelevanceFeatures", "combine", "label_of", "question_intent",
           "relevance_features", "states_value", "value_given"]

INTENTS = ("definition", "price", "duration", "date", "count", "who", "where", "how", "list", "yesno", "other")
#: the features :func:`combine` weighs, in the order of the weights file's ``w``
FEATURES = ("cos_logit", "value_share", "given_share", "overlap", "evasive", "declines", "rude")

_I = re.IGNORECASE
_W = r"[\w-]+"
_CUES: tuple[tuple[str, re.Pattern[str]], ...] = tuple((k, re.compile(p, _I)) for k, p in (
    ("definition", r"^\W*(?:что\s+(?:такое|значит|означает)|what\s+(?:is|are)\s+(?:an?\s+)?\S+\s*\?*$|what\s+does\s+.+\s+mean"
                   r"|define\b)"),
    ("price", r"\bсколько\s+(?:\w+\s+){0,2}?(?:стои\w*|плат\w*|заплат\w*|денег|берут|берете|возьмут|верн\w*|"
              r"выплат\w*|дают\b|получ\w*|рубл\w*|процент\w*|начисл\w*|спиш\w*|списыва\w*|помощ\w*|компенсац\w*|"
              r"зарплат\w*|оклад\w*|пособи\w*|возмещ\w*|вычет\w*|суточн\w*|пошлин\w*)|\bпоч[её]м\b|\bобойд[её]тся|\bво\s+сколько\s+(?:\w+\s+)?обойд|"
              r"\bстоимост|\bцен[аыуе]\b|\bкомисси|\bпошлин|\bплатн|\bкак(?:ая|ой|ое|ов\w*)\s+(?:\w+\s+)?"
              r"(?:сумм|ставк|скидк|доплат|плат[аы]|комисси|пошлин|лимит|процент|кешб|кэшб|штраф|компенсац|"
              r"тариф|зарплат|оклад|страховк|суточн)|\bкак\s+(?:считается|рассчитыва\w*|начисля\w*)|"
              r"\bhow\s+much\b|\bcost|\bprice|\bfees?\b|\bcharge|\brate\b|\binterest\b|\bdiscount|\blimit\b"),
    ("duration", r"\bкак\s+долго\b|\bсколько\s+(?:\w+\s+)?(?:времени|длится|длятся|ид[её]т|идут|ждать|ждут|жд[её]т|"
                 r"делают|делается|рассматрива\w*|хран\w*|действу\w*|везут|дней|дня|час\w*|недел\w*|месяц\w*|лет|"
                 r"минут\w*|рабочих|календарных|по\s+времени)|\b(?:за|через|на)\s+сколько\b|"
                 r"\bв\s+течение\s+как|\bсрок|\bвремя\s+(?:реакции|решения|ожидания)|"
                 r"\bhow\s+long\b|\bhow\s+many\s+(?:days|hours|weeks|months|years|minutes)\b|\bdeadline|\bturnaround|"
                 r"\bwithin\s+how\b"),
    ("date", r"\bкогда\b|\bкак\s+часто|\bhow\s+often|\bкакого\s+числа|\b(?:с|до|по)\s+как(?:ого|ой|ое)\b|\bв\s+какой\s+(?:день|месяц|период|год)|"
             r"\bво\s+сколько|\bдо\s+скольки|\bсо?\s+скольки|\bчасы\s+работы|\bграфик|"
             r"\bwhen\b|\bwhat\s+(?:date|day|time|year|month)\b|\bby\s+when\b|\bopening\s+hours"),
    ("count", r"\bсколько\b|\bкакое\s+количество|\bhow\s+many\b|\bnumber\s+of\b"),
    ("who", r"\b(?:кто|кому|кем|кого|чей|чья|ч[её]|чьи)\b|\bwho(?:m|se)?\b|\bwhich\s+(?:person|department|team|company)"),
    ("where", r"\b(?:где|куда|откуда)\b|\bв\s+каком\s+(?:месте|отделении|офисе|городе|пункте)|"
              r"\bпо\s+какому\s+адресу|\bwhere\b"),
    ("how", r"\bкак(?:им\s+(?:образом|способом))?\b|\bчто\s+(?:нужно|надо|необходимо|делать|требуется)|\bкакой\s+порядок|"
            r"\bhow\s+(?:do|does|can|to|should|is|are|will)\b|\bwhat\s+(?:should|do)\s+(?:i|we)\s+do|\bprocedure|\bsteps?\b"),
    ("list", r"\bкак(?:ие|ими|их)\b|\bчто\s+входит|\bперечень|\bсписок|\bwhich\b|\blist\b|"
             r"\bwhat\s+(?:documents|options|ways|types|kinds|conditions|services)\b"),
    ("yesno", r"\bли\b|^\W*(?:можно|нужно|надо|есть|будет|правда|is|are|can|could|do|does|did|will|would|should|"
              r"may|must|has|have)\b"),
))
_WH = (r"сколько|когда|где|куда|кто|кому|как|какой|какая|какое|какие|каков\w*|можно|нужно|нужен|нужна|есть|"
       r"до\s+скольки|во\s+сколько|через\s+сколько|за\s+сколько|what|how|when|where|who|which|is|are|can|do|does")
_PARTS = re.compile(rf"(?:\?+\s*|,?\s+(?:и|а\s+также|and)\s+(?=(?:{_WH})\b))", _I)

#: interrogative frame: never part of the subject
_FRAME = frozenset("""
сколько стоить стоимость цена почем когда где куда откуда кто как какой каков можно нужно надо нужный мочь
быть есть делать сделать ли вообще а то ну положено положить дать давать получить получать сейчас это долго
часто скоро долгий
many much how what when where who whom whose which cost price fee is are do doe does can could will would
should may must have ha get long time often soon
""".split())

_MONTHS = (r"январ|феврал|март[аеу]?\b|апрел|ма[йяе]\b|июн|июл|август|сентябр|октябр|ноябр|декабр|"
           r"january|february|march|april|\bmay\b|june|july|august|september|october|november|december")
_WEEKDAYS = (r"понедельник|вторник|сред[аыу]\b|четверг|пятниц|суббот|воскресень|будн|выходн|праздничн|"
             r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekday|weekend")
_VALUE_WORDS: dict[str, re.Pattern[str]] = {k: re.compile(p, _I) for k, p in {
    "price": r"бесплатн|не\s+взима|без\s+(?:доплат|комисси|оплат)|не\s+(?:платит|оплачива|облага)|входит\s+в\s+стоимост|"
             r"\bfree\b|no\s+(?:fee|charge)|included|at\s+no\s+cost",
    "duration": r"\bсразу\b|в\s+тот\s+же\s+день|в\s+день\s+обращения|мгновенн|круглосуточн|бессрочн|\bчас\b|\bнеделю\b|"
                r"\bмесяц\b|\bгод\b|\bсутки\b|\bimmediately\b|same\s+day|instant|\bovernight\b|an?\s+(?:hour|day|week|month|year)\b",
    "date": rf"{_MONTHS}|{_WEEKDAYS}|ежемесячн|ежегодн|ежедневн|еженедельн|раз\s+в\s+|квартал|вместе\s+с\s+зарплат|\bчисла\b|сразу|"
            r"\bevery\b|o'clock|\bnoon\b|\bmidnight\b|\bdaily\b|monthly|yearly|quarter",
    "count": r"\b(?:один|одна|одно|одного|одну|единственн|ни\s+одного|one|single|none|no\s+one)\b",
    "who": r"работодател|сотрудник|работник|руководител|директор|менеджер|инженер|бухгалтер|бухгалтери|отдел\b|отдел[аеу]|"
           r"служб|фонд|банк|компани|клиник|врач|администратор|оператор|курьер|заказчик|исполнител|подрядчик|"
           r"специалист|дежурн|ответственн|комисси|\bсуд\b|мфц|гибдд|налогов|заявител|владел|получател|отправител|"
           r"страховщик|клиент|пациент|родител|\bсам\b|\bсами\b|лично|партн[её]р|"
           r"employer|employee|manager|department|team|fund|bank|company|engineer|director|officer|administrator|"
           r"support|customer|client|owner|insurer|doctor|staff|yourself|\bhr\b",
    "where": r"портал|сайт|приложени|отделени|офис|почт[аеуы]|e-?mail|адрес|кабинет|этаж|пункт|систем[аеуы]|мфц|госуслуг|"
             r"окн[оае]|касс|регистратур|телефон|корпус|здани|улиц|\bул\.|город|@|https?://|www\.|\.ru\b|\.com\b|"
             r"отдел|филиал|склад|терминал|"
             r"portal|website|\bsite\b|\bapp\b|office|branch|desk|address|floor|room|online|counter|phone",
    "how": r"нужн\w*|необходим\w*|надо|следует|должн|через|по\s+заявлени|сначала|затем|после\s+чего|"
           r"\b(?:пода|оформ|сда[её]|сдав|заполн|направ|предъяв|регистрир|запис|отправ|вызв|приложи|принес|прийти|"
           r"приход|взять|получ|позвон|нажм|выбер|зайд|введ)\w*|"
           r"\byou\s+(?:need|should|must|can)\b|\bfirst\b|\bthen\b|\bsubmit|\bfill\b|\bsend\b|\bgo\s+to\b|\bcall\b|"
           r"\bapply\b|\bopen\b|\bclick\b|\bselect\b",
    "definition": r"\s[—–-]\s*это\b|\bэто\s+\w+|называется|означает|понимается|\b(?:is|are)\s+(?:an?|the)\b|\bmeans\b|"
                  r"refers\s+to",
    "list": r",.*,|\bи\b|;|\n\s*(?:[-•*]|\d+[.)])|,\s*and\b",
    "yesno": r"^\W*(?:да|нет|yes|no)\b|можно|нельзя|разреш|запрещ|допуска|обязан|нужн|требует|необходим|принима|"
             r"предоставля|доступн|возможн|вправе|\bне\b|мо(?:жет|гут)|\b(?:can|cannot|can't|may|must|allowed|not|"
             r"required|need|is|are|will|does|do)\b",
}.items()}
_EVASIVE = re.compile(
    r"зависит\s+от|индивидуальн|уточн\w*\s+(?:у|в|на|по)\b|лучше\s+уточн|уточните|рекоменд\w*\s+(?:обратиться|уточнить|"
    r"проконсультироваться)|обратит\w*\s+(?:к|в|за)\b|определяется\s+в\s+каждом|в\s+каждом\s+случае|сложно\s+(?:сказать|"
    r"ответить)|однозначно\s+ответить|бывают\s+разные|регулярно\s+меня|вам\s+назовут|подскаж\w+|проконсультир|"
    r"\bit\s+depends\b|\bdepends\s+on\b|\bcontact\s+(?:your|the|our)\b|\bplease\s+(?:check|ask|consult)\b|hard\s+to\s+say|"
    r"\bvar(?:y|ies)\b|case\s+by\s+case|reach\s+out\s+to|\bask\s+(?:your|the|a)\b", _I)
_DECLINES = re.compile(
    r"\bне\s+(?:могу|можем)\b|нет\s+(?:сведений|информации|данных)|\bне\s+(?:указан|приведен|привед[её]н|значится|сказано|"
    r"описан|описыва|найд)\w*|ничего\s+не\s+сказано|назвать\s+не\s+могу|\bнет\s+в\s+(?:прайс|перечне|тарифах|документах)|"
    r"\bcannot\b|\bcan't\b|\bnot\s+(?:mentioned|specified|stated|listed|covered)\b|\bno\s+information\b|"
    r"\bdo(?:es)?\s+not\s+(?:say|mention|specify|cover)\b", _I)
_INFINITIVE_OR_IMPERATIVE = re.compile(r"\b\w+(?:ите|йте)(?:сь)?\b", _I)


def _norm(text: str) -> str:
    return text.lower().replace("ё", "е").replace("э", "е")


@dataclass(frozen=True, slots=True)
class Intent:
    """What a question asks: one intent and one subject per part (``parts`` are the part texts)."""

    kinds: tuple[str, ...]
    subjects: tuple[tuple[str, ...], ...]
    parts: tuple[str, ...]
    lang: str

    @property
    def subject(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(lemma for s in self.subjects for lemma in s))


_STRONG = ("definition", "price", "duration", "date", "count", "who", "where")
_POLAR_OPENING = re.compile(r"^\W*(?:\w+\s+ли\b|(?:можно|нужно|надо|нельзя|обязательно|is|are|can|could|do|does|"
                            r"did|will|would|should|may|must|has|have)\b)", _I)


def _kind(part: str) -> str:
    """The earliest strong cue wins (ties: :data:`INTENTS` order); a polar opening ("Можно ли ...",
    "Выгодно ли ...", "Can I ...") beats the cues inside it; then how, list, yesno, other."""
    if _POLAR_OPENING.search(part):
        return "yesno"
    found = [(m.start(), INTENTS.index(kind), kind) for kind, pattern in _CUES if kind in _STRONG
             for m in [pattern.search(part)] if m]
    if found:
        return min(found)[2]
    for kind, pattern in _CUES:
        if kind not in _STRONG and pattern.search(part):
            return kind
    return "other"


def _subject(part: str, lang: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(_norm(x) for x in content_lemmas(part, lang) if _norm(x) not in _FRAME))


@lru_cache(maxsize=8192)
def question_intent(question: str, lang: str | None = None) -> Intent:
    """The parts of ``question`` with an intent (:data:`INTENTS`) and subject each (module doc)."""
    lang = lang if lang in ("ru", "en") else detect_lang(question)
    text = question.replace("ё", "е").replace("Ё", "Е").strip()
    parts = [p.strip(" ,;.!?") for p in _PARTS.split(text) if p and p.strip(" ,;.!?")] or [text]
    kinds = tuple(_kind(p) for p in parts)
    if len(parts) > 1 and all(k == "other" for k in kinds[1:]):
        parts, kinds = [text], (_kind(text),)
    return Intent(kinds, tuple(_subject(p, lang) for p in parts), tuple(parts), lang)


def value_given(kind: str, answer: str, lang: str | None = None) -> float:
    """1.0 when ``answer`` states a value of the type ``kind`` asks for (:func:`states_value`); 0.5 when it
    states a quantity of another type ("до 180 мм" for "какой размер"); else 0.0."""
    if states_value(kind, answer, lang):
        return 1.0
    if kind in ("price", "duration", "date", "count", "list", "other"):
        lang = lang if lang in ("ru", "en") else detect_lang(answer)
        return 0.5 if extract_quantities(answer, lang) else 0.0
    return 0.0


def states_value(kind: str, answer: str, lang: str | None = None) -> bool:
    """Does ``answer`` state a value of the type ``kind`` asks for? (module doc; ``other`` and ``yesno``
    accept any answer with a content word)."""
    lang = lang if lang in ("ru", "en") else detect_lang(answer)
    quantities = extract_quantities(answer, lang) if kind in ("price", "duration", "date", "count", "list") else []
    dims = {q.dimension for q in quantities}
    kinds = {q.kind for q in quantities}
    words = _VALUE_WORDS.get(kind)
    if words is not None and words.search(answer):
        return True
    if kind == "price":
        return bool(dims & {"money", "ratio"})
    if kind == "duration":
        return "time" in dims or "date" in kinds
    if kind == "date":
        return bool(kinds & {"date", "clock"}) or "time" in dims
    if kind == "count":
        return any(q.kind in ("number", "range") for q in quantities)
    if kind == "who":
        return bool(re.search(r"(?<![.!?]\s)(?<!^)\b[A-ZА-ЯЁ][\w-]+|«[^»]+»", answer.strip()))
    if kind == "how":
        return bool(_INFINITIVE_OR_IMPERATIVE.search(answer)) or any(t.pos == "INFN" for t in analyze(answer))
    if kind == "list":
        return bool(quantities)
    if kind == "yesno":
        return bool(_VALUE_WORDS["yesno"].search(answer))
    if kind == "other":
        return bool(content_lemmas(answer, lang))
    return False


def _found(lemma: str, answer_lemmas: frozenset[str], prefixes: frozenset[str]) -> bool:
    """Same lemma or word form, or the same first five letters (four for a four-letter lemma: "обед" /
    "обеденный")."""
    return lemma in answer_lemmas or (len(lemma) >= 4 and lemma[:5] in prefixes)


@dataclass(frozen=True, slots=True)
class RelevanceFeatures:
    """The rule features of one question-answer pair (module doc)."""

    intent: Intent
    parts_given: tuple[bool, ...]  #: per part: a value of the asked type, and a word of the part's subject
    value_share: float  #: mean over parts of :func:`value_given` (the type only)
    given_share: float  #: mean over parts of value_given x (the part's subject is touched)
    overlap: float
    evasive: bool
    declines: bool

    @property
    def value_found(self) -> bool:
        return any(self.parts_given)


def relevance_features(question: str, answer: str, lang: str | None = None) -> RelevanceFeatures:
    """Intent of ``question``, and what ``answer`` gives of it (module doc)."""
    intent = question_intent(question, lang)
    a_lemmas = frozenset(_norm(x) for x in content_lemmas(answer, intent.lang))
    a_words = frozenset(_norm(t.text) for t in analyze(answer) if not t.is_number)
    a_lemmas = a_lemmas | a_words
    prefixes = frozenset(x[:n] for x in a_lemmas for n in (4, 5) if len(x) >= n)
    values, abouts = [], []
    for kind, subject in zip(intent.kinds, intent.subjects):
        found = [_found(x, a_lemmas, prefixes) for x in subject]
        if kind == "yesno":
            # a yes/no, or a polar statement: a polarity/modality cue, or a statement about most of the subject
            polar = bool(_VALUE_WORDS["yesno"].search(answer)) or (bool(found) and sum(found) >= len(found) / 2)
            values.append(1.0 if polar else 0.0)
        else:
            values.append(value_given(kind, answer, intent.lang))
        abouts.append(not subject or any(found))
    given = tuple(v == 1.0 and a for v, a in zip(values, abouts))
    subject = intent.subject
    overlap = sum(_found(x, a_lemmas, prefixes) for x in subject) / len(subject) if subject else 1.0
    value_share = sum(values) / len(values)
    given_share = sum(v * a for v, a in zip(values, abouts)) / len(values)
    evasive = bool(_EVASIVE.search(answer)) and not any(
        states_value(k, answer, intent.lang) for k in intent.kinds if k not in ("other", "yesno", "who", "where", "how"))
    declines = bool(_DECLINES.search(answer) or _REFUSAL.search(answer))
    return RelevanceFeatures(intent, given, value_share, given_share, overlap, evasive, declines)


def combine(features: RelevanceFeatures, *, cos_logit: float, rude: float, weights: Mapping) -> float:
    """``sigmoid(w . x + b)`` over :data:`FEATURES` (``weights``: ``{"w": [...], "b": ...}``, fitted by
    ``scripts/calibrate_relevancy.py --intent``); ``cos_logit`` is the USE cosine's own calibrated logit."""
    x = (cos_logit, features.value_share, features.given_share, features.overlap, float(features.evasive),
         float(features.declines), rude)
    z = float(weights["b"]) + sum(float(w) * v for w, v in zip(weights["w"], x))
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def label_of(features: RelevanceFeatures, score: float, *, refusal: bool = False, rude: float = 0.0,
             threshold: float = 0.5) -> str:
    """``refusal`` / ``evasive`` / ``partial`` / ``off_topic`` / ``direct`` for the artifact."""
    if refusal or (features.declines and score < threshold):
        return "refusal"
    if features.evasive or (rude >= 0.5 and not features.value_found):
        return "evasive"
    if score < threshold:
        return "off_topic"
    if len(features.parts_given) > 1 and not all(features.parts_given):
        return "partial"
    return "direct"
