"""Ninth round (issue 19): Russian questions as a native speaker types them.

Each class the review of rounds 7-8 left open, on sentences that are not in the test corpora: a lead time asked
«За сколько … до …?» (not «В какой срок …?», which reads as "how fast"), a light verb with its verbal noun asked as
the one verb («бронирует гостиницу»), an age asked as its bound («С какого возраста …?»), the «к» a document left
out, a change «на N% к X» asked «по сравнению с X», a ceiling by the measure named after it («по длине»), the
bookish «Какой комиссией облагается …» / «Какой суммой ограничена …», a deduction asked as what is withheld, a
dative of whom in a verbless question («для …»), a dative followed by an adverbial of its own, and a table row
that is a bare name under a column naming its kind («программа «Стандарт»»).
"""

from __future__ import annotations

from collections import Counter

import pytest

from ragauge.generate.chunking import Chunk
from ragauge.generate.questions import morph
from ragauge.generate.questions.prose import prose_questions

pytestmark = pytest.mark.skipif(not morph.available(), reason="pymorphy3 is not installed")


def _asked(text: str) -> list[tuple[str, str]]:
    c = Chunk("d#0", "d", text, ("Условия",), 0, len(text), "text", 0, "Условия")
    return [(i.question, i.kind) for i in prose_questions([c], {c.id: "ru"}, Counter())]


def _one(text: str) -> str:
    asked = _asked(text)
    assert len(asked) == 1, asked
    return asked[0][0]


@pytest.mark.parametrize("sentence, question", [
    # a passive verb: an action to take in time, «нужно» + the perfective infinitive, the subject as its object
    ("Бронь на переговорную отменяется не позднее чем за 2 часа до встречи.",
     "За сколько часов до встречи нужно отменить бронь на переговорную?"),
    # «календарных» is dropped (days are calendar days), «рабочих» is kept
    ("Возврат товара оформляется не позднее чем за 7 календарных дней до окончания гарантии.",
     "За сколько дней до окончания гарантии нужно оформить возврат товара?"),
    # to whom before the object, the adverbial («по электронной почте») after it
    ("Счёт на оплату направляется арендатору по электронной почте не позднее чем за 5 рабочих дней до начала "
     "месяца.", "За сколько рабочих дней до начала месяца нужно направить арендатору счёт на оплату по электронной "
                "почте?"),
    # no event named, or one that refers back («до его начала»): «За сколько дней …» alone means "in advance"
    ("Заявка на пропуск подаётся не позднее чем за 1 рабочий день до его начала.",
     "За сколько рабочих дней нужно подать заявку на пропуск?"),
    # an active verb keeps its subject and voice
    ("Арендатор уведомляет арендодателя о выезде не позднее чем за 30 календарных дней.",
     "За сколько дней арендатор уведомляет арендодателя о выезде?"),
])
def test_a_lead_time_is_asked_how_long_before(sentence: str, question: str) -> None:
    assert _asked(sentence) == [(question, "deadline")]


def test_a_passive_verb_gives_its_active_perfective_infinitive() -> None:
    from ragauge.generate.questions.prose_ru_verbs import infinitive_to_do

    assert [infinitive_to_do(v) for v in ("отменяется", "подаётся", "выплачиваются", "направляется",
                                          "согласовывается", "открывается")] == [
        "отменить", "подать", "выплатить", "направить", "согласовать", "открыть"]
    # no regular pair: the imperfective itself, never a guessed word («начинить» is another verb)
    assert infinitive_to_do("начинается") == "начинать"
    assert infinitive_to_do("рассматривается") == "рассматривать"
    assert infinitive_to_do("работает") is None


@pytest.mark.parametrize("sentence, question", [
    ("Согласование макета осуществляет отдел маркетинга в течение 3 рабочих дней.",
     "В какой срок отдел маркетинга согласует макет?"),
    ("Бронирование билетов выполняет секретарь не позднее чем за 10 дней до командировки.",
     "За сколько дней до командировки секретарь бронирует билеты?"),
])
def test_a_light_verb_and_its_verbal_noun_are_asked_as_one_verb(sentence: str, question: str) -> None:
    assert _one(sentence) == question


