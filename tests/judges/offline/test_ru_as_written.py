"""Russian numbers, years, times, identifiers and word forms as written (issue 13, item 5): the rule layers
beside the learned head. The product path (``ragauge.evaluate``) is in tests/engine/test_judge_product_path.py."""

from __future__ import annotations

import pytest

from ragauge.judges.offline.numbers import compare_quantities
from ragauge.judges.offline.quantities import extract_quantities


def _kinds(text: str) -> list[tuple[str, float, str | None]]:
    return [(q.kind, q.value, q.unit) for q in extract_quantities(text)]


@pytest.mark.parametrize("text, year", [("в 2025-м", 2025), ("с 2024-го", 2024), ("за 2025 г.", 2025), ("в 2024 году", 2024)])
def test_years_with_case_endings_are_dates(text, year):
    assert _kinds(text) == [("date", year * 10000.0, "date")]


@pytest.mark.parametrize("text, minutes", [
    ("в 9 утра", 540), ("в 9 часов утра", 540), ("до шести вечера", 1080), ("в 2 часа дня", 840),
    ("в час дня", 780), ("opens at 9 am", 540), ("until 6 p.m.", 1080), ("в 9:30 вечера", 21 * 60 + 30),
])
def test_clock_times_in_words(text, minutes):
    assert _kinds(text) == [("clock", float(minutes), None)]


@pytest.mark.parametrize("text", ["за 2 дня", "на 3 ночи", "через 3 дня"])
def test_durations_are_not_clock_times(text):
    assert all(kind != "clock" for kind, _, _ in _kinds(text))


@pytest.mark.parametrize("text, unit, value", [("акт КС-2", "КС", 2.0), ("тариф Т-2", "Т", 2.0), ("форма Т-13", "Т", 13.0)])
def test_codes_with_digits_are_identifiers(text, unit, value):
    assert _kinds(text) == [("grade", value, unit)]


@pytest.mark.parametrize("text", ["версия 3.1", "version 2.0", "ГОСТ 31357-2007"])
def test_versions_and_standards_are_references(text):
    assert [k for k, _, _ in _kinds(text)] == ["ref"]


def test_identifier_swap_and_match():
    assert compare_quantities("Подписывается акт КС-2", "Подписывается акт по форме КС-2").status == "consistent"
    assert compare_quantities("Подписывается акт КС-3", "Подписывается акт по форме КС-2").status == "contradicted"
    # "КС-2" is no quantity "2": a claim "2 дня" is not matched by it
    assert compare_quantities("Срок 2 дня", "Акт КС-2").status == "unsupported"


@pytest.mark.parametrize("text, value", [("двухслойная", 2.0), ("трёхкомнатная", 3.0), ("пятилетний", 5.0)])
def test_numeral_compounds(text, value):
    assert _kinds(text) == [("number", value, None)]


@pytest.mark.parametrize("text", ["семинар", "однако", "восьмой"])
def test_words_that_only_look_like_numeral_compounds(text):
    assert _kinds(text) == []


def test_two_layer_matches_in_two_layers():
    assert compare_quantities("Обшивка стен двухслойная", "Стены обшивают в два слоя").status == "consistent"
    assert compare_quantities("Стены обшивают в два слоя", "Обшивка стен двухслойная").status == "consistent"


def test_year_with_ending_against_a_bare_year():
    check = compare_quantities("Выручка компании в 2024 году составила 52,7 млрд рублей.",
                               "Финансовые результаты 2024: выручка 52,7 млрд рублей")
    assert check.status == "consistent", check.reason
    swapped = compare_quantities("Выручка в 2023 году составила 52,7 млрд рублей", "Финансовые результаты 2024: выручка 52,7 млрд рублей")
    assert swapped.status == "contradicted"


def test_rounded_twin_is_contradicted_with_the_contexts_value():
    check = compare_quantities("Выручка компании в 2024 году составила 52 млрд рублей.",
                               "Финансовые результаты 2024: выручка 52,7 млрд рублей")
    assert check.status == "contradicted"
    assert check.reason == 'number "52 млрд рублей" not in context; context says "52,7 млрд рублей" (rounded)'


def test_clock_against_clock():
    assert compare_quantities("Офис открывается в 9 утра", "Офис работает с 9:00 до 18:00").status == "consistent"
    assert compare_quantities("Офис работает до шести вечера", "Офис работает с 9:00 до 18:00").status == "consistent"
    assert compare_quantities("Офис открывается в 10 утра", "Офис работает с 9:00 до 18:00").status == "contradicted"


