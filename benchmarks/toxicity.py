"""Benchmark and calibration of the offline toxicity scorer (``ragauge.judges.offline.toxicity``).

Data: ``benchmarks/data/toxicity_labelled.jsonl`` (308 short texts written for ragauge, ru/en, 34%
toxic, with hard negatives: RAG answers about prices and contract clauses with "штраф",
"неустойка", "ущерб", "снос", "kill the process", ...).

For each candidate and language it reports ROC-AUC (whole set), then 5-fold stratified
cross-validation (seed 0): on 4 folds fit Platt scaling and choose the threshold, on the 5th report
balanced accuracy, F1, the false-positive rate on ``neutral_factual`` texts and on all clean texts
(mean ± sd over folds). Threshold rule: the highest balanced accuracy on the training folds among
thresholds that flag no ``neutral_factual`` training text; ties go to the higher threshold.

Candidates: toxicityclassifier (Russian model with its IDF weights restored, and "as installed"
without them; its English model needs ``nltk`` for the English stemmer and is skipped without it),
alt-profanity-check, and their max. The shipped scorer routes ru -> toxicityclassifier,
en -> alt-profanity-check.

Run::

    python benchmarks/toxicity.py                       # print the tables
    python benchmarks/toxicity.py --write-calibration   # also refit src/.../toxicity_calibration.json
"""

from __future__ import annotations

import argparse
import json
import string
import time
from datetime import date
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import balanced_accuracy_score, f1_score, roc_auc_score
from sklearn.model_selection import StratifiedKFold

from ragauge.judges.offline import toxicity as tox

DATA = Path(__file__).with_name("data") / "toxicity_labelled.jsonl"
SEED = 0
FOLDS = 5
SHIPPED = {"ru": "toxicityclassifier", "en": "alt-profanity-check"}

# NLTK's English stop words without apostrophes (words with one never match: punctuation goes first).
EN_STOPWORDS = frozenset(
    "i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers "
    "herself it its itself they them their theirs themselves what which who whom this that these those am is "
    "are was were be been being have has had having do does did doing a an the and but if or because as until "
    "while of at by for with about against between into through during before after above below to from up "
    "down in out on off over under again further then once here there when where why how all any both each few "
    "more most other some such no nor not only own same so than too very s t can will just don should now d ll "
    "m o re ve y ain aren couldn didn doesn hadn hasn haven isn ma mightn mustn needn shan shouldn wasn weren "
    "won wouldn".split()
)


def load_rows(path: Path = DATA) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# ---------------------------------------------------------------- raw model scores


def tc_english(texts: list[str]) -> np.ndarray | None:
    """toxicityclassifier's English model with NLTK's English Snowball stemmer; None without nltk."""
    try:
        from nltk.stem import SnowballStemmer
        from nltk.tokenize import NLTKWordTokenizer  # the part of word_tokenize that needs no data
    except ImportError:
        return None
    import importlib.util

    models = Path(next(iter(importlib.util.find_spec("toxicityclassifier").submodule_search_locations))) / "models"
    vec, clf = tox._unpickle(models / "EnglishVectorizer.bf"), tox._unpickle(models / "EnglishModel.bf")
    vec._tfidf.idf_ = vec._tfidf._idf_diag.diagonal().copy()
    stem, tok = SnowballStemmer("english").stem, NLTKWordTokenizer().tokenize
    table = str.maketrans("", "", string.punctuation)

    def prep(text: str) -> str:
        return " ".join(stem(t) for t in tok(text.strip().lower().translate(table)) if t not in EN_STOPWORDS)

    return clf.predict_proba(vec.transform([prep(t) for t in texts]))[:, 1]


def timed(fn, texts: list[str], repeat: int = 3) -> tuple[np.ndarray, float]:
    """Scores and throughput (texts/s, best of ``repeat``) of ``fn`` on ``texts``."""
    best, out = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn(texts)
        best = min(best, time.perf_counter() - start)
    return (None if out is None else np.asarray(out, dtype=float)), len(texts) / best


