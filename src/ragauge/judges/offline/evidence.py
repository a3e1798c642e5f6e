"""For each claim, the best evidence windows in the retrieved contexts, with offsets.

Candidates are windows of one and two consecutive sentences of every context
(:func:`ragauge.judges.offline.text.windows`). Each (claim, window) pair gets::

    sim     = cos(embed(claim), embed(window))                         USE multilingual v3
    lexical = sum(idf[l] for l in C & W) / sum(idf[l] for l in C)      C, W: content lemmas
    score   = sim_weight * sim + (1 - sim_weight) * lexical  (- pair_penalty for 2-sentence windows)

``idf`` is BM25's ``ln(1 + (N - df + 0.5) / (df + 0.5))`` over the sentences of the sample's
contexts, so a lemma every sentence shares ("договор") weighs little and a rare one ("кровля",
"1150") a lot; a claim lemma absent from every context gets the largest idf of the sample.

Why not BM25 proper (or bm25s): a sample has tens of windows, so a per-sample index costs more to
build than to query; BM25 scores are unbounded and not comparable across claims, while the
verifier wants a feature in [0, 1]; and the lemmas are ours (pymorphy3 / Porter), so the
tokeniser of a library would be bypassed anyway. The idf-weighted recall above is BM25 without
term-frequency saturation and length normalisation, both of which matter little for one- or
two-sentence windows.

Cost: sentences are embedded once (one ``embed`` call for all samples of a batch); two-sentence
windows are ranked with the normalised sum of their sentence vectors (cosine ~0.90 to the real
embedding) and only the shortlisted ones (``top_n + 2`` per claim) are embedded for real, in a
second call, so the returned ``sim`` is always exact. Contexts repeat across samples: their
sentence splits and lemmas are cached by text, their vectors by the embedder.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

import numpy as np

from ragauge.judges.offline import deps
from ragauge.judges.offline.claims import Claim
from ragauge.judges.offline.lemmas import content_lemmas
from ragauge.judges.offline.overlap import idf_table
from ragauge.judges.offline.text import Span, split_sentences


class SupportsEmbed(Protocol):
    """Anything with ``embed(texts) -> (n, d)`` float32 L2-normalised rows (see ``embed.Embedder``)."""

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


@dataclass(frozen=True, slots=True)
class Evidence:
    """A window of ``contexts[context_index]``: ``context[start:end] == text``, with its scores."""

    context_index: int
    start: int
    end: int
    text: str
    sim: float  # cosine of the claim and window embeddings
    lexical: float  # idf-weighted recall of the claim's content lemmas in the window
    score: float  # the ranking score (module doc)


@dataclass(frozen=True, slots=True)
class _Window:
    context_index: int
    first: int  # sentence indices, inclusive
    last: int
    start: int
    end: int
    lemmas: frozenset[str]


@lru_cache(maxsize=8192)
def _prepare(context: str) -> tuple[tuple[Span, ...], tuple[frozenset[str], ...]]:
    sentences = tuple(split_sentences(context))
    return sentences, tuple(frozenset(content_lemmas(s.text)) for s in sentences)


def _lexical(claim: frozenset[str], window: frozenset[str], idf: dict[str, float], top: float) -> float:
    if not claim:
        return 0.0
    total = sum(idf.get(lemma, top) for lemma in claim)
    found = sum(idf.get(lemma, top) for lemma in claim & window)
    return found / total if total > 0 else 0.0


def _distinct(windows: list[_Window], order: np.ndarray, limit: int) -> list[int]:
    """The first ``limit`` windows in ``order`` that overlap no earlier pick of the same context."""
    picked: list[int] = []
    for j in order:
        w = windows[j]
        if any(
            windows[p].context_index == w.context_index and windows[p].first <= w.last and w.first <= windows[p].last
            for p in picked
        ):
            continue
        picked.append(int(j))
        if len(picked) == limit:
            break
    return picked


def best_evidence(
    claims: Sequence[Claim],
    contexts: Sequence[str],
    *,
    embedder: SupportsEmbed,
    top_n: int = 3,
    sim_weight: float = 0.6,
    pair_penalty: float = 0.03,
) -> list[list[Evidence]]:
    """The ``top_n`` best windows for each claim, best first (one list per claim, maybe shorter).

    Windows of the same context never overlap in one claim's list, so the evidence is diverse.
    No contexts (or only blank ones) give an empty list per claim.
    """
    return best_evidence_many(
        [(claims, contexts)], embedder=embedder, top_n=top_n, sim_weight=sim_weight, pair_penalty=pair_penalty
    )[0]


def best_evidence_many(
    samples: Sequence[tuple[Sequence[Claim], Sequence[str]]],
    *,
    embedder: SupportsEmbed,
    top_n: int = 3,
    sim_weight: float = 0.6,
    pair_penalty: float = 0.03,
) -> list[list[list[Evidence]]]:
    """:func:`best_evidence` for many ``(claims, contexts)`` samples with two ``embed`` calls in all."""
    if top_n < 1:
        raise ValueError(f"top_n must be >= 1 (got {top_n})")
    if not 0.0 <= sim_weight <= 1.0:
        raise ValueError(f"sim_weight must be in [0, 1] (got {sim_weight})")
    for _, contexts in samples:
        if isinstance(contexts, str):
            raise TypeError("contexts must be a sequence of strings, not one string")

    # Phase 1: every claim and every context sentence of the batch in one call.
    texts: list[str] = []
    for claims, contexts in samples:
        texts.extend(c.text for c in claims)
        for context in contexts:
            texts.extend(s.text for s in _prepare(context)[0])
    vectors = embedder.embed(texts)

    plans = []
    pair_texts: dict[str, None] = {}
    row = 0
    shortlist = top_n + 2
    for claims, contexts in samples:
        claim_vecs = vectors[row : row + len(claims)]
        row += len(claims)
        singles: list[_Window] = []
        pairs: list[_Window] = []
        sent_vecs = []
        pair_vecs = []
        sentence_lemmas = []
        for ci, context in enumerate(contexts):
            sentences, lemma_sets = _prepare(context)
            vecs = vectors[row : row + len(sentences)]
            row += len(sentences)
            sentence_lemmas.extend(lemma_sets)
            for i, s in enumerate(sentences):
                singles.append(_Window(ci, i, i, s.start, s.end, lemma_sets[i]))
                sent_vecs.append(vecs[i])
            for i in range(len(sentences) - 1):
                a, b = sentences[i], sentences[i + 1]
                pairs.append(_Window(ci, i, i + 1, a.start, b.end, lemma_sets[i] | lemma_sets[i + 1]))
                pair = vecs[i] + vecs[i + 1]
                pair_vecs.append(pair / max(float(np.linalg.norm(pair)), 1e-12))
        windows = singles + pairs  # the row order of window_vecs
        if not claims or not windows:
            plans.append((claims, contexts, windows, claim_vecs, None, None, None))
            continue
        window_vecs = np.asarray(sent_vecs + pair_vecs, dtype=np.float32)
        with deps.blas_threads(1):  # a few rows: extra BLAS threads only spin
            sims = claim_vecs @ window_vecs.T
        idf = idf_table(sentence_lemmas)
        top = max(idf.values(), default=1.0)
        lexical = np.zeros_like(sims)
        for k, claim in enumerate(claims):
            claim_lemmas = frozenset(content_lemmas(claim.text))
            for j, window in enumerate(windows):
                lexical[k, j] = _lexical(claim_lemmas, window.lemmas, idf, top)
        penalty = np.array([pair_penalty if w.first != w.last else 0.0 for w in windows], dtype=np.float32)
        scores = sim_weight * sims + (1.0 - sim_weight) * lexical - penalty
        order = np.argsort(-scores, axis=1, kind="stable")
        short = [_distinct(windows, order[k], shortlist) for k in range(len(claims))]
        for picked in short:
            for j in picked:
                w = windows[j]
                if w.first != w.last:
                    pair_texts[contexts[w.context_index][w.start : w.end]] = None
        plans.append((claims, contexts, windows, claim_vecs, sims, lexical, short))

    # Phase 2: the real embeddings of the shortlisted two-sentence windows.
    pair_list = list(pair_texts)
    pair_index = {text: i for i, text in enumerate(pair_list)}
    pair_exact = embedder.embed(pair_list) if pair_list else None

    out: list[list[list[Evidence]]] = []
    for claims, contexts, windows, claim_vecs, sims, lexical, short in plans:
        if sims is None:
            out.append([[] for _ in claims])
            continue
        per_claim = []
        for k in range(len(claims)):
            candidates = []
            for j in short[k]:
                w = windows[j]
                text = contexts[w.context_index][w.start : w.end]
                sim = float(sims[k, j])
                if w.first != w.last:
                    sim = float(claim_vecs[k] @ pair_exact[pair_index[text]])
                lex = float(lexical[k, j])
                score = sim_weight * sim + (1.0 - sim_weight) * lex - (pair_penalty if w.first != w.last else 0.0)
                candidates.append((score, j, sim, lex, text))
            candidates.sort(key=lambda c: (-c[0], c[1]))
            per_claim.append(
                [
                    Evidence(windows[j].context_index, windows[j].start, windows[j].end, text, sim, lex, float(score))
                    for score, j, sim, lex, text in candidates[:top_n]
                ]
            )
        out.append(per_claim)
    return out


__all__ = ["Evidence", "SupportsEmbed", "best_evidence", "best_evidence_many"]
