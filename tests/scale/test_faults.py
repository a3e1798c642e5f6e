"""A scoring worker killed mid-run loses no sample and scores none twice (issue 17)."""

from __future__ import annotations

import os
import signal

import pytest

from ragauge.data import load
from ragauge.engine.evaluate import offline_judge_installed
from ragauge.engine.scoring import score_columns as local_scores
from ragauge.judges.base import get_judge
from ragauge.metrics.registry import parse_metrics
from scale_data import mixed_records, write_jsonl

pytestmark = pytest.mark.skipif(not offline_judge_installed(), reason="the offline judge is not installed")


def test_killing_a_worker_mid_run_keeps_every_sample_once_with_the_clean_values(ray_cluster, tmp_path):
    from ragauge.scale.ray_engine import iter_scored_blocks

    path = write_jsonl(tmp_path / "mixed.jsonl", mixed_records(48))
    samples = load(path)
    specs = parse_metrics(["faithfulness", "recall@5"])
    clean = local_scores(specs, samples, get_judge("offline"))

    killed: list[int] = []
    seen_workers: list[str] = []
    ids: list[str] = []
    values: dict[str, list] = {s.name: [] for s in specs}
    artifacts: list = []
    for block in iter_scored_blocks(specs, str(path), "offline", workers=2, batch_size=3):
        seen_workers.append(block.worker)
        if not killed:  # the first block back: kill the process that scored it, while it scores the next
            pid = int(block.worker.rsplit(":", 1)[1])
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
        ids.extend(block.ids)
        for s in specs:
            values[s.name].extend(zip(block.columns[s.name].values, block.columns[s.name].reasons))
        artifacts.extend(block.columns["faithfulness"].artifacts)

    assert ids == [s.id for s in samples]  # every id, once, in input order
    assert len(set(ids)) == len(ids)
    for s in specs:
        assert values[s.name] == list(zip(clean[s.name].values, clean[s.name].reasons)), s.name
    assert artifacts == clean["faithfulness"].artifacts
    # the kill happened, and a restarted actor (a new process) took over part of the work
    with pytest.raises(ProcessLookupError):
        os.kill(killed[0], 0)
    pids = [int(w.rsplit(":", 1)[1]) for w in seen_workers]
    assert len(set(pids)) >= 3, pids


def test_a_bad_line_in_the_middle_of_a_big_file_stops_the_run_with_its_line_and_field(ray_cluster, tmp_path):
    from ragauge.errors import InputError
    from ragauge.scale.ray_engine import score_columns

    records = mixed_records(40)
    records[25]["latency_ms"] = "fast"  # not a number
    path = write_jsonl(tmp_path / "bad.jsonl", records)
    with pytest.raises(InputError) as err:
        score_columns(parse_metrics(["ndcg@5"]), str(path), None, workers=2, batch_size=8)
    assert err.value.line == 26 and err.value.field == "latency_ms" and str(path) in str(err.value)


def test_the_same_id_in_two_blocks_is_refused_like_the_local_loader_does(ray_cluster, tmp_path):
    from ragauge.errors import InputError
    from ragauge.scale.ray_engine import score_columns

    records = mixed_records(20)
    records[17]["id"] = records[2]["id"]
    path = write_jsonl(tmp_path / "dup.jsonl", records)
    with pytest.raises(InputError, match=f"duplicate sample id '{records[2]['id']}' at positions 2 and 17"):
        score_columns(parse_metrics(["ndcg@5"]), str(path), None, workers=2, batch_size=5)

