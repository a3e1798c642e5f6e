"""Ninth round (issue 19), Russian prose of new domains: sentences the question form check
(:mod:`ragauge.generate.questions.wellformed`) used to drop now give natural questions.

The classes a blind review found: the business's own voice («мы», «наш»), orders to the reader («Сообщите …»),
modal predicates («нужно подать», «можно отменить», «обязан сообщить»), multipliers («в 2 раза»), a condition with a
subject or a list of its own, a chain of adjuncts copied into the question, a quantity that is the subject itself
(«За утерю ключа взимается 500 рублей»), a second value or a contrast packed into one sentence, a synonym swap that
broke the case, and a named thing put after an adverbial. Every sentence here is written for this test (none comes
from the test corpora).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ragauge.generate.chunking import Chunk
from ragauge.generate.questions import morph, wellformed
from ragauge.generate.questions.prose import prose_questions

pytestmark = pytest.mark.skipif(not morph.available(), reason="pymorphy3 is not installed")


def _asked(text: str) -> list[tuple[str, str]]:
    c = Chunk("d#0", "d", text, ("Условия",), 0, len(text), "text", 0, "Условия")
    return [(i.question, i.kind) for i in prose_questions([c], {c.id: "ru"}, Counter())]


def _one(text: str) -> str:
    asked = _asked(text)
    assert len(asked) == 1, asked
    question = asked[0][0]
    assert wellformed.problem(question, "ru") is None, question  # kept by the form check, not dropped
    return question


@pytest.mark.parametrize("sentence, question", [
    # «мы» -> «вы», the verb in the second person; the event the deadline counts from goes with the question phrase
    ("Мы возвращаем предоплату в течение 7 рабочих дней после отмены заказа.",
     "В какой срок после отмены заказа вы возвращаете предоплату?"),
    # an object before «мы» goes after the verb, with a participle clause that says which
    ("Посылки, не полученные в срок, мы храним на складе не более 14 дней.",
     "Сколько дней максимум вы храните посылки, не полученные в срок, на складе?"),
    # a condition with the reader's «вы»: the condition is the answer, the company is asked as «вы»
    ("Если вы опоздали более чем на 15 минут, мы отменяем запись.", "В каком случае вы отменяете запись?"),
    # «наш» -> «ваш»
    ("Наш менеджер перезванивает в течение 2 часов после заявки.", "В какой срок перезванивает ваш менеджер?"),
])
def test_the_business_voice_is_asked_as_you(sentence: str, question: str) -> None:
    assert _one(sentence) == question


@pytest.mark.parametrize("sentence, question", [
    # an age on a negated verb's object is the bound of those it is done for, without «не»
    ("Гостей младше 18 лет мы не заселяем без родителей.", "С какого возраста вы заселяете гостей без родителей?"),
    ("Мы не выдаём автомобили водителям младше 21 года.", "С какого возраста вы выдаёте автомобили водителям?"),
    # a noun that names anyone is left out
    ("Граждан старше 80 лет мы не кредитуем.", "До какого возраста вы кредитуете?"),
])
def test_a_refusal_by_age_is_asked_as_the_age_that_is_served(sentence: str, question: str) -> None:
    assert _one(sentence) == question


def test_the_reader_in_the_document_is_i_in_the_question() -> None:
    from ragauge.generate.questions.prose_ru_voice import as_asked

    assert as_asked("Если вы оплатили ремонт сами, мы возместим половину.") == \
        "Если я оплатил ремонт сам, вы возместите половину."
    assert as_asked("Ваша заявка рассматривается в течение 3 дней.") == "Моя заявка рассматривается в течение 3 дней."
    assert as_asked("Заявка рассматривается в течение 3 дней.") == "Заявка рассматривается в течение 3 дней."


@pytest.mark.parametrize("sentence, question", [
    # an order to the reader: «нужно» + the infinitive; a condition that points back («это») is left out
    ("Если это невозможно, отправьте заявку по почте в течение 3 дней.",
     "В какой срок нужно отправить заявку по почте?"),
    ("Верните книгу в библиотеку в течение 14 дней.", "В какой срок нужно вернуть книгу в библиотеку?"),
])
def test_an_order_to_the_reader_is_asked_with_need(sentence: str, question: str) -> None:
    assert _one(sentence) == question


@pytest.mark.parametrize("sentence, question", [
    ("Заявку на возврат нужно подать не позднее 10 дней после покупки.",
     "В какой срок после покупки нужно подать заявку на возврат?"),
    ("Столик можно бесплатно забронировать не позднее чем за 2 часа до визита.",
     "За сколько часов до визита можно бесплатно забронировать столик?"),
    # a personal modal keeps its subject; of two infinitives the one the number belongs to is asked
    ("При поломке арендатор обязан остановиться и позвонить нам в течение 30 минут.",
     "В какой срок при поломке арендатор обязан позвонить вам?"),
    ("Жалобу следует направить в течение 10 рабочих дней с даты получения ответа.",
     "В какой срок с даты получения ответа нужно направить жалобу?"),
    # a price of an action, a minimum age of whom
    ("Ребёнка можно записать в секцию за 1 500 рублей в месяц.", "Сколько в месяц стоит записать ребёнка в секцию?"),
    ("Гостю должно быть не меньше 18 лет.", "Каков минимальный возраст гостя?"),
])
def test_a_modal_predicate_is_asked_with_its_modal(sentence: str, question: str) -> None:
    assert _one(sentence) == question


def test_a_multiplier_is_asked_how_many_times_not_how_often() -> None:
    assert _asked("Для студентов стоимость абонемента снижается в 2 раза.") == [
        ("Во сколько раз снижается стоимость абонемента для студентов?", "count")]
    assert _one("Ночной тариф увеличивается в 1,5 раза.") == "Во сколько раз увеличивается ночной тариф?"


@pytest.mark.parametrize("sentence, question", [
    # the main clause's pronoun is the condition's subject
    ("Если абонемент куплен онлайн, он активируется через 2 часа после оплаты.",
     "В каком случае абонемент активируется через 2 часа после оплаты?"),
    # a condition that lists things is not cut inside the list
    ("Если в номере проживают дети, животные или курящие гости, к цене добавляется 20%.",
     "В каком случае к цене добавляется 20%?"),
])
def test_a_condition_of_its_own_is_the_answer_not_a_broken_copy(sentence: str, question: str) -> None:
    assert _one(sentence) == question


def test_a_chain_of_adjuncts_is_left_out() -> None:
    assert _one("Возврат перечисляется на карту покупателя по реквизитам из заявления в течение 5 рабочих дней после "
                "проверки.") == "В какой срок после проверки перечисляется возврат?"


@pytest.mark.parametrize("sentence, question", [
    # the quantity is the subject: «Сколько …»
    ("За утерю ключа взимается 500 рублей, за утерю карты — 300 рублей.", "Сколько взимается за утерю ключа?"),
    ("При отмене брони удерживается не более 30% стоимости тура.", "Сколько максимум удерживается при отмене брони?"),
    ("В пакет входит 10 кг багажа.", "Сколько килограммов багажа входит в пакет?"),
    ("В абонемент входит 8 занятий в месяц.", "Сколько занятий в месяц входит в абонемент?"),
    # an ordinal
    ("Зачёты сдаются до 15-й недели семестра.", "До какой недели семестра сдаются зачёты?"),
    ("Расходы, связанные с переездом, возмещаются до 3-го месяца работы.",
     "До какого месяца работы возмещаются расходы, связанные с переездом?"),
    # a cap joined by «но» or «и» to what has no number
    ("Проезд оплачивается, но не более 3 000 рублей за поездку.", "В каком размере оплачивается проезд?"),
    ("Такси оплачивается только после полуночи и не более 1 000 евро.", "В каком размере оплачивается такси?"),
    # the second value of a sentence is another fact
    ("Парковка оплачивается по 100 ₽ в час для легковых машин и по 300 ₽ для грузовиков.",
     "По какой цене в час оплачивается парковка для легковых машин?"),
    # a participle clause after a noun group with modifiers of its own
    ("Студентам очной формы, предъявившим студенческий билет, предоставляется скидка 15% на билеты.",
     "Какая скидка предоставляется студентам очной формы?"),
    # a named thing «за» a price
    ("Доступ к облаку предоставляется с тарифом «Плюс» за 300 рублей в месяц.", "Сколько в месяц стоит тариф «Плюс»?"),
])
def test_sentence_forms_of_new_domains_give_a_question(sentence: str, question: str) -> None:
    assert _one(sentence) == question


def test_a_synonym_takes_the_case_its_preposition_governs() -> None:
    from ragauge.generate.questions.paraphrase import paraphrase

    asked = paraphrase("Сколько процентов прибавляется к стоимости заказа?", "ru", random.Random(0))
    assert asked == ("Сколько процентов прибавляется к цене заказа?", "стоимость->цена")  # never «к цены»
    assert paraphrase("Что входит в стоимость аренды?", "ru", random.Random(0))[0] in (
        "Что входит в цену аренды?", "Что входит в стоимость проката?")
    assert paraphrase("Какова стоимость укладки ламината?", "ru", random.Random(0))[0] == \
        "Какова цена укладки ламината?"


def test_a_named_thing_goes_after_the_subject() -> None:
    from ragauge.generate.questions.qualifier import with_entity

    assert with_entity("В какой срок начисляются баллы на бонусный счёт?", "тарифу «Оптима»", "ru") == \
        "В какой срок начисляются баллы по тарифу «Оптима» на бонусный счёт?"
    assert with_entity("Сколько стоит доставка?", "тарифу «Оптима»", "ru") == \
        "Сколько стоит доставка по тарифу «Оптима»?"
