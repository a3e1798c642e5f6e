"""Blocks: the driver plans byte ranges / row groups; a worker reads one block as ragauge.data.load would."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ragauge.data import load
from ragauge.errors import ConfigError, InputError
from ragauge.scale.io import plan_blocks, read_block
from scale_data import mixed_records, write_jsonl


def _samples(blocks):
    return [s for b in blocks for s in read_block(b)]


def test_a_jsonl_file_read_block_by_block_gives_exactly_what_load_gives(tmp_path):
    records = mixed_records(50)
    records[3].pop("id")  # a record without id gets its line number as id, in either engine
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    path = tmp_path / "s.jsonl"
    path.write_text(text.replace("\n", "\n\n", 5).rstrip("\n"), encoding="utf-8")  # blank lines, no final newline
    blocks = list(plan_blocks(str(path), block_size=7))
    assert [b.index for b in blocks] == list(range(len(blocks)))
    assert blocks[0].start == 0 and blocks[-1].end == path.stat().st_size
    assert all(a.end == b.start for a, b in zip(blocks, blocks[1:]))
    assert _samples(blocks) == load(path)
    assert "line-7" in [s.id for s in _samples(blocks)]  # after the 3 blank lines the replace() added above it


def test_a_bad_line_in_a_later_block_is_reported_with_its_file_line_and_field(tmp_path):
    records = mixed_records(20)
    records[12]["latency_ms"] = "fast"
    path = write_jsonl(tmp_path / "s.jsonl", records)
    blocks = list(plan_blocks(str(path), block_size=5))
    read_block(blocks[0])
    with pytest.raises(InputError) as err:
        read_block(blocks[2])
    assert err.value.line == 13 and str(path) in str(err.value) and "latency_ms" in str(err.value)


def test_broken_json_names_its_line(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text('{"id": "a", "question": "q"}\n{"id": "b", "question": \n', encoding="utf-8")
    with pytest.raises(InputError, match="line 2"):
        _samples(plan_blocks(str(path), block_size=1))


def test_a_parquet_file_is_cut_inside_row_groups_and_keeps_row_numbers(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    rows = [{"id": f"s{i}", "question": f"question {i}?", "retrieved_ids": [f"d{i + 1}", "d0"],
             "relevant_ids": json.dumps({"d0": 1})} for i in range(23)]
    rows[17].pop("id")
    path = tmp_path / "s.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path, row_group_size=10)
    blocks = list(plan_blocks(str(path), block_size=4))
    assert [(b.group, b.start, b.end) for b in blocks][:4] == [(0, 0, 4), (0, 4, 8), (0, 8, 10), (1, 0, 4)]
    assert _samples(blocks) == load(path)
    assert _samples(blocks)[17].id == "row-17"


def test_inputs_that_cannot_be_streamed_are_refused_with_the_fix(tmp_path):
    gz = tmp_path / "s.jsonl.gz"
    gz.write_bytes(b"")
    with pytest.raises(ConfigError, match="decompress"):
        list(plan_blocks(str(gz)))
    with pytest.raises(ConfigError, match=r"\.jsonl/\.ndjson and \.parquet"):
        csv = tmp_path / "s.csv"
        csv.write_text("id,question\na,b\n")
        list(plan_blocks(str(csv)))
    with pytest.raises(InputError, match="file not found"):
        list(plan_blocks(str(tmp_path / "missing.jsonl")))
    with pytest.raises(InputError, match="list of Sample"):
        list(plan_blocks([{"id": "a"}]))
    with pytest.raises(ConfigError, match="at least 1"):
        list(plan_blocks(str(gz), block_size=0))


def test_importing_ragauge_scale_does_not_import_ray():
    code = "import sys, ragauge, ragauge.scale, ragauge.scale.io; print('ray' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_without_ray_the_engine_names_the_install_command(monkeypatch):
    from ragauge.errors import MissingDependencyError
    from ragauge.scale import ray_engine

    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(MissingDependencyError, match=r"ragauge\[ray\]"):
        ray_engine.score_columns([], [], None)
