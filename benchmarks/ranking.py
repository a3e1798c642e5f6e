"""Speed and memory of ragauge's ranking metrics against pytrec_eval, ranx and ir_measures.

    python benchmarks/ranking.py                      # 1k and 100k queries x 100 docs
    python benchmarks/ranking.py --queries 1000       # quick look
    python benchmarks/ranking.py --queries 100000 --tools ragauge pytrec_eval --doors dict files --repeat 3
    python benchmarks/ranking.py --queries 10000 --tools ragauge pytrec_eval --instructions   # needs valgrind

Synthetic, seeded data: each query retrieves 100 documents (distinct scores, exact in float32, written in rank order
like a real run) and has 20 graded judgements (0-3), about half of them retrieved. Five metrics:
ndcg@10, mrr@10, recall@100, map@100, hit_rate@10. Two front doors, conversion/reading included:
  dict:  run/qrels as Python dicts of dicts, already in memory;
  files: a TREC run + qrels pair (ragauge, all peers) and a JSONL file of samples with
         ``retrieved_ids``/``relevant_ids`` (ragauge and pytrec_eval).
Each (tool, door) runs in its own process; memory is the rise of the peak RSS during the timed
call (Linux ``VmHWM`` after resetting it), so C/C++ allocations count too. ``cpu s`` is the process's
user + system time during the call (all threads): on a loaded machine it moves less than the wall
time. ``--repeat N`` runs every (tool, door) N times, tools alternating, and prints the median run (by
seconds) with the range. ``--instructions`` runs each worker under ``valgrind --tool=callgrind`` with
counting switched on only around the timed call and prints instructions instead of seconds: a
load-independent comparison (valgrind runs one thread at a time, so pyarrow's two reader threads
count in full; callgrind is ~50x slower, so use 10k queries). Numbers that peers define the same
way are checked for equality (to 1e-9); pytrec_eval's recip_rank has no cutoff, so its mrr is
compared with ours without a cutoff.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

DOCS, JUDGED, SEED = 100, 20, 7
OURS = ["ndcg@10", "mrr@10", "recall@100", "map@100", "hit_rate@10"]
TREC = {"ndcg@10": "ndcg_cut_10", "recall@100": "recall_100", "map@100": "map_cut_100", "hit_rate@10": "success_10"}


def make_data(n_queries: int):
    rng = np.random.default_rng(SEED)
    run, qrels = {}, {}
    for q in range(n_queries):
        docs = rng.choice(1_000_000, DOCS, replace=False)
        # distinct and exact in float32: pytrec_eval keeps scores as C floats (trec_eval: doubles),
        # so scores closer than float32 can resolve would rank differently there
        scores = np.sort(rng.choice(1 << 20, DOCS, replace=False) / (1 << 20))[::-1]
        run[f"q{q}"] = {f"d{d}": float(s) for d, s in zip(docs, scores)}
        judged = np.concatenate([rng.choice(docs, JUDGED // 2, replace=False), rng.choice(1_000_000, JUDGED // 2)])
        qrels[f"q{q}"] = {f"d{d}": int(g) for d, g in zip(judged, rng.integers(0, 4, judged.size))}
    return run, qrels


def write_files(run, qrels, folder: Path) -> None:
    with open(folder / "run.txt", "w") as f:
        for q, docs in run.items():
            f.write("".join(f"{q} Q0 {d} {i + 1} {s} bench\n" for i, (d, s) in enumerate(docs.items())))
    with open(folder / "qrels.txt", "w") as f:
        for q, docs in qrels.items():
            f.write("".join(f"{q} 0 {d} {g}\n" for d, g in docs.items()))
    with open(folder / "samples.jsonl", "w") as f:
        for q, docs in run.items():
            f.write(json.dumps({"id": q, "retrieved_ids": list(docs), "relevant_ids": qrels[q]}) + "\n")


# ------------------------------------------------------------------ one tool, one door (child process)


def _ragauge(door: str, data, folder: Path) -> dict[str, float]:
    from ragauge.scores.ranking import evaluate_run

    if door == "dict":
        result = evaluate_run(data[0], data[1], OURS + ["mrr"])
        return result.mean()
    if door == "jsonl":
        run, qrels = {}, {}
        with open(folder / "samples.jsonl", "rb") as f:
            for line in f:
                sample = json.loads(line)
                run[sample["id"]] = sample["retrieved_ids"]
                qrels[sample["id"]] = sample["relevant_ids"]
        return evaluate_run(run, qrels, OURS + ["mrr"]).mean()
    from ragauge.trec import evaluate_files

    ev = evaluate_files(folder / "qrels.txt", folder / "run.txt",
                        measures=["ndcg_cut.10", "recip_rank", "recall.100", "map_cut.100", "success.10"])
    s = ev.summary()
    return {m: s[t] for m, t in TREC.items()} | {"mrr": s["recip_rank"]}


def _pytrec(door: str, data, folder: Path) -> dict[str, float]:
    import pytrec_eval

    if door == "dict":
        run, qrels = data
    elif door == "jsonl":
        run, qrels = {}, {}
        with open(folder / "samples.jsonl", "rb") as f:
            for line in f:
                sample = json.loads(line)
                ids = sample["retrieved_ids"]
                run[sample["id"]] = {d: float(len(ids) - i) for i, d in enumerate(ids)}
                qrels[sample["id"]] = sample["relevant_ids"]
    else:
        with open(folder / "run.txt") as f:
            run = pytrec_eval.parse_run(f)
        with open(folder / "qrels.txt") as f:
            qrels = pytrec_eval.parse_qrel(f)
    per_query = pytrec_eval.RelevanceEvaluator(
        qrels, {"ndcg_cut.10", "recip_rank", "recall.100", "map_cut.100", "success.10"}
    ).evaluate(run)
    names = list(TREC.values()) + ["recip_rank"]
    means = {n: float(np.mean([v[n] for v in per_query.values()])) for n in names}
    return {m: means[t] for m, t in TREC.items()} | {"mrr": means["recip_rank"]}


def _ranx(door: str, data, folder: Path) -> dict[str, float]:
    from ranx import Qrels, Run, evaluate

    if door == "dict":
        qrels, run = Qrels(data[1]), Run(data[0])
    else:
        qrels = Qrels.from_file(str(folder / "qrels.txt"), kind="trec")
        run = Run.from_file(str(folder / "run.txt"), kind="trec")
    values = evaluate(qrels, run, OURS, make_comparable=True)
    return {m: float(values[m]) for m in OURS}


def _ir_measures(door: str, data, folder: Path) -> dict[str, float]:
    import ir_measures
    from ir_measures import AP, RR, R, Success, nDCG

    measures = [nDCG @ 10, RR @ 10, R @ 100, AP @ 100, Success @ 10]
    if door == "dict":
        qrels, run = data[1], data[0]
    else:
        qrels = ir_measures.read_trec_qrels(str(folder / "qrels.txt"))
        run = ir_measures.read_trec_run(str(folder / "run.txt"))
    agg = ir_measures.calc_aggregate(measures, qrels, run)
    return {name: float(agg[m]) for name, m in zip(OURS, measures)}


TOOLS = {"pytrec_eval": _pytrec, "ragauge": _ragauge, "ranx": _ranx, "ir_measures": _ir_measures}


def worker(tool: str, door: str, n_queries: int, folder: Path) -> None:
    data = make_data(n_queries) if door == "dict" else None
    if tool == "ranx":  # numba compiles on first use: warm it on a tiny run, outside the timing
        _ranx("dict", make_data(5), folder)
    counting = os.environ.get("RANKING_BENCH_CALLGRIND") == "1"
    if counting:  # valgrind --instr-atstart=no: count the call only
        subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], check=True, capture_output=True)
    before = _reset_peak()
    cpu = _cpu_seconds()
    start = time.perf_counter()
    means = TOOLS[tool](door, data, folder)
    seconds = time.perf_counter() - start
    cpu = _cpu_seconds() - cpu
    peak = _memory_kb("VmHWM")
    if counting:
        subprocess.run(["callgrind_control", "-i", "off", str(os.getpid())], check=True, capture_output=True)
    print(json.dumps({"seconds": seconds, "cpu": cpu, "memory_mb": (peak - before) / 1024, "means": means}))


def _cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


def _memory_kb(field: str) -> int:
    """VmRSS / VmHWM of this process in kB. (getrusage's ru_maxrss would include the peak of the
    parent at fork time, which holds the data set: useless for a delta.)"""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _reset_peak() -> int:
    """Make the peak RSS equal the current RSS (Linux clear_refs), return the current RSS."""
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")
    except OSError:
        pass
    return _memory_kb("VmRSS")


# ------------------------------------------------------------------ driver


def run_one(tool: str, door: str, n: int, folder: Path, *, instructions: bool = False) -> dict | None:
    cmd = [sys.executable, __file__, "--worker", tool, door, str(n), str(folder)]
    env = dict(os.environ)
    if instructions:
        out = folder / f"callgrind.{tool}.{door}"
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}", *cmd]
        env["RANKING_BENCH_CALLGRIND"] = "1"
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        print(f"  {tool}/{door}: failed: {done.stderr.strip().splitlines()[-1:]}")
        return None
    got = json.loads(done.stdout.strip().splitlines()[-1])
    if instructions:
        counted = [line for line in done.stderr.splitlines() if "Collected :" in line]
        got["instructions"] = int(counted[-1].split(":")[-1].strip().replace(",", ""))
    return got


def run_repeated(tool: str, door: str, n: int, folder: Path, runs: list[dict]) -> dict | None:
    """The median of ``runs`` (by seconds, or instructions), with the range of seconds attached."""
    if not runs:
        return None
    key = "instructions" if "instructions" in runs[0] else "seconds"
    ordered = sorted(runs, key=lambda r: r[key])
    median = dict(ordered[(len(ordered) - 1) // 2])
    median["range"] = (ordered[0]["seconds"], ordered[-1]["seconds"])
    return median


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, nargs="+", default=[1000, 100_000])
    parser.add_argument("--tools", nargs="+", default=list(TOOLS))
    parser.add_argument("--doors", nargs="+", default=["dict", "files", "jsonl"], choices=["dict", "files", "jsonl"])
    parser.add_argument("--repeat", type=int, default=1, help="runs per (tool, door), tools alternating; median shown")
    parser.add_argument("--instructions", action="store_true", help="count instructions with valgrind's callgrind")
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        tool, door, n, folder = args.worker
        return worker(tool, door, int(n), Path(folder))
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, numpy {np.__version__}")
    for n in args.queries:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            write_files(*make_data(n), folder)
            print(f"\n{n:,} queries x {DOCS} docs (run file {os.path.getsize(folder / 'run.txt') / 1e6:.0f} MB)")
            key = "instructions" if args.instructions else "seconds"
            what = "instructions" if args.instructions else "seconds"
            print(f"  {'tool':<12} {'door':<6} {'queries/s':>11} {'seconds':>8} {'cpu s':>7} {'memory MB':>10}  "
                  f"vs pytrec_eval ({what})" + ("  [seconds: min-max]" if args.repeat > 1 else "")
                  + ("  instructions" if args.instructions else ""))
            results = {}
            for door in args.doors:
                tools = [t for t in args.tools if door != "jsonl" or t in ("ragauge", "pytrec_eval")]
                tools.sort(key=lambda t: t != "pytrec_eval")  # the reference first: ratios need it
                runs: dict[str, list[dict]] = {t: [] for t in tools}
                for r in range(args.repeat):  # tools alternate, so that a slow spell hits all of them,
                    # in an A B B A order: a tool run right after another one that freed gigabytes pays for
                    # that memory's return (fresh pages fault again on this VM), so none always goes second
                    for tool in (tools if r % 2 == 0 else tools[::-1]):
                        got = run_one(tool, door, n, folder, instructions=args.instructions)
                        if got is not None:
                            runs[tool].append(got)
                for tool in tools:
                    got = run_repeated(tool, door, n, folder, runs[tool])
                    if got is None:
                        continue
                    results[(tool, door)] = got
                    base = results.get(("pytrec_eval", door))
                    ratio = f"{base[key] / got[key]:.2f}x faster" if base and tool != "pytrec_eval" else ""
                    spread = f"  [{got['range'][0]:.2f}-{got['range'][1]:.2f}]" if args.repeat > 1 else ""
                    count = f"  {got['instructions']:,}" if args.instructions else ""
                    print(f"  {tool:<12} {door:<6} {n / got['seconds']:>11,.0f} {got['seconds']:>8.2f} "
                          f"{got['cpu']:>7.2f} {got['memory_mb']:>10.0f}  {ratio}{spread}{count}")
            check(results)


def check(results: dict) -> None:
    """Means that tools define the same way must agree."""
    ours = results.get(("ragauge", "dict"))
    if not ours:
        return
    for (tool, door), got in results.items():
        for metric, value in got["means"].items():
            if metric == "mrr@10" and tool == "pytrec_eval":
                continue  # pytrec_eval reports recip_rank (no cutoff): compared as "mrr" below
            reference = ours["means"].get(metric)
            if reference is not None and abs(reference - value) > 1e-9:
                print(f"  DIFFERENT {tool}/{door} {metric}: {value:.6f} vs ragauge {reference:.6f}")
    print("  means checked: identical (1e-9) wherever the definitions agree, unless listed above")


if __name__ == "__main__":
    main()
