"""Balanced selection: round-robin over slices, and inside a slice round-robin over documents.

Each pass takes at most one candidate from every slice (in :data:`SLICE_ORDER`), and each slice serves
its documents in turn; so with a target of ``n`` every slice gets about the same share (``n / #slices``)
and, inside it, every document about the same share, until a slice runs out and the others fill the
rest. The order inside a (slice, document) queue is the seeded shuffle of the candidates, so the same
seed gives the same selection. A candidate refused by ``accept`` (a near duplicate) is counted and skipped.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from typing import Callable, Sequence

from ragauge.generate.questions.candidate import Candidate

#: The order slices are served in: the seeds' slices that matter most come first.
SLICE_ORDER = ("numbers", "table", "versions", "definition", "clause", "entities", "long_section",
               "unanswerable", "sensitive", "paraphrase", "badly_formulated")


def _slice_rank(key: str) -> int:
    return SLICE_ORDER.index(key) if key in SLICE_ORDER else len(SLICE_ORDER)


def select(candidates: Sequence[Candidate], n: int, rng: random.Random, *,
           accept: Callable[[Candidate], bool], slice_of: Callable[[Candidate], str] | None = None,
           caps: dict[str, int] | None = None) -> tuple[list[int], int]:
    """Indexes of up to ``n`` chosen candidates, in choice order, and how many ``accept`` refused.

    ``caps`` limits how many a bucket may give (e.g. ``{"unanswerable": 12}``); buckets without a cap
    are limited only by the round-robin.
    """
    caps = caps or {}
    taken: dict[str, int] = {}
    slice_of = slice_of or (lambda c: c.slice_key)
    queues: dict[str, OrderedDict[str, list[int]]] = {}
    order = list(range(len(candidates)))
    rng.shuffle(order)
    for i in order:
        c = candidates[i]
        queues.setdefault(slice_of(c), OrderedDict()).setdefault(c.doc_key, []).append(i)
    for per_doc in queues.values():  # documents in a stable order, independent of the shuffle
        for doc in sorted(per_doc):
            per_doc.move_to_end(doc)
    slices = sorted(queues, key=lambda s: (_slice_rank(s), s))
    pointer = {s: 0 for s in slices}
    chosen: list[int] = []
    refused = 0
    while len(chosen) < n and any(queues[s] for s in slices):
        for s in slices:
            if len(chosen) >= n:
                break
            per_doc = queues[s]
            if taken.get(s, 0) >= caps.get(s, n):
                per_doc.clear()
                continue
            while per_doc:
                docs = list(per_doc)
                doc = docs[pointer[s] % len(docs)]
                i = per_doc[doc].pop(0)
                if not per_doc[doc]:
                    del per_doc[doc]
                else:
                    pointer[s] += 1
                if accept(candidates[i]):
                    chosen.append(i)
                    taken[s] = taken.get(s, 0) + 1
                    break
                refused += 1
    return chosen, refused


def cover_first(candidates: Sequence[Candidate], chunk_ids: Sequence[str], n: int, rng: random.Random, *,
                accept: Callable[[Candidate], bool]) -> tuple[list[int], int]:
    """One answerable candidate for each chunk of ``chunk_ids`` not yet covered, in that order, up to ``n``:
    the coverage pass before :func:`select`. A "simple" question is preferred to a computed one; the choice
    among them follows the seeded shuffle. Returns (indexes, how many ``accept`` refused)."""
    order = list(range(len(candidates)))
    rng.shuffle(order)
    by_chunk: dict[str, list[int]] = {}
    for i in order:
        c = candidates[i]
        if c.expected_behaviour == "answer" and c.chunks and "paraphrase" not in c.slices:
            by_chunk.setdefault(c.chunks[0].id, []).append(i)
    for ids in by_chunk.values():
        ids.sort(key=lambda i: candidates[i].type != "simple")
    chosen: list[int] = []
    covered: set[str] = set()
    refused = 0
    for cid in chunk_ids:
        if len(chosen) >= n:
            break
        if cid in covered:
            continue
        for i in by_chunk.get(cid, []):
            if accept(candidates[i]):
                chosen.append(i)
                covered.update(ch.id for ch in candidates[i].chunks)
                break
            refused += 1
    return chosen, refused


def interleave_by_document(chunks: Sequence) -> list[str]:
    """Chunk ids taking one chunk of each document in turn (documents sorted), so a short coverage pass
    serves every document."""
    per_doc: dict[str, list[str]] = {}
    for c in chunks:
        per_doc.setdefault(c.doc_id, []).append(c.id)
    out: list[str] = []
    queues = [per_doc[d] for d in sorted(per_doc)]
    k = 0
    while any(k < len(q) for q in queues):
        out += [q[k] for q in queues if k < len(q)]
        k += 1
    return out


__all__ = ["SLICE_ORDER", "cover_first", "interleave_by_document", "select"]
