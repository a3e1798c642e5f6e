"""Review loop: export -> the expert edits the sheet (done here with openpyxl / csv) -> import, versioned, audited."""

from __future__ import annotations

import argparse
import csv
import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

from ragauge.errors import ConfigError, InputError
from ragauge.generate.case import GoldenCase
from ragauge.generate.review import export_review, import_review
from ragauge.generate.versioning import file_sha256, meta_path, read_golden, read_version, write_golden

openpyxl = pytest.importorskip("openpyxl", reason="openpyxl is needed for .xlsx review files (ragauge[generate])")

NOW = "2026-11-30T12:00:00Z"


def _cases() -> list[GoldenCase]:
    return [
        GoldenCase("g-1", "Сколько стоит монтаж ГКЛ в один слой?", "1150 руб. за м²", ("price#a-0",), "simple",
                   ("numbers", "table"), source={"chunk_ids": ["price#a-0"], "doc_ids": ["price.xlsx"],
                                                 "titles": ["Прайс-лист"], "versions": ["01.03.2026"]},
                   template="table_price", seed=0),
        GoldenCase("g-2", "=Какой срок работ и аванс?", "- 30 дней, аванс 30 %", ("contract#b-0", "contract#c-0"),
                   "multi_context", ("clause",), source={"titles": ["Договор", "Договор"], "versions": ["2", "2"]}),
        GoldenCase("g-3", "Есть ли доставка на Марс?", "", (), "unanswerable", ("unanswerable",),
                   expected_behaviour="not_found"),
        GoldenCase("g-4", "What is the warranty?", "Five years.", ("warranty#d-0",), "simple", ("entities",),
                   language="en"),
    ]


KB = [{"id": i, "doc_id": i.split("#")[0], "title": t, "version": "", "section": "", "text": x} for i, t, x in [
    ("price#a-0", "Прайс-лист", "Работа | Ед. | Цена, руб.\nМонтаж ГКЛ в один слой | м² | 1150"),
    ("contract#b-0", "Договор", "Срок работ — 30 дней."),
    ("contract#c-0", "Договор", "Аванс — 30 % от сметы."),
    ("warranty#d-0", "Warranty", "The warranty is five years."),
    ("price#e-0", "Прайс-лист", "Работа | Ед. | Цена, руб.\nМонтаж ГКЛ в два слоя | м² | 1480"),
]]


@pytest.fixture
def golden(tmp_path: Path) -> Path:
    path = tmp_path / "golden.jsonl"
    write_golden(_cases(), path, now="2026-11-29T10:00:00Z")
    (tmp_path / "kb.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in KB), encoding="utf-8")
    return path


def _edit_xlsx(path: Path, edits: dict[str, dict[str, str]]) -> None:
    book = openpyxl.load_workbook(path)
    ws = book["review"]
    cols = {c.value: c.column for c in ws[1]}
    for row in ws.iter_rows(min_row=2):
        cid = row[cols["id"] - 1].value
        for column, value in edits.get(cid, {}).items():
            ws.cell(row=row[0].row, column=cols[column], value=value)
    book.save(path)


def _read_csv(path: Path, encoding: str = "utf-8-sig", delimiter: str = ";") -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding=encoding), newline=""), delimiter=delimiter))


def _write_csv(path: Path, records: list[list[str]], encoding: str = "utf-8-sig", delimiter: str = ";") -> None:
    buf = io.StringIO()
    csv.writer(buf, delimiter=delimiter, lineterminator="\r\n").writerows(records)
    path.write_bytes(buf.getvalue().encode(encoding, errors="replace"))  # like Excel: '?' for what cp1251 lacks


def _set_csv(path: Path, edits: dict[str, dict[str, str]]) -> None:
    records = _read_csv(path)
    head = records[0]
    for rec in records[1:]:
        for column, value in edits.get(rec[0], {}).items():
            rec[head.index(column)] = value
    _write_csv(path, records)


def _without_review(case: GoldenCase) -> GoldenCase:
    return replace(case, extra={k: v for k, v in case.extra.items() if k != "review"})


