"""RAGChecker's diagnostics on hand-worked entailment matrices (Ru et al., 2024, section 3.3)."""

import pytest

from ragauge.scores.ragchecker import NAMES, context_precision_share, diagnostics, relevant_chunks


def test_worked_example_every_metric():
    # Answer claims a0..a3, reference claims g0..g2, chunks c0 (relevant), c1 (relevant), c2 (irrelevant).
    #   a0 correct, in c0           -> faithful and right
    #   a1 wrong,   in c1 (relevant) -> noise sensitivity in relevant chunks
    #   a2 wrong,   in c2 only       -> noise sensitivity in irrelevant chunks
    #   a3 correct, in no chunk      -> self-knowledge
    #   (no claim is wrong and in no chunk: hallucination 0)
    #   g0 in c0 and in the answer; g1 in c1, not in the answer; g2 in no chunk, in the answer
    d = diagnostics(
        correct=[True, False, False, True],
        ref_in_answer=[True, False, True],
        answer_in_chunk=[[True, False, False, False], [False, True, False, False], [False, False, True, False]],
        ref_in_chunk=[[True, False, False], [False, True, False], [False, False, False]],
    )
    assert d == {
        "claim_precision": 2 / 4,
        "claim_recall": 2 / 3,
        "context_utilization": 1 / 2,  # g0, g1 are in the chunks; the answer states g0 only
        "noise_sensitivity_relevant": 1 / 4,
        "noise_sensitivity_irrelevant": 1 / 4,
        "hallucinated_claims": 0.0,
        "self_knowledge": 1 / 4,
    }
    assert list(d) == list(NAMES)


def test_hallucination_and_relevant_wins_over_irrelevant():
    # a0 wrong in no chunk (hallucination); a1 wrong in both a relevant and an irrelevant chunk: counted
    # in the relevant one only (RAGChecker's irrelevant noise excludes claims a relevant chunk entails).
    d = diagnostics(
        correct=[False, False],
        ref_in_answer=[False],
        answer_in_chunk=[[False, True], [False, True]],
        ref_in_chunk=[[True], [False]],
    )
    assert d["hallucinated_claims"] == 0.5
    assert d["noise_sensitivity_relevant"] == 0.5
    assert d["noise_sensitivity_irrelevant"] == 0.0
    assert d["context_utilization"] == 0.0 and d["self_knowledge"] == 0.0


def test_relevant_given_by_ids_overrides_the_claim_rule():
    kw = dict(correct=[False], ref_in_answer=[True], answer_in_chunk=[[True]], ref_in_chunk=[[True]])
    assert diagnostics(**kw)["noise_sensitivity_relevant"] == 1.0
    by_ids = diagnostics(**kw, relevant=[False])  # labels say the chunk is not relevant
    assert by_ids["noise_sensitivity_relevant"] == 0.0 and by_ids["noise_sensitivity_irrelevant"] == 1.0


def test_undefined_is_none_not_zero():
    d = diagnostics(correct=[True], ref_in_answer=[False], answer_in_chunk=[], ref_in_chunk=[])
    assert d["context_utilization"] is None  # no reference claim in any chunk
    assert d["self_knowledge"] == 1.0 and d["hallucinated_claims"] == 0.0
    e = diagnostics(correct=[], ref_in_answer=[True], answer_in_chunk=[], ref_in_chunk=[])
    assert e["claim_precision"] is None and e["hallucinated_claims"] is None


def test_shapes_are_checked():
    with pytest.raises(ValueError, match="one row per chunk"):
        diagnostics(correct=[True], ref_in_answer=[True], answer_in_chunk=[[True]], ref_in_chunk=[])
    with pytest.raises(ValueError, match="flags for 1 claims"):
        diagnostics(correct=[True], ref_in_answer=[True], answer_in_chunk=[[True, True]], ref_in_chunk=[[True]])


def test_context_precision_share_seed_example():
    # Seed 001: 3 chunks found, 2 of them relevant -> 0,67 (order does not matter).
    assert round(context_precision_share([True, False, True]), 2) == 0.67
    assert context_precision_share([False, True, True]) == context_precision_share([True, True, False])
    assert context_precision_share([]) is None
    assert relevant_chunks([[True, False], [False, False]]) == [True, False]
