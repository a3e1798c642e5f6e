"""Issue 14: `--ragauge-profile dashbord` names the close match and the profiles, as the CLI does."""

from __future__ import annotations

from ragauge_plugin_helpers import rows, write_jsonl

TEST = """
import pytest

@pytest.mark.ragauge(data="golden.jsonl", metrics=["mrr@5"], n_resamples=200)
def test_quality(ragauge_results):
    pass
"""


def test_unknown_profile_option_did_you_mean(pytester, run):
    write_jsonl(pytester.path / "golden.jsonl", rows(6))
    pytester.makepyfile(test_rag=TEST)
    result = run("--ragauge-profile", "dashbord")
    result.assert_outcomes(errors=1)
    text = result.stdout.str()
    assert "unknown profile 'dashbord'; did you mean 'dashboard'?" in text
    assert "available: dashboard, russian-practice, starter, strict" in text and "Traceback" not in text


def test_small_sample_warning_in_the_terminal_summary_and_the_message(pytester, run):
    """Issue 14: 6 scored samples pass the dashboard's mrr@5 bar; the pass is flagged as unreliable."""
    write_jsonl(pytester.path / "golden.jsonl", rows(6))
    pytester.makepyfile(test_rag=TEST.replace("    pass", "    from ragauge.testing import assert_quality\n"
                                              "    gates = assert_quality(ragauge_results)\n"
                                              "    assert all(g.warnings for g in gates if g.status != 'skipped')"))
    result = run()
    result.assert_outcomes(passed=1)
    text = result.stdout.str()
    assert "ragauge: WARNING (" in text and "mrr@5: only 6 scored samples (fewer than 30)" in text
