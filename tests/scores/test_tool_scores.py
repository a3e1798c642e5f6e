"""DeepEval's tool-use formulas, worked by hand."""

import pytest

from ragauge.scores.agent import argument_match, best_argument_matches, lcs_pairs, tool_correctness, values_equal


def test_unordered_counts_each_expected_tool_once():
    # expected search twice, called once: 1 of 2 matched; book called but not expected: no effect
    assert tool_correctness(["search", "search"], ["search", "book"]) == 0.5
    assert tool_correctness(["search", "book"], ["book", "search"]) == 1.0
    assert tool_correctness(["a", "b", "c"], []) == 0.0


def test_ordered_is_longest_common_subsequence_over_expected():
    # expected a b c d, called b a c d: LCS a c d (or b c d) = 3 -> 3/4
    assert tool_correctness(list("abcd"), list("bacd"), ordered=True) == 0.75
    assert tool_correctness(list("abcd"), list("bacd")) == 1.0  # the same calls, order not asked
    assert lcs_pairs(["check", "book"], ["book", "check"]) in ([(0, 1)], [(1, 0)])


def test_no_expected_tool_means_no_tool_should_be_called():
    assert tool_correctness([], []) == 1.0
    assert tool_correctness([], ["search"]) == 0.0
    assert tool_correctness([], ["search"], ordered=True) == 0.0


def test_argument_match_is_the_share_of_argument_names_that_agree():
    # union {city, days, units}: city equal after case folding, days "3" == 3, units only given -> 2/3
    assert argument_match({"city": "Москва", "days": 3}, {"city": "москва", "days": "3", "units": "C"}) == pytest.approx(2 / 3)
    assert argument_match({}, {}) == 1.0
    assert argument_match({"a": 1}, {}) == 0.0
    # a nested object counts by its own share: {"from": equal, "to": differs} -> 0.5 of one of two names
    assert argument_match({"range": {"from": 1, "to": 5}, "q": "x"}, {"range": {"from": 1, "to": 6}, "q": "x"}) == 0.75
    assert values_equal(["a", 2], ["A", "2.0"]) and not values_equal("2026-03-12", "12.03.2026")


def test_best_match_takes_each_call_once():
    found = best_argument_matches([("s", {"q": "a"}), ("s", {"q": "b"}), ("s", {"q": "c"})],
                                  [("s", {"q": "b"}), ("s", {"q": "a"}), ("t", {"q": "c"})])
    assert found == [(1, 1.0), (0, 1.0), (None, 0.0)]