@pytest.mark.parametrize("sentence, question", [
    ("К занятиям допускаются дети, достигшие возраста 6 лет на начало учебного года.",
     "С какого возраста к занятиям допускаются дети?"),
    ("Водителям старше 70 лет аренда оформляется только с медицинской справкой.",
     "С какого возраста водителям аренда оформляется только с медицинской справкой?"),
    ("Пассажирам младше 12 лет билет продаётся со скидкой.",
     "До какого возраста пассажирам билет продаётся со скидкой?"),
])
def test_an_age_that_qualifies_a_person_is_asked_as_its_bound(sentence: str, question: str) -> None:
    assert _one(sentence) == question


def test_an_object_before_its_verb_keeps_its_age() -> None:
    from ragauge.generate.questions.prose_ru_age import age_question

    # «С какого возраста детей мы не принимаем?» would not read: the age stays with its object
    assert age_question("Детей младше 3 лет мы не принимаем".split(), 1, 4, "младше") is None
    # in the reader's voice (:mod:`.prose_ru_voice`) a negated verb's object is asked by the other bound
    assert _one("Детей младше 3 лет мы не принимаем.") == "С какого возраста вы принимаете детей?"


def test_a_verb_of_applying_gets_its_k() -> None:
    from ragauge.generate.questions.prose_ru_order import dative_with_k

    assert _one("Сотрудникам на испытательном сроке применяется коэффициент 0,5.") == \
        "Какой коэффициент применяется к сотрудникам на испытательном сроке?"
    assert _one("Всем новым клиентам применяется скидка 5%.") == "Какая скидка применяется ко всем новым клиентам?"
    # a verb that takes a bare dative keeps it
    assert dative_with_k("Какая скидка предоставляется пенсионерам?") == "Какая скидка предоставляется пенсионерам?"


@pytest.mark.parametrize("sentence, question", [
    ("Тариф выходного дня увеличивается на 20% к тарифу будних дней.",
     "На сколько процентов увеличивается тариф выходного дня по сравнению с тарифом будних дней?"),
    ("Цена ночной смены повышается на 30% к дневной ставке.",
     "На сколько процентов повышается цена ночной смены по сравнению с дневной ставкой?"),
])
def test_a_change_against_a_base_is_asked_compared_with_it(sentence: str, question: str) -> None:
    assert _one(sentence) == question


@pytest.mark.parametrize("sentence, question", [
    ("Ручная кладь не должна превышать 40 см по высоте.", "Какова максимальная высота ручной клади?"),
    ("Размеры посылки не должны превышать 60 см по ширине.", "Какова максимальная ширина посылки?"),
    ("Время ожидания оператора не должно превышать 3 минут.", "Каково максимальное время ожидания оператора?"),
    ("Ответственность арендодателя ограничена суммой 10 000 рублей.", "Каков лимит ответственности арендодателя?"),
    ("Размер возмещения ограничен суммой 50 000 рублей.", "Каков максимальный размер возмещения?"),
])
def test_a_ceiling_is_asked_as_the_maximum_of_its_measure(sentence: str, question: str) -> None:
    assert _asked(sentence) == [(question, "limit")]


@pytest.mark.parametrize("sentence, question", [
    ("Перевод на карту другого банка облагается комиссией 1,5%.", "Какова комиссия за перевод на карту другого банка?"),
    ("Просрочка возврата книги наказывается штрафом 50 рублей в день.", "Каков штраф за просрочку возврата книги?"),
    ("Доход по облигациям облагается налогом 13%.", "Каков налог на доход по облигациям?"),
])
def test_a_charge_in_the_instrumental_is_asked_as_the_charge_for_the_thing(sentence: str, question: str) -> None:
    assert _one(sentence) == question
    # «с надбавкой» is how the thing is paid, not a bookish passive: it stays
    assert _one("Работа в праздничные дни оплачивается с надбавкой 100%.") == \
        "С какой надбавкой оплачивается работа в праздничные дни?"


@pytest.mark.parametrize("sentence, question", [
    ("При отказе от тура возвращается стоимость путёвки за вычетом фактических расходов агентства в размере 10%.",
     "Сколько удерживается из стоимости путёвки при отказе от тура?"),
    ("Предоплата возвращается за вычетом комиссии банка в размере 2%.", "Сколько удерживается из предоплаты?"),
])
def test_a_deduction_is_asked_as_what_is_withheld(sentence: str, question: str) -> None:
    # never «В каком размере возвращается …?»: the number is what is withheld, not what is returned
    assert _one(sentence) == question


