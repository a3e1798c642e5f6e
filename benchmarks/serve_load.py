"""Loopback load test of `ragauge serve`: sustained ingest rate, p99 ingest latency, zero loss across a restart.

    python benchmarks/serve_load.py                                # 60 s: 4 steps of 15 s, SQLite
    python benchmarks/serve_load.py --duration 20 --rates 1000,2000,4000
    python benchmarks/serve_load.py --db postgresql+psycopg://ragauge@127.0.0.1:5432/bench
    python benchmarks/serve_load.py --json out.json

The collector is the real command (``python -m ragauge serve --no-scoring --no-alerts``) in its own process
on 127.0.0.1, with a fresh database (a SQLite file in a temp folder, or a fresh schema in the PostgreSQL
database of ``--db``). The sender posts the SDK's batch format (``ragauge.trace/1``; traces with a
retrieval span of 5 chunks of ~500 characters, a generation and a guard span, like
benchmarks/trace_overhead.py) in batches of ``--batch`` traces over ``--connections`` keep-alive
connections, paced to each offered rate in turn (``--rates``, traces/s; ``--duration`` seconds split
evenly over the steps). A batch is sent again until the collector accepted it (as the SDK does), so a
restart loses nothing; the collector ignores ids it already stored.

Reported per step: offered and achieved rate (traces accepted per second of the step), ingest latency of
a batch (p50/p99, ms, the POST's round trip, retries not counted as separate samples), failed attempts.
Then ``--restart``: the last rate again with the collector stopped (SIGTERM) at the middle of the step and
started again; the sender retries until it is back. At the end the traces table is counted: it must equal
the number of distinct traces sent (zero loss, no duplicates). Scoring is off: on a 2-core machine it
would compete with ingest for the same cores.

``--scoring-seconds S`` adds a scoring phase (offline judge; needs ``ragauge[offline]``): a fresh SQLite
collector with scoring on (``--score-lease 10``) takes ``--scoring-rate`` traces/s for S seconds and is
killed with SIGKILL halfway (the scorer dies mid-batch) and started again; the phase ends when nothing is
pending or claimed, and reports how many were scored, failed, and the overall scoring rate. The script
reports; it exits 1 only when stored != sent (or a trace was never scored).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

TOKEN = "bench-token-0123456789"
_TEXT = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 9)[:500]


def make_trace(i: int, run: str) -> dict:
    return {
        "id": f"{run}-{i}", "app_name": "bench", "app_version": "1.0", "question": f"What is item {i}?",
        "start_time": time.time(), "duration_ms": 120.0,
        "spans": [
            {"kind": "retrieval", "name": "retrieval", "query": f"item {i}", "duration_ms": 8.0,
             "chunks": [{"id": f"doc-{k}", "text": _TEXT, "score": 0.9 - k / 10, "metadata": {"src": "bench"}}
                        for k in range(5)]},
            {"kind": "generation", "name": "generation", "prompt": "...", "answer": f"Item {i} is fine.",
             "ttft_ms": 40.0, "tokens": {"prompt": 700, "completion": 12}},
            {"kind": "guard", "name": "guard", "decision": "answer"}],
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Collector:
    def __init__(self, db: str, port: int, workdir: Path, *, scoring: bool = False) -> None:
        self.db, self.port, self.workdir, self.scoring = db, port, workdir, scoring
        self.url = f"http://127.0.0.1:{port}"
        self.proc: subprocess.Popen | None = None

    def start(self) -> float:
        import httpx

        t0 = time.monotonic()
        env = {**os.environ, "RAGAUGE_TOKEN": TOKEN, "PYTHONPATH": str(ROOT / "src")}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ragauge", "serve", "--port", str(self.port), "--db", self.db, "--no-alerts",
             "--log-level", "warning",
             *(["--score-lease", "10"] if self.scoring else ["--no-scoring"])], cwd=self.workdir, env=env,
            stdout=subprocess.DEVNULL, stderr=open(self.workdir / "serve.log", "a"))
        while time.monotonic() - t0 < 60:
            if self.proc.poll() is not None:
                raise RuntimeError(f"ragauge serve exited: see {self.workdir / 'serve.log'}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return time.monotonic() - t0
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError("ragauge serve did not start in 60 s")

    def kill(self) -> None:
        """SIGKILL: the scorer dies mid-batch, its claimed items stay claimed until the lease runs out."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(q / 100 * len(s) + 0.5)) - 1))]


