"""The offline judge measured through the product path on the hand-written Russian dev set (issue 13).

    python benchmarks/ru_judge.py                      # run `ragauge eval` on both files, print the table
    python benchmarks/ru_judge.py --json OUT.json      # ... and write the numbers
    python benchmarks/ru_judge.py --results DIR        # re-read an earlier run's results.json, no new run
    python benchmarks/ru_judge.py --speed 200          # only: samples/s of faithfulness + relevancy, 5 x ~150 words

Runs the CLI (``python -m ragauge eval FILE --judge offline --profile none --metrics
faithfulness,answer_relevancy,answer_correctness``) in a subprocess on ``benchmarks/data/ru_judge/part_*.jsonl``
(concatenated into one temporary file, so the models load once), reads its ``results.json`` and compares
the scores with the labels in each sample's ``metadata`` (domain, split, relevancy, faithful, correct).
Per split (dev / heldout / all) and per domain:

* faithfulness: ROC-AUC of ``1 - faithfulness`` against "not faithful" on the scored samples; the
  unscored samples are counted (with their reasons) and, in a second AUC, count as flagged (score 1);
* answer_relevancy: ROC-AUC of the score, ``direct`` (faithful or not) against ``off_topic + evasive``
  (the issue's target is >= 0.95) and against ``off_topic + evasive + refusal``; mean score per label;
* answer_correctness: ROC-AUC against ``correct``;
* context_answerability: ROC-AUC of the score against ``answerable`` (the contexts hold the answer);
* speed: samples per second of the whole CLI run (model loading included).

ROC-AUC is the Mann-Whitney statistic from ranks, ties averaged (numpy only). Nothing here gates: the
script exits 0 whatever the numbers (2 only on bad arguments), and skips cleanly when the files are absent.
The ``dev`` split is what calibrations may be fitted on; ``heldout`` is for reporting only.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "benchmarks" / "data" / "ru_judge"
FILES = ("part_a.jsonl", "part_b.jsonl", "part_c.jsonl")
METRICS = ("faithfulness", "answer_relevancy", "answer_correctness", "context_answerability")
LABELS = ("direct", "partial", "off_topic", "evasive", "refusal")


def roc_auc(scores, positives) -> float | None:
    """P(a random positive outranks a random negative), ties half: (R+ - n+(n+ + 1)/2) / (n+ n-).

    Ranks are 1-based with ties given their average rank. None when a class is empty.

    >>> roc_auc([0.1, 0.4, 0.4, 0.8], [False, False, True, True])
    0.875
    """
    s = np.asarray(scores, dtype=float)
    y = np.asarray(positives, dtype=bool)
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    if n_pos == 0 or n_neg == 0:
        return None
    _, inverse, counts = np.unique(s, return_inverse=True, return_counts=True)
    upper = np.cumsum(counts)  # rank of the last member of each tie group
    avg_rank = upper - (counts - 1) / 2.0
    ranks = avg_rank[inverse]
    return float((ranks[y].sum() - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg))


def load_labelled(paths: list[Path]) -> list[dict]:
    rows = []
    for path in paths:
        with path.open(encoding="utf-8") as fh:
            for number, line in enumerate(fh, 1):
                if line.strip():
                    row = json.loads(line)
                    row["_file"], row["_line"] = path.name, number
                    rows.append(row)
    return rows


def run_cli(paths: list[Path], out_dir: Path) -> tuple[Path, float, int]:
    """Concatenate ``paths`` into one JSONL, run ``ragauge eval`` on it; (results.json, seconds, returncode)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    joined = out_dir / "ru_judge_input.jsonl"
    joined.write_text("".join(p.read_text(encoding="utf-8").rstrip("\n") + "\n" for p in paths), encoding="utf-8")
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    cmd = [sys.executable, "-m", "ragauge", "eval", str(joined), "--judge", "offline", "--profile", "none",
           "--metrics", ",".join(METRICS), "--out", str(out_dir / "report"), "--quiet"]
    start = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout[-2000:] + proc.stderr[-4000:])
    return out_dir / "report" / "results.json", seconds, proc.returncode


def _mean(xs) -> float | None:
    return float(np.mean(xs)) if len(xs) else None


