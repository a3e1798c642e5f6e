"""Throughput of the Ray engine vs the local engine (issue 17): samples/s, per-block overhead, driver memory.

    .venv/bin/python benchmarks/scale.py                  # 10k offline faithfulness + block overhead
    .venv/bin/python benchmarks/scale.py --n 2000 --overhead-n 100000
    .venv/bin/python benchmarks/scale.py --cli 10000,100000   # `ragauge eval --engine ray --shards` end to end
                                                              # (+ `ragauge compare` of that run, from its shards)

Each measurement runs in a fresh process (``--one``), so the driver's peak RSS (``ru_maxrss``) is that
mode's alone. Modes: ``local`` (``engine.scoring.score_columns`` over ``data.load``), ``ray1``/``ray2`` (the Ray
engine with 1 or 2 scoring actors on a local cluster of 2 CPUs; the columns come back to the driver),
``sink`` (Ray, 2 actors, blocks consumed one by one and dropped: what a Parquet-shard writer holds).
Samples are synthetic, seeded, half Russian half English, every text unique: a 2-sentence answer (40% with a
number the sources do not say), 3 short contexts, a ranking.
Ray's start (cluster + actors loading the models) is reported apart from the scoring time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FACTS_EN = [("The warranty on finishing work is {n} years.", "Finishing work carries a {n}-year warranty."),
            ("Delivery within the city costs {n} roubles.", "City delivery is charged at {n} roubles."),
            ("The customer pays an advance of {n} percent.", "An advance of {n} percent is paid by the customer."),
            ("The act must be signed within {n} working days.", "The customer signs the act within {n} working days.")]
FACTS_RU = [("Гарантия на отделочные работы составляет {n} года.", "На отделку даётся гарантия {n} года."),
            ("Доставка по городу стоит {n} рублей.", "Стоимость доставки по городу — {n} рублей."),
            ("Аванс составляет {n} процентов от цены договора.", "Заказчик платит аванс {n} процентов."),
            ("Акт подписывается в течение {n} рабочих дней.", "Срок подписания акта — {n} рабочих дней.")]


def _lower(sentence: str) -> str:
    return sentence[0].lower() + sentence[1:]


def synthetic(n: int, seed: int = 0) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        facts = FACTS_RU if i % 2 else FACTS_EN
        # every text unique (a contract number), so no judge cache makes one engine look faster
        head = f"По договору К-{i} " if i % 2 else f"Under contract K-{i}, "
        picks = rng.sample(range(len(facts)), 3)
        nums = [rng.randint(2, 60) for _ in picks]
        contexts = [{"id": f"d{i}-{j}", "text": head + _lower(facts[p][1].format(n=x))} for j, (p, x) in enumerate(zip(picks, nums))]
        wrong = nums[1] + (0 if rng.random() < 0.6 else rng.randint(1, 9))  # 40%: a number the sources do not say
        answer = " ".join([head + _lower(facts[picks[0]][0].format(n=nums[0])),
                           head + _lower(facts[picks[1]][0].format(n=wrong))])
        ranking = [c["id"] for c in contexts]
        rng.shuffle(ranking)
        out.append({"id": f"s{i}", "question": "?", "answer": answer, "contexts": contexts,
                    "retrieved_ids": ranking, "relevant_ids": {contexts[0]["id"]: 1}})
    return out


def write(n: int, folder: Path) -> Path:
    path = folder / f"synthetic-{n}.jsonl"
    if not path.exists():
        with path.open("w", encoding="utf-8") as fh:
            for rec in synthetic(n):
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    return path


def one(mode: str, path: str, metrics: list[str], batch: int) -> dict:
    from ragauge.metrics.registry import parse_metrics

    specs = parse_metrics(metrics)
    judged = any(s.judge for s in specs)
    t0 = time.perf_counter()
    if mode == "local":
        from ragauge.data import load
        from ragauge.judges.base import get_judge

        from ragauge.engine.scoring import score_columns as _score  # the engine's one scoring step

        samples = load(path)
        judge = get_judge("offline") if judged else None
        if judge is not None:  # load the models outside the timed part, as a Ray actor does before its first block
            _score(specs, samples[:2], judge, None)
        t1, c1 = time.perf_counter(), time.process_time()
        _score(specs, samples, judge, None)
        cpu = time.process_time() - c1
        n = len(samples)
    else:
        import ray

        from ragauge.scale.ray_engine import iter_scored_blocks, score_run

        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        workers = 1 if mode == "ray1" else 2
        if mode == "sink":
            n, blocks, busy, cpu = 0, 0, 0.0, 0.0
            for block in iter_scored_blocks(specs, path, "offline" if judged else None, workers=workers,
                                            batch_size=batch):
                n, blocks, busy, cpu = n + len(block.ids), blocks + 1, busy + block.seconds, cpu + block.cpu_seconds
        else:
            run = score_run(specs, path, "offline" if judged else None, workers=workers, batch_size=batch)
            n, blocks, busy, cpu = len(run.ids), run.blocks, run.worker_seconds, run.worker_cpu_seconds
        end = time.perf_counter()
        ray.shutdown()
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        return {"mode": mode, "n": n, "total_s": round(end - t0, 2), "blocks": blocks,
                "worker_seconds": round(busy, 2), "worker_cpu_seconds": round(cpu, 2),
                "cpu_ms_per_sample": round(1000 * cpu / n, 2) if n else None, "driver_peak_rss_mb": round(rss)}
    end = time.perf_counter()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"mode": mode, "n": n, "total_s": round(end - t0, 2), "load_and_warm_s": round(t1 - t0, 2),
            "samples_per_s": round(n / (end - t1), 1), "cpu_seconds": round(cpu, 2),
            "cpu_ms_per_sample": round(1000 * cpu / n, 2) if n else None, "driver_peak_rss_mb": round(rss)}


def run_one(mode: str, path: Path, metrics: list[str], batch: int) -> dict:
    cmd = [sys.executable, __file__, "--one", mode, "--path", str(path), "--metrics", ",".join(metrics),
           "--batch-size", str(batch)]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{mode} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(mode: str, path: Path, small: Path, metrics: list[str], batch: int) -> dict:
    """One mode on ``path``; for Ray, also on ``small`` (2 blocks) so that the cluster start and the actors'
    model loading drop out: samples/s = extra samples / extra seconds, wall per block likewise."""
    big = run_one(mode, path, metrics, batch)
    if mode == "local":
        return big
    low = run_one(mode, small, metrics, batch)
    dn, dt, db = big["n"] - low["n"], big["total_s"] - low["total_s"], big["blocks"] - low["blocks"]
    return {**big, "startup_s": round(low["total_s"], 2), "samples_per_s": round(dn / dt, 1) if dt > 0 else None,
            "wall_ms_per_block": round(1000 * dt / db, 1) if db > 0 else None,
            "work_ms_per_block": round(1000 * big["worker_seconds"] / big["blocks"], 1)}


def _watch(cmd: list[str]) -> tuple[float, int, str]:
    """Run ``cmd``; its wall time, its own peak RSS in KB (``VmHWM``, polled: Ray's workers are other
    processes) and its stderr. A failure stops the benchmark with the command's stderr."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, RAY_USAGE_STATS_ENABLED="0"))
    peak = 0
    while proc.poll() is None:
        try:
            for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]))
        except OSError:
            pass
        time.sleep(0.2)
    wall = time.perf_counter() - t0
    err = proc.stderr.read() if proc.stderr else ""
    if proc.returncode not in (0, 1):  # 1: a gate or a comparison says worse, not a failure of the command
        raise SystemExit(f"{' '.join(cmd[2:5])} failed ({proc.returncode}):\n{err[-3000:]}")
    return wall, peak, err


