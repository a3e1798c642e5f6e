"""Issue 19, seventh round (a native speaker read every question of the 15 test corpora): an unanswerable question
about a sibling the documents name (cashback stated for one card only, asked about the other); none the corpus
answers through a rule about the attribute itself («Размер премии утверждает …»); no frame counted from an event of
its own subject moved to another subject; "answered" / "completed" as one event; "capped at" asked as a cap; a
wrong-layout copy typed from the start of the message; the copy share of the set as made. Each test fails on the
code before the change."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from ragauge.generate import chunk, load_folder
from ragauge.generate.chunking import Chunk
from ragauge.generate.questions import generate_questions
from ragauge.generate.questions.absent_stated import anchored, attribute_rule
from ragauge.generate.questions.prose import prose_questions
from ragauge.generate.questions.typos import layout_variant, wrong_layout

pytest.importorskip("pymorphy3", reason="Russian prose needs pymorphy3 (pip install 'ragauge[offline]')")


def _unanswerable(tmp_path: Path, name: str, text: str, n: int = 10) -> list[str]:
    (tmp_path / name).write_text(text, encoding="utf-8")
    documents, _ = load_folder(tmp_path)
    cases, _ = generate_questions(chunk(documents), n=n, seed=0, documents=documents, mix={"unanswerable": 1.0})
    return [c.question for c in cases if c.expected_behaviour == "not_found"]


CARDS_RU = """# Тарифы по картам

## Карта «Базовая»

Обслуживание карты «Базовая» стоит 600 рублей в год. Снятие наличных в банкоматах других банков облагается \
комиссией 1% от суммы.

## Карта «Золотая»

Обслуживание карты «Золотая» стоит 2 500 рублей в год. Кешбэк по карте «Золотая» начисляется в размере 5% от суммы \
покупок на АЗС.
"""

CARDS_EN = """# Credit card terms

## Silver card

The annual fee for the Silver card is $25. Balance transfers are charged a fee of 3% of the amount.

## Platinum card

The annual fee for the Platinum card is $150. Cashback on the Platinum card is paid at 2% of card purchases.
"""


def test_an_attribute_stated_for_one_named_card_is_asked_about_its_sibling(tmp_path: Path) -> None:
    asked = _unanswerable(tmp_path, "karty.md", CARDS_RU)
    assert any("кешбэк" in q and "«Базовая»" in q for q in asked), asked


def test_an_attribute_stated_for_one_named_card_is_asked_about_its_sibling_en(tmp_path: Path) -> None:
    asked = _unanswerable(tmp_path, "cards.md", CARDS_EN)
    assert "At what rate is cashback on the Silver card paid?" in asked, asked


def test_no_sibling_question_when_the_sibling_or_a_general_rule_states_it(tmp_path: Path) -> None:
    both = CARDS_EN.replace("The annual fee for the Silver card is $25.",
                            "The annual fee for the Silver card is $25. Cashback is paid at 1% of card purchases.")
    (tmp_path / "a").mkdir()
    assert not any("cashback" in q.lower() for q in _unanswerable(tmp_path / "a", "cards.md", both))
    general = CARDS_RU + "\n## Общие условия\n\nРазмер кешбэка по всем картам устанавливает банк.\n"
    (tmp_path / "b").mkdir()
    assert not any("кешбэк" in q for q in _unanswerable(tmp_path / "b", "karty.md", general))


BONUS = """# Положение о премировании

Годовая премия выплачивается в размере до 30% годового оклада. Квартальная премия выплачивается не позднее \
15 числа месяца, следующего за кварталом. Размер премии утверждает генеральный директор по представлению \
руководителя подразделения.
"""


def test_a_rule_about_the_attribute_of_the_general_noun_answers_the_question(tmp_path: Path) -> None:
    asked = _unanswerable(tmp_path, "premii.md", BONUS)
    assert "В каком размере выплачивается квартальная премия?" not in asked, asked
    assert attribute_rule("квартальная премия", "amount", [BONUS], [], "ru")
    assert attribute_rule("квартальная премия", "deadline", [BONUS], [], "ru") is None  # no «срок премии» rule


REQUESTS = """# Service terms

