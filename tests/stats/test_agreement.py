import json
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from ragauge.stats.agreement import (
    best_threshold,
    calibration_verdict,
    cohen_kappa,
    correlations,
    krippendorff_alpha,
    ppi_mean,
    rater_ceiling,
)

MTRAG = Path("/work/shared/data/judge/mtrag_dev.jsonl")


def test_correlations_match_scipy_and_have_cis():
    rng = np.random.default_rng(0)
    x = rng.normal(size=60)
    y = x + rng.normal(size=60)
    y[:5] = np.round(y[:5])  # a few ties
    res = correlations(x, y, seed=1)
    assert res["spearman"].estimate == pytest.approx(stats.spearmanr(x, y).statistic)
    assert res["pearson"].estimate == pytest.approx(stats.pearsonr(x, y).statistic)
    assert res["kendall"].estimate == pytest.approx(stats.kendalltau(x, y).statistic)
    for r in res.values():
        assert r.ci.low < r.estimate < r.ci.high
    assert correlations(x, y, seed=1)["kendall"].ci == res["kendall"].ci  # deterministic


def test_bootstrap_kendall_rows_match_scipy_with_ties():
    from ragauge.stats.agreement import _rowwise_kendall_b, _spearman_rows

    rng = np.random.default_rng(3)
    x = rng.integers(1, 5, (5, 30)).astype(float)
    y = rng.integers(1, 5, (5, 30)).astype(float)
    for i in range(5):
        assert _rowwise_kendall_b(x[i:i + 1], y[i:i + 1])[0] == pytest.approx(stats.kendalltau(x[i], y[i]).statistic)
        assert _spearman_rows(x[i:i + 1], y[i:i + 1])[0] == pytest.approx(stats.spearmanr(x[i], y[i]).statistic)


def test_no_spread_gives_none():
    assert correlations(np.ones(10), np.arange(10.0))["spearman"].estimate is None


def test_cohen_kappa_hand_example():
    # a: 1 1 1 0 0 0 1 1 ; b: 1 1 0 0 0 1 1 1  -> agree 6/8 = .75
    # marginals a: 5/8 ones, b: 5/8 ones -> p_e = (5/8)^2 + (3/8)^2 = 34/64 ; kappa = (.75 - 34/64)/(1 - 34/64)
    a = [1, 1, 1, 0, 0, 0, 1, 1]
    b = [1, 1, 0, 0, 0, 1, 1, 1]
    k = cohen_kappa(a, b)
    assert k.observed_agreement == pytest.approx(0.75)
    assert k.expected_agreement == pytest.approx(34 / 64)
    assert k.kappa == pytest.approx((0.75 - 34 / 64) / (1 - 34 / 64))


def test_quadratic_weighted_kappa_hand_example():
    # 3 categories, pairs (1,1) (2,3) (3,3): O = diag-ish; w = ((i-j)/2)^2
    # O: (0,0)=1/3, (1,2)=1/3, (2,2)=1/3 -> sum w O = (1/4)/3 = 1/12
    # row marg (1/3,1/3,1/3), col marg (1/3,0,2/3): E_ij = r_i c_j
    # sum w E = 1/3 * [ (0*1/3 + 1*2/3) + (1/4*1/3 + 1/4*2/3) + (1*1/3 + 0) ] = 1/3 * (2/3 + 1/4 + 1/3) = 5/12
    k = cohen_kappa([1, 2, 3], [1, 3, 3], weights="quadratic", categories=[1, 2, 3])
    assert k.kappa == pytest.approx(1 - (1 / 12) / (5 / 12))  # 0.8


def test_krippendorff_hand_example_and_published_values():
    # units (1,1) (1,2) (2,2): o_11 = 2, o_12 = o_21 = 1, o_22 = 2; n_1 = n_2 = 3, n = 6
    # alpha = 1 - (n-1) * sum(o d2) / sum(n_c n_k d2) = 1 - 5 * 2 / 18 = 4/9 (any level with 2 values)
    for level in ("nominal", "ordinal", "interval"):
        assert krippendorff_alpha([[1, 1, 2], [1, 2, 2]], level=level) == pytest.approx(4 / 9)
    # Krippendorff (2011), "Computing Krippendorff's alpha-reliability", 4 observers x 12 units with gaps
    N = None
    data = [[1, 2, 3, 3, 2, 1, 4, 1, 2, N, N, N],
            [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, N, 3],
            [N, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, N],
            [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, N]]
    assert krippendorff_alpha(data, level="nominal") == pytest.approx(0.743, abs=5e-4)
    assert krippendorff_alpha(data, level="ordinal") == pytest.approx(0.815, abs=5e-4)
    assert krippendorff_alpha(data, level="interval") == pytest.approx(0.849, abs=5e-4)
    assert krippendorff_alpha([[1, 1], [1, 1]]) is None  # no variation
    assert krippendorff_alpha([[1, 2, 3], [1, 2, 3]], level="interval") == pytest.approx(1.0)


