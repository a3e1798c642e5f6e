"""A hostile or broken results.json is an input error naming the file (exit 2), never a crash (exit 70)."""

import json

import pytest

import ragauge
from ragauge.cli.main import main
from ragauge.engine.results import read_results
from ragauge.errors import InputError


def _run(tmp_path):
    rows = [{"id": f"q{i}", "question": "q", "retrieved_ids": ["a", "b"], "relevant_ids": ["a" if i % 2 else "b"]}
            for i in range(12)]
    ragauge.evaluate(rows, metrics=["mrr", "hit_rate@2"], profile=None).save(tmp_path / "good")
    return tmp_path / "good" / "results.json"


def _hostile(tmp_path, good):
    text = good.read_text(encoding="utf-8")
    deep = tmp_path / "deep.json"
    deep.write_text(text[:-2] + ', "x": ' + "[" * 100_000 + "]" * 100_000 + "}\n", encoding="utf-8")
    digits = tmp_path / "digits.json"
    digits.write_text(text[:-2] + ', "x": ' + "9" * 5000 + "}\n", encoding="utf-8")
    dup = tmp_path / "dup.json"
    doc = json.loads(text)
    dup.write_text(json.dumps(doc)[:-1] + ', "schema": "ragauge.results/1"}', encoding="utf-8")
    return {"deep": deep, "digits": digits, "dup": dup}


def test_read_results_refuses_deep_nesting_huge_numbers_and_duplicate_keys(tmp_path):
    files = _hostile(tmp_path, _run(tmp_path))
    expected = {"deep": "nested too deeply", "digits": "a number with 5000 digits", "dup": "duplicate key 'schema'"}
    for kind, path in files.items():
        with pytest.raises(InputError) as info:
            read_results(path)
        assert info.value.file == str(path) and expected[kind] in str(info.value), kind
        assert "results.json written by `ragauge eval`" in str(info.value)


def test_compare_and_baseline_exit_2_on_a_hostile_results_json(tmp_path, capsys):
    good = _run(tmp_path)
    files = _hostile(tmp_path, good)
    data = tmp_path / "d.jsonl"
    data.write_text('{"id": "q1", "question": "q", "retrieved_ids": ["a"], "relevant_ids": ["a"]}\n')
    for path in files.values():
        assert main(["compare", str(good), str(path)]) == 2
        assert main(["eval", str(data), "--metrics", "mrr", "--profile", "none", "--baseline", str(path),
                     "--out", str(tmp_path / "o"), "-q"]) == 2
        assert main(["baseline", "show", str(path)]) == 2
        err = capsys.readouterr().err
        assert str(path) in err and "Traceback" not in err
