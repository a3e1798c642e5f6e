"""Input that loads but cannot be kept, and input that users really write (issues 13 and 14).

Refused at load time, naming file/line/field: lone surrogates, duplicate JSON keys, nesting too deep
for Python's json, integers longer than Python reads. Loaded: ';'-separated CSV, the seed's golden
format ``{question, relevant_doc, retrieved_docs}``, samples without a question.
"""

from __future__ import annotations

import json

import pytest

from ragauge.data import Context, load
from ragauge.errors import InputError


def jsonl(tmp_path, *lines, name="d.jsonl"):
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def load_error(source, **kw) -> InputError:
    with pytest.raises(InputError) as info:
        load(source, **kw)
    return info.value


def assert_names(err: InputError, *parts: str) -> None:
    text = str(err)
    for part in parts:
        assert part in text, f"{part!r} not in {text!r}"


GOOD = '{"id": "q1", "question": "ok"}'


# --- lone surrogates: loaded, then the results write crashed with exit 70 ------------------------


def test_lone_surrogate_escape_in_jsonl_is_refused_with_line_and_field(tmp_path):
    p = jsonl(tmp_path, GOOD, '{"id": "q2", "question": "bad \\ud800 text"}')
    err = load_error(p)
    assert (err.file, err.line, err.field) == (str(p), 2, "question")
    assert_names(err, "lone UTF-16 surrogate", "cannot be written as UTF-8", "\\ud800", "low half")
    str(err).encode("utf-8")  # the message itself can be printed


def test_surrogate_pair_is_one_character_and_loads(tmp_path):
    [_, s] = load(jsonl(tmp_path, GOOD, '{"id": "q2", "question": "smile \\ud83d\\ude00"}'))
    assert s.question == "smile \U0001f600"


@pytest.mark.parametrize(
    ("record", "field"),
    [
        ({"id": "q1", "question": "q", "contexts": ["ok", {"text": "x\udc00"}]}, "contexts[1].text"),
        ({"id": "q1", "question": "q", "relevant_ids": {"d\ud800": 1}}, "relevant_ids.d\\ud800"),
        ({"id": "q1", "question": "q", "metadata": {"a": [{"b": "\udfff"}]}}, "metadata.a[0].b"),
        ({"id": "q1", "question": "q", "source": "\ud800"}, "source"),  # an extra column -> metadata
        ({"id": "\ud800", "question": "q"}, "id"),
    ],
)
def test_lone_surrogate_in_any_field_of_a_python_record(record, field):
    err = load_error([record])
    assert err.field == field
    assert (err.file, err.line) == ("records, row 0", None)
    str(err).encode("utf-8")


def test_lone_surrogate_escape_inside_a_json_cell_of_a_csv(tmp_path):
    p = tmp_path / "d.csv"
    p.write_text('id,question,contexts\nq1,a,"[""ok""]"\nq2,b,"[""x\\ud800""]"\n', encoding="utf-8")
    err = load_error(p)
    assert (err.file, err.line, err.field) == (str(p), 3, "contexts[0]")  # inside the JSON cell


def test_lone_surrogate_in_a_json_array_file_and_under_an_alias(tmp_path):
    p = tmp_path / "d.json"
    p.write_text('[{"id": "q1", "user_input": "a"}, {"id": "q2", "user_input": "\\udfff"}]', encoding="utf-8")
    err = load_error(p)
    assert (err.file, err.field) == (f"{p}, item 2", "user_input")


def test_a_cyclic_python_record_does_not_hang_the_check():
    meta: dict = {"a": "x"}
    meta["self"] = meta
    err = load_error([{"id": "q1", "question": "q", "metadata": meta, "note": "\ud800"}])
    assert err.field == "note"


def test_lone_surrogate_in_a_dataframe_cell():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"id": ["a", "b"], "question": pd.Series(["ok", "x\ud800"], dtype=object)})
    err = load_error(df)
    assert (err.file, err.field) == ("DataFrame, row 1", "question")


def test_surrogate_refused_from_the_cli_with_exit_2_and_no_results(tmp_path, capsys):
    from ragauge.cli.main import main

    p = jsonl(tmp_path, '{"id": "q1", "question": "a\\ud800", "retrieved_ids": ["d1"], "relevant_ids": ["d1"]}')
    out = tmp_path / "out"
    code = main(["eval", str(p), "--metrics", "ndcg@10", "--profile", "none", "--out", str(out), "--quiet"])
    assert code == 2
    assert "line 1, field 'question'" in capsys.readouterr().err
    assert not (out / "results.json").exists()


# --- JSON that Python reads wrongly or not at all ------------------------------------------------


