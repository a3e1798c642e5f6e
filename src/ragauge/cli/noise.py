"""``ragauge noise DATA --out NOISY``: write the noisy variant of each sample (noise robustness)."""

from __future__ import annotations

import argparse
import sys


def register(sub) -> None:
    p = sub.add_parser(
        "noise",
        help="build noisy variants of a data set for the noise_robustness metric",
        description="For each sample with contexts, write a copy with N irrelevant chunks from other samples "
        "inserted at random positions (id '<id>~noise', metadata.noise_of = '<id>', no answer). Run your "
        "generator on the noisy contexts, fill in 'answer', then evaluate clean + noisy samples together "
        "with --metrics noise_robustness.",
    )
    p.add_argument("data", help="the clean data set (JSONL, CSV, Parquet, ...)")
    p.add_argument("--out", "-o", required=True, help="JSONL file to write the noisy variants to")
    p.add_argument("--n-noise", type=int, default=2, help="irrelevant chunks to insert per sample (default 2)")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..data import load, write_jsonl
    from ..data.noise import make_noisy_variants
    from ..errors import InputError

    if args.n_noise < 1:
        raise InputError("--n-noise must be at least 1", value=args.n_noise)
    samples = load(args.data)
    variants = make_noisy_variants(samples, n_noise=args.n_noise, seed=args.seed)
    write_jsonl(variants, args.out)
    skipped = len(samples) - len(variants)
    note = f" ({skipped} without contexts or enough distractors were skipped)" if skipped else ""
    print(f"wrote {len(variants)} noisy variants to {args.out}{note}", file=sys.stderr)
    return 0
