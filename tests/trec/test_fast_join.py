"""The columnar TREC path (pyarrow reader, fingerprint join) against the exact path (dictionary codes,
``join(..., exact=True)``) and the pure-Python reader: same values on awkward files (ties, long and
non-ASCII docnos, queries split over several blocks, unsorted qrels, -M, -c, -l), the same errors,
and a correct fallback when fingerprints collide."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from ragauge.errors import InputError
from ragauge.trec import _keys, compute, evaluate_files, join, parse_measures, read_qrels, read_run
from ragauge.trec import io as trec_io
from ragauge.trec._tokens import Tokens

pytest.importorskip("pyarrow")
MEASURES = parse_measures(["all_trec", "P.1,3,7", "ndcg_cut.2,9", "success.1,4"])


def _files(tmp_path, seed: int):
    rng = np.random.default_rng(seed)
    names = [f"d{i}" for i in range(30)] + [f"LONG-DOCNO-{i:05d}-{'x' * (i % 13)}" for i in range(30)]
    names += [f"док-{i}" for i in range(10)] + ["a", "ab", "abcdefgh", "abcdefghi", "abcdefgh" * 3]
    run_lines, qrels_lines = [], []
    for q in range(25):
        docs = rng.choice(names, size=int(rng.integers(1, 40)), replace=False)
        scores = rng.integers(0, 4, docs.size) / 2  # many ties
        if rng.random() < 0.5:
            scores = np.sort(scores)[::-1]
        block = [f"q{q} Q0 {d} {i + 1} {s} run{q}" for i, (d, s) in enumerate(zip(docs, scores))]
        if q % 5 == 0 and len(block) > 2:  # query split over two blocks of the file
            run_lines.append(block[: len(block) // 2])
            run_lines.insert(0, block[len(block) // 2 :])
        else:
            run_lines.append(block)
        judged = rng.choice(names, size=int(rng.integers(0, 25)), replace=False)
        qrels_lines += [f"q{q} 0 {d} {g}" for d, g in zip(judged, rng.choice([-1, 0, 1, 2, 3], judged.size))]
    qrels_lines.append("only_in_qrels 0 d1 1")
    run_lines.append(["only_in_run Q0 d1 1 1.0 last"])
    rng.shuffle(qrels_lines)  # qrels not grouped by query
    (tmp_path / "run").write_text("\n".join(line for block in run_lines for line in block) + "\n")
    (tmp_path / "qrels").write_text("\n".join(qrels_lines) + "\n")
    return tmp_path / "qrels", tmp_path / "run"


def _assert_same(a, b):
    assert a.query_ids == b.query_ids and a.run_id == b.run_id
    for name in a.values:
        np.testing.assert_allclose(a.values[name], b.values[name], rtol=0, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("flags", [{}, {"rel_level": 0}, {"rel_level": 2}, {"complete": True, "max_docs": 5}])
def test_fingerprint_join_equals_exact_and_python_reader(tmp_path, monkeypatch, seed, flags):
    q, r = _files(tmp_path, seed)
    with monkeypatch.context() as m:
        m.setattr(trec_io, "_SMALL_FILE", 0)
        qrels, run = read_qrels(q), read_run(r)
    assert not isinstance(run.docno, (list, Tokens))  # the pyarrow reader was used
    fast = compute(join(qrels, run, **flags), MEASURES)
    exact = compute(join(qrels, run, exact=True, **flags), MEASURES)
    _assert_same(fast, exact)
    small = read_run(r)
    assert isinstance(small.docno, Tokens)  # the numpy splitter (small file)
    _assert_same(fast, compute(join(read_qrels(q), small, **flags), MEASURES))
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    python = compute(join(read_qrels(q), read_run(r), **flags), MEASURES)
    _assert_same(fast, python)
    assert fast.run_id == "last"


def test_colliding_fingerprints_fall_back_to_exact(tmp_path, monkeypatch):
    q, r = _files(tmp_path, 3)
    expected = evaluate_files(q, r, measures=["all_trec"])
    # every docno gets the same fingerprint: every key collides
    monkeypatch.setattr(_keys, "_fingerprint", lambda column: np.zeros(len(column), dtype=np.uint64))
    _assert_same(evaluate_files(q, r, measures=["all_trec"]), expected)


def test_collision_between_run_and_qrels_only(tmp_path, monkeypatch):
    (tmp_path / "qrels").write_text("q1 0 x 1\n")
    (tmp_path / "run").write_text("q1 Q0 y 1 2.0 r\nq1 Q0 x 2 1.0 r\n")
    # x and y collide: the match of y with x's judgement must be refused byte for byte
    monkeypatch.setattr(_keys, "_fingerprint", lambda column: np.zeros(len(column), dtype=np.uint64))
    assert evaluate_files(tmp_path / "qrels", tmp_path / "run", measures=["recip_rank"]).values[
        "recip_rank"].tolist() == [0.5]


def test_duplicates_found_with_fingerprints(tmp_path):
    (tmp_path / "qrels").write_text("q1 0 a 1\nq2 0 b 1\n")
    (tmp_path / "run").write_text("q1 Q0 a 1 1.0 r\nq2 Q0 b 1 1.0 r\nq2 Q0 zz 1 1.0 r\nq2 Q0 b 1 0.5 r\n")
    with pytest.raises(InputError, match="'b' is listed twice for query 'q2'") as info:
        evaluate_files(tmp_path / "qrels", tmp_path / "run")
    assert info.value.line == 4
    # the same docno in two queries is not a duplicate
    (tmp_path / "run").write_text("q1 Q0 a 1 1.0 r\nq2 Q0 a 1 1.0 r\n")
    assert evaluate_files(tmp_path / "qrels", tmp_path / "run", measures=["num_ret"]).values["num_ret"].tolist() == [1, 1]


@pytest.mark.parametrize(
    ("run", "line"),
    [
        ("q1 Q0 a 1 0.5 r\nq1  b 2 0.4 r\n", 2),  # iter missing: two spaces make an empty 2nd field
        ("q1 Q0 a 1 0.5 r\nq1 Q0 b  0.4 r\n", 2),  # rank missing
        ("q1 Q0 a 1 0.5 r\n q1 Q0 b 0.4 r\n", 2),  # leading space, 5 fields
        ("q1 Q0 a 1 0.5 r\nq1 Q0 b 0.4 r \n", 2),  # trailing space, 5 fields
    ],
)
@pytest.mark.parametrize("reader", ["split", "arrow"])
def test_empty_fields_in_unread_columns_are_caught(tmp_path, monkeypatch, run, line, reader):
    if reader == "arrow":  # pyarrow's reader, its format scans beside the parse
        monkeypatch.setattr(trec_io, "_SMALL_FILE", 0)
    (tmp_path / "qrels").write_text("q1 0 a 1\n")
    (tmp_path / "run").write_text(run)
    with pytest.raises(InputError, match="expected 6 whitespace-separated fields") as info:
        evaluate_files(tmp_path / "qrels", tmp_path / "run")
    assert info.value.line == line


def test_spaces_only_files_with_extra_fields_and_runs_of_spaces(tmp_path):
    (tmp_path / "qrels").write_text("q1 0 a 1\nq1  0 b   2\n")
    (tmp_path / "run").write_text("q1 Q0 a 1 0.5 r extra\nq1 Q0  b 2 0.4 tag\n")
    result = evaluate_files(tmp_path / "qrels", tmp_path / "run", measures=["num_rel", "map"])
    assert result.values["num_rel"].tolist() == [2] and result.values["map"].tolist() == [1.0]
    assert result.run_id == "tag"


@pytest.fixture
def two_threads(monkeypatch):
    """The join's two-thread path (two halves of the run) on small files."""
    from ragauge.trec import _fastjoin

    monkeypatch.setattr(_fastjoin, "_PARALLEL_LINES", 0)
    monkeypatch.setattr(_fastjoin, "_cores", lambda: 2)
    return _fastjoin


