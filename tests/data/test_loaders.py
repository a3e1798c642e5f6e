"""load(): every front door (JSONL, JSON, CSV/TSV, Parquet, DataFrame, list, dataset) gives the same samples."""

from __future__ import annotations

import csv
import gzip
import json

import pytest

from ragauge.data import Context, Sample, load, sample_to_dict, write_jsonl
from ragauge.errors import InputError

np = pytest.importorskip("numpy")
pd = pytest.importorskip("pandas")

RAGAS_V1 = [
    {"question": "What is RAG?", "answer": "Retrieval + generation.", "contexts": ["RAG retrieves.", "Then generates."],
     "ground_truth": "Retrieval-augmented generation."},
    {"question": "Who wrote it?", "answer": "Lewis et al.", "contexts": ["Lewis et al. 2020"], "ground_truth": "Lewis"},
]
RAGAS_V2 = [
    {"user_input": r["question"], "response": r["answer"], "retrieved_contexts": r["contexts"],
     "reference": r["ground_truth"]}
    for r in RAGAS_V1
]


def expected(generated_ids):
    return [
        Sample(id=i, question=r["question"], answer=r["answer"], contexts=tuple(Context(c) for c in r["contexts"]),
               reference=r["ground_truth"])
        for i, r in zip(generated_ids, RAGAS_V1)
    ]


def write_jsonl_records(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def write_csv(path, records, delimiter=","):
    columns = list(records[0])
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, delimiter=delimiter)
        w.writerow(columns)
        for r in records:
            w.writerow([json.dumps(r[c]) if isinstance(r[c], (list, dict)) else r[c] for c in columns])
    return path


@pytest.mark.parametrize("records", [RAGAS_V1, RAGAS_V2], ids=["ragas-v1", "ragas-v2"])
def test_ragas_jsonl(tmp_path, records):
    samples = load(write_jsonl_records(tmp_path / "d.jsonl", records))
    assert samples == expected(["line-1", "line-2"])


@pytest.mark.parametrize("records", [RAGAS_V1, RAGAS_V2], ids=["ragas-v1", "ragas-v2"])
def test_ragas_csv(tmp_path, records):
    samples = load(write_csv(tmp_path / "d.csv", records))
    assert samples == expected(["line-2", "line-3"])  # line 1 is the header


@pytest.mark.parametrize("records", [RAGAS_V1, RAGAS_V2], ids=["ragas-v1", "ragas-v2"])
def test_ragas_dataframe_and_parquet(tmp_path, records):
    pytest.importorskip("pyarrow")
    df = pd.DataFrame(records)
    assert load(df) == expected(["row-0", "row-1"])
    df.to_parquet(tmp_path / "d.parquet")
    assert load(tmp_path / "d.parquet") == expected(["row-0", "row-1"])


def test_ragas_to_csv_from_pandas(tmp_path):
    # pandas writes list cells as Python reprs: "['a', 'b']"
    pd.DataFrame(RAGAS_V2).to_csv(tmp_path / "d.csv", index=False)
    assert load(tmp_path / "d.csv") == expected(["line-2", "line-3"])


def test_list_of_dicts_and_json_files(tmp_path):
    assert load(RAGAS_V1) == expected(["row-0", "row-1"])
    (tmp_path / "a.json").write_text(json.dumps(RAGAS_V1))
    (tmp_path / "b.json").write_text(json.dumps({"samples": RAGAS_V1}))
    assert load(tmp_path / "a.json") == load(tmp_path / "b.json") == expected(["row-0", "row-1"])


def test_json_file_that_is_jsonl(tmp_path):
    write_jsonl_records(tmp_path / "d.json", RAGAS_V1)
    assert load(tmp_path / "d.json") == expected(["line-1", "line-2"])


