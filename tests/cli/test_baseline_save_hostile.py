"""`ragauge baseline save` refuses a results.json that no later run could read (review finding), with exit 2."""

import json

import pytest

from ragauge.cli.main import main


def _doc(samples):
    return {"schema": "ragauge.results/1", "metrics": [{"name": "mrr@10"}], "summary": {"mrr@10": {"value": 1}},
            "samples": samples}


@pytest.mark.parametrize("samples,field", [
    ([{"id": "a", "scores": {"mrr@10": "high"}}], "samples[0].scores.mrr@10"),
    ([{"id": "a", "scores": {"mrr@10": 1}}, {"id": "a", "scores": {"mrr@10": 0}}], "samples[1].id"),
    ([{"id": None, "scores": {"mrr@10": 1}}], "samples[0].id"),
    ([{"id": "a", "scores": []}], "samples[0].scores"),
])
def test_bad_baselines_are_refused_before_they_are_saved(tmp_path, capsys, samples, field):
    src = tmp_path / "results.json"
    src.write_text(json.dumps(_doc(samples)), encoding="utf-8")
    target = tmp_path / "base.json"
    assert main(["baseline", "save", str(src), "--to", str(target)]) == 2
    assert field in capsys.readouterr().err and not target.exists()


def test_an_infinite_score_is_an_input_error_not_a_crash(tmp_path, capsys):
    src = tmp_path / "results.json"
    src.write_text(json.dumps(_doc([{"id": "a", "scores": {"mrr@10": 1}}])).replace('"mrr@10": 1}}]', '"mrr@10": 1e400}}]'),
                   encoding="utf-8")
    assert main(["baseline", "save", str(src), "--to", str(tmp_path / "b.json")]) == 2