# --- round trip ------------------------------------------------------------------------------------
@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_round_trip_without_edits_gives_back_the_same_cases(golden: Path, tmp_path: Path, suffix: str):
    sheet = export_review(golden, tmp_path / f"review{suffix}", kb=tmp_path / "kb.jsonl")
    result = import_review(sheet, golden, tmp_path / "golden.v2.jsonl", now=NOW)
    back = read_golden(tmp_path / "golden.v2.jsonl")
    assert [_without_review(c) for c in back] == _cases()
    assert all(c.extra["review"]["status"] == "unreviewed" and c.extra["review"]["changes"] == [] for c in back)
    assert result.counts["unreviewed"] == 4 and result.counts["changes"] == 0
    from ragauge.data import load

    samples = load(tmp_path / "golden.v2.jsonl")  # the evaluation loader reads it unchanged (sidecar, no header)
    assert [s.id for s in samples] == ["g-1", "g-2", "g-3", "g-4"]
    assert samples[0].metadata["review"]["round"] == 2


def test_csv_is_utf8_with_bom_semicolons_and_formula_guard(golden: Path, tmp_path: Path):
    sheet = export_review(golden, tmp_path / "review.csv", kb=tmp_path / "kb.jsonl")
    raw = sheet.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    records = _read_csv(sheet)
    assert records[0][:3] == ["id", "type", "slices"] and "decision" in records[0]
    g2 = next(r for r in records if r[0] == "g-2")
    assert g2[records[0].index("question")] == "'=Какой срок работ и аванс?"  # Excel shows text, runs no formula
    assert g2[records[0].index("relevant_ids")] == "contract#b-0\ncontract#c-0"
    assert "Аванс — 30 %" in g2[records[0].index("context")]
    g1 = next(r for r in records if r[0] == "g-1")
    assert g1[records[0].index("sources")] == "Прайс-лист (01.03.2026)"


def test_xlsx_has_styled_frozen_header_and_decision_dropdown(golden: Path, tmp_path: Path):
    sheet = export_review(golden, tmp_path / "review.xlsx", kb=tmp_path / "kb.jsonl")
    book = openpyxl.load_workbook(sheet)
    ws = book["review"]
    assert ws.freeze_panes == "B2"
    assert ws["A1"].font.bold and ws["A1"].value == "id"
    cols = {c.value: c.column_letter for c in ws[1]}
    assert ws.column_dimensions[cols["question"]].width >= 40
    assert ws[f"{cols['question']}2"].alignment.wrap_text
    assert ws[f"{cols['question']}3"].value == "=Какой срок работ и аванс?" and ws[f"{cols['question']}3"].data_type == "s"
    dvs = ws.data_validations.dataValidation
    assert len(dvs) == 1 and dvs[0].formula1 == '"accept,edit,reject"'
    assert f"{cols['decision']}2" in str(dvs[0].sqref)
    about = dict((r[0].value, r[1].value) for r in book["about"].iter_rows())
    assert about["golden version"] == "1" and about["golden sha256"] == file_sha256(golden)


