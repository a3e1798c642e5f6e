"""An expert adds cases of their own in the review sheet: a new row with an empty id (XLSX and CSV)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragauge.errors import InputError
from ragauge.generate.review import export_review, import_review
from ragauge.generate.versioning import read_golden

openpyxl = pytest.importorskip("openpyxl", reason="openpyxl is needed for .xlsx review files (ragauge[generate])")

from test_review import KB, _cases, _read_csv, _write_csv  # noqa: E402

from ragauge.generate.versioning import write_golden  # noqa: E402


@pytest.fixture
def golden(tmp_path: Path) -> Path:
    """The four cases of test_review (g-1 .. g-4) and their kb.jsonl next to them."""
    path = tmp_path / "golden.jsonl"
    write_golden(_cases(), path, now="2026-11-29T10:00:00Z")
    (tmp_path / "kb.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in KB), encoding="utf-8")
    return path

NOW = "2026-12-01T09:00:00Z"


def _append_xlsx(path: Path, rows: list[dict[str, str]]) -> None:
    book = openpyxl.load_workbook(path)
    ws = book["review"]
    cols = {c.value: c.column for c in ws[1]}
    for values in rows:
        r = ws.max_row + 1
        for column, value in values.items():
            ws.cell(row=r, column=cols[column], value=value)
    book.save(path)


def _append_csv(path: Path, rows: list[dict[str, str]]) -> None:
    records = _read_csv(path)
    head = records[0]
    records += [[values.get(h, "") for h in head] for values in rows]
    _write_csv(path, records)


APPEND = {".xlsx": _append_xlsx, ".csv": _append_csv}
MINE = {"id": "", "question": "Сколько стоит монтаж ГКЛ в два слоя?", "reference": "1480 руб. за м²",
        "relevant_ids": "price#e-0", "decision": "accept", "reviewer": "Ирина"}


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_a_new_row_with_an_empty_id_becomes_an_accepted_expert_case(golden: Path, tmp_path: Path, suffix: str):
    kb = tmp_path / "kb.jsonl"
    sheet = export_review(golden, tmp_path / f"review{suffix}", kb=kb)
    APPEND[suffix](sheet, [MINE, {"question": "What does the warranty cover?", "reference": "Five years of work.",
                                  "relevant_ids": "warranty", "decision": "accept"}])
    out = tmp_path / "golden.v2.jsonl"
    result = import_review(sheet, golden, out, kb=kb, reviewer="QA", now=NOW)
    cases = read_golden(out)
    assert [c.id for c in cases] == ["g-1", "g-2", "g-3", "g-4", "expert-0001", "expert-0002"]
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    first, second = rows[4], rows[5]
    assert first["question"] == MINE["question"] and first["relevant_ids"] == ["price#e-0"]
    assert first["metadata"]["generator"] is None and first["metadata"]["author"] == "Ирина"
    assert first["metadata"]["review"]["status"] == "accepted"
    assert second["relevant_ids"] == ["warranty#d-0"]  # a document name: its chunks
    assert second["metadata"]["author"] == "QA" and second["language"] == "en"
    assert cases[4].generator is None  # read back as an expert's case, not "offline"
    audit = [json.loads(line) for line in result.audit_path.read_text(encoding="utf-8").splitlines()]
    added = [a for a in audit if a.get("added_by_expert")]
    assert [a["id"] for a in added] == ["expert-0001", "expert-0002"] and added[0]["question"] == MINE["question"]
    assert result.counts["added"] == 2 and "2 new case(s) added by experts" in result.summary()


def test_the_next_import_continues_the_expert_numbering(golden: Path, tmp_path: Path):
    kb = tmp_path / "kb.jsonl"
    sheet = export_review(golden, tmp_path / "r.csv")
    _append_csv(sheet, [MINE])
    v2 = tmp_path / "v2.jsonl"
    import_review(sheet, golden, v2, kb=kb, now=NOW)
    sheet2 = export_review(v2, tmp_path / "r2.csv")
    _append_csv(sheet2, [dict(MINE, question="Сколько стоит аванс?", reference="30 % от сметы",
                              relevant_ids="contract#c-0")])
    v3 = tmp_path / "v3.jsonl"
    import_review(sheet2, v2, v3, kb=kb, now=NOW)
    assert [c.id for c in read_golden(v3)][-2:] == ["expert-0001", "expert-0002"]


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_bad_new_rows_are_refused_with_their_row_and_the_fix(golden: Path, tmp_path: Path, suffix: str):
    kb = tmp_path / "kb.jsonl"
    sheet = export_review(golden, tmp_path / f"review{suffix}")
    APPEND[suffix](sheet, [{"reference": "1480", "relevant_ids": "price#e-0", "decision": "accept"},  # row 6
                           dict(MINE, question="Какой цвет у ГКЛ?", relevant_ids="price#zz-9"),  # row 7
                           dict(MINE, question="Сколько стоит грунтовка?", decision="")])  # row 8
    with pytest.raises(InputError) as err:
        import_review(sheet, golden, tmp_path / "out.jsonl", kb=kb)
    text = str(err.value)
    assert "row 6, column 'question': a new case has no question" in text
    assert "row 7, column 'relevant_ids': unknown chunk id(s) or document(s) ['price#zz-9']" in text
    assert "kb.jsonl" in text
    assert "row 8, column 'decision': a new case (empty id) needs the decision 'accept'" in text
    assert not (tmp_path / "out.jsonl").exists()


def test_without_a_kb_new_ids_must_already_be_in_the_golden_file(golden: Path, tmp_path: Path):
    sheet = export_review(golden, tmp_path / "r.csv")
    _append_csv(sheet, [MINE])  # price#e-0 is only in the kb
    with pytest.raises(InputError) as err:
        import_review(sheet, golden, tmp_path / "out.jsonl")
    assert err.value.line == 6 and "--kb kb.jsonl" in str(err.value)


def test_an_unknown_filled_id_stays_an_error_and_says_how_to_add_a_case(golden: Path, tmp_path: Path):
    sheet = export_review(golden, tmp_path / "r.csv")
    _append_csv(sheet, [dict(MINE, id="my-1")])
    with pytest.raises(InputError) as err:
        import_review(sheet, golden, tmp_path / "out.jsonl", kb=tmp_path / "kb.jsonl")
    assert "id 'my-1' is not in the golden file" in str(err.value) and "leave its id empty" in str(err.value)


def test_a_rejected_new_row_is_not_added(golden: Path, tmp_path: Path):
    sheet = export_review(golden, tmp_path / "r.xlsx")
    _append_xlsx(sheet, [dict(MINE, decision="reject")])
    out = tmp_path / "out.jsonl"
    import_review(sheet, golden, out, kb=tmp_path / "kb.jsonl")
    assert [c.id for c in read_golden(out)] == ["g-1", "g-2", "g-3", "g-4"]


def test_the_sheet_tells_experts_how_to_add_a_case_in_both_languages(golden: Path, tmp_path: Path):
    book = openpyxl.load_workbook(export_review(golden, tmp_path / "r.xlsx"))
    text = "\n".join(str(c.value) for row in book.worksheets[1].iter_rows() for c in row if c.value)
    assert "id EMPTY" in text and "ПУСТЫМ id" in text and "expert-0001" in text
