"""What an answer does, as LLMs and people phrase a clarifying request (not only 'Уточните вопрос')."""

import pytest

from ragauge.judges.offline.behaviour import answer_behaviour


@pytest.mark.parametrize("text", [
    "Уточните, пожалуйста, о какой услуге идёт речь?",
    "Пожалуйста, уточните, какой объект вы имеете в виду.",
    "Не могли бы вы уточнить, о каком договоре речь?",
    "Чтобы ответить точно, уточните тип покрытия.",
    "Какую гарантию вы имеете в виду?",
    "Could you specify which warranty you mean?",
    "Which room type do you mean?",
    "Please specify the room type.",
])
def test_clarifying_requests(text):
    assert answer_behaviour(text) == "clarify"


@pytest.mark.parametrize("text", [
    "Монтаж стоит 1150 рублей; уточните детали у прораба.",
    "Гарантия 5 лет. Уточните у менеджера сроки монтажа.",
    "The price is 5 dollars, could you clarify the size?",
])
def test_an_answer_that_mentions_clarifying_is_an_answer(text):
    assert answer_behaviour(text) == "answer"
