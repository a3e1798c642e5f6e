"""What a user sees for each bad input: file, line, field, the value and the fix — never a traceback."""

from __future__ import annotations

import json
import sys
import time

import pytest

from ragauge.data import InputErrors, load
from ragauge.errors import InputError, MissingDependencyError

MiB = 2**20


def jsonl(tmp_path, *lines, name="d.jsonl"):
    path = tmp_path / name
    path.write_bytes(b"".join((line if isinstance(line, bytes) else line.encode()) + b"\n" for line in lines))
    return path


def load_error(path, **kw) -> InputError:
    with pytest.raises(InputError) as info:
        load(path, **kw)
    return info.value


def assert_names(err: InputError, *parts: str) -> None:
    text = str(err)
    for part in parts:
        assert part in text, f"{part!r} not in {text!r}"


GOOD = '{"id": "q1", "question": "ok"}'


def test_wrong_type(tmp_path):
    p = jsonl(tmp_path, GOOD, '{"id": "q2", "question": "q", "answer": 42}')
    err = load_error(p)
    assert (err.file, err.line, err.field, err.value) == (str(p), 2, "answer", 42)
    assert_names(err, str(p), "line 2", "field 'answer'", "expected a string or null", "(got 42)")


def test_question_of_the_wrong_type(tmp_path):
    err = load_error(jsonl(tmp_path, GOOD, '{"id": "q2", "question": ["a"]}'))
    assert_names(err, "d.jsonl", "line 2", "field 'question'", "question must be a string, not a list")


def test_duplicate_ids_across_lines_name_both_lines(tmp_path):
    err = load_error(jsonl(tmp_path, GOOD, '{"id": "q2", "question": "a"}', "", '{"id": "q1", "question": "b"}'))
    assert (err.line, err.field) == (4, "id")
    assert_names(err, "d.jsonl", "line 4", "field 'id'", "duplicate sample id 'q1', also on line 1", "must be unique")


def test_duplicate_ids_in_a_dataframe_name_both_rows():
    err = load_error([{"id": 1, "question": "a"}, {"id": "1", "question": "b"}])
    assert_names(err, "records, row 1", "duplicate sample id '1', also on row 0")


def test_generated_id_clashing_with_a_given_one(tmp_path):
    err = load_error(jsonl(tmp_path, '{"question": "a"}', '{"id": "line-1", "question": "b"}'))
    assert_names(err, "line 2", "duplicate sample id 'line-1', also on line 1")


def test_relevant_ids_as_a_string_in_csv(tmp_path):
    """One id in a CSV cell ("d1") is that one relevant document; "d1,d2" (two ids or one?) is refused."""
    p = tmp_path / "d.csv"
    p.write_text('id,question,relevant_ids\nq1,a,"[""d1""]"\nq2,b,"d1,d2"\nq3,c,d1\nq4,d,d1 d2\n',
                 encoding="utf-8")
    err = load_error(p)
    assert isinstance(err, InputErrors) and err.total == 2
    assert (err.file, err.line, err.field) == (str(p), 3, "relevant_ids")
    assert_names(err, "2 errors in",
                 f"{p}, line 3, field 'relevant_ids': relevant ids given as one string (got 'd1,d2')",
                 f"{p}, line 5, field 'relevant_ids'", 'Pass a list ["d1", "d2"]', "in CSV, write either as JSON")
    assert "line 4" not in str(err)
    p.write_text('id,question,relevant_ids,retrieved_ids\nq3,c,d1,"[""d1"", ""d2""]"\n', encoding="utf-8")
    [s] = load(p)
    assert s.relevant_ids == {"d1": 1}


def test_relevant_ids_as_one_id_string_in_jsonl(tmp_path):
    [s] = load(jsonl(tmp_path, '{"id": "q1", "question": "a", "relevant_ids": "d1", "retrieved_ids": ["d1"]}'))
    assert s.relevant_ids == {"d1": 1}
    err = load_error(jsonl(tmp_path, '{"id": "q1", "question": "a", "relevant_ids": "d1;d2"}'))
    assert_names(err, "line 1", "field 'relevant_ids'", "relevant ids given as one string (got 'd1;d2')", "Pass a list")


