"""Review of issue 17, the data side of the Ray engine: cross-sample metrics across blocks, Parquet streamed,
worker I/O errors, store URLs, shard writes, duplicate ids with --shards, the block size option."""

from __future__ import annotations

import json
import math

import pytest

import ragauge
from ragauge.cli.main import main
from ragauge.errors import ConfigError, InputError
from ragauge.scale.io import plan_blocks, read_block
from scale_data import mixed_records, write_jsonl


# --- finding 3: noise_robustness joins a variant to its clean sample wherever that sample is ---------------

def _noise_data(tmp_path):
    records = mixed_records(40)  # q01 at position 0, its noisy variants at 4-7; q07 at 28, its variants at 32-35
    ids = [r["id"] for r in records]
    assert ids.index("q01") == 0 and ids.index("q01~noise") == 4
    return write_jsonl(tmp_path / "noise.jsonl", records)


def test_noise_robustness_on_ray_equals_local_with_the_clean_sample_in_another_block(ray_cluster, tmp_path):
    from ragauge.data import load
    from ragauge.engine.scoring import score_columns
    from ragauge.judges.base import get_judge
    from ragauge.metrics.registry import parse_metrics
    from ragauge.scale.ray_engine import score_run

    path = _noise_data(tmp_path)
    specs = parse_metrics(["mrr", "noise_robustness"])
    local = score_columns(specs, load(path), get_judge("offline"))
    assert sum(v is not None for v in local["noise_robustness"].values) >= 2  # variants really scored
    run = score_run(specs, str(path), "offline", workers=1, batch_size=4)  # q01 and its variants: blocks 0 and 1
    for s in specs:
        got, want = run.columns[s.name], local[s.name]
        assert got.values == want.values, s.name
        assert got.reasons == want.reasons, s.name
        assert got.artifacts == want.artifacts, s.name
        assert got.provenance == want.provenance, s.name


def test_evaluate_on_ray_takes_a_block_size_and_scores_noise_robustness_as_locally(ray_cluster, tmp_path):
    path = _noise_data(tmp_path)
    local = ragauge.evaluate(str(path), metrics=["noise_robustness"], profile=None, judge="offline")
    seen: list[int] = []
    res = ragauge.evaluate(str(path), metrics=["noise_robustness"], profile=None, judge="offline", engine="ray",
                           workers=1, batch_size=6, progress=lambda step, done, total: seen.append(total))
    assert set(seen) == {math.ceil(40 / 6)}  # the blocks of 6 samples the run was asked for
    assert res.summary["noise_robustness"].value == local.summary["noise_robustness"].value
    assert res.summary["noise_robustness"].n_unscored == local.summary["noise_robustness"].n_unscored
    with pytest.raises(InputError, match="apply to engine 'ray'"):
        ragauge.evaluate(str(path), metrics=["mrr"], profile=None, batch_size=6)


# --- finding 6: a Parquet row group is decoded once, not once per block ------------------------------------

def test_blocks_of_one_big_row_group_decode_each_row_about_once(tmp_path, monkeypatch):
    pd = pytest.importorskip("pandas")
    pq = pytest.importorskip("pyarrow.parquet")
    from ragauge.data import load

    records = [{"id": f"s{i}", "question": f"q {i}", "retrieved_ids": ["a", str(i)], "relevant_ids": ["a"]}
               for i in range(3000)]
    path = tmp_path / "one_group.parquet"
    pd.DataFrame(records).to_parquet(path)  # pyarrow's default: one row group of up to 1Mi rows
    assert pq.ParquetFile(path).metadata.num_row_groups == 1
    expected = load(path)
    decoded = [0]

    class Counting(pq.ParquetFile):  # counts the rows pyarrow decodes for the blocks
        def read_row_group(self, *a, **k):
            table = super().read_row_group(*a, **k)
            decoded[0] += table.num_rows
            return table

        def iter_batches(self, *a, **k):
            for batch in super().iter_batches(*a, **k):
                decoded[0] += batch.num_rows
                yield batch

    monkeypatch.setattr(pq, "ParquetFile", Counting)
    blocks = list(plan_blocks(str(path), block_size=100))
    assert len(blocks) == 30
    samples = [s for b in blocks for s in read_block(b)]
    assert samples == expected
    assert decoded[0] <= 3000 + 1024  # before: the whole group per block, 30 x 3000 rows
    # blocks out of order (another worker took the ones between): still the right rows
    odd = [s for b in blocks[1::2] for s in read_block(b)]
    assert [s.id for s in odd] == [s.id for b in blocks[1::2] for s in samples[b.first:b.first + 100]]


