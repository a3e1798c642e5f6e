"""`ragauge calibrate export` -> people rate 1-5 -> `ragauge calibrate RESULTS --human sheet` (+ --bias, the record)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ragauge.cli.main import main

openpyxl = pytest.importorskip("openpyxl")

JUDGE = {"judge": "llm", "model": "gpt-4o-mini", "version": "prompts-abc123def456", "endpoint": "http://x/v1"}


def _run_files(tmp_path, *, n=60, length_bias=0.0, seed=0):
    """A results.json (faithfulness by an LLM judge, mostly high) + its samples file + the 'true' 1-5 ratings."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 6, n)
    truth[: n // 2] = 5  # most answers are good: the judge scores most of them high
    samples, rows = [], []
    for i, t in enumerate(truth):
        words = int(rng.integers(5, 80))
        answer = " ".join(["word"] * words) + "."
        if i == 0:
            answer = "=HYPERLINK(\"http://evil\",\"click\") the warranty is two years."
        score = float(np.clip((t - 1) / 4 + length_bias * words / 80 + rng.normal(0, 0.05), 0, 1))
        sid = f"q{i}"
        samples.append({"id": sid, "question": f"Question {i}?", "answer": answer,
                        "contexts": [f"Context of {i}. " * 80, "Second context."]})
        rows.append({"id": sid, "tags": [], "question": f"Question {i}?", "answer": answer, "reference": None,
                     "scores": {"faithfulness": score}, "unscored": {},
                     "artifacts": {"faithfulness": {"claims": [
                         {"text": "The warranty is two years.", "verdict": "supported", "reason": "stated in a source"},
                         {"text": "It covers parts.", "verdict": "unsupported", "reason": "not in the sources"}]}}})
    data = tmp_path / "samples.jsonl"
    data.write_text("\n".join(json.dumps(s) for s in samples), encoding="utf-8")
    doc = {"schema": "ragauge.results/1", "source": {"path": str(data), "n_samples": n},
           "metrics": [{"name": "faithfulness", "higher_is_better": True, "aggregate": "mean", "range": [0, 1]}],
           "summary": {"faithfulness": {"judge": JUDGE}}, "samples": rows}
    results = tmp_path / "results.json"
    results.write_text(json.dumps(doc), encoding="utf-8")
    return str(results), {f"q{i}": int(t) for i, t in enumerate(truth)}


def _fill(sheet, truth, *, skip=(), override=None):
    book = openpyxl.load_workbook(sheet)
    ws = book["ratings"]
    head = [c.value for c in ws[1]]
    for row in ws.iter_rows(min_row=2):
        sid = row[head.index("id")].value
        if sid in skip:
            continue
        row[head.index("human_rating")].value = (override or {}).get(sid, truth[sid])
    book.save(sheet)


def test_export_rate_and_read_back(tmp_path, capsys):
    results, truth = _run_files(tmp_path)
    sheet = tmp_path / "sheet.xlsx"
    assert main(["calibrate", "export", results, "--out", str(sheet), "--n", "20", "--seed", "3"]) == 0
    assert "wrote 20 answers" in capsys.readouterr().out
    book = openpyxl.load_workbook(sheet)
    ws = book["ratings"]
    head = [c.value for c in ws[1]]
    assert head[:7] == ["id", "metric", "question", "answer", "contexts", "human_rating", "comment"]
    ids = [r[0].value for r in ws.iter_rows(min_row=2)]
    assert len(ids) == 20 == len(set(ids))
    # stratified: the low-scoring answers (rare in this run) are in the sheet, not only the many 5s
    low = [i for i in ids if truth[i] <= 2]
    assert len(low) >= 5
    cells = {r[0].value: r for r in ws.iter_rows(min_row=2)}
    if "q0" in cells:  # a formula-looking answer stays text
        assert cells["q0"][head.index("answer")].data_type == "s"
    row = next(iter(cells.values()))
    assert row[head.index("contexts")].value.startswith("[1] Context of")
    assert len(row[head.index("contexts")].value) < 800  # shortened
    assert "+ The warranty is two years. (stated in a source)" in row[head.index("judge_reasons")].value
    about = dict((r[0].value, r[1].value) for r in book["about"].iter_rows())
    assert "1 до 5" in about["instructions (ru)"] and "1 to 5" in about["instructions (en)"]

    rated = ids[:18]
    _fill(sheet, truth, skip=set(ids[18:]))
    record = tmp_path / "calibration.json"
    assert main(["calibrate", results, "--human", str(sheet), "--format", "json", "--record", str(record)]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["human_fields"] == ["human_rating"] and rep["counts"]["paired"] == len(rated)
    assert rep["counts"]["no_rating"] == 2  # empty ratings are missing, not zero
    assert rep["correlations"]["spearman"]["estimate"] > 0.8
    saved = json.loads(record.read_text(encoding="utf-8"))["records"][-1]
    assert saved["model"] == "gpt-4o-mini" and saved["version"] == "prompts-abc123def456"
    assert saved["metric"] == "faithfulness" and saved["n"] == len(rated) and saved["date"]


def test_csv_sheet_is_neutralised_and_read_back(tmp_path, capsys):
    results, truth = _run_files(tmp_path)
    sheet = tmp_path / "sheet.csv"
    assert main(["calibrate", "export", results, "--out", str(sheet), "--n", "60", "--blind"]) == 0
    capsys.readouterr()
    text = sheet.read_text(encoding="utf-8-sig")
    assert "'=HYPERLINK" in text  # Excel shows it, does not run it
    assert "judge_score" not in text.splitlines()[0]  # --blind
    assert "1 до 5" in (tmp_path / "sheet.about.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    head = lines[0].split(";")
    k = head.index("human_rating")
    import csv
    import io

    recs = list(csv.reader(io.StringIO(text), delimiter=";"))
    for r in recs[1:]:
        r[k] = str(truth[r[0]])
    buf = io.StringIO()
    csv.writer(buf, delimiter=";").writerows(recs)
    sheet.write_text(buf.getvalue(), encoding="utf-8-sig")
    assert main(["calibrate", results, str(sheet), "--format", "json", "--no-record"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["counts"]["paired"] == 60 and rep["human_scale"] == [1.0, 5.0]


def test_a_rating_outside_1_to_5_names_the_row(tmp_path, capsys):
    results, truth = _run_files(tmp_path)
    sheet = tmp_path / "sheet.xlsx"
    assert main(["calibrate", "export", results, "--out", str(sheet), "--n", "10"]) == 0
    capsys.readouterr()
    ids = [r[0].value for r in openpyxl.load_workbook(sheet)["ratings"].iter_rows(min_row=2)]
    _fill(sheet, truth, override={ids[3]: 7})
    assert main(["calibrate", results, "--human", str(sheet), "--no-record"]) == 2
    err = capsys.readouterr().err
    assert "line 5" in err and "human_rating" in err and "outside 1-5" in err


def test_export_usage_errors(tmp_path, capsys):
    results, _ = _run_files(tmp_path)
    assert main(["calibrate", "export", results]) == 2
    assert "--out" in capsys.readouterr().err
    assert main(["calibrate", "export", results, "--out", str(tmp_path / "s.ods")]) == 2
    assert ".xlsx" in capsys.readouterr().err
    assert main(["calibrate", results]) == 2
    assert "calibrate export" in capsys.readouterr().err
    assert main(["calibrate", "export", results, "--out", str(tmp_path / "s.csv"), "--metric", "recall@5"]) == 2


@pytest.mark.parametrize("length_bias, verdict", [(0.4, "favours more"), (0.0, "no detectable bias")])
def test_bias_check_on_the_rated_sheet(tmp_path, capsys, length_bias, verdict):
    results, truth = _run_files(tmp_path, n=120, length_bias=length_bias, seed=1)
    sheet = tmp_path / "sheet.xlsx"
    assert main(["calibrate", "export", results, "--out", str(sheet), "--n", "120"]) == 0
    _fill(sheet, truth)
    capsys.readouterr()
    assert main(["calibrate", results, "--human", str(sheet), "--bias", "--no-record"]) == 0
    out = capsys.readouterr().out
    assert "bias at equal human rating" in out
    line = next(x for x in out.splitlines() if x.strip().startswith("length:"))
    assert verdict.replace("favours more", "longer answers higher") in line or verdict in line
    assert "assertiveness:" in out
