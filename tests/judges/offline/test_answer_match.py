"""Answer vs reference agreement (answer correctness), with the real offline models; facts and kopecks."""

import doctest

import pytest

from ragauge.judges.offline import answer_match as agreement, claims
from ragauge.judges.offline.claims import Claim, extract_claims, extract_facts, split_facts
from ragauge.judges.offline.numbers import compare_quantities
from ragauge.judges.offline.quantities import extract_quantities
from ragauge.judges.types import CONTRADICTED, SUPPORTED


def _facts(text):
    return [f.text for f in split_facts(Claim(text, 0, len(text)))]


@pytest.mark.parametrize("text, facts", [
    ("14° (для гибкой черепицы — 12°).", ["14°", "для гибкой черепицы — 12°"]),
    ("36 месяцев с даты подписания акта (на кровельные работы — 60 месяцев).",
     ["36 месяцев с даты подписания акта", "на кровельные работы — 60 месяцев"]),
    ("На кровельные работы гарантия 5 лет, на отделочные — 3 года.", ["На кровельные работы гарантия 5 лет", "на отделочные — 3 года."]),
    # a piece without its own number stays with the fact before it; an arithmetic bracket has no words
    ("машинная — 806 руб./м² (620 × 1,3), без стоимости материалов", ["машинная — 806 руб./м² (620 × 1,3), без стоимости материалов"]),
    ("Born on April 3, 1971 in Ohio", ["Born on April 3, 1971 in Ohio"]),
    ("Монтаж кровли, демонтаж и вывоз мусора.", ["Монтаж кровли, демонтаж и вывоз мусора."]),
])
def test_split_facts(text, facts):
    assert _facts(text) == facts


def test_fact_offsets_point_into_the_text():
    text = "Да: 980 руб./м² в редакции от 01.09.2025, 1 150 руб./м² в редакции от 01.03.2026 (рост на 170 руб., около 17 %)."
    facts = extract_facts(text, lang="ru")
    assert len(facts) == 3
    assert all(text[f.start:f.end] == f.text for f in facts)


def test_short_answer_is_one_fact_but_a_refusal_is_none():
    assert [f.text for f in extract_facts("  51 Birch Street ", lang="en")] == ["51 Birch Street"]
    assert extract_facts("I don't know.", lang="en") == []
    assert extract_facts("", lang="en") == []


def test_conjunction_split_stops_at_a_semicolon():
    ref = ("1 150 руб./м² по прайс-листу от 01.03.2026, без стоимости листов, профиля и крепежа; "
           "минимальный объём — 10 м².")
    assert [c.text for c in extract_claims(ref, lang="ru")] == [
        "1 150 руб./м² по прайс-листу от 01.03.2026, без стоимости листов, профиля и крепежа",
        "минимальный объём — 10 м².",
    ]


def test_roubles_and_kopecks_are_one_amount():
    [q] = extract_quantities("стоит 52 рубля 70 копеек за штуку", "ru")
    assert (q.value, q.unit, q.raw) == (52.7, "rub", "52 рубля 70 копеек")
    assert compare_quantities("Кирпич стоит 52 рубля 70 копеек", "Кирпич М150 — 52,70 руб. за штуку").status == "consistent"
    assert compare_quantities("Кирпич стоит 52 рубля 80 копеек", "Кирпич М150 — 52,70 руб. за штуку").status == "contradicted"
    # "3 рубля и 20 мм": no kopeck word, two quantities
    assert [q.unit for q in extract_quantities("3 рубля и 20 мм", "ru")] == ["rub", "mm"]


@pytest.fixture(scope="module")
def judge():
    from ragauge.judges.offline.judge import OfflineJudge

    return OfflineJudge()


def _agree(judge, text, other, question, lang):
    return judge.agree([(judge.facts([text], [lang])[0], other, question, lang)])[0]


def test_equivalent_forms_and_an_elliptic_reference_agree(judge):
    v = _agree(judge, "Облицовка стен ГКЛ в один слой стоит 1150 рублей за квадратный метр.",
               "1 150 руб./м² (облицовка стен ГКЛ в один слой).", "Почём обшивка стен гипсокартоном?", "ru")
    assert [x.label for x in v] == [SUPPORTED]
    assert "agrees with the other text" in v[0].reason
    # the reference leaves out what the question names ("гарантия", "отделка")
    v = _agree(judge, "Гарантия на отделочные работы — 3 года с даты подписания акта.",
               "36 месяцев с даты подписания акта.", "Какая гарантия на отделку?", "ru")
    assert [x.label for x in v] == [SUPPORTED]


