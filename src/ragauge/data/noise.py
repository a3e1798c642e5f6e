"""Build the noisy variant of each sample for the noise-robustness metric.

``make_noisy_variants(samples, n_noise=2, seed=0)`` returns, for each sample with contexts, a copy
whose contexts have ``n_noise`` irrelevant chunks (taken from *other* samples' contexts, never one of
this sample's relevant ids or texts) inserted at random positions. The copy has id ``<id>~noise``,
``metadata.noise_of = <id>``, no answer and no timings: run your pipeline's generator on its contexts,
fill in ``answer``, and evaluate the clean and noisy samples together with ``noise_robustness``.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Sequence

from .schema import Context, Sample

SUFFIX = "~noise"


def make_noisy_variants(samples: Sequence[Sample], *, n_noise: int = 2, seed: int = 0) -> list[Sample]:
    if n_noise < 1:
        raise ValueError(f"n_noise must be >= 1, got {n_noise}")
    rng = random.Random(seed)
    pool: list[tuple[int, Context]] = []
    seen_texts: set[str] = set()
    for i, s in enumerate(samples):
        for c in s.contexts:
            if c.text not in seen_texts:
                seen_texts.add(c.text)
                pool.append((i, c))
    out = []
    for i, s in enumerate(samples):
        if not s.contexts:
            continue
        own_texts = {c.text for c in s.contexts}
        relevant = set(s.relevant_ids or {})
        own_ids = {c.id for c in s.contexts if c.id is not None}
        candidates = [c for j, c in pool if j != i and c.text not in own_texts
                      and (c.id is None or (c.id not in relevant and c.id not in own_ids))]
        if len(candidates) < n_noise:
            continue
        contexts = list(s.contexts)
        for c in rng.sample(candidates, n_noise):
            contexts.insert(rng.randint(0, len(contexts)), replace(c, score=None, metadata={"noise": True}))
        ids = tuple(c.id for c in contexts) if all(c.id is not None for c in contexts) else None
        out.append(replace(
            s, id=s.id + SUFFIX, answer=None, contexts=tuple(contexts),
            retrieved_ids=ids if ids is not None else s.retrieved_ids,
            latency_ms=None, retrieval_ms=None, ttft_ms=None,
            metadata={**dict(s.metadata), "noise_of": s.id, "n_noise": n_noise},
        ))
    return out
