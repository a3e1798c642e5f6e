"""Agent metrics on hand-made Russian and English samples, with the real offline judge; expected values worked out below."""

from pathlib import Path

import pytest

from ragauge.data import load
from ragauge.data.schema import Sample
from ragauge.data.tools import ExpectedTool, ToolCall
from ragauge.engine.scoring import score_columns
from ragauge.metrics.registry import parse_metrics

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "agent"
NAMES = ["tool_correctness", "argument_correctness", "task_completion"]


@pytest.fixture(scope="module")
def judge():
    from ragauge.judges.base import get_judge

    return get_judge("offline")


def run(names, samples, judge):
    out = {}
    for spec in parse_metrics(names):
        out.update(score_columns([spec], samples, judge if spec.judge else None))
    return out


def test_tool_correctness_by_hand():
    samples = [
        # expected search + book, called search + weather: 1 of 2
        Sample(id="1", tool_calls=(ToolCall("search"), ToolCall("weather")), expected_tools=(ExpectedTool("search"), ExpectedTool("book"))),
        # the right tools in the wrong order, order asked: LCS 1 of 2
        Sample(id="2", tool_calls=(ToolCall("book"), ToolCall("check")), expected_tools=(ExpectedTool("check"), ExpectedTool("book")),
               tools_ordered=True),
        # the same without the order: 2 of 2
        Sample(id="3", tool_calls=(ToolCall("book"), ToolCall("check")), expected_tools=(ExpectedTool("check"), ExpectedTool("book"))),
        Sample(id="4", question="q", expected_tools=(ExpectedTool("search"),)),  # calls not recorded
        Sample(id="5", tool_calls=()),  # no expectation
    ]
    col = run(["tool_correctness"], samples, None)["tool_correctness"]
    assert col.values == [0.5, 0.5, 1.0, None, None]
    assert col.reasons[3:] == ["no tool calls recorded", "no expected_tools"]
    assert col.artifacts[0] == {"expected": ["search", "book"], "called": ["search", "weather"], "ordered": False,
                                "missing": ["book"], "out_of_order": [], "unexpected": ["weather"]}
    # DeepEval's walk back keeps "check" (it skips an expected tool first), so "book" is the one out of order
    assert col.artifacts[1]["out_of_order"] == ["book"] and col.artifacts[1]["missing"] == []


def test_argument_correctness_against_expected_arguments(judge):
    s = Sample(id="a", question="Сколько стоит стяжка в Казани?",
               tool_calls=(ToolCall("search_prices", {"work": "стяжка пола", "city": "Москва"}),),
               expected_tools=(ExpectedTool("search_prices", {"work": "Стяжка пола", "city": "Казань"}), ExpectedTool("book", {"x": 1})))
    col = run(["argument_correctness"], [s], judge)["argument_correctness"]
    # search_prices: work agrees (case folded), city does not -> 1/2; book was never called -> 0; mean 0.25
    assert col.values == [0.25]
    rows = col.artifacts[0]["calls"]
    assert col.artifacts[0]["mode"] == "expected"
    assert rows[0]["mismatched"] == ["city"] and rows[1]["reason"] == "not called"


def test_argument_correctness_with_the_judge_when_no_arguments_are_expected(judge):
    q = "Какая погода в Москве?"
    samples = [
        Sample(id="ok", question=q, tool_calls=(ToolCall("weather", {"city": "Москва"}),), expected_tools=(ExpectedTool("weather"),)),
        # Казань is said nowhere in the conversation; the second call's id comes from the first call's result
        Sample(id="bad", question=q, tool_calls=(ToolCall("weather", {"city": "Казань"}), ToolCall("find", {"q": "Москва"}, "id 7731"),
                                                 ToolCall("details", {"id": "7731"}))),
        Sample(id="flags", question=q, tool_calls=(ToolCall("weather", {"verbose": True}),)),
        Sample(id="none", question=q, tool_calls=()),
    ]
    col = run(["argument_correctness"], samples, judge)["argument_correctness"]
    assert col.values[:2] == [1.0, pytest.approx(2 / 3)]
    assert [r["supported"] for r in col.artifacts[1]["calls"]] == [False, True, True]
    assert col.artifacts[1]["mode"] == "judge" and col.provenance["judge"] == "offline"
    assert col.reasons[2:] == ["no argument values to check", "no tool calls made and no expected arguments"]


def test_task_completion_against_the_expected_outcome(judge):
    samples = [
        Sample(id="done", question="Запишите на замер 12 марта.", answer="Вы записаны на замер 12 марта в 10:00.",
               expected_outcome="Замер назначен на 12 марта."),
        Sample(id="wrong", question="Запишите на замер 3 апреля.", answer="Вы записаны на замер 4 апреля.",
               expected_outcome="Замер назначен на 3 апреля."),
        Sample(id="declined", question="Сколько стоит стяжка?", answer="В базе нет документов, отвечающих на этот вопрос.",
               expected_outcome="Стяжка стоит 450 руб. за м²."),
        Sample(id="no-outcome", question="q", answer="a"),
    ]
    col = run(["task_completion"], samples, judge)["task_completion"]
    assert col.values == [1.0, 0.0, 0.0, None]
    assert col.reasons[3] == "no expected_outcome"
    assert col.artifacts[1]["missing"] == ["Замер назначен на 3 апреля."]
    assert col.artifacts[2] == {"refusal": True, "outcome_refusal": False}


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_bundled_example_both_languages(lang, judge):
    samples = load(EXAMPLES / f"agent_{lang}.jsonl")
    out = run(NAMES, samples, judge)
    got = {n: dict(zip((s.id.split("-", 1)[1] for s in samples), out[n].values)) for n in NAMES}
    # by hand: wrong-order books before checking (LCS 1 of 2) and books 4 April; wrong-args asks for Moscow;
    # no-call answers from memory (0 of 1 tools) with the wrong advance
    assert got["tool_correctness"] == {"price": 1.0, "book": 1.0, "wrong-order": 0.5, "wrong-args": 1.0, "docs": 1.0, "no-call": 0.0}
    assert got["argument_correctness"] == {"price": 1.0, "book": 1.0, "wrong-order": pytest.approx(5 / 6), "wrong-args": 0.5,
                                           "docs": 1.0, "no-call": None}
    assert got["task_completion"] == {"price": 1.0, "book": 1.0, "wrong-order": 0.0, "wrong-args": 0.0, "docs": 1.0, "no-call": 0.0}


def test_metrics_list_names_the_agent_metrics():
    from ragauge.metrics.registry import definitions

    agent = {d.base: d for d in definitions() if d.family == "agent"}
    assert set(agent) == set(NAMES)
    assert agent["tool_correctness"].judge is None and agent["task_completion"].judge == "any"
