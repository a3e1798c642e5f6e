"""One reader of judge specs for every front door (CLI, pytest, Python, generate)."""

import pytest

from ragauge.errors import ConfigError
from ragauge.judges.spec import make_judge, parse_judge


@pytest.mark.parametrize("text,kind,llm", [
    (None, "auto", None), ("auto", "auto", None), ("offline", "offline", None), ("none", "none", None),
    ("openai:qwen@http://127.0.0.1:8080/v1", "llm", "openai:qwen@http://127.0.0.1:8080/v1"),
    ("openai", "llm", "openai"),
    ("cascade:openai:qwen@http://h/v1", "cascade", "openai:qwen@http://h/v1"),
])
def test_specs_parse_once(text, kind, llm):
    choice = parse_judge(text)
    assert (choice.kind, choice.llm) == (kind, llm)


def test_a_bad_spec_names_the_option_and_hides_the_key():
    with pytest.raises(ConfigError) as err:
        parse_judge("cascade:offline@https://u:PW@h/v1?api_key=K", option="--ragauge-judge")
    text = str(err.value)
    assert text.startswith("--ragauge-judge") and "PW" not in text and "api_key=K" not in text


def test_options_that_need_an_llm_or_a_cascade_are_refused_elsewhere():
    with pytest.raises(ConfigError, match="apply to an LLM judge"):
        make_judge("offline", max_calls=3)
    with pytest.raises(ConfigError, match="--dry-run"):
        make_judge("auto", dry_run=True)
    with pytest.raises(ConfigError, match="--cascade-band applies to a cascade"):
        make_judge("openai:m@http://127.0.0.1:1/v1", band="0.2,0.8")
    assert make_judge("none") is None and make_judge("offline") == "offline"


def test_a_cascade_gets_its_band_and_budget():
    judge = make_judge("cascade:openai:m@http://127.0.0.1:1/v1", band="0.25,0.75", max_calls=5)
    assert type(judge).__name__ == "CascadeJudge"
    assert judge.band == (0.25, 0.75)
