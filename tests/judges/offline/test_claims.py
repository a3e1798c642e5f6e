"""Claim extraction and refusal detection on realistic construction-firm answers."""

import pytest

from ragauge.judges.offline.claims import Claim, extract_claims, is_refusal


def _texts(answer, **kw):
    claims = extract_claims(answer, **kw)
    for claim in claims:
        assert answer[claim.start : claim.end] == claim.text
    return [c.text for c in claims]


def test_russian_answer_drops_greeting_question_filler_and_referral():
    answer = (
        "Добрый день! Стоимость устройства ленточного фундамента составляет от 3 500 до 4 200 руб. за м³. "
        "Гарантия на работы 5 лет, а на материалы действует гарантия производителя. "
        "Хотите, я рассчитаю смету? Обратитесь к менеджеру. Надеюсь, это поможет!"
    )
    assert _texts(answer) == [
        "Стоимость устройства ленточного фундамента составляет от 3 500 до 4 200 руб. за м³.",
        "Гарантия на работы 5 лет",
        "на материалы действует гарантия производителя.",
    ]


def test_greeting_prefix_is_stripped_and_offsets_follow():
    answer = "Здравствуйте, монтаж кровли занимает 3 дня."
    claims = extract_claims(answer)
    assert claims == [Claim("монтаж кровли занимает 3 дня.", 14, 43)]


def test_contract_clause_splits_between_clauses_only():
    answer = (
        "Согласно п. 4.2 договора, любая из сторон вправе расторгнуть договор, предупредив другую сторону "
        "за 30 дней, и подрядчик обязан вернуть неотработанный аванс."
    )
    assert _texts(answer) == [
        "Согласно п. 4.2 договора, любая из сторон вправе расторгнуть договор, предупредив другую сторону за 30 дней",
        "подрядчик обязан вернуть неотработанный аванс.",
    ]


@pytest.mark.parametrize(
    "answer",
    [
        "Срок выполнения работ составляет между 3 и 5 рабочими днями в зависимости от погоды.",
        "Компания «Строй и Ремонт» выполняет монтаж кровли и фасадов под ключ.",
        "Цена монтажа указана с материалами (металлочерепица и саморезы входят в стоимость работ).",
        "Доставка стоит 1 150 руб. и 980 руб. за каждый следующий километр пути.",
        "Вывоз мусора возможен в объёме 3 и 5 кубометров за один рейс.",
    ],
)
def test_no_split_inside_numbers_quotes_parentheses_or_short_sides(answer):
    assert _texts(answer, lang="ru") == [answer]


def test_range_before_a_conjunction_stays_whole():
    answer = "Срок выполнения работ составляет от 3 до 5 рабочих дней и не зависит от площади кровли."
    assert _texts(answer) == [
        "Срок выполнения работ составляет от 3 до 5 рабочих дней",
        "не зависит от площади кровли.",
    ]


def test_semicolon_splits_two_clauses():
    answer = "Аванс составляет 30% от стоимости работ; остаток оплачивается после подписания акта."
    assert _texts(answer) == [
        "Аванс составляет 30% от стоимости работ",
        "остаток оплачивается после подписания акта.",
    ]


def test_price_list_lines_become_claims():
    answer = "- Кровля: 1 150 руб./м²\n- Фасад: 2 300 руб./м²\nСрок работ от 3 до 5 дней."
    assert _texts(answer) == ["Кровля: 1 150 руб./м²", "Фасад: 2 300 руб./м²", "Срок работ от 3 до 5 дней."]


def test_english_answer():
    answer = (
        "Hello! The roofing installation costs 1,150 RUB per m2 and the contractor provides a 5-year warranty. "
        "Payment is due within 10 banking days, while the advance is 30%. "
        "Let me know if you have other questions. Hope this helps!"
    )
    assert _texts(answer) == [
        "The roofing installation costs 1,150 RUB per m2",
        "the contractor provides a 5-year warranty.",
        "Payment is due within 10 banking days",
        "the advance is 30%.",
    ]


def test_english_no_split_of_short_sides():
    answer = "The customer and the contractor sign the acceptance certificate within 5 days."
    assert _texts(answer) == [answer]


def test_referral_with_a_phone_number_is_kept():
    answer = "Для уточнения позвоните менеджеру по телефону +7 495 123-45-67."
    assert _texts(answer) == [answer]


@pytest.mark.parametrize(
    "answer",
    [
        "К сожалению, в базе нет документов о гарантии на окна. Обратитесь к менеджеру.",
        "Не могу ответить на этот вопрос, обратитесь к менеджеру.",
        "Информация об этом отсутствует.",
        "В предоставленных документах не указан срок гарантии.",
        "I don't know.",
        "The provided context does not mention the warranty period.",
        "I'm sorry, I couldn't find the price of roof insulation in the documents.",
        "",
    ],
)
def test_refusals(answer):
    assert is_refusal(answer)
    assert extract_claims(answer) == []


@pytest.mark.parametrize(
    "answer",
    [
        "В договоре нет пункта о штрафах за просрочку.",
        "Гарантия на кровлю не распространяется на повреждения по вине заказчика.",
        "The warranty does not cover damage caused by the customer.",
        "Здравствуйте! Чем могу помочь?",  # small talk: no claims, but not a refusal either
    ],
)
def test_not_refusals(answer):
    assert not is_refusal(answer)


def test_partial_refusal_keeps_the_answered_part():
    answer = "I don't know the exact price, but delivery takes 3 days."
    assert not is_refusal(answer)
    assert _texts(answer) == ["delivery takes 3 days."]
    answer_ru = "Точную цену я не знаю, но доставка занимает 3 рабочих дня."
    assert not is_refusal(answer_ru)
    assert _texts(answer_ru) == ["доставка занимает 3 рабочих дня."]


def test_the_guards_own_non_answers_are_refusals_in_both_languages():
    from ragauge.guard.templates import BLOCKED, NO_ANSWER, clarifying_question
    from ragauge.judges.offline.claims import is_refusal

    for lang in ("ru", "en"):
        assert is_refusal(NO_ANSWER[lang], lang) and is_refusal(BLOCKED[lang], lang)
    # a clarifying question lists what the knowledge base holds (numbers, dates, periods included)
    ru = clarifying_question(["Раздел 2. Гипсокартонные работы (ред. от 01.03.2026). Наименование"], ["яхты"], "ru")
    en = clarifying_question(["Section 2. Drywall, 1 150 per m2"], ["yachts"], "en")
    assert is_refusal(ru, "ru") and is_refusal(en, "en")
    # but an answer that states a fact next to advice or a request stays an answer
    assert not is_refusal("Гарантия 5 лет. Попробуйте уточнить у менеджера.", "ru")
    assert not is_refusal("Уточните, пожалуйста, о каком объекте речь: гарантия на кровлю — 60 месяцев.", "ru")
