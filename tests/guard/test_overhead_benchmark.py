"""The overhead benchmark runs end to end (a tiny configuration; timings are not asserted, the shape is)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "guard_overhead.py"


def test_benchmark_smoke(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location("guard_overhead", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    reqs = module.requests_from_demo()
    assert len(reqs) > 40 and all(len(r["chunks"]) == 5 for r in reqs)
    out = tmp_path / "o.json"
    assert module.main(["--requests", "4", "--warmup", "1", "--modes", "cold", "--post-checks", "flag",
                        "--json", str(out)]) == 0
    row = json.loads(out.read_text())["rows"][0]
    assert row["mode"] == "cold" and row["n"] == 4 and sum(row["kinds"].values()) == 4
    assert row["kinds"].get("answer", 0) + row["kinds"].get("blocked", 0) == 4  # gates 0: every stage ran
    assert 0 < row["overhead_ms"]["p50"] <= row["overhead_ms"]["p95"] <= row["overhead_ms"]["max"]
    assert row["stages_p95_ms"]["post_check"] > 0
    assert "p95 ms" in capsys.readouterr().out
