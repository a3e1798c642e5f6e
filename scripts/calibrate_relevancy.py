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

Second stage (``--intent``): the answer-relevancy combiner of the offline judge, "the answer gives what
was asked". Features per question-answer pair (``judge.relevance_inputs``; ``intent.FEATURES``): the
cosine logit above, the share of question parts answered with a value of the asked type, the same
counting only parts whose subject the answer touches, the subject-lemma overlap, evasive, declines,
rudeness. A logistic regression (numpy IRLS, L2 = 1 on the weights, classes balanced) is fitted on the
**dev split only** of ``benchmarks/data/ru_judge/part_*.jsonl``: positives ``direct`` answers, negatives
``off_topic``, ``evasive`` and ``refusal`` (answers the judge already reads as refusals score 0 and are
left out). It reports 5-fold CV on dev and the held-out split, and writes
``src/ragauge/judges/offline/relevancy_intent_calibration.json``.

    python scripts/calibrate_relevancy.py --intent [--check]
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
INTENT_OUT = ROOT / "src/ragauge/judges/offline/relevancy_intent_calibration.json"
RU_JUDGE = ROOT / "benchmarks/data/ru_judge"
NEGATIVE = ("off_topic", "evasive", "refusal")


def fit_logistic(x: np.ndarray, y: np.ndarray, *, l2: float = 1.0, iters: int = 60) -> tuple[np.ndarray, float]:
    """Weights and intercept of a class-balanced logistic regression, L2 penalty ``l2 * |w|^2 / 2`` (not on
    the intercept), by Newton's method (IRLS)."""
    z = np.hstack([x, np.ones((len(x), 1))])
    sample_w = np.where(y == 1, 0.5 / y.mean(), 0.5 / (1 - y.mean()))
    penalty = np.eye(z.shape[1]) * l2
    penalty[-1, -1] = 0.0
    w = np.zeros(z.shape[1])
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-(z @ w)))
        grad = z.T @ (sample_w * (p - y)) + penalty @ w
        hess = (z * (sample_w * p * (1 - p))[:, None]).T @ z + penalty
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w[:-1], float(w[-1])


def _auc(scores: np.ndarray, positives: np.ndarray) -> float:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from ru_judge import roc_auc

    return roc_auc(scores, positives)


def calibrate_intent(check: bool, seed: int, l2: float = 1.0) -> int:
    from ragauge.files import write_text_atomically
    from ragauge.judges.offline.intent import FEATURES
    from ragauge.judges.offline.judge import OfflineJudge

    files = sorted(RU_JUDGE.glob("part_*.jsonl"))
    if not files:
        print(f"calibrate_relevancy: no labelled files in {RU_JUDGE}", file=sys.stderr)
        return 2
    rows = [json.loads(line) for f in files for line in f.open(encoding="utf-8") if line.strip()]
    rows = [r for r in rows if r["metadata"]["relevancy"] in ("direct",) + NEGATIVE]
    judge = OfflineJudge()
    qs, ans = [r["question"] for r in rows], [r["answer"] for r in rows]
    refused = np.array(judge.refusals(ans, [None] * len(ans)))
    inputs = judge.relevance_inputs(qs, ans)
    x = np.array([[logit, f.value_share, f.given_share, f.overlap, float(f.evasive), float(f.declines), rude]
                  for f, logit, rude in inputs])
    y = np.array([r["metadata"]["relevancy"] == "direct" for r in rows], dtype=float)
    dev = np.array([r["metadata"]["split"] == "dev" for r in rows])
    fit = dev & ~refused
    w, b = fit_logistic(x[fit], y[fit], l2=l2)

    def predict(wv, bv, xs):
        p = 1.0 / (1.0 + np.exp(-(xs @ wv + bv)))
        return p

    score = np.where(refused, 0.0, predict(w, b, x))
    cv = np.zeros(len(rows))
    dev_idx = np.where(dev)[0]
    folds = np.random.default_rng(seed).permutation(len(dev_idx)) % 5
    for k in range(5):
        test = dev_idx[folds == k]
        train = np.setdiff1d(np.where(fit)[0], test)
        wk, bk = fit_logistic(x[train], y[train], l2=l2)
        cv[test] = predict(wk, bk, x[test])
    cv = np.where(refused, 0.0, cv)
    labels = np.array([r["metadata"]["relevancy"] for r in rows])
    oe = np.isin(labels, ("direct", "off_topic", "evasive"))
    held = ~dev
    report = {
        "dev_cv_auc_direct_vs_offtopic_evasive": _auc(cv[dev & oe], y[dev & oe]),
        "dev_cv_auc_direct_vs_negatives": _auc(cv[dev], y[dev]),
        "heldout_auc_direct_vs_offtopic_evasive": _auc(score[held & oe], y[held & oe]),
        "heldout_auc_direct_vs_negatives": _auc(score[held], y[held]),
    }
    print(f"fit on {int(fit.sum())} dev pairs ({int(y[fit].sum())} direct); weights "
          + ", ".join(f"{n} {v:+.3f}" for n, v in zip(FEATURES, w)) + f", intercept {b:+.3f}")
    print("  " + "; ".join(f"{k} {v:.3f}" for k, v in report.items()))
    if not check:
        digest = hashlib.sha1(json.dumps([qs, ans, y.tolist(), dev.tolist()], ensure_ascii=False).encode()).hexdigest()[:12]
        write_text_atomically(INTENT_OUT, json.dumps({
            "features": list(FEATURES), "w": [round(float(v), 4) for v in w], "b": round(b, 4), "threshold": 0.5,
            "l2": l2, "seed": seed, "n_fit": int(fit.sum()), "n_fit_direct": int(y[fit].sum()),
            **{k: round(v, 4) for k, v in report.items()}, "data_sha1": digest,
            "how": "scripts/calibrate_relevancy.py --intent: logistic fit on the dev split of benchmarks/data/ru_judge "
                   "(direct vs off_topic/evasive/refusal); heldout split not used for fitting",
        }, indent=2) + "\n")
        print(f"wrote {INTENT_OUT.relative_to(ROOT)}")
    return 0


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
    ap.add_argument("--intent", action="store_true", help="fit the relevancy combiner on the ru_judge dev split")
    args = ap.parse_args(argv)
    if args.intent:
        return calibrate_intent(args.check, args.seed)
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
        from ragauge.files import write_text_atomically

        write_text_atomically(OUT, json.dumps({
            "a": round(coef, 4), "b": round(icpt, 4), "model": judge.embedder.model_id, "seed": args.seed,
            "n_pairs": len(y), "cv_roc_auc": round(float(np.mean(aucs)), 4),
            "cv_balanced_accuracy": round(float(np.mean(baccs)), 4), "data_sha1": digest,
            "how": "scripts/calibrate_relevancy.py: logistic fit of relevance on USE question-answer cosine",
        }, indent=2) + "\n")
        print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
