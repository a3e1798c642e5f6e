"""`ragauge calibrate` on MTRAG's human faithfulness ratings with the real offline judge.

Skips cleanly when ../shared (the shared dev data) is absent, as in a user's clone.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ragauge
from ragauge.cli.main import main

MTRAG = Path(__file__).resolve().parents[3] / "shared" / "data" / "judge" / "mtrag_dev.jsonl"


@pytest.mark.skipif(not MTRAG.is_file(), reason="../shared/data/judge/mtrag_dev.jsonl not present")
def test_offline_judge_against_mtrag_human_ratings(tmp_path, capsys):
    rows = [json.loads(line) for line in MTRAG.open(encoding="utf-8")]
    samples = [{"id": r["id"], "question": r["question"], "answer": r["answer"], "contexts": r["contexts"]}
               for r in rows]
    res = ragauge.evaluate(samples, metrics=["faithfulness"], profile=None, judge="offline")
    res.save(tmp_path / "run", formats=("json",))
    human = tmp_path / "human.jsonl"
    human.write_text("\n".join(json.dumps({"id": r["id"], "ratings": r["human_faithfulness"]}) for r in rows),
                     encoding="utf-8")
    code = main(["calibrate", str(tmp_path / "run" / "results.json"), str(human), "--human-field", "ratings",
                 "--human-scale", "1", "4", "--format", "json", "--record", str(tmp_path / "calibration.json")])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    text = json.dumps(out)
    # the report has the three correlations, the raters' own agreement and a verdict in words
    for key in ("spearman", "pearson", "kendall", "krippendorff", "verdict"):
        assert key in text.lower()
    assert res.summary["faithfulness"].n >= 90  # MTRAG answers are scorable, few unscored
    # the calibration is recorded with the judge that scored the run (for the reminder in ragauge eval)
    record = json.loads((tmp_path / "calibration.json").read_text(encoding="utf-8"))["records"][-1]
    assert record["judge"] == "offline" and record["n"] == out["counts"]["paired"]
