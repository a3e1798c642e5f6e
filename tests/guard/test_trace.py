"""Trace events: one per stage record plus one per result; off by default; sinks; failures contained."""

from __future__ import annotations

import asyncio
import json

import pytest

from ragauge.errors import ConfigError
from ragauge.guard import Guard
from ragauge.guard.trace import JsonlSink, ListSink, default_sink, set_default_sink


ROOF_Q = "Какая гарантия на кровельные работы?"


def echo(question, contexts):
    return contexts[0]


@pytest.fixture(autouse=True)
def _no_default_sink():
    set_default_sink(None)
    yield
    set_default_sink(None)


def test_one_event_per_stage_and_one_for_the_result(kb):
    sink = ListSink()
    result = Guard(kb.retrieve, echo, score_threshold=0.5, post_check="flag", trace=sink).run(
        ROOF_Q, request_id="req-1")
    stage_events = [e for e in sink.events if e.name == "guard.stage"]
    assert [e.stage for e in stage_events] == [s.name for s in result.stages]
    assert [e.decision for e in stage_events] == [s.decision for s in result.stages]
    last = sink.events[-1]
    assert last.name == "guard.result" and last.decision == "answer" == result.kind
    assert len(sink.events) == len(result.stages) + 1
    assert {e.request_id for e in sink.events} == {"req-1"} and result.request_id == "req-1"
    # span shape: stage spans are children of the request span
    assert all(e.parent_span_id == last.span_id for e in stage_events)
    assert len({e.span_id for e in sink.events}) == len(sink.events)
    grade = next(e for e in stage_events if e.stage == "grade")
    assert grade.thresholds == {"relevancy": 0.7, "support": 0.8}
    assert grade.scores["relevancy"] == result.stage("grade").scores["relevancy"]
    assert grade.duration_ms == pytest.approx(result.stage("grade").duration_ms, abs=0.01)
    assert next(e for e in stage_events if e.stage == "score_threshold").thresholds == {"score": 0.5}
    assert last.thresholds["score_threshold.score"] == 0.5
    assert last.timings["total"] == result.timings["total"]
    assert last.start_ns <= grade.start_ns <= grade.end_ns <= last.end_ns


def test_no_answer_decision_is_traced_with_its_reason(kb):
    kb.score_scale = 0.3
    sink = ListSink()
    result = Guard(kb.retrieve, echo, trace=sink).run(ROOF_Q)
    assert result.kind == "no_answer"
    assert sink.events[-1].decision == "no_answer"
    assert "below 0.7" in sink.events[-1].reason
    d = sink.events[-2].to_dict()
    assert d["attributes"]["ragauge.guard.stage"] == "score_threshold"
    assert d["attributes"]["ragauge.guard.decision"] == "no_answer"
    assert d["attributes"]["ragauge.guard.thresholds.score"] == 0.7
    assert len(result.request_id) == 32  # generated when not given


def test_tracing_is_off_by_default_and_default_sink_applies_at_run_time(kb):
    guard = Guard(kb.retrieve, echo, score_threshold=0.5)
    assert guard.run(ROOF_Q).request_id is None
    sink = ListSink()
    set_default_sink(sink)
    assert default_sink() is sink
    guard.run(ROOF_Q)
    assert sink.events and sink.events[-1].name == "guard.result"
    n = len(sink.events)
    Guard(kb.retrieve, echo, score_threshold=0.5, trace=False).run(ROOF_Q)  # explicitly off
    assert len(sink.events) == n


def test_jsonl_sink_writes_span_shaped_lines(kb, tmp_path):
    path = tmp_path / "sub" / "trace.jsonl"
    Guard(kb.retrieve, echo, score_threshold=0.5, trace=str(path)).run(ROOF_Q, request_id="abc")
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 8  # 7 stages + result
    assert {line["trace_id"] for line in lines} == {"abc"}
    assert lines[-1]["name"] == "guard.result" and lines[-1]["parent_span_id"] is None
    assert lines[0]["start_time_unix_nano"] <= lines[0]["end_time_unix_nano"]
    assert lines[-1]["status"] == {"code": "OK"}
    assert "ragauge.guard.timings_ms.guard_overhead" in lines[-1]["attributes"]
    with pytest.raises(ConfigError, match="is a directory"):
        JsonlSink(tmp_path)


def test_async_run_traces_too(kb):
    sink = ListSink()

    async def generate(question, contexts):
        return contexts[0]

    result = asyncio.run(Guard(kb.retrieve, generate, score_threshold=0.5, trace=sink).arun(ROOF_Q))
    assert sink.events[-1].decision == result.kind == "answer"


def test_error_ends_the_request_span_in_error(kb):
    sink = ListSink()

    def broken(question, contexts):
        return 42

    with pytest.raises(ConfigError):
        Guard(kb.retrieve, broken, score_threshold=0.5, trace=sink).run(ROOF_Q)
    assert sink.events[-1].name == "guard.error"
    assert sink.events[-1].to_dict()["status"]["code"] == "ERROR"
    assert "ConfigError" in sink.events[-1].reason


def test_a_failing_sink_warns_and_never_fails_the_request(kb):
    calls = []

    def bad_sink(event):
        calls.append(event)
        raise OSError("disk full")

    guard = Guard(kb.retrieve, echo, score_threshold=0.5, trace=bad_sink)
    with pytest.warns(RuntimeWarning, match="disk full"):
        result = guard.run(ROOF_Q)
    assert result.kind == "answer" and len(calls) == 8


def test_bad_trace_option_is_a_config_error(kb):
    with pytest.raises(ConfigError, match="expected a callable sink"):
        Guard(kb.retrieve, echo, trace=42)
    with pytest.raises(ConfigError, match="must be a callable"):
        set_default_sink("not callable")


def test_nan_scores_serialise_as_null():
    from ragauge.guard.trace import Emitter

    sink = ListSink()
    Emitter(sink, request_id="x").stage("grade", "unscored", {"relevancy": float("nan")}, {}, "judge failed", 1.0)
    assert json.dumps(sink.events[0].to_dict(), allow_nan=False)
    assert sink.events[0].to_dict()["attributes"]["ragauge.guard.scores.relevancy"] is None


def test_module_doctests():
    import doctest

    from ragauge.guard import thresholds, trace

    for module in (trace, thresholds):
        assert doctest.testmod(module).failed == 0