# --- applying decisions ------------------------------------------------------------------------------
def test_accept_edit_reject_and_audit(golden: Path, tmp_path: Path):
    sheet = export_review(golden, tmp_path / "review.xlsx", kb=tmp_path / "kb.jsonl")
    _edit_xlsx(sheet, {
        "g-1": {"decision": "accept", "reviewer": "Ирина"},
        "g-2": {"decision": "Edit", "question_edit": "Какой срок работ и какой аванс?",
                "relevant_ids_edit": "contract#b-0; contract#c-0\nprice#e-0", "comment": "уточнила"},
        "g-3": {"decision": "reject", "comment": "вопрос не по теме"},
        "g-4": {"decision": "принять"},
    })
    out = tmp_path / "golden.v2.jsonl"
    result = import_review(sheet, golden, out, kb=tmp_path / "kb.jsonl", reviewer="expert", now=NOW)
    cases = {c.id: c for c in read_golden(out)}
    assert list(cases) == ["g-1", "g-2", "g-4"]
    assert cases["g-2"].question == "Какой срок работ и какой аванс?"
    assert cases["g-2"].relevant_ids == ("contract#b-0", "contract#c-0", "price#e-0")
    assert cases["g-2"].reference == "- 30 дней, аванс 30 %"  # untouched
    review = cases["g-2"].extra["review"]
    assert review["status"] == "edited" and review["reviewer"] == "expert" and review["comment"] == "уточнила"
    assert review["changes"] == [
        {"field": "question", "old": "=Какой срок работ и аванс?", "new": "Какой срок работ и какой аванс?"},
        {"field": "relevant_ids", "old": ["contract#b-0", "contract#c-0"],
         "new": ["contract#b-0", "contract#c-0", "price#e-0"]}]
    assert cases["g-1"].extra["review"]["reviewer"] == "Ирина"
    assert cases["g-4"].extra["review"]["decision"] == "accept"
    audit = [json.loads(x) for x in result.audit_path.read_text(encoding="utf-8").splitlines()]
    assert [a["id"] for a in audit] == ["g-1", "g-2", "g-3", "g-4"]
    rejected = audit[2]
    assert rejected["status"] == "rejected" and rejected["kept"] is False and rejected["comment"] == "вопрос не по теме"
    assert rejected["row"] == 4 and rejected["golden_version"] == 2
    assert result.counts == {"accepted": 2, "edited": 1, "rejected": 1, "unreviewed": 0, "unreviewed_dropped": 0,
                             "not_in_review_file": 0, "changes": 2, "added": 0}
    meta = json.loads(meta_path(out).read_text(encoding="utf-8"))
    assert meta["version"] == 2 and meta["parent"]["sha256"] == file_sha256(golden)
    assert meta["counts"]["by_review_status"] == {"accepted": 2, "edited": 1}
    assert meta["history"][-1]["reviewers"] == ["expert", "Ирина"]


def test_unreviewed_policies_drop_and_error(golden: Path, tmp_path: Path):
    sheet = export_review(golden, tmp_path / "review.csv")
    _set_csv(sheet, {"g-1": {"decision": "accept"}})
    result = import_review(sheet, golden, tmp_path / "g2.jsonl", unreviewed="drop", now=NOW)
    assert [c.id for c in result.cases] == ["g-1"]
    assert result.counts["unreviewed_dropped"] == 3
    assert {a["id"] for a in result.audit if not a["kept"]} == {"g-2", "g-3", "g-4"}  # listed, not silent
    with pytest.raises(InputError, match="3 problems") as err:
        import_review(sheet, golden, tmp_path / "g3.jsonl", unreviewed="error")
    assert "case 'g-2' is not reviewed" in str(err.value) and not (tmp_path / "g3.jsonl").exists()
    with pytest.raises(ConfigError):
        import_review(sheet, golden, tmp_path / "g3.jsonl", unreviewed="ignore")


def test_rows_deleted_from_the_sheet_count_as_unreviewed(golden: Path, tmp_path: Path):
    sheet = export_review(golden, tmp_path / "review.csv")
    records = _read_csv(sheet)
    _write_csv(sheet, [records[0], records[1]])  # only g-1 left
    result = import_review(sheet, golden, tmp_path / "g2.jsonl", now=NOW)
    assert result.counts["not_in_review_file"] == 3 and len(result.cases) == 4
    assert next(c for c in result.cases if c.id == "g-3").extra["review"]["note"] == "not in the review file"


# --- precise errors -----------------------------------------------------------------------------------
def _problem(golden: Path, tmp_path: Path, edits: dict[str, dict[str, str]], **kw) -> InputError:
    sheet = export_review(golden, tmp_path / "review.csv")
    _set_csv(sheet, edits)
    with pytest.raises(InputError) as err:
        import_review(sheet, golden, tmp_path / "out.jsonl", **kw)
    assert not (tmp_path / "out.jsonl").exists()
    return err.value


def test_invalid_decision_names_row_column_and_fix(golden: Path, tmp_path: Path):
    e = _problem(golden, tmp_path, {"g-2": {"decision": "maybe"}})
    assert e.line == 3 and e.field == "decision" and "invalid decision 'maybe'" in str(e)
    assert "accept, edit or reject" in str(e) and "review.csv" in str(e)


def test_unknown_and_missing_and_duplicate_ids(golden: Path, tmp_path: Path):
    sheet = export_review(golden, tmp_path / "review.csv")
    records = _read_csv(sheet)
    records[1][0] = "g-99"  # unknown id, row 2
    records[2][0] = ""  # a row whose id was deleted, row 3
    records.append(list(records[4]))  # g-4 twice: rows 5 and 6
    _write_csv(sheet, records)
    with pytest.raises(InputError) as err:
        import_review(sheet, golden, tmp_path / "out.jsonl")
    text = str(err.value)
    assert "3 problems" in text
    assert "row 2, column 'id': id 'g-99' is not in the golden file" in text
    assert "row 3, column 'id': the row has no id" in text
    assert "row 6, column 'id': id 'g-4' is also on row 5" in text


