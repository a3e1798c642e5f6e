"""A wrong --address fails within the connect timeout with the address and the fix (exit 3), never hangs; and a
normal `ragauge eval --engine ray --shards DIR` run prints at most one line of Ray's own on stderr."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time

import pytest

import ragauge
from ragauge.errors import ConfigError
from ragauge.scale.connect import ClusterUnreachableError, _host_port, check_reachable, resolve_address

from scale_data import mixed_records, write_jsonl


def _dead_port() -> tuple[socket.socket, int]:
    """A bound port nothing listens on (connections are refused while the socket is held)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    return sock, sock.getsockname()[1]


def test_addresses_parse():
    assert _host_port("10.0.0.5:6379") == ("10.0.0.5", 6379)
    assert _host_port("ray://head.example") == ("head.example", 10001)
    assert _host_port("ray://head:10002") == ("head", 10002)
    assert _host_port("[::1]:6379") == ("::1", 6379)
    for bad in ("head", "head:port", "head:70000", ":6379"):
        with pytest.raises(ConfigError, match="not a Ray cluster address"):
            _host_port(bad)


def test_nothing_listening_is_an_error_in_bounded_time(monkeypatch):
    sock, port = _dead_port()
    try:
        for address in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}"):
            t0 = time.monotonic()
            with pytest.raises(ClusterUnreachableError, match=f"127.0.0.1:{port}") as err:
                check_reachable(address, timeout=3)
            assert time.monotonic() - t0 < 5
            assert "leave out --address" in str(err.value) and err.value.exit_code == 3
        monkeypatch.setenv("RAY_ADDRESS", f"127.0.0.1:{port}")  # what "auto" resolves to first
        assert resolve_address("auto") == f"127.0.0.1:{port}"
        monkeypatch.setenv("RAGAUGE_RAY_CONNECT_TIMEOUT", "soon")
        with pytest.raises(ConfigError, match="RAGAUGE_RAY_CONNECT_TIMEOUT"):
            check_reachable(f"127.0.0.1:{port}")
    finally:
        sock.close()


def _cli(args: list[str], cwd, timeout: float) -> subprocess.CompletedProcess:
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", RAGAUGE_RAY_CONNECT_TIMEOUT="3")
    env.pop("RAY_ADDRESS", None)
    return subprocess.run([sys.executable, "-m", "ragauge", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)


def test_cli_wrong_address_exits_3_quickly(tmp_path):
    pytest.importorskip("ray.data", reason="the Ray engine needs: pip install 'ragauge[ray]'")
    data = write_jsonl(tmp_path / "d.jsonl", mixed_records(10))
    sock, port = _dead_port()
    try:
        t0 = time.monotonic()
        done = _cli(["eval", str(data), "--engine", "ray", "--address", f"127.0.0.1:{port}", "-m", "mrr",
                     "--profile", "none", "-o", str(tmp_path / "out")], tmp_path, timeout=120)
    finally:
        sock.close()
    assert done.returncode == 3, done.stderr
    assert time.monotonic() - t0 < 60
    assert f"127.0.0.1:{port}" in done.stderr and "ray status" in done.stderr
    assert not (tmp_path / "out").exists()


def test_cli_shards_run_is_quiet_and_complete(tmp_path):
    pytest.importorskip("ray.data", reason="the Ray engine needs: pip install 'ragauge[ray]'")
    pq = pytest.importorskip("pyarrow.parquet")
    data = write_jsonl(tmp_path / "d.jsonl", mixed_records(40))
    done = _cli(["eval", str(data), "--engine", "ray", "--workers", "1", "-m", "ndcg@5,mrr,latency_p50",
                 "--profile", "none", "--shards", str(tmp_path / "shards"), "-o", str(tmp_path / "out")],
                tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    ray_lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert len(ray_lines) <= 1, ray_lines  # at most Ray's one core-worker line
    table = pq.read_table(sorted((tmp_path / "shards").glob("part-*.parquet")))
    doc = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    # the per-sample rows are in the shards only; results.json names them (issue 17: a flat driver)
    assert doc["samples"] == [] and doc["samples_in"] == "shards"
    run_id = doc["source"]["shards"].pop("run_id")
    assert doc["source"]["shards"] == {"path": str((tmp_path / "shards").resolve()), "format": "parquet",
                                       "files": 1, "n_samples": 40}
    assert table.schema.metadata[b"ragauge.run_id"].decode() == run_id
    local = ragauge.evaluate(str(data), metrics=["ndcg@5", "mrr", "latency_p50"], profile=None)
    assert table.column("id").to_pylist() == [s.id for s in local.samples]
    assert table.column("mrr").to_pylist() == local.columns["mrr"].values
    assert doc["source"]["n_samples"] == 40 and doc["summary"]["mrr"] == local.to_dict()["summary"]["mrr"]
