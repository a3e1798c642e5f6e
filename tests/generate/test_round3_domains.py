"""Issue 19, third round: logistics (ru, en), bank tariffs and a clinic price list (en). Each test names a class of
bad question a reader found on these corpora (agreement, wrong question word, unaskable, broken subject) and
fails on the code before the fix; the corpora are ``_round3_corpora.py``."""

from __future__ import annotations

import pytest

from ragauge.generate import chunk, load_folder
from ragauge.generate.questions import generate_questions

pytest.importorskip("docx", reason="python-docx is needed to write the DOCX of the corpora")
pytest.importorskip("pymorphy3", reason="Russian templates need pymorphy3 (pip install 'ragauge[offline]')")

from _round3_corpora import CORPORA, write_corpus  # noqa: E402


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("round3")
    out = {}
    for name in CORPORA:
        documents, problems = load_folder(write_corpus(name, root))
        assert not problems, problems
        cases, summary = generate_questions(chunk(documents), n=30, seed=0, documents=documents)
        out[name] = (cases, summary)
    return out


def _asked(runs, name) -> dict[str, str]:
    return {c.question: c.reference for c in runs[name][0] if "variant_of" not in c.extra}


# ---------------------------------------------------------------- Russian: question words and agreement

def test_every_n_hours_is_asked_how_often(runs) -> None:
    """«обновляется … каждые 2 часа» was «Как долго обновляется статус груза в личном кабинете каждые?»."""
    asked = _asked(runs, "logistics_ru")
    assert "Как часто обновляется статус груза в личном кабинете?" in asked
    assert not any(q.rstrip("?").endswith(("каждые", "каждый")) for q in asked)


def test_a_limit_on_keeping_is_asked_how_long(runs) -> None:
    """«хранится не более 30 календарных дней» was «За какое время хранится невостребованный груз?»."""
    asked = _asked(runs, "logistics_ru")
    assert "Как долго хранится невостребованный груз?" in asked
    assert not any(q.startswith("За какое время") for q in asked)


def test_an_end_time_is_asked_until_when(runs) -> None:
    """«принимается до 16:00» was «В какое время принимается …?» (the answer is an end, not a time of day)."""
    assert "До какого времени принимается заказ на экспресс-доставку?" in _asked(runs, "logistics_ru")


def test_a_plural_table_item_takes_a_plural_verb(runs) -> None:
    """«Погрузочно-разгрузочные работы | час | 1 200» was «Сколько стоит погрузочно-разгрузочные работы?»."""
    asked = _asked(runs, "logistics_ru")
    assert "Сколько стоят погрузочно-разгрузочные работы?" in asked
    assert "Сколько стоит погрузочно-разгрузочные работы?" not in asked


def test_a_modal_moves_with_its_infinitive_and_negation(runs) -> None:
    """«Габариты одного места не должны превышать 2 метров» was «Сколько метров должны габариты одного места не
    превышать по длине?»; the question phrase in place of the number keeps the modal with its infinitive, and the
    set asks the ceiling by the measure named after the number (round 9)."""
    from ragauge.generate.questions.prose_wh import ru_wh_question

    sentence = "Габариты одного места не должны превышать 2 метров по длине."
    assert ru_wh_question(sentence)[0] == "Сколько метров не должны превышать габариты одного места по длине?"
    asked = _asked(runs, "logistics_ru")
    assert "Какова максимальная длина одного места?" in asked
    assert not any("должны габариты" in q for q in asked)


def test_years_are_counted_as_let() -> None:
    from ragauge.generate.questions.prose_wh import ru_wh_question

    assert ru_wh_question("Гарантия на коронку действует 3 года.")[0] == "Сколько лет действует гарантия на коронку?"


def test_plural_price_questions_have_colloquial_variants() -> None:
    import random

    from ragauge.generate.questions.typos import colloquial

    assert colloquial("Сколько стоят малярные работы?", "ru", random.Random(0)) is not None


# ---------------------------------------------------------------- English: subjects and operators

def test_a_second_predicate_is_asked_of_the_first_ones_subject(runs) -> None:
    """"Express delivery takes 1 working day and costs $25 per parcel" was "How much does express delivery takes
    1 working day and cost?"."""
    asked = _asked(runs, "logistics_en")
    assert asked.get("How much does express delivery cost?") == "$25 per parcel"
    assert not any(" takes " in q for q in asked)


def test_for_the_first_n_days_is_asked_how_long(runs) -> None:
    """"Storage is free for the first 5 days" was "How many days is storage free for the first?"."""
    asked = _asked(runs, "logistics_en")
    assert "How long is storage free?" in asked
    assert not any(q.endswith(("the first?", "the?")) for q in asked)


def test_a_word_spelled_with_a_capital_keeps_it(runs) -> None:
    """"X-ray results are ready within 1 hour" was asked "How soon are x-ray results ready?"."""
    asked = _asked(runs, "clinic_en")
    assert "How soon are X-ray results ready?" in asked
    assert not any("x-ray" in q for q in asked)


# ---------------------------------------------------------------- unanswerable: one, or the reason

@pytest.mark.parametrize("name", sorted(CORPORA))
def test_a_corpus_gets_an_unanswerable_question_or_the_reason_why_not(runs, name) -> None:
    cases, summary = runs[name]
    if summary["coverage"]["fact_bearing"] < 3:
        return
    unanswerable = [c for c in cases if c.expected_behaviour == "not_found"]
    if unanswerable:
        assert "unanswerable_reason" not in summary
    else:
        reason = summary["unanswerable_reason"]
        assert reason.startswith("no unanswerable question: ")
        assert "frame" in reason and "term" in reason  # each kind says what it had to work with


def test_the_reason_names_the_mix_when_the_mix_leaves_unanswerable_out(tmp_path) -> None:
    documents, _ = load_folder(write_corpus("bank_en", tmp_path))
    _, summary = generate_questions(chunk(documents), n=10, seed=0, documents=documents, mix={"simple": 1})
    assert summary["unanswerable_reason"] == "no unanswerable question: --mix names no 'unanswerable' share"


# ---------------------------------------------------------------- one sentence splitter

def test_the_generator_and_the_judge_split_sentences_alike() -> None:
    from ragauge.generate.chunking import Chunk
    from ragauge.generate.questions.facts import sentences
    from ragauge.judges.offline.text import split_sentences

    text = ("Personal training is available for an additional fee of 15%.\nData protection\nWe never share member "
            "data. Lockers are emptied every 24 hours.")
    c = Chunk(id="a#1", doc_id="a", text=text, start=0, end=len(text), section=(), kind="text", ordinal=0, title="t")
    assert list(sentences(c)) == [s.text for s in split_sentences(text)] == [
        "Personal training is available for an additional fee of 15%.", "Data protection",
        "We never share member data.", "Lockers are emptied every 24 hours."]


def test_a_wrapped_line_ending_in_a_short_word_is_not_a_heading() -> None:
    from ragauge.text.sentences import split_sentences

    text = "Договор заключается между ООО «Ромашка» и\nИП Иванов на один год."
    assert [s.text for s in split_sentences(text, "ru")] == [text]