# --- finding 7: a worker that cannot read its block says which file, rows and host --------------------------

def _corrupt_second_group(tmp_path):
    pd = pytest.importorskip("pandas")
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "bad.parquet"
    pd.DataFrame(mixed_records(40)).to_parquet(path, row_group_size=20)
    offset = pq.ParquetFile(path).metadata.row_group(1).column(0).data_page_offset
    raw = bytearray(path.read_bytes())
    raw[offset:offset + 16] = b"\xff" * 16
    path.write_bytes(bytes(raw))
    return path


def test_an_unreadable_block_is_an_input_error_naming_file_rows_and_host(tmp_path):
    import socket

    path = _corrupt_second_group(tmp_path)
    blocks = list(plan_blocks(str(path), block_size=10))
    read_block(blocks[0])
    with pytest.raises(InputError) as err:
        read_block(blocks[2])
    text = str(err.value)
    assert str(path) in text and "rows 20-29 (row group 1)" in text and socket.gethostname() in text
    gone = write_jsonl(tmp_path / "gone.jsonl", mixed_records(10))
    jsonl_blocks = list(plan_blocks(str(gone), block_size=5))
    gone.unlink()  # e.g. the file is not at this path on the worker's node
    with pytest.raises(InputError, match=r"gone\.jsonl: cannot read bytes 0-\d+ \(from line 1\) on host"):
        read_block(jsonl_blocks[0])


