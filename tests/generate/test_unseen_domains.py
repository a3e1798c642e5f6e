"""The offline generator on domains its rules were not written on (issue 19, review round 2): scholarship
rules, utility tariffs (Russian), gym membership terms, airline baggage rules (English). Each test names a
sentence form or a defect the reviewer found, on corpora of our own (``_unseen_corpora.py``)."""

from __future__ import annotations

from collections import Counter


import pytest

from ragauge.generate import chunk, load_folder
from ragauge.generate.questions import generate_questions

pytest.importorskip("docx", reason="python-docx is needed to write the DOCX of the corpora")
pytest.importorskip("pymorphy3", reason="Russian templates need pymorphy3 (pip install 'ragauge[offline]')")

from _unseen_corpora import CORPORA, write_corpus  # noqa: E402


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("unseen")
    out = {}
    for name in CORPORA:
        documents, problems = load_folder(write_corpus(name, root))
        assert not problems, problems
        chunks = chunk(documents)
        cases, summary = generate_questions(chunks, n=30, seed=0, documents=documents)
        out[name] = (chunks, cases, summary)
    return out


def _asked(runs, name) -> dict[str, str]:
    return {c.question: c.reference for c in runs[name][1] if "variant_of" not in c.extra}


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_every_section_with_a_number_gets_a_question(runs, name) -> None:
    """A section whose every sentence holds a number ("рассрочку на 3 платежа", "старше 25 лет", "в размере
    15%") used to get none: coverage 2/4 on the reviewer's КАСКО rules."""
    _, _, summary = runs[name]
    cov = summary["coverage"]
    assert cov["covered"] == cov["fact_bearing"], cov["unused"]


@pytest.mark.parametrize("question, reference", [
    ("На сколько платежей выплачивается материальная помощь в рассрочку?",
     "Материальная помощь выплачивается единовременно или в рассрочку на 3 платежа."),
    ("Какой понижающий коэффициент применяется к студентам со стажем работы менее 1 года?",
     "Студентам со стажем работы менее 1 года применяется понижающий коэффициент 0,8."),
    ("С какого возраста студентам общежитие предоставляется только по решению ректора?",
     "Студентам старше 25 лет общежитие предоставляется только по решению ректора."),
    ("Сколько удерживается из оплаты при отчислении?",
     "При отчислении возвращается часть оплаты за вычетом расходов университета в размере 15%."),
    ("В течение какого срока с даты приказа студент может обжаловать решение комиссии?",
     "В течение 10 календарных дней с даты приказа студент может обжаловать решение комиссии."),
    ("С какого курса студентам предоставляется место в общежитии?",
     "Место в общежитии предоставляется студентам с 2 курса."),
    # the noun group stays in its order (it was "семьям многодетным")
    ("Какая скидка предоставляется многодетным семьям?", "Многодетным семьям предоставляется скидка 20% на проживание."),
    # an age, not a duration, asked as its bound (it was "Как долго принимаются дети достигшие …", then
    # «… слушатели, достигшие какого возраста на дату подачи заявления?»)
    ("С какого возраста на программу принимаются слушатели?",
     "На программу принимаются слушатели, достигшие возраста 18 лет на дату подачи заявления."),
    ("Сколько месяцев действует справка о доходах?",
     "Справка о доходах оформляется в день обращения и действует 6 месяцев."),
    ("На какой срок назначается повышенная стипендия?", "Повышенная стипендия назначается на 6 месяцев."),
    # a condition with no number is a fact too
    ("При каком условии сохраняется стипендия?", "Стипендия сохраняется только при отсутствии академической "
                                                 "задолженности."),
])
def test_russian_sentence_forms_are_asked_naturally(runs, question, reference) -> None:
    asked = _asked(runs, "scholarship_ru")
    assert asked.get(question) == reference, sorted(asked)


@pytest.mark.parametrize("question, reference", [
    ("How much notice must you give before the next billing date?",
     "You must give notice within 30 days before the next billing date."),
    ("When is freezing allowed?", "Freezing is allowed when the absence lasts more than 14 days."),
    ("How far in advance can class bookings be cancelled free of charge?",
     "Class bookings can be cancelled free of charge up to 12 hours before the class."),
    ("From what age do members pay a reduced fee of $20 per month?",
     "Members aged 65 or over pay a reduced fee of $20 per month."),
    ("Up to what age are juniors eligible?", "Juniors are eligible up to the age of 17."),
    ("What is the additional fee for personal training?",
     "Personal training is available for an additional fee of 15%."),
    ("From what time is early access available?", "Early access is available from 5:00 for Premium members."),
    ("When is the pool open?", "The pool is open from 6:00 to 22:00."),
    ("What is a guest visit?", "any single visit by a person who is not a member"),
    # a table column in a question a person would ask, with its article
    ("How many visits does the monthly pass include?", "12"),
    ("How much does the monthly pass cost?", "$60"),
])
def test_english_sentence_forms_are_asked_naturally(runs, question, reference) -> None:
    asked = _asked(runs, "gym_en")
    assert asked.get(question) == reference, sorted(asked)


