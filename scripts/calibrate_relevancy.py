"""Fit the offline answer-relevancy calibration: P(answer addresses question) = sigmoid(a * cos + b).

Data (the shared dev sets only, plus our own evasive answers):
- positives: RAGTruth QA and HaluEval QA answers paired with their own question (they address it,
  whether or not they are faithful);
- negatives: the same answers paired with another, random question of the same data set (off-topic),
  and generic evasive answers (``benchmarks/data/evasive_answers.jsonl``, RU and EN, written for
  ragauge) paired with every kind of question.

Fits a 1-D logistic regression on the USE cosine, reports 5-fold cross-validated ROC-AUC and
balanced accuracy, and writes ``src/ragauge/judges/offline/relevancy_calibration.json``.

    python scripts/calibrate_relevancy.py [--data ../shared/data/judge] [--check]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src/ragauge/judges/offline/relevancy_calibration.json"


def _rows(path: Path, limit: int, rng: random.Random) -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in path.open(encoding="utf-8")]
    rows = [r for r in rows if r.get("task", "QA").lower().startswith("qa") and r["question"] and r["answer"]]
    rng.shuffle(rows)
    return [(r["question"], r["answer"]) for r in rows[:limit]]


def _fit(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    from sklearn.linear_model import LogisticRegression

    m = LogisticRegression(C=10.0, class_weight="balanced").fit(x.reshape(-1, 1), y)
    return float(m.coef_[0][0]), float(m.intercept_[0])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(ROOT.parent / "shared/data/judge"))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--check", action="store_true", help="fit and report, do not write the file")
    args = ap.parse_args(argv)
    data = Path(args.data)
    if not data.is_dir():
        print(f"calibrate_relevancy: data folder {data} not found (pass --data)", file=sys.stderr)
        return 2
    from sklearn.metrics import balanced_accuracy_score, roc_auc_score
    from sklearn.model_selection import StratifiedKFold

    from ragauge.judges.offline.judge import OfflineJudge

    rng = random.Random(args.seed)
    pairs = _rows(data / "ragtruth_dev.jsonl", 265, rng) + _rows(data / "halueval_qa_dev.jsonl", 400, rng)
    evasive = [json.loads(l)["text"] for l in (ROOT / "benchmarks/data/evasive_answers.jsonl").open(encoding="utf-8")]
    qs = [q for q, _ in pairs]
    a, b, y = [], [], []
    for i, (q, ans) in enumerate(pairs):
        a.append(q), b.append(ans), y.append(1)
        j = rng.randrange(len(pairs) - 1)
        j = j + 1 if j >= i else j
        a.append(pairs[j][0]), b.append(ans), y.append(0)
    for text in evasive:
        for q in rng.sample(qs, 10):
            a.append(q), b.append(text), y.append(0)
    judge = OfflineJudge()
    cos = judge.similarity(a, b)
    y_arr = np.array(y)
    aucs, baccs = [], []
    for tr, te in StratifiedKFold(5, shuffle=True, random_state=args.seed).split(cos, y_arr):
        ca, cb = _fit(cos[tr], y_arr[tr])
        p = 1 / (1 + np.exp(-(ca * cos[te] + cb)))
        aucs.append(roc_auc_score(y_arr[te], p))
        baccs.append(balanced_accuracy_score(y_arr[te], p >= 0.5))
    coef, icpt = _fit(cos, y_arr)
    print(f"pairs: {len(y)} ({int(y_arr.sum())} relevant); 5-fold CV ROC-AUC {np.mean(aucs):.3f} ± {np.std(aucs):.3f}, "
          f"balanced accuracy {np.mean(baccs):.3f} ± {np.std(baccs):.3f}; a = {coef:.3f}, b = {icpt:.3f}")
    if not args.check:
        digest = hashlib.sha1(json.dumps([a, b, y]).encode()).hexdigest()[:12]
        OUT.write_text(json.dumps({
            "a": round(coef, 4), "b": round(icpt, 4), "model": judge.embedder.model_id, "seed": args.seed,
            "n_pairs": len(y), "cv_roc_auc": round(float(np.mean(aucs)), 4),
            "cv_balanced_accuracy": round(float(np.mean(baccs)), 4), "data_sha1": digest,
            "how": "scripts/calibrate_relevancy.py: logistic fit of relevance on USE question-answer cosine",
        }, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