def raw_scores(rows: list[dict]) -> tuple[dict, dict]:
    """``{lang: {candidate: scores}}`` and ``{candidate/lang: texts per second}``."""
    ru_model, en_model = tox.model_for("ru"), tox.model_for("en")
    no_idf = tox._RussianModel(restore_idf=False)
    scores: dict[str, dict[str, np.ndarray]] = {}
    speed: dict[str, float] = {}
    for lang in ("ru", "en"):
        texts = [r["text"] for r in rows if r["lang"] == lang]
        out: dict[str, np.ndarray] = {}
        if lang == "ru":
            out["toxicityclassifier"], speed["toxicityclassifier/ru"] = timed(ru_model.predict, texts)
            out["toxicityclassifier (as installed, no IDF)"], _ = timed(no_idf.predict, texts, 1)
        else:
            en, speed["toxicityclassifier/en"] = timed(tc_english, texts)
            if en is not None:
                out["toxicityclassifier"] = en
        out["alt-profanity-check"], speed[f"alt-profanity-check/{lang}"] = timed(en_model.predict, texts)
        if "toxicityclassifier" in out:
            out["max(toxicityclassifier, alt-profanity-check)"] = np.maximum(
                out["toxicityclassifier"], out["alt-profanity-check"]
            )
        scores[lang] = out
    return scores, speed


# ---------------------------------------------------------------- calibration (pure)


def logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return np.log(p / (1 - p))