@pytest.mark.parametrize("seed", [0, 1, 2, 4])
@pytest.mark.parametrize("flags", [{}, {"rel_level": 0}, {"complete": True, "max_docs": 5}])
def test_two_thread_join_equals_exact(tmp_path, monkeypatch, two_threads, seed, flags):
    q, r = _files(tmp_path, seed)
    text = r.read_text().splitlines()
    split = {f"q{i}" for i in range(0, 25, 5)}  # the queries _files splits over two blocks
    (tmp_path / "run_grouped").write_text("\n".join(line for line in text if line.split()[0] not in split) + "\n")
    for run_path in (r, tmp_path / "run_grouped"):  # split queries (general path) and usual blocks
        with monkeypatch.context() as m:
            m.setattr(trec_io, "_SMALL_FILE", 0)
            qrels, run = read_qrels(q), read_run(run_path)
        exact = compute(join(qrels, run, exact=True, **flags), MEASURES)
        fast = join(qrels, run, **flags)
        assert ("_relevant" in fast.batch.__dict__) == (run_path != r)  # split queries: the general path
        _assert_same(compute(fast, MEASURES), exact)
        _assert_same(compute(join(read_qrels(q), read_run(run_path), **flags), MEASURES), exact)  # numpy splitter


def test_two_thread_join_matches_in_both_halves_and_finds_duplicates(tmp_path, two_threads):
    lines = [f"q{q} Q0 d{d} {d + 1} {10 - d} r" for q in range(6) for d in range(4)]
    (tmp_path / "run").write_text("\n".join(lines) + "\n")
    (tmp_path / "qrels").write_text("".join(f"q{q} 0 d{q % 4} 1\n" for q in range(6)))
    qrels, run = read_qrels(tmp_path / "qrels"), read_run(tmp_path / "run")
    found = two_threads.fast_join(qrels, run, rel_level=1, complete=False, max_docs=None)
    assert found is not None and found[0] == [f"q{q}" for q in range(6)]
    rr = compute(join(qrels, run), parse_measures(["recip_rank"])).values["recip_rank"]
    assert rr.tolist() == [1 / (q % 4 + 1) for q in range(6)]  # matches in the first and the second half
    lines[-1] = "q5 Q0 d0 4 1 r"  # a duplicate in the second half: refused with its line
    (tmp_path / "run").write_text("\n".join(lines) + "\n")
    assert two_threads.fast_join(qrels, read_run(tmp_path / "run"), rel_level=1, complete=False, max_docs=None) is None
    with pytest.raises(InputError, match="'d0' is listed twice for query 'q5'") as info:
        evaluate_files(tmp_path / "qrels", tmp_path / "run")
    assert info.value.line == 24
    (tmp_path / "qrels").write_text("q1 0 d1 1\nq5 0 d2 1\nq5 0 d2 0\n")  # a duplicate judgement
    with pytest.raises(InputError, match="'d2' is listed twice for query 'q5'"):
        evaluate_files(tmp_path / "qrels", tmp_path / "run")


