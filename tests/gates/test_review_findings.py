"""Review of issue 14: gates that still passed by accident, and how reports show them."""

import json
import sys

import pytest

import ragauge
import ragauge.engine.evaluate  # noqa: F401  (the module, for monkeypatching; the package exports a function)
from ragauge.cli.main import main
from ragauge.gates.profiles import Profile, Threshold
from ragauge.report.common import gate_notes
from ragauge.report.gate_text import gate_reason
from ragauge.report.markdown import render_markdown
from ragauge.report.table import render_table

EVALUATE = sys.modules["ragauge.engine.evaluate"]
NO_JUDGE = "no judge installed: pip install 'ragauge[offline]' or --judge openai:MODEL@URL"


def _judged_rows(n=40):
    """What a new user's file holds: answers that contradict their context, plus retrieval ids."""
    return [{"id": f"q{i}", "question": "How much does it cost?", "answer": "It costs 5 dollars.",
             "contexts": ["It costs 900 dollars."], "retrieved_ids": ["a", "b"], "relevant_ids": ["a"]}
            for i in range(n)]


def _retrieval_rows(n=40):
    return [{"id": f"q{i}", "question": "Сколько стоит доставка?", "retrieved_ids": ["a", "b", "c"],
             "relevant_ids": ["a"]} for i in range(n)]


def _write(path, rows):
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture
def plain_install(monkeypatch):
    """`pip install ragauge` without the [offline] extra: the offline judge is not importable."""
    monkeypatch.setattr(EVALUATE, "offline_judge_installed", lambda: False)


# --- 1. the dashboard passed on a plain install by dropping its judge metrics ---------------------------


def test_plain_install_fails_the_gated_judge_metrics_instead_of_passing(plain_install):
    res = ragauge.evaluate(_judged_rows(), profile="dashboard")
    assert not res.passed
    failed = {g.metric: g for g in res.gates if g.status == "fail"}
    assert {"faithfulness", "answer_relevancy", "toxicity"} <= set(failed)
    assert "faithfulness" not in res.summary  # nothing was measured, and the gate says so
    g = failed["faithfulness"]
    assert g.value is None and NO_JUDGE in g.reason and "a profile without judge metrics" in g.reason
    doc = res.to_dict()
    ru = gate_reason(next(x for x in doc["gates"] if x["metric"] == "faithfulness"), doc, "ru")
    assert "судья не установлен: pip install 'ragauge[offline]'" in ru and "не оценивалась" in ru
    en = gate_reason(next(x for x in doc["gates"] if x["metric"] == "faithfulness"), doc, "en", stored=False)
    assert en == g.reason  # the Russian report is rebuilt from the same record the English one stores


def test_plain_install_cli_exits_1_and_names_the_fix(plain_install, tmp_path, capsys):
    data = _write(tmp_path / "data.jsonl", _judged_rows())
    assert main(["eval", data, "--out", str(tmp_path / "o")]) == 1
    out = capsys.readouterr().out
    assert "PASS: all" not in out and "FAIL: 3 of 9 gates failed" in out and NO_JUDGE in " ".join(out.split())
    assert "add it with --metrics" not in out  # the old, wrong hint for a metric that no judge could score


def test_plain_install_retrieval_only_data_is_not_failed_for_a_missing_judge(plain_install):
    """No answers, no contexts: no judge metric could be scored anyway, so none fails for want of a judge."""
    res = ragauge.evaluate(_retrieval_rows(), profile="dashboard")
    assert res.passed and not any("no judge installed" in g.reason for g in res.gates)


def test_explicit_metrics_or_no_profile_are_not_failed_for_a_missing_judge(plain_install):
    assert ragauge.evaluate(_judged_rows(), metrics=["mrr@5", "hit_rate@5", "ndcg@5"], profile="dashboard",
                            ).gates[0].status == "pass"
    assert ragauge.evaluate(_judged_rows(), metrics=["mrr@5"], profile=None).passed


# --- 2. a profile of non_inferior gates passed forever when --baseline was forgotten ---------------------


