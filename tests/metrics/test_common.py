"""Invariants every registered metric must keep (like scikit-learn's metrics/tests/test_common.py)."""

import random

import pytest

from ragauge.data.schema import Context, Sample
from ragauge.data.tools import ExpectedTool, ToolCall
from ragauge.engine.scoring import score_columns
from ragauge.metrics.registry import definitions, parse_metric


@pytest.fixture(scope="module")
def judge():
    from ragauge.judges.base import get_judge

    return get_judge("offline")


def _compute(spec, samples, judge):
    return score_columns([spec], samples, judge if spec.judge else None)[spec.name]


def _bind(d):
    return d.bind(3 if d.param == "k" else 90 if d.param == "percentile" else None)


SPECS = [_bind(d) for d in definitions()]


WORKS = ["штукатурка стен", "стяжка пола", "монтаж гипсокартона", "кладка газоблока", "окраска фасада",
         "plastering walls", "floor screed", "roof repair", "tile laying", "window installation", "демонтаж", "утепление"]


def _doc(d):
    i = int(d[1:])
    return f"Стоимость работ ({WORKS[i]}) составляет {450 + 50 * i} руб. за м². Срок выполнения {3 + i} рабочих дней."


def _random_samples(n=60, seed=0):
    rng = random.Random(seed)
    docs = [f"d{i}" for i in range(12)]
    out = []
    for i in range(n):
        ranking = rng.sample(docs, rng.randint(0, 8))
        rel = {d: rng.choice([-1, 0, 1, 1, 2, 3]) for d in rng.sample(docs, rng.randint(0, 5))}
        kind = rng.random()
        target = rng.choice(docs)
        reference = _doc(target) if kind > 0.15 else None
        answer = rng.choice([reference, _doc(rng.choice(docs)), "Не знаю.", "Сколько стоит?", None]) if reference else _doc(target)
        noisy = i % 7 == 3 and out
        agent = {}
        if i % 5 == 1:  # an agent sample: calls, expectations (with arguments or not), an expected outcome
            work = WORKS[int(target[1:])]
            calls = tuple(ToolCall(rng.choice(["search_prices", "book"]), {"work": rng.choice([work, "демонтаж"])},
                                   _doc(target)) for _ in range(rng.randint(0, 3)))
            expected = (ExpectedTool("search_prices", {"work": work} if i % 2 else None), ExpectedTool("book"))
            agent = {"tool_calls": calls, "expected_tools": expected[: rng.randint(0, 2)],
                     "tools_ordered": i % 3 == 0, "expected_outcome": reference}
        out.append(Sample(**agent,
            id=f"s{i}", question=f"Сколько стоит {WORKS[int(target[1:])]}?",
            answer=out[-1].answer if noisy else answer,
            reference=out[-1].reference if noisy else reference,
            contexts=tuple(Context(text=_doc(d), id=d) for d in ranking),
            retrieved_ids=tuple(ranking) if kind < 0.8 else None,
            relevant_ids=rel if kind > 0.1 else None,
            latency_ms=rng.uniform(100, 5000) if kind < 0.9 else None,
            retrieval_ms=rng.uniform(10, 400), ttft_ms=rng.uniform(50, 900),
            metadata=({"noise_of": out[-1].id} if noisy else {}) | ({"trusted": _doc(target)} if i % 4 == 2 else {}) | (
                {"citations": (ranking[:1] if i % 4 else ["d99"])} if i % 3 == 0 else {}) | (
                {"expected_behaviour": rng.choice(["answer", "refuse", "clarify", "not_found"])} if i % 3 == 1 else {}),
        ))
    return out


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_values_in_range_and_unscored_have_reasons(spec, judge):
    samples = _random_samples()
    col = _compute(spec, samples, judge)
    assert len(col) == len(samples)
    lo, hi = spec.range
    for v, r in zip(col.values, col.reasons):
        if v is None:
            assert r  # a reason for every unscored sample
        else:
            assert r is None
            assert lo is None or v >= lo
            assert hi is None or v <= hi
    assert col.scored().size > 0  # the random data has scorable samples for every metric


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_sample_order_does_not_change_per_sample_values(spec, judge):
    samples = _random_samples()
    base = dict(zip((s.id for s in samples), _compute(spec, samples, judge).values))
    shuffled = samples[:]
    random.Random(5).shuffle(shuffled)
    again = dict(zip((s.id for s in shuffled), _compute(spec, shuffled, judge).values))
    assert base.keys() == again.keys()
    for k in base:
        assert (base[k] is None) == (again[k] is None)
        assert base[k] is None or abs(base[k] - again[k]) < 1e-9


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_missing_required_field_is_unscored_not_zero(spec, judge):
    s = Sample(id="x", question="q")  # nothing but the question
    col = _compute(spec, [s], judge)
    assert col.values == [None]
    assert any(field.split("_")[0].split(".")[-1] in col.reasons[0] for field in spec.requires)


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_spec_round_trip(spec):
    assert parse_metric(spec.name) == spec
    assert parse_metric(spec.to_dict()["name"]) == spec
