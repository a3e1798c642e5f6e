"""sample_from_record: field names, aliases, types, and the message of every rejected value."""

from __future__ import annotations

import pytest

from ragauge.data import Context, InputErrors, sample_from_record
from ragauge.errors import ConfigError, InputError


def make(record, **kw):
    kw.setdefault("file", "data.jsonl")
    kw.setdefault("line", 3)
    return sample_from_record(record, **kw)


def error_of(record, **kw) -> InputError:
    with pytest.raises(InputError) as info:
        make(record, **kw)
    return info.value


def assert_names(err: InputError, *parts: str) -> None:
    text = str(err)
    for part in parts:
        assert part in text, f"{part!r} not in {text!r}"


# --- canonical fields ---------------------------------------------------------------------------


def test_canonical_record():
    s = make(
        {
            "id": "q1",
            "question": "What is RAG?",
            "answer": "Retrieval-augmented generation.",
            "contexts": ["c1", {"id": "d2", "text": "c2", "score": 0.5, "metadata": {"page": 3}}],
            "retrieved_ids": ["d1", "d2"],
            "relevant_ids": {"d2": 2, "d9": 0},
            "reference": "RAG is...",
            "tags": ["defs"],
            "language": "en",
            "latency_ms": 120,
            "retrieval_ms": 20.5,
            "ttft_ms": 0,
            "metadata": {"run": 1},
        }
    )
    assert s.id == "q1" and s.question == "What is RAG?"
    assert s.contexts == (Context("c1"), Context("c2", id="d2", score=0.5, metadata={"page": 3}))
    assert s.retrieved_ids == ("d1", "d2")
    assert s.relevant_ids == {"d2": 2, "d9": 0}
    assert s.tags == ("defs",) and s.language == "en"
    assert (s.latency_ms, s.retrieval_ms, s.ttft_ms) == (120.0, 20.5, 0.0)
    assert s.metadata == {"run": 1}


def test_int_id_becomes_string():
    assert make({"id": 17, "question": "q"}).id == "17"


@pytest.mark.parametrize("bad", [True, 1.5, ["a"], ""])
def test_bad_id(bad):
    err = error_of({"id": bad, "question": "q"})
    assert err.field == "id" and err.line == 3
    assert_names(err, "data.jsonl", "line 3", "field 'id'")


def test_missing_id_is_generated_from_line_or_row():
    assert make({"question": "q"}, line=17).id == "line-17"
    assert make({"question": "q"}, file=None, line=None, row=4).id == "row-4"


def test_missing_id_without_position_is_an_error():
    err = error_of({"question": "q"}, file=None, line=None)
    assert_names(err, "missing id", "field 'id'", "Give each sample an 'id'")


@pytest.mark.parametrize("record", [
    {"id": "q1", "answer": "a"},  # missing
    {"id": "q1", "question": None, "answer": "a"},
    {"id": "q1", "question": "", "answer": "a"},
    {"id": "q1", "question": " \t\n", "answer": "a"},  # whitespace only is no question either
    {"id": "q1", "user_input": "", "answer": "a"},
])
def test_missing_or_empty_question_is_absent(record):
    # issue 13: NLI-style and summary data (faithfulness, toxicity) have no question
    assert make(record).question is None


def test_question_of_the_wrong_type_is_an_error():
    err = error_of({"id": "q1", "question": 7})
    assert (err.file, err.line, err.field) == ("data.jsonl", 3, "question")
    assert_names(err, "field 'question'", "question must be a string, not an integer", "(got 7)")


@pytest.mark.parametrize("field", ["answer", "reference", "language"])
def test_wrong_type_of_string_fields(field):
    err = error_of({"id": "q1", "question": "q", field: 42})
    assert err.field == field and err.value == 42
    assert_names(err, "data.jsonl", "line 3", f"field '{field}'", "expected a string or null", "(got 42)")


def test_null_optional_fields_are_absent():
    s = make({"id": "q1", "question": "q", "answer": None, "contexts": None, "latency_ms": None, "tags": None})
    assert s.answer is None and s.contexts == () and s.latency_ms is None and s.tags == ()


# --- Ragas names ----------------------------------------------------------------------------------


def test_ragas_v1_names():
    s = make({"question": "q", "answer": "a", "contexts": ["c"], "ground_truth": "ref"})
    assert (s.question, s.answer, s.context_texts, s.reference) == ("q", "a", ("c",), "ref")


