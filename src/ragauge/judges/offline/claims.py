"""Answer -> claims: the first step of offline faithfulness (``extract_claims`` -> verify -> score).

Rules, in order, for each sentence of the answer (see :mod:`ragauge.judges.offline.text`):

1. Strip a list marker ("- ", "1. ", "• ") and a leading greeting or thanks ("Здравствуйте!",
   "Добрый день,", "Thanks for your question.").
2. Drop non-claims: questions ("Хотите, я рассчитаю смету?"), filler ("Надеюсь, это поможет",
   "Hope this helps", "Обращайтесь", "Let me know if ..."), referrals without specifics
   ("Обратитесь к менеджеру" is dropped; "Позвоните менеджеру: +7 495 123-45-67" has digits that
   can be wrong, so it stays), source lines ("Источник: ...") and lead-ins ending in ":" without a
   digit ("Вот что я нашёл:"), one-word replies ("Да.") and refusals (:func:`is_refusal`).
3. Split the sentence into clauses at ";", ", а", ", но", ", однако", "и", "а также", "но",
   "однако" (English: ";", "and", "but", "while", "whereas", ", however,") only where *both* sides
   are clause-like -- at least 4 tokens and a verb or a number -- and never inside quotes or
   brackets, nor next to a number ("от 3 и 5 дней", "1 150 руб. и 980 руб. за м²": lists of
   quantities stay whole). The conjunction is dropped from the claim text; offsets still point
   into the answer.

A refusal is an answer whose only content is "I don't know" / "В базе нет документов ...";
a metric should report it as unscored ("refusal") or flag it, never as faithful 1.0.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragauge.judges.offline.lemmas import analyze, Token
from ragauge.judges.offline.text import detect_language, split_sentences


@dataclass(frozen=True, slots=True)
class Claim:
    """One checkable statement: ``answer[start:end] == text``."""

    text: str
    start: int
    end: int


_I = re.IGNORECASE

_LIST_MARKER = re.compile(r"(?:[-*•–—·▪]|\d{1,3}[.)]|[a-zа-я][)])\s+")
_GREETING = re.compile(
    r"(?:здравствуйте|добрый\s+(?:день|вечер)|доброе\s+утро|приветствую|привет"
    r"|hello|hi|hey|greetings|good\s+(?:morning|afternoon|evening)"
    r"|(?:спасибо|благодарим|благодарю)(?:\s+за\s+(?:ваш\s+|ваше\s+)?(?:вопрос|обращение|интерес))?"
    r"|(?:thank\s+you|thanks)(?:\s+for\s+(?:your\s+question|asking|reaching\s+out|contacting\s+us))?)"
    r"\s*[!,.]+\s*",
    _I,
)
_FILLER = re.compile(
    r"(?:надеюсь,?\s+(?:это|эта|мой|информация|данная)"
    r"|если\s+(?:у\s+вас\s+)?(?:остались|есть|возникнут|появятся)\s+(?:ещё\s+|еще\s+|другие\s+|дополнительные\s+)?вопрос"
    r"|обращайтесь|(?:буду\s+|будем\s+|всегда\s+)?рады?\s+помочь|хорошего\s+дня|удачи"
    r"|(?:i\s+)?hope\s+this\s+(?:helps|information)|let\s+me\s+know\s+if|feel\s+free\s+to"
    r"|if\s+you\s+have\s+(?:any\s+)?(?:other\s+|more\s+|further\s+|additional\s+)?questions"
    r"|(?:happy|glad)\s+to\s+help|have\s+a\s+(?:nice|great|good)\s+day"
    r"|(?:хороший|отличный|интересный|правильный|важный)\s+вопрос|(?:good|great|excellent)\s+question"
    r"|(?:это\s+|всё\s+|все\s+)?(?:зависит\s+от\s+(?:многих|разных|ряда)\s+факторов|индивидуально)"
    r"|it\s+depends\s+on\s+(?:many|several|various)\s+factors)",
    _I,
)
_REFERRAL = re.compile(
    r"(?:(?:для\s+уточнения\s+(?:\w+\s+)?)?(?:пожалуйста,?\s+)?(?:обратитесь|свяжитесь|уточните|позвоните)"
    r"|(?:лучше|рекомендуем|рекомендую|советуем|советую|стоит|можно|следует)\s+(?:\w+\s+)?(?:уточнить|узнать|спросить|обратиться|связаться)"
    r"|(?:for\s+(?:more\s+|further\s+)?(?:details|information),?\s+)?(?:please\s+)?(?:contact|reach\s+out\s+to|ask|call)\s+"
    r"(?:your|our|the|a)\s+(?:manager|sales|support|representative|specialist))",
    _I,
)
_SOURCE_LINE = re.compile(r"(?:источники?|source[s]?|см\.|see)\s*:", _I)
#: Advice that comes with a refusal ("Попробуйте переформулировать вопрос", "Try rephrasing it"): not a claim.
_ADVICE = re.compile(r"\b(?:попробуйте\s+(?:пере)?(?:формулир|сформулир|уточнить|спросить)|try\s+(?:rephrasing|asking|to\s+rephrase)"
                     r"|rephrase\s+(?:the|your)\s+question)", _I)
#: An answer that opens by asking the user to clarify (the guard's clarifying question, a bot's "could you
#: clarify?"): it declines to answer now, whatever it lists of what the knowledge base holds.
_CLARIFY = re.compile(r"\s*(?:уточните,?\s+(?:пожалуйста,?\s+)?(?:ваш\s+)?(?:вопрос|что\s+именно)"
                      r"|could\s+you\s+(?:please\s+)?clarify|can\s+you\s+(?:please\s+)?clarify|please\s+clarify)", _I)

_REFUSAL = re.compile(
    "|".join(
        [
            r"\bне\s+(?:могу|можем|удалось|получилось|удаётся|удается)\s+(?:\w+\s+)?(?:найти|ответить|дать\s+ответ|определить|предоставить|подсказать|сказать)",
            r"\bне\s+(?:знаю|располагаю|нашёл|нашел|нашла|нашли|нахожу)\b",
            r"\bзатрудняюсь\s+ответить",
            r"\bнет\s+(?:никакой\s+|точной\s+|конкретной\s+|подробной\s+|достоверной\s+|актуальной\s+)?(?:информации|данных|сведений|документов|ответа)\b",
            r"\b(?:информаци[яи]|данны[ех]|сведени[яй])\s+(?:об?\s+\w+\s+|по\s+\w+\s+вопросу\s+)?(?:нет|отсутству)",
            r"\bв\s+(?:(?:этих|этом|данных|данном|приведённых|приведенных|имеющихся|найденн\w+|[а-яё]+(?:ых|их|ом|ем)\s+)\s*)?"
            r"(?:базе|документах?|контексте|источниках|материалах"
            r"|тарифах|правилах|регламенте|прайс-листе|положении|предоставленн\w+\s+\w+|доступн\w+\s+\w+)\b"
            r"(?:(?!,\s*(?:но|а|однако)\b)[^:;]){0,60}?"
            r"(?:\bнет\b|\bне\s+(?:содерж|указан|упомина|привод|привед|найден|описан|сказано|предусмотрен|значится)|\bничего\s+не\b"
            r"|\bотсутству)",
            r"\b(?:ничего\s+не\s+сказано|не\s+приводится|не\s+указывается)\b",
            r"\bне\s+(?:указан\w*|упоминается|приводится|привед\w+|описан\w*)\s+в\s+(?:документах|контексте|базе|источниках|материалах|предоставленн)",
            r"\bi\s+(?:do\s+not|don't|don’t|dont)\s+(?:know|have\s+(?:enough\s+|any\s+|the\s+|sufficient\s+)?(?:information|data|details))",
            r"\bi(?:'m|’m|\s+am)\s+(?:not\s+sure|unable\s+to|afraid\s+i)",
            r"\b(?:i|we)\s+(?:cannot|can't|can’t|could\s+not|couldn't|was\s+unable\s+to|am\s+unable\s+to|are\s+unable\s+to)\s+(?:find|answer|determine|provide|locate|say)",
            r"\b(?:there\s+is|there's)\s+no\s+(?:relevant\s+)?(?:information|data|mention|details)",
            r"\bno\s+(?:relevant\s+|suitable\s+|matching\s+)?(?:information|data|documents?)\s+(?:is\s+|are\s+|was\s+|were\s+)?(?:available|found|provided)",
            r"\bответ\s+не\s+показан\b|\bthe\s+answer\s+was\s+withheld\b",
            r"\b(?:context|documents?|sources?|knowledge\s+base|materials?)\s+(?:does|do|did)\s+not\s+(?:contain|mention|include|specify|say|provide|cover)",
            r"\bnot\s+(?:mentioned|specified|provided|covered|stated|available|found)\s+in\s+the\s+(?:provided\s+|given\s+|available\s+)?(?:context|documents?|sources?|knowledge\s+base|materials?)",
            r"\bunable\s+to\s+(?:find|answer|determine)",
        ]
    ),
    _I,
)

_SPLIT_RU = re.compile(r"\s*;\s+|,\s+(?:а|но|однако|тогда\s+как|при\s+этом|а\s+также)\s+|\s+(?:и|но|однако|а\s+также)\s+", _I)
_SPLIT_EN = re.compile(r"\s*;\s+|,\s+however,?\s+|,?\s+(?:and|but|while|whereas)\s+", _I)
_OPEN = {"(": ")", "[": "]", "{": "}", "«": "»", "“": "”", "„": "“"}
_VERB_POS = frozenset({"VERB", "INFN", "PRTS", "GRND", "PRED", "ADJS"})
_EN_VERBS = frozenset(
    """
    is are was were be been being am has have had do does did will shall must may might can could
    should would cost costs take takes include includes cover covers provide provides require
    requires pay pays last lasts apply applies offer offers give gives get gets make makes need
    needs allow allows contain contains guarantee guarantees start starts end ends begin begins
    depend depends comprise comprises charge charges amount amounts equal equals exceed exceeds
    remain remains become becomes mean means run runs use uses deliver delivers install installs
    """.split()
)
_MIN_CLAUSE_TOKENS = 4


def _protected(text: str) -> list[bool]:
    """For each character: is it inside brackets or quotes (never split there)?"""
    mask = [False] * (len(text) + 1)
    stack: list[str] = []
    straight = False
    for i, ch in enumerate(text):
        if stack and ch == stack[-1]:
            stack.pop()
        elif ch in _OPEN:
            stack.append(_OPEN[ch])
        elif ch == '"':
            straight = not straight
        mask[i] = bool(stack) or straight
    return mask


def _is_verb(token: Token) -> bool:
    if token.pos is not None:
        return token.pos in _VERB_POS
    lower = token.text.lower()
    return lower in _EN_VERBS or lower.endswith(("n't", "n’t")) or (len(lower) > 4 and lower.endswith("ed"))


def _clause_like(tokens: list[Token]) -> bool:
    if len(tokens) < _MIN_CLAUSE_TOKENS:
        return False
    return any(t.is_number or _is_verb(t) for t in tokens)


def _split_clauses(text: str, lang: str) -> list[tuple[int, int]]:
    """(start, end) of the clauses of one sentence, conjunctions excluded."""
    pattern = _SPLIT_RU if lang in ("ru", "uk") else _SPLIT_EN
    tokens = analyze(text)
    if len(tokens) < 2 * _MIN_CLAUSE_TOKENS:
        return [(0, len(text))]
    mask = _protected(text)
    # A conjunction's sides never reach past a top-level ";": in "листов, профиля и крепежа; минимальный
    # объём — 10 м²" the "и" joins two nouns, whatever follows the semicolon.
    semicolons = [i for i, ch in enumerate(text) if ch == ";" and not mask[i]]
    pieces = []
    left_start = 0
    for match in pattern.finditer(text):
        if mask[match.start()] or mask[match.end() - 1]:
            continue
        stop = next((i for i in semicolons if i >= match.end()), len(text))
        left = [t for t in tokens if left_start <= t.start and t.end <= match.start()]
        right = [t for t in tokens if t.start >= match.end() and t.end <= stop]
        if not left or not right or left[-1].is_number or right[0].is_number:
            continue  # a list of quantities: "3 и 5 дней", "1 150 руб. и 980 руб."
        if _clause_like(left) and _clause_like(right):
            pieces.append((left_start, match.start()))
            left_start = match.end()
    pieces.append((left_start, len(text)))
    return pieces


def _strip_edges(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and (text[start].isspace() or text[start] in ",;—–-"):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in ",;:—–-"):
        end -= 1
    return start, end


def _strip_prefixes(text: str, start: int, end: int) -> int:
    """Skip a list marker and greetings at ``text[start:]``. A reply word ("Нет, …", "No, …") stays: it answers
    the question and may be the very thing that is wrong (HaluEval's "No, …" to a yes/no question)."""
    while True:
        match = _LIST_MARKER.match(text, start, end) or _GREETING.match(text, start, end)
        if match is None or match.end() == start:
            return start
        start = match.end()


def _is_non_claim(text: str) -> bool:
    if text.endswith("?"):
        return True
    if _FILLER.match(text) or _SOURCE_LINE.match(text):
        return True
    has_digit = any(ch.isdigit() for ch in text)
    if (_REFERRAL.search(text) or _ADVICE.search(text)) and not has_digit:
        return True
    if text.endswith(":") and not has_digit:
        return True
    words = [t for t in analyze(text)]
    if not has_digit and _no_fact_mood(text):
        return True
    return len(words) < 2 and not has_digit


_THAT = re.compile(r"\bчто\b|\bчтобы\b|:", _I)


def _no_fact_mood(text: str) -> bool:
    """A Russian counterfactual without figures states nothing ("Если бы вы прочитали тарифы, не спрашивали
    бы"). Imperatives stay claims: "Возьмите с собой паспорт и СНИЛС" says what is needed, and can be wrong."""
    lower = text.lower()
    return bool(re.search(r"\bесли\s+бы\b", lower)) and not _THAT.search(lower)


def _claims(answer: str, lang: str) -> tuple[list[Claim], bool]:
    """The claims of ``answer`` and whether it contains a refusal."""
    claims = []
    refusal = False
    for sentence in split_sentences(answer, lang):
        start = _strip_prefixes(answer, sentence.start, sentence.end)
        text = answer[start : sentence.end].strip()
        if not text:
            continue
        # A refusal is checked before the non-claim filter: "Не могу ответить, обратитесь к
        # менеджеру." is a refusal, not just a referral.
        refused = _REFUSAL.search(text) is not None
        refusal = refusal or refused
        if not refused and _is_non_claim(text):
            continue
        for a, b in _split_clauses(text, lang):
            a, b = _strip_edges(text, a, b)
            if a >= b:
                continue
            clause = text[a:b]
            if refused and (_REFUSAL.search(clause) or _is_non_claim(clause)):
                continue  # keep only the answered part: "I don't know X, but Y."
            claims.append(Claim(clause, start + a, start + b))
    return claims, refusal


def extract_claims(answer: str, *, lang: str | None = None) -> list[Claim]:
    """The checkable statements of ``answer`` with offsets into it (rules in the module doc).

    ``lang=None`` detects the answer's language (script-based). An answer with no claims gives
    ``[]``: see :func:`is_refusal` to tell a refusal from small talk.

    >>> [c.text for c in extract_claims(
    ...     "Здравствуйте! Монтаж кровли стоит 1 150 руб. за м², а демонтаж старого покрытия стоит 300 руб. за м². "
    ...     "Надеюсь, это поможет!")]
    ['Монтаж кровли стоит 1 150 руб. за м²', 'демонтаж старого покрытия стоит 300 руб. за м².']
    """
    lang = lang or detect_language(answer) or "en"
    return _claims(answer, lang)[0]


_FACT_SEP = re.compile(r",\s+|;\s+|\s*\(")
_WORD = re.compile(r"[^\W\d_]{3,}")
_DAY_END = re.compile(r"[A-Za-z]{3,}\.?\s\d{1,2}$")
_YEAR = re.compile(r"\d{4}\b")


def _segments(text: str) -> list[tuple[int, int]]:
    """Top-level pieces of ``text`` between ", " / "; " and around bracketed groups."""
    mask = _protected(text)
    cuts = [0]
    for match in _FACT_SEP.finditer(text):
        if match.group().lstrip().startswith("("):
            if match.start() > 0 and not mask[max(match.start() - 1, 0)]:
                cuts.append(match.start())
        elif not mask[match.start()] and not (_DAY_END.search(text, 0, match.start()) and _YEAR.match(text, match.end())):
            cuts.append(match.start())  # but never inside "April 3, 1971"
    for i, ch in enumerate(text):  # a bracketed group ends a segment
        if ch in ")]" and i + 1 < len(text) and not mask[i]:
            cuts.append(i + 1)
    cuts = sorted(set(c for c in cuts if 0 <= c < len(text)))
    return [(a, b) for a, b in zip(cuts, cuts[1:] + [len(text)]) if a < b]


def split_facts(claim: Claim) -> list[Claim]:
    """Cut a claim into facts: pieces that each state their own number.

    Answer correctness counts claims the way Ragas counts statements, and a reference sentence such as
    "36 месяцев с даты подписания акта (на кровельные работы — 60 месяцев)" holds two facts that an
    answer can get right one at a time. A cut goes at a top-level ", ", "; " or bracketed group, only
    between two pieces that each have a digit and a word of 3+ letters; a piece without both stays with
    the fact before it ("без стоимости листов", "(620 × 1,3)"). A claim without such pieces is one fact.

    >>> [f.text for f in split_facts(Claim("14° (для гибкой черепицы — 12°).", 0, 32))]
    ['14°', 'для гибкой черепицы — 12°']
    """
    text = claim.text
    segments = _segments(text)
    factual = [any(ch.isdigit() for ch in text[a:b]) and _WORD.search(text[a:b]) is not None
               or (i == 0 and any(ch.isdigit() for ch in text[a:b])) for i, (a, b) in enumerate(segments)]
    starts = [a for (a, _), f in zip(segments, factual) if f]
    if len(starts) < 2:
        return [claim]
    starts[0] = 0
    facts = []
    for a, b in zip(starts, starts[1:] + [len(text)]):
        a, b = _strip_edges(text, a, b)
        if text[a:a + 1] == "(" and text[a:b].rstrip(".").endswith(")"):
            a, b = a + 1, a + len(text[a:b].rstrip(".")) - 1  # "(на кровлю — 60 месяцев)." -> the inside
        if a < b:
            facts.append(Claim(text[a:b], claim.start + a, claim.start + b))
    return facts


def extract_facts(text: str, *, lang: str | None = None) -> list[Claim]:
    """:func:`extract_claims`, each claim cut by :func:`split_facts` (the claims of answer correctness).

    A short answer with no claim ("Arthur's Magazine", "1998") is one fact itself, unless it is empty or
    a refusal: as a reference it is still the right answer.

    >>> [f.text for f in extract_facts("Arthur's Magazine", lang="en")]
    ["Arthur's Magazine"]
    """
    facts = [fact for claim in extract_claims(text, lang=lang) for fact in split_facts(claim)]
    if facts or not text.strip() or is_refusal(text, lang) or not any(ch.isalnum() for ch in text):
        return facts
    start = len(text) - len(text.lstrip())
    return [Claim(text.strip(), start, start + len(text.strip()))]


def answer_claims(answer: str, *, lang: str | None = None) -> list[Claim]:
    """The claims faithfulness checks: :func:`extract_claims`; a short answer with none ("Arthur's
    Magazine", "1998") is one claim itself, unless it is empty, a refusal or has no letter or digit.

    >>> [c.text for c in answer_claims("Arthur's Magazine", lang="en")]
    ["Arthur's Magazine"]
    >>> answer_claims("Не могу ответить на этот вопрос.", lang="ru")
    []
    """
    lang = lang or detect_language(answer) or "en"
    claims, refusal = _claims(answer, lang)
    text = answer.strip()
    if claims or refusal or not text or not any(ch.isalnum() for ch in text) or _is_dropped_sentence(text):
        return claims
    start = len(answer) - len(answer.lstrip())
    return [Claim(text, start, start + len(text))]


_YES_NO = re.compile(r"(?:да|нет|yes|no|конечно|of\s+course)\W*", _I)


def _is_dropped_sentence(text: str) -> bool:
    """A question, filler, referral or bare yes/no that ``extract_claims`` drops on purpose (a one-word
    name or a number is not dropped: "Paris", "1998" answer a question)."""
    if _YES_NO.fullmatch(text):
        return True
    return _is_non_claim(text) and (len(analyze(text)) >= 2 or text.endswith("?") or bool(_FILLER.match(text)))


def is_refusal(text: str, lang: str | None = None) -> bool:
    """True when the answer declines to answer and says nothing checkable.

    It needs a refusal sentence ("В базе нет документов о сроках гарантии", "I don't know",
    "Не могу ответить на этот вопрос") and no claim besides it; a partial answer ("I don't know
    the exact price, but delivery takes 3 days.") is not a refusal: its claims get scored. An empty
    answer is a refusal (nothing was answered).

    >>> is_refusal("К сожалению, в базе нет документов о гарантии на окна. Обратитесь к менеджеру.")
    True
    """
    if not text.strip() or _CLARIFY.match(text):
        return True
    lang = lang or detect_language(text) or "en"
    claims, refusal = _claims(text, lang)
    return refusal and not claims


__all__ = ["Claim", "answer_claims", "extract_claims", "extract_facts", "is_refusal", "split_facts"]
