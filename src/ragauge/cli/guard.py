"""``ragauge guard thresholds SAMPLES``: choose the guard's thresholds from labelled samples (``guard calibrate``
is the old name of the same command, still accepted).

A thin shell over :mod:`ragauge.guard.thresholds` and :mod:`ragauge.guard.threshold_data`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(sub) -> None:
    p = sub.add_parser("guard", help="tools for the run-time guard (choosing its thresholds)",
                       description="Tools for ragauge.guard, the pipeline contract at run time.")
    gsub = p.add_subparsers(dest="guard_command", metavar="GUARD_COMMAND")
    c = gsub.add_parser(
        "thresholds", aliases=["calibrate"],
        help="choose the retrieval score threshold (and the grade thresholds) from labelled samples",
        description="Sweep the guard's retrieval score threshold over SAMPLES (contexts with the retriever's "
        "scores, labelled answerable or not) and pick it by --target; print the curve (threshold -> answered "
        "rate of answerable questions, false-answer rate of unanswerable ones), Wilson intervals of the two "
        "rates and a bootstrap interval of the threshold. Works on the retriever's own scale. With --grade, "
        "also the grade stage's relevancy and support thresholds (offline judge).",
        epilog="Targets: f1 | answered>=0.95 | false_answer<=0.05. Labels: field 'answerable', else tag "
        "'unanswerable' -> false, else relevant_ids -> true. Exit codes: 0 done, 1 the target cannot be met, "
        "2 bad input. Method: docs/guard.md.",
    )
    c.add_argument("samples", help="samples (JSONL, CSV, Parquet...) with contexts[].score and labels")
    c.add_argument("--target", default="answered>=0.95",
                   help="how to choose: f1, answered>=RATE or false_answer<=RATE (default answered>=0.95)")
    c.add_argument("--label", choices=("answerable", "retrieved_relevant"), default="answerable",
                   help="positive = the question is answerable (default), or its retrieval found a relevant id")
    c.add_argument("--skip-unlabelled", action="store_true",
                   help="leave out samples that cannot be labelled (listed in the output) instead of failing")
    c.add_argument("--grade", action="store_true",
                   help="also calibrate the grade thresholds (relevancy, support) with the offline judge, over "
                   "the contexts the chosen score threshold keeps")
    c.add_argument("--judge", default="offline", help="judge for --grade (default offline)")
    c.add_argument("--level", type=float, default=0.95, help="confidence level (default 0.95)")
    c.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples of the threshold (default 1000)")
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--curve", action="store_true", help="print every point of the curve (table format)")
    c.add_argument("--format", choices=("table", "json"), default="table")
    c.set_defaults(func=run_calibrate)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def _fmt_iv(iv: Any) -> str:
    return "n/a" if iv is None else f"[{iv.low:.4g}, {iv.high:.4g}]"


def _table(name: str, r: Any, level: float, show_curve: bool) -> str:
    p = r.point
    lines = [
        f"{name}: threshold {r.threshold:.4g}  (target {r.target}{'' if r.feasible else ', NOT MET'}; "
        f"{level * 100:g}% bootstrap {_fmt_iv(r.threshold_ci)})",
        f"  answered (answerable, n={r.n_answerable}):       {p.answered_rate:.3f} {_fmt_iv(r.answered_ci)}",
        f"  false answers (unanswerable, n={r.n_unanswerable}): {p.false_answer_rate:.3f} {_fmt_iv(r.false_answer_ci)}",
        f"  F1 {p.f1:.3f}  (TP {p.tp}, FP {p.fp}, FN {p.fn}, TN {p.tn})",
    ]
    if show_curve:
        lines.append("  threshold   answered  false_answer  f1")
        lines += [f"  {q.threshold:<10.4g}  {q.answered_rate:<8.3f}  {q.false_answer_rate:<12.3f}  {q.f1:.3f}"
                  for q in r.curve]
    return "\n".join(lines)


def run_calibrate(args: argparse.Namespace) -> int:
    from ..data import load
    from ..errors import ExitCode
    from ..guard.thresholds import calibrate_threshold, parse_target
    from ..guard.threshold_data import grade_values, retrieval_data

    target = parse_target(args.target)
    samples = load(args.samples)
    data = retrieval_data(samples, label=args.label, skip_unlabelled=args.skip_unlabelled)
    opts = {"target": target, "level": args.level, "n_resamples": args.resamples, "seed": args.seed}
    results = {"score_threshold": calibrate_threshold(data.values, data.labels, **opts)}
    if args.grade:
        from ..judges.base import get_judge

        values = grade_values(samples, data, judge=get_judge(args.judge),
                              score_threshold=results["score_threshold"].threshold)
        for name, vals in values.items():
            results[name] = calibrate_threshold(vals, data.labels, **opts)
    if args.format == "json":
        out = {name: r.to_dict() for name, r in results.items()}
        out["samples"] = {"used": len(data.ids), "skipped": list(data.skipped), "label": args.label}
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        print(f"{len(data.ids)} samples ({args.label} labels)"
              + (f"; skipped, unlabelled: {', '.join(data.skipped)}" if data.skipped else ""))
        for name, r in results.items():
            print(_table(name, r, args.level, args.curve))
    if not all(r.feasible for r in results.values()):
        print("ragauge: the target cannot be met on these samples; the closest threshold is shown", file=sys.stderr)
        return int(ExitCode.GATE_FAILED)
    return int(ExitCode.OK)

