"""Round 9 (issue 19): tables of any domain. Every value column is asked, the row is named as its first column calls
it, a header's per-phrase or condition and a cell's currency reach the question and the reference, and a column that
is not a price gets its own form. The tables are made up here; none is in a test corpus."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from ragauge.generate.chunking import Chunk

pytest.importorskip("pymorphy3", reason="Russian templates need pymorphy3 (pip install 'ragauge[offline]')")


def _chunk(text: str) -> Chunk:
    return Chunk("t.md#0", "t.md", text, ("Тарифы",), 0, len(text), "table", 0, "Тарифы")


def _asked(text: str, lang: str) -> list[tuple[str, str]]:
    from ragauge.generate.questions import build
    from ragauge.generate.questions.facts import table_facts

    return [(q, ref) for f in table_facts(_chunk(text), lang) for q, ref, _, _ in build.TEMPLATES[lang].table_value(f)]


BIKES = ("Пакет | 1–2 часа, за час | от 3 часов, за час | Залог | Примечание\n"
         "Мини | 300 ₽ | 250 ₽ | 5 000 ₽ | шлем включён\n"
         "Макси | 500 ₽ | 400 ₽ | 8 000 ₽ | —")


def test_a_price_column_headed_by_a_condition_is_asked_with_it_and_every_column_is_asked() -> None:
    asked = _asked(BIKES, "ru")
    # «за час» and «1–2 часа» would say the noun twice: the price per hour is the package's rate («тариф»)
    assert ("Какой тариф у пакета «Мини» на срок 1–2 часа?", "300 ₽ за час (1–2 часа)") in asked
    assert ("Какой тариф у пакета «Макси» на срок от 3 часов?", "400 ₽ за час (от 3 часов)") in asked
    # a deposit is not a price: its own form, the cell's currency kept
    assert ("Каков залог пакета «Макси»?", "8 000 ₽") in asked
    assert not any("примечание" in q.lower() or "шлем" in ref for q, ref in asked)  # a column of notes is not asked


def test_text_and_measure_columns_are_asked_and_a_prepositional_header_takes_u() -> None:
    asked = _asked("Тариф | Скорость, Мбит/с | Зона покрытия | Плата за обслуживание | Цена в месяц, руб.\n"
                   "Дом | 100 | город | 150 руб. | 500\nДача | 50 | область | 250 руб. | 700", "ru")
    assert ("Какова скорость тарифа «Дом»?", "100 Мбит/с") in asked
    assert ("Какая зона покрытия у тарифа «Дача»?", "область") in asked
    assert ("Какова плата за обслуживание у тарифа «Дом»?", "150 руб.") in asked
    assert ("Сколько стоит тариф «Дача» в месяц?", "700 руб. в месяц") in asked


def test_groups_of_people_are_asked_for_whom_in_russian() -> None:
    asked = _asked("Категория посетителей | Скидка | Срок действия карты | Цена билета, руб.\n"
                   "Школьники | 50% | 1 год | 300\nПенсионеры | 30% | 2 года | 400", "ru")
    assert ("Какова скидка для школьников?", "50%") in asked
    assert ("Каков срок действия карты для пенсионеров?", "2 года") in asked
    assert ("Какова цена билета для пенсионеров?", "400 руб.") in asked
    assert not any(q.startswith("Сколько стоит") for q, _ in asked)  # «Сколько стоит школьники?» is no question


def test_an_english_offer_table_names_the_row_with_its_kind() -> None:
    asked = _asked("Package | Monthly fee | Storage | Support\nBasic | $9 | 50 GB | email\n"
                   "Team Pro | $29 | 1 TB | phone and email", "en")
    assert ("What is the monthly fee for the Team Pro package?", "$29") in asked
    assert ("What storage does the Basic package include?", "50 GB") in asked
    assert ("What support does the Team Pro package include?", "phone and email") in asked


def test_an_english_price_per_month_keeps_its_period_and_thousands() -> None:
    from ragauge.generate.questions import templates_en
    from ragauge.generate.questions.facts import table_facts

    text = "Plan | Price per month | Seats\nStarter | $250 | 5\nEnterprise | $1,250 | 50"
    assert ("How much does the Enterprise plan cost per month?", "$1,250 per month") in _asked(text, "en")
    starter, enterprise = [f for f in table_facts(_chunk(text), "en") if f.extras.get("price")]
    assert enterprise.number == 1250.0
    assert templates_en.difference(enterprise, starter) == (
        "How much more does the Enterprise plan cost than the Starter plan per month?",
        "$1,000 per month more ($1,250 per month vs $250 per month)", "price_difference")


def test_english_groups_of_people_are_asked_in_the_plural() -> None:
    asked = _asked("Member type | Guest passes | Booking window\nStudent | 2 | 3 days\nSenior | 4 | 7 days", "en")
    assert ("How many guest passes do students get?", "2") in asked
    assert ("What is the booking window for seniors?", "7 days") in asked
    asked = _asked("Age group | Ticket price\nAdults | $12\nChildren under 12 | $6", "en")
    assert ("What is the ticket price for children under 12?", "$6") in asked


def test_an_english_duration_column_is_asked_how_long() -> None:
    asked = _asked("Borrower type | Standard loan | Renewals\nVisiting scholar | 4 weeks | 2\n"
                   "Alumni member | 2 weeks | 1", "en")
    assert ("How long is the standard loan for visiting scholars?", "4 weeks") in asked
    assert ("How many renewals do alumni members get?", "1") in asked


def test_prices_are_compared_only_inside_one_column() -> None:
    from ragauge.generate.questions import build
    from ragauge.generate.questions.facts import table_facts

    facts = table_facts(_chunk(BIKES), "ru")
    made = build.reasoning_candidates({"t.md#0": facts}, random.Random(0), per_chunk=20)
    compared = [c for c in made if c.template in ("compare_prices", "price_difference")]
    assert compared
    for c in compared:
        # both amounts come from the same column: «300 ₽ за час» is never set against «400 ₽ за час (от 3 часов)»
        cond = re.search(r"на срок (.+?)(?::|\?)", c.question).group(1)
        pairs = {("1–2 часа",): {"300", "500"}, ("от 3 часов",): {"250", "400"}}[(cond,)]
        assert set(re.findall(r"\d+(?= ₽ за час)", c.reference)) <= pairs, (c.question, c.reference)


def test_a_small_table_gets_every_column_asked_in_a_golden_set() -> None:
    from ragauge.generate.questions import generate_questions

    text = ("Тариф | Скорость, Мбит/с | Зона покрытия | Цена в месяц, руб.\n"
            "Дом | 100 | город | 500\nДача | 50 | область | 700\nОфис | 300 | город и область | 1 200")
    cases, _ = generate_questions([_chunk(text)], n=30, seed=0)
    base = [c for c in cases if "variant_of" not in c.extra and c.template.startswith("table_")]
    per_column = Counter("скорость" if "скорость" in c.question else "зона" if "зона" in c.question else "цена"
                         for c in base)
    assert set(per_column) == {"скорость", "зона", "цена"} and min(per_column.values()) >= 2, per_column
