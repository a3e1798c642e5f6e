"""Wilson intervals for pass rates and BCa for means in the run summaries (stats.intervals)."""

import math

import numpy as np
import pytest

from ragauge.engine.summary import CIConfig, summarise
from ragauge.metrics.column import ScoreColumn
from ragauge.metrics.registry import parse_metric
from ragauge.stats import bootstrap_ci, is_binary, metric_ci, wilson_ci


def _wilson_by_hand(k, n, z=1.959963984540054):
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


@pytest.mark.parametrize("k, n", [(8, 10), (1, 3), (45, 50), (20, 39)])
def test_wilson_matches_the_formula(k, n):
    iv = wilson_ci(k, n)
    lo, hi = _wilson_by_hand(k, n)
    assert (iv.low, iv.high) == pytest.approx((lo, hi), abs=1e-12)
    assert iv.method == "wilson" and iv.n == n


def test_wilson_published_value_and_edges():
    # 8/10: Newcombe (1998), method 3: 0.4902 to 0.9433
    iv = wilson_ci(8, 10)
    assert (round(iv.low, 4), round(iv.high, 4)) == (0.4902, 0.9433)
    zero, full = wilson_ci(0, 10), wilson_ci(10, 10)
    assert zero.low == 0.0 and 0.27 < zero.high < 0.28  # not collapsed to [0, 0] like the bootstrap
    assert full.high == 1.0 and 0.72 < full.low < 0.73
    assert wilson_ci(1, 1) is None
    with pytest.raises(ValueError):
        wilson_ci(11, 10)


def test_wilson_coverage_simulation():
    # 1,000 seeded simulations of a pass rate of 0.8 at n = 60: about 95% coverage
    rng = np.random.default_rng(12)
    covered = 0
    for _ in range(1000):
        k = int(rng.binomial(60, 0.8))
        iv = wilson_ci(k, 60)
        covered += iv.low <= 0.8 <= iv.high
    assert 0.93 <= covered / 1000 <= 0.975


def test_metric_ci_dispatch():
    binary = np.array([1.0, 0.0, 1.0, 1.0, 1.0, 0.0])
    assert is_binary(binary) and not is_binary(np.array([1.0, 0.5])) and not is_binary(np.array([]))
    assert metric_ci(binary).method == "wilson"
    x = np.random.default_rng(3).exponential(size=40)
    bca = metric_ci(x, seed=1)
    assert bca.method == "bootstrap-bca"
    pct = bootstrap_ci(x, seed=1)
    assert pct.method == "bootstrap-percentile" and (pct.low, pct.high) != (bca.low, bca.high)
    # BCa shifts right for a right-skewed mean, as it should
    assert bca.low > pct.low and bca.high > pct.high
    # percentiles: order statistics, and no interval where 40 values cannot bound a p95 from above
    assert metric_ci(x, percentile=50).method == "order statistics"
    assert metric_ci(x, percentile=95) is None
    # 0/1 values of a percentile metric (unusual) are a percentile too: Wilson is for means only
    assert metric_ci(binary, percentile=50).method == "order statistics"
    # deterministic
    assert (metric_ci(x, seed=1).low, metric_ci(x, seed=1).high) == (bca.low, bca.high)


def test_bca_falls_back_when_every_value_is_equal():
    iv = bootstrap_ci(np.full(5, 0.4), method="bca")
    assert iv.low == iv.high == pytest.approx(0.4)
    with pytest.raises(ValueError):
        bootstrap_ci(np.array([1.0, 2.0]), method="studentized")


def test_bca_coverage_simulation():
    # 300 seeded samples of n = 60 from Beta(5, 2) (mean 5/7), 500 resamples each: about 95% coverage
    rng = np.random.default_rng(5)
    true = 5 / 7
    covered = 0
    for i in range(300):
        iv = bootstrap_ci(rng.beta(5, 2, 60), method="bca", n_resamples=500, seed=i)
        covered += iv.low <= true <= iv.high
    assert 0.91 <= covered / 300 <= 0.985


def test_summaries_record_the_method():
    hit = summarise(parse_metric("hit_rate@5"), ScoreColumn([1.0, 0.0, 1.0, None], [None, None, None, "no relevant_ids"]),
                    CIConfig())
    assert hit.ci.method == "wilson" and hit.to_dict()["ci"]["method"] == "wilson"
    assert hit.ci.low == pytest.approx(_wilson_by_hand(2, 3)[0])
    ndcg = summarise(parse_metric("ndcg@5"), ScoreColumn([0.2, 0.9, 0.5, 0.7], [None] * 4), CIConfig())
    assert ndcg.ci.method.startswith("bootstrap-")
    lat = summarise(parse_metric("latency_p95"), ScoreColumn([100.0, 0.0, 1.0, 300.0], [None] * 4), CIConfig())
    assert lat.ci is None  # 4 latencies cannot bound a p95
    lat = summarise(parse_metric("latency_p50"), ScoreColumn(list(range(100, 120)), [None] * 20), CIConfig())
    assert lat.ci.method == "order statistics" and lat.ci.low <= 109.5 <= lat.ci.high


def test_quantile_interval_covers_a_high_percentile_where_the_bootstrap_does_not():
    # lognormal latencies: the order-statistic interval of p95 covers the true p95 at least 95 % of the
    # time (n = 100); a bootstrap interval of p95 cannot go beyond the sample's maximum
    from ragauge.stats import quantile_ci

    rng = np.random.default_rng(11)
    true = float(np.exp(1.6448536269514722))  # p95 of lognormal(0, 1)
    covered = sum(iv.low <= true <= iv.high for iv in (quantile_ci(rng.lognormal(size=100), 95) for _ in range(400)))
    assert covered / 400 >= 0.93
    assert quantile_ci(rng.lognormal(size=71), 95) is None and quantile_ci(rng.lognormal(size=72), 95) is not None


def test_every_value_equal_gives_a_rule_of_three_interval_not_a_point():
    iv = metric_ci(np.full(2, 0.9))
    assert iv.method == "zero spread (rule of three)" and iv.low < 0.6 and iv.high == pytest.approx(0.9 + (1 - 0.025 ** 0.5) * 0.1)
    wide, narrow = metric_ci(np.full(10, 0.9)), metric_ci(np.full(1000, 0.9))
    assert wide.low < narrow.low < 0.9 < narrow.high < wide.high
    assert metric_ci(np.full(5, 1200.0)) is None  # not a [0, 1] score: no bound can be claimed
