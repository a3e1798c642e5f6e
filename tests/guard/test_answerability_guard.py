"""The guard grades with answerability; clarifying questions never name a question word; editions."""

from ragauge.guard import Guard
from ragauge.guard.editions import prefer_current, superseded_ids

OLD = {"id": "p25", "text": "Штукатурка стен — 560 руб. за м².", "score": 0.9,
       "metadata": {"title": "Прайс-лист, редакция от 01.09.2025"}}
NEW = {"id": "p26", "text": "Штукатурка стен — 620 руб. за м². Прайс заменяет редакцию от 01.09.2025.", "score": 0.8,
       "metadata": {"title": "Прайс-лист, редакция от 01.03.2026"}}


def test_current_edition_wins_in_the_answer():
    seen = {}

    def generate(question, contexts):
        seen["contexts"] = contexts
        return contexts[0]

    r = Guard(lambda q, f, k: [OLD, NEW], generate, score_threshold=0.5).run("Сколько стоит штукатурка стен?")
    assert r.kind == "answer" and "620" in r.text and "560" not in r.text
    assert r.stage("grade").scores["superseded_dropped"] == ["p25"]


def test_past_question_keeps_old_edition():
    assert superseded_ids([OLD, NEW]) == {"p25"}
    kept, dropped = prefer_current([OLD, NEW], "Сколько стоила штукатурка раньше?", drop=True)
    assert dropped == [] and len(kept) == 2


def test_kakova_not_named_missing_in_clarification():
    ctx = {"id": "g", "text": "Гарантийный срок на кровельные работы составляет 60 месяцев.", "score": 0.9}
    r = Guard(lambda q, f, k: [ctx], lambda q, c: c[0], score_threshold=0.5).run(
        "Какова стоимость монтажа тёплого пола?")
    assert r.kind == "clarifying_question"
    assert "Какова" not in r.text and "какова" not in r.stage("grade").scores["missing"]