def test_ragas_v1_ground_truths_first_is_reference():
    s = make({"question": "q", "ground_truths": ["ref"]})
    assert s.reference == "ref" and "ground_truths" not in s.metadata
    s = make({"question": "q", "ground_truths": ["one", "two"]})
    assert s.reference == "one" and s.metadata["ground_truths"] == ["one", "two"]
    assert make({"question": "q", "ground_truths": []}).reference is None


def test_ragas_v2_names():
    s = make(
        {
            "user_input": "q",
            "response": "a",
            "retrieved_contexts": ["c1", "c2"],
            "reference": "ref",
            "reference_contexts": ["rc"],
            "retrieved_context_ids": ["d1", "d2"],
            "reference_context_ids": ["d2"],
        }
    )
    assert (s.question, s.answer, s.reference) == ("q", "a", "ref")
    assert s.context_texts == ("c1", "c2")
    assert s.retrieved_ids == ("d1", "d2") and s.relevant_ids == {"d2": 1}
    assert s.metadata == {"reference_contexts": ["rc"]}


def test_alias_with_its_canonical_name_is_an_error():
    err = error_of({"question": "q", "user_input": "q2"})
    assert_names(err, "'question'", "'user_input'", "Keep only one")


def test_alias_with_null_canonical_is_fine():
    assert make({"question": None, "user_input": "q"}).question == "q"


def test_field_map_applied_first():
    fmap = {"query": "question", "docs": "retrieved_ids", "qrels": "relevant_ids"}
    s = make({"query": "q", "docs": ["d1"], "qrels": {"d1": 1}}, field_map=fmap)
    assert s.question == "q" and s.retrieved_ids == ("d1",) and s.relevant_ids == {"d1": 1}


def test_field_map_to_an_alias_and_conflict():
    assert make({"t": 2.0, "question": "q"}, field_map={"t": "latency_s"}).latency_ms == 2000.0
    err = error_of({"query": "q", "question": "q2"}, field_map={"query": "question"})
    assert_names(err, "'question'", "'query'", "Keep only one")


def test_field_map_unknown_target():
    with pytest.raises(ConfigError, match="did you mean 'question'"):
        make({"q": "x"}, field_map={"q": "questoin"})


def test_unknown_columns_go_to_metadata():
    s = make({"question": "q", "model": "gpt", "metadata": {"run": 2}})
    assert s.metadata == {"run": 2, "model": "gpt"}


def test_unknown_column_clashing_with_metadata_key():
    err = error_of({"question": "q", "model": "a", "metadata": {"model": "b"}})
    assert_names(err, "field 'model'", "also a key of metadata", "Rename")


def test_metadata_must_be_an_object():
    err = error_of({"question": "q", "metadata": [1]})
    assert_names(err, "field 'metadata'", "must be an object", "(got [1])")


# --- contexts -------------------------------------------------------------------------------------


def test_context_objects_accept_content_and_page_content():
    s = make(
        {
            "question": "q",
            "contexts": [
                {"content": "a", "id": 7},
                {"page_content": "b", "metadata": {"src": "x"}, "type": "Document"},
            ],
        }
    )
    assert s.contexts[0] == Context("a", id="7")
    assert s.contexts[1] == Context("b", metadata={"src": "x", "type": "Document"})


def test_contexts_json_string_is_decoded():
    assert make({"question": "q", "contexts": '["a", "b"]'}).context_texts == ("a", "b")
    # pandas' DataFrame.to_csv writes lists as Python reprs
    assert make({"question": "q", "contexts": "['a', \"b's\"]"}).context_texts == ("a", "b's")


def test_contexts_as_a_plain_string_is_an_error():
    err = error_of({"question": "q", "contexts": "one chunk"})
    assert_names(err, "data.jsonl", "line 3", "field 'contexts'", "not a single string", "Pass a list")


@pytest.mark.parametrize(
    "ctx, where",
    [
        ({"id": "d1"}, "contexts[0]"),
        ({"text": 3}, "contexts[0].text"),
        ({"text": "t", "score": float("nan")}, "contexts[0].score"),
        ({"text": "t", "score": True}, "contexts[0].score"),
        ({"text": "t", "metadata": "x"}, "contexts[0].metadata"),
        (5, "contexts[0]"),
    ],
)
def test_bad_context_items(ctx, where):
    err = error_of({"question": "q", "contexts": [ctx]})
    assert_names(err, f"field '{where}'")