def group_numbers(items: list[tuple[dict, dict]]) -> dict:
    """The numbers of one group of (label metadata, result sample) pairs."""
    out: dict = {"n": len(items)}
    # faithfulness
    fa = [(m, s["scores"].get("faithfulness"), s.get("unscored", {}).get("faithfulness")) for m, s in items]
    scored = [(m, v) for m, v, _ in fa if v is not None]
    unscored = [(m, r) for m, v, r in fa if v is None]
    out["faithfulness"] = {
        "auc_scored": roc_auc([1 - v for _, v in scored], [not m["faithful"] for m, _ in scored]),
        "auc_unscored_flagged": roc_auc([1.0 if v is None else 1 - v for _, v, _ in fa],
                                        [not m["faithful"] for m, _, _ in fa]),
        "n_scored": len(scored), "n_unscored": len(unscored),
        "unscored_not_faithful": sum(1 for m, _ in unscored if not m["faithful"]),
        "unscored_reasons": dict(Counter(str(r) for _, r in unscored).most_common()),
    }
    # answer relevancy
    rel = [(m["relevancy"], s["scores"].get("answer_relevancy")) for m, s in items]
    rs = [(lab, v) for lab, v in rel if v is not None]
    bad2 = ("off_topic", "evasive")
    bad3 = bad2 + ("refusal",)
    sel2 = [(lab, v) for lab, v in rs if lab == "direct" or lab in bad2]
    sel3 = [(lab, v) for lab, v in rs if lab == "direct" or lab in bad3]
    out["answer_relevancy"] = {
        "auc_direct_vs_offtopic_evasive": roc_auc([v for _, v in sel2], [lab == "direct" for lab, _ in sel2]),
        "auc_direct_vs_offtopic_evasive_refusal": roc_auc([v for _, v in sel3], [lab == "direct" for lab, _ in sel3]),
        "mean_by_label": {lab: _mean([v for x, v in rs if x == lab]) for lab in LABELS},
        "n_by_label": {lab: sum(1 for x, _ in rs if x == lab) for lab in LABELS},
        "share_ge_0.8_offtopic_evasive": _mean([v >= 0.8 for lab, v in rs if lab in bad2]),
        "n_unscored": sum(1 for _, v in rel if v is None),
    }
    # answer correctness
    co = [(m["correct"], s["scores"].get("answer_correctness")) for m, s in items]
    cs = [(c, v) for c, v in co if v is not None]
    out["answer_correctness"] = {
        "auc": roc_auc([v for _, v in cs], [bool(c) for c, _ in cs]),
        "n_unscored": len(co) - len(cs),
    }
    an = [(bool(m.get("answerable", True)), s["scores"].get("context_answerability")) for m, s in items]
    ans = [(a, v) for a, v in an if v is not None]
    out["context_answerability"] = {
        "auc": roc_auc([v for _, v in ans], [a for a, _ in ans]),
        "n_unanswerable": sum(1 for a, _ in ans if not a), "n_unscored": len(an) - len(ans),
    }
    return out


def relevancy_label_of(sample: dict) -> str | None:
    art = (sample.get("artifacts") or {}).get("answer_relevancy") or {}
    return art.get("label") or ("refusal" if art.get("refusal") else None)


def fmt(x, nd: int = 3) -> str:
    return "  -  " if x is None else f"{x:.{nd}f}"


def print_table(report: dict) -> None:
    print(f"{'group':<16}{'n':>5} | {'faith AUC':>9}{'+unsc':>7}{'unsc':>5} | {'rel d/oe':>8}{'d/oer':>7}"
          f"{'oe>=.8':>7} | {'corr AUC':>8} | {'answ AUC':>8}{'unans':>6}")
    for name, g in report["groups"].items():
        fa, ar, ac = g["faithfulness"], g["answer_relevancy"], g["answer_correctness"]
        print(f"{name:<16}{g['n']:>5} | {fmt(fa['auc_scored']):>9}{fmt(fa['auc_unscored_flagged']):>7}"
              f"{fa['n_unscored']:>5} | {fmt(ar['auc_direct_vs_offtopic_evasive']):>8}"
              f"{fmt(ar['auc_direct_vs_offtopic_evasive_refusal']):>7}{fmt(ar['share_ge_0.8_offtopic_evasive'], 2):>7}"
              f" | {fmt(ac['auc']):>8} | {fmt(g['context_answerability']['auc']):>8}"
              f"{g['context_answerability']['n_unanswerable']:>6}")
    print()
    print("mean answer_relevancy per label (n)")
    print(f"{'group':<16}" + "".join(f"{lab:>16}" for lab in LABELS))
    for name in ("dev", "heldout", "all"):
        ar = report["groups"][name]["answer_relevancy"]
        print(f"{name:<16}" + "".join(f"{fmt(ar['mean_by_label'][lab]):>10} ({ar['n_by_label'][lab]:>3})" for lab in LABELS))
    print()
    fa = report["groups"]["all"]["faithfulness"]
    print(f"faithfulness unscored: {fa['n_unscored']} of {report['groups']['all']['n']} "
          f"({fa['unscored_not_faithful']} labelled not faithful); reasons: {fa['unscored_reasons']}")
    if report.get("relevancy_labels"):
        print(f"answer_relevancy artifact label vs gold (rows gold, columns judge): {report['relevancy_labels']}")
    sp = report.get("speed")
    if sp:
        print(f"speed: {sp['n']} samples in {sp['seconds']:.1f} s = {sp['samples_per_s']:.2f} samples/s "
              f"(whole CLI run, {', '.join(METRICS)}, model loading included)")


