"""Issue 19, ninth round, unanswerable questions: the frame search parses each item once, not each pair (it grew
quadratically with the chunks of one document); a fee that price rows state for one named thing only is asked of
its sibling row; a price or a rate stated in a named section without the name is that thing's tariff (a deadline
that names no thing stays a general rule); a value-only reference is read in its sentence; a price a fact template
asks ("X takes 4 hours and costs $90") gives its frame to another subject of the same kind. Each test fails on the
code before the change."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from ragauge.generate import chunk, load_folder
from ragauge.generate.chunking import Chunk
from ragauge.generate.questions import generate_questions, morph
from ragauge.generate.questions.absent import unanswerable_rows
from ragauge.generate.questions.prose import prose_questions

pytest.importorskip("pymorphy3", reason="Russian prose needs pymorphy3 (pip install 'ragauge[offline]')")


def _unanswerable(tmp_path: Path, name: str, text: str, n: int = 10) -> list[str]:
    (tmp_path / name).write_text(text, encoding="utf-8")
    documents, _ = load_folder(tmp_path)
    cases, _ = generate_questions(chunk(documents), n=n, seed=0, documents=documents, mix={"unanswerable": 1.0})
    return [c.question for c in cases if c.expected_behaviour == "not_found"]


# --- cost: parses grow with the items, not with the pairs ---------------------------------------------------------

SERVICE = ("Диагностика холодильника выполняется в течение 2 рабочих дней. Ремонт холодильника выполняется в течение "
           "10 рабочих дней. Выездная диагностика оплачивается в размере 1 200 рублей. Срочная диагностика "
           "оплачивается в течение 3 дней. Гарантийный ремонт выполняется в течение 20 дней. Сервисный договор — это "
           "соглашение об обслуживании техники. Плановая чистка конденсатора проводится за 1 визит.")


def _parses(monkeypatch: pytest.MonkeyPatch, sections: int) -> int:
    """Morphological parses made by the unanswerable search over ``sections`` copies of one branch's terms."""
    chunks = [Chunk(id=f"c{i}", doc_id="d", text=SERVICE, section=(f"Филиал {i}",), start=0, end=len(SERVICE),
                    kind="text", ordinal=i, title="Сервисный центр") for i in range(sections)]
    items = prose_questions(chunks, {c.id: "ru" for c in chunks}, Counter())
    analyzer = morph._analyzer()
    real = analyzer.parse
    count = [0]

    def parse(word: str):
        count[0] += 1
        return real(word)

    monkeypatch.setattr(analyzer, "parse", parse)
    try:
        unanswerable_rows(items, chunks, Counter(), None, 8, subjects=[(q.subject, "ru") for q in items],
                          definitions=[("Сервисный договор", "ru")])
    finally:
        monkeypatch.setattr(analyzer, "parse", real)
    return count[0]


def test_the_unanswerable_search_parses_each_item_once_not_each_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    """Twice the sections, about twice the parses (before: four times, every frame re-parsed every subject)."""
    small = _parses(monkeypatch, 8)
    large = _parses(monkeypatch, 16)
    assert large <= 2.5 * small + 50, (small, large)


# --- price rows that name the thing ----------------------------------------------------------------------------------

PLANS_RU = """# Тарифы мобильной связи

| Услуга | Цена, руб. |
|---|---|
| Абонентская плата по тарифу «Лайт» | 350 |
| Абонентская плата по тарифу «Макс» | 890 |
| Замена SIM-карты по тарифу «Лайт» | 100 |
| Замена SIM-карты по тарифу «Макс» | 0 |
| Безлимитный мессенджер по тарифу «Макс» | 60 |
"""


def test_a_fee_one_row_names_is_asked_of_the_sibling_the_other_rows_name(tmp_path: Path) -> None:
    """Not when a row with no plan's name states the fee for every plan; «Мир» in one row is a payment system,
    not a plan."""
    (tmp_path / "a").mkdir()
    asked = _unanswerable(tmp_path / "a", "tarify.md", PLANS_RU)
    assert "Сколько стоит безлимитный мессенджер по тарифу «Лайт»?" in asked, asked
    (tmp_path / "b").mkdir()
    text = PLANS_RU + "| Безлимитный мессенджер | 90 |\n| Перевод на карту «Мир» | 50 |\n"
    asked = _unanswerable(tmp_path / "b", "tarify.md", text)
    assert not any("мессенджер" in q or "«Мир»" in q for q in asked), asked


