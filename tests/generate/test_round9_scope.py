"""Issue 19, round 9: a question carries the scope a reader needs, and no scope the documents do not give it.

A term stated once for the whole service is not pinned to the plan whose section happens to list it; a thing is
named when another section states the same attribute, when the sentence names the kind of thing the section is
one of, or when the sentence calls a thing the chunk names by its kind only. Every test is written on documents
of its own (not the test corpora) and fails on the code before this round: the old rule pinned every question of
a named section that has a named sibling, and named no thing without a proper name."""

from __future__ import annotations

import pytest

from ragauge.generate.chunking import Chunk
from ragauge.generate.questions.qualifier import of_siblings


def _chunk(cid: str, section: str, text: str, title: str = "Tariffs", kind: str = "text") -> Chunk:
    return Chunk(id=cid, doc_id="d", text=text, start=0, end=len(text), section=(title, section), kind=kind,
                 ordinal=0, title=title)


def _ask(question: str, chunk: Chunk, chunks: list[Chunk], lang: str) -> str:
    return of_siblings([(question, chunk, lang)], chunks)[0]


# ---------------------------------------------------------------- whole-service terms under a plan

HOSTING = [
    _chunk("basic", "Basic plan", "The Basic plan costs $10 per month. Support tickets are answered within 2 business "
           "days. Phone support is available from 9:00 to 17:00 on weekdays.", "Hosting plans"),
    _chunk("business", "Business plan", "The Business plan costs $40 per month. Priority tickets are answered within "
           "2 hours. Extra mailboxes cost $3 per month each. Backups are retained for 14 days. Refunds are issued "
           "within 10 days of the request.", "Hosting plans"),
]


@pytest.mark.parametrize("question, chunk", [
    ("How long are backups retained?", HOSTING[1]),
    ("How soon are refunds issued?", HOSTING[1]),
    ("How much do extra mailboxes cost?", HOSTING[1]),
    ("When is phone support available?", HOSTING[0]),
])
def test_a_term_stated_once_under_a_plan_is_not_pinned_to_it(question, chunk) -> None:
    """The old rule asked "How long are backups retained for the Business plan?": a plan-dependence the documents
    never state."""
    assert _ask(question, chunk, HOSTING, "en") == question


def test_an_attribute_another_section_states_too_is_asked_of_its_plan() -> None:
    """The other plan's section or a general one ("Support terms") states the same attribute: two answers, so
    the plan is named (the old rule named it only beside another named plan, never beside a general section)."""
    assert (_ask("How soon are support tickets answered?", HOSTING[0], HOSTING, "en")
            == "How soon are support tickets answered for the Basic plan?")
    assert _ask("How much does the Business plan cost?", HOSTING[1], HOSTING, "en") == \
        "How much does the Business plan cost?"
    general = [_chunk("g", "Support terms", "Support tickets are answered within 1 business day.", "Hosting"),
               _chunk("b", "Business plan", "The Business plan costs $40 per month. Support tickets are answered "
                      "within 4 hours.", "Hosting")]
    assert (_ask("How soon are support tickets answered?", general[1], general, "en")
            == "How soon are support tickets answered for the Business plan?")
    assert _ask("How soon are support tickets answered?", general[0], general, "en") == \
        "How soon are support tickets answered?"


CARDS = [
    _chunk("silver", "Silver card", "The annual fee for the Silver card is $25. Cash withdrawals at other banks' ATMs "
           "are charged a fee of 2% of the amount.", "Debit cards"),
    _chunk("platinum", "Platinum card", "The annual fee for the Platinum card is $150. The daily limit for cash "
           "withdrawals is $5,000.", "Debit cards"),
]


def test_a_limit_of_the_same_thing_is_not_the_same_attribute_as_its_fee() -> None:
    """The Platinum card states a withdrawal *limit*; the Silver card's withdrawal *fee* is stated once."""
    question = "What is the fee for cash withdrawals at other banks' ATMs?"
    assert _ask(question, CARDS[0], CARDS, "en") == question
    free = [CARDS[0], _chunk("platinum", "Platinum card", "The annual fee for the Platinum card is $150. Cash "
                             "withdrawals at other banks' ATMs are free of charge.", "Debit cards")]
    assert _ask(question, free[0], free, "en") == question.rstrip("?") + " for the Silver card?"


# ---------------------------------------------------------------- Russian: the kind, the attribute, the mention

def _ru() -> None:
    pytest.importorskip("pymorphy3", reason="Russian qualifiers need pymorphy3 (pip install 'ragauge[offline]')")


