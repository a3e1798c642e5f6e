"""results.json ``usage``: what a paying judge spent, or null; every request names the metrics it serves."""

from __future__ import annotations

import json

import ragauge
from ragauge.engine.results import read_results
from ragauge.engine.summary import usage_lines
from ragauge.judges.requests import Refusal, Reply
from ragauge.judges.types import Provenance

ROWS = [{"id": "a", "question": "q", "answer": "x", "retrieved_ids": ["d1", "d2"], "relevant_ids": ["d2"]}]


def test_no_paying_judge_means_null_usage_and_no_summary_lines(tmp_path):
    res = ragauge.evaluate(ROWS, metrics=["mrr"], profile=None, judge=None, n_resamples=50)
    doc = json.loads(res.to_json())
    assert "usage" in doc and doc["usage"] is None and usage_lines(doc["usage"]) == []
    (tmp_path / "results.json").write_text(res.to_json(), encoding="utf-8")
    assert read_results(tmp_path)[0]["usage"] is None




class CountingJudge:
    """A judge that speaks requests itself and records which metrics each request serves."""

    name = "counting"

    def __init__(self) -> None:
        self.seen: list[tuple[str, tuple[str, ...]]] = []

    def usage_report(self):
        return {"judge": "counting", "model": "m", "total": {"calls": len(self.seen), "cached": 0,
                "prompt_tokens": 0, "completion_tokens": 0, "cost_usd": None}, "by_metric": {}, "shared": {},
                "seen": [[w, list(m)] for w, m in self.seen]}

    def provenance(self):
        return Provenance("counting", "m", "0")

    def answer(self, requests):
        out = []
        for r in requests:
            self.seen.append((type(r).__name__, r.metrics))
            out.append(Reply(False) if isinstance(r, Refusal) else Reply({"score": 0.5}, via="score"))
        return out


def test_every_request_names_the_metrics_it_serves_and_usage_is_written():
    judge = CountingJudge()
    rows = [{"id": "a", "question": "What?", "answer": "This.", "reference": "That."}]
    res = ragauge.evaluate(rows, metrics=["answer_relevancy"], profile=None, judge=judge, n_resamples=50)
    assert judge.seen == [("Refusal", ("answer_relevancy",)), ("Relevance", ("answer_relevancy",))]
    assert res.to_dict()["usage"]["seen"] == [["Refusal", ["answer_relevancy"]], ["Relevance", ["answer_relevancy"]]]
    assert res.columns["answer_relevancy"].values == [0.5]
