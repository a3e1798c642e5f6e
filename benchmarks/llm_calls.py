"""LLM calls and tokens per sample per metric: ragauge vs Ragas, same samples, same server, same meter.

    bash benchmarks/setup_peers_venv.sh /tmp/ragauge-peers-venv          # Ragas in its own venv
    python -m llama_cpp.server --model GGUF --n_ctx 8192 --interrupt_requests False --n_threads 1 --port 8765
    python benchmarks/llm_calls.py --upstream http://127.0.0.1:8765/v1 --model smollm2 \
        --peers-python /tmp/ragauge-peers-venv/bin/python --out llm_calls.json

Both tools talk to a small **counting proxy** that this script starts on loopback in front of
``--upstream``: every chat completion is counted with the tokens the server reports (``usage``), tagged
by an ``X-Bench-Tag`` header (tool | sample | metric). Embeddings are not counted (ragauge embeds
offline; Ragas gets a local hashing embedder in its venv, so its embedding requests never reach a server).

Samples: the first 2 Russian demo samples with a reference (3 contexts each) and 3 small English ones
defined below: 5 samples, the five metrics (faithfulness, answer relevancy, context precision,
context recall, answer correctness).

Runs:
1. ragauge, structured output (auto: json_schema -> json_object), fresh cache, one evaluate per
   sample (calls per sample exact; per metric from results.json ``usage``, shared calls named);
2. the same again from the cache: must be 0 calls;
3. ragauge with ``structured="none"`` (plain text replies), fresh cache: parse failures without
   structured output;
4. Ragas 0.4.3 (``--peers-python``), one evaluate per sample and metric, so calls are per metric.

Reported: calls and tokens per sample per metric and in total, the ratio ragauge / Ragas, the share
of metric values left unscored (ragauge: unscored with a reason; Ragas: NaN) and ragauge's parse
outcomes (re-asked, unparseable).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

FIVE = ["faithfulness", "answer_relevancy", "context_precision", "context_recall", "answer_correctness"]

ENGLISH = [
    {"id": "en1", "language": "en", "question": "How long is the warranty on the windows?",
     "answer": "The windows have a 5-year warranty. Installation is included in the price.",
     "reference": "The warranty on windows is 5 years; installation costs extra.",
     "contexts": ["Warranty: all PVC windows carry a 5-year manufacturer warranty from the date of installation.",
                  "Installation is charged separately at 1,200 roubles per window.",
                  "Delivery within the city is free for orders over 30,000 roubles."]},
    {"id": "en2", "language": "en", "question": "How fast do you deliver?",
     "answer": "Delivery takes 2 days within the city and is free for orders over 30,000 roubles.",
     "reference": "City delivery takes 2 working days; free above 30,000 roubles.",
     "contexts": ["Delivery within the city takes 2 working days after payment.",
                  "Delivery within the city is free for orders over 30,000 roubles.",
                  "Pickup from the warehouse is possible on weekdays from 9 to 18."]},
    {"id": "en3", "language": "en", "question": "Can I pay by card?",
     "answer": "Yes, you can pay by card or in cash, and we also accept cryptocurrency.",
     "reference": "Payment is accepted by card or in cash.",
     "contexts": ["Payment methods: bank card, cash on delivery, bank transfer for companies.",
                  "A 3% discount applies when paying in advance by bank transfer.",
                  "Receipts are sent by email after payment."]},
]


def samples(k: int = 3) -> list[dict]:
    """2 Russian demo samples (first ones with a reference, ``k`` contexts) + the 3 English ones above."""
    from ragauge.demo import samples_path

    rows = [json.loads(x) for x in samples_path().read_text(encoding="utf-8").splitlines() if x.strip()]
    ru = [r for r in rows if r.get("reference") and r.get("answer") and len(r.get("contexts") or []) >= 2
          and "~" not in r["id"]][:2]  # "q01~noise" is a variant of q01: two distinct questions
    out = []
    for r in ru:
        ctx = [c["text"] if isinstance(c, dict) else c for c in r["contexts"]][:k]
        out.append({"id": r["id"], "language": "ru", "question": r["question"], "answer": r["answer"],
                    "reference": r["reference"], "contexts": ctx})
    return out + ENGLISH


# --- the counting proxy -----------------------------------------------------------------------------
class Meter:
    """Chat completions seen by the proxy: (tag, status, prompt_tokens, completion_tokens)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.rows: list[dict[str, Any]] = []

    def add(self, **row: Any) -> None:
        with self.lock:
            self.rows.append(row)

    def select(self, prefix: str) -> list[dict[str, Any]]:
        with self.lock:
            return [r for r in self.rows if r["tag"].startswith(prefix)]


