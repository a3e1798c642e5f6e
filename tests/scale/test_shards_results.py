"""A ``--shards`` run's results.json: no per-sample rows (they are in the shards), the same summaries, CIs, gates,
slices and alarms as a run that keeps them; reports that say where the rows are; ``ragauge compare`` and
``--baseline`` reading the shards. No Ray needed: the blocks are scored in this process by the worker's own
``score_block`` and handed to the same sinks as on Ray (the Ray end to end is in test_connect.py)."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace

import pytest

import ragauge
from ragauge.cli.main import main
from ragauge.engine.evaluate import _profile, _specs
from ragauge.errors import InputError
from ragauge.scale.compact import CompactRun
from ragauge.scale.io import plan_blocks
from ragauge.scale.shards import ShardWriter
from ragauge.scale.shards_run import UniqueIds, results_from_compact
from ragauge.scale.shard_read import shard_files, shards_block
from ragauge.scale.worker import score_block
from scale_data import mixed_records, write_jsonl

pytest.importorskip("pyarrow.parquet")

METRICS = ["hit_rate@5", "mrr", "ndcg@5", "recall@5", "latency_p50"]


def shard_run(path, folder, cfg):
    """What ``evaluate_into_shards`` does, with the blocks scored here instead of on Ray."""
    from ragauge.engine.on_ray import _probe

    prof = _profile(cfg)
    specs = _specs(cfg, prof, _probe(str(path), cfg))
    writer, compact = ShardWriter(folder), CompactRun([s.name for s in specs])
    unique = UniqueIds(writer.folder, str(path))
    for b in plan_blocks(str(path), block_size=7):
        block = score_block(b, specs, None)
        unique(block)
        writer(block)
        compact(block)
    compact.freeze()
    files = sorted(writer.folder.glob("part-*.parquet"))
    return results_from_compact(compact, specs, prof, cfg, str(path),
                                shards_block(folder, files=writer.shards, n_samples=writer.samples), files,
                                lang=cfg.lang)


@pytest.fixture()
def data(tmp_path):
    return write_jsonl(tmp_path / "d.jsonl", mixed_records(90))


def _without_rows(doc):
    doc = json.loads(json.dumps(doc))
    for k in ("created_at", "samples", "samples_in", "source", "diagnosis", "lang"):
        doc.pop(k, None)
    return doc


def test_results_json_keeps_summaries_and_names_the_shards(data, tmp_path):
    cfg = ragauge.EvalConfig(metrics=METRICS, profile="dashboard", lang="en")
    local = ragauge.evaluate(str(data), cfg)
    res = shard_run(data, tmp_path / "shards", cfg)
    doc, full = res.to_dict(), local.to_dict()
    assert doc["samples"] == [] and doc["samples_in"] == "shards"
    assert doc["source"] == {"path": str(data), "n_samples": 90,
                             "shards": {"path": str((tmp_path / "shards").resolve()), "format": "parquet",
                                        "files": 13, "n_samples": 90}}
    assert "samples_in" not in full  # what a run that keeps its rows writes is unchanged
    assert _without_rows(doc) == _without_rows(full)  # summaries, CIs, gates, slices, slice checks, alarms
    assert doc["slices"] and any(sl["checks"] for sl in doc["slices"].values())
    assert res.passed == local.passed


def test_driver_keeps_compact_arrays_not_rows(data, tmp_path):
    cfg = ragauge.EvalConfig(metrics=METRICS, profile=None)
    res = shard_run(data, tmp_path / "shards", cfg)
    assert list(res.samples) == []
    col = res.columns["recall@5"]
    assert not hasattr(col, "artifacts")
    assert col.array().dtype.name == "float64" and len(col) == 90
    local = ragauge.evaluate(str(data), cfg)
    assert list(col.values) == local.columns["recall@5"].values
    assert col.reasons == local.columns["recall@5"].reasons
    frame = res.to_pandas()  # read from the shards
    assert frame["id"].tolist() == [s.id for s in local.samples]
    assert [None if v != v else v for v in frame["mrr"].tolist()] == local.columns["mrr"].values  # NaN: unscored


def test_reports_say_where_the_rows_are(data, tmp_path):
    res = shard_run(data, tmp_path / "shards", ragauge.EvalConfig(metrics=METRICS, profile="dashboard", lang="en"))
    written = res.save(tmp_path / "out")
    where = str((tmp_path / "shards").resolve())
    md = written["markdown"].read_text(encoding="utf-8")
    html = written["html"].read_text(encoding="utf-8")
    assert "Parquet shards" in md and where in md and "13 files" in md
    assert "Parquet shards" in html and where in html and '<table class="samples-table"' not in html
    ru = shard_run(data, tmp_path / "shards-ru", ragauge.EvalConfig(metrics=METRICS, profile=None, lang="ru"))
    assert "Parquet-шардах" in ru.save(tmp_path / "out-ru")["markdown"].read_text(encoding="utf-8")


def _two_runs(tmp_path, data):
    """The same data as a normal run and as a --shards run, and a changed copy of each (mrr worse)."""
    cfg = ragauge.EvalConfig(metrics=["mrr", "ndcg@5", "latency_p50"], profile=None, lang="en")
    worse = write_jsonl(tmp_path / "w.jsonl", [dict(r, retrieved_ids=list(reversed(r.get("retrieved_ids") or [])))
                                               for r in mixed_records(90)])
    out = {}
    for name, path in (("base", data), ("new", worse)):
        ragauge.evaluate(str(path), cfg).save(tmp_path / f"{name}-full")
        shard_run(path, tmp_path / f"{name}-out" / "shards", cfg).save(tmp_path / f"{name}-out")
        out[name] = (tmp_path / f"{name}-full", tmp_path / f"{name}-out")
    return out


def test_compare_reads_the_shards_and_agrees_with_full_results(data, tmp_path, capsys):
    runs = _two_runs(tmp_path, data)
    code_full = main(["compare", str(runs["base"][0]), str(runs["new"][0]), "--format", "json", "--exit-zero"])
    full = json.loads(capsys.readouterr().out)
    code = main(["compare", str(runs["base"][1]), str(runs["new"][1]), "--format", "json", "--exit-zero"])
    sharded = json.loads(capsys.readouterr().out)
    assert code == code_full == 0
    for k in ("base", "new"):
        full.pop(k), sharded.pop(k)
    assert sharded == full and full["metrics"]  # the same pairs by id, the same test, the same numbers
    assert any(m["verdict"] == "worse" for m in full["metrics"])
    # mixed: a shards run against a normal one
    assert main(["compare", str(runs["base"][0]), str(runs["new"][1]), "--format", "json", "--exit-zero"]) == 0


def test_baseline_on_a_shards_run_either_side(data, tmp_path):
    runs = _two_runs(tmp_path, data)
    cfg = ragauge.EvalConfig(metrics=["mrr", "ndcg@5"], profile="dashboard", lang="en")
    worse = tmp_path / "w.jsonl"
    want = ragauge.evaluate(str(worse), replace(cfg, baseline=str(runs["base"][0]))).comparison
    # a normal run against a --shards baseline: the baseline's scores come from its shards
    got = ragauge.evaluate(str(worse), replace(cfg, baseline=str(runs["base"][1]))).comparison
    # a --shards run against a normal baseline: this run's ids come back from its own shards
    this = shard_run(worse, tmp_path / "s3", replace(cfg, baseline=str(runs["base"][0]))).comparison
    for c in (want, got, this):
        c["baseline"].pop("path")
        c["baseline"].pop("created_at")  # two runs of the same data, made a second apart
    assert got == want and this == want and want["metrics"]


def test_missing_or_foreign_shards_are_refused_with_the_fix(data, tmp_path, capsys):
    runs = _two_runs(tmp_path, data)
    base = runs["base"][1]
    moved = tmp_path / "moved"
    shutil.move(str(base), str(moved))  # the output folder moved with its shards inside: still found
    assert main(["compare", str(moved), str(runs["new"][1]), "--exit-zero"]) == 0
    capsys.readouterr()
    shutil.rmtree(moved / "shards")
    assert main(["compare", str(moved), str(runs["new"][1])]) == 2
    err = capsys.readouterr().err
    assert "source.shards.path" in err and "Parquet shards of this run are not at" in err and "move the folder" in err
    new = runs["new"][1]
    sorted((new / "shards").glob("part-*.parquet"))[-1].unlink()
    assert main(["compare", str(runs["base"][0]), str(new)]) == 2
    assert "holds 12 shard files, results.json says 13" in capsys.readouterr().err
    doc = json.loads((new / "results.json").read_text(encoding="utf-8"))
    with pytest.raises(InputError, match="source.shards.files"):
        shard_files(doc, source="r.json")
    with pytest.raises(InputError, match="Parquet shards of this run are not at"):
        ragauge.evaluate(str(data), metrics=["mrr"], profile="dashboard", baseline=str(moved))


def test_a_duplicate_id_is_refused_naming_both_positions(tmp_path):
    recs = mixed_records(30)
    recs[25] = dict(recs[25], id=recs[3]["id"])
    path = write_jsonl(tmp_path / "dup.jsonl", recs)
    with pytest.raises(InputError, match=rf"duplicate sample id '{recs[3]['id']}' at positions 3 and 25"):
        shard_run(path, tmp_path / "shards", ragauge.EvalConfig(metrics=["mrr"], profile=None))


def test_commands_that_need_per_sample_rows_refuse_a_sharded_results_json_instead_of_reading_no_samples():
    from ragauge.errors import InputError
    from ragauge.stats.runs import run_scores

    doc = {"schema": "ragauge.results/1", "samples": [], "samples_in": "shards", "metrics": [],
           "source": {"shards": {"path": "/data/run-shards"}}}
    with pytest.raises(InputError, match="Parquet shards") as err:
        run_scores(doc, source="results.json")
    assert "/data/run-shards" in str(err.value)


def _block(index, ids, value):
    from ragauge.metrics.column import ScoreColumn
    from ragauge.scale.worker import ScoredBlock

    return ScoredBlock(index, list(ids), [() for _ in ids], {"mrr": ScoreColumn([value] * len(ids), [None] * len(ids))})


def test_a_later_run_written_to_the_same_folder_is_never_read_as_the_baseline(tmp_path):
    # the nightly job writes its shards to one path; the baseline run was copied next to its results.json
    from ragauge.scale.shard_read import shards_block
    from ragauge.scale.shards import ShardWriter

    live = tmp_path / "out" / "shards"
    old = ShardWriter(live)
    old(_block(0, ["a", "b"], 0.2))
    doc = {"samples_in": "shards", "source": {"shards": shards_block(live, files=1, n_samples=2, run_id=old.run_id)}}
    kept = tmp_path / "baseline"
    shutil.copytree(live.parent, kept)
    shutil.rmtree(live)
    new = ShardWriter(live)
    new(_block(0, ["a", "b"], 0.9))  # same ids, same counts, another run
    files = shard_files(doc, source="baseline/results.json", results_file=kept / "results.json")
    assert files == [kept / "shards" / "part-00000.parquet"]
    shutil.rmtree(kept)
    with pytest.raises(InputError, match="belong to another run"):
        shard_files(doc, source="baseline/results.json", results_file=kept / "results.json")


def test_shards_are_read_in_block_order_past_five_digits(tmp_path):
    from ragauge.scale.shard_read import ordered_shards
    from ragauge.scale.shards import ShardWriter

    w = ShardWriter(tmp_path / "s")
    for index in (100000, 99999, 2):
        w(_block(index, [f"id{index}"], 0.5))
    assert [f.name for f in ordered_shards(tmp_path / "s")] == [
        "part-00002.parquet", "part-99999.parquet", "part-100000.parquet"]
