"""``ragauge generate``: files written, summary printed, exit codes and messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragauge.cli.main import main
from ragauge.errors import ExitCode
from ragauge.generate import GoldenCase

pytest.importorskip("docx", reason="python-docx is needed to write the DOCX of the corpus")
pytest.importorskip("openpyxl", reason="openpyxl is needed to write the XLSX of the corpus")
pytest.importorskip("pymorphy3", reason="Russian templates need pymorphy3 (pip install 'ragauge[offline]')")

from _golden_corpus import write_corpus  # noqa: E402


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return write_corpus(tmp_path_factory.mktemp("cli") / "docs")


def test_writes_golden_and_kb_and_reports_skipped_files(folder, tmp_path, capsys) -> None:
    out = tmp_path / "set" / "golden.jsonl"
    assert main(["generate", str(folder), "--out", str(out), "--n", "40", "--seed", "3"]) == ExitCode.OK
    err = capsys.readouterr().err
    assert f"wrote 40 cases to {out}" in err and "by slice:" in err
    assert "skipped 1 file(s)" in err and "broken.pdf" in err
    cases = [GoldenCase.from_row(json.loads(line)) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(cases) == 40 and all(c.seed == 3 for c in cases)
    kb = [json.loads(line) for line in (out.parent / "kb.jsonl").read_text(encoding="utf-8").splitlines()]
    kb_ids = {r["id"] for r in kb}
    assert all(set(c.relevant_ids) <= kb_ids for c in cases)


def test_same_seed_same_file_and_custom_kb_path(folder, tmp_path, capsys) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (a, b):
        assert main(["generate", str(folder), "-o", str(path), "--n", "25", "--kb", str(tmp_path / "my-kb.jsonl"),
                     "-q"]) == 0
    assert a.read_bytes() == b.read_bytes()
    assert (tmp_path / "my-kb.jsonl").is_file() and not (tmp_path / "kb.jsonl").exists()
    assert capsys.readouterr().err == ""


def test_lang_and_max_chars_options(folder, tmp_path) -> None:
    out = tmp_path / "en.jsonl"
    assert main(["generate", str(folder), "-o", str(out), "--n", "20", "--lang", "en", "--max-chars", "300",
                 "-q"]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert rows and {r["language"] for r in rows} == {"en"}


@pytest.mark.parametrize("setup, args, message", [
    ("missing", [], "not a folder"),
    ("empty", [], "no readable document"),
    ("chinese", [], "no question could be generated"),
    ("ok", ["--n", "0"], "--n must be at least 1"),
    ("ok", ["--judge", "magic"], "--judge 'magic': ragauge generate takes 'offline' or 'openai:MODEL@URL'"),
    ("ok", ["--max-calls", "3"], "--max-calls applies to an LLM judge"),
    ("ok", ["--kb", "SAME"], "are the same file"),
])
def test_errors_are_one_clear_line_with_exit_2(tmp_path, capsys, setup, args, message) -> None:
    docs = tmp_path / "docs"
    if setup != "missing":
        docs.mkdir()
    if setup == "chinese":
        (docs / "zh.txt").write_text("这是一个没有数字的测试文件。", encoding="utf-8")
    if setup == "ok":
        (docs / "p.md").write_text("| Работа | Цена, руб. |\n|---|---|\n| Штукатурка | 450 |\n", encoding="utf-8")
    args = [str(tmp_path / "g.jsonl") if a == "SAME" else a for a in args]
    code = main(["generate", str(docs), "--out", str(tmp_path / "g.jsonl"), *args])
    err = capsys.readouterr().err
    assert code == ExitCode.USAGE and message in err and "Traceback" not in err
    assert err.startswith("ragauge: error:")
    assert not (tmp_path / "g.jsonl").exists()


def test_generate_is_a_listed_command(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["generate", "--help"])
    assert "DOCS_DIR" in capsys.readouterr().out


def test_llm_path_with_no_case_says_why() -> None:
    from ragauge.cli.generate import _llm_nothing
    from ragauge.errors import InputError, JudgeError

    down = {"generator": "llm", "call_failed": {"generate_questions": 1},
            "failures": [{"kind": "call_failed", "error": "connection refused"}]}
    with pytest.raises(JudgeError, match="connection refused") as exc:
        _llm_nothing(down, "docs")
    assert exc.value.exit_code == ExitCode.JUDGE
    with pytest.raises(InputError, match="call budget"):
        _llm_nothing({"generator": "llm", "groups": {"not_started_budget": 3}}, "docs")
    with pytest.raises(InputError, match="rejected"):
        _llm_nothing({"generator": "llm", "rejected": {"critic": {"vague": 4}}}, "docs")
