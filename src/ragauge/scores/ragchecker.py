"""RAGChecker's claim-level diagnostics (Ru et al., 2024, "RAGChecker: A Fine-grained Framework for
Diagnosing Retrieval-Augmented Generation"), as pure functions of entailment matrices.

Inputs, all booleans (a judge decides them; these functions only count):

- ``correct[a]``: answer claim *a* is entailed by the reference (ground-truth answer);
- ``ref_in_answer[g]``: reference claim *g* is entailed by the answer;
- ``answer_in_chunk[c][a]``: answer claim *a* is entailed by retrieved chunk *c* (RAGChecker's
  ``retrieved2response``, chunk-major);
- ``ref_in_chunk[c][g]``: reference claim *g* is entailed by chunk *c* (``retrieved2answer``);
- ``relevant[c]``: chunk *c* is relevant. RAGChecker calls a chunk relevant when it entails at least one
  reference claim (:func:`relevant_chunks`); ragauge uses ``relevant_ids`` instead when they are given.

With A = the answer claims, G = the reference claims, "in chunks" = entailed by at least one chunk:

    claim_precision              = |correct A| / |A|
    claim_recall                 = |G in answer| / |G|
    context_precision_share      = |relevant chunks| / |chunks|               (RAGChecker's context precision)
    context_utilization          = |G in answer and in chunks| / |G in chunks|
    noise_sensitivity_relevant   = |incorrect A in a relevant chunk| / |A|
    noise_sensitivity_irrelevant = |incorrect A in an irrelevant chunk and in no relevant one| / |A|
    hallucinated_claims          = |incorrect A in no chunk| / |A|
    self_knowledge               = |correct A in no chunk| / |A|

``None`` means undefined (no claims; no reference claim in the chunks), never 0.

>>> d = diagnostics(correct=[True, False, False], ref_in_answer=[True, False],
...                 answer_in_chunk=[[True, True, False], [False, False, False]],
...                 ref_in_chunk=[[True, True], [False, False]])
>>> d["claim_precision"], d["claim_recall"], d["context_utilization"]
(0.3333333333333333, 0.5, 0.5)
>>> d["noise_sensitivity_relevant"], d["hallucinated_claims"], d["self_knowledge"]
(0.3333333333333333, 0.3333333333333333, 0.0)
"""

from __future__ import annotations

from typing import Sequence

#: The metric names :func:`diagnostics` returns, in report order.
NAMES = (
    "claim_precision", "claim_recall", "context_utilization", "noise_sensitivity_relevant",
    "noise_sensitivity_irrelevant", "hallucinated_claims", "self_knowledge",
)


def context_precision_share(relevant: Sequence[bool]) -> float | None:
    """Relevant chunks / all chunks, order ignored (seed 001's context precision, RAGChecker's too);
    ``None`` when there is no chunk.

    >>> round(context_precision_share([True, False, True]), 2)
    0.67
    >>> context_precision_share([]) is None
    True
    """
    if not relevant:
        return None
    return sum(bool(r) for r in relevant) / len(relevant)


def relevant_chunks(ref_in_chunk: Sequence[Sequence[bool]]) -> list[bool]:
    """RAGChecker's rule: a chunk is relevant when it entails at least one reference claim.

    >>> relevant_chunks([[False, True], [False, False]])
    [True, False]
    """
    return [any(row) for row in ref_in_chunk]


def _any_chunk(matrix: Sequence[Sequence[bool]], n: int, rows: Sequence[bool] | None = None) -> list[bool]:
    """Per column: entailed by at least one chunk (only the chunks where ``rows`` is true, if given)."""
    out = [False] * n
    for c, row in enumerate(matrix):
        if rows is not None and not rows[c]:
            continue
        if len(row) != n:
            raise ValueError(f"chunk {c}: {len(row)} entailment flags for {n} claims")
        out = [o or bool(x) for o, x in zip(out, row)]
    return out


def _share(flags: Sequence[bool], n: int) -> float | None:
    return sum(flags) / n if n else None


def diagnostics(
    *,
    correct: Sequence[bool],
    ref_in_answer: Sequence[bool],
    answer_in_chunk: Sequence[Sequence[bool]],
    ref_in_chunk: Sequence[Sequence[bool]],
    relevant: Sequence[bool] | None = None,
) -> dict[str, float | None]:
    """Every RAGChecker diagnostic of one sample (module docstring); ``relevant`` defaults to
    :func:`relevant_chunks` of ``ref_in_chunk``.

    >>> d = diagnostics(correct=[True], ref_in_answer=[True], answer_in_chunk=[[False]], ref_in_chunk=[[False]])
    >>> d["self_knowledge"], d["context_utilization"] is None
    (1.0, True)
    """
    n_a, n_g = len(correct), len(ref_in_answer)
    if len(answer_in_chunk) != len(ref_in_chunk):
        raise ValueError("answer_in_chunk and ref_in_chunk must have one row per chunk")
    rel = list(relevant) if relevant is not None else relevant_chunks(ref_in_chunk)
    if len(rel) != len(answer_in_chunk):
        raise ValueError("relevant must have one flag per chunk")
    a_any = _any_chunk(answer_in_chunk, n_a)
    a_rel = _any_chunk(answer_in_chunk, n_a, rel)
    a_irr = _any_chunk(answer_in_chunk, n_a, [not r for r in rel])
    g_any = _any_chunk(ref_in_chunk, n_g)
    wrong = [not c for c in correct]
    in_ctx = sum(g_any)
    return {
        "claim_precision": _share(correct, n_a),
        "claim_recall": _share(ref_in_answer, n_g),
        "context_utilization": (sum(g and a for g, a in zip(g_any, ref_in_answer)) / in_ctx) if in_ctx else None,
        "noise_sensitivity_relevant": _share([w and r for w, r in zip(wrong, a_rel)], n_a),
        "noise_sensitivity_irrelevant": _share([w and i and not r for w, i, r in zip(wrong, a_irr, a_rel)], n_a),
        "hallucinated_claims": _share([w and not x for w, x in zip(wrong, a_any)], n_a),
        "self_knowledge": _share([c and not x for c, x in zip(correct, a_any)], n_a),
    }
