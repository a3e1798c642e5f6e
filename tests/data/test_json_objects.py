"""The one strict reader for small JSONL side files (human ratings, golden sets, knowledge bases)."""

import pytest

from ragauge.data.jsonl import read_json_objects
from ragauge.errors import InputError


def _read(tmp_path, content: bytes):
    p = tmp_path / "f.jsonl"
    p.write_bytes(content)
    return read_json_objects(p, what="human ratings", hint="one object per line")


def test_objects_with_their_line_numbers_bom_blank_lines_and_no_final_newline(tmp_path):
    rows = _read(tmp_path, '\ufeff{"id": "a", "r": 4}\n\n{"id": "б", "r": 5}'.encode("utf-8"))
    assert rows == [(1, {"id": "a", "r": 4}), (3, {"id": "б", "r": 5})]


@pytest.mark.parametrize("content,message,line", [
    (b'{"id": "a"}\n{"id": "a", "id": "b"}\n', "duplicate key 'id'", 2),
    (b'{"id": "a"}\n{"id": \n', "invalid JSON", 2),
    (b'[1, 2]\n', "not a JSON object", 1),
    (b'{"id": "\xff"}\n', "not UTF-8", 1),
])
def test_the_first_problem_names_file_line_and_what(tmp_path, content, message, line):
    with pytest.raises(InputError) as err:
        _read(tmp_path, content)
    text = str(err.value)
    assert message in text and "human ratings" in text and "f.jsonl" in text
    assert err.value.line == line


def test_a_missing_file_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="file not found"):
        read_json_objects(tmp_path / "nope.jsonl", what="golden set", hint="h")
