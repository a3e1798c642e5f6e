"""How does the offline judge do on the bundled demo? Its scores against the demo's gold labels.

    python benchmarks/demo_judge.py                 # the bundled demo (src/ragauge/demo)
    python benchmarks/demo_judge.py --data FILE     # another file with the same metadata labels

Runs ``ragauge.evaluate`` with the offline judge on faithfulness, answer_correctness, answer_relevancy,
context_recall, toxicity and noise_robustness, then compares with the hand-written gold labels in each
sample's ``metadata`` (``src/ragauge/demo/README.md``):

* faithfulness: ``hallucinated`` (from the per-sample artifact) vs gold ``grounded``; which wrong answers
  were caught, which faithful ones were flagged (with the reasons of the unsupported claims); ROC-AUC of
  ``1 - faithfulness`` against "not grounded" (and against "not acceptable");
* answer_correctness: mean per gold ``answer_label``; ROC-AUC against "acceptable";
* noise_robustness: per noisy variant, against gold ``noise_robust``.

``python benchmarks/correctness.py`` compares answer_correctness with and without the offline judge's
agreement decision (and on HaluEval QA). The demo is an evaluation set: nothing here is tuned on it. The script uses whatever verifier weights
are installed (their hash is printed) and always exits 0: it reports, it does not gate.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import ragauge  # noqa: E402
from ragauge.demo import samples_path  # noqa: E402

METRICS = ["faithfulness", "answer_correctness", "answer_relevancy", "context_recall", "toxicity", "noise_robustness"]
OK_LABELS = ("faithful", "refusal_correct")
LABEL_ORDER = ("faithful", "refusal_correct", "wrong_number", "wrong_unit", "wrong_scope", "unsupported",
               "refusal_wrong", "off_topic",
               "outdated_edition", "self_contradiction", "wrong_source")


def roc_auc(scores: list[float], positives: list[bool]) -> float | None:
    """P(score of a random positive > score of a random negative), ties count half (Mann-Whitney)."""
    pos = [s for s, p in zip(scores, positives) if p]
    neg = [s for s, p in zip(scores, positives) if not p]
    if not pos or not neg:
        return None
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def fmt(x: float | None, nd: int = 3) -> str:
    return "  -  " if x is None else f"{x:.{nd}f}"


def weights_id() -> str:
    path = ROOT / "src" / "ragauge" / "judges" / "offline" / "verifier_weights.npz"
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    except OSError:
        return "not found"


def unsupported_reasons(artifact: dict | None, limit: int = 2) -> list[str]:
    if not artifact or "claims" not in artifact:
        return []
    bad = sorted((c for c in artifact["claims"] if c["verdict"] != "supported"), key=lambda c: c["probability"])
    return [f"«{c['text'][:70]}{'…' if len(c['text']) > 70 else ''}» p={c['probability']:.2f}: {c['reason']}" for c in bad[:limit]]


def short(text: str | None, n: int = 60) -> str:
    text = (text or "").replace("\n", " ")
    return text if len(text) <= n else text[: n - 1] + "…"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(samples_path()), help="samples with gold labels (default: the demo)")
    args = parser.parse_args(argv)

    res = ragauge.evaluate(args.data, metrics=METRICS, profile=None, judge="offline")
    samples = list(res.samples)
    col = res.columns
    prov = col["faithfulness"].provenance or {}
    noisy = [("noise_of" in s.metadata) for s in samples]
    print(f"Offline judge on {args.data}")
    print(f"  {len(samples)} samples ({sum(noisy)} noisy variants); judge {prov.get('model')} {prov.get('version')}, "
          f"verifier_weights.npz sha256 {weights_id()}")
    print()
    print("Summary (all samples; the noisy variants count as samples of their own)")
    for m in METRICS:
        c = col[m]
        n = sum(v is not None for v in c.values)
        print(f"  {m:<20} {fmt(res.summary[m].value)}   scored {n}/{len(samples)}")

    # ------------------------------------------------------------------------------- faithfulness
    print()
    print("== faithfulness: hallucinated (judge) vs grounded (gold) ==")
    fa = col["faithfulness"]
    table: dict[tuple[bool, str], int] = defaultdict(int)
    rows = []  # (sample, faithfulness, hallucinated or None)
    for i, s in enumerate(samples):
        grounded = bool(s.metadata.get("grounded"))
        art = fa.artifacts[i] or {}
        if fa.values[i] is None:
            verdict = "unscored"
            hall = None
        else:
            hall = bool(art.get("hallucinated", fa.values[i] < 1.0))
            verdict = "hallucinated" if hall else "not flagged"
        table[(grounded, verdict)] += 1
        rows.append((i, s, fa.values[i], hall))
    cols = ("hallucinated", "not flagged", "unscored")
    print(f"  {'gold':<14}" + "".join(f"{c:>14}" for c in cols))
    for g in (False, True):
        print(f"  {'grounded' if g else 'not grounded':<14}" + "".join(f"{table[(g, c)]:>14}" for c in cols))
    scored = [(s, f, h) for _, s, f, h in rows if f is not None]
    tp = sum(1 for s, _, h in scored if h and not s.metadata.get("grounded"))
    fn = sum(1 for s, _, h in scored if not h and not s.metadata.get("grounded"))
    fp = sum(1 for s, _, h in scored if h and s.metadata.get("grounded"))
    tn = sum(1 for s, _, h in scored if not h and s.metadata.get("grounded"))
    recall = tp / (tp + fn) if tp + fn else None
    precision = tp / (tp + fp) if tp + fp else None
    spec = tn / (tn + fp) if tn + fp else None
    print(f"  on scored samples: caught {tp}/{tp + fn} ungrounded answers (recall {fmt(recall, 2)}), "
          f"precision {fmt(precision, 2)}, {fp}/{tn + fp} grounded answers flagged (specificity {fmt(spec, 2)})")
    scores = [1.0 - f for _, f, _ in scored]
    auc_g = roc_auc(scores, [not s.metadata.get("grounded") for s, _, _ in scored])
    auc_a = roc_auc(scores, [s.metadata.get("answer_label") not in OK_LABELS for s, _, _ in scored])
    clean = [(s, f) for s, f, _ in scored if "noise_of" not in s.metadata]
    auc_gc = roc_auc([1.0 - f for _, f in clean], [not s.metadata.get("grounded") for s, _ in clean])
    print(f"  ROC-AUC of 1 - faithfulness vs not grounded: {fmt(auc_g)} (clean samples only: {fmt(auc_gc)}); "
          f"vs not acceptable: {fmt(auc_a)}")
    print()
    print("  By gold label (flagged / scored; refusals are unscored by design):")
    by_label: dict[str, list] = defaultdict(list)
    for _, s, f, h in rows:
        by_label[s.metadata.get("answer_label", "?")].append((f, h))
    for label in sorted(by_label, key=lambda x: LABEL_ORDER.index(x) if x in LABEL_ORDER else 99):
        items = by_label[label]
        sc = [(f, h) for f, h in items if f is not None]
        mean = sum(f for f, _ in sc) / len(sc) if sc else None
        print(f"    {label:<16} n={len(items):>2}  flagged {sum(bool(h) for _, h in sc)}/{len(sc)}  "
              f"mean faithfulness {fmt(mean, 2)}")

    def listing(title: str, pick) -> None:
        chosen = [(i, s, f, h) for i, s, f, h in rows if pick(s, f, h)]
        print()
        print(f"  {title}: {len(chosen)}")
        for i, s, f, h in chosen:
            m = s.metadata
            print(f"    {s.id:<10} {m.get('answer_label'):<15} faithfulness {fmt(f, 2)}  gold: {short(m.get('error_note'), 90) or 'correct'}")
            for r in unsupported_reasons(fa.artifacts[i]):
                print(f"               - {r}")

    listing("Ungrounded answers caught (hallucinated, gold not grounded)",
            lambda s, f, h: h is True and not s.metadata.get("grounded"))
    listing("Ungrounded answers missed (not flagged, gold not grounded)",
            lambda s, f, h: h is False and not s.metadata.get("grounded"))
    listing("Grounded answers flagged (false alarms; wrong-but-grounded ones included)",
            lambda s, f, h: h is True and s.metadata.get("grounded"))
    unscored_rows = [(i, s) for i, s, f, _ in rows if f is None]
    print()
    print(f"  Unscored: {len(unscored_rows)}")
    for i, s in unscored_rows:
        print(f"    {s.id:<10} {s.metadata.get('answer_label'):<15} {fa.reasons[i]}")

    # ------------------------------------------------------------------------- answer correctness
    print()
    print("== answer_correctness by gold label ==")
    ac = col["answer_correctness"]
    groups: dict[str, list[float]] = defaultdict(list)
    unscored = 0
    pairs = []
    for i, s in enumerate(samples):
        v = ac.values[i]
        if v is None:
            unscored += 1
            continue
        groups[s.metadata.get("answer_label", "?")].append(v)
        pairs.append((v, s.metadata.get("answer_label") in OK_LABELS))
    print(f"  {'label':<16}{'n':>4}{'mean':>8}{'min':>8}{'max':>8}")
    for label in sorted(groups, key=lambda x: LABEL_ORDER.index(x) if x in LABEL_ORDER else 99):
        v = groups[label]
        print(f"  {label:<16}{len(v):>4}{sum(v) / len(v):>8.3f}{min(v):>8.3f}{max(v):>8.3f}")
    ok = [v for v, a in pairs if a]
    bad = [v for v, a in pairs if not a]
    if ok and bad:
        print(f"  acceptable {sum(ok) / len(ok):.3f} vs not acceptable {sum(bad) / len(bad):.3f}; "
              f"ROC-AUC (correctness vs acceptable) {fmt(roc_auc([v for v, _ in pairs], [a for _, a in pairs]))}"
              + (f"; {unscored} unscored" if unscored else ""))
    share = sum(v >= 0.5 for v in groups.get("faithful", [])) / max(1, len(groups.get("faithful", [])))
    print(f"  faithful answers with correctness >= 0.5 (what noise_robustness needs of a clean answer): {share:.0%}")

    # --------------------------------------------------------------------------- noise robustness
    print()
    print("== noise_robustness vs gold noise_robust ==")
    nr = col["noise_robustness"]
    index = {s.id: i for i, s in enumerate(samples)}
    print(f"  {'variant':<11}{'gold':<11}{'C(clean)':>9}{'C(noisy)':>9}{'score':>8}  note")
    by_gold: dict[bool, list[float]] = defaultdict(list)
    n_var = 0
    for i, s in enumerate(samples):
        if "noise_of" not in s.metadata:
            continue
        n_var += 1
        gold = bool(s.metadata.get("noise_robust"))
        j = index.get(str(s.metadata["noise_of"]))
        cc = ac.values[j] if j is not None else None
        cn = ac.values[i]
        v = nr.values[i]
        if v is not None:
            by_gold[gold].append(v)
        note = nr.reasons[i] or ""
        if not gold:
            note = (note + "; " if note else "") + f"gold: {short(s.metadata.get('error_note'), 60)}"
        print(f"  {s.id:<11}{'robust' if gold else 'distracted':<11}{fmt(cc, 2):>9}{fmt(cn, 2):>9}{fmt(v, 2):>8}  {note}")
    n_scored = sum(len(v) for v in by_gold.values())
    print(f"  scored {n_scored}/{n_var}; mean score on robust variants {fmt(_mean(by_gold[True]), 2)} "
          f"(n={len(by_gold[True])}), on distracted ones {fmt(_mean(by_gold[False]), 2)} (n={len(by_gold[False])})")
    flagged = [v < 1.0 for v in by_gold[True] + by_gold[False]]
    gold_bad = [False] * len(by_gold[True]) + [True] * len(by_gold[False])
    if n_scored:
        hits = sum(f and g for f, g in zip(flagged, gold_bad))
        fas = sum(f and not g for f, g in zip(flagged, gold_bad))
        print(f"  score < 1 on {hits}/{len(by_gold[False])} scored distracted variants and {fas}/{len(by_gold[True])} scored robust ones")
    return 0


def _mean(v: list[float]) -> float | None:
    return sum(v) / len(v) if v else None


if __name__ == "__main__":
    sys.exit(main())
