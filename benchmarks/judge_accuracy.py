"""How well does the offline judge catch unsupported answers? Measured through the product path.

    python benchmarks/judge_accuracy.py                        # 300 rows per set, the shipped weights
    python benchmarks/judge_accuracy.py --limit 0              # every row
    python benchmarks/judge_accuracy.py --sets wice,terra --json OUT.json
    python benchmarks/judge_accuracy.py --heldout-fold 0       # only rows of grouped fold 0 of 5 (see below)

Every figure comes from ``ragauge.evaluate(rows, metrics=["faithfulness"], judge="offline")`` on rows in
the user's format (``id``, ``question`` when the set has one, ``answer``, ``contexts``, ``language``):
the claim splitter, evidence search, routing, head and rules a user gets. Per set: ROC-AUC of
``1 - faithfulness`` against ``hallucinated`` on the scored rows, the same AUC with every unscored row
counted as flagged, the unscored count with its reasons, balanced accuracy of "faithfulness < 1", and
samples/s of the ``evaluate`` call (models loaded by a warm-up call first).

Sets (``../shared/data/judge``, schema in its README): RAGTruth QA (the QA responses of
``ragtruth_dev.jsonl``), HaluEval QA, WiCE, TERRa, FaithBench (held out: never trained on).
``--limit N`` takes N rows per set after a seeded shuffle (0 = all).

**In-sample warning.** RAGTruth, HaluEval, WiCE and TERRa are the training files of the shipped head
(``scripts/train_verifier.py``), so the shipped weights score them partly in-sample. For a fair figure
train with ``python scripts/train_verifier.py --holdout-fold K --out W.npz`` (the head never sees the
rows of grouped fold K; groups = source document / question, folds by a hash of the group, so adding
data never moves a row to another fold) and run this script with ``--weights W.npz --heldout-fold K``.
The script only reports: it exits 0 whatever the numbers (2 on bad arguments).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))

DEFAULT_DATA = ROOT.parent / "shared" / "data" / "judge"
SEED = 13
# set name -> (file, row filter)
SETS: dict[str, tuple[str, str | None]] = {
    "ragtruth_qa": ("ragtruth_dev.jsonl", "QA"),
    "halueval_qa": ("halueval_qa_dev.jsonl", None),
    "wice": ("wice_dev.jsonl", None),
    "terra": ("terra_ru_train.jsonl", None),
    "faithbench": ("faithbench_dev.jsonl", None),
}
DEFAULT_SETS = ("ragtruth_qa", "halueval_qa", "wice", "terra")


def roc_auc(scores, positives) -> float | None:
    """Mann-Whitney ROC-AUC, ties averaged; None when a class is empty.

    >>> roc_auc([0.1, 0.4, 0.4, 0.8], [False, False, True, True])
    0.875
    """
    s = np.asarray(scores, dtype=float)
    y = np.asarray(positives, dtype=bool)
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    if n_pos == 0 or n_neg == 0:
        return None
    _, inverse, counts = np.unique(s, return_inverse=True, return_counts=True)
    avg_rank = (np.cumsum(counts) - (counts - 1) / 2.0)[inverse]
    return float((avg_rank[y].sum() - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg))


def load_set(data: Path, name: str, *, limit: int, heldout_fold: int | None, folds: int) -> list[dict]:
    """The rows of one set (filtered, optionally one grouped fold, seeded shuffle, first ``limit``)."""
    import train_verifier as T

    file, task = SETS[name]
    rows = [r for r in T.load_rows(data / file) if task is None or r.get("task") == task]
    if heldout_fold is not None:
        rows = [r for r in rows if T.fold_of_group(T.group_of(r), folds) == heldout_fold]
    order = np.random.default_rng(SEED).permutation(len(rows))
    rows = [rows[int(i)] for i in order]
    return rows[:limit] if limit > 0 else rows


def user_row(row: dict) -> dict:
    """A training row as a user's sample: no labels, question only when the set has one."""
    out = {"id": str(row["id"]), "answer": row["answer"], "contexts": list(row["contexts"]),
           "language": row.get("language")}
    if (row.get("question") or "").strip():
        out["question"] = row["question"]
    return out


