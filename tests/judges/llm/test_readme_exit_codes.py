"""README's exit-code table is true: one test per code of ``ragauge eval`` (issue 14)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ragauge.cli.main import main
from ragauge.errors import ExitCode

README = Path(__file__).resolve().parents[3] / "README.md"
ROWS = [
    {"id": "q1", "question": "What is the warranty?", "answer": "The warranty is 3 years.",
     "contexts": ["The warranty is 3 years from the acceptance act."], "retrieved_ids": ["a", "b"],
     "relevant_ids": ["a"]},
    {"id": "q2", "question": "What is the advance?", "answer": "The advance is 30% of the price.",
     "contexts": ["The advance is 30% of the price."], "retrieved_ids": ["c", "d"], "relevant_ids": ["d"]},
]


@pytest.fixture
def data(tmp_path, monkeypatch) -> str:
    monkeypatch.setenv("RAGAUGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in ROWS) + "\n", encoding="utf-8")
    return str(path)


def _eval(data: str, tmp_path, *extra: str) -> int:
    return main(["eval", data, "--out", str(tmp_path / "out"), "-q", *extra])


def test_the_readme_table_lists_exactly_the_exit_codes():
    text = README.read_text(encoding="utf-8")
    table = text.split("### Exit codes of `ragauge eval`", 1)[1].split("\n\n", 2)[1]
    codes = [int(c) for c in re.findall(r"^\| (\d+) \|", table, flags=re.M)]
    assert codes == sorted(int(c) for c in ExitCode)


def test_0_every_gate_passed(data, tmp_path):
    assert _eval(data, tmp_path, "--metrics", "mrr@10,recall@10", "--profile", "russian-practice") == 0


def test_1_a_gate_failed(data, tmp_path):
    assert _eval(data, tmp_path, "--metrics", "mrr,hit_rate@1", "--profile", "dashboard") == 1


def test_2_bad_input(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "q1", "question": "x"\n', encoding="utf-8")
    assert _eval(str(bad), tmp_path, "--metrics", "mrr") == 2
    assert "bad.jsonl" in capsys.readouterr().err


def test_3_unreachable_judge(data, tmp_path, capsys):
    code = _eval(data, tmp_path, "--metrics", "faithfulness", "--profile", "none",
                 "--judge", "openai:m@http://127.0.0.1:1/v1")
    err = capsys.readouterr().err
    assert code == 3 and "cannot" in err and "127.0.0.1:1" in err


def test_3_a_judge_that_answers_nothing_usable(data, tmp_path, fake, capsys):
    fake.push(*[{"content": "I am not JSON at all"}] * 200)
    code = _eval(data, tmp_path, "--metrics", "faithfulness", "--profile", "none",
                 "--judge", f"openai:judge-model@{fake.url}")
    assert code == 3 and "produced no verdict" in capsys.readouterr().err
    # the message points at the raw replies in results.json: it is written (review finding)
    import json

    written = next(tmp_path.rglob("results.json"))
    doc = json.loads(written.read_text(encoding="utf-8"))
    raws = [a.get("raw_reply") for s in doc["samples"] for a in (s["artifacts"] or {}).values() if isinstance(a, dict)]
    assert any("not JSON" in (r or "") for r in raws)


def test_4_budget(data, tmp_path, fake):
    assert _eval(data, tmp_path, "--metrics", "faithfulness", "--profile", "none",
                 "--judge", f"openai:judge-model@{fake.url}", "--max-calls", "1") == 4


def test_70_internal_error(data, tmp_path, monkeypatch, capsys):
    import ragauge.engine

    def boom(*a, **k):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(ragauge.engine, "evaluate", boom)
    monkeypatch.delenv("RAGAUGE_DEBUG", raising=False)
    assert _eval(data, tmp_path, "--metrics", "mrr") == 70
    assert "This is a bug in ragauge" in capsys.readouterr().err


def test_130_interrupted(data, tmp_path, monkeypatch):
    import ragauge.engine

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(ragauge.engine, "evaluate", interrupted)
    assert _eval(data, tmp_path, "--metrics", "mrr") == 130
