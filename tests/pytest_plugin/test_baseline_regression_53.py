"""Issue 14: an unchanged system must pass its own baseline, and a real drop must fail, at n = 53.

Before the fix, `pytest --ragauge-baseline` of the very data the baseline was made from failed every metric
("not shown to be within the margin 0.02 (rule-of-three bound)"): strict non-inferiority cannot be shown
from identical runs below 149 pairs. The default comparison with a baseline is now a regression test.
"""

from __future__ import annotations

import json

from ragauge_plugin_helpers import write_jsonl

N = 53
# absolute bars at 0: only the comparison with the baseline can fail these tests
TOML = """
[profiles.guard]
k = 5
thresholds = { "ndcg@K" = ">= 0.0", "mrr@K" = ">= 0.0", "hit_rate@K" = ">= 0.0" }
"""
GATE_TEST = """
import pytest
from ragauge.testing import assert_quality

@pytest.mark.ragauge(data="golden.jsonl", metrics=["ndcg@5", "mrr@5", "hit_rate@5"], profile="guard", n_resamples=200)
def test_quality(ragauge_results):
    assert_quality(ragauge_results)
"""


def rows53(*, reverse: bool = False) -> list[dict]:
    """53 samples, ten retrieved chunks each, the relevant one at rank 1-4 (so the scores vary)."""
    out = []
    for i in range(N):
        ranking = [f"d{j}" for j in range(10)]
        if reverse:
            ranking.reverse()
        out.append({"id": f"q{i}", "question": f"Вопрос номер {i}?", "retrieved_ids": ranking,
                    "relevant_ids": [f"d{i % 4}"]})
    return out


def _baseline(pytester, run, tmp_path):
    (pytester.path / "ragauge.toml").write_text(TOML, encoding="utf-8")
    write_jsonl(pytester.path / "golden.jsonl", rows53())
    pytester.makepyfile(test_rag=GATE_TEST)
    first = run(f"--ragauge-out={tmp_path / 'base'}")
    first.assert_outcomes(passed=1)
    # beside the project: a path outside it would move pytest's rootdir (and ragauge.toml out of sight)
    (pytester.path / "base.json").write_bytes((tmp_path / "base" / "results.json").read_bytes())
    return "base.json"


def test_unchanged_system_passes_its_own_baseline_at_n53(pytester, run, tmp_path):
    base = _baseline(pytester, run, tmp_path)
    result = run("--ragauge-baseline", base, f"--ragauge-out={tmp_path / 'again'}")
    result.assert_outcomes(passed=1)
    assert result.ret == 0
    doc = json.loads((tmp_path / "again" / "results.json").read_text(encoding="utf-8"))
    assert doc["comparison"]["baseline"]["n_common"] == N


def test_every_ranking_reversed_fails_its_baseline_at_n53(pytester, run, tmp_path):
    base = _baseline(pytester, run, tmp_path)
    write_jsonl(pytester.path / "golden.jsonl", rows53(reverse=True))
    plain = run()
    plain.assert_outcomes(passed=1)  # the absolute bars (0) alone pass
    result = run("--ragauge-baseline", base)
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    assert "3 of 6 gates failed" in text
    assert "регрессия: значимо хуже базового запуска, больше чем на допуск 0,02" in text  # Russian data, Russian reason
    assert "тест на регрессию, односторонний парный t-тест" in text
