"""`ragauge eval --engine ray` / `evaluate(..., engine="ray")`: the same summaries and gates as the local engine."""

from __future__ import annotations

import json

import pytest

import ragauge
from ragauge.cli.main import main
from ragauge.errors import InputError

from scale_data import mixed_records, write_jsonl

METRICS = ["hit_rate@5", "mrr", "ndcg@5", "faithfulness"]


def test_ray_options_need_the_ray_engine():
    with pytest.raises(InputError, match="apply to engine 'ray'"):
        ragauge.EvalConfig(workers=2)
    with pytest.raises(InputError, match="unknown engine"):
        ragauge.EvalConfig(engine="spark")


def test_cli_on_ray_gives_the_local_summaries_and_gates(ray_cluster, tmp_path, capsys):
    data = write_jsonl(tmp_path / "d.jsonl", mixed_records(60))
    local = ragauge.evaluate(str(data), metrics=METRICS, profile="dashboard", judge="offline")
    code = main(["eval", str(data), "--metrics", ",".join(METRICS), "--engine", "ray", "--address", "auto",
                 "--workers", "1", "--out", str(tmp_path / "out"), "-q"])
    doc = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    assert code == (0 if local.passed else 1)
    for name in METRICS:
        assert doc["summary"][name]["value"] == pytest.approx(local.summary[name].value, abs=1e-12)
        assert doc["summary"][name]["n_unscored"] == local.summary[name].n_unscored
    assert [g["status"] for g in doc["gates"]] == [g.status for g in local.gates]
    by_id = {s["id"]: s for s in doc["samples"]}
    for s, v in zip(local.samples, local.columns["faithfulness"].values):
        assert by_id[s.id]["scores"]["faithfulness"] == v  # per sample, exactly
    assert by_id[local.samples[0].id]["question"] is None  # the texts stay in the input file


def test_default_metrics_come_from_the_first_records(ray_cluster, tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", [{"id": str(i), "retrieved_ids": ["a", "b"], "relevant_ids": ["a"]}
                                              for i in range(40)])
    res = ragauge.evaluate(str(data), engine="ray", ray_address="auto")
    assert "mrr@5" in res.summary or any(n.startswith("hit_rate") for n in res.summary)
    assert "faithfulness" not in res.summary


def test_bad_input_on_ray_is_an_input_error_with_file_and_line(ray_cluster, tmp_path, capsys):
    """Review finding: the default-metrics probe crashed (exit 70) on broken JSON, gzip or a BOM-less UTF-16 file."""
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "1", "retrieved_ids": ["a"], "relevant_ids": ["a"]}\n{"id": "2", "answer": broken\n',
                   encoding="utf-8")
    assert main(["eval", str(bad), "--engine", "ray", "--address", "auto", "--out", str(tmp_path / "o"), "-q"]) == 2
    assert "bad.jsonl" in capsys.readouterr().err
    gz = tmp_path / "d.jsonl.gz"
    gz.write_bytes(b"\x1f\x8b\x08\x00")
    assert main(["eval", str(gz), "--engine", "ray", "--address", "auto", "--out", str(tmp_path / "o2"), "-q"]) == 2


def test_dicts_run_on_ray_as_they_do_locally(ray_cluster):
    rows = [{"id": str(i), "retrieved_ids": ["a", "b"], "relevant_ids": ["b" if i % 2 else "a"]} for i in range(20)]
    local = ragauge.evaluate(rows, metrics=["mrr"], profile=None)
    on_ray = ragauge.evaluate(rows, metrics=["mrr"], profile=None, engine="ray", ray_address="auto")
    assert on_ray.summary["mrr"].value == local.summary["mrr"].value == 0.75
