"""``--mix`` / ``mix=``: the type mix of a golden set is the user's, never padded by another type."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from ragauge.cli.main import main
from ragauge.errors import ConfigError, ExitCode
from ragauge.generate import chunk, load_folder
from ragauge.generate._llm_questions_plan import plan_groups
from ragauge.generate.questions import generate_questions
from ragauge.generate.questions.mix import kind_of, parse_mix, targets

pytest.importorskip("docx", reason="python-docx is needed to write the DOCX of the corpus")
pytest.importorskip("openpyxl", reason="openpyxl is needed to write the XLSX of the corpus")
pytest.importorskip("pymorphy3", reason="Russian templates need pymorphy3 (pip install 'ragauge[offline]')")

from _golden_corpus import write_corpus  # noqa: E402

SEED_EXAMPLE = "simple=0.5,reasoning=0.3,multi_context=0.2"


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return write_corpus(tmp_path_factory.mktemp("mix") / "docs")


@pytest.fixture(scope="module")
def corpus(folder):
    documents, _ = load_folder(folder)
    return documents, chunk(documents)


def test_parse_normalises_and_names_the_accepted_kinds() -> None:
    assert parse_mix(SEED_EXAMPLE) == {"simple": 0.5, "reasoning": 0.3, "multi_context": 0.2}
    assert parse_mix({"simple": 3, "unanswerable": 1}) == {"simple": 0.75, "unanswerable": 0.25}
    assert targets(parse_mix(SEED_EXAMPLE), 7) == {"simple": 4, "reasoning": 2, "multi_context": 1}
    for bad, said in [("simpel=1", "unknown kind 'simpel'"), ("simple=-0.2,reasoning=1", "negative"),
                      ("simple=half", "not a number"), ("simple", "not KIND=SHARE"), ("simple=0", "every share is 0"),
                      ("simple=nan", "not a number"), ("simple=1,simple=1", "given twice"), ("", "empty")]:
        with pytest.raises(ConfigError) as err:
            parse_mix(bad)
        assert said in str(err.value) and "multi_context" in str(err.value), bad


def test_the_seed_example_mix_is_met_exactly_on_a_rich_corpus(corpus) -> None:
    documents, chunks = corpus
    cases, summary = generate_questions(chunks, n=20, seed=0, documents=documents, verify=False, mix=SEED_EXAMPLE)
    assert Counter(kind_of(c) for c in cases) == {"simple": 10, "reasoning": 6, "multi_context": 4}
    kinds = summary["mix"]["kinds"]
    assert kinds["reasoning"] == {"requested_share": 0.3, "requested": 6, "achieved": 6, "achieved_share": 0.3}
    assert summary["mix"]["short"] == [] and summary["short_of_target"] == 0


def test_a_type_the_documents_cannot_fill_is_reported_not_padded(corpus) -> None:
    documents, chunks = corpus
    cases, summary = generate_questions(chunks, n=40, seed=0, documents=documents, verify=False,
                                        mix={"simple": 0.3, "unanswerable": 0.7})
    got = Counter(kind_of(c) for c in cases)
    assert got["simple"] == 12 and set(got) <= {"simple", "unanswerable"}  # no reasoning / copies slipped in
    assert got["unanswerable"] < 28 and summary["short_of_target"] == 40 - len(cases)
    short = summary["mix"]["short"]
    assert len(short) == 1 and short[0].startswith(f"unanswerable: asked 28, the documents gave {got['unanswerable']}")
    assert "the mix could not be met" in summary["short_reason"]


def test_variant_kinds_are_shares_too(corpus) -> None:
    documents, chunks = corpus
    cases, summary = generate_questions(chunks, n=20, seed=1, documents=documents, verify=False,
                                        mix="simple=0.8,badly_formulated=0.2")
    assert Counter(kind_of(c) for c in cases) == {"simple": 16, "badly_formulated": 4}
    assert all(c.extra["variant_of"] for c in cases if kind_of(c) == "badly_formulated")


def test_without_a_mix_nothing_changes(corpus) -> None:
    documents, chunks = corpus
    cases, summary = generate_questions(chunks, n=30, seed=0, documents=documents, verify=False)
    assert "mix" not in summary and "copy_cap" in summary


def test_cli_mix_prints_requested_and_achieved(folder, tmp_path, capsys) -> None:
    out = tmp_path / "golden.jsonl"
    assert main(["generate", str(folder), "--out", str(out), "--n", "20", "--mix", SEED_EXAMPLE]) == ExitCode.OK
    err = capsys.readouterr().err
    assert "mix (requested -> achieved): simple 50% (10) -> 50% (10), reasoning 30% (6) -> 30% (6)" in err
    types = Counter(json.loads(line)["metadata"]["type"] for line in out.read_text(encoding="utf-8").splitlines())
    assert types == {"simple": 10, "reasoning": 6, "multi_context": 4}


def test_cli_bad_mix_is_a_clear_error(folder, tmp_path, capsys) -> None:
    code = main(["generate", str(folder), "--out", str(tmp_path / "g.jsonl"), "--mix", "simple=0.5,tricky=0.5"])
    assert code == ExitCode.USAGE
    err = capsys.readouterr().err
    assert "--mix 'simple=0.5,tricky=0.5': unknown kind 'tricky'" in err and "badly_formulated" in err
    assert not (tmp_path / "g.jsonl").exists()


def test_llm_plan_follows_the_mix() -> None:
    from test_llm_questions import RU

    groups = plan_groups(RU, 4, seed=0, mix={"simple": 0.5, "multi_context": 0.5})
    types = Counter(t for g in groups for t in g.types)
    assert types == {"simple": 3, "multi_context": 3}  # ceil(4 * 1.5) = 6 planned, no reasoning
    with pytest.raises(ConfigError, match="unknown kind 'unanswerable'"):
        parse_mix("simple=0.5,unanswerable=0.5", allowed=("simple", "reasoning", "multi_context"))


def test_llm_path_keeps_each_type_within_its_share() -> None:
    from llm_fake_server import FakeOpenAI
    from test_llm_questions import RU, _cfg, responder

    from ragauge.generate.llm_questions import generate_with_llm

    with FakeOpenAI(responder) as fake:
        cases, summary = generate_with_llm(RU, n=2, judge_spec=_cfg(fake), seed=0, cache=None,
                                           mix="simple=1")
    assert cases and all(c.type == "simple" for c in cases)
    assert summary["mix"]["kinds"]["simple"]["requested"] == 2
    with pytest.raises(ConfigError, match="accepted kinds: simple, reasoning, multi_context"):
        generate_with_llm(RU, n=2, judge_spec="openai:m@http://127.0.0.1:9", mix="unanswerable=1")
