"""`ragauge eval --judge <typo>` with a key in the endpoint URL (issue 14): the error says what is wrong and
suggests the fix, and the key never reaches stdout or stderr -- not in the message, not in the suggestion."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ragauge.cli.main import main

KEY, PASSWORD = "sk-live-7Hq2SECRET", "hunter2SECRET"
URL = f"https://bob:{PASSWORD}@gw.example.com/v1?api-version=2024-02&api_key={KEY}"


def _data(tmp_path) -> str:
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps({"id": "q1", "question": "What is the warranty?", "answer": "3 years.",
                                "contexts": ["The warranty is 3 years."]}) + "\n", encoding="utf-8")
    return str(path)


def _run(tmp_path, capsys, spec: str, *extra: str) -> tuple[int, str]:
    code = main(["eval", _data(tmp_path), "--metrics", "faithfulness", "--profile", "none", "--judge", spec,
                 "--out", str(tmp_path / "o"), *extra])
    out, err = capsys.readouterr()
    assert KEY not in out + err and PASSWORD not in out + err, out + err
    return code, err


@pytest.mark.parametrize("spec,suggestion", [
    (f"opanai:gpt-4o-mini@{URL}", "openai:gpt-4o-mini@https://***@gw.example.com/v1?api-version=***&api_key=***"),
    (f"OpenAI:gpt-4o-mini@{URL}", "openai:gpt-4o-mini@https://***@gw.example.com/v1?api-version=***&api_key=***"),
    (f"cascde:openai:gpt-4o-mini@{URL}", "cascade:openai:gpt-4o-mini@https://***@gw.example.com/v1"),
    (f"cascade:opnai:gpt-4o-mini@{URL}", "cascade:openai:gpt-4o-mini@https://***@gw.example.com/v1"),
])
def test_a_mistyped_judge_is_named_with_a_redacted_did_you_mean(tmp_path, capsys, spec, suggestion):
    code, err = _run(tmp_path, capsys, spec)
    assert code == 2
    assert "did you mean" in err and suggestion in err
    assert "api_key=***" in err


@pytest.mark.parametrize("spec", [
    f"openai:gpt-4o-mini@htps://bob:{PASSWORD}@gw.example.com/v1?api_key={KEY}",  # scheme mistyped
    f"openai:gpt-4o-mini@https//bob:{PASSWORD}@gw.example.com/v1?api_key={KEY}",  # ':' missing
    f"openai:gpt-4o-mini@ftp://bob:{PASSWORD}@gw.example.com/v1?api_key={KEY}",
])
def test_a_mistyped_url_is_refused_not_taken_for_the_model_name(tmp_path, capsys, spec):
    code, err = _run(tmp_path, capsys, spec, "--dry-run")
    assert code == 2 and "must be an http:// or https:// URL" in err


def test_offline_typo_still_gets_a_suggestion(tmp_path, capsys):
    code, err = _run(tmp_path, capsys, "ofline")
    assert code == 2 and "did you mean 'offline'?" in err


def test_the_secret_is_not_on_the_terminal_of_a_real_process(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "ragauge", "eval", _data(tmp_path), "--judge", f"opanai:m@{URL}",
                           "--out", str(tmp_path / "o")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "did you mean 'openai:m@https://***@gw.example.com" in proc.stderr
    assert KEY not in proc.stdout + proc.stderr and PASSWORD not in proc.stdout + proc.stderr


def test_python_api_and_generate_never_echo_a_key_in_a_mistyped_spec(tmp_path, capsys):
    from ragauge.errors import ConfigError
    from ragauge.judges.base import get_judge

    spec = "opnai:gpt@https://user:PASSWORD@example.com/v1?api_key=SECRETKEY"
    with pytest.raises(ConfigError) as err:
        get_judge(spec)
    assert "SECRETKEY" not in str(err.value) and "PASSWORD" not in str(err.value)
    assert "did you mean 'openai:gpt@" in str(err.value)

    from ragauge.cli.main import main

    doc = tmp_path / "docs"
    doc.mkdir()
    (doc / "a.md").write_text("# Цены\n\nШтукатурка стен стоит 560 рублей за квадратный метр.\n", encoding="utf-8")
    code = main(["generate", str(doc), "--n", "2", "--out", str(tmp_path / "g.jsonl"), "--judge", spec])
    out = capsys.readouterr()
    assert code == 2
    assert "SECRETKEY" not in out.out + out.err and "PASSWORD" not in out.out + out.err