async def run_step(url: str, rate: float, seconds: float, batch: int, connections: int, run: str, start_i: int,
                   on_half=None) -> dict:
    """Offer ``rate`` traces/s for ``seconds``; returns the step's numbers (and the ids it delivered)."""
    import httpx

    n_batches = max(1, int(rate * seconds / batch))
    interval = batch / rate
    # bodies are built before the clock starts: we measure the collector, not json.dumps
    bodies = [json.dumps({"schema": "ragauge.trace/1",
                          "traces": [make_trace(start_i + b * batch + k, run) for k in range(batch)]}).encode()
              for b in range(n_batches)]
    latencies: list[float] = []
    failures = 0
    delivered = 0
    halfway_fired = False
    queue: asyncio.Queue = asyncio.Queue()
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)

    async with httpx.AsyncClient(timeout=30, limits=limits, headers=headers) as client:
        async def worker():
            nonlocal failures, delivered
            while True:
                body = await queue.get()
                if body is None:
                    return
                while True:
                    t = time.perf_counter()
                    try:
                        r = await client.post(url + "/api/traces", content=body)
                        ok = r.status_code == 200
                    except httpx.HTTPError:
                        ok = False
                    if ok:
                        latencies.append((time.perf_counter() - t) * 1000)
                        delivered += batch
                        break
                    failures += 1
                    await asyncio.sleep(0.2)

        workers = [asyncio.create_task(worker()) for _ in range(connections)]
        t0 = time.perf_counter()
        for b, body in enumerate(bodies):
            due = t0 + b * interval
            now = time.perf_counter()
            if due > now:
                await asyncio.sleep(due - now)
            if on_half is not None and not halfway_fired and b >= n_batches // 2:
                halfway_fired = True
                await asyncio.get_running_loop().run_in_executor(None, on_half)
            await queue.put(body)
        for _ in workers:
            await queue.put(None)
        await asyncio.gather(*workers)
        elapsed = time.perf_counter() - t0
    return {"offered_per_s": rate, "seconds": round(elapsed, 2), "sent": n_batches * batch, "delivered": delivered,
            "achieved_per_s": round(delivered / elapsed, 1),
            "latency_ms": {"p50": _r(percentile(latencies, 50)), "p99": _r(percentile(latencies, 99)),
                           "max": _r(max(latencies) if latencies else None)},
            "failed_attempts": failures, "next_i": start_i + n_batches * batch}


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 1)


def queue_states(db: str) -> dict[str, int]:
    import sqlalchemy as sa

    from ragauge.serve.db import make_engine

    engine = make_engine(db)
    with engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT state, COUNT(*) FROM score_queue GROUP BY state")).all()
    engine.dispose()
    return {"pending": 0, "claimed": 0, "done": 0, "failed": 0, **{s: int(n) for s, n in rows}}


def scoring_phase(args: argparse.Namespace, workdir: Path, run: str) -> dict:
    """Traces at ``--scoring-rate`` for ``--scoring-seconds`` into a scoring collector that is killed (SIGKILL)
    halfway and started again; then wait until every trace is scored. Needs the offline judge."""
    db = f"sqlite:///{workdir / 'scoring.db'}"
    collector = Collector(db, free_port(), workdir, scoring=True)
    collector.start()
    t0 = time.monotonic()

    def bounce() -> None:
        collector.kill()
        collector.start()

    try:
        step = asyncio.run(run_step(collector.url, args.scoring_rate, args.scoring_seconds, 10, 2, run + "s", 0,
                                    on_half=bounce))
        sent = step.pop("next_i")
        sent_s = time.monotonic() - t0
        done_at_send_end = queue_states(db)["done"]
        deadline = time.monotonic() + 900
        while time.monotonic() < deadline:
            states = queue_states(db)
            if states["pending"] == 0 and states["claimed"] == 0:
                break
            time.sleep(1.0)
        total_s = time.monotonic() - t0
    finally:
        collector.stop()
    states = queue_states(db)
    return {"rate": args.scoring_rate, "seconds": args.scoring_seconds, "sent": sent, "states": states,
            "done_while_sending": done_at_send_end, "sending_s": round(sent_s, 1),
            "drained_after_s": round(total_s, 1), "scored_per_s": round(states["done"] / total_s, 1),
            "all_scored": states["done"] + states["failed"] == sent and states["failed"] == 0}


def count_stored(db: str) -> tuple[int, int]:
    import sqlalchemy as sa

    from ragauge.serve.db import make_engine

    engine = make_engine(db)
    with engine.connect() as conn:
        n = conn.execute(sa.text("SELECT COUNT(*) FROM traces")).scalar_one()
        distinct = conn.execute(sa.text("SELECT COUNT(DISTINCT id) FROM traces")).scalar_one()
    engine.dispose()
    return int(n), int(distinct)


