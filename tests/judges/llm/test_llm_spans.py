"""Quotes and claims mapped back to offsets: exact, normalised, fuzzy, and refused."""

from __future__ import annotations

from ragauge.judges.llm.spans import locate, locate_in_sources


def test_exact():
    assert locate("5 лет", "Гарантия 5 лет.") == (9, 14, "exact")


def test_normalised_case_yo_quotes_dashes_spaces():
    hay = "Материал — «Ёлка»  premium,\u00a0цвет: зелёный."
    start, end, how = locate('материал - "елка" premium, цвет: зеленый', hay)
    assert how == "normalized" and hay[start:end] == "Материал — «Ёлка»  premium,\u00a0цвет: зелёный"


def test_fuzzy_with_a_dropped_word():
    hay = "Условия. Доставка по Москве бесплатная при заказе от 5000 руб. Самовывоз со склада."
    start, end, how = locate("Доставка по Москве бесплатная при заказе от 5000 рублей", hay)
    assert how == "fuzzy" and hay[start:end].startswith("Доставка по Москве бесплатная")


def test_refuses_scattered_or_invented_quotes():
    hay = "The warranty is 5 years. Delivery takes 3 days. Payment is by card."
    assert locate("Returns are accepted within 30 days of purchase", hay) is None
    assert locate("", hay) is None and locate("x", "") is None


def test_cited_source_preferred_then_others():
    sources = ["Warranty: 5 years.", "The warranty is 5 years for all roofs."]
    assert locate_in_sources("warranty is 5 years", sources, prefer=(1,))[:3] == (1, 4, 23)
    assert locate_in_sources("Warranty: 5 years", sources, prefer=(1,))[0] == 0  # not in the cited one: found elsewhere
    assert locate_in_sources("nothing like it at all", sources) is None