@pytest.mark.parametrize("measures", [["ndcg_cut.2,9", "map", "recip_rank", "Rprec", "P.3"], ["success.1", "recall.5"]])
@pytest.mark.parametrize("flags", [{}, {"rel_level": 0}, {"max_docs": 4}])
def test_gains_kept_only_to_the_deepest_ndcg_cutoff(tmp_path, monkeypatch, measures, flags):
    q, r = _files(tmp_path, 5)
    text = r.read_text().splitlines()
    split = {f"q{i}" for i in range(0, 25, 5)}  # the queries _files splits over two blocks
    r.write_text("\n".join(line for line in text if line.split()[0] not in split) + "\n")  # usual blocks only
    monkeypatch.setattr(trec_io, "_SMALL_FILE", 0)
    got = evaluate_files(q, r, measures=measures, **flags)
    exact = compute(join(read_qrels(q), read_run(r), exact=True, **flags), parse_measures(measures))
    _assert_same(got, exact)
    shallow = join(read_qrels(q), read_run(r), gain_depth=9 if "map" in measures else 0, **flags)
    assert "_relevant" in shallow.batch.__dict__  # the fast path was taken
    assert shallow.batch.gains.shape[1] == (min(9, shallow.batch.retrieved.max()) if "map" in measures else 0)


def test_a_docno_has_one_fingerprint_whatever_is_hashed_beside_it():
    words = [b"d1", b"a-long-docno", b"x" * 16, b"", b"abcdefgh", b"abcdefghi", "док-5".encode()]
    together = Tokens.from_column(words).fingerprint()
    assert together.tolist() == [int(Tokens.from_column([w]).fingerprint()[0]) for w in words]
    assert len(set(together.tolist())) == len(words)


@pytest.mark.parametrize("threads", [1, 2])
def test_short_docnos_beside_long_ones_still_match(tmp_path, monkeypatch, threads):
    # a short docno hashed in one slice with a long one used to get another fingerprint than the same
    # docno hashed alone: the judged document went unmatched and scored 0
    if threads == 2:
        from ragauge.trec import _fastjoin

        monkeypatch.setattr(_fastjoin, "_PARALLEL_LINES", 0)
        monkeypatch.setattr(_fastjoin, "_cores", lambda: 2)
    (tmp_path / "run").write_text("q1 Q0 a-long-docno-1 1 2.0 r\nq1 Q0 a-long-docno-2 2 1.0 r\n"
                                  "q2 Q0 d1 1 2.0 r\nq2 Q0 d2 2 1.0 r\n")
    (tmp_path / "qrels").write_text("q1 0 a-long-docno-2 1\nq2 0 d2 1\nq2 0 judged-long-01 0\n")
    for small in (True, False):
        monkeypatch.setattr(trec_io, "_SMALL_FILE", 8 << 20 if small else 0)
        got = evaluate_files(tmp_path / "qrels", tmp_path / "run", measures=["map", "num_rel_ret"])
        assert got.values["map"].tolist() == [0.5, 0.5] and got.values["num_rel_ret"].tolist() == [1, 1]