ROOMS_EN = """# Room extras

| Extra | Price, $ |
|---|---|
| Breakfast for the Standard room | 15 |
| Breakfast for the Deluxe room | 0 |
| Parking for the Standard room | 20 |
| Parking for the Deluxe room | 10 |
| Late checkout for the Deluxe room | 35 |
"""


def test_an_english_row_fee_is_asked_of_the_sibling_row(tmp_path: Path) -> None:
    asked = _unanswerable(tmp_path, "extras.md", ROOMS_EN)
    assert "How much does the late checkout for the Standard room cost?" in asked, asked


# --- named sections: a tariff that names no thing; a value-only reference --------------------------------------------

STREAMING_EN = """# Streaming plans

## Basic plan

The monthly fee for the Basic plan is $8. Streaming is limited to 2 devices at a time.

## Family plan

The monthly fee for the Family plan is $15. Streaming is limited to 5 devices at a time. Offline downloads are \
charged at 3% of the monthly plan fee. Account transfers are completed within 5 working days.
"""


def test_a_rate_in_a_plans_section_is_that_plans_tariff(tmp_path: Path) -> None:
    """"Offline downloads are charged at 3% of the monthly plan fee" under "Family plan" does not name its plan,
    but a rate is the plan's own tariff; "Account transfers are completed within 5 working days" is a procedure,
    taken as a rule for every plan."""
    asked = _unanswerable(tmp_path, "plans.md", STREAMING_EN)
    assert "At what rate are offline downloads charged for the Basic plan?" in asked, asked
    assert not any("transfer" in q for q in asked), asked


PROVIDER_RU = """# Тарифы интернет-провайдера

## Тариф «Домашний»

Абонентская плата по тарифу «Домашний» составляет 600 рублей в месяц. Подключение выполняется в течение 3 рабочих \
дней. Минимальная сумма пополнения по тарифу составляет 500 рублей.

## Тариф «Игровой»

Абонентская плата по тарифу «Игровой» составляет 1 200 рублей в месяц. Статический IP-адрес предоставляется за 150 \
рублей в месяц.
"""


def test_a_value_only_reference_is_read_in_its_sentence(tmp_path: Path) -> None:
    """«Какова минимальная сумма пополнения по тарифу «Домашний»?» has the reference «500 рублей»; its sentence
    («… по тарифу составляет 500 рублей»: the plan's own sum, though it does not name the plan) holds the
    attribute. The connection deadline, stated without a plan's name, is not moved to the other plan."""
    asked = _unanswerable(tmp_path, "tarify.md", PROVIDER_RU)
    assert "Какова минимальная сумма пополнения по тарифу «Игровой»?" in asked, asked
    assert not any("подключение" in q for q in asked), asked


# --- a price asked by a fact template gives its frame -----------------------------------------------------------------

CLEANING_EN = """Cleaning services

Express cleaning takes 4 hours and costs $90 per apartment. Regular cleaning takes 2 working days. Carpet washing \
is charged at $5 per square metre.
"""


def test_a_price_a_fact_template_asks_is_asked_of_another_kind(tmp_path: Path) -> None:
    """Not when the documents state that price in other words."""
    (tmp_path / "a").mkdir()
    asked = _unanswerable(tmp_path / "a", "cleaning.txt", CLEANING_EN)
    assert "How much does regular cleaning cost?" in asked, asked
    (tmp_path / "b").mkdir()
    text = CLEANING_EN + "\nPrices\n\nThe price of regular cleaning is $40 per apartment.\n"
    asked = _unanswerable(tmp_path / "b", "cleaning.txt", text)
    assert not any("regular cleaning" in q for q in asked), asked