DEPOSITS = [
    _chunk("fam", "Вклад «Семейный»", "Минимальный взнос по вкладу «Семейный» составляет 10 000 рублей. Срок вклада "
           "составляет 367 дней.", "Вклады"),
    _chunk("inc", "Вклад «Доходный»", "Ставка по вкладу «Доходный» составляет 12% годовых. Выписка по счёту "
           "предоставляется в течение 3 рабочих дней.", "Вклады"),
]


def test_a_sentence_that_names_the_kind_is_asked_of_its_thing_and_a_general_one_is_not() -> None:
    """«Срок вклада» under one of two deposits: which deposit? The statement is not stated for the other deposit
    and names no deposit, so it stays general (the old rule added «по вкладу «Доходный»»)."""
    _ru()
    assert _ask("Каков срок вклада?", DEPOSITS[0], DEPOSITS, "ru") == "Каков срок вклада «Семейный»?"
    question = "В какой срок предоставляется выписка по счёту?"
    assert _ask(question, DEPOSITS[1], DEPOSITS, "ru") == question


OVERDRAFT = [
    _chunk("o", "Овердрафт", "Процентная ставка по овердрафту составляет 24% годовых. Минимальный взнос составляет 10% "
           "от задолженности.", "Кредиты малому бизнесу"),
    _chunk("r", "Возврат займа", "Минимальный взнос по займу вносится до 25 числа каждого месяца. Досрочный возврат "
           "займа выполняется без комиссии.", "Кредиты малому бизнесу"),
]


def test_an_unnamed_thing_is_named_when_another_section_states_the_attribute() -> None:
    """«Каков размер минимального взноса?» under «Овердрафт» beside the loan's «Минимальный взнос по займу …»:
    which product's? The heading has no proper name; «по овердрафту» in its own text makes it a thing."""
    _ru()
    question = "Каков размер минимального взноса?"
    assert _ask(question, OVERDRAFT[0], OVERDRAFT, "ru") == "Каков размер минимального взноса по овердрафту?"
    alone = [OVERDRAFT[0], _chunk("r", "Возврат займа", "Досрочный возврат займа выполняется без комиссии.",
                                  "Кредиты малому бизнесу")]
    assert _ask(question, alone[0], alone, "ru") == question


def test_an_unnamed_english_thing_is_named_when_another_section_states_the_attribute() -> None:
    docs = [_chunk("c", "Store card", "The interest rate on the store card is 29% per year. The minimum payment is 5% "
                   "of the balance.", "Personal lending"),
            _chunk("r", "Repayment", "The monthly payment is due on the 10th day of each month.", "Personal lending")]
    assert _ask("What is the minimum payment?", docs[0], docs, "en") == "What is the minimum payment of the store card?"
    table = "Item | Due\nMonthly payment | 10th day of each month\nLate fee | $12"
    rows = [docs[0], _chunk("t", "Repayment", table, "Personal lending", kind="table")]
    assert _ask("What is the minimum payment?", rows[0], rows, "en") == "What is the minimum payment of the store card?"


def test_a_thing_the_chunk_names_once_is_named_in_a_question_that_calls_it_by_its_kind() -> None:
    _ru()
    text = "Опцию «Быстрый возврат» можно подключить к любому тарифу. Стоимость опции составляет 300 рублей в месяц."
    c = _chunk("opt", "Дополнительные услуги", text, "Тарифы связи")
    assert _ask("Какова стоимость опции?", c, [c], "ru") == "Какова стоимость опции «Быстрый возврат»?"
    two = _chunk("opt", "Дополнительные услуги", "Опцию «Быстрый возврат» и опцию «Ночной интернет» можно подключить "
                 "к любому тарифу. Стоимость опции составляет 300 рублей в месяц.", "Тарифы связи")
    assert _ask("Какова стоимость опции?", two, [two], "ru") == "Какова стоимость опции?"
    en = _chunk("t", "Travel cover", "The Trip Delay option can be added to any policy. Cover under the option is up "
                "to $500 per trip.", "Travel insurance")
    assert _ask("What is the cover under the option?", en, [en], "en") == \
        "What is the cover under the Trip Delay option?"


def test_a_topic_heading_or_an_idiom_names_no_thing() -> None:
    from ragauge.generate.questions.scope_thing import thing_name

    fees = _chunk("f", "Fees", "Pets are carried in the cabin for a fee of $40.", "Baggage")
    assert thing_name(fees, "en") is None
    card = _chunk("c", "Store card", "The interest rate on the store card is 29% per year.", "Personal lending")
    assert thing_name(card, "en") == "the store card"
    _ru()
    tests = _chunk("t", "Анализы", "Результаты анализа мочи выдаются в течение 1 рабочего дня.", "Прейскурант")
    assert thing_name(tests, "ru") is None
    empty = _chunk("e", "", "", "")
    assert _ask("Сколько стоит анализ?", empty, [empty, tests], "ru") == "Сколько стоит анализ?"
