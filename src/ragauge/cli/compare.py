"""``ragauge compare BASE NEW``: paired comparison of two results.json files, metric by metric.

Exit codes: 0 when no metric is significantly worse (after Holm), 1 when at least one is (a regression
fails CI like a gate; ``--exit-zero`` reports only), 2 on bad input (different id sets without
``--intersection``, unknown metric, unreadable file, the missing shards of a ``--shards`` run).
A run written with ``--shards`` keeps its per-sample scores in its Parquet shards: they are read from there.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Callable


def register(sub) -> None:
    p = sub.add_parser(
        "compare",
        help="compare two runs (paired by sample id): difference, CI, p-value, effect size, verdict",
        description="Pair the samples of two results.json files by id and, for every metric in both, report "
        "the difference NEW - BASE, the p-value of the paired sign-flip permutation test and its CI (the same test "
        "inverted: the differences it does not reject, so the CI excludes 0 exactly when p <= 1 - level; Wilcoxon "
        "beside it), Cohen's d_z, the verdict better / worse / no detectable difference (Holm-corrected across "
        "metrics, respecting higher-is-better) and the minimum detectable effect at this n. Percentile metrics "
        "(latency_p95) take the CI and the p-value from one paired bootstrap.",
        epilog="Exit codes: 0 no metric significantly worse, 1 at least one metric significantly worse "
        "(unless --exit-zero), 2 bad input. See docs/statistics.md.",
    )
    p.add_argument("base", help="results.json of the baseline run")
    p.add_argument("new", help="results.json of the new run")
    p.add_argument("--metrics", nargs="+", metavar="METRIC", help="metrics to compare (default: all in both runs)")
    p.add_argument("--intersection", action="store_true",
                   help="compare on the ids present in both runs instead of refusing different id sets")
    p.add_argument("--format", choices=sorted(FORMATS), default="table", help="output format (default table)")
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap and permutations (default 0)")
    p.add_argument("--alpha", type=float, default=0.05, help="significance level, Holm-corrected (default 0.05)")
    p.add_argument("--level", type=float, default=0.95, help="confidence level of the CIs (default 0.95)")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when a metric is significantly worse")
    p.set_defaults(func=run)


def load_results(path: str) -> dict[str, Any]:
    """Read a results.json file (or its folder) with a clear error: :func:`ragauge.engine.results.read_results`."""
    from ..engine.results import read_results

    return read_results(path)[0]


def _check_options(args: argparse.Namespace) -> None:
    from ..errors import InputError

    if not 0 < args.alpha < 1:
        raise InputError("--alpha must be between 0 and 1", field="--alpha", value=args.alpha)
    if not 0 < args.level < 1:
        raise InputError("--level must be between 0 and 1", field="--level", value=args.level)


def load_scores(path: str) -> Any:
    """The per-sample scores of a results.json (or its folder); a ``--shards`` run's come from its shards."""
    from ..engine.baseline import read_run_scores
    from ..engine.results import read_results

    doc, name = read_results(path)
    return read_run_scores(doc, source=path, results_file=name)


def run(args: argparse.Namespace) -> int:
    from ..stats.runs import compare_runs

    _check_options(args)
    base = load_scores(args.base)
    new = load_scores(args.new)
    result = compare_runs(base, new, metrics=args.metrics, allow_intersection=args.intersection,
                          alpha=args.alpha, level=args.level, seed=args.seed)
    print(FORMATS[args.format](result))
    return 1 if result.any_worse and not args.exit_zero else 0


# --- formats ---------------------------------------------------------------------------------------


def _num(x: float | None, sign: bool = False) -> str:
    if x is None:
        return "-"
    spec = ".3f" if abs(x) < 10 else ".4g"  # scores on 0-1 read best with 3 decimals; latencies as they are
    return format(x, ("+" if sign else "") + spec)