def test_duplicate_context_ids_without_retrieved_ids():
    ctxs = [{"id": "d1", "text": "a"}, {"id": "d1", "text": "b"}]
    err = error_of({"question": "q", "contexts": ctxs})
    assert_names(err, "duplicate context id 'd1'", "Give retrieved_ids explicitly")
    assert make({"question": "q", "contexts": ctxs, "retrieved_ids": ["d1"]}).ranking == ("d1",)


# --- ids and grades -------------------------------------------------------------------------------


def test_retrieved_ids_ints_become_strings():
    assert make({"question": "q", "retrieved_ids": [3, "d4", 5]}).retrieved_ids == ("3", "d4", "5")


def test_duplicate_retrieved_id():
    err = error_of({"question": "q", "retrieved_ids": ["d1", "d2", "d1"]})
    assert_names(err, "line 3", "field 'retrieved_ids'", "duplicate id 'd1'", "positions 0 and 2", "each document once")


def test_relevant_ids_list_and_dict():
    assert make({"question": "q", "relevant_ids": ["a", 2]}).relevant_ids == {"a": 1, "2": 1}
    grades = {"a": 2, "b": 0.5, "c": -1}
    assert make({"question": "q", "relevant_ids": grades}).relevant_ids == grades
    assert make({"question": "q", "relevant_ids": []}).relevant_ids == {}


def test_relevant_ids_as_one_id_is_that_one_document():
    assert make({"question": "q", "relevant_ids": "d1"}).relevant_ids == {"d1": 1}
    assert make({"question": "q", "relevant_ids": 7}).relevant_ids == {"7": 1}


@pytest.mark.parametrize("value", ["d1,d2", "d1 d2", "d1|d2", ""])
def test_relevant_ids_as_one_string(value):
    err = error_of({"question": "q", "relevant_ids": value})
    assert (err.field, err.line) == ("relevant_ids", 3)
    assert_names(err, "data.jsonl", "line 3", "field 'relevant_ids'", "relevant ids given as one string", "Pass a list")


def test_relevant_ids_json_string_is_decoded():
    assert make({"question": "q", "relevant_ids": '["d1", "d2"]'}).relevant_ids == {"d1": 1, "d2": 1}
    assert make({"question": "q", "relevant_ids": '{"d1": 3}'}).relevant_ids == {"d1": 3}


@pytest.mark.parametrize("grade", [True, "2", float("inf"), [1]])
def test_bad_grades(grade):
    err = error_of({"question": "q", "relevant_ids": {"d1": grade}})
    assert_names(err, "field 'relevant_ids'", "grade of 'd1' must be a finite number", "trec_eval")


def test_duplicate_relevant_id():
    assert_names(error_of({"question": "q", "relevant_ids": ["a", "a"]}), "duplicate id 'a'")


# --- tags and timings -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["tags", "tag", "slice", "slices"])
def test_tag_aliases(name):
    assert make({"question": "q", name: "numbers"}).tags == ("numbers",)
    assert make({"question": "q", name: ["a", "b", "a"]}).tags == ("a", "b")


def test_tag_string_with_commas():
    assert_names(error_of({"question": "q", "tags": "a,b"}), "field 'tags'", "commas", "Pass several tags as a list")


def test_timings_numeric_strings_and_seconds():
    s = make({"question": "q", "latency_ms": " 12.5 ", "retrieval_s": 0.25, "ttft_s": "1"})
    assert (s.latency_ms, s.retrieval_ms, s.ttft_ms) == (12.5, 250.0, 1000.0)


@pytest.mark.parametrize("value", [float("nan"), -1, float("inf"), "nan", "fast", True, [1]])
def test_bad_timings(value):
    err = error_of({"question": "q", "latency_ms": value})
    assert err.field == "latency_ms"
    assert_names(err, "data.jsonl", "line 3", "field 'latency_ms'")


def test_timing_in_seconds_and_ms_together():
    assert_names(error_of({"question": "q", "latency_ms": 1, "latency_s": 1}), "Keep only one")


def test_all_problems_of_a_record_at_once():
    with pytest.raises(InputErrors) as info:
        make({"question": 5, "latency_ms": -1, "retrieved_ids": "d1"})
    err = info.value
    assert err.total == 3 and err.field == "question"
    assert str(err).startswith("3 errors in data.jsonl:")
    assert [e.field for e in err.errors] == ["question", "retrieved_ids", "latency_ms"]
