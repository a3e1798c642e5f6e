"""A question about a whole long section (questions/section_question.py): asked about its topic, answered by all of it.
Headings here are made up; none is in the test corpora."""

from __future__ import annotations

import pytest

pytest.importorskip("pymorphy3")

from ragauge.generate import chunk, load_folder  # noqa: E402
from ragauge.generate.questions import generate_questions  # noqa: E402
from ragauge.generate.questions.section_question import question  # noqa: E402


@pytest.mark.parametrize(("heading", "lang", "asked"), [
    ("Возврат снаряжения", "ru", "Что нужно знать о возврате снаряжения?"),
    ("4. Обслуживание лодок", "ru", "Что нужно знать об обслуживании лодок?"),
    ("Дополнительные услуги", "ru", "Что нужно знать о дополнительных услугах?"),
    ("Equipment hire", "en", "What should I know about equipment hire?"),
    ("2.1 Late returns", "en", "What should I know about late returns?"),
])
def test_a_topic_heading_is_asked_about(heading, lang, asked):
    assert question(heading, lang) == asked


@pytest.mark.parametrize(("heading", "lang"), [
    ("Общие положения", "ru"), ("Definitions", "en"),          # a part of the document, not a topic
    ("Лодки и цены", "ru"),                                       # «о лодках и цены»: only the first noun changes
    ("Что делать при поломке?", "ru"), ("Тарифы: сезон 2026", "ru"),
    ("Правила пользования прокатом для детей и взрослых", "ru"),  # too long to carry
    ("FAQ", "en"),
])
def test_a_heading_that_cannot_carry_a_question_gives_none(heading, lang):
    assert question(heading, lang) is None


def test_the_reference_is_the_whole_section_not_its_first_two_sentences(tmp_path):
    body = " ".join(f"Правило номер {k}: снаряжение выдаётся под залог паспорта в пункте {k}." for k in range(1, 10))
    short = "Пункт проката открыт с 9:00 до 21:00."
    (tmp_path / "prokat.md").write_text(f"# Прокат снаряжения\n\n## Выдача снаряжения\n\n{body}\n\n## Часы работы\n\n"
                                        f"{short}\n\n## Оплата\n\n{short}\n", encoding="utf-8")
    docs, _ = load_folder(tmp_path)
    cases, _ = generate_questions(chunk(docs), n=20, documents=docs)
    topical = [c for c in cases if c.template == "long_section"]
    assert [c.question for c in topical] == ["Что нужно знать о выдаче снаряжения?"]
    assert topical[0].reference.count("Правило номер") == 6  # MAX_SENTENCES
    assert not any("раздел" in c.question.lower() for c in cases)