def test_edited_relevant_id_must_be_in_the_kb(golden: Path, tmp_path: Path):
    e = _problem(golden, tmp_path, {"g-1": {"decision": "edit", "relevant_ids_edit": "price#zzz-0"}},
                 kb=tmp_path / "kb.jsonl")
    assert e.line == 2 and e.field == "relevant_ids_edit" and "price#zzz-0" in str(e) and "kb.jsonl" in str(e)
    # without --kb, an id that is nowhere in the golden file cannot be checked: refused, asking for the kb
    e = _problem(golden, tmp_path, {"g-1": {"decision": "edit", "relevant_ids_edit": "price#e-0"}})
    assert "--kb" in str(e)
    # ... while one the golden file knows is fine without it
    sheet = export_review(golden, tmp_path / "review.csv")
    _set_csv(sheet, {"g-1": {"decision": "edit", "relevant_ids_edit": "warranty#d-0"}})
    result = import_review(sheet, golden, tmp_path / "ok.jsonl", now=NOW)
    assert result.cases[0].relevant_ids == ("warranty#d-0",)


def test_edit_rules_are_enforced(golden: Path, tmp_path: Path):
    e = _problem(golden, tmp_path, {"g-1": {"question_edit": "Новый вопрос?"}})
    assert e.field == "decision" and "'edit'" in str(e)
    e = _problem(golden, tmp_path, {"g-1": {"decision": "accept", "reference_edit": "1200 руб."}})
    assert "decision is 'accept'" in str(e)
    e = _problem(golden, tmp_path, {"g-1": {"decision": "edit", "question_edit": "Сколько стоит монтаж ГКЛ в один слой?"}})
    assert "changes anything" in str(e)
    e = _problem(golden, tmp_path, {"g-3": {"decision": "edit", "relevant_ids_edit": "price#a-0"}},
                 kb=tmp_path / "kb.jsonl")
    assert "unanswerable" in str(e) and e.line == 4


def test_original_column_changed_in_place_is_refused(golden: Path, tmp_path: Path):
    e = _problem(golden, tmp_path, {"g-4": {"decision": "accept", "question": "What is the guarantee?"}})
    assert e.field == "question" and "question_edit" in str(e) and e.line == 5


def test_rejected_case_keeps_proposed_edits_in_the_audit(golden: Path, tmp_path: Path):
    sheet = export_review(golden, tmp_path / "review.csv")
    _set_csv(sheet, {"g-4": {"decision": "reject", "reference_edit": "Ten years.", "relevant_ids_edit": "nope#0"}})
    result = import_review(sheet, golden, tmp_path / "g2.jsonl", now=NOW)
    entry = next(a for a in result.audit if a["id"] == "g-4")
    assert entry["kept"] is False and entry["proposed"] == [{"field": "reference", "old": "Five years.",
                                                             "new": "Ten years."}]


def test_cp1251_comma_csv_as_saved_by_a_russian_excel(golden: Path, tmp_path: Path):
    sheet = export_review(golden, tmp_path / "review.csv")
    records = _read_csv(sheet)
    head = records[0]
    for rec in records[1:]:
        rec[head.index("context")] = ""
        if rec[0] == "g-2":
            rec[head.index("decision")] = "edit"
            rec[head.index("reference_edit")] = "30 дней; аванс — 30 % от сметы"
    saved = tmp_path / "saved.csv"
    _write_csv(saved, [r for r in records if r[0] != "g-1"], encoding="cp1251", delimiter=",")
    result = import_review(saved, golden, tmp_path / "g2.jsonl", now=NOW)
    assert result.cases[1].reference == "30 дней; аванс — 30 % от сметы"
    # cp1251 has no '²': Excel writes '?', the original column no longer matches, and the error says why
    _write_csv(saved, records, encoding="cp1251", delimiter=",")
    with pytest.raises(InputError, match="cp1251.*CSV UTF-8"):
        import_review(saved, golden, tmp_path / "g3.jsonl")