def test_ndjson_gz_tsv_and_format_override(tmp_path):
    body = "".join(json.dumps(r) + "\n" for r in RAGAS_V1).encode()
    (tmp_path / "d.ndjson").write_bytes(body)
    with gzip.open(tmp_path / "d.jsonl.gz", "wb") as fh:
        fh.write(body)
    (tmp_path / "d.txt").write_bytes(body)
    write_csv(tmp_path / "d.tsv", RAGAS_V1, delimiter="\t")
    want = expected(["line-1", "line-2"])
    assert load(tmp_path / "d.ndjson") == load(tmp_path / "d.jsonl.gz") == want
    assert load(tmp_path / "d.txt", format="jsonl") == want
    assert load(tmp_path / "d.tsv") == expected(["line-2", "line-3"])


def test_bom_blank_lines_and_crlf(tmp_path):
    p = tmp_path / "d.jsonl"
    p.write_bytes(b"\xef\xbb\xbf" + b'{"id": "a", "question": "q"}\r\n\r\n   \n{"id": "b", "question": "r"}')
    assert [s.id for s in load(p)] == ["a", "b"]
    c = tmp_path / "d.csv"
    c.write_bytes(b"\xef\xbb\xbfid,question\r\na,q\r\n")
    assert load(c) == [Sample(id="a", question="q")]


def test_csv_conventions(tmp_path):
    p = tmp_path / "d.csv"
    p.write_text(
        'id,question,answer,relevant_ids,retrieved_ids,latency_ms,tags,model\n'
        '1,"multi\nline",,"{""d1"": 2}","[""d1"", ""d2""]",12.5,"[""a"",""b""]",gpt\n'
        '2,q2,a2,"[""d3""]",,,solo,\n',
        encoding="utf-8",
    )
    s1, s2 = load(p)
    assert s1 == Sample(id="1", question="multi\nline", relevant_ids={"d1": 2}, retrieved_ids=("d1", "d2"),
                        latency_ms=12.5, tags=("a", "b"), metadata={"model": "gpt"})
    assert s2 == Sample(id="2", question="q2", answer="a2", relevant_ids={"d3": 1}, tags=("solo",))


def test_csv_line_numbers_follow_multiline_cells(tmp_path):
    p = tmp_path / "d.csv"
    p.write_text('question,latency_ms\n"a\nb\nc",1\nq,-5\n', encoding="utf-8")
    with pytest.raises(InputError) as info:
        load(p)
    assert info.value.line == 5 and info.value.field == "latency_ms"


def test_csv_cell_larger_than_stdlib_limit(tmp_path):
    p = tmp_path / "d.csv"
    big = "x" * 300_000
    p.write_text(f'question,answer\nq,"{big}"\n', encoding="utf-8")
    assert load(p)[0].answer == big
    assert csv.field_size_limit() == 131072  # process state restored


def test_field_map(tmp_path):
    records = [{"qid": "q1", "query": "q", "docs": [1, 2], "qrels": {"2": 1}}]
    fmap = {"qid": "id", "query": "question", "docs": "retrieved_ids", "qrels": "relevant_ids"}
    want = [Sample(id="q1", question="q", retrieved_ids=("1", "2"), relevant_ids={"2": 1})]
    assert load(records, field_map=fmap) == want
    assert load(write_jsonl_records(tmp_path / "d.jsonl", records), field_map=fmap) == want
    assert load(pd.DataFrame(records), field_map=fmap) == want


def test_field_map_naming_no_field(tmp_path):
    with pytest.raises(InputError, match="field_map renames 'querry'.*did you mean 'query'"):
        load([{"query": "q"}], field_map={"querry": "question", "query": "question"})


