"""Judge bias at equal human rating (stats/bias.py): partial correlation, bootstrap CI, verdict, lexicons."""

from __future__ import annotations

import numpy as np
import pytest

from ragauge.stats.bias import assertiveness, bias_verdict, judge_bias, partial_correlation, word_count


def test_partial_correlation_hand_worked():
    # x = judge, y = feature, z = human. Centered: x (-1.5, -.5, .5, 1.5), y (-.5, -1.5, 1.5, .5),
    # z (-.5, -.5, .5, .5). r_xy = 3/5 = 0.6, r_xz = 2/sqrt(5), r_yz = 2/sqrt(5);
    # r_xy.z = (0.6 - 4/5) / sqrt((1 - 4/5)(1 - 4/5)) = -0.2 / 0.2 = -1: inside each human level the judge
    # scores the larger feature lower, although overall judge and feature correlate at +0.6.
    assert partial_correlation([1, 2, 3, 4], [2, 1, 4, 3], [1, 1, 2, 2], method="pearson") == pytest.approx(-1.0)
    # a non-degenerate case: x (1,2,3,4,5), y (2,1,4,3,6), z (1,1,2,3,3)
    # centered x (-2,-1,0,1,2), y (-1.2,-2.2,.8,-.2,2.8), z (-1,-1,0,1,1): Sxx 10, Syy 14.8, Szz 4, Sxy 10,
    # Sxz 6, Syz 6 -> r_xy = 10/sqrt(148) = .8220, r_xz = 6/sqrt(40) = .9487, r_yz = 6/sqrt(59.2) = .7798;
    # (.8220 - .9487 * .7798) / sqrt((1 - .9)(1 - .6081)) = .0822 / .1980 = .4152
    r = partial_correlation([1, 2, 3, 4, 5], [2, 1, 4, 3, 6], [1, 1, 2, 3, 3], method="pearson")
    assert r == pytest.approx(0.4152, abs=1e-3)


def test_partial_correlation_equals_correlation_of_residuals():
    rng = np.random.default_rng(3)
    z = rng.integers(1, 6, 60).astype(float)
    y = rng.normal(size=60) + z
    x = 0.3 * y + z + rng.normal(size=60)
    design = np.column_stack([np.ones_like(z), z])
    rx = x - design @ np.linalg.lstsq(design, x, rcond=None)[0]
    ry = y - design @ np.linalg.lstsq(design, y, rcond=None)[0]
    assert partial_correlation(x, y, z, method="pearson") == pytest.approx(np.corrcoef(rx, ry)[0, 1])


def test_spearman_partial_ignores_one_huge_answer():
    x, z = [0.2, 0.4, 0.6, 0.8, 0.9], [1, 2, 2, 3, 4]
    assert partial_correlation(x, [10, 20, 30, 40, 50], z) == partial_correlation(x, [10, 20, 30, 40, 50_000], z)


def test_undefined_is_none_not_nan():
    assert partial_correlation([1, 2], [1, 2], [1, 2]) is None
    assert partial_correlation([1, 1, 1, 1], [1, 2, 3, 4], [1, 2, 1, 2]) is None
    r = judge_bias([0.5] * 10, list(range(10)), [1, 2] * 5, name="length")
    assert r.estimate is None and r.verdict == "undetermined" and "undetermined" in bias_verdict(r)


def _rated(n=150, length_effect=0.0, seed=0):
    rng = np.random.default_rng(seed)
    human = rng.integers(1, 6, n).astype(float)
    length = rng.integers(5, 300, n).astype(float)
    judge = np.clip(human / 5 + length_effect * length / 300 + rng.normal(0, 0.08, n), 0, 1)
    return judge, length, human


def test_a_judge_that_rewards_length_is_caught():
    judge, length, human = _rated(length_effect=0.25)
    r = judge_bias(judge, length, human, name="length", seed=1)
    assert r.verdict == "favours more" and r.ci is not None and r.ci.low > 0
    assert "longer answers higher" in bias_verdict(r)


def test_a_fair_judge_is_cleared_and_the_ci_is_seeded():
    judge, length, human = _rated(length_effect=0.0)
    a = judge_bias(judge, length, human, name="length", seed=7)
    b = judge_bias(judge, length, human, name="length", seed=7)
    assert a.verdict == "no detectable bias" and a.ci.low < 0 < a.ci.high
    assert a == b
    assert "no detectable bias" in bias_verdict(a)


def test_longer_answers_scored_higher_only_because_humans_liked_them_is_not_bias():
    rng = np.random.default_rng(5)
    human = rng.integers(1, 6, 200).astype(float)
    length = human * 40 + rng.normal(0, 10, 200)  # better answers are longer ...
    judge = human / 5 + rng.normal(0, 0.05, 200)  # ... and the judge follows the humans only
    assert np.corrcoef(judge, length)[0, 1] > 0.8  # the naive check would cry bias
    assert judge_bias(judge, length, human, name="length").verdict == "no detectable bias"


def test_word_count_and_assertiveness_in_both_languages():
    assert word_count("Срок — 10 рабочих дней.") == 4
    assert assertiveness("The warranty is definitely two years, always.") == pytest.approx(100 * 2 / 7)
    assert assertiveness("It may perhaps be two years.") == pytest.approx(-100 * 2 / 6)
    assert assertiveness("Гарантия безусловно 15 лет.") == pytest.approx(25.0)
    assert assertiveness("Скорее всего, примерно 15 лет.") == pytest.approx(-100 * 2 / 5)
    assert assertiveness("") == 0.0
    # a phrase counts once, not once per word inside it; a word inside another word does not count
    assert assertiveness("может быть") == pytest.approx(-50.0)
    assert assertiveness("mayor maybe") == 0.0