def test_retrieved_ids_as_one_string_stays_an_error(tmp_path):
    """A ranking of one string is more likely a list written wrongly than a ranking of one document."""
    err = load_error(jsonl(tmp_path, '{"id": "q1", "question": "a", "retrieved_ids": "d1"}'))
    assert_names(err, "line 1", "field 'retrieved_ids'", "ids given as one string (got 'd1')",
                 "Pass the ranking as a list")


def test_invalid_utf8_names_line_and_byte_offset(tmp_path):
    p = jsonl(tmp_path, GOOD, b'{"id": "q2", "question": "caf\xe9"}')
    err = load_error(p)
    assert err.line == 2
    first_line = len(GOOD) + 1
    assert_names(err, str(p), "line 2", "invalid UTF-8 at byte 29 of the line",
                 f"byte offset {first_line + 29} in the file",
                 "Save the file as UTF-8")


def test_invalid_utf8_in_csv(tmp_path):
    p = tmp_path / "d.csv"
    p.write_bytes(b"id,question\nq1,ok\nq2,caf\xe9\n")
    assert_names(load_error(p), "line 3", "invalid UTF-8 at byte 6 of the line")


def test_invalid_json_names_column(tmp_path):
    err = load_error(jsonl(tmp_path, GOOD, '{"id": "q2" "question": "a"}'))
    assert err.line == 2
    assert_names(err, "line 2", "invalid JSON at column 13: Expecting ',' delimiter", "one complete JSON object")


def test_line_that_is_not_an_object(tmp_path):
    err = load_error(jsonl(tmp_path, GOOD, '["q2", "a"]'))
    assert_names(err, "line 2", "a line must be a JSON object, not an array", "one object per line")


def test_line_over_the_limit_is_skipped_and_reading_goes_on(tmp_path):
    long_line = json.dumps({"id": "big", "question": "x" * 5000})
    p = jsonl(tmp_path, GOOD, long_line, '{"id": "q3", "question": 1}')
    err = load_error(p, max_line_bytes=4096)
    assert isinstance(err, InputErrors) and err.total == 2
    assert (err.file, err.line) == (str(p), 2)
    assert_names(err, "line 2 is longer than 4 KiB", "max_line_bytes",
                 "line 3, field 'question': question must be a string")
    # lines up to the limit are fine, whatever the line ending
    assert len(load(jsonl(tmp_path, long_line, name="ok.jsonl"), max_line_bytes=len(long_line))) == 1


def test_real_line_over_64_mib_never_held_in_memory(tmp_path):
    p = tmp_path / "huge.jsonl"
    with open(p, "wb") as fh:  # written in 1 MiB chunks: the test itself never holds the line
        fh.write((GOOD + "\n").encode())
        fh.write(b'{"id": "huge", "question": "')
        chunk = b"x" * MiB
        for _ in range(65):
            fh.write(chunk)
        fh.write(b'"}\n{"id": "q3", "question": "after"}\n')
    start = time.perf_counter()
    err = load_error(p)
    assert time.perf_counter() - start < 3
    assert (err.line, err.file) == (2, str(p))
    assert_names(err, f"{p}, line 2: line 2 is longer than 64 MiB", "max_line_bytes")


def test_many_errors_are_collected(tmp_path):
    lines = [GOOD] + [f'{{"id": "q{i}", "question": 1}}' for i in range(2, 27)]  # 25 bad lines
    p = jsonl(tmp_path, *lines)
    err = load_error(p)
    assert isinstance(err, InputErrors)
    assert err.total == 25 and len(err.errors) == 20
    assert (err.file, err.line, err.field) == (str(p), 2, "question")  # the first error's attributes
    text = str(err).splitlines()
    assert text[0] == f"25 errors in {p}:"
    assert text[1].strip().startswith(f"{p}, line 2, field 'question': question must be a string")
    assert text[-1].strip() == "and 5 more"
    assert len(text) == 22