def test_best_threshold_balanced_accuracy_and_youden():
    r = best_threshold([0.1, 0.3, 0.35, 0.6, 0.8, 0.9], [0, 0, 1, 0, 1, 1])
    # cut 0.325: TPR 3/3, TNR 2/3 -> BA 5/6; cut 0.7: TPR 2/3, TNR 3/3 -> BA 5/6; tie -> lowest cut
    assert r.threshold == pytest.approx(0.325)
    assert r.balanced_accuracy == pytest.approx(5 / 6) and r.youden_j == pytest.approx(2 / 3)
    assert best_threshold([0.1, 0.2], [1, 1]).threshold is None


def test_ppi_covers_truth_while_naive_judge_does_not():
    """A judge biased by +0.1: the naive mean misses the truth; PPI with 200 human labels covers it."""
    rng = np.random.default_rng(0)
    covered_ppi = covered_naive = 0
    sims = 300
    for _ in range(sims):
        y_all = rng.beta(4, 2, 5200)  # true quality; mean 2/3
        f_all = np.clip(y_all + 0.1 + rng.normal(0, 0.05, 5200), 0, 1.2)
        r = ppi_mean(f_all[:200], y_all[:200], f_all[200:])
        covered_ppi += r.ci.low <= 2 / 3 <= r.ci.high
        covered_naive += r.judge_ci.low <= 2 / 3 <= r.judge_ci.high
        assert r.rectifier == pytest.approx(0.1, abs=0.03)
    assert 0.91 <= covered_ppi / sims <= 0.98
    assert covered_naive == 0


def test_ppi_hand_example():
    r = ppi_mean([0.9, 0.8, 0.7], [0.7, 0.6, 0.5], [0.9, 0.7, 0.8, 0.8])
    assert r.estimate == pytest.approx(0.8 - 0.2)
    # var(f_u)/N = (2 * 0.01 / 3) / 4 ; rectifier is constant -> 0
    half = 1.959964 * np.sqrt((0.02 / 3) / 4)
    assert (r.ci.low, r.ci.high) == pytest.approx((0.6 - half, 0.6 + half), abs=1e-6)
    with pytest.raises(ValueError):
        ppi_mean([0.1], [0.2], [0.3, 0.4])


def test_verdict_words():
    from ragauge.stats.agreement import CorrelationResult
    from ragauge.stats.intervals import Interval

    strong = CorrelationResult("spearman", 0.85, Interval(0.75, 0.92, 0.95, "b", 100), 0.0, 100)
    maybe = CorrelationResult("spearman", 0.74, Interval(0.6, 0.85, 0.95, "b", 100), 0.0, 100)
    weak = CorrelationResult("spearman", 0.5, Interval(0.35, 0.62, 0.95, "b", 100), 0.0, 100)
    assert calibration_verdict(strong, None)[0] == "calibrated"
    assert calibration_verdict(maybe, 0.8)[0] == "probably calibrated"
    assert calibration_verdict(weak, 0.52)[0] == "at the human ceiling"
    word, text = calibration_verdict(weak, 0.8)
    assert word == "not calibrated" and "0.7" in text


def test_rater_ceiling_perfect_raters():
    assert rater_ceiling([[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]) == pytest.approx(1.0)
    assert rater_ceiling([[1, 2, 3]]) is None


@pytest.mark.skipif(not MTRAG.is_file(), reason="shared judge data (mtrag_dev.jsonl) not present")
def test_inter_rater_agreement_on_mtrag():
    rows = [json.loads(line) for line in MTRAG.read_text(encoding="utf-8").splitlines() if line.strip()]
    width = max(len(r["human_faithfulness"]) for r in rows)
    matrix = [[(r["human_faithfulness"][k] if k < len(r["human_faithfulness"]) else None) for r in rows]
              for k in range(width)]
    ordinal = krippendorff_alpha(matrix, level="ordinal")
    interval = krippendorff_alpha(matrix, level="interval")
    nominal = krippendorff_alpha(matrix, level="nominal")
    # humans agree moderately on 1-4 faithfulness: the ceiling any judge is measured against
    assert 0.2 < ordinal < 0.9 and 0.2 < interval < 0.9
    assert nominal < ordinal  # ordinal credit for near misses
    # the given median equals the median of the ratings
    assert all(float(np.median(r["human_faithfulness"])) == float(r["human_median"]) for r in rows)
