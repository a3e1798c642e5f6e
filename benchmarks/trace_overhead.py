"""What ragauge.trace costs the traced request: p50/p99/max per request with the collector up, down, slow.

    python benchmarks/trace_overhead.py                      # 2000 requests per scenario at 400/s
    python benchmarks/trace_overhead.py --requests 500 --rate 200 --json out.json

Each request is one ``with trace.request(...)`` with a retrieval span (5 chunks of ~500 characters, as
dicts with id, text, score, metadata), a generation span (prompt, answer, ttft, tokens) and a guard span;
the timed region is the whole block, i.e. what tracing adds to the user's request (the user's own work is
nothing here). Scenarios:

* ``off``: not configured (the no-op path);
* ``up``: a real collector (``ragauge serve``'s app in its own process, SQLite in a temp folder, scoring
  off) on 127.0.0.1;
* ``down``: nothing listens on the port (connection refused); the SDK spools to a temp folder;
* ``slow``: a collector that answers each batch after 2 s.

Requests are paced at ``--rate`` per second (a busy app; without pacing a down or slow collector would
just fill the queue and count drops, which the numbers also report). Target (issue 16): p99 < 1 ms in
every scenario. The script reports; it exits 0.
"""

from __future__ import annotations

import argparse
import http.server
import json
import os
import platform
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

TOKEN = "bench-token"
CHUNKS = [{"id": f"doc-{i}", "text": ("Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 9)[:500],
           "score": 0.9 - i / 10, "metadata": {"source": f"file{i}.pdf", "page": i}} for i in range(5)]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Slow(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers.get("content-length", 0)))
        time.sleep(2.0)
        body = b'{"accepted": 0, "duplicates": 0}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


def _start_slow(port: int) -> http.server.ThreadingHTTPServer:
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", port), _Slow)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def _start_collector(port: int, folder: str):
    """The real collector in its own process (as in production: it does not share the app's GIL)."""
    import subprocess

    import httpx

    code = ("import sys, uvicorn; from ragauge.serve.app import create_app; "
            "uvicorn.run(create_app(db=sys.argv[1], token=sys.argv[2], scoring=False), host='127.0.0.1', "
            "port=int(sys.argv[3]), log_level='warning', access_log=False)")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen([sys.executable, "-c", code, f"sqlite:///{folder}/bench.db", TOKEN, str(port)], env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the collector did not start")


def _one(i: int, trace) -> None:
    with trace.request(f"question number {i}?", metadata={"user": "u"}) as t:
        with t.span("retrieval", query=f"question {i}") as s:
            s.set(chunks=CHUNKS)
        t.span("generation", prompt="Answer from the context.", answer="An answer of moderate length.",
               ttft_ms=120.0, tokens={"prompt": 900, "completion": 40}, model="m")
        t.span("guard", decision="answer")


def _measure(n: int, rate: float, trace) -> list[float]:
    gap = 1.0 / rate if rate > 0 else 0.0
    out = []
    next_t = time.perf_counter()
    for i in range(n):
        t0 = time.perf_counter_ns()
        _one(i, trace)
        out.append((time.perf_counter_ns() - t0) / 1e6)
        next_t += gap
        delay = next_t - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
    return out


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--requests", type=int, default=2000, help="measured requests per scenario (default 2000)")
    ap.add_argument("--rate", type=float, default=400.0, help="requests per second (default 400; 0 = no pause)")
    ap.add_argument("--scenarios", nargs="+", default=["off", "up", "down", "slow"],
                    choices=["off", "up", "down", "slow"])
    ap.add_argument("--json", help="also write the numbers to this file")
    args = ap.parse_args(argv)
    from ragauge import trace

    rows = []
    print(f"{args.requests} requests per scenario at {args.rate:g}/s; Python {platform.python_version()}, "
          f"{os.cpu_count()} CPUs")
    print(f"{'scenario':<9}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}  sdk counters")
    for name in args.scenarios:
        with tempfile.TemporaryDirectory() as tmp:
            port = _free_port()
            server = None
            if name == "up":
                server = _start_collector(port, tmp)
            elif name == "slow":
                server = _start_slow(port)
            if name != "off":
                trace.configure(f"http://127.0.0.1:{port}", token=TOKEN, app_name="bench", app_version="1",
                                spool_dir=Path(tmp) / "spool")
            _measure(min(200, args.requests), args.rate, trace)  # warm-up
            times = _measure(args.requests, args.rate, trace)
            if name == "up":
                trace.flush(30)
            counters = trace.stats()
            trace.shutdown(timeout=0.5 if name in ("down", "slow") else 10)
            if name == "up":
                server.terminate()
                server.wait(20)
            elif name == "slow":
                server.shutdown()
        row = {"scenario": name, "n": len(times), "p50_ms": _pct(times, 0.5), "p99_ms": _pct(times, 0.99),
               "max_ms": max(times), "counters": {k: counters[k] for k in ("sent", "dropped", "spooled")}}
        rows.append(row)
        c = row["counters"]
        print(f"{name:<9}{row['p50_ms']:>9.3f}{row['p99_ms']:>9.3f}{row['max_ms']:>9.2f}  "
              f"sent {c['sent']}, spooled batches {c['spooled']}, dropped {c['dropped']}")
    if args.json:
        Path(args.json).write_text(json.dumps({"rate": args.rate, "rows": rows}, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
