"""Cascade judge: escalated share, LLM calls, tokens and accuracy per uncertainty band, on a dev-set slice.

    # 1. the offline verifier's calibration (no LLM): where is its decision wrong? -> the default band
    python benchmarks/cascade.py --calibration --per-file 60
    # 2. the trade-off against an OpenAI-compatible endpoint (a capable one for meaningful accuracy)
    python benchmarks/cascade.py --base-url http://127.0.0.1:8080/v1 --model MODEL --per-file 6 \
        --bands 0.4:0.6,0.2:0.8,0:1 [--llm-only] [--out cascade.json]

Data: ``../shared/data/judge/`` (README there): HaluEval QA, RAGTruth, WiCE, TERRa (ru), FaithBench; a
label-balanced slice of ``--per-file`` rows from each file (seeded). Response level, as the data sets
label it: a row is predicted *hallucinated* when any of its claims is not supported.

Rows of the table: ``offline`` (band empty: no call), one row per band (claims with offline
P(supported) in [lo, hi] go to the LLM: :class:`ragauge.judges.llm.CascadeJudge`), and with
``--llm-only`` the LLM judge alone (its own claims and verification). Columns: claims escalated (share),
LLM calls and tokens (a reply served from the shared reply cache is counted as the call it was when first
paid, so bands compare fairly), rows unscored, accuracy and balanced accuracy of the hallucinated label.

Calibration (``--calibration``): the verifier's P(supported) of single-claim rows (the row's label is the
claim's label there) in bins: rows, share actually supported, and how often the offline label is wrong.
Those files are part of the verifier's training data (TERRa, WiCE, HaluEval, RAGTruth): in-sample, so the
error rates are optimistic; FaithBench is held out.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from ragauge.judges.llm import CascadeJudge, LLMConfig, LLMJudge, ReplyCache, unscored_of  # noqa: E402

FILES = ("halueval_qa_dev.jsonl", "ragtruth_dev.jsonl", "wice_dev.jsonl", "terra_ru_train.jsonl",
         "faithbench_dev.jsonl")
BINS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0001)


def load_slice(data: Path, per_file: int, seed: int = 0) -> list[dict]:
    """``per_file`` rows of each file, half hallucinated, half not (seeded); rows without contexts skipped."""
    rng = random.Random(seed)
    out = []
    for name in FILES:
        path = data / name
        if not path.is_file():
            print(f"skipping {path}: not found", file=sys.stderr)
            continue
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        rows = [r for r in rows if r.get("contexts") and r.get("answer") and r.get("hallucinated") is not None]
        for flag in (True, False):
            group = [r for r in rows if bool(r["hallucinated"]) is flag]
            rng.shuffle(group)
            out += group[: (per_file + (1 if flag else 0)) // 2]
    return out


def accuracy(pred: list[bool | None], gold: list[bool]) -> dict[str, Any]:
    """Accuracy and balanced accuracy of the hallucinated label over scored rows (``None``: unscored)."""
    pairs = [(p, g) for p, g in zip(pred, gold) if p is not None]
    if not pairs:
        return {"scored": 0, "accuracy": None, "balanced_accuracy": None}
    pos = [p for p, g in pairs if g]
    neg = [p for p, g in pairs if not g]
    tpr = sum(pos) / len(pos) if pos else None
    tnr = sum(not p for p in neg) / len(neg) if neg else None
    bal = None if tpr is None or tnr is None else (tpr + tnr) / 2
    return {"scored": len(pairs), "accuracy": round(sum(p == g for p, g in pairs) / len(pairs), 3),
            "balanced_accuracy": None if bal is None else round(bal, 3)}


def offline_items(rows: list[dict], offline: Any) -> list[tuple]:
    claims = offline.claims([r["answer"] for r in rows], [r.get("language") for r in rows])
    return [(c, r["contexts"], r.get("language")) for c, r in zip(claims, rows)]


def predict(verdict_lists: list[list[Any]]) -> list[bool | None]:
    out: list[bool | None] = []
    for v in verdict_lists:
        out.append(None if unscored_of(v) is not None or not v else not all(x.supported for x in v))
    return out


def calibration(rows: list[dict], offline: Any) -> list[dict]:
    items = offline_items(rows, offline)
    verdicts = offline.verify(items)
    table = []
    single = [(v[0], r) for v, r in zip(verdicts, rows) if len(v) == 1]
    for lo, hi in zip(BINS, BINS[1:]):
        inbin = [(v, r) for v, r in single if lo <= v.probability < hi]
        if not inbin:
            table.append({"bin": f"[{lo:.1f}, {min(hi, 1):.1f})", "rows": 0})
            continue
        supported = [not r["hallucinated"] for _, r in inbin]
        wrong = [v.supported != s for (v, _), s in zip(inbin, supported)]
        table.append({"bin": f"[{lo:.1f}, {min(hi, 1):.1f})", "rows": len(inbin),
                      "share_supported": round(sum(supported) / len(inbin), 3),
                      "offline_error_rate": round(sum(wrong) / len(inbin), 3)})
    gold = [bool(r["hallucinated"]) for r in rows]
    return [{"single_claim_rows": len(single), "rows": len(rows), "offline": accuracy(predict(verdicts), gold)}] + table


def run_band(rows: list[dict], items: list[tuple], llm: LLMJudge, offline: Any, band: tuple[float, float]) -> dict:
    judge = CascadeJudge(llm, offline=offline, band=band)
    t0 = time.perf_counter()
    verdicts = judge.verify(items)
    return _row(f"cascade [{band[0]}, {band[1]}]", rows, verdicts, llm, time.perf_counter() - t0,
                judge.escalation())


def run_llm_only(rows: list[dict], llm: LLMJudge) -> dict:
    t0 = time.perf_counter()
    langs = [r.get("language") for r in rows]
    claims = llm.claims([r["answer"] for r in rows], langs)
    verdicts = llm.verify([(c, r["contexts"], lg) for c, r, lg in zip(claims, rows, langs)])
    verdicts = [c if unscored_of(c) is not None else v for c, v in zip(claims, verdicts)]
    n = sum(len(v) for v in verdicts)
    return _row("llm only (its own claims)", rows, verdicts, llm, time.perf_counter() - t0,
                {"claims": n, "escalated": n, "share": 1.0 if n else None, "llm_failed": None})


def _row(name: str, rows: list[dict], verdicts: list, llm: LLMJudge | None, seconds: float, esc: dict) -> dict:
    u = llm.ledger.to_dict()["total"] if llm is not None else None
    calls = 0 if u is None else u["calls"] + u["cached"]
    tokens = 0 if u is None else u["tokens"] + u["cached_tokens"]
    pred = predict(verdicts)
    return {"judge": name, "claims": esc["claims"], "escalated": esc["escalated"], "share": esc["share"],
            "llm_failed": esc.get("llm_failed"), "calls": calls, "tokens": tokens,
            "calls_per_row": round(calls / len(rows), 2), "tokens_per_row": round(tokens / len(rows)),
            "unscored_rows": sum(p is None for p in pred), "seconds": round(seconds, 1),
            **accuracy(pred, [bool(r["hallucinated"]) for r in rows])}


def markdown(table: list[dict]) -> str:
    cols = ["judge", "share", "calls_per_row", "tokens_per_row", "unscored_rows", "accuracy", "balanced_accuracy"]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join("-" if r.get(c) is None else str(r[c]) for c in cols) + " |" for r in table]
    return "\n".join(lines)


def parse_bands(text: str) -> list[tuple[float, float]]:
    out = []
    for part in text.split(","):
        lo, _, hi = part.partition(":")
        out.append((float(lo), float(hi)))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "judge"))
    ap.add_argument("--per-file", type=int, default=6, help="rows per data file (label-balanced)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--calibration", action="store_true", help="offline calibration table only (no LLM)")
    ap.add_argument("--base-url", help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8080/v1")
    ap.add_argument("--model", help="model name the endpoint expects")
    ap.add_argument("--bands", default="0.4:0.6,0.2:0.8,0:1", help="LO:HI,... (default %(default)s)")
    ap.add_argument("--llm-only", action="store_true", help="also run the LLM judge alone (claims + verify)")
    ap.add_argument("--max-tokens", type=int, default=512, help="completion limit per call")
    ap.add_argument("--cache", default=None, help="reply cache file (default: in memory)")
    ap.add_argument("--out", help="write the results as JSON here")
    args = ap.parse_args(argv)

    from ragauge.judges.offline.judge import OfflineJudge

    data = Path(args.data)
    if not data.is_dir():
        print(f"no data folder {data}: pass --data DIR (../shared/data/judge)", file=sys.stderr)
        return 2
    rows = load_slice(data, args.per_file, args.seed)
    offline = OfflineJudge.shared()
    if args.calibration:
        table = calibration(rows, offline)
        print(json.dumps(table, indent=1))
        result: Any = {"calibration": table, "per_file": args.per_file}
    else:
        if not (args.base_url and args.model):
            print("--base-url and --model are needed (or --calibration)", file=sys.stderr)
            return 2
        items = offline_items(rows, offline)
        cache = ReplyCache(args.cache)
        t0 = time.perf_counter()
        base = offline.verify(items)
        n = sum(len(v) for v in base)
        table = [_row("offline only", rows, base, None, time.perf_counter() - t0,
                      {"claims": n, "escalated": 0, "share": 0.0, "llm_failed": 0})]

        def fresh() -> LLMJudge:  # one per row of the table: its own ledger; the reply cache is shared
            cfg = LLMConfig(model=args.model, base_url=args.base_url, max_tokens=args.max_tokens)
            return LLMJudge(cfg, cache=cache, offline=offline)

        for band in parse_bands(args.bands):
            table.append(run_band(rows, items, fresh(), offline, band))
            print(json.dumps(table[-1]), file=sys.stderr, flush=True)
        if args.llm_only:
            table.append(run_llm_only(rows, fresh()))
        print(markdown(table))
        result = {"rows": len(rows), "per_file": args.per_file, "model": args.model, "table": table}
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
