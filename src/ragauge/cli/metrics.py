"""``ragauge metrics list``: every metric with its definition and the fields it needs."""

from __future__ import annotations

import argparse
import json


def register(sub) -> None:
    p = sub.add_parser("metrics", help="list the metrics and their definitions")
    msub = p.add_subparsers(dest="metrics_command", metavar="SUBCOMMAND")
    lp = msub.add_parser("list", help="list every metric")
    lp.add_argument("--json", action="store_true", help="print the specs as JSON")
    lp.set_defaults(func=run)
    p.set_defaults(func=run)


def _example(d) -> str:
    if d.param == "k":
        return f"{d.base}@10" if d.param_required else f"{d.base}, {d.base}@10"
    if d.param == "percentile":
        return f"{d.base}_p50, {d.base}_p95"
    return d.base


def run(args: argparse.Namespace) -> int:
    from ..metrics.registry import definitions

    defs = definitions()
    if getattr(args, "json", False):
        print(json.dumps([d.bind(10 if d.param == "k" else 95 if d.param == "percentile" else None).to_dict()
                          for d in defs], indent=2, ensure_ascii=False))
        return 0
    family = None
    for d in defs:
        if d.family != family:
            family = d.family
            print(f"\n{family}")
        spec = d.bind(10 if d.param == "k" else 95 if d.param == "percentile" else None)
        better = "higher is better" if d.higher_is_better else "lower is better"
        alias = f"; aliases: {', '.join(d.aliases)}" if d.aliases else ""
        print(f"  {_example(d)}")
        # a description for the family, not one member's ("P{p}" reads as "Pp", "@{k}" as "@k")
        print(f"      {d.description.replace('P{p}', 'The N-th percentile (P50, P95, ...)').replace('{p}', 'N').replace('{k}', 'k').replace('{cut}', ' of the top k' if d.param == 'k' else '')}"
              if d.param else f"      {spec.description}")
        print(f"      needs: {', '.join(d.requires) or '-'}; {better}{alias}")
    return 0
