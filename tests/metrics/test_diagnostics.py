"""RAGChecker diagnostics, context relevance, seed 001's context precision and the citation heuristics,
with the real offline judge on hand-made Russian cases whose expected values are worked out below."""

import pytest

from ragauge.data.schema import Context, Sample
from ragauge.errors import InputError
from ragauge.engine.scoring import score_columns
from ragauge.metrics.registry import parse_metric, parse_metrics

CTX = (
    Context("Аванс составляет 30% от цены договора и перечисляется в течение 5 рабочих дней с даты подписания.", id="c1"),
    Context("Гарантийный срок на выполненные работы составляет 3 года с даты подписания акта приёмки.", id="c2"),
    Context("Стоимость монтажа гипсокартона в один слой — 1 150 руб. за м².", id="c3"),
)
REF = "Аванс составляет 30% от цены договора. Его перечисляют в течение 5 рабочих дней."
Q = "Какой аванс?"
DIAG = ["claim_precision", "claim_recall", "context_utilization", "noise_sensitivity_relevant",
        "noise_sensitivity_irrelevant", "hallucinated_claims", "self_knowledge"]


@pytest.fixture(scope="module")
def judge():
    from ragauge.judges.base import get_judge

    return get_judge("offline")


def run(names, samples, judge):
    out = {}
    for spec in parse_metrics(names):
        out.update(score_columns([spec], samples, judge if spec.judge else None))
    return out


def test_diagnostics_hand_worked(judge):
    samples = [
        # both reference claims, both from c1: everything right, nothing from noise or the model
        Sample(id="good", question=Q, answer="Аванс составляет 30% от цены договора. Его перечисляют в течение 5 рабочих дней.",
               reference=REF, contexts=CTX),
        # claim 2 (warranty) is true to c2 but not what the reference says: wrong, from an irrelevant chunk
        Sample(id="noise", question=Q, answer="Аванс составляет 30% от цены договора. Гарантийный срок составляет 3 года.",
               reference=REF, contexts=CTX),
        # 50% is in no chunk and not in the reference: a hallucinated claim
        Sample(id="hall", question=Q, answer="Аванс составляет 50% от цены договора.", reference=REF, contexts=CTX),
        # right, but the chunk that says it was not retrieved: self-knowledge; no reference claim in the contexts
        Sample(id="self", question=Q, answer="Аванс составляет 30% от цены договора.", reference=REF, contexts=CTX[1:]),
    ]
    out = run(DIAG, samples, judge)
    got = {n: out[n].values for n in DIAG}
    assert got == {
        "claim_precision": [1.0, 0.5, 0.0, 1.0],
        "claim_recall": [1.0, 0.5, 0.0, 0.5],
        "context_utilization": [1.0, 0.5, 0.0, None],
        "noise_sensitivity_relevant": [0.0, 0.0, 0.0, 0.0],
        "noise_sensitivity_irrelevant": [0.0, 0.5, 0.0, 0.0],
        "hallucinated_claims": [0.0, 0.0, 1.0, 0.0],
        "self_knowledge": [0.0, 0.0, 0.0, 1.0],
    }
    assert out["context_utilization"].reasons[3] == "no reference claim is in the contexts"
    art = out["claim_precision"].artifacts[1]
    assert art["relevance"] == "reference claims" and art["relevant_chunks"] == [True, False, False]
    assert [(c["correct"], c["chunks"]) for c in art["answer_claims"]] == [(True, [0]), (False, [1])]
    assert [c["chunks"] for c in art["reference_claims"]] == [[0], [0]]


def test_relevant_ids_decide_which_chunks_are_relevant(judge):
    s = Sample(id="n", question=Q, answer="Аванс составляет 30% от цены договора. Гарантийный срок составляет 3 года.",
               reference=REF, contexts=CTX, relevant_ids={"c1": 1, "c2": 1})
    out = run(["noise_sensitivity_relevant", "noise_sensitivity_irrelevant"], [s], judge)
    assert out["noise_sensitivity_relevant"].values == [0.5]  # the labels call c2 relevant
    assert out["noise_sensitivity_irrelevant"].values == [0.0]
    assert out["noise_sensitivity_relevant"].artifacts[0]["relevance"] == "relevant_ids"


