"""Agent tool-use scores (DeepEval's definitions), pure functions over names and argument dicts.

Tool correctness, with E the expected tool names and C the called ones (DeepEval's
``ToolCorrectnessMetric``, ``evaluation_params=[TOOL]``):

    unordered:  |matched(E, C)| / |E|      each expected name matched to one unused call of that name
    ordered:    LCS(E, C) / |E|            the longest common subsequence of the two name lists

    >>> tool_correctness(["search", "book"], ["search", "weather"])
    0.5
    >>> tool_correctness(["search", "book"], ["book", "search"], ordered=True)
    0.5
    >>> tool_correctness([], [])  # nothing expected, nothing called
    1.0

Departure from DeepEval, on purpose: with no expected tool (``expected_tools: []``, "answer without
tools") DeepEval returns 0 whatever was called (and divides by zero when ordered); here the score is
1 when no tool was called and 0 when one was.

Argument match of one call (DeepEval's ``_compare_dicts``): over the union K of the expected and the
given argument names, the share whose values are equal; a nested object counts by its own share:

    match(e, a) = (1/|K|) * sum_{k in K} [e[k] == a[k]]   (both empty: 1)

Values are compared after a light normalisation DeepEval does not do: strings case-folded with
runs of white space collapsed, a numeric string equal to the number it writes ("3" == 3).

    >>> argument_match({"city": "Москва", "days": 3}, {"city": "москва ", "days": "3", "units": "C"})
    0.6666666666666666
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

__all__ = ["argument_match", "best_argument_matches", "lcs_pairs", "match_names", "tool_correctness", "values_equal"]

_SPACE = re.compile(r"\s+")


def _norm(value: Any) -> Any:
    if isinstance(value, str):
        text = _SPACE.sub(" ", value).strip().casefold()
        try:
            number = float(text.replace(",", ".")) if text else None
        except ValueError:
            return text
        return number if number is not None and number == number else text
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, (list, tuple)):
        return [_norm(v) for v in value]
    return value


def values_equal(a: Any, b: Any) -> bool:
    """Equal after normalisation (module doc): ``"Москва " == "москва"``, ``"3" == 3``, ``[1, "a"] == ["1", "A"]``."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return argument_match(a, b) == 1.0
    return bool(_norm(a) == _norm(b))


def argument_match(expected: Mapping[str, Any], given: Mapping[str, Any]) -> float:
    """Share of the argument names (union of both) whose values agree; nested objects count partially."""
    keys = set(expected) | set(given)
    if not keys:
        return 1.0
    total = 0.0
    for key in keys & set(expected) & set(given):
        e, g = expected[key], given[key]
        if isinstance(e, Mapping) and isinstance(g, Mapping):
            total += argument_match(e, g)
        elif values_equal(e, g):
            total += 1.0
    return total / len(keys)


def match_names(expected: Sequence[str], called: Sequence[str]) -> list[int | None]:
    """For each expected name, the index of the first unused call with that name (``None``: not called)."""
    used: set[int] = set()
    out: list[int | None] = []
    for name in expected:
        j = next((j for j, c in enumerate(called) if c == name and j not in used), None)
        if j is not None:
            used.add(j)
        out.append(j)
    return out


def lcs_pairs(expected: Sequence[str], called: Sequence[str]) -> list[tuple[int, int]]:
    """The (expected index, call index) pairs of a longest common subsequence of the two name lists.

    >>> lcs_pairs(["a", "b", "c"], ["b", "a", "c"])
    [(0, 1), (2, 2)]
    """
    m, n = len(expected), len(called)
    dp = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            if expected[i - 1] == called[j - 1]:
                dp[i][j] = dp[i - 1][j - 1] + 1
            else:
                dp[i][j] = max(dp[i - 1][j], dp[i][j - 1])
    pairs: list[tuple[int, int]] = []
    i, j = m, n
    while i > 0 and j > 0:  # walk back as DeepEval does: skip an expected tool first, then a call
        if dp[i][j] == dp[i - 1][j]:
            i -= 1
        elif dp[i][j] == dp[i][j - 1]:
            j -= 1
        else:
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
    return pairs[::-1]


def tool_correctness(expected: Sequence[str], called: Sequence[str], *, ordered: bool = False) -> float:
    """DeepEval's tool correctness (module doc): the share of expected tools called (in order: by LCS)."""
    if not expected:
        return 0.0 if called else 1.0
    hits = len(lcs_pairs(expected, called)) if ordered else sum(j is not None for j in match_names(expected, called))
    return hits / len(expected)


def best_argument_matches(
    expected: Sequence[tuple[str, Mapping[str, Any]]], called: Sequence[tuple[str, Mapping[str, Any]]]
) -> list[tuple[int | None, float]]:
    """For each expected ``(name, arguments)``: the unused call of that name whose arguments match best,
    and that match (DeepEval's greedy pass, in the order of the expectations); ``(None, 0.0)`` when no
    call of that name is left.

    >>> best_argument_matches([("s", {"q": "a"}), ("s", {"q": "b"})], [("s", {"q": "b"}), ("s", {"q": "a"})])
    [(1, 1.0), (0, 1.0)]
    """
    used: set[int] = set()
    out: list[tuple[int | None, float]] = []
    for name, args in expected:
        best: tuple[int | None, float] = (None, 0.0)
        for j, (cname, cargs) in enumerate(called):
            if cname != name or j in used:
                continue
            score = argument_match(args, cargs)
            if best[0] is None or score > best[1]:
                best = (j, score)
        if best[0] is not None:
            used.add(best[0])
        out.append(best)
    return out
