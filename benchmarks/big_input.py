"""Peak memory of ``ragauge eval`` on a big JSONL file, and the load time of ``ragauge.data.load``.

    python benchmarks/big_input.py                      # 200 MB file, peak RSS of the eval run
    python benchmarks/big_input.py --mb 20              # quick look
    python benchmarks/big_input.py --load-lines 50000   # also: seconds of load() on a 50k-line file (best of 3)
    python benchmarks/big_input.py --json out.json      # machine-readable numbers too
    python benchmarks/big_input.py --src /tmp/old/src   # measure another copy of the package

The file is synthetic and seeded: each line is a RAG sample as users write them -- a question, an
answer, 5 contexts of ~300 characters with ids and scores, 10 retrieved ids, 3 graded relevant ids
and a few metadata columns (about 2.6 KB a line, so 200 MB is ~80k samples). The run measured is

    ragauge eval big.jsonl --metrics ndcg@10,mrr --profile none --out OUT --quiet

in a child process; its peak resident memory is the child's ``ru_maxrss`` (``os.wait4``), which
counts the child only, not this script. The script reports; it exits 0 (or the child's exit code
when the run itself failed).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

_WORDS = (
    "retrieval augmented generation evaluates answers against contexts that a search system returned for "
    "each question users asked about policies invoices refunds shipping accounts passwords limits terms "
    "warranty delivery returns"
).split()


def _text(rng: random.Random, n_words: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(n_words))


def sample_line(i: int, rng: random.Random) -> str:
    docs = [f"doc-{rng.randrange(1_000_000)}-{j}" for j in range(10)]
    record = {
        "id": f"q{i}",
        "question": _text(rng, 14) + "?",
        "answer": _text(rng, 40),
        "contexts": [
            {"id": docs[j], "text": _text(rng, 45), "score": round(1 - j / 10, 3)} for j in range(5)
        ],
        "retrieved_ids": docs,
        "relevant_ids": {docs[rng.randrange(10)]: 2, f"doc-x{i}": 1, docs[rng.randrange(10)] + "b": 1},
        "latency_ms": round(rng.uniform(200, 2000), 1),
        "tags": [rng.choice(("faq", "billing", "shipping"))],
        "source": "synthetic",
    }
    return json.dumps(record, ensure_ascii=False)


def write_file(path: Path, *, target_bytes: int | None = None, lines: int | None = None, seed: int = 0) -> int:
    """Write samples until ``target_bytes`` or ``lines``; return the number of lines."""
    rng = random.Random(seed)
    size = 0
    n = 0
    with open(path, "w", encoding="utf-8") as fh:
        while (target_bytes is not None and size < target_bytes) or (lines is not None and n < lines):
            line = sample_line(n, rng) + "\n"
            fh.write(line)
            size += len(line.encode("utf-8"))
            n += 1
    return n


def peak_rss_of_eval(data: Path, out: Path, src: Path) -> tuple[int, float, int]:
    """(child's peak RSS in bytes, wall seconds, exit code) of one ``ragauge eval`` run."""
    cmd = [sys.executable, "-m", "ragauge", "eval", str(data), "--metrics", "ndcg@10,mrr",
           "--profile", "none", "--out", str(out), "--quiet"]
    env = dict(os.environ, PYTHONPATH=str(src) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if proc.returncode not in (0, 1):  # 1: a gate failed, still a finished run
        sys.stderr.write(err.decode("utf-8", "replace")[-2000:])
    return usage.ru_maxrss * 1024, wall, proc.returncode  # Linux reports kilobytes


def load_seconds(path: Path, repeat: int = 3) -> float:
    from ragauge.data import load

    best = float("inf")
    for _ in range(repeat):  # CPU time: the wall clock of a shared machine says little
        start = time.process_time()
        load(path)
        best = min(best, time.process_time() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=200.0, help="size of the JSONL file in MB (10^6 bytes)")
    parser.add_argument("--load-lines", type=int, default=0, help="also time load() on a file of this many lines")
    parser.add_argument("--dir", type=Path, default=None, help="where to write the files (default: a temp folder)")
    parser.add_argument("--json", type=Path, default=None, help="write the numbers here too")
    parser.add_argument("--src", type=Path, default=ROOT / "src",
                        help="the folder holding the ragauge package to measure (to compare two versions)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.src))

    numbers: dict[str, object] = {"python": platform.python_version(), "machine": platform.machine()}
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        folder = Path(tmp)
        if args.mb > 0:
            big = folder / "big.jsonl"
            t0 = time.perf_counter()
            n = write_file(big, target_bytes=int(args.mb * 1e6))
            size = big.stat().st_size
            print(f"wrote {big.name}: {size / 1e6:.1f} MB, {n} lines ({time.perf_counter() - t0:.1f} s)")
            rss, wall, code = peak_rss_of_eval(big, folder / "out", args.src)
            print(f"ragauge eval --metrics ndcg@10,mrr --profile none: peak RSS {rss / 2**20:.0f} MiB, "
                  f"{wall:.1f} s, exit {code}")
            numbers.update(file_bytes=size, lines=n, peak_rss_bytes=rss, eval_seconds=round(wall, 2), exit=code)
            big.unlink()
        if args.load_lines > 0:
            small = folder / "load.jsonl"
            write_file(small, lines=args.load_lines, seed=1)
            secs = load_seconds(small)
            print(f"load() of {args.load_lines} lines ({small.stat().st_size / 1e6:.1f} MB): {secs:.2f} s CPU (best of 3)")
            numbers.update(load_lines=args.load_lines, load_seconds=round(secs, 3))
    if args.json is not None:
        args.json.write_text(json.dumps(numbers, indent=2) + "\n", encoding="utf-8")
    code = numbers.get("exit", 0)
    return code if isinstance(code, int) and code not in (0, 1) else 0


if __name__ == "__main__":
    raise SystemExit(main())