def test_diagnostics_unscored_and_refusal(judge):
    samples = [
        Sample(id="1", question=Q, answer="Аванс 30%.", contexts=CTX),
        Sample(id="2", question=Q, answer="В базе нет документов, отвечающих на этот вопрос.", reference=REF, contexts=CTX),
        Sample(id="3", question=Q, answer="Аванс составляет 30% от цены договора.", reference=REF),
    ]
    out = run(["claim_recall", "claim_precision", "hallucinated_claims"], samples, judge)
    assert out["claim_recall"].reasons[0] == "no reference"
    assert out["claim_recall"].values[1] == 0.0  # declining states none of the reference's claims
    assert "declines" in out["claim_precision"].reasons[1]
    assert out["claim_precision"].values[2] == 1.0 and out["hallucinated_claims"].reasons[2] == "no contexts"


def test_context_relevance_per_chunk(judge):
    s = Sample(id="r", question=Q, contexts=CTX)
    col = run(["context_relevance"], [s, Sample(id="x", question=Q)], judge)["context_relevance"]
    chunks = col.artifacts[0]["chunks"]
    assert [c["id"] for c in chunks] == ["c1", "c2", "c3"]
    assert chunks[0]["score"] > 0.5 > chunks[1]["score"] > chunks[2]["score"]  # the advance chunk is the relevant one
    assert col.values[0] == pytest.approx(sum(c["score"] for c in chunks) / 3, abs=1e-4)
    assert col.values[1] is None and col.reasons[1] == "no contexts"


def test_context_precision_share_ids_beside_the_rank_weighted_one():
    # seed 001: 3 chunks found, 2 relevant -> 0.67 whatever the order; the rank-weighted one depends on it
    s = Sample(id="s", question=Q, retrieved_ids=("x", "a", "b"), relevant_ids={"a": 1, "b": 1})
    out = run(["context_precision_share_ids", "context_precision_ids"], [s], None)
    assert round(out["context_precision_share_ids"].values[0], 2) == 0.67
    assert out["context_precision_ids"].values[0] == pytest.approx((1 / 2 + 2 / 3) / 2)
    assert parse_metric("context_precision_ranked_ids").name == "context_precision_ids"


def test_citations():
    base = dict(question=Q, answer="Аванс 30%.", contexts=CTX)
    samples = [
        Sample(id="ok", metadata={"citations": ["c1"]}, **base),
        Sample(id="ghost", metadata={"citations": ["c1", "c9"]}, **base),
        Sample(id="none", metadata={"citations": []}, **base),
        Sample(id="unrecorded", **base),
    ]
    out = run(["has_citations", "answer_grounded"], samples, None)
    assert out["has_citations"].values == [1.0, 1.0, 0.0, None]
    assert out["answer_grounded"].values == [1.0, 0.0, 0.0, None]
    assert out["answer_grounded"].artifacts[1]["cited_not_retrieved"] == ["c9"]
    assert out["has_citations"].reasons[3] == "no citations recorded"


def test_malformed_citations_are_an_input_error():
    s = Sample(id="bad", question=Q, answer="a", contexts=CTX, metadata={"citations": "c1"})
    with pytest.raises(InputError, match="list of chunk ids"):
        run(["has_citations"], [s], None)


def test_a_citation_retrieved_but_not_given_is_grounded_and_noted():
    """Review finding: contexts [d1], retrieved [d1, d2], cites d2 -> d2 *was* retrieved (grounded); it is noted
    as not given to the generator, never reported as 'not retrieved'."""
    from ragauge.data.schema import Context, Sample
    from ragauge.metrics.citations import compute
    from ragauge.metrics.registry import parse_metrics

    s = Sample(id="x", question="q", answer="a", contexts=(Context(text="t", id="d1"),),
               retrieved_ids=("d1", "d2"), metadata={"citations": ["d2"]})
    out = compute(parse_metrics(["answer_grounded"]), [s])["answer_grounded"]
    assert out.values == [1.0]
    assert out.artifacts[0]["cited_not_retrieved"] == [] and out.artifacts[0]["cited_not_given"] == ["d2"]
