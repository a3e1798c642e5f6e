"""Question intent and "does the answer give it": the pure rules of offline answer relevancy (RU and EN)."""

import math

import pytest

pytest.importorskip("pymorphy3")

from ragauge.judges.offline.intent import (  # noqa: E402
    FEATURES, combine, label_of, question_intent, relevance_features, states_value, value_given,
)


@pytest.mark.parametrize("question, kinds", [
    ("Сколько стоит выезд инженера за МКАД?", ("price",)),
    ("почём ячейка в банке", ("price",)),
    ("Во сколько обойдётся снять 10 000 с кредитки?", ("price",)),
    ("Когда выплачивают годовую премию?", ("date",)),
    ("С какого числа действуют новые цены?", ("date",)),
    ("Как долго делают справку?", ("duration",)),
    ("Сколько дней хранится посылка в пункте выдачи?", ("duration",)),
    ("Сколько сотрудников в отделе?", ("count",)),
    ("Кто платит за первые дни больничного?", ("who",)),
    ("Кому не назначают испытательный срок?", ("who",)),
    ("Где получить пропуск?", ("where",)),
    ("Как оформить отпуск без сохранения зарплаты?", ("how",)),
    ("Что такое франшиза?", ("definition",)),
    ("Какие документы нужны для регистрации?", ("list",)),
    ("Можно ли оплатить пошлину наличными?", ("yesno",)),
    ("Выгодно ли снимать наличные с кредитки?", ("yesno",)),
    ("донорам крови дают отгулы?", ("other",)),
    ("Сколько стоит справка и как долго её делают?", ("price", "duration")),
    ("How much does the Premium plan cost?", ("price",)),
    ("When will my refund arrive?", ("date",)),
    ("How long does delivery take?", ("duration",)),
    ("How many users are included?", ("count",)),
    ("Who approves business trips?", ("who",)),
    ("Where do I send the invoice?", ("where",)),
    ("How do I reset my password?", ("how",)),
    ("What is a deductible?", ("definition",)),
    ("Can I bring a dog to the office?", ("yesno",)),
    ("What does the plan cost and when is it billed?", ("price", "date")),
])
def test_question_intent(question, kinds):
    assert question_intent(question).kinds == kinds


def test_subject_drops_the_interrogative_frame():
    intent = question_intent("Сколько стоит выезд за МКАД?")
    assert intent.subject == ("выезд", "мкад")
    assert "cost" not in question_intent("How much does the Premium plan cost?").subject


@pytest.mark.parametrize("kind, answer, expected", [
    ("price", "Выезд стоит 2 400 рублей.", True),
    ("price", "Кэшбэк — 1% от суммы покупок.", True),
    ("price", "Закрытие счёта бесплатное.", True),
    ("price", "Отделения работают с 9:00 до 20:00.", False),
    ("price", "The plan costs $150 per month.", True),
    ("date", "Премию выплатят в апреле.", True),
    ("date", "до 31 марта 2026 г.", True),
    ("date", "Refunds are credited on Fridays.", True),
    ("date", "Заявление подаётся через портал.", False),
    ("duration", "Справку делают в течение трёх рабочих дней.", True),
    ("duration", "Справка стоит 300 рублей.", False),
    ("count", "В отделе двенадцать сотрудников.", True),
    ("who", "Акт подписывает прораб подрядчика.", True),
    ("who", "Business trips are approved by the head of the department.", True),
    ("where", "Пропуск выдают в бюро пропусков на первом этаже.", True),
    ("where", "Парковка для сотрудников бесплатная.", False),
    ("how", "Заявление нужно подать через портал.", True),
    ("how", "Open the login page and click Forgot password.", True),
    ("how", "Ежегодный отпуск составляет 28 календарных дней.", False),
    ("definition", "Франшиза — это часть ущерба, которую страховщик не возмещает.", True),
    ("definition", "A deductible is the amount you pay before the insurer pays.", True),
])
def test_states_value(kind, answer, expected):
    assert states_value(kind, answer) is expected


def test_value_given_half_credit_for_a_quantity_of_another_type():
    assert value_given("price", "Отделения работают с 9:00 до 20:00.") == 0.5
    assert value_given("price", "Обратитесь к менеджеру.") == 0.0
    assert value_given("price", "Стоит 500 рублей.") == 1.0


@pytest.mark.parametrize("question, answer, evasive, declines", [
    ("Сколько стоит доставка?", "Стоимость зависит от многих факторов, уточните у менеджера.", True, False),
    ("Сколько стоит доставка?", "Доставка стоит 500 рублей; детали уточните у менеджера.", False, False),
    ("How much is shipping?", "It depends on many factors, please contact your account manager.", True, False),
    ("Сколько стоит приём уролога?", "В прайс-листе нет приёма уролога, поэтому назвать стоимость не могу.", False, True),
    ("Is there a fee?", "The documents do not mention a fee.", False, True),
])
def test_evasive_and_declines(question, answer, evasive, declines):
    f = relevance_features(question, answer)
    assert (f.evasive, f.declines) == (evasive, declines)


def test_features_of_a_direct_an_off_topic_and_a_partial_answer():
    q = "Сколько стоит справка об остатке и как долго её делают?"
    both = relevance_features(q, "Справка об остатке стоит 300 рублей, её делают три рабочих дня.")
    part = relevance_features(q, "Справка об остатке стоит 300 рублей.")
    off = relevance_features(q, "Отделения банка работают по будням.")
    assert both.parts_given == (True, True) and both.value_share == 1.0
    # the duration part gets half credit: the answer states a quantity, but money, not time
    assert part.parts_given == (True, False) and part.value_share == 0.75
    assert off.parts_given == (False, False) and off.overlap < both.overlap


def test_yesno_wants_a_polar_statement_about_the_subject():
    q = "Can I bring a dog to the office?"
    assert relevance_features(q, "No, pets are not allowed in the office.").value_share == 1.0
    assert relevance_features(q, "The office cafeteria serves lunch from 12 to 2 pm.").value_share == 0.0


def test_combine_is_the_logistic_of_the_weighted_features():
    f = relevance_features("Сколько стоит выезд за МКАД?", "Выезд за МКАД стоит 2 400 рублей.")
    w = {"w": [1.0, 2.0, 0.0, 0.0, -1.0, -3.0, -1.0], "b": -1.0}
    assert len(w["w"]) == len(FEATURES)
    # z = 1 * 0.5 + 2 * value_share(1) - 1 = 1.5
    assert combine(f, cos_logit=0.5, rude=0.0, weights=w) == pytest.approx(1 / (1 + math.exp(-1.5)))


def test_label_of():
    q = "Сколько стоит справка и как долго её делают?"
    direct = relevance_features("Сколько стоит справка?", "Справка стоит 300 рублей.")
    partial = relevance_features(q, "Справка стоит 300 рублей.")
    evasive = relevance_features("Сколько стоит справка?", "Всё индивидуально, уточните в отделении.")
    declines = relevance_features("Сколько стоит справка?", "В документах нет сведений о цене справки.")
    assert label_of(direct, 0.9) == "direct"
    assert label_of(direct, 0.2) == "off_topic"
    assert label_of(partial, 0.8) == "partial"
    assert label_of(evasive, 0.1) == "evasive"
    assert label_of(declines, 0.1) == "refusal"
    assert label_of(direct, 0.9, refusal=True) == "refusal"
    rude = relevance_features("Сколько стоит справка?", "Сами почитайте, не отвлекайте людей.")
    assert label_of(rude, 0.1, rude=0.9) == "evasive"