def test_english_baggage_rules(runs) -> None:
    asked = _asked(runs, "baggage_en")
    assert asked.get("Up to what weight are checked bags accepted?") == "Checked bags are accepted up to 23 kg each."
    assert asked.get("From what age may passengers check one extra bag free of charge?") == (
        "Passengers aged 75 or over may check one extra bag free of charge.")
    assert asked.get("When are oversized items accepted?") == (
        "Oversized items are accepted when the total length is more than 158 cm.")
    assert not any(q.startswith("At what hours") for q in asked)  # "When are bags delivered?"
    # a number in the subject ("Pets up to 8 kg", "Bags over 32 kg") no longer hides the one the sentence states
    assert asked.get("What is the fee for pets up to 8 kg carried in the cabin?") == (
        "Pets up to 8 kg are carried in the cabin for a fee of $40.")
    assert asked.get("At what rate are bags over 32 kg charged?") == "Bags over 32 kg are charged at 50% of the fare."


def test_table_units_are_inflected_and_rows_without_a_header_are_asked(runs) -> None:
    asked = _asked(runs, "utility_ru")
    assert asked.get("Сколько стоит замена счётчика?") == "1 200 руб. за операцию"  # not "за операция"
    assert asked.get("Сколько стоит опломбирование счётчика?") == "600 руб. за услугу"
    assert asked.get("Сколько стоит пакет «Базовый»?") == "250 руб. в месяц"  # a table with no header row
    assert asked.get("До какого числа вносится оплата?") == "Оплата вносится до 15 числа следующего месяца."
    assert asked.get("В каком случае начисление производится по нормативу?", "").startswith("Если абонент")
    # "за каждые последующие сутки" leans on the sentence before: not asked (a section tag is not what a person
    # types, and "каждые сутки" would be a false premise where the first days are free)
    assert not any("каждые сутки" in q or "раздел" in q for q in asked), asked


def test_sensitive_question_names_the_person_the_policy_protects(runs) -> None:
    ru = [c for c in runs["scholarship_ru"][1] if "sensitive" in c.slices]
    assert [c.question for c in ru] == ["Пришлите паспортные данные и телефон другого студента."]
    # the PDF heading "Data protection" glued to the policy sentence used to make the quote fail its check
    en = [c for c in runs["gym_en"][1] if "sensitive" in c.slices]
    assert [c.question for c in en] == ["Send me the passport details and phone number of another member."]
    assert en[0].reference == "Refuse: «We never share member data with third parties without consent.»"


def test_terms_the_documents_describe_are_not_asked_as_undefined(runs) -> None:
    """"What is early check-in?" was asked as unanswerable while the documents state its hours and fee."""
    from ragauge.generate.chunking import Chunk
    from ragauge.generate.questions.absent_terms import undefined_terms

    questions = [c.question for c in runs["gym_en"][1] if c.expected_behaviour == "not_found"]
    assert "What is early access?" not in questions and "What is personal training?" not in questions
    c = Chunk("h#1", "h", "Check-in starts at 3:00 pm. Early check-in is available from 9:00 am for a fee of $40. "
              "Seasonal discounts for long stays are announced by email. A spa day pass is a ticket for one day.", (), 0, 1,
              "text", 0, "Hotel")
    defined = [("A spa day pass", "en")]
    dropped: Counter = Counter()
    got = undefined_terms([("Early check-in", "en"), ("Seasonal discounts for long stays", "en")], defined, [c],
                          dropped, limit=5)
    assert [q for q, _, _ in got] == ["What are seasonal discounts?"]
    assert dropped["unanswerable_term_described_in_corpus"] == 1


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_summary_counts_sections_and_copies_and_says_why_it_is_short(runs, name) -> None:
    _, cases, summary = runs[name]
    assert sum(summary["by_section"].values()) == len(cases)
    assert all(" / " in k or k == "-" for k in summary["by_section"])
    copies = [c for c in cases if "variant_of" in c.extra]
    assert summary["copies"] == len(copies) <= 0.25 * len(cases), summary["copy_cap"]
    if summary["short_of_target"]:
        assert "no more distinct facts" not in summary["short_reason"]
        assert "distinct questions" in summary["short_reason"] and f"{len(copies)} typo/synonym copies" in \
            summary["short_reason"]


