"""The demo's golden set is what the offline generator makes of the demo knowledge base."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from ragauge.demo import DEMO_DIR

pytest.importorskip("pymorphy3", reason="Russian templates need pymorphy3 (pip install 'ragauge[offline]')")

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "build_demo_golden.py"


def _script():
    if not SCRIPT.is_file():
        pytest.skip("scripts/build_demo_golden.py is not in this checkout")
    spec = importlib.util.spec_from_file_location("build_demo_golden", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_regenerated_golden_is_byte_identical() -> None:
    text = _script().build()
    assert (DEMO_DIR / "golden.jsonl").read_text(encoding="utf-8") == text, \
        "demo golden.jsonl is out of date: run python scripts/build_demo_golden.py"


def test_demo_golden_loads_as_samples_and_points_into_the_kb() -> None:
    import json

    from ragauge.data import load

    samples = load(DEMO_DIR / "golden.jsonl")
    kb = {json.loads(line)["id"] for line in (DEMO_DIR / "kb.jsonl").read_text(encoding="utf-8").splitlines()}
    assert len(samples) == 120
    rows = [json.loads(line) for line in (DEMO_DIR / "golden.jsonl").read_text(encoding="utf-8").splitlines()]
    assert all(set(r["relevant_ids"]) <= kb for r in rows)
    slices = {s for r in rows for s in r["metadata"]["slices"]}
    assert {"table", "numbers", "versions", "unanswerable", "badly_formulated", "paraphrase", "sensitive",
            "clause", "long_section"} <= slices


def test_demo_unanswerable_and_sensitive_cases_come_from_the_demo_documents() -> None:
    """Issue 19: no fixed list; sensitive references quote the policy sentence of their chunk."""
    import json
    import re

    kb = {json.loads(line)["id"]: json.loads(line)["text"]
          for line in (DEMO_DIR / "kb.jsonl").read_text(encoding="utf-8").splitlines()}
    rows = [json.loads(line) for line in (DEMO_DIR / "golden.jsonl").read_text(encoding="utf-8").splitlines()]
    unanswerable = [r for r in rows if r["metadata"]["expected_behaviour"] == "not_found"]
    assert unanswerable and all(r["metadata"].get("absent_check") for r in unanswerable)
    assert not any(re.search(r"унитаз|натяжн|септик|скважин", r["question"]) for r in unanswerable)
    sensitive = [r for r in rows if r["metadata"]["expected_behaviour"] == "refuse_or_caution"]
    assert sensitive
    for r in sensitive:
        quote = re.search(r"«(.+)»", r["reference"]).group(1)
        assert any(quote in kb[i] for i in r["relevant_ids"]), r["reference"]
