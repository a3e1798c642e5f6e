"""Coverage of a golden set: which fact-bearing chunks got at least one question, and why the others did not.

A chunk is *fact-bearing* (:func:`fact_bearing`) when it is a table with rows, or a text chunk with a
sentence that holds a number (a clause number "6.1." does not count) or a definition ("X — это Y",
"X is a Y"). The share of them with a case is the coverage the summary reports; each one without a case
is listed with the reason (:func:`unused`): no question could be formed from it (with the sentence-level
reasons), its questions were dropped by a check, or they were made but not selected within ``--n``.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Iterable, Sequence

from ragauge.generate.chunking import Chunk
from ragauge.generate.questions.facts import sentences, split_table

_CLAUSE = re.compile(r"^\d+(?:\.\d+)+\.?\s+")
_DEFINITION = re.compile(r"\s—\s+это\s|\b(?:is|means) (?:an?|any)\s", re.IGNORECASE)


def fact_bearing(chunk: Chunk) -> bool:
    if chunk.kind == "table" or split_table(chunk.text) is not None:
        parsed = split_table(chunk.text)
        return bool(parsed and parsed[1])
    return any(re.search(r"\d", _CLAUSE.sub("", s)) or _DEFINITION.search(s) for s in sentences(chunk))


def unused(chunk: Chunk, *, made: set[str], failed: dict[str, Counter], why: dict[str, Counter]) -> str:
    """Why a fact-bearing chunk has no case, in words."""
    if chunk.id in failed:
        return "its questions failed a check: " + ", ".join(f"{k} {v}" for k, v in sorted(failed[chunk.id].items()))
    if chunk.id in made:
        return "its questions were made but not selected within --n (raise --n)"
    reasons = why.get(chunk.id)
    if reasons:
        return "no question could be formed: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))
    return "no question could be formed (no template fits its sentences)"


def summary(chunks: Iterable[Chunk], cases_chunk_ids: Sequence[Iterable[str]], *, made: set[str],
            failed: dict[str, Counter], why: dict[str, Counter]) -> dict:
    """``{"fact_bearing", "covered", "share", "by_document", "unused": [{chunk_id, doc_id, section, reason}]}``."""
    bearing = [c for c in chunks if fact_bearing(c)]
    asked = {i for ids in cases_chunk_ids for i in ids}
    per_doc: dict[str, list[int]] = {}
    rows = []
    for c in bearing:
        got = c.id in asked
        per_doc.setdefault(c.doc_id, [0, 0])
        per_doc[c.doc_id][0] += got
        per_doc[c.doc_id][1] += 1
        if not got:
            rows.append({"chunk_id": c.id, "doc_id": c.doc_id, "section": " / ".join(c.section),
                         "reason": unused(c, made=made, failed=failed, why=why)})
    covered = sum(v[0] for v in per_doc.values())
    return {"fact_bearing": len(bearing), "covered": covered,
            "share": round(covered / len(bearing), 3) if bearing else None,
            "by_document": {d: f"{a}/{b}" for d, (a, b) in sorted(per_doc.items())}, "unused": rows}


__all__ = ["fact_bearing", "summary", "unused"]
