"""results.json ``usage``: what a paying judge spent, or null; the engine scopes each metric family."""

from __future__ import annotations

import contextlib
import json

import ragauge
from ragauge.engine.results import read_results
from ragauge.engine.summary import usage_lines
from ragauge.judges.types import Provenance

ROWS = [{"id": "a", "question": "q", "answer": "x", "retrieved_ids": ["d1", "d2"], "relevant_ids": ["d2"]}]


def test_no_paying_judge_means_null_usage_and_no_summary_lines(tmp_path):
    res = ragauge.evaluate(ROWS, metrics=["mrr"], profile=None, judge=None, n_resamples=50)
    doc = json.loads(res.to_json())
    assert "usage" in doc and doc["usage"] is None and usage_lines(doc["usage"]) == []
    (tmp_path / "results.json").write_text(res.to_json(), encoding="utf-8")
    assert read_results(tmp_path)[0]["usage"] is None


class CountingJudge:
    """A judge that records which metrics each door call was made for (the engine's ``serving`` scope)."""

    name = "counting"

    def __init__(self) -> None:
        self.scope: tuple[str, ...] = ()
        self.seen: list[tuple[str, tuple[str, ...]]] = []

    @contextlib.contextmanager
    def serving(self, metrics):
        old, self.scope = self.scope, tuple(metrics)
        try:
            yield
        finally:
            self.scope = old

    def usage_report(self):
        return {"judge": "counting", "model": "m", "total": {"calls": len(self.seen), "cached": 0,
                "prompt_tokens": 0, "completion_tokens": 0, "cost_usd": None}, "by_metric": {}, "shared": {},
                "seen": [[w, list(m)] for w, m in self.seen]}

    def provenance(self):
        return Provenance("counting", "m", "0")

    def refusals(self, texts, langs):
        return [False for _ in texts]

    def relevance(self, questions, answers):
        self.seen.append(("relevance", self.scope))
        return [0.5 for _ in answers]


def test_each_family_runs_inside_its_serving_scope_and_usage_is_written():
    judge = CountingJudge()
    rows = [{"id": "a", "question": "What?", "answer": "This."}]
    res = ragauge.evaluate(rows, metrics=["answer_relevancy"], profile=None, judge=judge, n_resamples=50)
    assert judge.seen == [("relevance", ("answer_relevancy",))]
    assert res.to_dict()["usage"]["seen"] == [["relevance", ["answer_relevancy"]]]