def test_ndcg_refuses_to_read_past_the_gains_a_batch_kept(tmp_path, monkeypatch):
    q, r = _files(tmp_path, 6)
    split = {f"q{i}" for i in range(0, 25, 5)}
    r.write_text("\n".join(line for line in r.read_text().splitlines() if line.split()[0] not in split) + "\n")
    shallow = join(read_qrels(q), read_run(r), gain_depth=3)
    assert shallow.batch.gains.shape[1] == 3
    compute(shallow, parse_measures(["ndcg_cut.2,3", "map"]))  # within the kept gains: fine
    for measure in ("ndcg", "ndcg_cut.5"):
        with pytest.raises(InputError, match="keeps the gains of the top 3 ranks only"):
            compute(shallow, parse_measures([measure]))


def test_the_general_join_matches_docnos_when_qrels_and_run_differ_in_their_longest_docno(tmp_path, monkeypatch):
    # a query split over two blocks takes the general join; its fingerprints used to take as many rounds as
    # the longest docno of the whole column, so no docno of the run (all <= 8 bytes) matched the qrels
    # (one 15-byte docno): every judged document scored as unjudged
    monkeypatch.setattr(trec_io, "_SMALL_FILE", 0)
    (tmp_path / "run").write_text("q1 Q0 d1 1 2.0 r\nq2 Q0 d5 1 1.0 r\nq1 Q0 d2 2 1.0 r\n")
    (tmp_path / "qrels").write_text("q1 0 d1 1\nq2 0 a-long-docno-x 1\nq2 0 d5 1\n")
    qrels, run = read_qrels(tmp_path / "qrels"), read_run(tmp_path / "run")
    assert fast_join_declines(qrels, run)
    got = compute(join(qrels, run), parse_measures(["map", "num_rel_ret"]))
    assert got.values["num_rel_ret"].tolist() == [1, 1] and got.values["map"].tolist() == [1.0, 0.5]


def fast_join_declines(qrels, run) -> bool:
    from ragauge.trec._fastjoin import fast_join

    return fast_join(qrels, run, rel_level=1, complete=False, max_docs=None) is None


@pytest.mark.parametrize("seed", range(6))
def test_docnos_of_every_length_match_on_every_path(tmp_path, monkeypatch, seed):
    # random docnos of 1-30 bytes whose longest ones differ between the qrels and the run (the hash once
    # took its rounds from the longest docno of a slice or column), some queries split over blocks (general
    # join) or not (fast join, one and two threads): all equal to the exact join
    rng = np.random.default_rng(100 + seed)
    alphabet = np.array(list("abcxyz0123456789-_"))

    def names(low, high, n):
        return sorted({"".join(rng.choice(alphabet, int(rng.integers(low, high + 1)))) for _ in range(n)})

    short, long = names(1, 8, 60), names(9, 30, 60)
    run_pool = short + (long[:20] if seed % 3 == 0 else [])  # the run's docnos mostly short
    extra_pool = long if seed % 2 == 0 else short  # unretrieved judgements: long or short ones
    run_blocks, qrels_lines = [], []
    for q in range(12):
        docs = rng.choice(run_pool, size=int(rng.integers(1, 25)), replace=False)
        block = [f"q{q} Q0 {d} {i + 1} {30 - i} r" for i, d in enumerate(docs)]
        if seed % 2 and q % 4 == 0 and len(block) > 1:  # split over two blocks: the general join
            run_blocks += [block[1:], block[:1]]
        else:
            run_blocks.append(block)
        judged = list(rng.choice(docs, size=min(3, len(docs)), replace=False))
        judged += [d for d in rng.choice(extra_pool, size=3, replace=False) if d not in judged]
        qrels_lines += [f"q{q} 0 {d} {int(rng.integers(1, 3))}" for d in judged]
    (tmp_path / "run").write_text("\n".join(line for b in run_blocks for line in b) + "\n")
    (tmp_path / "qrels").write_text("\n".join(qrels_lines) + "\n")
    measures = parse_measures(["map", "num_rel_ret", "ndcg_cut.5", "recip_rank"])
    from ragauge.trec import _fastjoin

    for big, threads in ((False, 1), (True, 1), (True, 2)):
        monkeypatch.setattr(trec_io, "_SMALL_FILE", 8 << 20 if not big else 0)
        monkeypatch.setattr(_fastjoin, "_PARALLEL_LINES", 0 if threads == 2 else 1 << 40)
        monkeypatch.setattr(_fastjoin, "_cores", lambda: 2)
        qrels, run = read_qrels(tmp_path / "qrels"), read_run(tmp_path / "run")
        exact = compute(join(qrels, run, exact=True), measures)
        assert exact.values["num_rel_ret"].sum() > 0
        _assert_same(compute(join(qrels, run), measures), exact)
