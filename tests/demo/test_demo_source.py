"""The demo's hand-written source (src/ragauge/demo/source/*.toml): how it reads, how a mistake is reported,
and the taxonomy cases it holds (outdated edition, self-contradiction, faithful to a wrong source)."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

from ragauge.demo import DEMO_DIR, samples_path

ROOT = Path(__file__).resolve().parents[2]
BUILDER = ROOT / "scripts" / "build_demo.py"
SOURCE = DEMO_DIR.parent / "source"


def load_builder():
    spec = importlib.util.spec_from_file_location("build_demo", BUILDER)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def builder():
    return load_builder()


@pytest.fixture()
def source_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "source"
    shutil.copytree(SOURCE, folder)
    return folder


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_the_source_is_data_not_code():
    assert sorted(p.name for p in SOURCE.iterdir() if not p.name.startswith(".")) == ["kb.toml", "questions.toml"]


def test_source_reads_as_written(builder):
    src = builder.load_source()
    assert len(src.documents) == 5 and len(src.questions) == 46 and len(src.noisy) == 10
    q01 = next(q for q in src.questions if q["id"] == "q01")
    # a wrapped TOML string joins back into the one-line answer (the space before the backslash is kept)
    assert q01["answer"] == ("Облицовка стен ГКЛ в один слой по металлическому каркасу стоит 1150 рублей за "
                             "квадратный метр (прайс-лист от 01.03.2026). Листы, профиль и крепёж в эту цену не входят.")
    assert q01["relevant"] == {"price-002": 2, "price-003": 1}


def test_a_typo_in_a_field_name_names_the_entry(builder, source_copy):
    edit(source_copy / "questions.toml", 'id = "q07"\nquestion =', 'id = "q07"\nquestoin =')
    with pytest.raises(builder.SourceError, match=r"questions\.toml: \[\[questions\]\] #2 \(q07\): unknown field\(s\) questoin"):
        builder.load_source(source_copy)


def test_broken_toml_names_the_file_and_line(builder, source_copy):
    edit(source_copy / "kb.toml", 'id = "price-001"', 'id = "price-001')
    with pytest.raises(builder.SourceError, match=r"kb\.toml: not valid TOML: .*line \d+"):
        builder.load_source(source_copy)


def test_an_error_label_without_a_note_is_refused(builder, source_copy, tmp_path):
    path = source_copy / "questions.toml"
    text = path.read_text(encoding="utf-8")
    start = text.index('id = "q44"')
    note = text.index("note = ", start)
    end = text.index("grounded = ", note)
    path.write_text(text[:note] + text[end:], encoding="utf-8")
    with pytest.raises(builder.SourceError, match=r"\[\[questions\]\] id = 'q44': a note says what is wrong"):
        builder.build(tmp_path / "out", source_copy)
    assert not (tmp_path / "out").exists(), "nothing is written from a broken source"


def test_an_unknown_label_lists_the_labels(builder, source_copy, tmp_path):
    edit(source_copy / "questions.toml", 'label = "self_contradiction"', 'label = "contradicts_itself"')
    with pytest.raises(builder.SourceError, match=r"label 'contradicts_itself' is not one of faithful, .*self_contradiction"):
        builder.build(tmp_path, source_copy)


def test_the_cli_reports_a_source_error_without_a_traceback(builder, source_copy, tmp_path, capsys):
    edit(source_copy / "questions.toml", 'возвращённые материалы?"\ntags = ["exact_numbers"]\nrelevant = { "delivery-004" = 2 }',
         'возвращённые материалы?"\ntags = ["exact_numbers"]\nrelevant = { "delivery-404" = 2 }')
    assert builder.main(["--out", str(tmp_path), "--source", str(source_copy)]) == 2
    err = capsys.readouterr().err
    assert "error: questions.toml: [[questions]] id = 'q46': relevant names chunk(s) not in kb.toml: delivery-404" in err


# ------------------------------------------------------------------------------------ the taxonomy cases


@pytest.fixture(scope="module")
def taxonomy_cases() -> dict[str, dict]:
    rows = [json.loads(line) for line in samples_path().read_text(encoding="utf-8").splitlines()]
    return {r["id"]: r for r in rows if r["metadata"]["answer_label"] in ("outdated_edition", "self_contradiction", "wrong_source")}


def test_the_taxonomy_cases_are_built_as_described(taxonomy_cases):
    assert {k: v["metadata"]["answer_label"] for k, v in taxonomy_cases.items()} == {
        "q44": "outdated_edition", "q45": "self_contradiction", "q46": "wrong_source"}
    q44 = taxonomy_cases["q44"]
    editions = {c["id"]: c["metadata"]["version"] for c in q44["contexts"]}
    # the current edition's row (690) and the superseded one (620, what the answer says) were both retrieved
    assert editions["price-004"] == "2026-03" and editions["price2025-003"] == "2025-09"
    assert "620" in q44["answer"] and "690" in q44["reference"]
    q46 = taxonomy_cases["q46"]
    assert "3 дней" in q46["metadata"]["trusted"] and "10 рабочих дней" in q46["answer"]
    assert all("trusted" not in s["metadata"] for k, s in taxonomy_cases.items() if k != "q46")


def test_the_offline_judge_labels_the_taxonomy_cases(taxonomy_cases):
    """What `ragauge eval demo --metrics hallucination_taxonomy,self_contradiction,factuality,faithfulness` shows
    on the three cases: faithfulness alone misses q44 and q46 (1.0), the taxonomy names each error."""
    pytest.importorskip("razdel")
    import ragauge

    rows = [taxonomy_cases[k] for k in ("q44", "q45", "q46")]
    metrics = ["hallucination_taxonomy", "self_contradiction", "factuality", "faithfulness"]
    got = {s["id"]: s for s in ragauge.evaluate(rows, metrics=metrics).to_dict()["samples"]}
    classes = {k: got[k]["artifacts"]["hallucination_taxonomy"]["classes"] for k in got}
    assert classes["q44"] == ["outdated_source"] and got["q44"]["scores"]["faithfulness"] == 1.0
    assert "logical_contradiction" in classes["q45"] and got["q45"]["scores"]["self_contradiction"] == 1.0
    pair = got["q45"]["artifacts"]["self_contradiction"]["self_contradictions"][0]["texts"]
    assert any("48 часов" in t for t in pair) and any("7 суток" in t for t in pair)
    assert classes["q46"] == ["factual_error"] and got["q46"]["scores"]["faithfulness"] == 1.0
    assert got["q46"]["scores"]["factuality"] == 0.0
    assert got["q44"]["unscored"]["factuality"] == "no trusted source"
