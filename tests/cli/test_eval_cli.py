import json
import subprocess
import sys

import pytest

from ragauge.cli.main import main


def _write(path, rows):
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    return path


GOOD = [{"id": f"q{i}", "question": "вопрос", "retrieved_ids": ["a", "b"], "relevant_ids": {"a": 1, "b": 2},
         "latency_ms": 1000, "retrieval_ms": 50, "ttft_ms": 200} for i in range(10)]


def test_pass_exit_0_and_files(tmp_path, capsys):
    data = _write(tmp_path / "s.jsonl", GOOD)
    code = main(["eval", str(data), "--out", str(tmp_path / "out")])
    out = capsys.readouterr().out
    assert code == 0
    assert "PASS" in out and "hit_rate@5" in out and "report.html" in out
    doc = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    assert doc["passed"] is True and doc["source"]["path"] == str(data)


def test_gate_failure_exit_1(tmp_path, capsys):
    rows = [dict(r, retrieved_ids=["x", "y"]) for r in GOOD]
    code = main(["eval", str(_write(tmp_path / "s.jsonl", rows)), "--out", str(tmp_path / "o")])
    assert code == 1
    assert "FAIL" in capsys.readouterr().out


def test_bad_input_exit_2_with_file_and_line(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(GOOD[0]) + "\n" + '{"id": "x", "question": 5}\n', encoding="utf-8")
    code = main(["eval", str(bad), "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2
    assert str(bad) in err and "line 2" in err and "question" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "args, fragment",
    [(["--metrics", "ndgc@10"], "unknown metric 'ndgc@10'"),
     (["--profile", "nope"], "unknown profile 'nope'"),
     (["--field-map", "oops"], "THEIRS=OURS")],
)
def test_usage_errors_exit_2(tmp_path, capsys, args, fragment):
    data = _write(tmp_path / "s.jsonl", GOOD)
    assert main(["eval", str(data), "--out", str(tmp_path / "o"), *args]) == 2
    assert fragment in capsys.readouterr().err


def test_missing_file_exit_2(tmp_path, capsys):
    assert main(["eval", str(tmp_path / "nope.jsonl"), "--out", str(tmp_path / "o")]) == 2
    assert "nope.jsonl" in capsys.readouterr().err


@pytest.mark.parametrize("fmt, marker", [("json", '"schema": "ragauge.results/1"'), ("markdown", "| metric |"),
                                         ("html", "<html")])
def test_formats(tmp_path, capsys, fmt, marker):
    data = _write(tmp_path / "s.jsonl", GOOD)
    assert main(["eval", str(data), "--out", str(tmp_path / "o"), "--format", fmt, "--profile", "none",
                 "--metrics", "mrr,ndcg@10", "--lang", "en"]) == 0
    assert marker in capsys.readouterr().out


def test_field_map_and_config(tmp_path, capsys, monkeypatch):
    rows = [{"qid": r["id"], "query": r["question"], "retrieved_ids": r["retrieved_ids"],
             "relevant_ids": r["relevant_ids"]} for r in GOOD]
    data = _write(tmp_path / "s.jsonl", rows)
    (tmp_path / "ragauge.toml").write_text('profile = "mine"\n[profiles.mine]\nthresholds = { "mrr" = ">= 0.99" }\n',
                                           encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = main(["eval", str(data), "--field-map", "qid=id", "--field-map", "query=question", "--out", "o"])
    out = capsys.readouterr().out
    assert code == 0 and "mrr" in out and "профиль mine" in out  # the questions are Russian: so is the report


def test_metrics_list_and_profiles(capsys):
    assert main(["metrics", "list"]) == 0
    out = capsys.readouterr().out
    assert "ndcg@10" in out and "trec_eval" in out and "needs: retrieved_ids, relevant_ids" in out
    assert main(["profiles"]) == 0
    out = capsys.readouterr().out
    assert "dashboard" in out and "russian-practice" in out and "> 0.85" in out


def test_console_script_help_is_light():
    # `ragauge --help` must not import numpy (start-up speed)
    code = "import sys; from ragauge.cli.main import build_parser; build_parser(); print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