def fresh_db(db: str | None, workdir: Path) -> tuple[str, str]:
    """(url to use, backend name); a PostgreSQL URL gets a fresh schema (dropped by the caller's cleanup)."""
    if not db:
        return f"sqlite:///{workdir / 'load.db'}", "sqlite"
    import sqlalchemy as sa

    name = f"load_{uuid.uuid4().hex[:10]}"
    engine = sa.create_engine(db)
    with engine.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{name}"'))
    engine.dispose()
    sep = "&" if "?" in db else "?"
    return f"{db}{sep}options=-csearch_path%3D{name}", "postgresql"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--duration", type=float, default=60.0, help="seconds for all rate steps together (60)")
    ap.add_argument("--rates", default="500,1000,2000,4000", help="offered traces/s per step")
    ap.add_argument("--batch", type=int, default=100, help="traces per POST (the SDK sends up to 256)")
    ap.add_argument("--connections", type=int, default=8)
    ap.add_argument("--restart-seconds", type=float, default=10.0, help="length of the restart step (0: skip)")
    ap.add_argument("--db", help="PostgreSQL base URL (default: a SQLite file in a temp folder)")
    ap.add_argument("--scoring-seconds", type=float, default=0.0,
                    help="then a scoring phase this long (SQLite, offline judge, collector killed halfway; 0: skip)")
    ap.add_argument("--scoring-rate", type=float, default=20.0, help="traces/s in the scoring phase (20)")
    ap.add_argument("--json", help="write the results here")
    args = ap.parse_args(argv)
    rates = [float(r) for r in args.rates.split(",") if r.strip()]
    per_step = args.duration / len(rates)
    run = uuid.uuid4().hex[:8]
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        db, backend = fresh_db(args.db, workdir)
        collector = Collector(db, free_port(), workdir)
        startup = collector.start()
        print(f"ragauge serve up in {startup:.1f} s ({backend}); {len(rates)} steps of {per_step:.0f} s, "
              f"batches of {args.batch}, {args.connections} connections", flush=True)
        steps = []
        i = 0
        try:
            for rate in rates:
                step = asyncio.run(run_step(collector.url, rate, per_step, args.batch, args.connections, run, i))
                i = step.pop("next_i")
                steps.append(step)
                print(f"  offered {rate:>6.0f}/s  achieved {step['achieved_per_s']:>7.1f}/s  "
                      f"p50 {step['latency_ms']['p50']} ms  p99 {step['latency_ms']['p99']} ms  "
                      f"failed attempts {step['failed_attempts']}", flush=True)
            restart = None
            if args.restart_seconds > 0:
                timing: dict[str, float] = {}

                def bounce() -> None:
                    t = time.monotonic()
                    collector.stop()
                    timing["down_s"] = collector.start()
                    timing["total_s"] = time.monotonic() - t

                rate = rates[-1]
                restart = asyncio.run(run_step(collector.url, rate, args.restart_seconds, args.batch,
                                               args.connections, run, i, on_half=bounce))
                i = restart.pop("next_i")
                restart["restart_s"] = round(timing.get("total_s", 0.0), 1)
                print(f"  restart at {rate:.0f}/s: collector down {restart['restart_s']} s, achieved "
                      f"{restart['achieved_per_s']}/s, p99 {restart['latency_ms']['p99']} ms, "
                      f"failed attempts {restart['failed_attempts']} (retried)", flush=True)
        finally:
            collector.stop()
        stored, distinct = count_stored(db)
        sent = i
        ok = stored == sent == distinct
        print(f"sent {sent} distinct traces, stored {stored} ({distinct} distinct): "
              f"{'zero loss, no duplicates' if ok else 'MISMATCH'}")
        result = {"backend": backend, "python": platform.python_version(), "cpus": os.cpu_count(),
                  "batch": args.batch, "connections": args.connections, "steps": steps, "restart": restart,
                  "sent": sent, "stored": stored, "distinct": distinct, "zero_loss": ok,
                  "collector_start_s": round(startup, 1)}
        if args.scoring_seconds > 0:
            sc = scoring_phase(args, workdir, run)
            result["scoring"] = sc
            print(f"scoring: {sc['sent']} traces at {sc['rate']:.0f}/s for {sc['seconds']:.0f} s, collector killed "
                  f"(SIGKILL) halfway; {sc['states']['done']} scored, {sc['states']['failed']} failed, all scored "
                  f"after {sc['drained_after_s']} s ({sc['scored_per_s']}/s overall; {sc['done_while_sending']} "
                  f"done while sending): {'ok' if sc['all_scored'] else 'MISSING'}", flush=True)
            ok = ok and sc["all_scored"]
        if args.json:
            Path(args.json).write_text(json.dumps(result, indent=2))
        if backend == "postgresql":
            import sqlalchemy as sa

            engine = sa.create_engine(args.db)
            with engine.begin() as conn:
                conn.execute(sa.text(f'DROP SCHEMA "{db.split("%3D")[-1]}" CASCADE'))
            engine.dispose()
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
