"""The vectorised join (``_fastjoin``: no re-ordering of the run, one sort of 64-bit keys), the numpy
field splitter (``_split``: small files and no pyarrow) and the byte-string helpers they share
(``_tokens``), each against the general paths on awkward inputs."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from ragauge.errors import InputError
from ragauge.trec import compute, evaluate_files, join, parse_measures, read_qrels, read_run
from ragauge.trec import io as trec_io
from ragauge.trec._fastjoin import fast_join
from ragauge.trec._tokens import Tokens

MEASURES = parse_measures(["all_trec", "P.1,3,7", "ndcg_cut.2,9", "success.1,4"])
NAMES = [f"d{i}" for i in range(30)] + [f"LONG-DOCNO-{i:05d}-{'x' * (i % 13)}" for i in range(30)]
NAMES += [f"док-{i}" for i in range(10)] + ["a", "ab", "abcdefgh", "abcdefghi", "abcdefgh" * 3, "z" * 17]


def _files(tmp_path, seed: int, *, ties: bool = True):
    """Each query in one block (blocks in random order), scores tied, unsorted or strictly sorted."""
    rng = np.random.default_rng(seed)
    blocks, qrels_lines = [], []
    for q in range(30):
        docs = rng.choice(NAMES, size=int(rng.integers(1, 40)), replace=False)
        scores = rng.integers(0, 4, docs.size) / 2 if ties else rng.permutation(docs.size) / 7
        if rng.random() < 0.6:
            scores = np.sort(scores)[::-1]
        blocks.append([f"q{q} Q0 {d} {i + 1} {float(s)!r} run{q}" for i, (d, s) in enumerate(zip(docs, scores))])
        judged = rng.choice(NAMES, size=int(rng.integers(0, 25)), replace=False)
        qrels_lines += [f"q{q} 0 {d} {g}" for d, g in zip(judged, rng.choice([-1, 0, 1, 2, 3], judged.size))]
    qrels_lines.append("only_in_qrels 0 d1 1")
    blocks.append(["only_in_run Q0 d1 1 1.0 last"])
    order = rng.permutation(len(blocks) - 1).tolist() + [len(blocks) - 1]
    rng.shuffle(qrels_lines)
    (tmp_path / "run").write_text("\n".join(line for i in order for line in blocks[i]) + "\n")
    (tmp_path / "qrels").write_text("\n".join(qrels_lines) + "\n")
    return tmp_path / "qrels", tmp_path / "run"


def _assert_same(a, b):
    assert a.query_ids == b.query_ids and a.run_id == b.run_id
    for name in a.values:
        np.testing.assert_allclose(a.values[name], b.values[name], rtol=0, atol=1e-12, err_msg=name)


def _read(q, r, reader, monkeypatch):
    with monkeypatch.context() as m:
        if reader == "arrow":
            pytest.importorskip("pyarrow")
            m.setattr(trec_io, "_SMALL_FILE", 0)
        elif reader == "no-pyarrow":
            m.setitem(sys.modules, "pyarrow", None)
        return read_qrels(q), read_run(r)


@pytest.mark.parametrize("reader", ["arrow", "split", "no-pyarrow"])
@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("ties", [True, False])
@pytest.mark.parametrize("flags", [{}, {"rel_level": 0}, {"rel_level": 2}, {"complete": True, "max_docs": 5}])
def test_fast_join_is_taken_and_equals_the_exact_join(tmp_path, monkeypatch, reader, seed, ties, flags):
    q, r = _files(tmp_path, seed, ties=ties)
    qrels, run = _read(q, r, reader, monkeypatch)
    assert fast_join(qrels, run, rel_level=flags.get("rel_level", 1), complete=flags.get("complete", False),
                     max_docs=flags.get("max_docs")) is not None
    fast = compute(join(qrels, run, **flags), MEASURES)
    _assert_same(fast, compute(join(qrels, run, exact=True, **flags), MEASURES))
    assert fast.run_id == "last" and "only_in_run" not in fast.query_ids


def test_fast_join_declines_split_queries_and_duplicates(tmp_path):
    (tmp_path / "qrels").write_text("q1 0 a 1\nq2 0 b 1\n")
    (tmp_path / "run").write_text("q1 Q0 a 1 1.0 r\nq2 Q0 b 1 1.0 r\nq1 Q0 c 1 0.5 r\n")
    qrels, run = read_qrels(tmp_path / "qrels"), read_run(tmp_path / "run")
    assert fast_join(qrels, run, rel_level=1, complete=False, max_docs=None) is None
    assert evaluate_files(tmp_path / "qrels", tmp_path / "run", measures=["num_ret"]).values["num_ret"].tolist() == [2, 1]
    (tmp_path / "run").write_text("q1 Q0 a 1 1.0 r\nq1 Q0 c 1 0.5 r\nq1 Q0 a 1 0.2 r\n")
    run = read_run(tmp_path / "run")
    assert fast_join(qrels, run, rel_level=1, complete=False, max_docs=None) is None
    with pytest.raises(InputError, match="'a' is listed twice for query 'q1'") as info:
        join(qrels, run)
    assert info.value.line == 3


@pytest.mark.parametrize("reader", ["arrow", "split"])
def test_colliding_fingerprints_in_the_fast_join_fall_back(tmp_path, monkeypatch, reader):
    q, r = _files(tmp_path, 4)
    expected = compute(join(read_qrels(q), read_run(r), exact=True), MEASURES)
    qrels, run = _read(q, r, reader, monkeypatch)
    monkeypatch.setattr(Tokens, "fingerprint", lambda self, index=None: np.zeros(
        len(self) if index is None else len(index), dtype=np.uint64))
    assert fast_join(qrels, run, rel_level=1, complete=False, max_docs=None) is None
    _assert_same(compute(join(qrels, run), MEASURES), expected)


def test_judged_and_retrieved_docnos_sharing_a_fingerprint_are_not_matched(tmp_path, monkeypatch):
    (tmp_path / "qrels").write_text("q1 0 x 1\n")
    (tmp_path / "run").write_text("q1 Q0 y 1 2.0 r\nq1 Q0 z 2 1.0 r\n")
    qrels, run = read_qrels(tmp_path / "qrels"), read_run(tmp_path / "run")
    real = Tokens.fingerprint

    def collide(self, index=None, **bounds):  # x (qrels) gets y's fingerprint: a false match that bytes refuse
        prints = real(self, index, **bounds)
        if len(self) == 1:
            prints[:] = real(run.docno, np.array([0]))
        return prints

    monkeypatch.setattr(Tokens, "fingerprint", collide)
    assert fast_join(qrels, run, rel_level=1, complete=False, max_docs=None) is None
    assert compute(join(qrels, run), parse_measures(["num_rel_ret"])).values["num_rel_ret"].tolist() == [0]


@pytest.mark.parametrize(
    "text",
    [
        "q1 Q0 b 1 0.5 r\nq1 Q0 a 2 0.5 r\nq2 Q0 c 1 1e-3 r\nq2 Q0 d 2 -0.0 last",  # no final newline
        "q1\tQ0\tb\t1\t0.5\tr\r\nq1 Q0  a 2 0.5 r\r\n\r\nq2 Q0 c 1 1e-3 r\r\n  q2 Q0 d 2 -0.0 last\r\n",  # tabs, CRLF
        "# a comment\nq1 Q0 b 1 0.5 r\n\nq1 Q0 a 2 0.5 r\n#q9 Q0 x 1 1 r\nq2 Q0 c 1 0.001 r\nq2 Q0 d 2 -0.0 last\n",
    ],
)
@pytest.mark.parametrize("reader", ["arrow", "split", "no-pyarrow"])
def test_whitespace_line_ends_and_comments_read_alike(tmp_path, monkeypatch, text, reader):
    (tmp_path / "qrels").write_text("q1 0 a 1\nq1 0 b 2\nq2 0 d 1\r\n")
    (tmp_path / "run").write_bytes(text.encode())
    qrels, run = _read(tmp_path / "qrels", tmp_path / "run", reader, monkeypatch)
    assert run.value.tolist() == [0.5, 0.5, 0.001, -0.0] and run.run_id == "last"
    result = compute(join(qrels, run), parse_measures(["recip_rank", "num_ret", "ndcg"]))
    assert result.query_ids == ["q1", "q2"]
    assert result.values["recip_rank"].tolist() == [1.0, 0.5]  # tie 0.5: b before a (docno descending)
    assert result.values["num_ret"].tolist() == [2, 2]


def test_split_reader_hands_irregular_files_to_the_line_reader(tmp_path):
    (tmp_path / "run").write_text("q1 Q0 a 1 0.5 r extra\nq1 Q0 b 2 1_0 r\n")  # float('1_0') == 10
    run = read_run(tmp_path / "run")
    assert isinstance(run.docno, list) and run.value.tolist() == [0.5, 10.0]
    (tmp_path / "run").write_text("q1 Q0 a 1 0.5 r\nq1 Q0 b 2 0.4\n")
    with pytest.raises(InputError, match="expected 6 whitespace-separated fields") as info:
        read_run(tmp_path / "run")
    assert (info.value.file, info.value.line) == (str(tmp_path / "run"), 2)
    (tmp_path / "qrels").write_text("q1 0 a 1\nq1 0 b 1.5\n")
    with pytest.raises(InputError, match="relevance grade") as info:
        read_qrels(tmp_path / "qrels")
    assert info.value.line == 2 and info.value.value == "1.5"


def test_tokens_agree_across_representations():
    pa = pytest.importorskip("pyarrow")
    words = [b"", b"a", b"ab", b"abcdefgh", b"abcdefghi", b"abcdefgh" * 3, b"a\x00", b"\xd0\xb4", b"zz", b"a"]
    listed = Tokens.from_column(words)
    arrow = Tokens.from_column(pa.array(words, pa.binary()).slice(0))
    text = b"  ".join(words) + b"x"  # in place, with gaps; the last word ends 1 byte before the end
    starts = np.cumsum([0] + [len(w) + 2 for w in words[:-1]])
    inplace = Tokens(np.frombuffer(text, np.uint8), starts, starts + np.array([len(w) for w in words]))
    for tokens in (listed, arrow, inplace):
        assert tokens.tolist() == words
        np.testing.assert_array_equal(tokens.fingerprint(), listed.fingerprint())
        assert tokens.same_as_previous().tolist() == [a == b for a, b in zip(words[1:], words[:-1])]
        index = np.arange(len(words))
        assert tokens.equal_pairs(index, listed, index)
        assert not tokens.equal_pairs(index[:1], listed, index[1:2])
        rank = tokens.byte_order_rank(index)
        assert [words[i] for i in np.argsort(rank, kind="stable")] == sorted(words)
    assert len(set(listed.fingerprint()[:-1].tolist())) == len(words) - 1  # distinct words, distinct prints


def test_split_reader_grades_equal_pythons_int(tmp_path):
    grades = ["0", "1", "-1", "007", "-0", "123456789012345678", "+2", "1_0", "99999999999999999999"]
    (tmp_path / "qrels").write_text("".join(f"q1 0 d{i} {g}\n" for i, g in enumerate(grades[:6])))
    qrels = read_qrels(tmp_path / "qrels")
    assert isinstance(qrels.docno, Tokens) and qrels.value.tolist() == [int(g) for g in grades[:6]]
    for odd in grades[6:8]:  # not plain digits: Python's int reads them, as the line reader does
        (tmp_path / "qrels").write_text(f"q1 0 a 1\nq1 0 b {odd}\n")
        assert read_qrels(tmp_path / "qrels").value.tolist() == [1, int(odd)]