GUARD = Profile("guard", "", 5, (Threshold(("mrr@5",), ">=", 0.5, "non_inferior"),
                                 Threshold(("hit_rate@5",), ">=", 0.5, "non_inferior")))


def test_every_gate_waiting_for_a_baseline_fails_the_run():
    res = ragauge.evaluate(_retrieval_rows(), metrics=["mrr@5", "hit_rate@5"], profile=GUARD)
    assert not res.passed
    assert [g.status for g in res.gates] == ["skipped", "skipped", "fail"]
    extra = res.gates[-1]
    assert extra.metric == "baseline given"
    assert extra.reason.startswith("these gates need a baseline: pass --baseline BASE/results.json")
    assert "mrr@5, hit_rate@5" in extra.reason
    doc = res.to_dict()
    assert gate_reason(doc["gates"][-1], doc, "en", stored=False) == extra.reason
    assert "этим порогам нужен базовый запуск: передайте --baseline" in gate_reason(doc["gates"][-1], doc, "ru")


def test_the_same_profile_passes_with_its_baseline(tmp_path):
    base = ragauge.evaluate(_retrieval_rows(), metrics=["mrr@5", "hit_rate@5"], profile=None)
    base.save(tmp_path / "base")
    res = ragauge.evaluate(_retrieval_rows(), metrics=["mrr@5", "hit_rate@5"], profile=GUARD,
                           baseline=tmp_path / "base" / "results.json")
    assert res.passed and [g.metric for g in res.gates] == ["mrr@5", "hit_rate@5"]


def test_reports_show_gates_waiting_for_a_baseline_not_as_not_evaluated():
    doc = ragauge.evaluate(_retrieval_rows(), metrics=["mrr@5", "hit_rate@5"], profile=GUARD).to_dict()
    table = render_table(doc, lang="en")
    assert "Waiting for a baseline (pass --baseline BASE/results.json): mrr@5, hit_rate@5" in table
    assert "Not evaluated in this run" not in table and "WAITING FOR A BASELINE >= 0.5" in table
    assert "FAIL: 1 of 1 gate failed: baseline given" in table or "FAIL: 1 of 1" in table
    md = render_markdown(doc, lang="en")
    assert "⏳ waiting for a baseline" in md and "not evaluated" not in md
    assert "Ждут базового запуска" in render_table(doc, lang="ru")
    assert "ждёт базового запуска" in render_markdown(doc, lang="ru")
    from ragauge.report.html import render_html

    assert render_html(dict(doc, lang="en")).count(">waiting for a baseline</span>") == 2
    assert render_html(dict(doc, lang="ru")).count(">ждёт базового запуска</span>") == 2


# --- 3. the small-sample warning named only the first metric -------------------------------------------


def test_small_sample_warning_lists_every_metric_it_applies_to():
    res = ragauge.evaluate(_retrieval_rows(5), metrics=["hit_rate@5", "mrr@5", "ndcg@5"], profile="dashboard")
    notes = [n for n in gate_notes(res.to_dict(), lang="en") if "scored samples" in n]
    assert notes == ["hit_rate@5, mrr@5, ndcg@5: only 5 scored samples (fewer than 30): too few to be reliable; "
                     "add questions (the profile's min_samples sets the bar)"]
    ru = [n for n in gate_notes(res.to_dict(), lang="ru") if "всего 5" in n]
    assert len(ru) == 1 and ru[0].startswith("hit_rate@5, mrr@5, ndcg@5: ")


# --- 7. small: "did you mean 'dashboard'?; available:" ------------------------------------------------


def test_unknown_profile_message_has_no_stray_punctuation():
    from ragauge.errors import ConfigError

    with pytest.raises(ConfigError) as info:
        ragauge.evaluate(_retrieval_rows(3), metrics=["mrr"], profile="dashbord")
    text = str(info.value)
    assert "?;" not in text
    assert "unknown profile 'dashbord'; did you mean 'dashboard'? available: dashboard, russian-practice" in text
