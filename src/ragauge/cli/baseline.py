"""``ragauge baseline save RESULTS_OR_DIR [--to FILE]`` and ``ragauge baseline show [FILE]``.

A baseline is a results.json kept in the repository (default ``ragauge-baseline.json``) that later runs
are compared with (``ragauge eval --baseline``, ``pytest --ragauge-baseline``): paired by sample id,
non-inferiority on the gated metrics. ``save`` checks that the file is a readable results document
(the same reader as ``--baseline``) and copies it; ``show`` prints what it holds.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

DEFAULT = "ragauge-baseline.json"


def register(sub) -> None:
    p = sub.add_parser(
        "baseline",
        help="store a run as the baseline that later runs must not fall behind, or show it",
        description="Manage the baseline results file kept in the repository (default ragauge-baseline.json). "
        "Later runs compare with it: `ragauge eval DATA --baseline ragauge-baseline.json` or "
        "`pytest --ragauge-baseline ragauge-baseline.json`.",
        epilog="Exit codes: 0 done, 2 unreadable or invalid results file, or a baseline file that cannot be "
        "written (the old one is then kept as it was).",
    )
    sub2 = p.add_subparsers(dest="baseline_command", metavar="ACTION")
    save = sub2.add_parser("save", help="copy a run's results.json to the baseline file",
                           description="Check RESULTS_OR_DIR (a results.json or the folder `ragauge eval` / "
                           "`pytest --ragauge-out` wrote it to) and store it as the baseline.")
    save.add_argument("results", metavar="RESULTS_OR_DIR", help="results.json, or its folder")
    save.add_argument("--to", default=DEFAULT, help=f"baseline file to write (default {DEFAULT})")
    save.set_defaults(func=run_save)
    show = sub2.add_parser("show", help="print what a baseline file holds")
    show.add_argument("file", nargs="?", default=DEFAULT, help=f"baseline file (default {DEFAULT})")
    show.add_argument("--format", choices=("text", "json"), default="text", help="output format (default text)")
    show.set_defaults(func=run_show)
    p.set_defaults(func=lambda args: _usage(p))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _summary(doc: dict, name: str) -> dict:
    src = doc.get("source") or {}
    prof = doc.get("profile") or {}
    return {
        "file": name,
        "created_at": doc.get("created_at"),
        "ragauge_version": doc.get("ragauge_version"),
        "source": src.get("path"),
        "n_samples": src.get("n_samples", len(doc.get("samples") or [])),
        "profile": prof.get("name"),
        "passed": doc.get("passed"),
        "metrics": {m: e.get("value") for m, e in (doc.get("summary") or {}).items()},
    }


def _check(doc: dict, name: str) -> None:
    from ..errors import InputError

    if doc.get("samples_in") == "shards":
        raise InputError("this run's per-sample scores are in its Parquet shards, not in results.json", file=name,
                         field="samples_in", hint="use it as a baseline directly (ragauge eval --baseline "
                         "RUN_FOLDER; compare reads the shards), or save a run made without --shards")
    samples = doc.get("samples")
    if not isinstance(samples, list) or not samples or not isinstance(doc.get("summary"), dict):
        raise InputError("not a results document with per-sample scores (no 'samples' / 'summary')", file=name,
                         hint="pass the results.json written by `ragauge eval` or `pytest --ragauge-out`")
    from ..stats.runs import run_scores

    run_scores(doc, source=name)  # the checks every later reader applies: a baseline no run could read is refused now


def run_save(args: argparse.Namespace) -> int:
    from ..engine.results import read_results
    from ..files import write_text_atomically

    doc, name = read_results(args.results)
    _check(doc, name)
    target = Path(args.to)
    # replaced whole or kept: a full disk raises OutputError (exit 2) naming the file, the old baseline stays
    write_text_atomically(target, json.dumps(doc, ensure_ascii=False, indent=2, allow_nan=False) + "\n")
    info = _summary(doc, str(target))
    print(f"baseline saved: {target} ({info['n_samples']} samples, {len(info['metrics'])} metrics, "
          f"profile {info['profile'] or 'none'}, from {name})")
    print(f"compare with it: pytest --ragauge-baseline {target}   or   ragauge eval DATA --baseline {target}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    from ..engine.results import read_results
    from ..report.common import fmt_value

    doc, name = read_results(args.file)
    _check(doc, name)
    info = _summary(doc, name)
    if args.format == "json":
        print(json.dumps(info, ensure_ascii=False, indent=2))
        return 0
    units = {m.get("name"): m.get("unit") for m in doc.get("metrics") or []}
    print(f"baseline {name}: {info['n_samples']} samples from {info['source'] or '?'}, created {info['created_at']} "
          f"by ragauge {info['ragauge_version']}, profile {info['profile'] or 'none'}, "
          f"gates {'passed' if info['passed'] else 'failed'}")
    width = max((len(m) for m in info["metrics"]), default=0)
    for m, v in info["metrics"].items():
        print(f"  {m.ljust(width)}  {fmt_value(v, units.get(m))}")
    return 0
