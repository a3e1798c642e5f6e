"""`ragauge rag run/index` through its argparse shell (registered on a local parser, as main.py does)."""

from __future__ import annotations

import argparse
import json

import ragauge
from ragauge.cli import rag as rag_cli
from ragauge.demo import kb_path


def _main(argv):
    parser = argparse.ArgumentParser(prog="ragauge")
    rag_cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)


def test_rag_index_then_guarded_run_writes_evaluable_samples(tmp_path, capsys):
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps({"id": "a", "question": "Сколько стоит бурение скважины на воду?"},
                                    ensure_ascii=False) + "\n" +
                         json.dumps({"id": "b", "question": "штукатурка потолок цена??",
                                     "relevant_ids": {"price-007": 2}}, ensure_ascii=False) + "\n", encoding="utf-8")
    assert _main(["rag", "index", str(kb_path()), "--out", str(tmp_path / "idx")]) == 0
    out = tmp_path / "answers.jsonl"
    assert _main(["rag", "run", str(tmp_path / "idx"), "-q", str(questions), "-o", str(out), "--guard"]) == 0
    samples = {s.id: s for s in ragauge.load(str(out))}
    assert samples["a"].metadata["guard_kind"] == "no_answer"
    assert samples["b"].metadata["guard_kind"] == "answer" and "1,3" in samples["b"].answer
    assert "no_answer" in capsys.readouterr().err


def test_rag_run_demo_aliases_answer_the_generated_golden_set(tmp_path, capsys):
    from ragauge.demo import golden_path

    out = tmp_path / "answers.jsonl"
    assert _main(["rag", "run", "demo", "-q", "demo", "-o", str(out)]) == 0
    samples = ragauge.load(str(out))
    golden = ragauge.load(str(golden_path()))
    assert [s.id for s in samples] == [g.id for g in golden] and all(s.answer for s in samples)
    assert samples[0].relevant_ids == golden[0].relevant_ids and samples[0].retrieved_ids
