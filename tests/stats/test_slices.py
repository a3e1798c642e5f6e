"""Hidden breakage statistics: a slice against the rest, one-sided, Holm-corrected (stats.slices)."""

import numpy as np
import pytest

from ragauge.stats.slices import check_slices, slice_below_test


def test_permutation_p_value_by_hand():
    # slice {0, 0} vs rest {1, 1, 1}: 1 of the C(5, 2) = 10 labellings has a sum <= 0 -> p ~ 0.1
    p, method = slice_below_test(np.zeros(2), np.ones(3), n_permutations=20_000, seed=1)
    assert p == pytest.approx(0.1, abs=0.01)
    assert method.startswith("permutation")


def test_direction_and_determinism():
    rng = np.random.default_rng(0)
    rest = rng.normal(0.8, 0.1, 50)
    low = rng.normal(0.5, 0.1, 8)
    assert slice_below_test(low, rest)[0] < 0.001
    # lower is better (latency): a slice with *higher* values is the bad one
    assert slice_below_test(low, rest, higher_is_better=False)[0] > 0.9
    assert slice_below_test(low + 1, rest, higher_is_better=False)[0] < 0.001
    assert slice_below_test(low, rest, seed=3) == slice_below_test(low, rest, seed=3)
    with pytest.raises(ValueError):
        slice_below_test(np.ones(1), rest)


def test_large_data_uses_welch():
    rng = np.random.default_rng(1)
    p, method = slice_below_test(rng.normal(0.5, 0.2, 400), rng.normal(0.6, 0.2, 5000))
    assert method.startswith("Welch") and p < 1e-6


def _data():
    rng = np.random.default_rng(7)
    values = list(np.clip(rng.normal(0.85, 0.08, 60), 0, 1))
    for i in range(10):  # plant a broken slice: samples 0..9
        values[i] = float(np.clip(rng.normal(0.45, 0.1), 0, 1))
    tags = {"broken": list(range(10)), "tiny": [20, 21, 22], "fine": list(range(30, 45))}
    return values, tags


def test_planted_broken_slice_alarms_tiny_is_too_small():
    values, tags = _data()
    values[40] = None  # unscored samples are left out of both sides
    checks = {c.slice: c for c in check_slices({"faithfulness": values}, {"faithfulness": True}, tags)}
    assert checks["broken"].status == "alarm" and checks["broken"].p_adjusted <= 0.05
    assert checks["broken"].difference < -0.3 and checks["broken"].n == 10 and checks["broken"].n_rest == 49
    assert checks["tiny"].status == "too small" and checks["tiny"].p_value is None
    assert checks["fine"].status == "ok" and checks["fine"].n == 14


def test_homogeneous_data_raises_nothing():
    rng = np.random.default_rng(2)
    cols = {m: list(rng.normal(0.8, 0.1, 80)) for m in ("a", "b", "c")}
    tags = {f"t{j}": list(range(j * 10, j * 10 + 10)) for j in range(8)}
    checks = check_slices(cols, {m: True for m in cols}, tags)
    assert len(checks) == 24 and all(c.status == "ok" for c in checks)


def test_family_wise_false_alarms_are_rare():
    # Holm controls the chance of any false alarm over the 24 slice x metric tests at 5%; over 60 seeded
    # homogeneous data sets expect about 3 runs with an alarm (allow up to 6 for Monte Carlo noise).
    tags = {f"t{j}": list(range(j * 10, j * 10 + 10)) for j in range(8)}
    runs_with_alarm = 0
    for seed in range(60):
        rng = np.random.default_rng(100 + seed)
        cols = {m: list(rng.normal(0.8, 0.1, 80)) for m in ("a", "b", "c")}
        checks = check_slices(cols, {m: True for m in cols}, tags, n_permutations=1000, seed=seed)
        runs_with_alarm += any(c.status == "alarm" for c in checks)
    assert runs_with_alarm <= 6


def test_holm_across_slices_and_metrics():
    values, tags = _data()
    one = check_slices({"m": values}, {"m": True}, {"broken": tags["broken"]})[0]
    many = check_slices({f"m{i}": values for i in range(5)}, {f"m{i}": True for i in range(5)}, tags)
    broken = [c for c in many if c.slice == "broken"]
    assert all(c.p_value == one.p_value for c in broken)  # same seed: p does not depend on the others
    assert all(c.p_adjusted >= c.p_value for c in broken)
    with pytest.raises(ValueError):
        check_slices({"m": values}, {"m": True}, tags, min_n=1)
