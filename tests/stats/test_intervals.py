import numpy as np
import pytest

from ragauge.stats import aggregate, bootstrap_ci


def test_same_seed_same_interval_other_seed_differs():
    x = np.random.default_rng(1).random(50)
    a = bootstrap_ci(x, seed=3)
    b = bootstrap_ci(x, seed=3)
    c = bootstrap_ci(x, seed=4)
    assert (a.low, a.high) == (b.low, b.high)
    assert (a.low, a.high) != (c.low, c.high)


def test_interval_covers_the_mean_and_narrows_with_n():
    rng = np.random.default_rng(0)
    small = rng.normal(0.7, 0.15, 40)
    big = rng.normal(0.7, 0.15, 4000)
    s, b = bootstrap_ci(small), bootstrap_ci(big)
    assert s.low < small.mean() < s.high
    assert b.low < big.mean() < b.high
    assert (b.high - b.low) < (s.high - s.low) / 5
    # 40 samples with SD 0.15 give about ±0.046 (1.96 * 0.15 / sqrt(40)): the seeds' "±0.05 at 30-50"
    assert 0.03 < (s.high - s.low) / 2 < 0.06


def test_percentile_interval():
    x = np.arange(1.0, 1001.0)
    iv = bootstrap_ci(x, percentile=95)
    assert iv.low < aggregate(x, 95) < iv.high
    assert aggregate(x, 95) == pytest.approx(np.percentile(x, 95))


def test_degenerate_cases():
    assert bootstrap_ci(np.array([0.5])) is None
    assert bootstrap_ci(np.array([])) is None
    iv = bootstrap_ci(np.array([1.0, 1.0, 1.0]))
    assert iv.low == iv.high == 1.0
    with pytest.raises(ValueError):
        aggregate(np.array([]))
    with pytest.raises(ValueError):
        bootstrap_ci(np.array([1.0, 2.0]), level=1.5)


def test_large_n_is_blocked_not_exploding_memory():
    x = np.random.default_rng(0).random(200_000)
    iv = bootstrap_ci(x, n_resamples=200)
    assert iv.low < x.mean() < iv.high
