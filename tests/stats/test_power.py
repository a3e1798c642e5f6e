import math

import numpy as np
import pytest
from scipy import stats

from ragauge.stats.power import (
    half_width,
    mde_paired,
    n_for_difference,
    n_for_half_width,
    n_for_proportion,
    power_paired,
    rules_of_thumb,
    sd_of_differences,
    wilson_half_width,
)


def test_half_width_hand_example():
    # sd .15, h .05: normal start ceil((1.96*3)^2) = 35; t_{.975,36} * .15 / sqrt(37) = 0.05001 > .05; n = 38
    r = n_for_half_width(0.15, 0.05)
    assert r.n == 38
    assert half_width(0.15, 37) > 0.05 >= half_width(0.15, 38)
    assert half_width(0.15, 38) == pytest.approx(stats.t.ppf(0.975, 37) * 0.15 / math.sqrt(38))


def test_proportion_normal_and_wilson():
    assert n_for_proportion(0.8, 0.05, method="normal").n == 246  # 1.96^2 * .16 / .0025 = 245.9
    w = n_for_proportion(0.8, 0.05)
    assert wilson_half_width(0.8, w.n) <= 0.05 < wilson_half_width(0.8, w.n - 1)
    with pytest.raises(ValueError):
        n_for_proportion(0.8, 0.05, method="exact")


def test_difference_matches_normal_formula_plus_t_correction():
    r = n_for_difference(0.05, 0.15)
    z = (stats.norm.ppf(0.975) + stats.norm.ppf(0.8)) * 3
    assert math.ceil(z * z) <= r.n <= math.ceil(z * z) + 3
    assert power_paired(0.05, 0.15, r.n) >= 0.8 > power_paired(0.05, 0.15, r.n - 1)
    assert n_for_difference(0.05, sd=0.15, correlation=0.5).n == r.n
    assert sd_of_differences(0.15, correlation=0.0) == pytest.approx(0.15 * math.sqrt(2))


def test_power_matches_simulation_of_t_test():
    rng = np.random.default_rng(0)
    n = 30
    d = rng.normal(0.08, 0.2, (4000, n))
    sim = np.mean(stats.ttest_1samp(d, 0, axis=1).pvalue <= 0.05)
    assert power_paired(0.08, 0.2, n) == pytest.approx(sim, abs=0.025)


def test_mde_inverts_power():
    m = mde_paired(0.15, 73)
    assert power_paired(m, 0.15, 73) == pytest.approx(0.8, abs=1e-6)
    assert m == pytest.approx(0.05, abs=0.001)
    assert mde_paired(0.0, 10) is None and mde_paired(0.1, 1) is None


def test_rules_of_thumb_state_when_they_hold():
    rules = {r.claims_n: r for r in rules_of_thumb()}
    assert 30 <= rules["30-50"].check.n <= 50 and "0.15" in rules["30-50"].holds_when
    assert rules["85+"].check.n == 85
    assert 230 <= rules["~250"].check.n <= 260 and "0.8" in rules["~250"].holds_when


def test_bad_inputs():
    for call in (lambda: n_for_half_width(0, 0.05), lambda: n_for_half_width(0.1, -1),
                 lambda: n_for_difference(0.05), lambda: n_for_difference(0.05, 0.1, power=1.2)):
        with pytest.raises(ValueError):
            call()