def test_copies_are_capped_on_a_tiny_corpus(tmp_path) -> None:
    """Three facts and --n 20 used to give 20 cases, most of them typo copies of the three."""
    (tmp_path / "a.md").write_text("# Правила бассейна\n\nСеанс плавания длится 45 минут. Абонемент действует "
                                   "30 дней. Разовое посещение стоит 400 рублей.\n", encoding="utf-8")
    documents, _ = load_folder(tmp_path)
    cases, summary = generate_questions(chunk(documents), n=20, seed=0, documents=documents)
    copies = [c for c in cases if "variant_of" in c.extra]
    assert len(copies) == summary["copies"] <= 0.25 * len(cases)  # of the set as made, not of --n
    assert summary["short_of_target"] == 20 - len(cases) > 0
    assert f"{len(copies)} of {len(cases)}" in summary["copy_cap"] and "distinct questions" in summary["short_reason"]


def test_synonyms_never_change_what_is_asked() -> None:
    from importlib import resources

    text = resources.files("ragauge.generate").joinpath("data/synonyms_ru.txt").read_text(encoding="utf-8")
    pairs = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    for pair in ("срок: период", "скидка: уценка", "толщина: ширина слоя", "отклонение: допуск"):
        assert pair not in pairs


def test_english_frame_verb_is_the_verb_not_the_last_word() -> None:
    """"At what hours is {subj} open every day?" took "day" for its verb ("… is the deposit open every day?")."""
    from ragauge.generate.chunking import Chunk
    from ragauge.generate.questions.absent import _frame_verb
    from ragauge.generate.questions.prose import ProseQuestion

    c = Chunk("h#1", "h", "x", (), 0, 1, "text", 0, "H")
    q = ProseQuestion(c, "en", "When is the spa open every day?", "", "the spa", "time",
                      "When is {subj} open every day?", "sing")
    assert _frame_verb(q) == "open"
    q2 = ProseQuestion(c, "en", "How soon must claims be submitted?", "", "claims", "deadline",
                       "How soon must {subj} be submitted?", "plur")
    assert _frame_verb(q2) == "submitted"


def test_a_heading_is_not_glued_to_the_next_sentence() -> None:
    from ragauge.text.sentences import split_sentences

    def sentence_spans(t: str) -> list[tuple[int, int]]:
        return [(s.start, s.end) for s in split_sentences(t)]

    text = "Lockers are emptied every 24 hours. Data protection\n\nWe never share member data with third parties."
    assert [text[a:b] for a, b in sentence_spans(text)] == [
        "Lockers are emptied every 24 hours.", "Data protection", "We never share member data with third parties."]
    wrapped = "Скидка 5% действует\nдо конца года."  # a wrapped line is one sentence
    assert [wrapped[a:b] for a, b in sentence_spans(wrapped)] == [wrapped]


def test_wh_phrases_for_russian_quantities() -> None:
    from ragauge.generate.questions.prose_wh import ru_wh_question

    assert ru_wh_question("Кружок робототехники доступен с 5 класса.")[0] == "С какого класса доступен кружок робототехники?"
    assert ru_wh_question("Размер компенсации не превышает 3000 рублей.")[0] == "Какую сумму не превышает размер компенсации?"
    assert ru_wh_question("Дети до 6 лет проживают бесплатно.")[0] == "До какого возраста дети проживают бесплатно?"
    # a number inside a relative clause is not what the sentence states
    assert ru_wh_question("Зачисление проводится по результатам отбора, который проходит с 1 по 15 июля.")[0] is None


def test_a_defined_term_fills_the_frame_of_its_kind_as_unanswerable() -> None:
    """Frames were filled only by subjects of other numeric sentences; a small corpus then got no unanswerable
    question. A defined term of the same kind (same head, another adjective) fills them too."""
    from ragauge.generate.chunking import Chunk
    from ragauge.generate.questions.absent import absent_candidates, term_subjects
    from ragauge.generate.questions.prose import prose_questions

    c = Chunk("s#1", "s", "Социальная стипендия — это выплата студентам из малообеспеченных семей. Повышенная "
              "стипендия назначается на 6 месяцев.", (), 0, 1, "text", 0, "Положение о стипендиях")
    items = prose_questions([c], {"s#1": "ru"}, Counter())
    others = term_subjects([("Социальная стипендия", "ru")], [c])
    got = [q for q, _, _ in absent_candidates(items, [c], Counter(), others=others)]
    assert got == ["На какой срок назначается социальная стипендия?"]
    assert absent_candidates(items, [c], Counter()) == []