@pytest.mark.parametrize("answer, reference, needle", [
    ("Аванс 20 % от цены договора.", "Аванс 30 % от цены договора в течение 5 банковских дней.", "20"),
    ("Заказчик подписывает акт в течение 5 календарных дней.", "Заказчик подписывает акт в течение 5 рабочих дней.", "5"),
    ("Кладка газоблока — 3 400 руб. за м².", "Кладка газоблока — 3 400 руб. за м³.", "3 400"),
])
def test_a_conflicting_number_is_a_contradiction(judge, answer, reference, needle):
    [v] = _agree(judge, answer, reference, "Сколько?", "ru")
    assert v.label == CONTRADICTED and needle in v.reason


def test_a_negation_flip_is_a_contradiction(judge):
    [v] = _agree(judge, "Надбавка за высоту применяется к кровельным работам.",
                 "Надбавка за высоту не применяется к кровельным работам.", "Берём доплату за высоту на крыше?", "ru")
    assert v.label == CONTRADICTED and "negation" in v.reason


def test_the_question_words_alone_do_not_make_a_claim_agree(judge):
    # HaluEval-style: the answer picks the other option named in the question
    [v] = _agree(judge, "Almost Sunrise was released earlier.", "51 Birch Street",
                 "Which documentary was released earlier, Almost Sunrise or 51 Birch Street?", "en")
    assert v.label != SUPPORTED
    [v] = _agree(judge, "The answer is 51 Birch Street.", "51 Birch Street",
                 "Which documentary was released earlier, Almost Sunrise or 51 Birch Street?", "en")
    assert v.label == SUPPORTED


def test_coverage_counts_nouns_not_free_words():
    share, missing = agreement.coverage("Боковую опалубку можно снять раньше.", ["Боковую опалубку — не ранее 2 суток."], "ru")
    assert share == 1.0 and missing == ()
    share, missing = agreement.coverage("Штукатурка потолков стоит 806 руб.", ["Стяжка пола 806 руб."], "ru")
    assert share == 0.0 and set(missing) == {"Штукатурка", "потолков"}


def test_doctests():
    assert doctest.testmod(agreement).failed == 0
    assert doctest.testmod(claims).failed == 0


@pytest.mark.parametrize("answer, reference, question", [
    ("It is 8,711.", "8,711", "How many people lived in the town in 2010?"),  # one language for both texts
    ("It is Will Traynor.", "Will Traynor", "Who is the male lead of Me Before You?"),
    ("It is The Battle of Munford.", "The Battle of Munford", "Which battle was fought in 1865?"),
])
def test_a_short_reference_restated_agrees(judge, answer, reference, question):
    [v] = _agree(judge, answer, reference, question, "en")
    assert v.label == SUPPORTED, v.reason


def test_the_other_option_of_the_question_is_a_swap(judge):
    q = "Which national park is larger, Garajonay National Park or Doñana National Park?"
    [v] = _agree(judge, "Garajonay National Park is larger.", "Doñana National Park", q, "en")
    assert v.label == CONTRADICTED and "Garajonay" in v.reason
    [v] = _agree(judge, "Doñana National Park is larger.", "Doñana National Park", q, "en")
    assert v.label == SUPPORTED


def test_a_negated_claim_does_not_agree_with_a_bare_value(judge):
    [v] = _agree(judge, "Love Me Not was not released in 2006.", "2006", "When was Love Me Not released?", "en")
    assert v.label != SUPPORTED
    # a negated comparative is a bound, not a negation
    [v] = _agree(judge, "Стяжка по утеплителю должна быть не тоньше 40 мм.", "Не менее 40 мм по теплоизоляционному слою.",
                 "Какой самый тонкий слой стяжки можно делать поверх утеплителя?", "ru")
    assert v.label == SUPPORTED, v.reason


def test_the_sole_amount_of_a_unit_is_the_counterpart(judge):
    [v] = _agree(judge, "Облицовка стен ГКЛ стоит 980 рублей за квадратный метр.",
                 "1 150 руб./м² по прайс-листу (облицовка стен ГКЛ).", "Почём обшивка стен гипсокартоном?", "ru")
    assert v.label == CONTRADICTED and "980" in v.reason and "1 150" in v.reason
