"""Issue 19, ninth round, English question forms (an independent native-speaker read of rounds 7-8): a ceiling on a
count or an amount asked as "What is the maximum …", not "How many days at most may …"; any noun as the unit of a
rate ("per kg", "a night", "each month"); a reference that is the clause answering its question, not a sentence
of two clauses; a notice period asked "How much notice …"; no noun said twice in a cut-off question. Every sentence
here is written for these tests (none is in the test corpora), and each test fails on the code before the round."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from ragauge.generate import chunk, load_folder
from ragauge.generate.chunking import Chunk
from ragauge.generate.questions import generate_questions
from ragauge.generate.questions.prose import prose_questions
from ragauge.generate.questions.prose_en import en_question


def _asked(text: str) -> dict[str, str]:
    c = Chunk("d#0", "d", text, ("Terms",), 0, len(text), "text", 0, "Terms")
    return {q.question: q.reference for q in prose_questions([c], {c.id: "en"}, Counter())}


def _generated(tmp_path: Path, text: str) -> dict[str, str]:
    (tmp_path / "terms.md").write_text("# Terms\n\n" + text + "\n", encoding="utf-8")
    documents, _ = load_folder(tmp_path)
    cases, _ = generate_questions(chunk(documents), n=20, seed=0, documents=documents)
    return {c.question: c.reference for c in cases if c.expected_behaviour == "answer"}


@pytest.mark.parametrize("sentence, question", [
    # a count: "What is the maximum number of …", the subject's clause after it
    ("Unused overtime may be banked up to 8 hours into the following month.",
     "What is the maximum number of hours that unused overtime may be banked?"),
    ("Interns may work remotely for up to 2 days per week.",
     "What is the maximum number of days that interns may work remotely per week?"),
    ("Equipment loans are granted for up to 14 days.",
     "What is the maximum number of days that equipment loans are granted for?"),
    ("The Team plan includes up to 25 seats.", "What is the maximum number of seats the Team plan includes?"),
    ("Residents may host up to 3 visitors per weekend.",
     "What is the maximum number of visitors that residents may host per weekend?"),
    # an amount: a verb of paying back or charging has a noun of its own; a person is paid an amount
    ("Conference fees are reimbursed up to $400 per event.",
     "What is the maximum reimbursement for conference fees per event?"),
    ("Lost luggage is compensated up to $1,200 per passenger.",
     "What is the maximum compensation for lost luggage per passenger?"),
    ("Volunteers are reimbursed up to $50 per shift.",
     "What is the maximum amount that volunteers are reimbursed per shift?"),
    ("Cash may be withdrawn up to $300 per day.", "What is the maximum amount of cash that may be withdrawn per day?"),
    ("The insurer pays up to $2,000 per claim.", "What is the maximum amount the insurer pays per claim?"),
    # an active verb's object is what the amount is of
    ("Staff may claim travel costs up to $500 per year.",
     "What is the maximum amount of travel costs that staff may claim per year?"),
    ("The fund covers dental bills up to $900.", "What is the maximum amount of dental bills the fund covers?"),
])
def test_a_ceiling_is_asked_as_the_maximum(sentence: str, question: str) -> None:
    assert en_question(sentence)[0] == question


def test_a_ceiling_with_no_verb_is_left_to_the_value_template() -> None:
    # "Rent deposits are up to $1,500" has no verb to ask with ("What is the maximum amount that rent deposits are?")
    assert en_question("Rent deposits are up to $1,500.")[0] is None


def test_a_count_ceiling_keeps_a_frame_for_other_subjects() -> None:
    _, kind, _, frame, _ = en_question("Study leave may be taken up to 10 days per year.")
    assert kind == "limit"
    assert frame == "What is the maximum number of days that {subj} may be taken per year?"


@pytest.mark.parametrize("sentence, question", [
    # any noun is a unit after "per" (not a fixed list): "per kg", "per pallet", "per calendar month"
    ("Oversize freight is charged up to $3 per kg.", "What is the maximum charge for oversize freight per kg?"),
    ("Our liability is limited to $250 per pallet.", "What is the liability limit per pallet?"),
    ("Dental treatment is covered up to $900 per calendar month.",
     "What is the maximum cover for dental treatment per calendar month?"),
    ("Meal costs are reimbursed up to $35 a day.", "What is the maximum reimbursement for meal costs a day?"),
    ("Parking fees are refunded up to $10 each visit.", "What is the maximum refund for parking fees per visit?"),
    ("A trainer is paid up to $40 per session per group.",
     "What is the maximum amount a trainer is paid per session per group?"),
    # a word that is no unit ends the rate: an article, "per cent"
    ("Deposits are refunded up to $500 per the terms of the lease.", "What is the maximum refund for deposits?"),
])
def test_any_noun_is_the_unit_of_a_rate(sentence: str, question: str) -> None:
    assert en_question(sentence)[0] == question


def test_per_cent_and_a_pronoun_are_not_units() -> None:
    from ragauge.generate.questions.prose_en_tail import per_tail

    assert per_tail(["per", "cent", "of", "the", "fare."]) == ""
    assert per_tail(["per", "it."]) == ""
    assert per_tail(["each."]) == ""
    assert per_tail(["per", "person", "sharing", "a", "room."]) == " per person"
    assert per_tail(["per", "employee", "per", "year."]) == " per employee per year"


def test_two_price_clauses_give_two_references(tmp_path: Path) -> None:
    asked = _generated(tmp_path, "A locker costs $8 per day and the sauna costs $15 per visit. A towel costs $3 "
                                 "per day; the robe costs $6 per day.")
    assert asked.get("How much does a locker cost?") == "$8 per day", asked
    assert asked.get("How much does the sauna cost?") == "$15 per visit", asked
    assert asked.get("How much does a towel cost?") == "$3 per day", asked
    assert asked.get("How much does the robe cost?") == "$6 per day", asked


def test_a_prose_reference_is_the_clause_that_answers() -> None:
    asked = _asked("Lab results are ready within 3 days, and the printed copies are posted within 5 days.")
    assert asked.get("How soon are lab results ready?") == "Lab results are ready within 3 days", asked


@pytest.mark.parametrize("sentence", [
    "Lockers and towels cost $5 per day.",  # one subject of two nouns
    "Bags over 20 kg and the oversized items are charged at 40% of the fare.",  # no verb before "and"
    "Parking is free for 3 hours and each additional hour costs $2.",  # the second clause leans on the first
])
def test_one_clause_is_not_split(sentence: str) -> None:
    from ragauge.generate.questions.prose_en_clauses import en_clauses

    assert en_clauses(sentence) == [sentence]


@pytest.mark.parametrize("sentence, question", [
    ("Tenants must give prior notice at least 60 days before the end of the lease.",
     "How much notice must tenants give before the end of the lease?"),
    ("Subscribers must give 14 days' notice.", "How much notice must subscribers give?"),
    ("Contractors must give notice within 10 days before the end of the month.",
     "How much notice must contractors give before the end of the month?"),
])
def test_a_notice_period_is_asked_how_much_notice(sentence: str, question: str) -> None:
    assert en_question(sentence)[0] == question


def test_a_cut_off_does_not_say_the_subjects_noun_twice() -> None:
    assert en_question("Tour bookings can be changed free of charge up to 48 hours before the tour.")[0] == \
        "How far in advance can tour bookings be changed free of charge?"
    # an event that is not the subject's noun keeps "How many hours before …"
    assert en_question("Appointments can be moved free of charge up to 24 hours before the session.")[0] == \
        "How many hours before the session can appointments be moved free of charge?"


def test_a_max_column_is_asked_as_a_maximum() -> None:
    from ragauge.generate.questions.facts import Fact
    from ragauge.generate.questions.templates_en import table_value

    text = "| Room | Max guests |\n|---|---|\n| Studio room | 4 |"
    c = Chunk("t#0", "t", text, ("Rooms",), 0, len(text), "table", 0, "Rooms")
    assert table_value(Fact("table", c, "en", "Studio room", "4", value_header="Max guests"))[0][0] == \
        "What is the maximum number of guests for the studio room?"