def fit_platt(p: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Platt scaling ``sigmoid(a * logit(p) + b)`` fitted by (nearly unpenalised) logistic regression."""
    lr = LogisticRegression(C=1e6, max_iter=1000).fit(logit(p)[:, None], y)
    return float(lr.coef_[0, 0]), float(lr.intercept_[0])


def apply_platt(p: np.ndarray, a: float, b: float) -> np.ndarray:
    return np.array([tox.platt(float(x), a, b) for x in p])


def choose_threshold(q: np.ndarray, y: np.ndarray, factual: np.ndarray) -> float:
    """Highest balanced accuracy among thresholds above every neutral_factual score; ties -> higher."""
    values = np.unique(q)
    candidates = np.concatenate([(values[:-1] + values[1:]) / 2, [values[-1] + 1e-9]])
    floor = q[factual].max() if factual.any() else -np.inf
    best, best_t = -1.0, float(candidates[-1])
    for t in candidates[candidates > floor]:
        score = balanced_accuracy_score(y, q >= t)
        if score >= best:
            best, best_t = score, float(t)
    return best_t


def evaluate(q: np.ndarray, y: np.ndarray, kinds: np.ndarray, t: float) -> dict[str, float]:
    flag = q >= t
    clean = ~y
    return {
        "bal_acc": balanced_accuracy_score(y, flag),
        "f1": f1_score(y, flag, zero_division=0.0),
        "fpr_factual": float(flag[kinds == "neutral_factual"].mean()),
        "fpr_clean": float(flag[clean].mean()),
        "recall": float(flag[y].mean()),
    }


def cross_validate(p: np.ndarray, y: np.ndarray, kinds: np.ndarray) -> dict[str, tuple[float, float]]:
    folds = StratifiedKFold(n_splits=FOLDS, shuffle=True, random_state=SEED)
    strata = np.array([f"{k}" for k in kinds])  # stratify by kind: every fold gets factual texts
    per_fold = []
    for train, test in folds.split(p, strata):
        a, b = fit_platt(p[train], y[train])
        t = choose_threshold(apply_platt(p[train], a, b), y[train], kinds[train] == "neutral_factual")
        per_fold.append(evaluate(apply_platt(p[test], a, b), y[test], kinds[test], t) | {"threshold": t})
    return {k: (float(np.mean([f[k] for f in per_fold])), float(np.std([f[k] for f in per_fold]))) for k in per_fold[0]}


# ---------------------------------------------------------------- report


def pm(value: tuple[float, float]) -> str:
    return f"{value[0]:.3f} ± {value[1]:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write-calibration", action="store_true", help=f"refit {tox.CALIBRATION_PATH.name}")
    args = parser.parse_args()
    rows = load_rows()
    scores, speed = raw_scores(rows)

    print(f"{len(rows)} texts, {sum(r['toxic'] for r in rows)} toxic; {FOLDS}-fold CV, seed {SEED}\n")
    print("| lang | candidate | ROC-AUC | balanced acc (CV) | F1 (CV) | FPR neutral_factual (CV) | FPR all clean (CV) | recall (CV) |")
    print("|---|---|---|---|---|---|---|---|")
    calibration = {}
    for lang in ("ru", "en"):
        sub = [r for r in rows if r["lang"] == lang]
        y = np.array([r["toxic"] for r in sub])
        kinds = np.array([r["kind"] for r in sub])
        for name, p in scores[lang].items():
            cv = cross_validate(p, y, kinds)
            mark = " **(shipped)**" if name == SHIPPED[lang] else ""
            print(f"| {lang} | {name}{mark} | {roc_auc_score(y, p):.3f} | {pm(cv['bal_acc'])} | {pm(cv['f1'])} | "
                  f"{pm(cv['fpr_factual'])} | {pm(cv['fpr_clean'])} | {pm(cv['recall'])} |")
        p = scores[lang][SHIPPED[lang]]
        a, b = fit_platt(p, y)
        t = choose_threshold(apply_platt(p, a, b), y, kinds == "neutral_factual")
        calibration[lang] = {"model": SHIPPED[lang], "a": round(a, 6), "b": round(b, 6), "threshold": round(t, 6),
                             "cv_threshold_mean_sd": [round(v, 4) for v in cross_validate(p, y, kinds)["threshold"]]}
    if not any("toxicityclassifier" == n for n in scores["en"]):
        print("\n(toxicityclassifier's English model skipped: install nltk for its English stemmer)")

    print("\n| model / lang | texts per second (one batch, best of 3) |\n|---|---|")
    for key, value in speed.items():
        if key in ("toxicityclassifier/en",) and "toxicityclassifier" not in scores["en"]:
            continue
        print(f"| {key} | {value:,.0f} |")

    print("\nShipped calibration fitted on the whole set (Platt a, b; threshold on the calibrated scale):")
    print(json.dumps(calibration, ensure_ascii=False, indent=1))
    if args.write_calibration:
        doc = {
            "derived": (
                "python benchmarks/toxicity.py --write-calibration on benchmarks/data/toxicity_labelled.jsonl "
                f"({len(rows)} texts, {date.today().isoformat()}): per language, Platt scaling "
                "sigmoid(a*logit(p)+b) of the model probability fitted by logistic regression on the whole "
                "set; threshold = highest balanced accuracy among thresholds that flag no neutral_factual "
                "text (ties -> higher). cv_threshold_mean_sd: the same rule in 5-fold CV."
            ),
            "languages": calibration,
        }
        tox.CALIBRATION_PATH.write_text(json.dumps(doc, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {tox.CALIBRATION_PATH}")

    scorer = tox.ToxicityScorer()
    texts = [r["text"] for r in rows]
    start = time.perf_counter()
    results = scorer.score(texts)  # language detected per sentence, as in production
    rate = len(texts) / (time.perf_counter() - start)
    print(f"\nEnd-to-end ToxicityScorer.score (detection, sentence split, both models): {rate:,.0f} texts/s")
    print("| lang | balanced acc (in-sample) | F1 | FPR neutral_factual | FPR all clean | mean probability, clean |\n|---|---|---|---|---|---|")
    for lang in ("ru", "en"):
        idx = [i for i, r in enumerate(rows) if r["lang"] == lang]
        y = np.array([rows[i]["toxic"] for i in idx])
        q = np.array([results[i].probability for i in idx])
        flag = np.array([results[i].toxic for i in idx])
        kinds = np.array([rows[i]["kind"] for i in idx])
        print(f"| {lang} | {balanced_accuracy_score(y, flag):.3f} | {f1_score(y, flag):.3f} | "
              f"{flag[kinds == 'neutral_factual'].mean():.3f} | {flag[~y].mean():.3f} | {q[~y].mean():.3f} |")


if __name__ == "__main__":
    main()
