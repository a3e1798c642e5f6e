"""Content lemmas, overlap features, negation and scope cues."""

import math

import pytest

from ragauge.judges.offline.lemmas import content_lemmas

from ragauge.judges.offline.negation import negation_mismatch, negations

from ragauge.judges.offline.overlap import idf_table, overlap

from ragauge.judges.offline.porter import porter_stem

from ragauge.judges.offline.scope import scope_mismatch, scope_terms


def test_russian_inflections_share_lemmas_and_numbers_are_normalised():
    a = content_lemmas("Стоимость кровельных работ — 1 150 руб. за м², толщина 0,5 мм.", "ru")
    assert a == ["стоимость", "кровельный", "работа", "1150", "руб", "м²", "толщина", "0.5", "мм"]
    b = content_lemmas("кровельные работы стоят 1150 рублей", "ru")
    assert {"кровельный", "работа", "1150"} <= set(b)
    assert "1150" not in content_lemmas("кровельные работы стоят 1150 рублей", "ru", numbers=False)


def test_stop_words_and_mixed_script():
    assert content_lemmas("и в на по для без", "ru") == []
    assert content_lemmas("Утеплитель Knauf и мембрана Tyvek", "ru") == ["утеплитель", "knauf", "мембрана", "tyvek"]


def test_english_stemming_and_stop_words():
    lemmas = content_lemmas("The contractor provides warranties for all roofing works.", "en")
    assert lemmas == ["contractor", "provid", "warranti", "roof", "work"]
    assert porter_stem("warranty") == porter_stem("warranties")


@pytest.mark.parametrize(
    ("word", "stem"),
    # from Porter (1980)'s examples
    [("caresses", "caress"), ("ponies", "poni"), ("agreed", "agre"), ("hopping", "hop"), ("filing", "file"),
     ("relational", "relat"), ("conditional", "condit"), ("hopeful", "hope"), ("goodness", "good"),
     ("adjustment", "adjust"), ("adoption", "adopt"), ("generalizations", "gener"), ("oscillators", "oscil")],
)
def test_porter_reference_stems(word, stem):
    assert porter_stem(word) == stem


def test_overlap_hand_computed():
    o = overlap(["гарантия", "5", "год", "кровля"], ["гарантия", "10", "год", "кровля", "работа"])
    assert o.recall == pytest.approx(3 / 4)
    assert o.precision == pytest.approx(3 / 5)
    assert o.jaccard == pytest.approx(3 / 6)
    assert o.weighted_recall == pytest.approx(3 / 4)
    # shape fallback: rare = 6+ letters or digits -> {"гарантия", "5", "кровля"}; found: гарантия, кровля
    assert o.rare_recall == pytest.approx(2 / 3)
    assert (o.n_claim, o.n_rare) == (4, 3)


def test_overlap_with_idf():
    idf = {"гарантия": 1.0, "год": 0.5, "5": 3.0}
    o = overlap(["гарантия", "год", "5"], ["гарантия", "год", "10"], idf=idf)
    assert o.weighted_recall == pytest.approx(1.5 / 4.5)
    # median idf of the claim is 1.0: rare = {гарантия, 5}, found: гарантия
    assert o.rare_recall == pytest.approx(1 / 2)


def test_overlap_empty_claim_is_zero_with_count():
    o = overlap([], ["гарантия"])
    assert (o.recall, o.precision, o.jaccard, o.rare_recall, o.n_claim) == (0.0, 0.0, 0.0, 0.0, 0)


def test_idf_table_is_bm25_idf():
    idf = idf_table([["кровля", "монтаж"], ["монтаж"], ["фасад"]])
    assert idf["монтаж"] == pytest.approx(math.log(1 + (3 - 2 + 0.5) / (2 + 0.5)))
    assert idf["кровля"] > idf["монтаж"] > 0


def test_negations_with_heads_russian():
    found = [(n.cue, n.heads) for n in negations("Гарантии нет. Цена указана без учёта НДС. Срок не более 5 дней.", "ru")]
    assert found == [("нет", ("гарантия",)), ("без", ("учет",))]  # "не более" is a bound
    assert [n.heads for n in negations("Заказчик не может расторгнуть договор", "ru")] == [("мочь", "расторгнуть")]


def test_negations_english():
    found = [(n.cue, n.heads) for n in negations("The warranty doesn't cover leaks; payment is due no later than May 5.", "en")]
    assert found == [("doesn't", ("cover",))]
    assert [n.heads for n in negations("Delivery is free without lifting.", "en")] == [("lift",)]


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("Заказчик не может расторгнуть договор.", "Заказчик вправе расторгнуть договор в одностороннем порядке.", 1),
        ("Цена указана с учётом НДС.", "Цена указана без учёта НДС.", 1),
        ("Гарантия не распространяется на окраску.", "Гарантия не распространяется на окраску фасада.", 0),
        ("Гарантия 5 лет.", "Гарантийный срок — 5 лет.", 0),
        ("The warranty covers leaks.", "The warranty does not cover leaks.", 1),
        ("Payment is not required before delivery.", "Payment is not required before delivery.", 0),
    ],
)
def test_negation_mismatch(claim, evidence, expected):
    assert negation_mismatch(claim, evidence) == expected


def test_scope_terms():
    assert scope_terms("Любая из сторон вправе расторгнуть договор.") == {"party:any"}
    assert scope_terms("Только заказчику предоставляется право приёмки.") == {"q:only", "party:customer"}
    assert scope_terms("Исполнитель и генподрядчик согласуют график.") == {"party:contractor"}
    assert scope_terms("Either party may terminate; only the customer pays.") == {"party:any", "q:only", "party:customer"}
    assert scope_terms("Both parties sign all acts.") == {"party:both", "q:all"}


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("Любая из сторон может расторгнуть договор.", "Заказчик вправе расторгнуть договор.", 1),
        ("Заказчик может расторгнуть договор.", "Любая из сторон вправе расторгнуть договор.", 0),
        ("Подрядчик оплачивает вывоз мусора.", "Вывоз мусора оплачивает заказчик.", 1),
        ("Только подрядчик отвечает за материалы.", "Подрядчик отвечает за материалы.", 1),
        ("Either party may terminate the contract.", "The customer may terminate the contract.", 1),
        ("The customer may terminate the contract.", "Each party may terminate the contract.", 0),
    ],
)
def test_scope_mismatch(claim, evidence, expected):
    assert scope_mismatch(claim, evidence) == expected