# --- versioning ------------------------------------------------------------------------------------
def test_each_import_bumps_the_version_and_keeps_history(golden: Path, tmp_path: Path):
    s1 = export_review(golden, tmp_path / "r1.xlsx")
    _edit_xlsx(s1, {"g-1": {"decision": "accept", "reviewer": "A"}})
    import_review(s1, golden, tmp_path / "g2.jsonl", now="2026-11-30T10:00:00Z")
    s2 = export_review(tmp_path / "g2.jsonl", tmp_path / "r2.xlsx")
    _edit_xlsx(s2, {"g-1": {"decision": "edit", "reference_edit": "1150 ₽/м²", "reviewer": "B"}})
    result = import_review(s2, tmp_path / "g2.jsonl", tmp_path / "g3.jsonl", now="2026-11-30T11:00:00Z")
    meta = result.meta
    assert meta["version"] == 3 and meta["parent"] == {"version": 2, "sha256": file_sha256(tmp_path / "g2.jsonl"),
                                                       "file": "g2.jsonl"}
    assert [h["version"] for h in meta["history"]] == [1, 2, 3]
    assert meta["generated"] == "2026-11-29T10:00:00Z" and meta["reviewed"] == "2026-11-30T11:00:00Z"
    review = result.cases[0].extra["review"]
    assert review["reviewer"] == "B" and review["round"] == 3
    assert [p["reviewer"] for p in review["previous"]] == ["A"]
    assert read_version(tmp_path / "g3.jsonl").modified is False


def test_golden_without_sidecar_is_version_one_and_hand_edits_are_detected(golden: Path, tmp_path: Path):
    bare = tmp_path / "bare.jsonl"
    bare.write_bytes(golden.read_bytes())
    assert read_version(bare).version == 1 and read_version(bare).meta is None
    sheet = export_review(bare, tmp_path / "r.csv")
    meta = import_review(sheet, bare, tmp_path / "b2.jsonl", now=NOW).meta
    assert meta["version"] == 2 and meta["history"][0]["event"] == "unversioned"
    with golden.open("a", encoding="utf-8") as fh:  # edited by hand after its sidecar was written
        fh.write("\n")
    assert read_version(golden).modified
    sheet = export_review(golden, tmp_path / "r2.csv")
    meta = import_review(sheet, golden, tmp_path / "g2.jsonl", now=NOW).meta
    assert "parent_modified" in meta["history"][-1]


def test_bad_golden_and_sidecar_are_input_errors(tmp_path: Path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "question": "q"}\n{"id": "a", "question": "r"}\n', encoding="utf-8")
    with pytest.raises(InputError, match="line 2.*duplicate id"):
        read_golden(bad)
    bad.write_text('{"id": "a", "question": "q"}\n', encoding="utf-8")
    meta_path(bad).write_text("{not json", encoding="utf-8")
    with pytest.raises(InputError, match="bad.meta.json"):
        read_version(bad)
    with pytest.raises(InputError, match="unknown review file type"):
        export_review(bad, tmp_path / "r.ods")


# --- the CLI ------------------------------------------------------------------------------------------
def _cli(argv: list[str]) -> int:
    from ragauge.cli import review as cli_review

    parser = argparse.ArgumentParser(prog="ragauge")
    cli_review.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)


def test_cli_export_then_import(golden: Path, tmp_path: Path, capsys):
    kb = str(tmp_path / "kb.jsonl")
    assert _cli(["review", "export", str(golden), "--out", str(tmp_path / "r.xlsx"), "--kb", kb]) == 0
    _edit_xlsx(tmp_path / "r.xlsx", {"g-3": {"decision": "reject"}})
    out = tmp_path / "golden.v2.jsonl"
    assert _cli(["review", "import", str(tmp_path / "r.xlsx"), "--golden", str(golden), "--out", str(out),
                 "--kb", kb, "--reviewer", "QA", "--unreviewed", "drop"]) == 0
    printed = capsys.readouterr().out
    assert "version 2 (parent 1)" in printed and "rejected 1" in printed
    assert read_golden(out) == [] and (tmp_path / "golden.v2.audit.jsonl").exists()
    assert _cli(["review"]) == 2