def worst(pairs: list[tuple[dict, dict]], limit: int) -> None:
    """The relevancy errors of the dev split (the held-out split is for reporting only, never read case by
    case): the lowest direct answers and the highest off-topic/evasive ones."""
    rel = [(m, s, s["scores"].get("answer_relevancy")) for m, s in pairs if m["split"] == "dev"]
    rel = [x for x in rel if x[2] is not None]
    low = sorted((x for x in rel if x[0]["relevancy"] == "direct"), key=lambda x: x[2])[:limit]
    high = sorted((x for x in rel if x[0]["relevancy"] in ("off_topic", "evasive")), key=lambda x: -x[2])[:limit]
    for title, chosen in (("lowest direct answers", low), ("highest off-topic/evasive answers", high)):
        print(f"\n{title}:")
        for m, s, v in chosen:
            art = (s.get("artifacts") or {}).get("answer_relevancy") or {}
            extra = {k: art[k] for k in ("intent", "value_found", "label", "subject_overlap") if k in art}
            print(f"  {s['id']:<14}{m['split']:<8}{m['relevancy']:<10}{v:.3f} {extra}  Q: {s['question'][:70]} | "
                  f"A: {s['answer'][:90]}")


def _words(text: str, n: int) -> str:
    return " ".join(text.split()[:n])


