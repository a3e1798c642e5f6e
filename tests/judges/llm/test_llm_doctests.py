"""The examples in the docstrings of ragauge.judges.llm (its folder is not in pytest's doctest paths)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["budget", "cache", "client", "config", "judge", "outcome", "parse", "prompts", "ratelimit", "spans",
           "tokens", "verdicts", "usage", "cascade", "rounds", "embeddings", "calibration", "quote_words", "wording"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(f"ragauge.judges.llm.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_prompt_files_have_both_languages_and_render():
    from ragauge.judges.llm.prompts import LANGS, TASKS, load_prompt

    for task in TASKS:
        ids = set()
        for lang in LANGS:
            p = load_prompt(task, lang)
            assert p.id == f"{task}.{lang}@2" and len(p.sha256) == 64
            msgs = p.render(text="T", claims="C", sources="S", n=3, answer="A", reference="R")
            assert "$" not in msgs[0]["content"] + msgs[1]["content"]
            ids.add(p.sha256)
        assert len(ids) == len(LANGS)
    assert load_prompt("claims", "de").id == "claims.en@2"  # other languages use English
