"""Cross-check against pytrec_eval (trec_eval's own C code) on seeded random runs.

Runs have tied scores (ties broken by document id, descending), graded qrels with 0 and negative
grades, unjudged retrieved documents, relevant documents never retrieved, several depths and
cutoffs, and two relevance levels. Also checks that Python rankings (build_batch) agree with the
TREC-file path. Remember: trec_eval's recip_rank has no cutoff and its ndcg ignores -l.
"""

from __future__ import annotations

import numpy as np
import pytest

from ragauge.scores import ranking as rk
from ragauge.trec import evaluate_files

pytrec_eval = pytest.importorskip("pytrec_eval")

CUTS = "1,2,3,5,10,20,50"
TREC_MEASURES = ["map", "Rprec", "recip_rank", "ndcg", "num_ret", "num_rel", "num_rel_ret",
                 f"P.{CUTS}", f"recall.{CUTS}", f"ndcg_cut.{CUTS}", f"map_cut.{CUTS}", f"success.{CUTS}"]


def _random_case(seed: int, n_queries: int = 80):
    rng = np.random.default_rng(seed)
    run: dict[str, dict[str, float]] = {}
    qrels: dict[str, dict[str, int]] = {}
    for q in range(n_queries):
        pool = [f"d{rng.integers(0, 10**6)}" for _ in range(60)]
        pool = sorted(set(pool))
        depth = int(rng.choice([1, 3, 10, 40, len(pool)]))
        retrieved = rng.choice(pool, size=min(depth, len(pool)), replace=False)
        # few distinct scores: many ties. Scores are exact in float32 on purpose: pytrec_eval keeps
        # them as C floats while trec_eval reads doubles, so near-equal doubles would rank differently.
        run[f"q{q}"] = {str(d): float(rng.integers(0, 6)) / 4 for d in retrieved}
        judged = rng.choice(pool, size=int(rng.integers(1, len(pool))), replace=False)
        grades = rng.choice([-1, 0, 0, 1, 1, 2, 3], size=judged.size)
        grades[0] = max(grades[0], 0)  # trec_eval reads stale memory when every grade is negative
        qrels[f"q{q}"] = {str(d): int(g) for d, g in zip(judged, grades)}
    qrels["only_in_qrels"] = {"dx": 1}
    run["only_in_run"] = {"dy": 1.0}
    return run, qrels


def _write(tmp_path, run, qrels):
    qrels_path, run_path = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels_path.write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items()))
    run_path.write_text(
        "".join(f"{q}\tQ0\t{d}\t{i + 1}\t{s}\tr\n" for q, docs in run.items() for i, (d, s) in enumerate(docs.items()))
    )
    return qrels_path, run_path


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("rel_level", [1, 2])
def test_trec_path_equals_pytrec_eval(tmp_path, seed, rel_level):
    run, qrels = _random_case(seed)
    qrels_path, run_path = _write(tmp_path, run, qrels)
    ours = evaluate_files(qrels_path, run_path, measures=TREC_MEASURES, rel_level=rel_level)
    names = {m.split(".")[0] for m in TREC_MEASURES}
    theirs = pytrec_eval.RelevanceEvaluator(qrels, names | set(TREC_MEASURES), relevance_level=rel_level).evaluate(run)
    assert sorted(ours.query_ids) == sorted(theirs)
    mismatches = []
    for row, qid in enumerate(ours.query_ids):
        for name, values in ours.values.items():
            if abs(float(values[row]) - theirs[qid][name]) > 1e-12:
                mismatches.append(f"{name} {qid}: ours {values[row]!r} pytrec_eval {theirs[qid][name]!r}")
    assert not mismatches, "\n".join(mismatches[:40])


@pytest.mark.parametrize("seed", [3, 4])
def test_python_rankings_equal_trec_path(tmp_path, seed):
    run, qrels = _random_case(seed)
    qrels_path, run_path = _write(tmp_path, run, qrels)
    trec = evaluate_files(qrels_path, run_path, measures=TREC_MEASURES)
    rankings = []
    for qid in trec.query_ids:
        docs = list(run[qid])
        rankings.append([docs[i] for i in rk.order_by_score(docs, list(run[qid].values()))])
    batch = rk.build_batch(rankings, [qrels[q] for q in trec.query_ids])
    checks = {"map": rk.average_precision(batch), "Rprec": rk.r_precision(batch),
              "recip_rank": rk.reciprocal_rank(batch), "ndcg": rk.ndcg(batch), "num_rel_ret": rk.num_rel_ret(batch)}
    for k in (1, 5, 50):
        checks.update({f"P_{k}": rk.precision(batch, k), f"recall_{k}": rk.recall(batch, k),
                       f"ndcg_cut_{k}": rk.ndcg(batch, k), f"map_cut_{k}": rk.average_precision(batch, k),
                       f"success_{k}": rk.hit_rate(batch, k)})
    for name, values in checks.items():
        np.testing.assert_allclose(values, trec.values[name], rtol=0, atol=1e-12, err_msg=name)
    # the dict front door ranks the same way
    fast = rk.evaluate_run({q: run[q] for q in trec.query_ids}, qrels, ["ndcg@5", "map", "mrr", "hit_rate@5"])
    np.testing.assert_allclose(fast.values["ndcg@5"], trec.values["ndcg_cut_5"], atol=1e-12)
    np.testing.assert_allclose(fast.values["map"], trec.values["map"], atol=1e-12)
    np.testing.assert_allclose(fast.values["mrr"], trec.values["recip_rank"], atol=1e-12)
    np.testing.assert_allclose(fast.values["hit_rate@5"], trec.values["success_5"], atol=1e-12)


def test_max_docs_and_complete_match_truncated_pytrec_eval(tmp_path):
    run, qrels = _random_case(5)
    qrels_path, run_path = _write(tmp_path, run, qrels)
    ours = evaluate_files(qrels_path, run_path, measures=["map", "P.5,10", "ndcg"], max_docs=7, complete=True)
    truncated = {}
    for qid, docs in run.items():
        ids = list(docs)
        order = rk.order_by_score(ids, list(docs.values()))[:7]
        truncated[qid] = {ids[i]: float(len(ids) - j) for j, i in enumerate(order)}  # same order, no ties
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"map", "P.5,10", "ndcg"}).evaluate(truncated)
    assert "only_in_qrels" in ours.query_ids  # -c keeps qrels queries missing from the run, at 0
    for row, qid in enumerate(ours.query_ids):
        for name in ("map", "P_5", "P_10", "ndcg"):
            expected = theirs[qid][name] if qid in theirs else 0.0
            assert ours.values[name][row] == pytest.approx(expected, abs=1e-12), (name, qid)