def test_a_dative_in_a_verbless_question_reads_for_whom() -> None:
    assert _one("Сотрудникам с вредными условиями труда предоставляется дополнительный отпуск продолжительностью "
                "7 календарных дней.") == \
        "Какова продолжительность дополнительного отпуска для сотрудников с вредными условиями труда?"


def test_a_dative_followed_by_an_adverbial_goes_before_the_verb() -> None:
    assert _one("Пароль направляется пользователю по SMS в течение 5 минут.") == \
        "В какой срок пользователю направляется пароль по SMS?"
    # words that may be the dative's own modifiers keep it where it is
    assert _one("Премия выплачивается сотрудникам с опытом работы в течение 10 дней.") == \
        "В какой срок выплачивается премия сотрудникам с опытом работы?"


def test_an_adverb_alone_goes_before_an_intransitive_verb() -> None:
    # «ежедневно» is no complement of «работает»: «… бассейн работает ежедневно?» copies the sentence's order
    assert _one("Бассейн работает ежедневно с 7:00 до 22:00.") == "В какое время ежедневно работает бассейн?"


def _table(text: str) -> list[tuple[str, str]]:
    from ragauge.generate.questions import templates_ru
    from ragauge.generate.questions.facts import table_facts

    c = Chunk("t#0", "t", text, ("Цены",), 0, len(text), "table", 0, "Цены")
    return [(q, ref) for f in table_facts(c, "ru") for q, ref, _, _ in templates_ru.table_value(f)]


def test_a_bare_name_under_a_kind_column_is_asked_with_its_kind() -> None:
    asked = _table("Тариф | Цена в месяц, руб. | Трафик, ГБ\nЛайт | 300 | 10\nПрофи | 900 | 50")
    assert ("Сколько стоит тариф «Лайт» в месяц?", "300 руб. в месяц") in asked
    assert ("Какова стоимость тарифа «Профи» в месяц?", "900 руб. в месяц") in asked
    assert not any("лайт" in q for q, _ in asked)
    # a row that describes its thing, or already names its kind, stays as written
    assert ("Сколько стоит замена замка?", "1 500 руб.") in _table("Услуга | Цена, руб.\nЗамена замка | 1 500\n"
                                                                  "Вскрытие двери | 2 000")
    assert ("Сколько стоит пакет «Семейный»?", "500 руб.") in _table("Пакет | Цена, руб.\nПакет «Семейный» | 500\n"
                                                                    "Пакет «Один» | 300")


def test_a_table_column_with_a_currency_keeps_it_in_the_reference() -> None:
    asked = _table("Программа | Страховая сумма | Цена за день\nЭконом | 20 000 € | 0,5 €\nМакс | 80 000 € | 2 €")
    assert ("Какова страховая сумма программы «Макс»?", "80 000 €") in asked
    assert ("Сколько стоит программа «Эконом» за день?", "0,5 € за день") in asked


def test_a_named_thing_goes_after_the_subject_not_after_an_adverbial() -> None:
    # for the qualifier (:func:`.qualifier.with_entity`): «на счёт по карте» reads as the card's account
    from ragauge.generate.questions.prose_ru_order import after_subject

    assert after_subject("В какой срок зачисляются бонусы на бонусный счёт?", "по тарифу «Оптима»") == \
        "В какой срок зачисляются бонусы по тарифу «Оптима» на бонусный счёт?"
    assert after_subject("Как часто обновляется баланс бонусов в мобильном приложении?", "по тарифу «Оптима»") == \
        "Как часто обновляется баланс бонусов по тарифу «Оптима» в мобильном приложении?"
    # nothing after the subject, or no verb: at the end, as before
    assert after_subject("В каком размере начисляются бонусы?", "по тарифу «Оптима»") == \
        "В каком размере начисляются бонусы по тарифу «Оптима»?"
    assert after_subject("Какова плата за выпуск карты?", "по тарифу «Оптима»") == \
        "Какова плата за выпуск карты по тарифу «Оптима»?"
