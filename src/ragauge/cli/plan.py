"""``ragauge plan``: how many questions are needed, computed next to the seeds' rules of thumb."""

from __future__ import annotations

import argparse
import json
import math


def register(sub) -> None:
    p = sub.add_parser(
        "plan",
        help="sample-size planning: questions needed for a CI half-width or to detect a difference",
        description="Compute the number of questions needed (a) for a CI of a given half-width on one metric "
        "(from an SD, or a binary pass rate), and (b) to detect a given difference between two versions with "
        "a given power (paired). With --pilot, the SD (and the pass rate of a 0/1 metric) come from a pilot "
        "results.json. Prints the seeds' rules of thumb and when they hold. Formulas: docs/statistics.md.",
    )
    p.add_argument("--pilot", help="results.json of a pilot run to take the SD from")
    p.add_argument("--metric", help="metric of the pilot run (required with --pilot)")
    p.add_argument("--half-width", type=float, default=0.05, help="target CI half-width (default 0.05)")
    p.add_argument("--sd", type=float, default=None,
                   help="per-question SD of the metric (default 0.15, or the pilot's)")
    p.add_argument("--pass-rate", type=float, default=None,
                   help="expected pass rate of a binary metric (default 0.8, or the pilot's for a 0/1 metric)")
    p.add_argument("--difference", type=float, default=0.05, help="difference to detect (default 0.05)")
    p.add_argument("--sd-diff", type=float, default=None,
                   help="SD of per-question differences between versions (default: from --sd and --correlation)")
    p.add_argument("--correlation", type=float, default=0.5,
                   help="assumed correlation of the two versions' scores on a question (default 0.5: sd_diff = sd)")
    p.add_argument("--power", type=float, default=0.8, help="power to detect the difference (default 0.8)")
    p.add_argument("--alpha", type=float, default=0.05, help="two-sided significance level (default 0.05)")
    p.add_argument("--level", type=float, default=0.95, help="confidence level of the CI (default 0.95)")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(func=run)


def _pilot(args: argparse.Namespace) -> dict:
    from ..errors import InputError
    from ..stats.runs import run_scores
    from .compare import load_results

    if not args.metric:
        raise InputError("--pilot needs --metric", field="--metric", hint="e.g. --metric faithfulness")
    scores = run_scores(load_results(args.pilot), source=args.pilot)
    if args.metric not in scores.scores:
        raise InputError(f"metric '{args.metric}' is not in the pilot run", file=args.pilot, field="--metric",
                         hint=f"metrics in it: {', '.join(scores.scores) or 'none'}")
    values = [v for v in scores.scores[args.metric].values() if v is not None]
    if len(values) < 2:
        raise InputError(f"the pilot run has {len(values)} scored value(s) of '{args.metric}'; at least 2 needed",
                         file=args.pilot, field=args.metric)
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    binary = all(v in (0.0, 1.0) for v in values)
    return {"path": args.pilot, "metric": args.metric, "n": len(values), "mean": mean, "sd": sd, "binary": binary}


def _check(args: argparse.Namespace) -> None:
    from ..errors import InputError

    for name in ("alpha", "power", "level"):
        v = getattr(args, name)
        if not 0 < v < 1:
            raise InputError(f"--{name} must be between 0 and 1", field=f"--{name}", value=v)
    for name in ("half_width", "difference", "sd", "sd_diff"):
        v = getattr(args, name)
        if v is not None and not v > 0:
            raise InputError(f"--{name.replace('_', '-')} must be positive", field=f"--{name.replace('_', '-')}", value=v)
    if args.pass_rate is not None and not 0 <= args.pass_rate <= 1:
        raise InputError("--pass-rate must be between 0 and 1", field="--pass-rate", value=args.pass_rate)
    if not -1 <= args.correlation <= 1:
        raise InputError("--correlation must be between -1 and 1", field="--correlation", value=args.correlation)


def build_plan(args: argparse.Namespace) -> dict:
    """The plan as plain data: assumptions, computed n for each question, the rules of thumb."""
    from ..stats import power as pw

    _check(args)
    pilot = _pilot(args) if args.pilot else None
    sd = args.sd if args.sd is not None else (pilot["sd"] if pilot else 0.15)
    sd_source = "--sd" if args.sd is not None else ("pilot" if pilot else "assumed")
    pass_rate = args.pass_rate
    if pass_rate is None:
        pass_rate = pilot["mean"] if pilot and pilot["binary"] else 0.8
    if sd == 0:
        from ..errors import InputError

        raise InputError("the pilot's scores have no spread (SD 0): nothing to plan from", field=args.metric,
                         hint="give --sd explicitly")
    plans = [pw.n_for_half_width(sd, args.half_width, level=args.level),
             pw.n_for_proportion(pass_rate, args.half_width, level=args.level)]
    if args.sd_diff is not None:
        plans.append(pw.n_for_difference(args.difference, args.sd_diff, alpha=args.alpha, power=args.power))
    else:
        plans.append(pw.n_for_difference(args.difference, sd=sd, correlation=args.correlation,
                                         alpha=args.alpha, power=args.power))
    return {
        "pilot": pilot,
        "assumptions": {"sd": sd, "sd_source": sd_source, "pass_rate": pass_rate, "level": args.level,
                        "alpha": args.alpha, "power": args.power, "correlation": args.correlation},
        "plans": [p.to_dict() for p in plans],
        "rules_of_thumb": [r.to_dict() for r in pw.rules_of_thumb(level=args.level, alpha=args.alpha, power=args.power)],
    }


def run(args: argparse.Namespace) -> int:
    plan = build_plan(args)
    if args.format == "json":
        print(json.dumps(plan, indent=2, ensure_ascii=False))
        return 0
    a = plan["assumptions"]
    lines = []
    if plan["pilot"]:
        pl = plan["pilot"]
        lines.append(f"pilot {pl['path']}: {pl['metric']} mean {pl['mean']:.4g}, SD {pl['sd']:.4g} over "
                     f"n = {pl['n']}{' (binary)' if pl['binary'] else ''}")
    lines.append(f"assumptions: SD {a['sd']:.4g} ({a['sd_source']}), pass rate {a['pass_rate']:.3g}, "
                 f"CI level {a['level']:g}, alpha {a['alpha']:g}, power {a['power']:g}")
    lines.append("")
    for p in plan["plans"]:
        inputs = ", ".join(f"{k} {v:.4g}" for k, v in p["inputs"].items() if isinstance(v, (int, float)))
        achieved = ", ".join(f"{k} {v:.4g}" for k, v in p["achieved"].items())
        lines.append(f"  n = {p['n']:>6}  {p['goal']}")
        lines.append(f"             {p['method']}; {inputs}; achieved {achieved}")
    lines += ["", "rules of thumb (seeds), and when they hold:"]
    for r in plan["rules_of_thumb"]:
        lines.append(f"  - \"{r['rule']}\": computed n = {r['check']['n']}; holds {r['holds_when']}")
    print("\n".join(lines))
    return 0
