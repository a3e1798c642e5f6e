"""The CI of `ragauge compare` for means is the sign-flip permutation test inverted (issue 14)."""

import numpy as np
import pytest

from ragauge.stats.paired_tests import permutation_ci, permutation_test, permutation_test_and_ci


def test_issue_example_nine_pairs():
    base, new = np.zeros(9), np.array([1.0] * 4 + [0.0] * 5)
    p, method, ci = permutation_test_and_ci(base, new)
    assert p == 0.125 and method == "sign-flip permutation, exact"
    assert ci.low == 0.0 and ci.high == pytest.approx(1.0) and ci.method.endswith("(test inversion)")


@pytest.mark.parametrize("n", [6, 12, 16, 21, 60])
def test_interval_excludes_zero_exactly_when_p_is_small(n):
    rng = np.random.default_rng(n)
    for k in range(25):
        base = rng.random(n).round(1)  # rounded: many ties and zero differences
        new = (base + rng.normal(0.06, 0.2, n)).round(1)
        p, _, ci = permutation_test_and_ci(base, new, n_permutations=2000, seed=k)
        assert p == permutation_test(base, new, n_permutations=2000, seed=k)[0]
        if ci is not None:
            assert (ci.low > 0 or ci.high < 0) == (p <= 0.05), (p, ci)
            assert ci.low <= (new - base).mean() <= ci.high


def test_too_few_pairs_and_no_spread():
    assert permutation_ci(np.zeros(5), np.ones(5)) is None  # smallest p = 2/32 > 0.05: nothing rejected
    assert permutation_ci(np.zeros(1), np.ones(1)) is None
    same = np.linspace(0, 1, 30)
    ci = permutation_ci(same, same)
    assert ci.low == 0.0 and ci.high == 0.0


def test_coverage_by_simulation():
    rng = np.random.default_rng(11)
    hits = 0
    for k in range(200):
        d = rng.normal(0.05, 0.15, 40)
        ci = permutation_ci(np.zeros(40), d, n_permutations=2000, seed=k)
        hits += ci.low <= 0.05 <= ci.high
    assert 0.91 <= hits / 200 <= 0.99