def test_duplicate_key_inside_relevant_ids_is_refused_with_line_key_and_field(tmp_path):
    # json.loads keeps the last value: {"d1": 0} here, so hit_rate would silently be 0
    p = jsonl(tmp_path, GOOD, '{"id": "q2", "question": "a", "relevant_ids": {"d1": 2, "d1": 0}}')
    err = load_error(p)
    assert (err.line, err.field) == (2, "relevant_ids")
    assert_names(err, f"{p}, line 2", "duplicate key 'd1'")


def test_duplicate_top_level_key_is_refused(tmp_path):
    p = jsonl(tmp_path, '{"id": "q1", "question": "a", "relevant_ids": ["d1"], "relevant_ids": []}')
    err = load_error(p)
    assert (err.line, err.field) == (1, "relevant_ids")
    assert_names(err, "duplicate key 'relevant_ids'", "Give each key once")


def test_duplicate_key_deep_inside_a_context(tmp_path):
    p = jsonl(tmp_path, '{"id": "q1", "question": "a", "contexts": ["x", {"text": "t", "text": "u"}]}')
    assert (load_error(p).field) == "contexts[1]"


def test_duplicate_key_in_a_json_array_file_names_item_and_line(tmp_path):
    p = tmp_path / "d.json"
    p.write_text('[\n  {"id": "q1", "question": "a"},\n  {"id": "q2",\n   "question": "b", "id": "q3"}\n]\n')
    err = load_error(p)
    assert (err.file, err.line, err.field) == (f"{p}, item 2", 3, "id")
    assert_names(err, "duplicate key 'id'")


def test_duplicate_key_in_a_samples_object_file(tmp_path):
    p = tmp_path / "d.json"
    p.write_text('{"samples": [{"id": "q1", "question": "a", "relevant_ids": {"d": 1, "d": 1}}]}')
    err = load_error(p)
    assert (err.file, err.line, err.field) == (f"{p}, item 1", 1, "relevant_ids")