def test_approximate_rounding():
    assert compare_quantities("около 10 тысяч заказов", "9 870 заказов").status == "consistent"
    assert compare_quantities("около 5 тысяч заказов", "9 870 заказов").status == "contradicted"


def test_base_of_a_percentage():
    check = compare_quantities("Премия составляет 10% от суммы сделки.", "Премия составляет 10% от оклада.")
    assert check.status == "contradicted"
    assert check.reason == '"10% от суммы сделки" vs context "10% от оклада": percentage of another base'
    assert compare_quantities("Премия 10% от оклада", "Премия составляет 10 % от должностного оклада").status == "consistent"
    assert compare_quantities("Пени 0,05% от суммы", "пени 0,05 % от неоплаченной суммы").status == "consistent"
    assert compare_quantities("НДС 22 %", "Цены указаны с учётом НДС 22 %").status == "consistent"


# ---------------------------------------------------------------- words (need pymorphy3)


def test_contrast_swaps_and_equivalents():
    pytest.importorskip("pymorphy3")
    from ragauge.judges.offline.contrasts import contrast_swap, shared_term_words

    assert contrast_swap("Доставка работает по выходным.", "Доставка работает по будням.") == ("по выходным", "по будням")
    assert contrast_swap("Delivery runs on weekends.", "Delivery runs on weekdays.") == ("on weekends", "on weekdays")
    assert contrast_swap("Короб делают из пластика.", "Короб монтируют из гипсокартона.") == ("из пластика", "из гипсокартона")
    assert contrast_swap("Абонентская плата ежемесячная.", "Плата вносится каждый месяц.") is None
    # two materials in the claim (sheathing and frame): no single swapped term
    assert contrast_swap("Короб из ГКЛ по металлическому каркасу", "Монтаж короба из ГКЛ") is None
    # the claim's term is elsewhere in the contexts, in a sentence that states the claim: not a swap
    assert contrast_swap("Доставка работает по выходным.", "Доставка работает по будням.",
                         ["Доставка работает по будням. С 1 июня доставка работает и по выходным."]) is None
    # ... but a sentence about something else with the same term does not make it supported (issue 13:
    # "Выезд инженера выполняется по выходным" where only the phone line works at weekends)
    assert contrast_swap("Доставка работает по выходным.", "Доставка работает по будням.",
                         ["Доставка работает по будням.", "Самовывоз со склада по выходным."]) == ("по выходным", "по будням")
    # the period of a rate: "в месяц" is not "в неделю"
    assert contrast_swap("Удалённо можно работать до двух дней в месяц.",
                         "Гибридный формат — до 2 дней удалённой работы в неделю.") == ("в месяц", "в неделю")
    assert "ежемесячная" in shared_term_words("Абонентская плата ежемесячная.", ["Плата вносится каждый месяц."])


def test_every_month_is_a_frequency_not_a_quantifier():
    pytest.importorskip("pymorphy3")
    from ragauge.judges.offline.scope import scope_mismatch, scope_terms

    assert scope_terms("Плата вносится каждый месяц") == frozenset()
    assert scope_terms("Каждый работник получает премию") == {"q:all"}
    assert scope_mismatch("Плата вносится каждый месяц", "Абонентская плата ежемесячная") == 0


def test_citation_of_a_source_by_date_is_not_content():
    pytest.importorskip("pymorphy3")
    from ragauge.judges.offline.features import citation_spans, word_lemmas

    text = "Кирпич М150 по прайсу от 01.03.2026 стоит 52,70 руб."
    assert [text[a:b].strip() for a, b in citation_spans(text)] == ["по прайсу от"]
    assert "прайс" not in word_lemmas(text, "ru")
    assert "кирпич" in word_lemmas(text, "ru")


def test_table_rows_are_sentences():
    pytest.importorskip("razdel")
    from ragauge.judges.offline.text import split_sentences

    table = ("Наименование | Ед. изм. | Цена, руб.\nКирпич керамический полнотелый М150 | шт. | 52,70\n"
             "Кирпич облицовочный пустотелый М175 | шт. | 48,90")
    assert [s.text for s in split_sentences(table, "ru")] == [
        "Наименование | Ед. изм. | Цена, руб.", "Кирпич керамический полнотелый М150 | шт. | 52,70",
        "Кирпич облицовочный пустотелый М175 | шт. | 48,90"]
