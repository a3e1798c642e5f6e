"""Parquet shards: one per block, in input order, the same values as the local engine (no Ray needed)."""

from __future__ import annotations

import json

import pytest

from ragauge.data import load
from ragauge.engine.scoring import score_columns as local_scores
from ragauge.errors import OutputError
from ragauge.metrics.registry import parse_metrics
from ragauge.scale.io import plan_blocks
from ragauge.scale.shards import write_shards
from ragauge.scale.worker import score_block
from scale_data import mixed_records, write_jsonl

pq = pytest.importorskip("pyarrow.parquet")


def test_shards_read_back_in_name_order_are_the_local_columns(tmp_path):
    path = write_jsonl(tmp_path / "s.jsonl", mixed_records(30))
    specs = parse_metrics(["ndcg@5", "recall@5", "latency_p50"])
    blocks = (score_block(b, specs, None) for b in plan_blocks(str(path), block_size=7))
    assert write_shards(blocks, tmp_path / "out") == {"shards": 5, "samples": 30}

    table = pq.read_table(sorted((tmp_path / "out").glob("part-*.parquet")))
    samples = load(path)
    local = local_scores(specs, samples, None)
    assert table.column("id").to_pylist() == [s.id for s in samples]
    assert table.column("tags").to_pylist() == [list(s.tags) for s in samples]
    for s in specs:
        assert table.column(s.name).to_pylist() == local[s.name].values
        assert table.column(f"{s.name}:reason").to_pylist() == local[s.name].reasons
        artifacts = [None if a is None else json.loads(a) for a in table.column(f"{s.name}:artifacts").to_pylist()]
        assert artifacts == local[s.name].artifacts


def test_a_folder_holding_another_runs_shards_is_refused(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "part-00000.parquet").write_bytes(b"old")
    with pytest.raises(OutputError, match="not empty"):
        write_shards(iter(()), tmp_path / "out")
