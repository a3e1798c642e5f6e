"""TREC file reading: what is accepted (comments, blank lines, extra run fields, any whitespace) and
the precise errors for everything else, with every reader: pyarrow's CSV reader (large files), the
numpy field splitter (small files, as given, and every file without pyarrow) and, behind both, the
line-by-line reader that names the line of an error."""

from __future__ import annotations

import sys

import pytest

from ragauge.cli.main import main
from ragauge.errors import InputError, UnknownMetricError
from ragauge.trec import evaluate_files, parse_measures, read_qrels, read_run
from ragauge.trec import io as trec_io

QRELS = "q1 0 a 1\nq1 0 b 0\nq2 0 c 2\n"
RUN = "q1 Q0 a 1 0.5 r\nq1 Q0 b 2 0.4 r\nq2 Q0 c 1 1.0 r\n"


@pytest.fixture(params=["arrow", "split", "no-pyarrow"])
def backend(request, monkeypatch):
    if request.param == "no-pyarrow":
        monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow -> ImportError
    elif request.param == "arrow":  # format scans on their own thread, beside pyarrow's parse
        pytest.importorskip("pyarrow")
        monkeypatch.setattr(trec_io, "_SMALL_FILE", 0)  # these small files take the large-file reader
    return request.param


def _files(tmp_path, qrels=QRELS, run=RUN):
    (tmp_path / "qrels").write_text(qrels)
    (tmp_path / "run").write_text(run)
    return tmp_path / "qrels", tmp_path / "run"


def test_reads_clean_files(tmp_path, backend):
    q, r = _files(tmp_path)
    result = evaluate_files(q, r, measures=["map", "num_ret"])
    assert result.query_ids == ["q1", "q2"] and result.run_id == "r"
    assert result.values["map"].tolist() == [1.0, 1.0]


def test_comments_blank_lines_tabs_and_extra_run_fields(tmp_path, backend):
    qrels = "# judged by hand\n\n  q1\t0  a#1 1\nq1 0 b 0\r\n# q2 0 c 2\nq2 0 c 2\n"
    run = "#comment\nq1 Q0 a#1 1 0.5 r extra junk\n\nq1\tQ0\tb\t2\t0.4\tr\nq2 Q0 c 1 1.0 last\n"
    q, r = _files(tmp_path, qrels, run)
    columns = read_qrels(q)
    assert len(columns) == 3
    result = evaluate_files(q, r, measures=["map", "num_rel"])
    assert result.values["map"].tolist() == [1.0, 1.0]  # 'a#1' is a docno, not a comment
    assert result.run_id == "last"  # trec_eval keeps the run id of the last line


@pytest.mark.parametrize(
    ("qrels", "run", "message", "line", "which"),
    [
        ("q1 0 a\n", RUN, "expected 4 whitespace-separated fields", 1, "qrels"),
        ("q1 0 a 1\nq1 0 b 1 extra\n", RUN, "expected 4", 2, "qrels"),
        ("q1 0 a 1\nq1 0 b 1.5\n", RUN, "must be an integer", 2, "qrels"),
        ("q1 0 a 1\nq1 0 b high\n", RUN, "must be an integer", 2, "qrels"),
        (QRELS, "q1 Q0 a 1 0.5 r\nq1 Q0 b 2 0.4\n", "expected 6 whitespace-separated fields", 2, "run"),
        (QRELS, "q1 Q0 a 1 0.5 r\n\nq1 Q0 b 2 abc r\n", r"score \(5th field\) must be a number", 3, "run"),
        (QRELS, "q1 Q0 a 1 nan r\n", "must be a number", 1, "run"),
    ],
)
def test_malformed_lines_name_file_and_line(tmp_path, backend, qrels, run, message, line, which):
    q, r = _files(tmp_path, qrels, run)
    with pytest.raises(InputError, match=message) as info:
        evaluate_files(q, r)
    assert info.value.line == line
    assert info.value.file == str(q if which == "qrels" else r)


def test_duplicate_document_in_run_is_refused_like_trec_eval_v10(tmp_path, backend):
    q, r = _files(tmp_path, run="q1 Q0 a 1 0.5 r\nq2 Q0 c 1 1.0 r\nq1 Q0 a 3 0.1 r\n")
    with pytest.raises(InputError, match="'a' is listed twice for query 'q1'") as info:
        evaluate_files(q, r)
    assert (info.value.file, info.value.line) == (str(r), 3)


def test_duplicate_judgement_is_refused(tmp_path, backend):
    q, r = _files(tmp_path, qrels="q1 0 a 1\nq1 0 a 0\n")
    with pytest.raises(InputError, match="listed twice") as info:
        evaluate_files(q, r)
    assert info.value.line == 2


def test_empty_missing_and_disjoint_files(tmp_path, backend):
    q, r = _files(tmp_path, qrels="# nothing\n\n")
    with pytest.raises(InputError, match="no qrels lines"):
        evaluate_files(q, r)
    q, r = _files(tmp_path, qrels="x 0 a 1\n")
    with pytest.raises(InputError, match="cannot read the run file"):
        evaluate_files(q, tmp_path / "absent")
    with pytest.raises(InputError, match="no query has both qrels and retrieved documents"):
        evaluate_files(q, r)


def test_measure_syntax():
    specs = parse_measures(["P.10,5", "map", "P.20", "ndcg_cut.23.4"])
    assert [(s.name, s.cutoffs) for s in specs] == [("map", None), ("P", (5, 10, 20)), ("ndcg_cut", (23,))]
    assert [s.name for s in parse_measures(None)] == [
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "Rprec", "recip_rank", "P"]
    with pytest.raises(UnknownMetricError, match="bpref' is a trec_eval measure that ragauge does not compute"):
        parse_measures(["bpref"])
    with pytest.raises(InputError, match="positive"):
        parse_measures(["P.0"])
    with pytest.raises(InputError, match="duplicate"):
        parse_measures(["P.5,5"])
    with pytest.raises(InputError, match="takes no parameters"):
        parse_measures(["map.5"])


def test_cli_prints_trec_eval_format_and_exit_codes(tmp_path, capsys):
    q, r = _files(tmp_path)
    assert main(["trec-eval", "-q", "-m", "P.1", "-m", "num_q", str(q), str(r)]) == 0
    assert capsys.readouterr().out == (
        "P_1                   \tq1\t1.0000\n"
        "P_1                   \tq2\t1.0000\n"
        "num_q                 \tall\t2\n"
        "P_1                   \tall\t1.0000\n"
    )
    assert main(["trec-eval", "-m", "bpref", str(q), str(r)]) == 2
    assert "does not compute" in capsys.readouterr().err
    assert main(["trec-eval", "-l", "-1", str(q), str(r)]) == 2
    assert ">= 0" in capsys.readouterr().err
    assert read_run(r).run_id == "r"


def test_a_flagged_file_that_trips_pyarrow_is_normalised_not_failed(tmp_path, monkeypatch):
    # pyarrow reads a CR as a line end and the run id of the last line is then missing; the scans flag
    # the CR, so the file is normalised and parsed again instead of failing
    pytest.importorskip("pyarrow")
    monkeypatch.setattr(trec_io, "_SMALL_FILE", 0)
    q, r = _files(tmp_path, run=RUN + "\r\n")
    columns = read_run(r)
    assert len(columns) == 3 and columns.run_id == "r"
    assert evaluate_files(q, r, measures=["map"]).values["map"].tolist() == [1.0, 1.0]