def score_set(rows: list[dict]) -> dict:
    """``ragauge.evaluate`` on ``rows``; AUCs, unscored count and reasons, speed."""
    import ragauge

    samples = [user_row(r) for r in rows]
    start = time.perf_counter()
    res = ragauge.evaluate(samples, metrics=["faithfulness"], profile=None, judge="offline")
    seconds = time.perf_counter() - start
    col = res.columns["faithfulness"]
    y = np.array([bool(r["hallucinated"]) for r in rows])
    values = list(col.values)
    scored = np.array([v is not None for v in values])
    f = np.array([np.nan if v is None else v for v in values], dtype=float)
    flagged = np.where(scored, f < 1.0, True)
    tpr = float(flagged[y].mean()) if y.any() else float("nan")
    tnr = float((~flagged[~y]).mean()) if (~y).any() else float("nan")
    return {
        "n": len(rows), "hallucinated": int(y.sum()),
        "auc": roc_auc(1 - f[scored], y[scored]),
        "auc_unscored_flagged": roc_auc(np.where(scored, 1 - np.nan_to_num(f), 1.0), y),
        "bal_acc": (tpr + tnr) / 2,
        "unscored": int((~scored).sum()),
        "unscored_reasons": dict(Counter(str(col.reasons[i]) for i in np.flatnonzero(~scored)).most_common(5)),
        "seconds": round(seconds, 2), "samples_per_s": round(len(rows) / seconds, 2),
    }


def warm_up(data: Path) -> None:
    """Load the models (USE, pymorphy3, natasha, the head) outside the timed calls."""
    import ragauge

    rows = [{"id": "w1", "question": "Сколько?", "answer": "Гарантия 3 года.", "contexts": ["Гарантия 36 месяцев."]},
            {"id": "w2", "answer": "The warranty is three years.", "contexts": ["Warranty: 36 months."]}]
    ragauge.evaluate(rows, metrics=["faithfulness"], profile=None, judge="offline")


def fmt(x, nd: int = 3) -> str:
    return "  -  " if x is None else f"{x:.{nd}f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--sets", default=",".join(DEFAULT_SETS), help=f"comma-separated, of: {', '.join(SETS)}")
    ap.add_argument("--limit", type=int, default=300, help="rows per set after a seeded shuffle (0: all)")
    ap.add_argument("--weights", type=Path, help="verifier weights to use (default: the shipped ones)")
    ap.add_argument("--heldout-fold", type=int, help="only rows of this grouped fold (train with --holdout-fold)")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--json", type=Path, help="also write the numbers here")
    args = ap.parse_args(argv)
    names = [s.strip() for s in args.sets.split(",") if s.strip()]
    unknown = [s for s in names if s not in SETS]
    if unknown:
        print(f"unknown set(s) {', '.join(unknown)}: use {', '.join(SETS)}", file=sys.stderr)
        return 2
    if not args.data.is_dir():
        print(f"judge_accuracy: skipped, no benchmark data at {args.data} (pass --data DIR)")
        return 0
    if args.weights is not None:
        if not args.weights.is_file():
            print(f"--weights {args.weights}: no such file", file=sys.stderr)
            return 2
        os.environ["RAGAUGE_VERIFIER_WEIGHTS"] = str(args.weights.resolve())
    from ragauge.judges.offline.verifier import load_head, weights_path

    head = load_head(weights_path())
    print(f"weights {weights_path()} ({head.version}, data {head.meta.get('data_sha256', '?')[:12]}, "
          f"pairs {head.meta.get('pairs', 'none')}, holdout fold {head.meta.get('holdout_fold', 'none')})")
    warm_up(args.data)
    results: dict[str, dict] = {}
    print(f"{'set':<13}{'n':>5}{'halu':>6} {'AUC':>6} {'AUC+uns':>8} {'bal.acc':>8} {'unscored':>9} {'samples/s':>10}")
    for name in names:
        if not (args.data / SETS[name][0]).is_file():
            print(f"{name:<13} skipped: {SETS[name][0]} not found")
            continue
        rows = load_set(args.data, name, limit=args.limit, heldout_fold=args.heldout_fold, folds=args.folds)
        r = score_set(rows)
        results[name] = r
        print(f"{name:<13}{r['n']:>5}{r['hallucinated']:>6} {fmt(r['auc']):>6} {fmt(r['auc_unscored_flagged']):>8} "
              f"{fmt(r['bal_acc']):>8} {r['unscored']:>9} {r['samples_per_s']:>10.1f}"
              + (f"   unscored: {r['unscored_reasons']}" if r["unscored"] else ""))
    if args.json:
        args.json.write_text(json.dumps({"weights": str(weights_path()), "limit": args.limit,
                                         "heldout_fold": args.heldout_fold, "sets": results}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
