"""Test data for the Ray engine tests: mixed samples from the demo set."""

from __future__ import annotations

import json
import pathlib
import re

DEMO = pathlib.Path(__file__).resolve().parents[2] / "src" / "ragauge" / "demo" / "data" / "samples.jsonl"


def mixed_records(n: int = 200) -> list[dict]:
    """``n`` samples built from the demo set: each as given, with its ranking reversed, with only its first
    sentence as the answer, and with another sample's answer (unfaithful) -- retrieval and judge cases."""
    base = [json.loads(line) for line in DEMO.read_text(encoding="utf-8").splitlines() if line.strip()]
    out: list[dict] = []
    for i, rec in enumerate(base):
        out.append(dict(rec))
        rev = dict(rec, id=f"{rec['id']}~rev")
        if isinstance(rec.get("contexts"), list):
            rev["contexts"] = list(reversed(rec["contexts"]))
        if isinstance(rec.get("retrieved_ids"), list):
            rev["retrieved_ids"] = list(reversed(rec["retrieved_ids"]))
        out.append(rev)
        if rec.get("answer"):
            first = re.split(r"(?<=[.!?])\s+", rec["answer"].strip())[0]
            out.append(dict(rec, id=f"{rec['id']}~first", answer=first))
            other = base[(i + 7) % len(base)].get("answer") or ""
            out.append(dict(rec, id=f"{rec['id']}~other", answer=other))
    return out[:n]


def write_jsonl(path: pathlib.Path, records: list[dict]) -> pathlib.Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path
