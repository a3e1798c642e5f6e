"""Offline answer_correctness against gold labels: the agreement decision vs the plain verifier door.

    python benchmarks/correctness.py                      # the demo + 1,000 HaluEval QA questions
    python benchmarks/correctness.py --halueval 0         # the demo only
    python benchmarks/correctness.py --halueval 500 --seed 1

Two ways of scoring the same samples with the offline judge:

* ``door``: only the :class:`ragauge.judges.base.Judge` methods (``claims`` + ``verify`` with the other
  text as the one source): what any judge without ``facts``/``agree`` gets, and what the offline judge
  did before the agreement decision (with today's claim splitter and number parser);
* ``agree``: the offline judge as shipped: claims cut into facts (``claims.split_facts``), and
  ``agreement.agree_many`` (numbers, polarity, scope, entities and word coverage over the whole other
  text and the question, on top of the verifier).

Data sets:

* the bundled demo (Russian, 53 samples with ``metadata.answer_label``): mean correctness of acceptable
  (``faithful``, ``refusal_correct``) and not acceptable answers, per label, ROC-AUC of correctness
  against "acceptable", and how many noisy variants ``noise_robustness`` scores;
* HaluEval QA dev (English, ``../shared/data/judge/halueval_qa_dev.jsonl``, skipped when absent): per
  question, the right answer is the reference; candidates are the hallucinated answer and the right
  answer *restated* as a sentence ("It is X."). ROC-AUC of correctness, restated-right vs
  hallucinated. The restatement is a template, not a human paraphrase: it checks that wrapping a
  correct answer in words does not make it wrong; it says little about real paraphrases.

The demo is a showcase, not a training set: no rule or threshold was fitted to these figures.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from ragauge.data import load, sample_from_record  # noqa: E402
from ragauge.demo import samples_path  # noqa: E402
from ragauge.judges.offline.judge import OfflineJudge  # noqa: E402
from ragauge.metrics import answer, noise  # noqa: E402
from ragauge.metrics._judging import languages  # noqa: E402
from ragauge.metrics.registry import parse_metric  # noqa: E402

OK_LABELS = ("faithful", "refusal_correct")
HALUEVAL = ROOT.parent / "shared" / "data" / "judge" / "halueval_qa_dev.jsonl"


class DoorOnly:
    """The offline judge seen through the :class:`~ragauge.judges.base.Judge` door alone (no facts/agree)."""

    def __init__(self, judge: OfflineJudge) -> None:
        self._judge = judge
        self.name = judge.name

    def provenance(self):
        return self._judge.provenance()

    def claims(self, texts, langs):
        return self._judge.claims(texts, langs)

    def verify(self, items):
        return self._judge.verify(items)

    def refusals(self, texts, langs):
        return self._judge.refusals(texts, langs)

    def similarity(self, a, b):
        return self._judge.similarity(a, b)

    def relevance(self, questions, answers):
        return self._judge.relevance(questions, answers)

    def toxicity(self, texts, langs):
        return self._judge.toxicity(texts, langs)


def roc_auc(scores: list[float], positives: list[bool]) -> float | None:
    """P(a random positive scores above a random negative), ties half (Mann-Whitney)."""
    pos = [s for s, p in zip(scores, positives) if p]
    neg = [s for s, p in zip(scores, positives) if not p]
    if not pos or not neg:
        return None
    return sum((p > n) + 0.5 * (p == n) for p in pos for n in neg) / (len(pos) * len(neg))


def _mean(v: list[float]) -> float | None:
    return sum(v) / len(v) if v else None


def _f(x: float | None) -> str:
    return "  -  " if x is None else f"{x:.3f}"


def correctness(samples, judge) -> list[float | None]:
    return answer._correctness(samples, languages(samples), judge).values


def demo(judges: dict) -> None:
    samples = load(str(samples_path()))
    ok = [s.metadata.get("answer_label") in OK_LABELS for s in samples]
    print(f"== demo: {len(samples)} samples ({sum(ok)} acceptable answers), {samples_path().name}")
    print(f"  {'judge':<8}{'acceptable':>11}{'not acc.':>10}{'faithful':>10}{'ROC-AUC':>9}{'>=0.5 faithful':>16}"
          f"{'unscored':>10}{'noise scored':>14}{'s':>7}")
    spec = parse_metric("noise_robustness")
    per_label: dict[str, dict[str, list[float]]] = {}
    for name, judge in judges.items():
        t0 = time.perf_counter()
        values = correctness(samples, judge)
        nr = noise.compute([spec], samples, judge=judge)
        secs = time.perf_counter() - t0
        scored = [(v, a) for v, a in zip(values, ok) if v is not None]
        faithful = [v for v, s in zip(values, samples) if v is not None and s.metadata.get("answer_label") == "faithful"]
        n_noisy = sum("noise_of" in s.metadata for s in samples)
        noise_scored = sum(v is not None for v in nr[spec.name].values)
        print(f"  {name:<8}{_f(_mean([v for v, a in scored if a])):>11}{_f(_mean([v for v, a in scored if not a])):>10}"
              f"{_f(_mean(faithful)):>10}{_f(roc_auc([v for v, _ in scored], [a for _, a in scored])):>9}"
              f"{sum(v >= 0.5 for v in faithful):>9}/{len(faithful):<6}{len(values) - len(scored):>10}"
              f"{noise_scored:>9}/{n_noisy:<4}{secs:>7.1f}")
        for v, s in zip(values, samples):
            if v is not None:
                per_label.setdefault(s.metadata.get("answer_label", "?"), {}).setdefault(name, []).append(v)
    print("  mean by gold label: " + "; ".join(
        f"{label} (n={len(next(iter(by.values())))}) " + " -> ".join(_f(_mean(by.get(n, []))) for n in judges)
        for label, by in sorted(per_label.items())))


def halueval(judges: dict, n: int, seed: int) -> None:
    if not HALUEVAL.is_file():
        print(f"== HaluEval QA: skipped ({HALUEVAL} not found)")
        return
    rows = [json.loads(line) for line in HALUEVAL.open(encoding="utf-8")]
    by_q: dict[str, dict[str, dict]] = {}
    for r in rows:
        by_q.setdefault(r["id"].rsplit(":", 1)[0], {})[r["label"]] = r
    keys = sorted(k for k, v in by_q.items() if {"right", "hallucinated"} <= set(v))
    keys = random.Random(seed).sample(keys, min(n, len(keys)))
    recs = []
    for k in keys:
        right, halu = by_q[k]["right"], by_q[k]["hallucinated"]
        ref = right["answer"].strip()
        for kind, text in (("restated", f"It is {ref.rstrip('.')}."), ("hallucinated", halu["answer"])):
            recs.append(({"id": f"{k}:{kind}", "question": right["question"], "answer": text, "reference": ref,
                          "language": "en"}, kind == "restated"))
    samples = [sample_from_record(r, file=None, line=None) for r, _ in recs]
    gold = [g for _, g in recs]
    print(f"== HaluEval QA dev: {len(keys)} questions (seed {seed}); reference = the right answer; "
          "candidates: right answer restated as a sentence vs the hallucinated answer")
    print(f"  {'judge':<8}{'restated':>10}{'halluc.':>10}{'ROC-AUC':>9}{'unscored':>10}{'AUC on common':>15}{'s':>7}")
    results = {}
    for name, judge in judges.items():
        t0 = time.perf_counter()
        results[name] = (correctness(samples, judge), time.perf_counter() - t0)
    common = [all(vals[i] is not None for vals, _ in results.values()) for i in range(len(samples))]
    for name, (values, secs) in results.items():
        scored = [(v, g) for v, g in zip(values, gold) if v is not None]
        both = [(v, g) for v, g, c in zip(values, gold, common) if c]
        print(f"  {name:<8}{_f(_mean([v for v, g in scored if g])):>10}{_f(_mean([v for v, g in scored if not g])):>10}"
              f"{_f(roc_auc([v for v, _ in scored], [g for _, g in scored])):>9}{len(values) - len(scored):>10}"
              f"{_f(roc_auc([v for v, _ in both], [g for _, g in both])):>11} n={len(both):<3}{secs:>5.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--halueval", type=int, default=1000, help="HaluEval QA questions to sample (0: skip)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    offline = OfflineJudge()
    judges = {"door": DoorOnly(offline), "agree": offline}
    demo(judges)
    if args.halueval:
        halueval(judges, args.halueval, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
