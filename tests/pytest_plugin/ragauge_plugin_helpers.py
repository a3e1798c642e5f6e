"""Small golden data sets for the plugin tests."""

from __future__ import annotations

import json


def rows(n: int = 20, *, miss: set[int] = frozenset(), second: set[int] = frozenset()) -> list[dict]:
    """Ranking samples q0..q{n-1}: relevant 'a' at rank 1, at rank 2 for ``second``, absent for ``miss``."""
    out = []
    for i in range(n):
        ranking = ["x", "y", "z"] if i in miss else (["b", "a", "c"] if i in second else ["a", "b", "c"])
        out.append({"id": f"q{i}", "question": f"Вопрос номер {i}?", "retrieved_ids": ranking,
                    "relevant_ids": ["a"], "latency_ms": 900.0 + 10 * i})
    return out


def write_jsonl(path, records) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
