"""``ragauge profiles [NAME]``: show the threshold profiles (built-in and from ragauge.toml)."""

from __future__ import annotations

import argparse


def register(sub) -> None:
    p = sub.add_parser("profiles", help="show threshold profiles")
    p.add_argument("name", nargs="?", help="show one profile's thresholds")
    p.add_argument("--config", help="config file (default: found from here)")
    p.add_argument("--format", choices=("text", "markdown"), default="text",
                   help="text (default) or a GFM table per profile, e.g. for a wiki or a PR")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..config import load_config
    from ..gates.profiles import builtin_profiles, resolve_profile

    cfg = load_config(args.config)
    names = sorted(set(builtin_profiles()) | set(cfg.profiles)) if not args.name else [args.name]
    markdown = getattr(args, "format", "text") == "markdown"
    for name in names:
        prof = resolve_profile(name, user_profiles=cfg.profiles, k=cfg.k)
        print("\n".join(_markdown(prof)) if markdown else "\n".join(_text(prof)))
    return 0


def _text(prof) -> list[str]:
    """The profile for the terminal: names and descriptions from ragauge.toml without control characters."""
    from ..report.escape import terminal_text as t

    out = [f"{t(prof.name)}: {t(prof.description)}" + (f" (k = {prof.k})" if prof.k else "")]
    for th in prof.thresholds:
        mode = "" if th.mode == "point" else f"  [{t(th.mode)}]"
        out.append(f"    {t(th.label):<45} {t(th.describe())}{mode}")
    return out


def _markdown(prof) -> list[str]:
    """The profile as a GFM table; every cell escaped (``a|b`` alternatives come out as ``a\\|b``)."""
    from ..report.escape import md_cell, md_code

    out = [f"### {md_cell(prof.name)}", "", md_cell(prof.description) + (f" (k = {prof.k})" if prof.k else ""), "",
           "| metric | threshold | mode |", "|---|---|---|"]
    out += [f"| {md_code(th.label)} | {md_cell(th.describe())} | {md_cell(th.mode)} |" for th in prof.thresholds]
    return out + [""]
