"""How well does the offline judge catch hallucinated answers? Accuracy per data set and speed.

    python benchmarks/judge_accuracy.py                       # all files of ../shared/data/judge
    python benchmarks/judge_accuracy.py --data DIR --speed-samples 200 --skip-speed

Strict split:
* the training files (RAGTruth, HaluEval, TERRa, WiCE) are scored with grouped 5-fold
  cross-validation: the head is refitted with the code of ``scripts/train_verifier.py`` (same
  hyper-parameters as the shipped weights) on 4 folds and scores the 5th; never in-sample;
* FaithBench is held out entirely (never trained on): scored end to end with the shipped weights
  (task "summary": it is a summarisation benchmark; there is no summary head, so the pooled one);
* MTRAG has human ratings, not labels: Spearman of faithfulness vs the human median.

The training files are scored *routed*: each row by the out-of-fold head of its task family (RAG QA:
RAGTruth QA + HaluEval -> "qa"; NLI: WiCE + TERRa -> "nli"; RAGTruth Summary -> pooled), each head with
its own threshold. Per slice: ROC-AUC of (1 - faithfulness) and of (1 - min claim P(supported)) vs ``hallucinated``,
balanced accuracy and F1 of the hallucinated class for ``hallucinated = faithfulness < 1`` (some
claim below the shipped threshold); samples/s end to end (claims, evidence, features, head) on up to
``--rate-samples`` rows per file, models loaded once, embedding cache empty at the start.

Speed test: faithfulness on synthetic RAG QA samples (5 contexts x ~150 words cut from RAGTruth QA
passages, every context distinct so no cache helps; RAGTruth QA answers), one process.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))

import train_verifier as T  # noqa: E402  (the training code: the CV refits with exactly it)

from ragauge.judges.offline.verifier import Verifier, faithfulness, load_head  # noqa: E402


def end_to_end(rows: list[dict], verifier: Verifier, batch: int = 32, task: str | None = None
               ) -> tuple[list[float | None], list[float | None], float]:
    """(faithfulness, min P) per row and the wall time, through the real pipeline (``task``: the head,
    None = the verifier's auto routing)."""
    faith, minp = [], []
    t0 = time.perf_counter()
    for i in range(0, len(rows), batch):
        chunk = rows[i : i + batch]
        items = [(T.claims_for(r["answer"], r.get("language")), r["contexts"], r.get("language")) for r in chunk]
        for verdicts in verifier.verify_many(items, task=task):
            faith.append(faithfulness(verdicts))
            minp.append(min((v.probability for v in verdicts), default=None))
    return faith, minp, time.perf_counter() - t0


def fresh_verifier() -> Verifier:
    from ragauge.judges.offline.embed import Embedder

    return Verifier(embedder=Embedder())


def rate(rows: list[dict], n: int) -> float:
    if not rows or n <= 0:
        return float("nan")
    sub = rows[:n]
    _, _, seconds = end_to_end(sub, fresh_verifier())
    return len(sub) / seconds


def as_scores(faith, minp) -> dict[str, np.ndarray]:
    f = np.array([np.nan if x is None else x for x in faith], dtype=float)
    m = np.array([np.nan if x is None else x for x in minp], dtype=float)
    return {"faithfulness": f, "min_p": m, "mean_p": m}


def speed_samples(data: Path, n: int, seed: int = 7) -> list[dict]:
    """RAG QA samples of 5 distinct contexts x ~150 words, from RAGTruth QA passages and answers."""
    rows = [r for r in T.load_rows(data / "ragtruth_dev.jsonl") if r["task"] == "QA"]
    words = [w for r in rows for c in r["contexts"] for w in c.split()]
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        r = rows[i % len(rows)]
        contexts = []
        for _ in range(5):
            start = int(rng.integers(0, len(words) - 160))
            contexts.append(" ".join(words[start : start + 150]))
        contexts[0] = " ".join(" ".join(r["contexts"]).split()[:150])
        out.append({**r, "contexts": contexts, "id": f"speed-{i}"})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=T.DEFAULT_DATA)
    ap.add_argument("--rate-samples", type=int, default=150, help="rows per file for samples/s (0: skip)")
    ap.add_argument("--speed-samples", type=int, default=200)
    ap.add_argument("--skip-speed", action="store_true")
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args(argv)
    if not args.data.is_dir():
        print(f"no benchmark data at {args.data}: pass --data DIR (the folder with ragtruth_dev.jsonl, ...)", file=sys.stderr)
        return 2
    head = load_head()
    kw = json.loads(head.meta.get("head", "{}")) or {"components": 16}
    print(f"shipped weights: {head.version}, threshold {head.threshold:.2f}, head {kw}, data {head.meta.get('data_sha256', '?')[:12]}")
    results: dict[str, dict] = {}

    # 1. training files: grouped 5-fold CV with the training code
    table, _ = T.load_table(args.data, log=lambda *a: None)
    proba, thresholds, _ = T.routed_cv(table)  # each row scored by its task family's head (pooled: no head)
    print("per-head thresholds (OOF): " + ", ".join(f"{n} {t:.2f}" for n, t in thresholds.items()))
    y = np.array([r["hallucinated"] for r in table.rows])
    s = T.response_scores(table, proba, 0.5)  # routed P is rescaled so 0.5 is the head's threshold
    by_file = {r["dataset"]: [] for r in table.rows}
    for r in table.rows:
        by_file[r["dataset"]].append(r)
    print(f"\n{'slice':22s} {'split':9s} {'n':>5s} {'AUC(1-faith)':>12s} {'AUC(1-minP)':>11s} {'bal.acc':>7s} {'F1 halu':>7s} {'samples/s':>9s}")
    for name, m in T.slices(table).items():
        r = T.metrics(y[m], {k: v[m] for k, v in s.items()})
        base = name.split("/")[0]
        r["samples_per_s"] = rate(by_file[base], args.rate_samples) if "/" not in name and base != "swaps" else float("nan")
        r["split"] = "5-fold CV"
        results[name] = r
        print(f"{name:22s} {'5-fold CV':9s} {r['n']:5d} {r['auc_faith']:12.3f} {r['auc_minp']:11.3f} {r['bal_acc']:7.3f} {r['f1_halu']:7.3f} {r['samples_per_s']:9.1f}")

    # 2. held-out files, end to end with the shipped weights
    verifier = fresh_verifier()
    fb = args.data / "faithbench_dev.jsonl"
    if fb.is_file():
        rows = T.load_rows(fb)
        faith, minp, seconds = end_to_end(rows, verifier, task="summary")  # summaries: the summary route (pooled head)
        yy = np.array([r["hallucinated"] for r in rows])
        r = T.metrics(yy, as_scores(faith, minp))
        r["samples_per_s"] = len(rows) / seconds
        r["split"] = "held out"
        results["faithbench"] = r
        print(f"{'faithbench':22s} {'held out':9s} {r['n']:5d} {r['auc_faith']:12.3f} {r['auc_minp']:11.3f} {r['bal_acc']:7.3f} {r['f1_halu']:7.3f} {r['samples_per_s']:9.1f}")
    mt = args.data / "mtrag_dev.jsonl"
    if mt.is_file():
        from scipy.stats import spearmanr

        rows = T.load_rows(mt)
        faith, minp, seconds = end_to_end(rows, verifier, task="qa")  # multi-turn RAG answers
        human = np.array([float(r.get("human_median", np.nan)) for r in rows])
        f = np.array([np.nan if x is None else x for x in faith])
        ok = ~np.isnan(f) & ~np.isnan(human)
        rho = float(spearmanr(f[ok], human[ok]).statistic) if ok.sum() > 2 else float("nan")
        results["mtrag"] = {"n": int(ok.sum()), "spearman_faith_vs_human": rho, "samples_per_s": len(rows) / seconds}
        print(f"{'mtrag':22s} {'held out':9s} {int(ok.sum()):5d}  Spearman(faithfulness, human median) = {rho:.3f}   {len(rows) / seconds:.1f} samples/s")

    # 3. speed on RAG QA samples: 5 contexts x ~150 words
    if not args.skip_speed:
        rows = speed_samples(args.data, args.speed_samples)
        v = fresh_verifier()
        end_to_end(rows[:8], v)  # load models (USE, pymorphy3, natasha) outside the timing
        v = Verifier(embedder=type(v.embedder)())  # empty embedding cache, models stay loaded
        _, _, seconds = end_to_end(rows, v)
        n_claims = sum(len(T.claims_for(r["answer"], "en")) for r in rows)
        results["speed"] = {"n": len(rows), "seconds": seconds, "samples_per_s": len(rows) / seconds,
                            "claims_per_sample": n_claims / len(rows)}
        print(f"\nspeed: {len(rows)} RAG QA samples (5 distinct contexts x 150 words, {n_claims / len(rows):.1f} claims each): "
              f"{len(rows) / seconds:.1f} samples/s ({seconds:.1f} s, one process)")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, default=float))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
