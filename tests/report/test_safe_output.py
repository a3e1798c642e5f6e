"""Issue 14: reports that are safe and readable.

Markdown escaping (report.md, PR summary, ``ragauge profiles --format markdown``), control characters in the
terminal, the "too small" note per (slice, metric), one language per report with plurals, the bounded HTML
samples section, and output files replaced together or not at all.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

import ragauge
try:
    from ragauge.errors import OutputError
except ImportError:  # pragma: no cover - only when checking these tests against the code before issue 14
    OutputError = OSError  # type: ignore[misc,assignment]
from ragauge.report import write_reports
from ragauge.report.html import render_html
from ragauge.report.markdown import render_markdown
from ragauge.report.table import render_table

from test_html import _parse, make_results

ESC = "\x1b]0;pwned\x07\x1b[2J\x1b[31m"
MD_EVIL = '<img src=x onerror=alert(1)></details>@everyone [c](javascript:alert(1)) # h'
PIPE = "context_precision|context_precision_ids"


def _evil_doc() -> dict[str, Any]:
    doc = make_results()
    doc["source"]["path"] = f"data/{MD_EVIL}{ESC}.jsonl"
    doc["profile"]["name"] = f"prof{ESC}"
    entry = doc["summary"].pop("recall@10")
    doc["summary"][PIPE] = entry
    doc["summary"]["ndcg@10"]["unscored_reasons"] = {f"bad {MD_EVIL}{ESC}": 2}
    doc["summary"]["ndcg@10"]["n_unscored"] = 2
    for g in doc["gates"]:
        if g["status"] == "fail":
            g["metric"] = f"hit{ESC}|x"
            g["reason"] = f"reason {MD_EVIL}"
    doc["diagnosis"] = [{"code": "x", "severity": "high", "title": f"T {MD_EVIL}", "text": f"line1\n# line2 {ESC}"}]
    doc["alarms"] = [{"metric": "ndcg@10", "slice": f"tag{ESC}{MD_EVIL}", "text": f"Slice {MD_EVIL}{ESC}."}]
    return doc


# --- escaping ------------------------------------------------------------------------------------------
def test_markdown_report_passes_no_html_link_mention_or_heading_from_the_data():
    md = render_markdown(_evil_doc())
    assert not re.search(r"(?<!\\)<img", md) and "\\<img" in md
    assert md.count("</details>") == md.count("<details>") == 1  # only the report's own block
    assert "@everyone" not in md
    assert "](javascript:" not in md and "\\]\\(javascript:" in md
    assert "\x1b" not in md and "\x07" not in md
    assert "\n# line2" not in md  # a newline in a text cannot start a heading
    # every table row has exactly as many unescaped pipes as its header
    for block in re.findall(r"((?:^\|.*\|\n)+)", md, flags=re.M):
        rows = block.strip("\n").split("\n")
        counts = {len(re.findall(r"(?<!\\)\|", r)) for r in rows}
        assert len(counts) == 1, rows


def test_gfm_cell_with_a_pipe_stays_one_cell():
    from ragauge.report.escape import md_cell

    md = render_markdown(_evil_doc())
    row = next(line for line in md.splitlines() if "context_precision_ids" in line)
    assert "`context_precision\\|context_precision_ids`" in row
    assert len(re.findall(r"(?<!\\)\|", row)) == 6  # 5 cells
    assert md_cell(PIPE) == "context_precision\\|context_precision_ids"


def test_md_text_escapes_every_markdown_character():
    from ragauge.report.escape import md_text

    assert md_text("\\ ` * _x_ [ ] ( ) < > # | ~ !") == "\\\\ \\` \\* \\_x\\_ \\[ \\] \\( \\) \\< \\> \\# \\| \\~ \\!"
    assert md_text("a\nb\r\nc") == "a b c"
    assert "@everyone" not in md_text("@everyone")


def test_terminal_output_has_no_escape_sequences_or_controls():
    from ragauge.report.common import verdict_line
    from ragauge.report.escape import terminal_text

    doc = _evil_doc()
    out = render_table(doc)
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", out)
    assert "pwned" not in out  # the whole OSC window-title sequence is gone, not only its ESC
    line = verdict_line(doc)
    assert "\x1b" not in line and "hit|x" in line
    assert terminal_text("a\x9b2Jb\x1bcc\u202ed") == "abcd"
    assert terminal_text("a\nb") == "a b" and terminal_text("a\nb", newlines=True) == "a\nb"


def test_pr_summary_escapes_failures_and_reports(tmp_path: Path):
    from ragauge.testing.session import Evaluation, Session

    res = ragauge.evaluate(_rows(), metrics=["hit_rate@3"], profile=None)
    res.source = f"{MD_EVIL}.jsonl"
    s = Session(rootdir=tmp_path, out=tmp_path / "out")
    s.evaluations.append(Evaluation("x", res, False))
    s.failures.append((f"tests/test_x.py::t[{MD_EVIL}]", f"faithfulness {MD_EVIL}{ESC}"))
    md = s.markdown()
    assert "`tests/test_x.py::t[<img" in md  # a test id is code: literal inside the backticks
    md = re.sub(r"`[^`\n]*`", "", md)
    assert not re.search(r"(?<!\\)<img", md) and "@everyone" not in md and "</details>" not in md
    assert "\x1b" not in md and "\\[" in md
    lines = "\n".join(s.terminal_lines())
    assert "\x1b" not in lines and "\x07" not in lines
    assert "1 evaluation (40 samples)" in lines


def test_profiles_markdown_table_escapes_alternatives(tmp_path: Path, capsys):
    from ragauge.cli.main import main

    cfg = tmp_path / "ragauge.toml"
    cfg.write_text('[profiles.mine]\ndescription = "x <b>y</b>"\n'
                   'thresholds = { "context_precision|context_precision_ids" = ">= 0.7" }\n', encoding="utf-8")
    assert main(["profiles", "mine", "--config", str(cfg), "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert "| `context_precision\\|context_precision_ids` | \\>= 0.7 | point |" in out
    assert "<b>" not in out


# --- too small vs alarmed ---------------------------------------------------------------------------
def test_too_small_note_names_the_pairs_not_an_alarmed_slice():
    from ragauge.report.common import too_small_note

    doc = make_results()
    doc["slice_checks"] = {"min_n": 5}
    doc["slices"]["numbers"]["checks"] = {
        "ndcg@10": {"metric": "ndcg@10", "status": "alarm", "n": 12, "n_rest": 28},
        "faithfulness": {"metric": "faithfulness", "status": "too small", "n": 3, "n_rest": 25}}
    doc["slices"]["edge"]["checks"] = {"ndcg@10": {"metric": "ndcg@10", "status": "too small", "n": 3, "n_rest": 37}}
    note = too_small_note(doc)
    assert note == ("Too small to test (fewer than 5 scored samples in the slice or in the rest): "
                    "edge on ndcg@10 (n = 3); numbers on faithfulness (n = 3).")
    assert "numbers on ndcg@10" not in note


def test_engine_alarmed_slice_is_too_small_only_on_its_other_metric():
    """The issue's case: slice ``table`` (n = 12) alarmed on hit_rate, while only 3 of its samples have an
    answer to score: the note must name (table, answer_relevancy), not "table" as a whole."""
    from ragauge.report.common import too_small_note

    rows = []
    for i in range(40):
        r = {"id": f"q{i}", "question": f"What is item {i}?", "retrieved_ids": ["a", "b", "c"],
             "relevant_ids": {"a": 1}, "tags": ["table"] if i < 12 else ["other"]}
        if i < 12:
            r["retrieved_ids"] = ["x", "y", "z"]  # retrieval broken on the slice
        if i >= 12 or i < 3:
            r["answer"] = f"Item {i} is a thing."
        rows.append(r)
    doc = ragauge.evaluate(rows, metrics=["hit_rate@3", "answer_relevancy"], profile=None).to_dict()
    assert [(a["slice"], a["metric"]) for a in doc["alarms"]] == [("table", "hit_rate@3")]
    note = too_small_note(doc) or ""
    assert "table on answer_relevancy (n = 3)" in note
    assert "table on hit_rate@3" not in note
    md = render_markdown(doc)
    assert "table on answer\\_relevancy" not in md and "table on answer_relevancy \\(n = 3\\)" in md


# --- one language, plurals ---------------------------------------------------------------------------
def _ru_doc() -> dict[str, Any]:
    doc = make_results()
    doc["source"]["n_samples"] = 1
    doc["diagnosis"] = [{"code": "retrieval_first", "severity": "critical", "title": "Сначала чините поиск",
                         "text": "Поиск находит нужный документ слишком редко.", "evidence": {}}]
    doc["alarms"] = [{"metric": "ndcg@10", "slice": "numbers", "status": "alarm", "n": 12, "n_rest": 28,
                      "value": 0.41, "rest_value": 0.8, "difference": -0.39, "p_value": 0.001, "p_adjusted": 0.01,
                      "method": "permutation", "ci": None, "threshold": None, "overall_gate": None,
                      "text": "Slice 'numbers' is significantly below the rest on ndcg@10: ..."}]
    return doc


def test_report_language_follows_the_diagnosis():
    doc = _ru_doc()
    md = render_markdown(doc)
    assert "### Что исправить" in md and "### Скрытые поломки" in md and "| метрика |" in md
    assert "(1 образец)" in md and "What to fix" not in md and "Hidden breakage" not in md
    assert "Срез «numbers» значимо хуже остальных по ndcg@10: 0,410" in md  # the alarm rebuilt in Russian
    table = render_table(doc)
    assert "Скрытые поломки: значимо хуже остальных — 1 срез" in table and "(1 образец)" in table
    page = render_html(doc)
    assert '<html lang="ru">' in page and "Пороги качества" in page and "Quality gates" not in page
    assert _parse(page).errors == []
    en = make_results()
    en["source"]["n_samples"] = 1
    assert "(1 sample)" in render_markdown(en)


def test_plurals():
    from ragauge.report.messages import plural

    assert [plural("ru", n, "samples") for n in (1, 2, 5, 11, 12, 21, 22, 25, 101, 111)] == [
        "1 образец", "2 образца", "5 образцов", "11 образцов", "12 образцов", "21 образец", "22 образца",
        "25 образцов", "101 образец", "111 образцов"]
    assert plural("en", 1, "claims") == "1 claim" and plural("en", 0, "claims") == "0 claims"


def test_alarm_sentence_in_english_is_the_stored_one():
    from ragauge.report.common import alarm_sentence

    record = {"metric": "faithfulness", "slice": "table", "n": 12, "n_rest": 41, "value": 0.41, "rest_value": 0.83,
              "difference": -0.42, "p_value": 0.0012, "p_adjusted": 0.01, "method": "permutation",
              "ci": {"low": 0.1, "high": 0.5}, "threshold": {"op": ">=", "value": 0.8, "mode": "point"},
              "slice_meets_threshold": False, "overall_gate": "pass", "overall_value": 0.81}
    assert alarm_sentence(record) == (
        "Slice 'table' is significantly below the rest on faithfulness: 0.410 (n = 12, 95% CI 0.100–0.500) vs "
        "0.830 on the other 41 samples (difference -0.420; permutation, p = 0.0012, Holm-adjusted 0.01), while "
        "the overall gate passes (0.810, at least 0.8); the slice itself misses the bar.")


# --- bounded HTML ------------------------------------------------------------------------------------
def test_html_caps_text_per_sample_and_rows_and_collapses_passing():
    from ragauge.report import html_samples

    doc = make_results()
    long = "слово " * 5000  # 30,000 characters
    doc["samples"][0]["answer"] = long
    doc["samples"][0]["artifacts"] = {"x": {"blob": "y" * 50_000}}
    base = copy.deepcopy(doc["samples"])
    doc["samples"] = [dict(copy.deepcopy(base[i % len(base)]), id=f"s{i:04d}") for i in range(html_samples.MAX_ROWS + 100)]
    doc["source"]["n_samples"] = len(doc["samples"])
    page = render_html(doc)
    assert long not in page and "y" * 5000 not in page
    assert "… (28000 more characters in results.json)" in page
    assert len(re.findall(r'<td class="id"', page)) == html_samples.MAX_ROWS
    assert "Not shown here: 100 more samples; every sample is in results.json." in page
    assert len(page) < 25_000_000
    assert _parse(page).errors == []


def test_html_groups_metric_columns_and_collapses_passing_samples():
    doc = make_results()
    for g in doc["gates"]:  # only ndcg@10 is gated, so some samples pass every gate
        g["status"] = "skipped" if g["metric"] != "ndcg@10" else g["status"]
    page = render_html(doc)
    section = page[page.index('<section id="samples">'):page.index("<footer>")]
    assert 'id="sg-retrieval"' in section and 'id="sg-all"' in section
    assert 'class="score num sg grp-retrieval"' in section
    assert '<details class="passing">' in section
    failing = section[:section.index('<details class="passing">')]
    passing = section[section.index('<details class="passing">'):]
    thr = next(g["threshold"] for g in doc["gates"] if g["metric"] == "ndcg@10")
    by_id = {s["id"]: s["scores"]["ndcg@10"] for s in doc["samples"]}
    f_ids = re.findall(r'<td class="id" data-v="([^"]+)">', failing)
    p_ids = re.findall(r'<td class="id" data-v="([^"]+)">', passing)
    assert f_ids and p_ids and len(f_ids) + len(p_ids) == len(doc["samples"])
    assert all(by_id[i] < thr for i in f_ids) and all(by_id[i] >= thr for i in p_ids)
    assert _parse(page).errors == []


# --- files replaced together or not at all ------------------------------------------------------------
def _rows(n: int = 40) -> list[dict[str, Any]]:
    return [{"id": f"q{i}", "question": f"question {i}", "answer": "a", "retrieved_ids": ["a", "b", "c"],
             "relevant_ids": {"a": 1}, "tags": ["table"] if i < 12 else ["other"]} for i in range(n)]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_write_reports_failure_keeps_every_old_file(tmp_path: Path, monkeypatch):
    from ragauge import files

    res = ragauge.evaluate(_rows(), metrics=["hit_rate@3"], profile=None)
    write_reports(res, tmp_path)
    before = _snapshot(tmp_path)
    assert set(before) == {"results.json", "report.html", "report.md"}
    stage = files._stage

    def full_disk(target: Path, data: bytes) -> Path:
        if target.name == "report.md":
            raise OutputError("cannot write the file: No space left on device", file=str(target))
        return stage(target, data)

    monkeypatch.setattr(files, "_stage", full_disk)
    with pytest.raises(OutputError, match="report.md"):
        write_reports(res, tmp_path)
    assert _snapshot(tmp_path) == before  # no temporary left, results.json and report.html untouched


def test_lone_surrogate_names_the_file_and_keeps_the_old_results(tmp_path: Path):
    res = ragauge.evaluate(_rows(), metrics=["hit_rate@3"], profile=None)
    write_reports(res, tmp_path)
    before = _snapshot(tmp_path)
    bad = ragauge.evaluate(_rows(), metrics=["hit_rate@3"], profile=None)
    bad.source = "bad \ud800 name.jsonl"  # the loader refuses one in the data; a caller's source name can hold one
    with pytest.raises(OutputError, match="results.json"):
        write_reports(bad, tmp_path)
    assert _snapshot(tmp_path) == before
    json.loads(before["results.json"])


def test_pytest_plugin_files_are_replaced_together(tmp_path: Path, monkeypatch):
    from ragauge import files
    from ragauge.testing.session import Evaluation, Session

    out = tmp_path / "out"
    s = Session(rootdir=tmp_path, out=out)
    s.evaluations.append(Evaluation("a.jsonl", ragauge.evaluate(_rows(), metrics=["hit_rate@3"], profile=None), True))
    written = s.write()
    assert {p.name for p in written.values()} == {"results.json", "report.html", "report.md", "samples.jsonl",
                                                  "summary.md"}
    assert len((out / "samples.jsonl").read_text(encoding="utf-8").splitlines()) == 40
    before = _snapshot(out)
    stage = files._stage

    def full_disk(target: Path, data: bytes) -> Path:
        if target.name == "summary.md":
            raise OutputError("cannot write the file: No space left on device", file=str(target))
        return stage(target, data)

    monkeypatch.setattr(files, "_stage", full_disk)
    with pytest.raises(OutputError, match="summary.md"):
        s.write()
    assert _snapshot(out) == before


def test_html_caps_huge_ids_and_tag_lists(tmp_path):
    """A 1 MB id and 2,000 tags of 1 KB stay in results.json; the HTML shows a bounded part (review finding)."""
    import json as _json

    import ragauge

    rows = [{"id": "x" * 1_000_000, "question": "q?", "retrieved_ids": ["a"], "relevant_ids": ["a"],
             "tags": [f"t{i}-" + "y" * 1000 for i in range(2000)]},
            {"id": "b", "question": "q?", "retrieved_ids": ["a"], "relevant_ids": ["a"], "tags": ["t1"]}]
    path = tmp_path / "big.jsonl"
    path.write_text("\n".join(_json.dumps(r) for r in rows), encoding="utf-8")
    ragauge.evaluate(str(path), metrics=["mrr"], profile=None).save(tmp_path / "out")
    assert (tmp_path / "out" / "report.html").stat().st_size < 200_000
    doc = _json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    assert len(doc["samples"][0]["id"]) == 1_000_000 and len(doc["samples"][0]["tags"]) == 2000