def _p(x: float | None) -> str:
    return "-" if x is None else ("<0.001" if x < 0.001 else f"{x:.3f}")


def _rows(result) -> list[list[str]]:
    rows = []
    for r in result.metrics:
        ci = f"[{_num(r.ci.low, True)}, {_num(r.ci.high, True)}]" if r.ci else "-"
        dropped = sum(r.dropped.values()) - r.dropped.get("only_base", 0) - r.dropped.get("only_new", 0)
        rows.append([r.metric, str(r.n) + (f" (-{dropped})" if dropped else ""), _num(r.base_value),
                     _num(r.new_value), _num(r.difference, True), ci, _p(r.p_value), _p(r.p_adjusted),
                     _num(r.effect_size_dz, True), _num(r.mde), r.verdict])
    return rows


_HEAD = ["metric", "n", "base", "new", "diff", "CI", "p", "p (Holm)", "d_z", "MDE", "verdict"]


def _footer(result) -> list[str]:
    lines = []
    if result.only_base or result.only_new:
        lines.append(f"intersection: {result.n_common} common ids; dropped {result.only_base} only in base, "
                     f"{result.only_new} only in new")
    methods = sorted({r.p_method for r in result.metrics if r.p_method != "none"})
    cis = sorted({r.ci.method for r in result.metrics if r.ci})
    lines.append(f"diff = new - base; CI {result.level:.0%} {', '.join(cis) or '-'}; p: {'; '.join(methods) or '-'}; "
                 f"Holm across {len(result.metrics)} metric(s) at alpha {result.alpha:g}; seed {result.seed}")
    lines.append("CI and p of a metric come from one test (the CI is the set of differences that test does not "
                 "reject), so they agree; the verdict uses the Holm-adjusted p, and a sentence above says so "
                 "where that makes them differ")
    lines.append("n (-k): k pairs dropped because a run left the sample unscored; MDE: smallest true difference "
                 "detected with power 0.8 at this n")
    return lines


def _run(path: str, app: str | None) -> str:
    """A compared run: its file, and the system it evaluated when results.json says (``app``)."""
    from ..report.escape import terminal_text

    return f"{path} ({terminal_text(app)})" if app else path


def _run_md(path: str, app: str | None) -> str:
    from ..report.escape import md_text

    return f"`{path}`" + (f" ({md_text(app)})" if app else "")


def format_table(result) -> str:
    rows = [_HEAD, *_rows(result)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(_HEAD))]
    lines = [f"compare {_run(result.base, result.base_app)} -> {_run(result.new, result.new_app)}"]
    for k, r in enumerate(rows):
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines += ["", *(r.reason for r in result.metrics), "", *_footer(result)]
    return "\n".join(lines)


_ICON = {"better": "better", "worse": "**worse**", "no detectable difference": "no detectable difference",
         "too few pairs": "too few pairs"}


def format_markdown(result) -> str:
    worse = [r.metric for r in result.metrics if r.verdict == "worse"]
    better = [r.metric for r in result.metrics if r.verdict == "better"]
    summary = (f"**{len(worse)} worse** ({', '.join(worse)})" if worse else "no metric significantly worse")
    if better:
        summary += f"; better: {', '.join(better)}"
    lines = [f"### ragauge compare: {summary}", "",
             f"{_run_md(result.base, result.base_app)} → {_run_md(result.new, result.new_app)}", "",
             "| " + " | ".join(_HEAD) + " |", "|" + "---|" * len(_HEAD)]
    for row in _rows(result):
        row[-1] = _ICON.get(row[-1], row[-1])
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |")
    lines += ["", *(f"<sub>{line}</sub>  " for line in _footer(result))]
    return "\n".join(lines)


def format_json(result) -> str:
    return json.dumps(result.to_dict(), indent=2, ensure_ascii=False, allow_nan=False)


FORMATS: dict[str, Callable[[Any], str]] = {"table": format_table, "markdown": format_markdown, "json": format_json}
