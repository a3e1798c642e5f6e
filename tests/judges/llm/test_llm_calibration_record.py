"""The calibration record and the reminder `ragauge eval` prints when the LLM judge changed since."""

from __future__ import annotations

import json

import pytest

from ragauge.errors import InputError
from ragauge.judges.llm import LLMConfig, LLMJudge
from ragauge.judges.llm.calibration import (JudgeFingerprint, append_record, calibration_reminder,
                                            default_record_path, fingerprint_of, read_records)
from ragauge.judges.llm.judge import prompts_version


def _judge(model="gpt-4o-mini", **cfg):
    return LLMJudge(LLMConfig(model=model, base_url="http://127.0.0.1:9/v1", **cfg), cache=None)


def _calibrate(path, judge, **figures):
    return append_record(path, fingerprint_of(judge), metric="faithfulness",
                         figures={"n": 50, "spearman": 0.82, "verdict": "calibrated", **figures})


def test_never_calibrated_says_so_and_how(tmp_path):
    text = calibration_reminder(_judge(), path=tmp_path / "calibration.json")
    assert "never been calibrated" in text and "ragauge calibrate export" in text
    assert prompts_version() in text
    ru = calibration_reminder(_judge(), path=tmp_path / "calibration.json", lang="ru")
    assert "ни разу" in ru


def test_no_reminder_for_the_judge_that_was_calibrated(tmp_path):
    path = tmp_path / ".ragauge" / "calibration.json"
    _calibrate(path, _judge())
    assert calibration_reminder(_judge(), path=path) is None


def test_a_new_model_prompts_or_embeddings_model_is_named(tmp_path):
    path = tmp_path / "calibration.json"
    _calibrate(path, _judge())
    text = calibration_reminder(_judge("gpt-4o"), path=path)
    assert "model gpt-4o-mini -> gpt-4o" in text and "Spearman 0.82" in text
    assert "embeddings model none -> emb-1" in calibration_reminder(_judge(embeddings_model="emb-1"), path=path)
    # a prompt edit changes the prompts hash: simulate a record made with other prompts
    records = json.loads(path.read_text(encoding="utf-8"))
    records["records"][-1]["version"] = "prompts-000000000000"
    path.write_text(json.dumps(records), encoding="utf-8")
    assert f"prompts prompts-000000000000 -> {prompts_version()}" in calibration_reminder(_judge(), path=path)


def test_the_last_record_of_the_llm_judge_counts(tmp_path):
    path = tmp_path / "calibration.json"
    _calibrate(path, _judge())
    append_record(path, JudgeFingerprint("offline", "ragauge-verifier-1", "v1"), metric="faithfulness", figures={})
    assert calibration_reminder(_judge(), path=path) is None  # an offline calibration does not hide it
    _calibrate(path, _judge("gpt-4o"))
    assert "gpt-4o -> gpt-4o-mini" in calibration_reminder(_judge(), path=path)
    assert len(read_records(path)) == 3


def test_a_broken_record_file_is_a_reminder_not_a_crash(tmp_path):
    path = tmp_path / "calibration.json"
    path.write_text("{not json", encoding="utf-8")
    assert "cannot tell" in calibration_reminder(_judge(), path=path)
    with pytest.raises(InputError, match="calibration.json"):
        read_records(path)
    path.write_text('{"records": []}', encoding="utf-8")
    with pytest.raises(InputError, match="schema"):
        read_records(path)


def test_default_path_is_beside_the_project_config(tmp_path):
    (tmp_path / "ragauge.toml").write_text('profile = "dashboard"\n', encoding="utf-8")
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    assert default_record_path(sub) == tmp_path / ".ragauge" / "calibration.json"
    bare = tmp_path / "elsewhere"
    bare.mkdir()
    # without a project file: the folder the command runs in (or a parent's pyproject/ragauge.toml)
    assert default_record_path(bare).name == "calibration.json"


def test_fingerprint_of_a_results_provenance_matches_the_judge():
    judge = _judge(embeddings_model="emb-1")
    from_results = JudgeFingerprint.from_mapping(judge.provenance().to_dict())
    assert from_results == fingerprint_of(judge)
    assert from_results.embeddings_model == "emb-1"
