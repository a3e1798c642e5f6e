"""A deterministic embedding for the adapter tests: hashed bag of content lemmas (Russian-morphology aware).

Plain math, no model: cosine of two texts = overlap of their lemma sets, so scores are predictable.
Both libraries' ``Embeddings``/``BaseEmbedding`` subclasses in the tests call :func:`embed`.
"""

from __future__ import annotations

import hashlib
import math

from ragauge.judges.offline.lemmas import content_lemmas

DIM = 256


def embed(text: str) -> list[float]:
    vec = [0.0] * DIM
    for lemma in set(content_lemmas(text)):
        vec[int.from_bytes(hashlib.md5(lemma.encode()).digest()[:4], "little") % DIM] += 1.0
    norm = math.sqrt(sum(v * v for v in vec))
    if norm == 0:
        vec[0], norm = 1.0, 1.0  # an empty text still gets a valid unit vector
    return [v / norm for v in vec]
