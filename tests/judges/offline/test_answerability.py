"""Answerability rules: the value type about the subject, frame words never a subject, editions."""

from ragauge.judges.offline.answerability import answerability, is_superseded

PRICE_TABLE = ("Раздел 2. Гипсокартонные работы. Наименование работ | Ед. изм. | Цена, руб.\n"
               "Облицовка стен ГКЛ в два слоя | м² | 1 480")


def test_kakova_is_never_missing():
    a = answerability("Какова стоимость облицовки стен ГКЛ в два слоя?", [PRICE_TABLE])
    assert a.score > 0.8
    assert all("какова" not in w.lower() for p in a.parts for w in p.missing)


def test_off_topic_chunk_is_not_an_answer():
    a = answerability("Сколько стоит укладка паркетной доски ёлочкой?", [PRICE_TABLE])
    assert a.score < 0.5
    assert "паркетной" in a.missing or "доски" in a.missing


def test_number_absent_from_context_lowers_score():
    ctx = ["Тариф «Базовый» (до 25 рабочих мест) — 45 000 руб. в месяц."]
    assert answerability("Сколько стоит тариф на 25 рабочих мест?", ctx).score > \
        answerability("Сколько стоит тариф на 200 рабочих мест?", ctx).score + 0.3


def test_two_part_question_half_answered_is_partial():
    a = answerability("Сколько стоит облицовка стен ГКЛ в два слоя и когда приедет бригада?", [PRICE_TABLE])
    assert 0.2 < a.score < 0.8


def test_english_question():
    ctx = ["The warranty on roofing work is 60 months from the acceptance certificate."]
    assert answerability("How long is the warranty on roofing work?", ctx).score > 0.5
    assert answerability("How long is the warranty on plastic windows?", ctx).score < 0.5


def test_superseded_edition_scores_lower():
    old = "Тарифы (редакция от 15.06.2023; утратила силу 01.04.2025). Обслуживание карты — 79 рублей в месяц."
    new = "Тарифы (редакция от 01.04.2025). Обслуживание карты — 99 рублей в месяц."
    assert is_superseded(old) and not is_superseded(new)
    q = "Сколько стоит обслуживание карты?"
    assert answerability(q, [new]).score > answerability(q, [old]).score
