"""RAGChecker's claim-level diagnostics: where a wrong answer comes from (retriever, noise, the model).

Formulas: :mod:`ragauge.scores.ragchecker`. This module only asks the judge for the entailment
matrices, with the same claims every judge metric uses (``Claims`` of the answer and of the reference):

- answer claims vs the reference, and reference claims vs the answer: ``Agree`` (the decision answer
  correctness uses for two answers to one question; a judge without it verifies against the other text);
- answer claims and reference claims vs each retrieved chunk alone: ``Verify`` (a fact that needs
  two chunks together is in neither, as in RAGChecker).

A chunk is *relevant* by ``relevant_ids`` (grade >= 1) when the sample has them and every context has
an id, else by RAGChecker's rule (it entails at least one reference claim); the artifact's
``relevance`` says which. The artifact (one per sample, shared by the columns) summarises the
matrices: each claim with its verdict and the chunks that entail it.

Unscored: no answer; no reference; the reference declines to answer; no claims; a judge failure; the
generator metrics also when there are no contexts, and context utilization when no reference claim is
in the contexts. An answer that declines scores claim recall 0 (and has no precision).
"""

from __future__ import annotations

from typing import Any, Sequence

from ..data.schema import Sample
from ..judges.requests import Agree, Claims, Refusal, Reply, Request, Verify
from ..scores.ragchecker import diagnostics, relevant_chunks
from ._judging import languages
from .column import ScoreColumn
from .plan import Plan
from .registry import MetricDef
from .spec import MetricSpec

FAMILY = "diagnostics"
_AR = ("answer", "reference")
_ARC = ("answer", "reference", "contexts")

DEFINITIONS = [
    MetricDef("claim_precision", FAMILY, "Share of the answer's claims that the reference states (RAGChecker's precision).",
              requires=_AR, judge="any"),
    MetricDef("claim_recall", FAMILY, "Share of the reference's claims that the answer states (RAGChecker's recall).",
              requires=_AR, judge="any"),
    MetricDef("context_utilization", FAMILY, "Of the reference claims present in the contexts, the share the answer states.",
              requires=_ARC, judge="any"),
    MetricDef("noise_sensitivity_relevant", FAMILY, "Share of the answer's claims that are wrong yet entailed by a relevant chunk.",
              requires=_ARC, judge="any", higher_is_better=False),
    MetricDef("noise_sensitivity_irrelevant", FAMILY, "Share of the answer's claims that are wrong and entailed by an irrelevant chunk only.",
              requires=_ARC, judge="any", higher_is_better=False),
    MetricDef("hallucinated_claims", FAMILY, "Share of the answer's claims that are wrong and in no chunk (RAGChecker's hallucination).",
              requires=_ARC, judge="any", higher_is_better=False),
    MetricDef("self_knowledge", FAMILY, "Share of the answer's claims that are right but in no chunk (from the model, not the retrieval).",
              requires=_ARC, judge="any", higher_is_better=False),
]

_GENERATOR = {"context_utilization", "noise_sensitivity_relevant", "noise_sensitivity_irrelevant",
              "hallucinated_claims", "self_knowledge"}


def _relevant_by_ids(sample: Sample) -> list[bool] | None:
    if not sample.relevant_ids or any(c.id is None for c in sample.contexts):
        return None
    rel = {d for d, g in sample.relevant_ids.items() if g >= 1}
    return [c.id in rel for c in sample.contexts]


def _entailing(matrix: list[list[bool]], n: int) -> list[list[int]]:
    return [[c for c, row in enumerate(matrix) if row[j]] for j in range(n)]


