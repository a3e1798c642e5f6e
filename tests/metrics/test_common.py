"""Invariants every registered metric must keep (like scikit-learn's metrics/tests/test_common.py)."""

import random

import pytest

from ragauge.data.schema import Context, Sample
from ragauge.metrics.registry import compute_function, definitions, parse_metric


def _bind(d):
    return d.bind(3 if d.param == "k" else 90 if d.param == "percentile" else None)


SPECS = [_bind(d) for d in definitions()]


def _random_samples(n=60, seed=0):
    rng = random.Random(seed)
    docs = [f"d{i}" for i in range(12)]
    out = []
    for i in range(n):
        ranking = rng.sample(docs, rng.randint(0, 8))
        rel = {d: rng.choice([-1, 0, 1, 1, 2, 3]) for d in rng.sample(docs, rng.randint(0, 5))}
        kind = rng.random()
        out.append(Sample(
            id=f"s{i}", question=f"q{i}", answer="a",
            contexts=tuple(Context(text=f"text {d}", id=d) for d in ranking),
            retrieved_ids=tuple(ranking) if kind < 0.8 else None,
            relevant_ids=rel if kind > 0.1 else None,
            latency_ms=rng.uniform(100, 5000) if kind < 0.9 else None,
            retrieval_ms=rng.uniform(10, 400), ttft_ms=rng.uniform(50, 900),
        ))
    return out


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_values_in_range_and_unscored_have_reasons(spec):
    samples = _random_samples()
    col = compute_function(spec.family)([spec], samples)[spec.name]
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
def test_sample_order_does_not_change_per_sample_values(spec):
    samples = _random_samples()
    fn = compute_function(spec.family)
    base = dict(zip((s.id for s in samples), fn([spec], samples)[spec.name].values))
    shuffled = samples[:]
    random.Random(5).shuffle(shuffled)
    again = dict(zip((s.id for s in shuffled), fn([spec], shuffled)[spec.name].values))
    assert base == again


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_missing_required_field_is_unscored_not_zero(spec):
    s = Sample(id="x", question="q")  # nothing but the question
    col = compute_function(spec.family)([spec], [s])[spec.name]
    assert col.values == [None]
    assert any(field.split("_")[0] in col.reasons[0] for field in spec.requires)


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_spec_round_trip(spec):
    assert parse_metric(spec.name) == spec
    assert parse_metric(spec.to_dict()["name"]) == spec