def cli_run(path: Path, metrics: list[str], workers: int, folder: Path) -> dict:
    """``ragauge eval PATH --engine ray --shards DIR`` end to end in a subprocess: wall time and the driver's
    own peak RSS; then ``ragauge compare OUT OUT`` (the run with itself: every id and value read back from
    the shards, paired, tested): its wall time and peak RSS."""
    import shutil

    shards, out = folder / f"shards-{path.stem}", folder / f"out-{path.stem}"
    for d in (shards, out):
        shutil.rmtree(d, ignore_errors=True)
    cmd = [sys.executable, "-m", "ragauge", "eval", str(path), "--engine", "ray", "--workers", str(workers),
           "-m", ",".join(metrics), "--profile", "none", "--shards", str(shards), "-o", str(out), "-q"]
    wall, peak, err = _watch(cmd)
    size = sum(f.stat().st_size for f in shards.glob("*.parquet"))
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    c_wall, c_peak, _ = _watch([sys.executable, "-m", "ragauge", "compare", str(out), str(out), "--exit-zero"])
    return {"mode": "cli --shards", "n": doc["source"]["n_samples"], "total_s": round(wall, 1),
            "driver_peak_rss_mb": round(peak / 1024), "shards_mb": round(size / 2**20, 1),
            "results_json_kb": round((out / "results.json").stat().st_size / 1024, 1),
            "report_html_kb": round((out / "report.html").stat().st_size / 1024, 1),
            "samples_in_results_json": len(doc["samples"]), "samples_in": doc.get("samples_in"),
            "stderr_lines": len([ln for ln in err.splitlines() if ln.strip()]),
            "compare_s": round(c_wall, 1), "compare_peak_rss_mb": round(c_peak / 1024)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=10_000, help="samples for the faithfulness runs")
    ap.add_argument("--overhead-n", type=int, default=100_000, help="samples for the retrieval-only runs")
    ap.add_argument("--batch-size", type=int, default=256, help="samples per block")
    ap.add_argument("--modes", default="local,ray1,ray2", help="faithfulness modes to run")
    ap.add_argument("--cli", metavar="N1,N2", help="only: `ragauge eval --engine ray --shards` end to end at these "
                    "sizes (driver peak RSS as the input grows)")
    ap.add_argument("--cli-metrics", default="ndcg@10,recall@10,mrr", help="metrics of the --cli runs")
    ap.add_argument("--workers", type=int, default=2, help="scoring actors of the --cli runs")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--path", help=argparse.SUPPRESS)
    ap.add_argument("--metrics", default="faithfulness", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.path, args.metrics.split(","), args.batch_size)))
        return
    folder = Path(tempfile.gettempdir()) / "ragauge-scale-bench"
    folder.mkdir(exist_ok=True)
    results = []
    if args.cli:
        for n in (int(x) for x in args.cli.split(",")):
            r = cli_run(write(n, folder), args.cli_metrics.split(","), args.workers, folder)
            print(json.dumps({"metrics": args.cli_metrics, **r}), flush=True)
        return
    if args.n:
        path, small = write(args.n, folder), write(2 * args.batch_size, folder)
        for mode in args.modes.split(","):
            r = measure(mode, path, small, ["faithfulness"], args.batch_size)
            results.append({"metrics": "faithfulness", **r})
            print(json.dumps(results[-1]), flush=True)
    if args.overhead_n:
        # retrieval metrics cost ~microseconds a sample: what remains is Ray's cost per block
        for n in sorted({min(10_000, args.overhead_n), args.overhead_n}):
            path, small = write(n, folder), write(2 * args.batch_size, folder)
            for mode in ("local", "sink", "ray2"):
                r = measure(mode, path, small, ["ndcg@10", "recall@10", "mrr"], args.batch_size)
                results.append({"metrics": "ndcg@10,recall@10,mrr", **r})
                print(json.dumps(results[-1]), flush=True)


if __name__ == "__main__":
    main()
