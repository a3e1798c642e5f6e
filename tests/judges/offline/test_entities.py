"""Entities, dates and standards, and claim-vs-evidence entity mismatch."""

import pytest

from ragauge.judges.offline.entities import entity_mismatch, extract_entities


def _kinds(text, **kw):
    return [(e.kind, e.norm) for e in extract_entities(text, **kw)]


def test_russian_ner_is_normalised_to_lemmas():
    text = "ООО «СтройМонтаж» в лице директора Иванова Петра Сергеевича заключило договор с администрацией Санкт-Петербурга."
    found = _kinds(text, lang="ru")
    assert ("ORG", "строймонтаж") in found
    assert ("PER", "иванов петр сергеевич") in found
    assert ("LOC", "санкт-петербург") in found
    for e in extract_entities(text, lang="ru"):
        assert text[e.start : e.end] == e.text


@pytest.mark.parametrize(
    ("text", "norm"),
    [
        ("Договор подписан 15 марта 2024 года.", "2024-03-15"),
        ("Срок сдачи — 01.06.2025.", "2025-06-01"),
        ("Работы начнутся 1 июня.", "????-06-01"),
        ("Приёмка в марте 2024 г.", "2024-03"),
        ("Смета составлена в 2023 году.", "2023"),
        ("Signed on March 15, 2024 by both parties.", "2024-03-15"),
        ("Payment is due by 03/15/2024.", "2024-03-15"),
        ("Completion on 1st June 2025.", "2025-06-01"),
        ("The site opens 2025-09-01.", "2025-09-01"),
    ],
)
def test_dates(text, norm):
    assert [e.norm for e in extract_entities(text) if e.kind == "DATE"] == [norm]


def test_standards_win_over_date_lookalikes():
    found = _kinds("Бетон B25 по СП 70.13330.2012, кладка по СНиП 3.03.01-87 и ГОСТ Р 57337-2016.", lang="ru")
    assert [f for f in found if f[0] == "STD"] == [("STD", "сп 70.13330.2012"), ("STD", "снип 3.03.01-87"), ("STD", "гост р 57337-2016")]
    assert not [f for f in found if f[0] == "DATE"]
    assert _kinds("The Contractor shall comply with ISO 9001 and EN 206.") == [("STD", "iso 9001"), ("STD", "en 206")]


def test_english_capitalised_spans():
    found = _kinds("The contract between Smith Construction LLC and the City of Boston was signed by Dr. John Smith.")
    assert ("ORG", "smith construct") in found
    assert ("NAME", "citi of boston") in found
    assert ("NAME", "john smith") in found
    assert all(norm != "the" for _, norm in found)


def test_russian_without_ner_uses_the_heuristic():
    found = _kinds("Договор подписал директор Петров из компании СтройМонтаж.", lang="ru", ner=False)
    assert ("NAME", "петров") in found
    assert ("NAME", "строймонтаж") in found
    assert not any(norm == "договор" for _, norm in found)  # sentence-initial word is no name


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("Договор заключён с ООО «СтройМонтаж» 15 марта 2024 года.",
         "ООО «СтройМонтаж» в лице директора Иванова П.С. заключило договор 15.03.2024.", (2, 0)),
        ("Договор заключён с ООО «ГлавСтрой» 15 марта 2025 года.",
         "ООО «СтройМонтаж» в лице директора Иванова П.С. заключило договор 15.03.2024.", (2, 2)),
        ("Директор Иванов подписал акт.", "Акт подписан директором Ивановым П.С.", (1, 0)),
        ("Работы сдаются 1 июня.", "Срок сдачи работ — 01.06.2025.", (1, 0)),
        ("Кирпич соответствует ГОСТ 530-2012.", "Кирпич по ГОСТ 530-2007.", (1, 1)),
        ("Монтаж кровли стоит 1 150 руб.", "Монтаж кровли — 1 150 руб. за м².", (0, 0)),
        ("The warranty was issued by Smith Construction in Boston.", "Smith Construction LLC provides the warranty.", (2, 1)),
        ("Completion is due on June 1, 2025.", "The works shall be completed by 01/06/2025 at the latest.", (1, 1)),
    ],
)
def test_entity_mismatch(claim, evidence, expected):
    assert entity_mismatch(claim, evidence) == expected


def test_an_entity_elsewhere_in_the_contexts_is_not_missing():
    claim = "По прайсу от 01.03.2026 бетон стоит 7 450 руб./м³"
    window = "Бетон B25 с доставкой — 7 450 руб./м³"
    header = "Прайс-лист (ред. от 01.03.2026)\n\nБетон B20 — 7 100 руб./м³. Бетон B25 с доставкой — 7 450 руб./м³"
    assert entity_mismatch(claim, window) == (1, 1)
    assert entity_mismatch(claim, window, background=[header]) == (1, 0)
    assert entity_mismatch(claim, window, background=["Прайс-лист (ред. от 01.09.2025)"]) == (1, 1)
