"""The last check of a question's form (questions/wellformed.py): signs of a sentence copied by a rule that did not
understand it. The questions below are made up in the shapes the rules produced on documents no rule was written
for (a company speaking as «мы», an instruction to the reader, a condition cut in two); the natural ones must pass."""

from __future__ import annotations

import pytest

pytest.importorskip("pymorphy3")

from ragauge.generate import chunk, load_folder  # noqa: E402
from ragauge.generate.questions import generate_questions  # noqa: E402
from ragauge.generate.questions.wellformed import problem  # noqa: E402

BROKEN = [
    ("В течение какого срока мы возвращаем депозит?", "ru", "document_voice"),
    ("На каких условиях наша компания продлевает договор?", "ru", "document_voice"),
    ("How long do we keep lost property?", "en", "document_voice"),
    ("В каком случае она выдаётся бесплатно?", "ru", "pronoun_without_antecedent"),
    ("How much is charged if their booking is late?", "en", "pronoun_without_antecedent"),
    ("В каком случае если лодка повреждена, удерживается залог?", "ru", "condition_inside_condition_question"),
    ("При каком условии, кроме аварии, начисляется штраф?", "ru", "clause_copied"),
    ("В каком случае позвоните администратору в течение часа?", "ru", "imperative"),
    ("В какой срок храните чек после покупки?", "ru", "imperative"),
    ("Сколько рублей доплачивается за детское кресло и?", "ru", "ends_with_function_word"),
    ("В каком размере возмещается стоимость билета при отмене?", "ru", None),
    ("Сколько стоит хранение багажа при отказе в?", "ru", "ends_with_function_word"),
    ("Which fee applies to bookings made by phone and?", "en", "ends_with_function_word"),
    ("Как часто меняется тариф в для пенсионеров?", "ru", "cut_phrase"),
    ("В каком случае выдаётся справка о случае?", "ru", "noun_twice"),
    ("How many hours before the lesson can lesson bookings be moved?", "en", "noun_twice"),
    ("Сколько стоит прокат лодки от 2 до 5 часов?", "ru", None),
    ("За сколько дней можно добавить опцию «Отмена поездки» к поездке?", "ru", None),
]

NATURAL = [
    ("В какой срок возвращается депозит после окончания проката?", "ru"),
    ("Сколько стоит аренда лодки на сутки?", "ru"),
    ("При каком условии предоставляется скидка пенсионерам?", "ru"),
    ("Какова максимальная сумма возмещения за один день?", "ru"),
    ("Сколько вы храните забытые вещи?", "ru"),
    ("What is the maximum reimbursement for course fees per course?", "en"),
    ("What discount do students with a valid student card get?", "en"),
    ("Which plan does the late fee apply to?", "en"),
    ("How long does it take to issue a replacement card?", "en"),
    ("Что такое франшиза?", "ru"),
]


@pytest.mark.parametrize(("question", "lang", "sign"), BROKEN)
def test_a_copied_or_broken_question_is_named(question, lang, sign):
    assert problem(question, lang) == sign


@pytest.mark.parametrize(("question", "lang"), NATURAL)
def test_a_natural_question_passes(question, lang):
    assert problem(question, lang) is None


def test_two_things_compared_may_share_a_noun():
    assert problem("Which costs more: the day pass or the weekend pass?", "en", "compare_prices") is None
    assert problem("Which costs more: the day pass or the weekend pass?", "en") == "noun_twice"


def test_a_document_in_the_company_voice_gives_no_question_in_it(tmp_path):
    (tmp_path / "prokat.md").write_text(
        "# Условия проката лодок\n\n## Депозит\n\nМы возвращаем депозит в течение 5 рабочих дней после окончания "
        "договора. Если клиент вернул лодку с повреждениями, мы удерживаем из депозита стоимость ремонта.\n\n"
        "## Продление\n\nПродление проката оформляется не позднее чем за 2 часа до окончания срока. Если это "
        "невозможно, сообщите администратору по телефону в течение 30 минут.\n", encoding="utf-8")
    docs, _ = load_folder(tmp_path)
    cases, summary = generate_questions(chunk(docs), n=10, documents=docs)
    questions = [c.question for c in cases]
    assert questions, summary
    for q in questions:
        assert problem(q, "ru") is None, q
        assert " мы " not in f" {q.lower()} " and "сообщите" not in q.lower(), q