def test_round_trip(tmp_path):
    samples = [
        Sample(id="q1", question="Q?", answer="A",
               contexts=(Context("t", id="d1", score=0.3, metadata={"p": 1}), Context("u")),
               retrieved_ids=("d1", "d2"), relevant_ids={"d1": 2, "d3": 0.5}, reference="R", tags=("x", "y"),
               language="fr", latency_ms=1.5, retrieval_ms=0.0, ttft_ms=3.0, metadata={"k": [1, "two"]}),
        Sample(id="q2", question="Ünïcode ✓", retrieved_ids=(), relevant_ids={}),
    ]
    path = tmp_path / "out.jsonl"
    write_jsonl(samples, path)
    assert load(path) == samples
    want = {"id": "q2", "question": "Ünïcode ✓", "retrieved_ids": [], "relevant_ids": {}}
    assert sample_to_dict(samples[1]) == want
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left


def test_write_jsonl_rejects_non_json_metadata(tmp_path):
    with pytest.raises(InputError, match="'q1' cannot be written as JSON"):
        write_jsonl([Sample(id="q1", question="q", metadata={"x": float("nan")})], tmp_path / "o.jsonl")


def test_pandas_nan_cells_never_leak():
    df = pd.DataFrame(
        {
            "id": [1, 2],
            "question": ["a", "b"],
            "answer": ["x", np.nan],
            "latency_ms": [np.nan, 3.0],
            "reference": [None, pd.NA],
            "extra": [np.nan, "v"],
            "when": [pd.NaT, pd.Timestamp("2024-01-01")],
        }
    )
    s1, s2 = load(df)
    assert (s1.id, s1.answer, s1.latency_ms, s1.reference, s1.metadata) == ("1", "x", None, None, {})
    assert (s2.answer, s2.latency_ms, s2.reference, s2.metadata["extra"]) == (None, 3.0, None, "v")
    assert isinstance(s2.latency_ms, float)


def test_numpy_ints_as_ids_and_ids_lists():
    df = pd.DataFrame({"id": np.array([10, 11], dtype="int64"), "question": ["a", "b"],
                       "retrieved_ids": [np.array([1, 2]), np.array([3])]})
    samples = load(df)
    assert [s.id for s in samples] == ["10", "11"]
    assert samples[0].retrieved_ids == ("1", "2") and type(samples[0].retrieved_ids[0]) is str


def test_parquet_relevance_dicts_and_context_structs(tmp_path):
    pytest.importorskip("pyarrow")
    df = pd.DataFrame({
        "question": ["a", "b"],
        "relevant_ids": [{"d1": 2}, {"d2": 1}],  # a struct column: absent keys read back as null
        "contexts": [[{"id": "d1", "text": "t1", "score": 0.5}], [{"id": "d2", "text": "t2", "score": None}]],
    })
    df.to_parquet(tmp_path / "d.parquet")
    s1, s2 = load(tmp_path / "d.parquet")
    assert s1.relevant_ids == {"d1": 2} and s2.relevant_ids == {"d2": 1}
    assert s1.contexts == (Context("t1", id="d1", score=0.5),) and s2.contexts == (Context("t2", id="d2"),)


class FakeDataset:
    """Duck type of datasets.Dataset: column_names, iteration over dicts, to_pandas."""

    def __init__(self, rows):
        self.rows = rows
        self.column_names = list(rows[0])

    def __iter__(self):
        return iter(self.rows)

    def __len__(self):
        return len(self.rows)


class PandasOnly:
    def __init__(self, rows):
        self.rows = rows

    def to_pandas(self):
        return pd.DataFrame(self.rows)


def test_hf_dataset_duck_types():
    assert load(FakeDataset(RAGAS_V2)) == expected(["row-0", "row-1"])
    assert load(PandasOnly(RAGAS_V2)) == expected(["row-0", "row-1"])


def test_hf_dataset_dict_needs_a_split():
    class FakeDict(dict):
        column_names = {"train": ["question"], "test": ["question"]}

    with pytest.raises(InputError, match=r"Pick one split, e.g. load\(ds\['test'\]\)"):
        load(FakeDict(train=1, test=2))


def test_generator_of_records():
    assert [s.id for s in load(r for r in RAGAS_V1)] == ["row-0", "row-1"]