def test_100k_deep_nesting_is_an_input_error_not_a_crash(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    p = jsonl(tmp_path, GOOD, '{"id": "q2", "question": "a", "metadata": {"x": ' + deep + "}}", '{"id": "q3", "question": "b"}')
    err = load_error(p)
    assert (err.file, err.line) == (str(p), 2)
    assert_names(err, "nested too deeply")
    q = tmp_path / "deep.json"
    q.write_text('[{"id": "q1", "question": "a"}, ' + deep + "]")
    err = load_error(q)
    assert (err.file, err.line) == (f"{q}, item 2", 1)  # the second object, as a person counts them
    assert "row 0" not in str(err) and "row 1" not in str(err)
    assert_names(err, "nested too deeply")


def test_5000_digit_integer_is_an_input_error(tmp_path):
    p = jsonl(tmp_path, '{"id": "q1", "question": "a", "latency_ms": ' + "9" * 5000 + "}")
    err = load_error(p)
    assert err.line == 1
    assert_names(err, "a number with 5000 digits", "Write very long numbers as strings")


def test_cli_exit_code_2_for_deep_nesting_and_huge_integers(tmp_path, capsys):
    from ragauge.cli.main import main

    for i, bad in enumerate(("[" * 100_000 + "]" * 100_000, "1" * 5000)):
        p = jsonl(tmp_path, '{"id": "q1", "question": "a", "metadata": {"x": ' + bad + "}}", name=f"d{i}.jsonl")
        code = main(["eval", str(p), "--metrics", "ndcg@10", "--profile", "none", "--out", str(tmp_path / "o"), "--quiet"])
        assert code == 2, capsys.readouterr().err
        assert "line 1" in capsys.readouterr().err


# --- CSV with ';' (European Excel) -----------------------------------------------------------------


def test_semicolon_csv_loads(tmp_path):
    p = tmp_path / "d.csv"
    p.write_text('id;question;relevant_ids\nq1;Where, exactly?;"[""d1"", ""d2""]"\nq2;"a;b";\n', encoding="utf-8")
    a, b = load(p)
    assert (a.id, a.question, dict(a.relevant_ids)) == ("q1", "Where, exactly?", {"d1": 1, "d2": 1})
    assert (b.id, b.question, b.relevant_ids) == ("q2", "a;b", None)


def test_tab_separated_csv_and_comma_tsv_load(tmp_path):
    (tmp_path / "t.csv").write_text("id\tquestion\nq1\ta, b\n", encoding="utf-8")
    (tmp_path / "c.tsv").write_text("id,question\nq1,a\n", encoding="utf-8")
    assert load(tmp_path / "t.csv")[0].question == "a, b"
    assert load(tmp_path / "c.tsv")[0].question == "a"


def test_comma_csv_with_semicolons_in_cells_keeps_the_comma(tmp_path):
    p = tmp_path / "d.csv"
    p.write_text('id,question\nq1,"a; b; c"\n', encoding="utf-8")
    assert load(p)[0].question == "a; b; c"


def test_a_row_with_another_separator_names_the_separator(tmp_path):
    p = tmp_path / "d.csv"
    p.write_text("id;question;answer\nq1;a;b\nq2,b,c\n", encoding="utf-8")
    err = load_error(p)
    assert err.line == 3
    assert_names(err, "the row has 1 cells but the header has 3", "separator ';'", "one separator")


def test_bad_quote_names_the_separator(tmp_path):
    p = tmp_path / "d.csv"
    p.write_text('id;question\nq1;"a"b\n', encoding="utf-8")
    err = load_error(p)
    assert_names(err, "invalid CSV", "the separator is ';'")


def test_separator_detection_is_shared_with_generate():
    from ragauge.data._delimiter import detect_delimiter

    assert detect_delimiter("id;question;relevant_ids") == ";"
    assert detect_delimiter("id\tquestion") == "\t"
    assert detect_delimiter("id|question|answer") == "|"
    assert detect_delimiter("question") == ","
    assert detect_delimiter("question", default=";") == ";"
    assert detect_delimiter('"a;b",c') == ","  # quotes respected: 2 cells with ',', 1 with ';'


# --- hints name what the user can do from where they are -----------------------------------------


def test_unknown_suffix_hint_says_rename_for_the_cli_and_format_for_python(tmp_path):
    p = tmp_path / "data.txt"
    p.write_text(GOOD + "\n", encoding="utf-8")
    err = load_error(p)
    assert_names(err, "Rename the file with one of the suffixes", ".jsonl", "from Python", "format='jsonl'")
    assert not str(err).startswith("pass format")


def test_not_parquet_hint_names_a_real_action(tmp_path):
    pytest.importorskip("pyarrow")
    p = tmp_path / "d.parquet"
    p.write_text(GOOD + "\n", encoding="utf-8")
    assert_names(load_error(p), "give it its real suffix", "format='jsonl'")
    assert "pass format=" not in str(load_error(p)).replace("pass load(..., format=", "")


def test_long_line_hint_says_python_only(tmp_path):
    p = jsonl(tmp_path, json.dumps({"id": "q1", "question": "x" * 5000}))
    assert_names(load_error(p, max_line_bytes=100), "from Python, raise the limit with load(..., max_line_bytes=...)")


# --- the seed's golden format {question, relevant_doc, retrieved_docs} --------------------------


def test_seed_golden_format_loads_and_is_scoreable(tmp_path):
    p = jsonl(
        tmp_path,
        '{"question": "q?", "relevant_doc": "d2", "retrieved_docs": ["d1", "d2", "d3"]}',
        '{"question": "r?", "relevant_doc": 7, "retrieved_docs": [7, 8]}',
    )
    a, b = load(p)
    assert (a.retrieved_ids, dict(a.relevant_ids), a.ranking) == (("d1", "d2", "d3"), {"d2": 1}, ("d1", "d2", "d3"))
    assert (b.retrieved_ids, dict(b.relevant_ids)) == (("7", "8"), {"7": 1})


def test_seed_format_in_csv(tmp_path):
    p = tmp_path / "seed.csv"
    p.write_text('question;relevant_doc;retrieved_docs\nq?;d2;"[""d1"", ""d2""]"\n', encoding="utf-8")
    [s] = load(p)
    assert (s.retrieved_ids, dict(s.relevant_ids)) == (("d1", "d2"), {"d2": 1})


def test_retrieved_docs_as_objects_give_ids_and_contexts():
    [s] = load([{"question": "q", "relevant_doc": "d2",
                 "retrieved_docs": [{"id": "d1", "text": "one", "score": 0.9}, {"id": "d2", "text": "two"}]}])
    assert s.retrieved_ids == ("d1", "d2")
    assert s.contexts == (Context("one", id="d1", score=0.9), Context("two", id="d2"))


def test_retrieved_docs_objects_without_text_are_ids_only_and_contexts_win():
    [s] = load([{"question": "q", "retrieved_docs": [{"id": "d1"}], "contexts": ["given"]}])
    assert s.retrieved_ids == ("d1",) and s.contexts == (Context("given"),)
    [t] = load([{"question": "q", "retrieved_docs": [{"id": "d1", "text": "x"}], "contexts": ["given"]}])
    assert t.contexts == (Context("given"),)


def test_retrieved_docs_object_without_id_is_an_error():
    err = load_error([{"question": "q", "retrieved_docs": [{"text": "x"}]}])
    assert err.field == "retrieved_docs[0]"
    assert_names(err, "a document object needs an 'id'")


def test_plural_relevant_ids_as_one_string_stays_an_error():
    # "d1,d2" could be two ids or one: only the singular relevant_doc takes a string
    assert_names(load_error([{"question": "q", "relevant_ids": "d1,d2"}]), "relevant ids given as one string")


# --- issue 13: a question is optional ------------------------------------------------------------


def test_nli_style_file_without_questions_loads(tmp_path):
    p = jsonl(
        tmp_path,
        '{"id": "w1", "question": "", "contexts": ["The sky is blue."], "answer": "The sky is blue."}',
        '{"id": "w2", "contexts": ["Grass is green."], "answer": "Grass is red."}',
        '{"id": "w3", "question": "   ", "answer": "ok"}',
    )
    assert [s.question for s in load(p)] == [None, None, None]


def test_a_file_with_no_known_field_at_all_is_refused(tmp_path):
    # question being optional must not turn a file with other column names into empty samples
    p = tmp_path / "d.csv"
    p.write_text("qid,query,docs\nq1,what?,d1\n", encoding="utf-8")
    err = load_error(p)
    assert_names(err, "no sample has any of the fields question", "fields seen: docs, qid, query", "--field-map")


# --- big inputs ----------------------------------------------------------------------------------


def test_load_pauses_the_gc_and_restores_it_even_on_error(tmp_path):
    import gc

    assert gc.isenabled()
    load(jsonl(tmp_path, GOOD))
    assert gc.isenabled()
    load_error(jsonl(tmp_path, '{"question": 1}', name="bad.jsonl"))
    assert gc.isenabled()
    gc.disable()
    try:
        load(jsonl(tmp_path, GOOD, name="again.jsonl"))
        assert not gc.isenabled()  # left as the caller had it
    finally:
        gc.enable()


def test_jsonl_is_read_line_by_line(tmp_path, monkeypatch):
    # no whole-file read: the reader pulls bounded chunks, never read() without a size
    import io

    from ragauge.data import jsonl as jsonl_module

    sizes: list[int] = []

    class Spy(io.BufferedReader):
        def read(self, size=-1):
            sizes.append(size)
            return super().read(size)

    monkeypatch.setattr(jsonl_module, "open_binary", lambda path: Spy(open(path, "rb", buffering=0)))
    p = jsonl(tmp_path, *[json.dumps({"id": f"q{i}", "question": "x" * 1000}) for i in range(3000)])
    assert len(load(p)) == 3000
    assert sizes and all(0 < n <= 2**20 for n in sizes)


def test_require_questions_names_the_samples_without_one():
    from ragauge.data import require_questions

    samples = load([{"id": f"q{i}", "answer": "a", "question": "q?" if i == 0 else ""} for i in range(8)])
    require_questions(samples[:1], purpose="ragauge rag run")  # all have one: nothing raised
    with pytest.raises(InputError) as info:
        require_questions(samples, purpose="ragauge rag run", source="qs.jsonl")
    assert info.value.field == "question"
    assert_names(info.value, "qs.jsonl", "7 of 8 samples have no question: 'q1', 'q2', 'q3', 'q4', 'q5' and 2 more",
                 "ragauge rag run asks each sample's question", "--field-map")


def test_json_cells_of_a_csv_are_read_as_strictly_as_jsonl(tmp_path):
    p = tmp_path / "d.csv"
    deep = "[" * 5000 + "]" * 5000
    p.write_text(
        "id,question,relevant_ids,metadata\n"
        'q1,a,"{""d1"": 2, ""d1"": 0}",\n'  # json.loads would keep {"d1": 0}
        f'q2,b,,"{{""x"": {deep}}}"\n'
        'q3,c,"[""d1""]","{""n"": ' + "7" * 5000 + '}"\n',
        encoding="utf-8",
    )
    err = load_error(p)
    assert [(e.line, e.field) for e in err.errors] == [(2, "relevant_ids"), (3, "metadata"), (4, "metadata")]
    assert_names(err, "duplicate key 'd1' in a JSON object (in the JSON text of the cell)", "nested too deeply",
                 "a number with 5000 digits")
    assert err.total == 3  # each once: not again as "relevant ids given as one string"


def test_duplicate_key_in_a_json_string_value_of_a_dataframe():
    pd = pytest.importorskip("pandas")
    err = load_error(pd.DataFrame({"question": ["q"], "contexts": ['[{"text": "a", "id": "d1", "id": "d2"}]']}))
    assert (err.file, err.field) == ("DataFrame, row 0", "contexts[0]")