Credit requests must be filed within 30 days of the incident. Data export requests are completed within 5 business \
days. Standard requests are answered within 1 business day. Refund requests are processed within 10 business days.
"""


def test_a_frame_counted_from_its_own_event_is_not_moved(tmp_path: Path) -> None:
    asked = _unanswerable(tmp_path, "terms.md", REQUESTS)
    assert not any("filed" in q for q in asked), asked
    assert anchored("Credit requests must be filed within 30 days of the incident.", "en")
    assert anchored("Акт направляется не позднее 10 дней после подписания договора.", "ru")
    assert not anchored("Standard requests are answered within 1 business day.", "en")
    assert not anchored("Премия выплачивается до 30 марта.", "ru")


def test_answered_and_completed_are_one_event_of_a_request(tmp_path: Path) -> None:
    asked = _unanswerable(tmp_path, "terms.md", REQUESTS)
    for subject in ("standard requests", "data export requests", "refund requests"):
        assert not any(subject in q and ("completed" in q or "answered" in q or "processed" in q) for q in asked), asked


def test_capped_at_is_asked_as_a_cap() -> None:
    text = "Service credits are capped at 50% of the monthly fee."
    c = Chunk("d#0", "d", text, ("SLA",), 0, len(text), "text", 0, "SLA")
    items = prose_questions([c], {c.id: "en"}, Counter())
    assert [i.question for i in items] == ["What is the cap on service credits?"]


@pytest.mark.parametrize("question", ["В какой срок выплачиваются отпускные?",
                                      "Сколько стоит обслуживание карты «Премиум»?",
                                      "Каков суточный лимит снятия наличных по карте Gold?"])
def test_a_wrong_layout_copy_is_typed_from_the_start_of_the_message(question: str) -> None:
    for seed in range(12):
        typed = layout_variant(question, "ru", random.Random(seed))
        assert typed is not None
        got, words = typed.split(" "), question.split(" ")
        assert got[0] == wrong_layout(words[0]), typed  # the user starts typing in the wrong layout
        changed = [i for i, (a, b) in enumerate(zip(got, words)) if a != b]
        assert changed == list(range(len(changed))) or all(
            g == wrong_layout(w) or "«" in w or "»" in w or w.isascii() for g, w in zip(got[:changed[-1] + 1], words)
        ), typed  # a prefix of words, never one word in the middle


def test_the_copy_share_is_of_the_set_as_made(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# Бассейн\n\nСеанс плавания длится 45 минут. Абонемент действует 30 дней. "
                                   "Разовое посещение стоит 400 рублей. Аренда полотенца стоит 100 рублей.\n",
                                   encoding="utf-8")
    documents, _ = load_folder(tmp_path)
    cases, summary = generate_questions(chunk(documents), n=30, seed=0, documents=documents)
    copies = [c for c in cases if "variant_of" in c.extra]
    assert copies and len(copies) <= 0.25 * len(cases), (len(copies), len(cases))
    assert f"{len(copies)} of {len(cases)}" in summary["copy_cap"]


# Item 4 of the review: stilted English templates, Russian word-order echoes, an incoherent alternative, a section
# tag in a question, a count whose object was dropped. Each rule is general; the sentences below are not from the
# test corpora.

def _asked(text: str, lang: str) -> list[str]:
    c = Chunk("d#0", "d", text, ("Terms",), 0, len(text), "text", 0, "Terms")
    return [i.question for i in prose_questions([c], {c.id: lang}, Counter())]


@pytest.mark.parametrize("sentence, question", [
    # "Up to how many …" -> "What is the maximum number of …" (round 9; round 8 asked "How many … at most"); a
    # passive participle keeps its "for"
    ("Spare parts may be stored up to 4 weeks at the branch.",
     "What is the maximum number of weeks that spare parts may be stored?"),
    ("Car leases are granted for up to 3 years.", "What is the maximum number of years that car leases are granted for?"),
    ("The Basic plan includes up to 3 mailboxes.", "What is the maximum number of mailboxes the Basic plan includes?"),
    # "For what (additional) fee is X carried?" / "What surcharge are X charged?" -> "What is the fee for X?"
    ("Bicycles are carried for an additional fee of 20%.", "What is the additional fee for bicycles?"),
    ("Strollers over 10 kg are stored at the desk for a fee of $5.",
     "What is the fee for strollers over 10 kg stored at the desk?"),
    ("Orders under $30 are charged a surcharge of $4.", "What is the surcharge for orders under $30?"),
    # "To what amount is X limited?" -> "What is the X limit?", with what it is per
    ("Our compensation is limited to $200 per booking.", "What is the compensation limit per booking?"),
    # a count keeps what it is of and per what
    ("Volunteers are entitled to 4 days of paid training per year.",
     "How many days of paid training per year are volunteers entitled to?"),
    ("Overtime is limited to 6 hours per week.", "How many hours per week is overtime limited to?"),
])
def test_english_questions_are_asked_as_a_person_asks(sentence: str, question: str) -> None:
    assert _asked(sentence, "en") == [question]


def test_a_count_column_is_asked_with_how_many() -> None:
    from ragauge.generate.questions.facts import Fact
    from ragauge.generate.questions.templates_en import table_value

    text = "| Plan | Lessons |\n|---|---|\n| Starter plan | 8 |"
    c = Chunk("t#0", "t", text, ("Plans",), 0, len(text), "table", 0, "Plans")
    fact = Fact("table", c, "en", "Starter plan", "8", value_header="Lessons")
    assert table_value(fact)[0][0] == "How many lessons does the starter plan include?"


def test_an_entity_after_a_for_phrase_is_asked_with_for() -> None:
    from ragauge.generate.questions.qualifier import with_entity

    assert with_entity("What is the fee for transfers to other banks?", "the Basic account", "en") == \
        "What is the fee for transfers to other banks for the Basic account?"
    assert with_entity("What is the annual fee?", "the Basic account", "en") == \
        "What is the annual fee of the Basic account?"


@pytest.mark.parametrize("sentence, question", [
    # a bare dative left at the end after the subject goes before the verb
    ("Акт сверки направляется заказчику в течение 2 рабочих дней.",
     "В какой срок заказчику направляется акт сверки?"),
    # a lead time (round 9): «нужно» + the active verb, the dative before the object
    ("Акт сверки направляется заказчику не позднее чем за 2 рабочих дня.",
     "За сколько рабочих дней нужно направить заказчику акт сверки?"),
    ("Скидка на проживание предоставляется аспирантам с 3 курса.",
     "С какого курса аспирантам предоставляется скидка на проживание?"),
    # an active verb with a complement of its own follows its subject
    ("Дежурный администратор отвечает на звонки в выходные дни с 10:00 до 16:00.",
     "В какое время дежурный администратор отвечает на звонки в выходные дни?"),
    # a verbal noun before an active verb is its object; the agent after the verb is asked first (and the light
    # verb with its verbal noun is the one verb they stand for, round 9)
    ("Оформление пропуска выполняет служба охраны в течение 2 рабочих дней.",
     "В какой срок служба охраны оформляет пропуск?"),
    # the number belongs to the last alternative only
    ("Взнос уплачивается сразу или частями на 4 платежа.", "На сколько платежей уплачивается взнос частями?"),
])
def test_russian_questions_keep_a_natural_word_order(sentence: str, question: str) -> None:
    assert question in _asked(sentence, "ru")


@pytest.mark.parametrize("sentence", ["Какая скидка предоставляется ветеранам?",
                                      "На сколько процентов увеличивается стоимость к базовому тарифу?"])
def test_a_dative_after_its_verb_or_a_preposition_stays(sentence: str) -> None:
    from ragauge.generate.questions.prose import _recipient_before_verb

    assert _recipient_before_verb(sentence) == sentence


def test_a_question_that_leans_on_the_sentence_before_has_no_section_tag() -> None:
    # «каждые последующие сутки» is not asked as «каждые сутки»: the first days may be free (a false premise)
    asked = _asked("Взнос вносится до 10 числа. За каждые последующие сутки хранения начисляется сбор 0,5%.", "ru")
    assert not any("каждые сутки" in q or "раздел" in q for q in asked), asked


@pytest.mark.parametrize("sentence, question", [
    # round 9: "What is the maximum reimbursement …" (round 8 asked "How much at most are hotel stays reimbursed …")
    ("Hotel stays are reimbursed up to $150 per night.", "What is the maximum reimbursement for hotel stays per night?"),
])
def test_up_to_an_amount_is_asked_how_much_at_most(sentence: str, question: str) -> None:
    assert _asked(sentence, "en") == [question]


def test_a_length_is_asked_as_a_duration_of_the_thing() -> None:
    assert _asked("Перерыв на отдых предоставляется продолжительностью 15 минут.", "ru") == \
        ["Какова продолжительность перерыва на отдых?"]


def test_a_ceiling_or_a_floor_value_is_asked_as_a_maximum_or_a_minimum() -> None:
    from ragauge.generate.questions.templates_ru import _bound

    assert _bound("не более 20% от суммы заказа", "femn") == "максимальная "
    assert _bound("не менее 99,5%", "neut") == "минимальное "
    assert _bound("15% от суммы", "femn") == ""


def test_a_cut_set_keeps_a_price_rows_second_wording_and_every_kind() -> None:
    from ragauge.generate.questions.candidate import Candidate
    from ragauge.generate.questions.generate import ROW_PARAPHRASE, _kept_copies

    def copy(template: str, kind: str | None) -> tuple[Candidate, int]:
        extra = {"badly_formed": kind} if kind else {}
        return Candidate(f"q {template} {kind}", "r", (), "simple", (), "ru", template, extra=extra), 0

    made = [copy("x+typos", "typos") for _ in range(4)] + [copy("x+keyboard_layout", "keyboard_layout")] + \
        [copy("x+synonym", None), copy(ROW_PARAPHRASE, None)]
    kept = [c.template for c, _ in _kept_copies(made, 3)]
    assert kept == [ROW_PARAPHRASE, "x+typos", "x+keyboard_layout"]


def test_a_permission_for_a_time_is_asked_as_a_window() -> None:
    assert _asked("Обмен билета разрешается в течение 7 дней.", "ru") == ["В течение какого срока разрешается обмен билета?"]
    assert _asked("Справка выдаётся в течение 3 дней.", "ru") == ["В какой срок выдаётся справка?"]  # a deadline


def test_a_rule_its_section_states_without_naming_the_card_is_not_moved_to_the_sibling(tmp_path: Path) -> None:
    # «Страховое возмещение выплачивается …» under one deposit's heading, naming none: a reader takes it as a rule
    # for every deposit, so "… по вкладу «Надёжный»?" is answered by the corpus, not a question without an answer
    text = CARDS_RU.replace("Кешбэк по карте «Золотая» начисляется", "Кешбэк начисляется")
    asked = _unanswerable(tmp_path, "karty.md", text)
    assert not any("кешбэк" in q.lower() and "«Базовая»" in q for q in asked), asked


def test_a_name_with_regex_escapes_in_a_heading_does_not_crash_the_generator(tmp_path: Path) -> None:
    text = CARDS_RU.replace("«Базовая»", "«Базовая\\d»")
    _unanswerable(tmp_path, "karty.md", text)  # was: re.error "bad escape \d" (exit 70)


def test_each_subsequent_unit_is_not_asked_as_each_unit(tmp_path: Path) -> None:
    (tmp_path / "parking.md").write_text("# Парковка\n\nПервые 2 часа стоянки бесплатны. Каждый последующий час "
                                         "стоянки стоит 100 рублей.\n", encoding="utf-8")
    documents, _ = load_folder(tmp_path)
    cases, _ = generate_questions(chunk(documents), n=10, seed=0, documents=documents)
    assert not any("каждый час" in c.question.lower() for c in cases), [c.question for c in cases]
