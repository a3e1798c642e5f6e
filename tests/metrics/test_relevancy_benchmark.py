"""benchmarks/ru_judge.py: its ROC-AUC, its per-group numbers and its skip (no model run here)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "ru_judge.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("ru_judge", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_roc_auc_by_ranks_with_ties(bench):
    assert bench.roc_auc([0.1, 0.4, 0.4, 0.8], [False, False, True, True]) == 0.875
    assert bench.roc_auc([0.9, 0.1], [True, False]) == 1.0
    assert bench.roc_auc([0.5, 0.5, 0.5], [True, False, True]) == 0.5
    assert bench.roc_auc([0.2, 0.3], [True, True]) is None


def test_skips_cleanly_when_the_files_are_absent(bench, tmp_path, capsys):
    assert bench.main(["--data", str(tmp_path / "missing.jsonl")]) == 0
    assert "skipped" in capsys.readouterr().out


def _meta(split, relevancy, faithful, correct, domain="hr"):
    return {"domain": domain, "split": split, "answerable": True, "relevancy": relevancy, "faithful": faithful,
            "claims": [], "correct": correct}


def test_numbers_from_an_earlier_results_file(bench, tmp_path):
    labelled = [
        ("a", _meta("dev", "direct", True, True), {"faithfulness": 1.0, "answer_relevancy": 0.9, "answer_correctness": 0.9}),
        ("b", _meta("dev", "off_topic", False, False), {"faithfulness": 0.2, "answer_relevancy": 0.3, "answer_correctness": 0.1}),
        ("c", _meta("heldout", "evasive", True, False), {"faithfulness": None, "answer_relevancy": 0.95, "answer_correctness": 0.2}),
        ("d", _meta("heldout", "direct", False, True), {"faithfulness": 0.5, "answer_relevancy": 0.8, "answer_correctness": 0.7}),
    ]
    data = tmp_path / "set.jsonl"
    data.write_text("".join(json.dumps({"id": i, "question": "q", "answer": "a", "metadata": m}) + "\n"
                            for i, m, _ in labelled), encoding="utf-8")
    samples = [{"id": i, "question": "q", "answer": "a",
                "scores": {k: v for k, v in s.items() if v is not None},
                "unscored": {"faithfulness": "no claims to check"} if s["faithfulness"] is None else {},
                "artifacts": {"answer_relevancy": {"label": "direct"}}} for i, _, s in labelled]
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"samples": samples, "summary": {}}), encoding="utf-8")
    out = tmp_path / "numbers.json"
    assert bench.main(["--data", str(data), "--results", str(results), "--json", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    everything = report["groups"]["all"]
    # relevancy, direct (0.9, 0.8) vs off-topic/evasive (0.3, 0.95): 2 of 4 pairs won
    assert everything["answer_relevancy"]["auc_direct_vs_offtopic_evasive"] == 0.5
    assert everything["answer_relevancy"]["mean_by_label"]["direct"] == pytest.approx(0.85)
    fa = everything["faithfulness"]
    assert fa["n_unscored"] == 1 and fa["unscored_reasons"] == {"no claims to check": 1}
    # scored: not faithful b (0.8), d (0.5) vs faithful a (0.0) -> 1.0; unscored c (faithful) flagged at 1.0 -> 2 of 4
    assert fa["auc_scored"] == 1.0 and fa["auc_unscored_flagged"] == 0.5
    assert everything["answer_correctness"]["auc"] == 1.0
    assert report["groups"]["dev"]["n"] == 2 and report["groups"]["domain:hr"]["n"] == 4
    assert report["relevancy_labels"]["evasive"] == {"direct": 1}