def test_max_errors_keyword(tmp_path):
    p = jsonl(tmp_path, '{"question": 1}', '{"question": 1}', '{"question": 1}')
    assert str(load_error(p, max_errors=1)).splitlines()[-1].strip() == "and 2 more"


def test_missing_file(tmp_path):
    p = tmp_path / "nope.jsonl"
    err = load_error(p)
    assert err.file == str(p)
    assert_names(err, str(p), "file not found", "Check the path")


def test_directory_and_unknown_suffix(tmp_path):
    assert_names(load_error(tmp_path.__class__(tmp_path) / ".." / tmp_path.name), "is a directory")
    (tmp_path / "d.xlsx").write_text("x")
    assert_names(load_error(tmp_path / "d.xlsx"), "cannot tell the format from the suffix '.xlsx'", "format='jsonl'")


@pytest.mark.parametrize("content", [b"", b"\n\n  \n", b"\xef\xbb\xbf"])
def test_empty_file(tmp_path, content):
    p = tmp_path / "d.jsonl"
    p.write_bytes(content)
    err = load_error(p)
    assert_names(err, str(p), "no samples")


def test_empty_inputs_of_other_kinds(tmp_path):
    (tmp_path / "h.csv").write_text("id,question\n")
    assert_names(load_error(tmp_path / "h.csv"), "no samples")
    assert_names(load_error([]), "no samples")


def test_csv_row_with_wrong_cell_count_and_bad_header(tmp_path):
    p = tmp_path / "d.csv"
    p.write_text("id,question\nq1,a,b\n", encoding="utf-8")
    assert_names(load_error(p), "line 2", "the row has 3 cells but the header has 2", "Quote cells")
    p.write_text("id,question,id\nq1,a,b\n", encoding="utf-8")
    assert_names(load_error(p), "line 1", "names the column 'id' twice")


def test_record_that_is_not_a_mapping():
    assert_names(load_error([{"question": "a"}, ["b"]]), "records, row 1", "a sample must be an object", "(got ['b'])")


def test_dataframe_errors_name_the_row():
    pd = pytest.importorskip("pandas")
    err = load_error(pd.DataFrame({"question": ["a", "b"], "latency_ms": [1.0, -2.0]}))
    assert err.file == "DataFrame, row 1" and err.field == "latency_ms"
    assert_names(err, "DataFrame, row 1, field 'latency_ms': a timing cannot be negative (got -2.0)")


def test_parquet_without_pyarrow(tmp_path, monkeypatch):
    p = tmp_path / "d.parquet"
    p.write_bytes(b"PAR1")
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)  # makes the import fail
    message = r"Reading Parquet files needs the package 'pyarrow'.*ragauge\[tables\]"
    with pytest.raises(MissingDependencyError, match=message):
        load(p)


def test_not_a_parquet_file(tmp_path):
    pytest.importorskip("pyarrow")
    p = tmp_path / "d.parquet"
    p.write_text("id,question\n")
    assert_names(load_error(p), str(p), "not a readable Parquet file")


def test_truncated_gzip(tmp_path):
    import gzip

    data = gzip.compress((GOOD + "\n").encode() * 1000)
    (tmp_path / "d.jsonl.gz").write_bytes(data[: len(data) // 2])
    assert_names(load_error(tmp_path / "d.jsonl.gz"), "cannot read the file")


@pytest.mark.slow
def test_sparse_512_mib_line_is_read_in_bounded_memory(tmp_path):
    import tracemalloc

    p = tmp_path / "sparse.jsonl"
    with open(p, "wb") as fh:
        fh.write((GOOD + "\n").encode())
        fh.truncate(512 * MiB)  # a 512 MiB line of NUL bytes, never written (sparse file)
    tracemalloc.start()
    try:
        err = load_error(p, max_line_bytes=MiB)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert_names(err, "line 2 is longer than 1 MiB")
    assert peak < 8 * MiB