def test_a_corrupt_parquet_page_on_ray_exits_2_naming_the_file(ray_cluster, tmp_path, capsys):
    path = _corrupt_second_group(tmp_path)
    code = main(["eval", str(path), "--metrics", "mrr", "--profile", "none", "--engine", "ray", "--workers", "1",
                 "--batch-size", "10", "--out", str(tmp_path / "o"), "-q"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "bad.parquet" in err and "row group 1" in err and "bug in ragauge" not in err


# --- finding 9: store URLs SQLAlchemy cannot open are config errors with the fix ----------------------------

def test_store_urls_without_a_dialect_or_driver_are_config_errors(tmp_path, capsys):
    pytest.importorskip("sqlalchemy")
    from ragauge.scale.store import StoreSource, plan_store_blocks

    with pytest.raises(ConfigError, match=r"postgresql\+psycopg://bob:\*\*\*@db/x") as err:
        StoreSource("postgres://bob:secret@db/x")
    assert "secret" not in str(err.value)
    assert main(["eval", "postgres://u@localhost/db", "--since", "2025-05-01", "--out", str(tmp_path / "o"), "-q"]) == 2
    assert "postgresql+psycopg://" in capsys.readouterr().err
    try:
        import pg8000  # noqa: F401
    except ImportError:
        with pytest.raises(ConfigError, match="no database driver for 'postgresql\\+pg8000'"):
            list(plan_store_blocks(StoreSource("postgresql+pg8000://u@localhost/db"), 10))
        assert main(["eval", "postgresql+pg8000://u@localhost/db", "--since", "2025-05-01",
                     "--out", str(tmp_path / "o2"), "-q"]) == 2
        assert "pip install" in capsys.readouterr().err


# --- finding 11: a shard is whole under its name or absent -------------------------------------------------

def _scored(index, ids):
    from ragauge.metrics.column import ScoreColumn
    from ragauge.scale.worker import ScoredBlock

    return ScoredBlock(index, list(ids), [() for _ in ids], {"mrr": ScoreColumn([0.5] * len(ids), [None] * len(ids))})


def test_a_shard_write_killed_midway_leaves_no_part_file(tmp_path, monkeypatch):
    pytest.importorskip("pyarrow.parquet")
    from ragauge.scale.shard_read import ordered_shards
    from ragauge.scale.shards import ShardWriter

    writer = ShardWriter(tmp_path / "shards")
    writer(_scored(0, ["a", "b"]))

    def killed(table, where, **kwargs):  # the process dies with half the file written
        with open(where, "wb") as fh:
            fh.write(b"PAR1\x00\x01")
        raise KeyboardInterrupt

    monkeypatch.setattr(writer.pq, "write_table", killed)
    with pytest.raises(KeyboardInterrupt):
        writer(_scored(1, ["c"]))
    assert [f.name for f in ordered_shards(writer.folder)] == ["part-00000.parquet"]
    with pytest.raises(Exception, match="unfinished run's shards"):
        ShardWriter(writer.folder)


# --- finding 13: with --shards a duplicate id stops the run at its block, before any sink writes it ---------

def test_a_duplicate_id_with_shards_is_refused_at_its_block(ray_cluster, tmp_path):
    from ragauge.metrics.registry import parse_metrics
    from ragauge.scale.shards_run import evaluate_into_shards

    recs = mixed_records(30)
    recs[25] = dict(recs[25], id=recs[3]["id"])
    path = write_jsonl(tmp_path / "dup.jsonl", recs)
    sunk: list[int] = []
    cfg = ragauge.EvalConfig(metrics=["mrr"], profile=None, engine="ray", workers=1, batch_size=5)
    with pytest.raises(InputError, match=rf"duplicate sample id '{recs[3]['id']}' at positions 3 and 25"):
        evaluate_into_shards(str(path), cfg, parse_metrics(["mrr"]), None, shards=tmp_path / "shards", prof=None,
                             source=str(path), no_judge=[], lang="en",
                             extra_sinks=[lambda block: sunk.append(block.index)])
    assert sunk == [0, 1, 2, 3, 4]  # the block holding position 25 (block 5) reached no sink (e.g. --to-store)
    assert len(list((tmp_path / "shards").glob("part-*.parquet"))) == 5


def test_unique_ids_confirms_a_hash_match_on_the_ids(tmp_path, monkeypatch):
    from ragauge.scale import shards_run
    from ragauge.scale.shards import ShardWriter

    writer = ShardWriter(tmp_path / "s")
    unique = shards_run.UniqueIds(writer.folder, "d.jsonl")
    monkeypatch.setattr(shards_run, "_MASK64", 0)  # every id hashes alike: only the ids can tell
    for index, ids in enumerate([["a", "b"], ["c"], ["d", "e"]]):
        unique(_scored(index, ids))
        writer(_scored(index, ids))
    with pytest.raises(InputError, match="duplicate sample id 'b' at positions 1 and 6"):
        unique(_scored(3, ["f", "b"]))
    with pytest.raises(InputError, match="duplicate sample id 'g' at positions 5 and 6"):
        unique(_scored(3, ["g", "g"]))


# --- the block size option and the docs' KubeRay example --------------------------------------------------

def test_cli_batch_size_sets_the_blocks(ray_cluster, tmp_path, capsys):
    data = write_jsonl(tmp_path / "d.jsonl", mixed_records(30))
    out = tmp_path / "o"
    assert main(["eval", str(data), "--metrics", "mrr", "--profile", "none", "--engine", "ray", "--workers", "1",
                 "--batch-size", "7", "--shards", str(tmp_path / "shards"), "--out", str(out), "-q"]) == 0
    assert len(list((tmp_path / "shards").glob("part-*.parquet"))) == math.ceil(30 / 7)
    assert json.loads((out / "results.json").read_text(encoding="utf-8"))["source"]["shards"]["files"] == 5
    assert main(["eval", str(data), "--metrics", "mrr", "--batch-size", "7", "--out", str(out), "-q"]) == 2
    assert "--batch-size" in capsys.readouterr().err
    assert main(["eval", str(data), "--metrics", "mrr", "--engine", "ray", "--batch-size", "0",
                 "--out", str(out), "-q"]) == 2


def test_the_kuberay_example_writes_its_reports_to_the_shared_volume():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "scale.md").read_text(encoding="utf-8")
    line = next(x for x in doc.splitlines() if x.startswith("ray job submit --address http://localhost:8265"))
    assert "-o /data/" in line or "--out /data/" in line