def speed_check(rows: list[dict], n: int, out_dir: Path) -> dict:
    """Samples/s of faithfulness + answer_relevancy (``ragauge.evaluate``, offline judge, models already
    loaded by a warm-up run on other samples) on ``n`` samples with 5 contexts of ~150 words each (the
    set's own contexts of the same domain, cut or joined to length)."""
    sys.path.insert(0, str(ROOT / "src"))
    import ragauge

    by_domain: dict[str, list[str]] = defaultdict(list)
    for r in rows:
        for c in r["contexts"]:
            text = c["text"] if isinstance(c, dict) else str(c)
            if text not in by_domain[r["metadata"]["domain"]]:
                by_domain[r["metadata"]["domain"]].append(text)

    def sample(r: dict, k: int) -> dict:
        pool = by_domain[r["metadata"]["domain"]]
        own = [c["text"] if isinstance(c, dict) else str(c) for c in r["contexts"]]
        texts = own + [t for t in pool if t not in own]
        ctx = []
        for j in range(5):
            joined = " ".join(texts[(j + m) % len(texts)] for m in range(3))
            ctx.append({"id": f"c{j}", "text": _words(joined, 150)})
        return {"id": f"speed-{k}", "question": r["question"], "answer": r["answer"], "contexts": ctx}

    warm, timed = rows[:10], rows[10:10 + n]
    paths = []
    for name, chosen in (("warm", warm), ("timed", timed)):
        path = out_dir / f"speed_{name}.jsonl"
        path.write_text("".join(json.dumps(sample(r, k), ensure_ascii=False) + "\n" for k, r in enumerate(chosen)),
                        encoding="utf-8")
        paths.append(path)
    metrics = ["faithfulness", "answer_relevancy"]
    # the warm-up also loads the toxicity model, which relevancy loads only when an answer misses the asked value:
    # its load (~1.5 CPU s) must not fall inside the timed run
    ragauge.evaluate(str(paths[0]), metrics=metrics + ["toxicity"], profile=None, judge="offline")
    start, cpu = time.perf_counter(), time.process_time()
    ragauge.evaluate(str(paths[1]), metrics=metrics, profile=None, judge="offline")
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {"n": len(timed), "seconds": round(seconds, 2), "samples_per_s": round(len(timed) / seconds, 2),
            "cpu_ms_per_sample": round(1000 * cpu / len(timed), 1),
            "metrics": metrics, "contexts": "5 x ~150 words", "models": "loaded (warm-up run first)"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", nargs="*", default=None, help="labelled JSONL files (default: benchmarks/data/ru_judge/part_*.jsonl)")
    ap.add_argument("--results", default=None, help="an earlier run's results.json (or its folder): no new run")
    ap.add_argument("--out", default=None, help="folder for the run (default: a temporary folder)")
    ap.add_argument("--json", default=None, metavar="OUT", help="write the numbers to this JSON file")
    ap.add_argument("--show", type=int, default=0, metavar="N", help="list the N worst relevancy errors each way")
    ap.add_argument("--speed", type=int, default=0, metavar="N",
                    help="only time faithfulness + answer_relevancy on N samples with 5 contexts x ~150 words")
    args = ap.parse_args(argv)

    paths = [Path(p) for p in args.data] if args.data else [DATA / f for f in FILES]
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        print(f"ru_judge: skipped, data file(s) not found: {', '.join(missing)}")
        return 0
    labelled = load_labelled(paths)
    meta = {r["id"]: r["metadata"] for r in labelled}
    if args.speed:
        with tempfile.TemporaryDirectory(prefix="ru_judge_speed_") as tmp:
            sp = speed_check(labelled, args.speed, Path(tmp))
        print(f"speed: {sp['n']} samples, {sp['contexts']} contexts, {', '.join(sp['metrics'])}: {sp['seconds']:.1f} s "
              f"= {sp['samples_per_s']:.1f} samples/s, {sp['cpu_ms_per_sample']:.1f} CPU ms a sample ({sp['models']})")
        if args.json:
            sys.path.insert(0, str(ROOT / "src"))
            from ragauge.files import write_text_atomically

            write_text_atomically(args.json, json.dumps({"speed": sp}, indent=2) + "\n")
        return 0

    speed = None
    if args.results:
        results_path = Path(args.results)
        if results_path.is_dir():
            results_path = results_path / "results.json"
    else:
        tmp = None if args.out else tempfile.TemporaryDirectory(prefix="ru_judge_")
        out_dir = Path(args.out) if args.out else Path(tmp.name)
        results_path, seconds, rc = run_cli(paths, out_dir)
        if rc not in (0, 1):
            print(f"ru_judge: `ragauge eval` exited {rc}; no numbers (its output is above)")
            return 0
        speed = {"n": len(labelled), "seconds": round(seconds, 2), "samples_per_s": round(len(labelled) / seconds, 3)}
    doc = json.loads(Path(results_path).read_text(encoding="utf-8"))
    samples = [s for s in doc["samples"] if s["id"] in meta]
    pairs = [(meta[s["id"]], s) for s in samples]

    groups: dict[str, list] = {"dev": [], "heldout": [], "all": []}
    by_domain: dict[str, list] = defaultdict(list)
    for m, s in pairs:
        groups[m["split"]].append((m, s))
        groups["all"].append((m, s))
        by_domain[m["domain"]].append((m, s))
    for d in sorted(by_domain):
        groups[f"domain:{d}"] = by_domain[d]
    report = {
        "data": [str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else str(p) for p in paths],
        "results": str(results_path) if args.results else None,
        "judge": (doc.get("summary", {}).get("faithfulness", {}) or {}).get("judge"),
        "speed": speed,
        "groups": {name: group_numbers(items) for name, items in groups.items()},
    }
    confusion: dict[str, Counter] = defaultdict(Counter)
    for m, s in pairs:
        lab = relevancy_label_of(s)
        if lab is not None:
            confusion[m["relevancy"]][lab] += 1
    report["relevancy_labels"] = {k: dict(v) for k, v in confusion.items()} or None
    print_table(report)
    if args.show:
        worst(pairs, args.show)
    if args.json:
        sys.path.insert(0, str(ROOT / "src"))
        from ragauge.files import write_text_atomically

        write_text_atomically(args.json, json.dumps(report, ensure_ascii=False, indent=2) + "\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
