"""Issue 19, sixth round: a duration asked as a deadline. «Бесплатное хранение груза на складе предоставляется в
течение 5 дней» states how long the storage lasts, not by when it is given; «за 3 дня до исследования» counts back
from an event, asked «За сколько дней до исследования …?», not «В какой срок …?». An action to be completed
within a window («рассматривается в течение 10 дней») stays a deadline. English alike. Each test of a fix fails
on the code before it."""

from __future__ import annotations

from collections import Counter

import pytest

from ragauge.generate.chunking import Chunk
from ragauge.generate.questions.prose import prose_questions

pytest.importorskip("pymorphy3", reason="Russian prose needs pymorphy3 (pip install 'ragauge[offline]')")


def _asked(text: str, lang: str = "ru") -> tuple[str, str]:
    chunk = Chunk("d#0", "d", text, ("Policy",), 0, len(text), "text", 0, "Policy")
    items = prose_questions([chunk], {chunk.id: lang}, Counter())
    assert len(items) == 1, [i.question for i in items]
    return items[0].question, items[0].kind


@pytest.mark.parametrize("sentence, question", [
    ("Бесплатное хранение груза на складе предоставляется в течение 5 дней.",
     "Как долго предоставляется бесплатное хранение груза на складе?"),
    ("Доступ к личному кабинету предоставляется в течение 12 месяцев.",
     "Как долго предоставляется доступ к личному кабинету?"),
    ("Клиентам предоставляется бесплатное хранение в течение 5 дней.",
     "Как долго клиентам предоставляется бесплатное хранение?"),
    ("Бронь сохраняется в течение 24 часов.", "Как долго сохраняется бронь?"),
    ("Предложение действует в течение 3 дней.", "Как долго действует предложение?"),
])
def test_a_state_granted_for_a_time_is_a_duration(sentence: str, question: str) -> None:
    assert _asked(sentence) == (question, "duration")


@pytest.mark.parametrize("sentence, question", [
    ("Заявление рассматривается в течение 10 рабочих дней.", "В какой срок рассматривается заявление?"),
    ("Пособие выплачивается в течение 10 дней.", "В какой срок выплачивается пособие?"),
    ("Справка предоставляется в течение 3 рабочих дней.", "В какой срок предоставляется справка?"),
    ("Ответ на обращение предоставляется в течение 30 дней.", "В какой срок предоставляется ответ на обращение?"),
    ("Компенсация предоставляется в течение 10 дней после подачи заявления.",
     "В какой срок предоставляется компенсация?"),
    ("Уведомление направляется не позднее чем за 2 месяца до увольнения.",  # «не позднее»: a deadline, asked
     "За сколько месяцев до увольнения нужно направить уведомление?"),  # as a lead time since round 9
])
def test_an_action_to_complete_within_a_window_stays_a_deadline(sentence: str, question: str) -> None:
    assert _asked(sentence) == (question, "deadline")


@pytest.mark.parametrize("sentence, question", [
    ("Подготовка к УЗИ брюшной полости начинается за 3 дня до исследования.",
     "За сколько дней до исследования начинается подготовка к УЗИ брюшной полости?"),
    ("Запись на приём открывается за 14 дней до даты приёма.",
     "За сколько дней до даты приёма открывается запись на приём?"),
    ("Заявка подаётся за 2 рабочих дня до выезда, если нужен пропуск.",
     "За сколько рабочих дней до выезда подаётся заявка?"),
])
def test_a_count_back_from_an_event_is_asked_with_the_event(sentence: str, question: str) -> None:
    assert _asked(sentence) == (question, "deadline")


def test_an_event_that_refers_back_keeps_the_deadline_question() -> None:
    # «до его начала»: the question could not say to what, so it leaves the event out; a lead time («не позднее чем
    # за») is asked «За сколько дней …» since round 9 (it was «В какой срок руководителю подаётся заявление …?»)
    assert _asked("Заявление на отпуск подаётся руководителю не позднее чем за 14 календарных дней до его "
                  "начала.") == ("За сколько дней нужно подать руководителю заявление на отпуск?", "deadline")


@pytest.mark.parametrize("sentence, question, kind", [
    ("Preparation starts 3 days before the examination.",
     "How many days before the examination does preparation start?", "deadline"),
    ("Free storage is provided for 5 days.", "How long is free storage provided?", "duration"),
    ("Applications are reviewed within 10 working days.", "How soon are applications reviewed?", "deadline"),
])
def test_english_durations_and_count_backs(sentence: str, question: str, kind: str) -> None:
    assert _asked(sentence, "en") == (question, kind)
