"""A metric called without a part it needs (a cutoff k, a judge) fails with a clear error, not a traceback
from deep inside the formula, and never with a silently different value."""

import pytest

from ragauge.data.schema import Sample
from ragauge.data.tools import ExpectedTool, ToolCall
from ragauge.errors import ConfigError
from ragauge.engine.scoring import score_columns
from ragauge.metrics.registry import parse_metric
from ragauge.metrics.spec import MetricSpec

RANKED = [Sample(id="q1", question="Где купить стяжку?", retrieved_ids=("d3", "d1", "d7"), relevant_ids={"d1": 1, "d9": 1})]


@pytest.mark.parametrize("base", ["hit_rate", "recall", "precision"])
def test_a_hand_built_cutoff_metric_without_k_says_how_to_write_it(base):
    # "I made the spec myself and forgot params={'k': 5}": recall used to score the whole ranking
    # (as if there were no cutoff), precision crashed with a TypeError from float(None)
    spec = MetricSpec(name=base, base=base, family="ranking", description="")
    with pytest.raises(ConfigError, match=rf"{base}@10"):
        score_columns([spec], RANKED, None)


def test_the_parsed_cutoff_metrics_still_score():
    specs = [parse_metric(n) for n in ("hit_rate@1", "recall@2", "precision@2")]
    cols = score_columns(specs, RANKED, None)
    assert [cols[s.name].values for s in specs] == [[0.0], [0.5], [0.5]]


AGENT = [Sample(id="a", question="Какая погода в Казани?", tool_calls=(ToolCall("weather", {"city": "Казань"}),),
                expected_tools=(ExpectedTool("weather", {"city": "Казань"}),))]


@pytest.mark.parametrize("name", ["argument_correctness", "task_completion"])
def test_an_agent_judge_metric_without_a_judge_says_to_pass_one(name):
    # compute(..., judge=None) used to die with "'NoneType' object has no attribute 'provenance'"
    with pytest.raises(ConfigError, match="needs a judge"):
        score_columns([parse_metric(name)], AGENT, None)


def test_tool_correctness_needs_no_judge():
    col = score_columns([parse_metric("tool_correctness")], AGENT, None)["tool_correctness"]
    assert col.values == [1.0]