def start_proxy(upstream: str, meter: Meter) -> tuple[ThreadingHTTPServer, str]:
    up = upstream.rstrip("/")
    base_path = "/" + up.split("/", 3)[3] if up.count("/") >= 3 else ""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"  # one request per connection: no stale keep-alive for a client to reuse

        def log_message(self, *args: Any) -> None:
            pass

        def _reply(self, status: int, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Connection", "close")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:  # noqa: N802  (model listing)
            try:
                with urllib.request.urlopen(up + self.path[len(base_path):], timeout=30) as r:
                    self._reply(r.status, r.read())
            except urllib.error.HTTPError as e:
                self._reply(e.code, e.read())

        def do_POST(self) -> None:  # noqa: N802
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            tag = self.headers.get("X-Bench-Tag", "untagged")
            body = same_limit(body)
            req = urllib.request.Request(up + self.path[len(base_path):], data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
            t0 = time.perf_counter()
            try:
                with urllib.request.urlopen(req, timeout=900) as r:
                    status, out = r.status, r.read()
            except urllib.error.HTTPError as e:
                status, out = e.code, e.read()
            except OSError as e:
                status, out = 502, json.dumps({"error": str(e)}).encode()
            if self.path.endswith("/chat/completions"):
                usage = {}
                if status == 200:
                    try:
                        usage = json.loads(out).get("usage") or {}
                    except ValueError:
                        pass
                meter.add(tag=tag, status=status, prompt_tokens=int(usage.get("prompt_tokens") or 0),
                          completion_tokens=int(usage.get("completion_tokens") or 0),
                          seconds=round(time.perf_counter() - t0, 2))
            self._reply(status, out)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}{base_path or '/v1'}"


def same_limit(body: bytes) -> bytes:
    """langchain-openai sends ``max_completion_tokens``, which llama-cpp-python ignores (it reads
    ``max_tokens``): copy it over so every tool gets the completion limit it asked for."""
    try:
        req = json.loads(body)
    except ValueError:
        return body
    if isinstance(req, dict) and "max_completion_tokens" in req and "max_tokens" not in req:
        req["max_tokens"] = req["max_completion_tokens"]
        return json.dumps(req).encode()
    return body


def tally(rows: list[dict[str, Any]]) -> dict[str, int]:
    ok = [r for r in rows if r["status"] == 200]
    return {"calls": len(ok), "failed_requests": len(rows) - len(ok),
            "prompt_tokens": sum(r["prompt_tokens"] for r in ok),
            "completion_tokens": sum(r["completion_tokens"] for r in ok),
            "tokens": sum(r["prompt_tokens"] + r["completion_tokens"] for r in ok)}


# --- ragauge ----------------------------------------------------------------------------------------
def run_ragauge(data: list[dict], proxy: str, model: str, *, cache: str, structured: str, max_tokens: int,
                meter: Meter, label: str) -> dict[str, Any]:
    import ragauge
    from ragauge.judges.llm import LLMConfig, LLMJudge

    per_sample, usage_by_metric, unscored, outcomes = {}, [], {m: 0 for m in FIVE}, {}
    for s in data:
        tag = f"{label}|{s['id']}"
        cfg = LLMConfig(model=model, base_url=proxy, headers={"X-Bench-Tag": tag}, max_tokens=max_tokens,
                        structured=structured, timeout=900, concurrency=1)
        judge = LLMJudge(cfg, cache=cache)
        res = ragauge.evaluate([s], metrics=FIVE, profile=None, judge=judge, n_resamples=50)
        doc = res.to_dict()
        per_sample[s["id"]] = tally(meter.select(tag + "|") + meter.select(tag))
        usage_by_metric.append(doc["usage"])
        for m in FIVE:
            unscored[m] += doc["summary"][m]["n_unscored"]
        for k, v in judge.provenance().details["outcomes"].items():
            outcomes[k] = outcomes.get(k, 0) + v
        judge.close()
    return {"per_sample": per_sample, "total": tally(meter.select(label + "|")), "usage": merge_usage(usage_by_metric),
            "unscored": unscored, "outcomes": outcomes}


def merge_usage(docs: list[dict]) -> dict[str, dict[str, int]]:
    """Sum results.json ``usage`` buckets (by_metric and shared) over the per-sample runs."""
    out: dict[str, dict[str, int]] = {}
    for d in docs:
        for name, c in list(d["by_metric"].items()) + [("shared: " + k, v) for k, v in d["shared"].items()]:
            b = out.setdefault(name, {"calls": 0, "cached": 0, "tokens": 0})
            b["calls"] += c["calls"]
            b["cached"] += c["cached"]
            b["tokens"] += c["tokens"]
    return out


# --- Ragas (in its own venv) ------------------------------------------------------------------------
RAGAS_DRIVER = r'''
import json, math, os, sys, hashlib, warnings
warnings.filterwarnings("ignore")
os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")
from langchain_core.embeddings import Embeddings
from langchain_openai import ChatOpenAI
from ragas import EvaluationDataset, evaluate
from ragas.embeddings import LangchainEmbeddingsWrapper
from ragas.llms import LangchainLLMWrapper
from ragas.run_config import RunConfig
from ragas.metrics import answer_correctness, answer_relevancy, context_precision, context_recall, faithfulness

class HashEmbeddings(Embeddings):
    """Local, deterministic bag-of-words hashing: no server, so only chat calls are counted."""
    def _one(self, text):
        v = [0.0] * 256
        for w in text.lower().split():
            v[int(hashlib.md5(w.encode()).hexdigest(), 16) % 256] += 1.0
        n = math.sqrt(sum(x * x for x in v)) or 1.0
        return [x / n for x in v]
    def embed_documents(self, texts):
        return [self._one(t) for t in texts]
    def embed_query(self, text):
        return self._one(text)

cfg = json.loads(sys.argv[1])
metrics = {"faithfulness": faithfulness, "answer_relevancy": answer_relevancy, "context_precision": context_precision,
           "context_recall": context_recall, "answer_correctness": answer_correctness}
emb = LangchainEmbeddingsWrapper(HashEmbeddings())
out = {}
for s in cfg["samples"]:
    row = {"user_input": s["question"], "retrieved_contexts": s["contexts"], "response": s["answer"],
           "reference": s["reference"]}
    for name in cfg["metrics"]:
        llm = LangchainLLMWrapper(ChatOpenAI(model=cfg["model"], base_url=cfg["url"], api_key="none", temperature=0,
                                             max_tokens=cfg["max_tokens"], timeout=900, max_retries=0,
                                             default_headers={"X-Bench-Tag": "ragas|%s|%s" % (s["id"], name)}))
        try:
            res = evaluate(EvaluationDataset.from_list([row]), metrics=[metrics[name]], llm=llm, embeddings=emb,
                           run_config=RunConfig(timeout=900, max_retries=1, max_workers=1), show_progress=False)
            val = res.to_pandas()[name].iloc[0]
            val = None if val is None or (isinstance(val, float) and math.isnan(val)) else float(val)
            out["%s|%s" % (s["id"], name)] = {"value": val}
        except Exception as exc:
            out["%s|%s" % (s["id"], name)] = {"value": None, "error": repr(exc)[:300]}
        print(json.dumps({"done": "%s|%s" % (s["id"], name), **out["%s|%s" % (s["id"], name)]}), file=sys.stderr, flush=True)
print(json.dumps(out))
'''


def run_ragas(python: str, data: list[dict], proxy: str, model: str, max_tokens: int, meter: Meter) -> dict[str, Any]:
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(RAGAS_DRIVER)
    cfg = {"samples": data, "metrics": FIVE, "url": proxy, "model": model, "max_tokens": max_tokens}
    env = {**os.environ, "RAGAS_DO_NOT_TRACK": "true", "OPENAI_API_KEY": "none"}
    log = Path(tempfile.gettempdir()) / "ragauge-llm-calls-ragas.log"  # the driver's progress, one line a run
    with open(log, "w", encoding="utf-8") as err:
        proc = subprocess.run([python, f.name, json.dumps(cfg, ensure_ascii=False)], stdout=subprocess.PIPE,
                              stderr=err, text=True, env=env)
    os.unlink(f.name)
    if proc.returncode != 0:
        raise SystemExit(f"the Ragas run failed (exit {proc.returncode}): see {log}")
    values = json.loads(proc.stdout.strip().splitlines()[-1])
    per = {f"{s['id']}|{m}": tally(meter.select(f"ragas|{s['id']}|{m}")) for s in data for m in FIVE}
    return {"per_sample_metric": per, "values": values, "total": tally(meter.select("ragas|")),
            "unscored": {m: sum(values[f"{s['id']}|{m}"]["value"] is None for s in data) for m in FIVE}}


# --- report -----------------------------------------------------------------------------------------
def report(result: dict[str, Any]) -> str:
    n = result["n_samples"]
    rg, ra = result["ragauge"], result.get("ragas")
    lines = [f"samples: {n} ({result['n_ru']} Russian); model {result['model']}; max_tokens {result['max_tokens']}", ""]
    lines.append("| metric | ragauge calls/sample | ragauge tokens/sample | Ragas calls/sample | Ragas tokens/sample |")
    lines.append("|---|---|---|---|---|")
    for name, b in rg["usage"].items():
        r_calls = r_tok = "-"
        if ra and name in FIVE:
            per = [ra["per_sample_metric"][k] for k in ra["per_sample_metric"] if k.endswith("|" + name)]
            r_calls = f"{sum(p['calls'] for p in per) / n:.1f}"
            r_tok = f"{sum(p['tokens'] for p in per) / n:.0f}"
        lines.append(f"| {name} | {b['calls'] / n:.1f} | {b['tokens'] / n:.0f} | {r_calls} | {r_tok} |")
    if ra:
        for name in FIVE:
            if name not in rg["usage"]:
                per = [ra["per_sample_metric"][k] for k in ra["per_sample_metric"] if k.endswith("|" + name)]
                lines.append(f"| {name} | (shared) | (shared) | {sum(p['calls'] for p in per) / n:.1f} | "
                             f"{sum(p['tokens'] for p in per) / n:.0f} |")
    t = rg["total"]
    row = f"| **all five** | {t['calls'] / n:.1f} | {t['tokens'] / n:.0f} |"
    if ra:
        rt = ra["total"]
        row += f" {rt['calls'] / n:.1f} | {rt['tokens'] / n:.0f} |"
        lines += [row, "", f"ratio ragauge / Ragas: calls {t['calls'] / max(rt['calls'], 1):.2f}, "
                  f"tokens {t['tokens'] / max(rt['tokens'], 1):.2f}"]
    else:
        lines.append(row + " - | - |")
    if "ragauge_cached" in result:
        lines.append(f"ragauge second run from the cache: {result['ragauge_cached']['total']['calls']} calls")
    plain = result.get("ragauge_plain")
    lines.append(f"unscored metric values (of {n * 5}): ragauge structured {sum(rg['unscored'].values())}"
                 + (f", ragauge plain text {sum(plain['unscored'].values())}" if plain else "")
                 + (f", Ragas {sum(ra['unscored'].values())}" if ra else ""))
    lines.append(f"ragauge parse outcomes: structured {rg['outcomes']}" + (f"; plain {plain['outcomes']}" if plain else ""))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--upstream", required=True, help="the OpenAI-compatible server, e.g. http://127.0.0.1:8765/v1")
    ap.add_argument("--model", required=True)
    ap.add_argument("--peers-python", help="python of the Ragas venv (benchmarks/setup_peers_venv.sh); "
                    "without it only ragauge is measured")
    ap.add_argument("--max-tokens", type=int, default=384)
    ap.add_argument("--k", type=int, default=3, help="contexts per demo sample")
    ap.add_argument("--runs", default="ragauge,cached,plain,ragas",
                    help="which runs (default %(default)s); 'plain' alone measures parse failures without "
                    "structured output")
    ap.add_argument("--samples", help="comma-separated sample ids to keep (default: all 5), e.g. q01,en3")
    ap.add_argument("--out", help="write everything as JSON here")
    args = ap.parse_args(argv)

    data = samples(args.k)
    if args.samples:
        keep = args.samples.split(",")
        data = [s for s in data if s["id"] in keep]
        if not data:
            raise SystemExit(f"--samples {args.samples}: none of these ids; known: q01, q02 (demo), en1, en2, en3")
    meter = Meter()
    server, proxy = start_proxy(args.upstream, meter)
    work = Path(tempfile.mkdtemp(prefix="ragauge-llm-calls-"))
    try:
        result: dict[str, Any] = {"n_samples": len(data), "n_ru": sum(s["language"] == "ru" for s in data),
                                  "model": args.model, "max_tokens": args.max_tokens, "samples": [s["id"] for s in data]}
        t0 = time.perf_counter()
        kw = dict(model=args.model, max_tokens=args.max_tokens, meter=meter)

        def save() -> None:  # after every run: a long benchmark interrupted keeps what it measured
            if args.out:
                Path(args.out).write_text(json.dumps(result, indent=1, ensure_ascii=False), encoding="utf-8")

        runs = set(args.runs.split(","))
        if "ragauge" in runs:
            result["ragauge"] = run_ragauge(data, proxy, cache=str(work / "c1.sqlite"), structured="auto",
                                            label="ragauge", **kw)
            result["ragauge"]["seconds"] = round(time.perf_counter() - t0, 1)
            print("ragauge:", json.dumps(result["ragauge"]["total"]), file=sys.stderr, flush=True)
            save()
        if "cached" in runs and "ragauge" in runs:
            result["ragauge_cached"] = run_ragauge(data, proxy, cache=str(work / "c1.sqlite"), structured="auto",
                                                   label="cached", **kw)
        if "plain" in runs:
            result["ragauge_plain"] = run_ragauge(data, proxy, cache=str(work / "c2.sqlite"), structured="none",
                                                  label="plain", **kw)
            print("ragauge plain:", json.dumps(result["ragauge_plain"]["total"]), file=sys.stderr, flush=True)
            save()
        if "ragas" in runs and args.peers_python:
            t0 = time.perf_counter()
            result["ragas"] = run_ragas(args.peers_python, data, proxy, args.model, args.max_tokens, meter)
            result["ragas"]["seconds"] = round(time.perf_counter() - t0, 1)
        text = report(result) if "ragauge" in result else json.dumps(
            {k: {x: v[x] for x in ("total", "unscored", "outcomes")} for k, v in result.items() if k.startswith("ragauge")},
            indent=1)
        print(text)
        if args.out:
            Path(args.out).write_text(json.dumps({**result, "report": text}, indent=1, ensure_ascii=False),
                                      encoding="utf-8")
    finally:
        server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
