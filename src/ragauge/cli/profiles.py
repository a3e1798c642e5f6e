"""``ragauge profiles [NAME]``: show the threshold profiles (built-in and from ragauge.toml)."""

from __future__ import annotations

import argparse


def register(sub) -> None:
    p = sub.add_parser("profiles", help="show threshold profiles")
    p.add_argument("name", nargs="?", help="show one profile's thresholds")
    p.add_argument("--config", help="config file (default: found from here)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..config import load_config
    from ..gates.profiles import builtin_profiles, resolve_profile

    cfg = load_config(args.config)
    names = sorted(set(builtin_profiles()) | set(cfg.profiles)) if not args.name else [args.name]
    for name in names:
        prof = resolve_profile(name, user_profiles=cfg.profiles, k=cfg.k)
        print(f"{prof.name}: {prof.description}" + (f" (k = {prof.k})" if prof.k else ""))
        for th in prof.thresholds:
            mode = "" if th.mode == "point" else f"  [{th.mode}]"
            print(f"    {th.label:<45} {th.describe()}{mode}")
    return 0