def compute(specs: Sequence[MetricSpec], samples: Sequence[Sample]) -> Plan[dict[str, ScoreColumn]]:
    names = tuple(s.name for s in specs)
    n = len(samples)
    langs = languages(samples)
    base: list[str | None] = [None] * n  # reason for every metric
    for i, s in enumerate(samples):
        if not (s.answer or "").strip():
            base[i] = "no answer"
        elif not (s.reference or "").strip():
            base[i] = "no reference"
    todo = [i for i in range(n) if base[i] is None]
    ans = [samples[i].answer or "" for i in todo]
    ref = [samples[i].reference or "" for i in todo]
    lg = [langs[i] for i in todo]
    ids = [samples[i].id for i in todo]
    declined = yield ([Refusal(text=t, lang=x, sample=d, metrics=names) for t, x, d in zip(ans, lg, ids)]
                      + [Refusal(text=t, lang=x, sample=d, metrics=names) for t, x, d in zip(ref, lg, ids)])
    ans_refuse = [bool(r.value) for r in declined[:len(todo)]]
    ref_refuse = [bool(r.value) for r in declined[len(todo):]]
    # no claims of a reference that declines (nothing to score) nor of an answer that declines (recall 0)
    asked = [j for j in range(len(todo)) if not ref_refuse[j]]
    stated = [j for j in asked if not ans_refuse[j]]
    found = yield ([Claims(text=ans[j], lang=lg[j], role="answer", sample=ids[j], metrics=names) for j in stated]
                   + [Claims(text=ref[j], lang=lg[j], role="reference", sample=ids[j], metrics=names) for j in asked])
    no_claims: Reply = Reply([])
    ans_claims = [no_claims] * len(todo)
    ref_claims = [no_claims] * len(todo)
    for m, j in enumerate(stated):
        ans_claims[j] = found[m]
    for m, j in enumerate(asked):
        ref_claims[j] = found[len(stated) + m]
    values: dict[str, list[float | None]] = {}
    reasons: dict[str, list[str | None]] = {}
    for spec in specs:
        values.setdefault(spec.base, [None] * n)
        reasons.setdefault(spec.base, list(base))
    arts: list[dict[str, Any] | None] = [None] * n

    def unscore(i: int, why: str, only: set[str] | None = None) -> None:
        for name in reasons:
            if only is None or name in only:
                reasons[name][i], values[name][i] = why, None

    ready = []
    for j, i in enumerate(todo):
        failed = ans_claims[j].unscored or ref_claims[j].unscored
        if ref_refuse[j]:
            unscore(i, "the reference declines to answer")
        elif failed:
            unscore(i, failed.reason)
            arts[i] = failed.artifact()
        elif not ref_claims[j].value:
            unscore(i, "no claims in the reference")
        elif ans_refuse[j] or not ans_claims[j].value:
            unscore(i, "no claims in the answer" + (" (it declines to answer)" if ans_refuse[j] else ""))
            if ans_refuse[j] and "claim_recall" in values:  # declining states none of the reference's claims
                values["claim_recall"][i], reasons["claim_recall"][i] = 0.0, None
        else:
            ready.append(j)
    # answer vs reference both ways (the decision answer correctness uses), and both claim lists vs each chunk
    qs = [samples[todo[j]].question or "" for j in ready]
    items: list[Request] = [Agree(claims=ans_claims[j].value, other=ref[j], question=q, lang=lg[j], sample=ids[j],
                                  metrics=names) for j, q in zip(ready, qs)]
    items += [Agree(claims=ref_claims[j].value, other=ans[j], question=q, lang=lg[j], sample=ids[j], metrics=names)
              for j, q in zip(ready, qs)]
    owners = []
    for m, j in enumerate(ready):
        chunks = samples[todo[j]].context_texts
        for c, text in enumerate(chunks):
            items.append(Verify(claims=ans_claims[j].value, sources=[text], lang=lg[j], sample=ids[j], metrics=names))
            owners.append((m, "a", c))
            items.append(Verify(claims=ref_claims[j].value, sources=[text], lang=lg[j], sample=ids[j], metrics=names))
            owners.append((m, "g", c))
    replies = yield items
    pair_v, chunk_v = replies[:2 * len(ready)], replies[2 * len(ready):]
    per: dict[int, dict[str, dict[int, Any]]] = {}
    for (m, kind, c), v in zip(owners, chunk_v):
        per.setdefault(m, {"a": {}, "g": {}})[kind][c] = v
    for m, j in enumerate(ready):
        i = todo[j]
        a_r, g_r = pair_v[m], pair_v[len(ready) + m]
        rows = per.get(m, {"a": {}, "g": {}})
        failed = a_r.unscored or g_r.unscored or next(
            (v.unscored for d in rows.values() for v in d.values() if v.unscored), None)
        if failed:
            unscore(i, failed.reason)
            arts[i] = failed.artifact()
            continue
        n_ctx = len(samples[i].contexts)
        a_v, g_v = a_r.value, g_r.value
        a_mat = [[x.supported for x in rows["a"][c].value] for c in range(n_ctx)]
        g_mat = [[x.supported for x in rows["g"][c].value] for c in range(n_ctx)]
        by_ids = _relevant_by_ids(samples[i])
        relevant = by_ids if by_ids is not None else relevant_chunks(g_mat)
        got = diagnostics(correct=[x.supported for x in a_v], ref_in_answer=[x.supported for x in g_v],
                          answer_in_chunk=a_mat, ref_in_chunk=g_mat, relevant=relevant)
        for name in values:
            if name in _GENERATOR and not n_ctx:
                reasons[name][i] = "no contexts"
            elif got[name] is None:
                reasons[name][i] = "no reference claim is in the contexts"
            else:
                values[name][i] = got[name]
        a_in, g_in = _entailing(a_mat, len(a_v)), _entailing(g_mat, len(g_v))
        arts[i] = {
            "answer_claims": [{"text": x.claim, "correct": x.supported, "chunks": a_in[k]} for k, x in enumerate(a_v)],
            "reference_claims": [{"text": x.claim, "in_answer": x.supported, "chunks": g_in[k]} for k, x in enumerate(g_v)],
            "relevant_chunks": relevant,
            "relevance": "relevant_ids" if by_ids is not None else "reference claims",
            "decision": a_r.via,
        }
    return {spec.name: ScoreColumn(values[spec.base], reasons[spec.base], list(arts)) for spec in specs}