def test_one_kb_reader_for_review_generator_and_rag(tmp_path):
    from ragauge.errors import InputError
    from ragauge.generate import load_kb, read_kb_jsonl
    from ragauge.rag.kb import read_kb_jsonl as rag_read

    path = tmp_path / "kb.jsonl"
    path.write_text('\ufeff{"id": "a", "text": "Гарантия 36 месяцев."}\n{"id": "b"}\n', encoding="utf-8")
    for reader in (load_kb, read_kb_jsonl, rag_read):
        with pytest.raises(InputError, match=r"kb.jsonl, line 2, field 'text'"):
            reader(path)
    path.write_text('{"id": "a", "text": "Гарантия 36 месяцев."}\n', encoding="utf-8")
    assert load_kb(path)["a"]["text"] == "Гарантия 36 месяцев." and read_kb_jsonl(path)[0].id == "a"


# --- CSV injection (OWASP) and the quote round trip (issue 14) -------------------------------------
TRICKY = ["'=1+1", "\tЧто такое ГКЛ?", "＝1+1 и ещё", "＋7 900", "－ минус", "＠mention", "'просто кавычка",
          "''=двойная", "@SUM(1)", "+1", "-1", "=HYPERLINK(\"x\")", "обычный вопрос"]


@pytest.fixture
def tricky_golden(tmp_path: Path) -> Path:
    path = tmp_path / "golden.jsonl"
    cases = [GoldenCase(f"t-{i}", q, "ответ", ("price#a-0",), "simple", ("numbers",)) for i, q in enumerate(TRICKY)]
    write_golden(cases, path, now="2026-11-29T10:00:00Z")
    (tmp_path / "kb.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in KB), encoding="utf-8")
    return path


def test_csv_neutralises_the_owasp_list_and_a_leading_quote(tricky_golden: Path, tmp_path: Path):
    sheet = export_review(tricky_golden, tmp_path / "review.csv", kb=tmp_path / "kb.jsonl")
    records = _read_csv(sheet)
    q = records[0].index("question")
    cells = {r[0]: r[q] for r in records[1:]}
    written = [c.question for c in read_golden(tricky_golden)]
    for i, text in enumerate(written):
        cell = cells[f"t-{i}"]
        if text[:1] in ("=", "+", "-", "@", "\t", "\r", "\n", "＝", "＋", "－", "＠", "'"):
            assert cell == "'" + text, (text, cell)  # Excel shows text, runs no formula; a quote is doubled
        else:
            assert cell == text
    assert written[1] == "\tЧто такое ГКЛ?" and cells["t-1"] == "'\tЧто такое ГКЛ?"


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_tricky_questions_round_trip(tricky_golden: Path, tmp_path: Path, suffix: str):
    before = read_golden(tricky_golden)
    sheet = export_review(tricky_golden, tmp_path / f"review{suffix}", kb=tmp_path / "kb.jsonl")
    result = import_review(sheet, tricky_golden, tmp_path / "golden.v2.jsonl", now=NOW)
    back = read_golden(tmp_path / "golden.v2.jsonl")
    assert [c.question for c in back] == [c.question for c in before]
    assert result.counts["changes"] == 0


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_an_edit_that_starts_with_a_quote_survives(tricky_golden: Path, tmp_path: Path, suffix: str):
    sheet = export_review(tricky_golden, tmp_path / f"review{suffix}", kb=tmp_path / "kb.jsonl")
    new = "'=не формула"
    if suffix == ".csv":  # what the export would write for it: neutralised
        _set_csv(sheet, {"t-12": {"decision": "edit", "question_edit": "''=не формула"}})
    else:
        _edit_xlsx(sheet, {"t-12": {"decision": "edit", "question_edit": new}})
    import_review(sheet, tricky_golden, tmp_path / "golden.v2.jsonl", now=NOW)
    back = {c.id: c for c in read_golden(tmp_path / "golden.v2.jsonl")}
    assert back["t-12"].question == new


def test_neutralise_and_unquote_are_inverse():
    from ragauge.generate._review_table import neutralise, unquote

    for text in TRICKY + ["", "'", "''", "'a", "a'", "\n=x", "\r"]:
        assert unquote(neutralise(text)) == text
    assert unquote("'hello") == "'hello"  # an old export's lone quote before a harmless character stays
