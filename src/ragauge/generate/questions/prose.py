"""Facts from prose: one question per sentence that holds a quantity, asked from the sentence's own subject.

A sentence ``SUBJECT VERB [MIDDLE] OPERATOR QUANTITY [CONDITION]`` ("Уведомление о плановых работах направляется
клиенту не позднее 5 числа") gives the question ``Q VERB SUBJECT MIDDLE?`` ("В какой срок клиенту направляется
уведомление о плановых работах?": a bare dative goes before the verb, :mod:`.prose_ru_order`), where Q comes
from the operator and the quantity's kind (:data:`RU_OPERATORS`, :mod:`.prose_ru_kinds`): a deadline,
a duration, an amount, a percentage, a limit, a frequency, a time of day. A lead time («не позднее чем за 24 часа
до визита») is asked «За сколько часов до визита нужно отменить запись на приём?» (:mod:`.prose_ru_lead`); a
light verb with its verbal noun as the verb they stand for («выполняет бронирование гостиницы» -> «бронирует
гостиницу», :mod:`.prose_ru_verbs`); a charge in the instrumental as the charge for the thing («Какова комиссия
за …?», :mod:`.prose_ru_nominal`). The sentence with the verb
before its subject ("Пенсионерам предоставляется скидка 10% на все приёмы врачей") gives
"Какая скидка предоставляется пенсионерам?". English: ``SUBJECT AUX|VERB-s … QUANTITY`` ("Expense reports
must be submitted within 10 working days after the trip" -> "How soon must expense reports be submitted?"),
in :mod:`.prose_en`.

Grammar is checked with pymorphy3, not assumed: the subject's head must be a noun (or a substantivised
adjective: "Суточные") in the nominative, the verb finite and agreeing with it in number (and gender in
the past tense), and "Какой/Какая/Какое/Какие" agree with the noun. The reference is the sentence itself
(a clause number removed), so every number and condition of the reference is in its chunk.

A Russian sentence is first reduced to the one statement asked (:mod:`.prose_ru_clause`) and put in the voice of
the reader who asks (:mod:`.prose_ru_voice`: «Мы принимаем решение …» -> «… вы принимаете решение?», «Сообщите
…» -> «… нужно сообщить …?»). One these forms cannot ask is tried by :mod:`.prose_caps_ru` («не должен превышать»,
«ограничена суммой»: the maximum it states), by :mod:`.prose_ru_modal` («нужно подать …», «можно отменить …»),
then by :mod:`.prose_wh`, which puts a question phrase in place of the quantity («на 4 платежа» -> «На сколько
платежей …»), and a sentence without a number that states a condition («… возмещается только при …») gives «При
каком условии …?». A range («от 3 до 5 рабочих дней», "3 to 5 working days") is one quantity.

A sentence that gives no question is counted in ``dropped`` by reason (``prose_no_subject``,
``prose_no_verb``, ``prose_no_agreement``, ``prose_no_question_form``).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable

from ragauge.generate.chunking import Chunk
from ragauge.generate.questions import morph
from ragauge.generate.questions.facts import NUMBER, sentence_language, sentences
from ragauge.generate.questions.prose_caps_ru import ru_cap_question
from ragauge.generate.questions.prose_context import ANAPHORA, qualify
from ragauge.generate.questions.prose_en import en_question
from ragauge.generate.questions.prose_ru_kinds import LASTING as _LASTING
from ragauge.generate.questions.prose_ru_kinds import is_lasting as _is_lasting
from ragauge.generate.questions.prose_ru_kinds import quantity_kind as _quantity_kind
from ragauge.generate.questions.prose_ru_kinds import question_word as _ru_question_word
from ragauge.generate.questions.prose_ru_lead import counted_back, lead_clause
from ragauge.generate.questions.prose_ru_modal import modal_question
from ragauge.generate.questions.prose_ru_nominal import charge_question
from ragauge.generate.questions.prose_ru_order import for_whom, polish
from ragauge.generate.questions.prose_ru_order import recipient_before_verb as _recipient_before_verb  # noqa: F401
from ragauge.generate.questions.prose_ru_verbs import plain_action
from ragauge.generate.questions.prose_ru_clause import one_statement
from ragauge.generate.questions.prose_ru_voice import as_asked
from ragauge.generate.questions.prose_wh import ru_condition_question, ru_wh_question

_CLAUSE = re.compile(r"^\d+(?:\.\d+)+\.?\s+")
_WORD = re.compile(r"\S+")
_RU_PREP = {"при", "если", "в", "на", "за", "по", "с", "для", "после", "до", "от", "и", "но", "а", "это", "над",
            "под", "перед", "через", "во", "со", "из", "о", "об", "у", "к", "он", "она", "они", "оно", "его", "её",
            "их", "то", "так", "также", "кроме", "свыше", "этот", "эта", "эти", "это", "такой", "такие"}
_RU_PRONOUNS = {"он", "она", "оно", "они", "его", "её", "ее", "их", "этот", "эта", "это", "эти", "этого", "такой",
                "таком", "такого", "который", "которая", "которые"}
#: Operator words just before a number, longest first: (words, kind of operator).
RU_OPERATORS = [
    ("в срок до", "within"), ("в срок", "within"), ("не позднее чем за", "deadline"), ("не позже чем за", "deadline"), ("не менее чем за", "deadline"),
    ("не позднее чем через", "after"), ("не позже чем через", "after"), ("не позднее", "deadline"),
    ("в течение", "within"), ("в размере до", "amount"), ("в размере", "amount"), ("в пределах", "range"),
    ("на срок до", "term"), ("на срок", "term"), ("продолжительностью", "length"), ("по ставке", "rate"),
    ("не чаще", "often"), ("не реже", "often"), ("не более", "limit"), ("не менее", "least"), ("через", "after"),
    ("до", "upto"), ("за", "deadline"), ("с", "clock"), ("на", "term"),
    ("каждые", "often"), ("каждый", "often"), ("каждую", "often"), ("каждое", "often"),
]
_WHAT = {"masc": "Какой", "femn": "Какая", "neut": "Какое", "plur": "Какие"}


@dataclass(frozen=True)
class ProseQuestion:
    """A question formed from one sentence, with the sentence as its reference."""

    chunk: Chunk
    lang: str
    question: str
    reference: str
    subject: str
    kind: str  #: "deadline", "duration", "amount", "percent", "limit", "frequency", "time", "count"
    frame: str = ""  #: the question with "{subj}" for its subject, when another subject fits it as is
    form: str = ""  #: "sing" or "plur": what the frame's verb agrees with


def _parse(word: str):
    analyzer = morph._analyzer()
    return analyzer.parse(word.lower())[0] if analyzer is not None else None


def _is_verb(word: str) -> bool:
    clean = word.strip(",.;:«»\"")
    if not re.fullmatch(r"[а-яёА-ЯЁ-]+", clean):
        return False
    p = _parse(clean)
    return p is not None and p.tag.POS == "VERB" and p.tag.mood == "indc"


def _subject_form(subject: str) -> str | None:
    """"masc"/"femn"/"neut"/"plur" of a nominative noun phrase (substantivised adjectives included)."""
    words = [w.strip(",.;:") for w in subject.split()]
    if not words or words[0].lower() in _RU_PREP or any(w.lower() in _RU_PRONOUNS for w in words):
        return None
    form = morph.gender_number(subject)
    if form is not None:
        return str(form)
    p = morph._nominative_parse(words[0]) if re.fullmatch(r"[а-яёА-ЯЁ]+", words[0]) else None
    if p is not None and p.tag.POS == "ADJF" and str(p.tag.number) == "plur" and (
            len(words) == 1 or _parse(words[1]).tag.POS in ("PREP", "NOUN")):
        return "plur"
    return None


_NOT_IN_MIDDLE = {"и", "или", "а", "при", "не", "чем", "если", "когда", "более", "менее", "свыше"}


def _is_comparative(word: str) -> bool:
    p = _parse(word.strip(",.;:")) if re.fullmatch(r"[а-яёА-ЯЁ-]+", word.strip(",.;:")) else None
    return p is not None and p.tag.POS == "COMP"


def _agrees(verb: str, form: str) -> bool:
    p = _parse(verb.strip(",.;:"))
    if p is None:
        return False
    number, gender = str(p.tag.number or ""), str(p.tag.gender or "")
    if number and (number == "plur") != (form == "plur"):
        return False
    if str(p.tag.tense or "") == "past" and gender and form != "plur" and gender != form:
        return False
    return True


def _operator(pre: list[str]) -> tuple[int, str]:
    """How many trailing words of ``pre`` form an operator, and its kind (0, "") when none."""
    low = [w.lower().strip(",") for w in pre]
    for words, kind in RU_OPERATORS:
        ws = words.split()
        if len(low) >= len(ws) and low[len(low) - len(ws):] == ws:
            return len(ws), kind
    return 0, ""


def _clean_tail(words: list[str]) -> list[str]:
    return [w.strip(",;:") for w in words]


def _split_subject(words: list[str], verb_at: int, verb: str) -> tuple[list[str], str, str] | None:
    """(prefix, subject, form): the nominative noun phrase agreeing with the verb just before it, after an
    optional prepositional prefix ("При досрочном расторжении вклада | проценты | начисляются")."""
    for k in range(0, verb_at):
        if k and words[0].lower() not in _RU_PREP:
            break
        subject = " ".join(words[k:verb_at])
        if k and (verb_at - k > 4 or any(w.lower() in _RU_PREP for w in words[k:verb_at])):
            continue
        if k and NUMBER.search(words[k - 1]):  # "весом более 20 | кг": the word after a number is its unit
            continue
        if k and words[k - 1].lower() in _RU_PREP:  # «При отказе в | визе»: the object of a preposition
            continue
        form = _subject_form(subject)
        if form is not None and _agrees(verb, form):
            return _clean_tail(words[:k]), subject, form
    return None


_WITH_WHAT = {"masc": "каким", "femn": "какой", "neut": "каким", "plur": "какими"}


def _with_what(middle: list[str]) -> tuple[str, list[str]] | None:
    """("С какой надбавкой", rest of the middle) when the middle ends with "с/со" + a noun in the instrumental;
    ("Какой комиссией", rest) when it ends with the instrumental noun alone ("облагается комиссией 1%")."""
    if not middle:
        return None
    p = _parse(middle[-1]) if re.fullmatch(r"[а-яё]+", middle[-1].lower()) else None
    if p is None or p.tag.POS != "NOUN" or str(p.tag.case) != "ablt":
        return None
    form = "plur" if str(p.tag.number) == "plur" else str(p.tag.gender)
    which = _WITH_WHAT.get(form)
    if not which:
        return None
    if len(middle) >= 2 and middle[-2].lower() in ("с", "со"):
        return f"{middle[-2].capitalize()} {which} {middle[-1]}", middle[:-2]
    if len(middle) >= 2 and _parse(middle[-2]) is not None and _parse(middle[-2]).tag.POS == "PREP":
        return None  # "по ставке", "под залогом": another preposition governs it
    return f"{which.capitalize()} {middle[-1]}", middle[:-1]


def _recipient_first(prefix: list[str]) -> list[str]:
    """"за каждый час простоя сверх нормы клиенту" -> "клиенту за каждый час простоя сверх нормы": the dative
    noun group that ends the prefix (to whom, with its adjectives: "многодетным семьям") goes right after the
    verb, as a person would ask; a prefix that is that group alone stays as written."""
    last = prefix[-1] if len(prefix) > 1 else ""
    p = _parse(last) if re.fullmatch(r"[а-яё]+", last.lower()) else None
    if p is None or p.tag.POS != "NOUN" or str(p.tag.case) != "datv":
        return prefix
    start = len(prefix) - 1
    while start > 0:
        q = _parse(prefix[start - 1]) if re.fullmatch(r"[а-яё]+", prefix[start - 1].lower()) else None
        if q is None or not any(a.tag.POS in ("ADJF", "PRTF") and a.tag.case == "datv"
                                for a in morph._analyzer().parse(prefix[start - 1].lower())):
            break
        start -= 1
    if start == 0:
        return prefix
    return prefix[start:] + [morph.lower_first(prefix[0])] + prefix[1:start]


#: The start of a length frame («Какой продолжительности предоставляется {subj}?»): its questions are asked
#: «Какова продолжительность X?» (:func:`length_question`).
LENGTH_FRAME = "Какой продолжительности "


def length_question(subject: str, rest: list[str]) -> str | None:
    """«Обеденный перерыв предоставляется продолжительностью 1 час» asks «Какова продолжительность обеденного
    перерыва?», as a person asks, not the bookish «Какой продолжительности предоставляется обеденный перерыв?»;
    ``rest`` (to whom: «работникам с ненормированным рабочим днём») follows. None when the subject does not
    inflect. A dative of whom it is for reads «для» + genitive in a question without a verb: «Какова
    продолжительность дополнительного отпуска для работников с ненормированным рабочим днём?»."""
    gen = morph.inflect(morph.lower_first(subject), "gent")
    if not gen:
        return None
    return " ".join(["Какова продолжительность", gen] + ([_lower(for_whom(rest))] if rest else [])) + "?"


def _agent_after(subject: str, verb: str, middle: list[str]) -> str | None:
    """The agent of a sentence in object-verb-subject order: «Бронирование гостиницы выполняет административный
    отдел за 5 дней до поездки». A verbal noun («бронирование», «оформление», «согласование») does not act, so
    when it stands before an active transitive verb and the words after the verb are a noun group that can be
    its nominative subject, those words are the agent, asked first: «… административный отдел выполняет
    бронирование гостиницы?», which the caller asks «… административный отдел бронирует гостиницу?»
    (:func:`.prose_ru_verbs.plain_action`). None for any other sentence."""
    head = subject.split()[0].lower() if subject.split() else ""
    if not re.fullmatch(r"[а-яё]+(?:ание|ение|ёние|тие)", head) or verb.lower().endswith(("ся", "сь")) \
            or not middle or len(middle) > 4:
        return None
    p = _parse(verb)
    if p is None or "tran" not in p.tag:
        return None
    agent = " ".join(middle)
    if any(w.lower() in _RU_PREP for w in middle):
        return None
    form = _subject_form(agent)
    if form is None or not _agrees(verb, form):
        return None
    return morph.lower_first(agent)


def _lower(words: list[str]) -> str:
    text = " ".join(words)
    return morph.lower_first(text) if text else ""


def _ru_question(sentence: str) -> tuple[str | None, str, str, str, str]:
    """(question, fact kind, subject) or (None, drop reason, "")."""
    body = re.sub(r"(?<=\d)[ \u00a0](?=\d{3}\b)", "", _CLAUSE.sub("", sentence).rstrip(".!"))
    words = _WORD.findall(body)
    verb_at = next((i for i, w in enumerate(words) if _is_verb(w)), None)
    if verb_at is None:
        return None, "prose_no_verb", "", "", ""
    first_num = next((i for i, w in enumerate(words) if i > verb_at and NUMBER.search(w)), None)
    if first_num is None:
        return None, "prose_no_quantity", "", "", ""
    verb = words[verb_at].strip(",")
    if any("," in w or "(" in w for w in words[:verb_at]) or verb_at == 0:
        return None, "prose_no_subject", "", "", ""
    lemma = _parse(verb).normal_form
    last_num, q_at = first_num, first_num  # "от 3 до 5 рабочих дней": the range is one quantity, from "от"
    if words[first_num - 1].lower() == "от" and first_num - 1 > verb_at and first_num + 2 < len(words) \
            and words[first_num + 1].lower() == "до" and NUMBER.match(words[first_num + 2]):
        last_num, q_at = first_num + 2, first_num - 1
    op_len, op = _operator(words[:q_at])
    number = words[last_num]
    if re.search(r"\d-[а-я]+$", number.rstrip(",.;:")) or words[q_at - 1].lower() in ("в", "во") and re.match(
            r"^раз(?:а|$)", words[last_num + 1] if last_num + 1 < len(words) else ""):
        return None, "prose_no_question_form", "", "", ""  # «до 24-й недели», «в 2 раза»: asked by .prose_wh
    after = " ".join(words[last_num + 1:last_num + 3])
    if re.fullmatch(r"[\d.,]+%", number):
        number, after = number[:-1], "%"
    qkind = _quantity_kind(after, number)
    if q_at < first_num and not op and qkind == "duration" and lemma not in _LASTING | {"длиться", "занимать"}:
        op = "within"  # "выполняется от 3 до 5 рабочих дней": by when, as "в течение"
    if any(w.endswith(",") for w in words[verb_at:q_at - op_len]) or re.match(
            r"^возраст", words[q_at - op_len - 1].lower()):
        return None, "prose_no_question_form", "", "", ""  # a participle clause or an age: asked by .prose_wh
    middle = _clean_tail(words[verb_at + 1:q_at - op_len])
    if "вычетом" in (w.lower() for w in middle):  # «за вычетом расходов в размере 20%»: the number is what is
        return None, "prose_no_question_form", "", "", ""  # withheld, asked by .prose_wh (.prose_ru_deduct)
    split = _split_subject(words, verb_at, verb)
    if split is None:
        # the verb before its subject: "Пенсионерам предоставляется скидка 10% …"
        cand = " ".join(middle)
        form2 = _subject_form(cand) if cand and len(middle) <= 5 and not any(
            w.lower() in _NOT_IN_MIDDLE or _is_comparative(w) for w in middle) else None
        if form2 is None or not _agrees(verb, form2):
            return None, "prose_no_subject", "", "", ""
        prefix = _clean_tail(words[:verb_at])
        if any(w.lower() in _RU_PRONOUNS for w in prefix) or morph.inflect(cand, "gent") is None:
            return None, "prose_no_agreement", "", "", ""
        if op in ("", "amount") and qkind in ("percent", "money") or not op and qkind == "count" and middle:
            prefix = _recipient_first(prefix)
            question = f"{_WHAT[form2]} {_lower(middle)} {verb} {_lower(prefix)}?"
            return question, {"percent": "percent", "money": "amount"}.get(qkind, "count"), cand, "", ""
        back = counted_back(words, op, q_at, last_num) if qkind == "duration" else None
        opening = (back[0], "deadline") if back else _ru_question_word(
            op, qkind, lemma, after.lstrip(), lasting=_is_lasting(lemma, cand, words[last_num + 2:]))
        if opening is None:
            return None, "prose_no_question_form", "", "", ""
        if op == "length" and (length := length_question(cand, prefix)) is not None:
            return length, opening[1], cand, "", ""
        if back and back[1] and (clause := lead_clause(verb, cand, [], prefix)) is not None:
            return f"{opening[0]} {clause}?", "deadline", cand, "", ""  # «… нужно направить уведомление клиенту?»
        return f"{opening[0]} {verb} {_lower(middle)} {_lower(prefix)}?", opening[1], cand, "", ""
    prefix, subject, form = split
    if any(w.lower() in _RU_PRONOUNS for w in prefix + middle) or len(subject.split()) > 10 or len(middle) > 5:
        return None, "prose_no_question_form", "", "", ""
    if any(w.lower() in _NOT_IN_MIDDLE or _is_verb(w) or _is_comparative(w) for w in middle):
        return None, "prose_no_question_form", "", "", ""  # a condition on the number, not its attribute
    instrumental = _with_what(middle) if qkind in ("percent", "money") and not op else None
    if instrumental is not None:  # "оплачивается с надбавкой 20%" -> "С какой надбавкой оплачивается …?"
        opening_words, rest = instrumental
        subj = morph.lower_first(subject)
        question = " ".join([opening_words, verb, subj] + rest + ([_lower(prefix)] if prefix else [])) + "?"
        if not opening_words.lower().startswith(("с ", "со ")):  # «облагается комиссией»: «Какова комиссия за …?»
            question = charge_question(middle[-1], subject, rest, _lower(prefix)) or question
        return question, "percent" if qkind == "percent" else "amount", subject, "", "plur" if form == "plur" else "sing"
    back = counted_back(words, op, q_at, last_num) if qkind == "duration" else None
    if lemma == "составлять":
        opening: tuple[str, str] | None = ("Сколько", {"money": "amount", "percent": "percent"}.get(qkind, "duration"))
    elif back:
        opening = back[0], "deadline"  # «за 3 дня до исследования»: «За сколько дней до исследования …»
    else:
        opening = _ru_question_word(op, qkind, lemma, after.lstrip(),
                                    lasting=_is_lasting(lemma, subject, words[last_num + 2:]))
    if opening is None:
        return None, "prose_no_question_form", "", "", ""
    q, kind = opening
    if op == "length" and not middle and (length := length_question(subject, prefix)) is not None:
        # the frame keeps the sentence's verb for the absence checks; .absent asks it as this question does
        frame = f"{LENGTH_FRAME}{verb} {{subj}}?" if not prefix else ""
        return length, kind, subject, frame, "plur" if form == "plur" else "sing"
    subj = morph.lower_first(subject)
    # a verb without an object goes before its subject («Как долго действует гарантия?»), but an active verb
    # with a complement of its own follows it, as a person asks («В какое время вторая линия поддержки
    # отвечает на обращения …?», not «… отвечает вторая линия поддержки на обращения …?»)
    reflexive = verb.lower().endswith(("ся", "сь")) or "intr" in _parse(verb).tag and not middle
    agent = _agent_after(subject, verb, middle)
    if agent is not None:  # «Бронирование гостиницы выполняет административный отдел»: the agent is after the verb
        action = plain_action(verb, subj) or f"{verb} {subj}"  # «выполняет бронирование гостиницы» -> «бронирует …»
        question = " ".join([q, agent, action] + ([_lower(prefix)] if prefix else [])) + "?"
        return question, kind, subject, "", "plur" if form == "plur" else "sing"
    if back and back[1] and reflexive and (clause := lead_clause(verb, subject, middle, prefix)) is not None:
        # «не позднее чем за 24 часа до визита»: «За сколько часов до визита нужно отменить запись на приём?»; the
        # frame asks another subject's deadline as before («В какой срок выплачивается {subj}?»)
        frame = f"В какой срок {verb} {{subj}}?" if not middle and not prefix else ""
        return f"{q} {clause}?", kind, subject, frame, "plur" if form == "plur" else "sing"
    core = f"{verb} {subj}" if reflexive or q.startswith("Сколько") else f"{subj} {verb}"
    if middle and "intr" in _parse(verb).tag and all(_parse(w).tag.POS == "ADVB" for w in middle):
        # adverbs alone are no complement: «В какое время ежедневно работает офис?», not «… офис работает ежедневно?»
        core, middle = " ".join(middle + [verb, subj]), []
    question = " ".join([q, core] + middle + ([_lower(prefix)] if prefix else [])) + "?"
    frame = f"{q} {verb} {{subj}}?" if core.startswith(verb) and not middle and not prefix \
        and not q.startswith("За сколько") else ""
    return question, kind, subject, frame, "plur" if form == "plur" else "sing"


def prose_questions(chunks: Iterable[Chunk], langs: dict[str, str], dropped: Counter, *,
                    skip: set[str] = frozenset(), lang: str | None = None,
                    why: dict[str, Counter] | None = None) -> list[ProseQuestion]:
    """One question per quantity-bearing sentence of every text chunk (sentences in ``skip`` are left to
    the older templates). Sentences without a usable subject, verb or question form are counted."""
    out = []
    for chunk in chunks:
        if chunk.kind == "table" or chunk.id not in langs:
            continue
        for sent in sentences(chunk):
            if sent in skip:
                continue
            if not re.search(r"\d", sent):
                condition = ru_condition_question(sent) if sentence_language(sent) == "ru" and (
                    not lang or lang == "ru") else None
                if condition is not None:
                    out.append(ProseQuestion(chunk, "ru", condition, _CLAUSE.sub("", sent).strip(), "", "condition"))
                continue
            own = sentence_language(sent)
            if lang and own != lang:
                continue
            if own == "ru" and not morph.available():
                dropped["prose_russian_morphology_missing"] += 1
                continue
            # the one statement asked, in the reader's voice (:mod:`.prose_ru_clause`, :mod:`.prose_ru_voice`)
            asked = as_asked(one_statement(_CLAUSE.sub("", sent))) if own == "ru" else sent
            question, kind, subject, frame, form = (_ru_question if own == "ru" else en_question)(asked)
            if question is None and own == "ru":
                # «не должен превышать», «ограничена суммой»: the maximum it states («Каков максимальный вес …?»),
                # before the question phrase in place of the number («Сколько метров не должны превышать …?»)
                cap = ru_cap_question(asked) or modal_question(asked)  # «нужно подать …» (:mod:`.prose_ru_modal`)
                wh, wh_kind = cap if cap is not None else ru_wh_question(asked)
                if wh is not None:
                    question, kind, subject, frame, form = wh, wh_kind, "", "", ""
            if question is not None and ANAPHORA.search(sent):
                # it leans on the sentence before: a bracketed section is not what a person types, and «каждый
                # последующий час» asked as «каждый час» is a false premise when the first hours are free
                question, kind = None, "prose_leans_on_sentence_before"
            if question is not None and own == "ru":
                question = polish(question)  # a dative's place and preposition (:mod:`.prose_ru_order`)
            if question is None:
                dropped[kind] += 1
                if why is not None:
                    why.setdefault(chunk.id, Counter())[kind] += 1
                continue
            out.append(ProseQuestion(chunk, own, question[:1].upper() + question[1:],
                                     _CLAUSE.sub("", sent).strip(), subject, kind, frame, form))
    return qualify(out)


__all__ = ["LENGTH_FRAME", "ProseQuestion", "RU_OPERATORS", "length_question", "prose_questions", "qualify"]
