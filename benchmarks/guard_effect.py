"""What does the guard buy, and what does it cost? The reference RAG unguarded vs guarded.

    python benchmarks/guard_effect.py                         # extractive generator, offline judge
    python benchmarks/guard_effect.py --llm openai:MODEL@URL  # an OpenAI-compatible LLM generates
    python benchmarks/guard_effect.py --out-dir DIR           # guard_effect.json / .md (default: print only)

Question sets (``benchmarks/data/guard_effect_questions.jsonl`` + the demo):

* **answerable** -- the demo's 39 labelled questions (``relevant_ids``) and 8 English questions about the
  same Russian knowledge base (``e01``-``e08``), over the demo KB;
* **unanswerable** -- the demo's 4 (q17-q20) and 48 written for this benchmark (40 Russian, 8 English):
  plausible for a construction firm, absent from the KB (many are near misses: "паркет", "гарантия на
  окна", "шумоизоляция");
* **noisy** -- 14 demo questions over the demo KB *plus* 14 injected distractor chunks (a partner's
  price list, a 2023 draft contract, chat notes, a vendor leaflet...) that contradict the KB on the
  asked number.

Configurations: unguarded; the guard with its defaults (score_threshold 0.7, relevancy 0.7, support
0.8); two calibrated alternatives whose thresholds are the 10th / 25th percentiles of the demo
answerable questions' top score, relevancy and support (so they keep ~90 % / ~75 % of those
questions per stage; a percentile above the default keeps the default -- calibrated on the answerable set, so the answered rate there is in-sample; the
unanswerable and noisy sets are never used to choose anything); and each of those with
``post_check="flag"``; and, unguarded and p25, with the metadata filter ``doc_id`` in the firm's own
five documents passed into the search (the contract's "filter before the vector search").

Reported: honest rate on unanswerable (guard kind no_answer/clarifying_question, or an answer the
offline judge reads as a refusal), answered rate on answerable (the cost), hit_rate@5 / recall@5 of
the retriever, faithfulness and answer_correctness (``ragauge.evaluate``, offline judge) on noisy
context, the share of noisy answers citing a distractor, and latency. Timings on a loaded machine are
noisy: compare configurations within one run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import numpy as np  # noqa: E402

import ragauge  # noqa: E402
from ragauge.data.schema import Sample  # noqa: E402
from ragauge.demo import kb_path, samples_path  # noqa: E402
from ragauge.rag import ReferenceRAG, run_samples  # noqa: E402
from ragauge.rag.kb import read_kb_jsonl  # noqa: E402

QUESTIONS = ROOT / "benchmarks" / "data" / "guard_effect_questions.jsonl"
HONEST = ("no_answer", "clarifying_question")


def load_sets(limit: int | None) -> tuple[dict[str, list[Sample]], list[dict]]:
    demo = [s for s in ragauge.load(str(samples_path())) if "~" not in s.id]
    rows = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]

    def sample(r: dict) -> Sample:
        return Sample(id=r["id"], question=r["question"], relevant_ids=r.get("relevant_ids"),
                      reference=r.get("reference"), tags=tuple(r.get("tags", ())), language=r.get("language"),
                      metadata={"kind": r["kind"], **({"source_id": r["source_id"]} if "source_id" in r else {})})

    sets = {
        "answerable": [s for s in demo if s.relevant_ids] + [sample(r) for r in rows if r["kind"] == "answerable"],
        "unanswerable": [s for s in demo if not s.relevant_ids] + [sample(r) for r in rows if r["kind"] == "unanswerable"],
        "noisy": [sample(r) for r in rows if r["kind"] == "noisy"],
    }
    if limit:
        sets = {k: v[:limit] for k, v in sets.items()}
    distractors = [{k: v for k, v in r.items() if k != "kind"} for r in rows if r["kind"] == "distractor"]
    return sets, distractors


def probe(rag: ReferenceRAG, samples: list[Sample]) -> dict[str, list[float]]:
    """Top score, relevancy and support of every question, from a guard that lets everything through."""
    guard = rag.guarded(score_threshold=0.0, grade_thresholds={"relevancy": 0.0, "support": 0.0})
    out: dict[str, list[float]] = {"score": [], "relevancy": [], "support": []}
    for s in samples:
        r = guard.run(s.question, k=rag.k)
        out["score"].append(r.stage("score_threshold").scores["max_score"])
        grade = r.stage("grade").scores
        out["relevancy"].append(grade["relevancy"])
        out["support"].append(grade["support"])
    return out


def configs(probed: dict[str, list[float]]) -> dict[str, dict | None]:
    def q(name: str, p: float) -> float:
        return round(float(np.percentile(probed[name], p)), 3)

    # A calibrated alternative only relaxes a default (the judge's relevancy of answerable questions is
    # mostly above 0.9, so its percentile would make that gate stricter than the default, not looser).
    out: dict[str, dict | None] = {"unguarded": None, "guard default": {}}
    for label, p in (("calibrated p10", 10), ("calibrated p25", 25)):
        out[f"guard {label}"] = {"score_threshold": min(0.7, q("score", p)),
                                 "grade_thresholds": {"relevancy": min(0.7, q("relevancy", p)),
                                                      "support": min(0.8, q("support", p))}}
    return out


def run(rag: ReferenceRAG, samples: list[Sample], guard_kwargs: dict | None) -> list[Sample]:
    # Every configuration starts with a cold query-embedding cache, so latencies compare fairly (the
    # index's chunk vectors are an array of the index, not in this cache).
    rag.index.embedder._memory.clear()
    guard = None if guard_kwargs is None else rag.guarded(**guard_kwargs)
    return run_samples(rag, samples, guard=guard)


def kinds(samples: list[Sample], judge) -> list[str]:
    """The guard's kind, or for unguarded answers "answer" / "refusal" (the offline judge's refusal test)."""
    out: list[str] = []
    if not samples:
        return out
    refusals = judge.refusals([s.answer or "" for s in samples], [s.language for s in samples])
    for s, refused in zip(samples, refusals):
        kind = s.metadata.get("guard_kind", "answer")
        out.append("refusal" if kind == "answer" and refused else kind)
    return out


def pct(xs: list[float], p: float) -> float | None:
    return round(float(np.percentile(xs, p)), 1) if xs else None


def summarise(name: str, sets_out: dict[str, list[Sample]], judge) -> dict:
    row: dict = {"config": name}
    ans, una, noi = sets_out["answerable"], sets_out["unanswerable"], sets_out["noisy"]
    k_ans, k_una, k_noi = kinds(ans, judge), kinds(una, judge), kinds(noi, judge)
    share = lambda hits, n: hits / n if n else None  # noqa: E731
    row["unanswerable_honest"] = share(sum(k in HONEST or k == "refusal" for k in k_una), len(una))
    row["unanswerable_kinds"] = {k: k_una.count(k) for k in sorted(set(k_una))}
    row["answerable_answered"] = share(sum(k == "answer" for k in k_ans), len(ans))
    row["answerable_kinds"] = {k: k_ans.count(k) for k in sorted(set(k_ans))}
    row["hit_rate@5"] = row["recall@5"] = None
    if ans:
        res = ragauge.evaluate(ans, metrics=["hit_rate@5", "recall@5"], profile=None, judge=None, n_resamples=200)
        row["hit_rate@5"] = res.summary["hit_rate@5"].value
        row["recall@5"] = res.summary["recall@5"].value
    answered_noisy = [s for s, k in zip(noi, k_noi) if k == "answer"]
    row["noisy_answered"] = share(len(answered_noisy), len(noi))
    row["noisy_distractor_cited"] = (sum(any(c.startswith("noise-") for c in s.metadata.get("citations", ()))
                                         for s in answered_noisy) / len(answered_noisy)
                                     if answered_noisy else None)
    if answered_noisy:
        res = ragauge.evaluate(answered_noisy, metrics=["faithfulness", "answer_correctness"], profile=None,
                               judge="offline", n_resamples=200)
        row["noisy_faithfulness"] = res.summary["faithfulness"].value
        row["noisy_correctness"] = res.summary["answer_correctness"].value
    else:
        row["noisy_faithfulness"] = row["noisy_correctness"] = None
    lat = [s.latency_ms for s in ans + una + noi if s.latency_ms is not None]
    over = [s.metadata["guard"]["overhead_ms"] for s in ans + una + noi if "guard" in s.metadata]
    row["latency_p50_ms"], row["latency_p95_ms"] = pct(lat, 50), pct(lat, 95)
    row["guard_overhead_p50_ms"], row["guard_overhead_p95_ms"] = pct(over, 50), pct(over, 95)
    return row


def fmt(x, nd=2):
    if x is None:
        return "–"
    return f"{x:.{nd}f}" if isinstance(x, float) else str(x)


def markdown(rows: list[dict], n: dict[str, int], cfgs: dict) -> str:
    head = ("| configuration | unanswerable: honest no-answer/clarification | answerable: answered (cost) | "
            "hit_rate@5 | recall@5 | noisy: answered | noisy: faithfulness | noisy: correctness | "
            "noisy: cites a distractor | latency p50 / p95 ms | guard overhead p50 / p95 ms |")
    lines = [head, "|" + "---|" * 11]
    for r in rows:
        lines.append(f"| {r['config']} | {fmt(r['unanswerable_honest'])} | {fmt(r['answerable_answered'])} | "
                     f"{fmt(r['hit_rate@5'])} | {fmt(r['recall@5'])} | {fmt(r['noisy_answered'])} | "
                     f"{fmt(r['noisy_faithfulness'])} | {fmt(r['noisy_correctness'])} | "
                     f"{fmt(r['noisy_distractor_cited'])} | {fmt(r['latency_p50_ms'], 1)} / {fmt(r['latency_p95_ms'], 1)} | "
                     f"{fmt(r['guard_overhead_p50_ms'], 1)} / {fmt(r['guard_overhead_p95_ms'], 1)} |")
    lines.append("")
    lines.append(f"n: answerable {n['answerable']}, unanswerable {n['unanswerable']}, noisy {n['noisy']}. "
                 "Faithfulness/correctness: mean over the noisy questions the configuration answered.")
    lines.append("")
    lines.append("Thresholds: " + "; ".join(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in cfgs.items()
                                           if v is not None))
    lines.append("")
    lines.append("Outcome kinds: " + "; ".join(
        f"{r['config']}: answerable {r['answerable_kinds']}, unanswerable {r['unanswerable_kinds']}" for r in rows))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--llm", default=None, help="generator: an OpenAI-compatible spec openai:MODEL@URL")
    parser.add_argument("--out-dir", default=None, help="write guard_effect.json and guard_effect.md here")
    parser.add_argument("--limit", type=int, default=None, help="first N questions of each set (a quick check)")
    parser.add_argument("--no-flag", action="store_true", help="skip the post_check='flag' variants")
    parser.add_argument("--sets", default="answerable,unanswerable,noisy",
                        help="comma-separated subset of answerable,unanswerable,noisy (a slow LLM: noisy only)")
    parser.add_argument("--max-tokens", type=int, default=400, help="--llm: answer length limit")
    args = parser.parse_args(argv)

    t0 = time.perf_counter()
    sets, distractors = load_sets(args.limit)
    kb = read_kb_jsonl(kb_path())
    chosen = [x.strip() for x in args.sets.split(",") if x.strip()]
    unknown = set(chosen) - set(sets)
    if unknown:
        parser.error(f"--sets: unknown {sorted(unknown)}; choose from {sorted(sets)}")
    sets = {k: (v if k in chosen else []) for k, v in sets.items()}
    llm = None
    if args.llm:
        from ragauge.rag.llm import LLMGenerator

        llm = LLMGenerator(args.llm, max_tokens=args.max_tokens)
    rag = ReferenceRAG.from_records(kb, llm=llm)
    noisy_rag = ReferenceRAG(type(rag.index)(kb + distractors, embedder=rag.index.embedder), llm=llm)
    from ragauge.judges.offline.judge import OfflineJudge

    judge = OfflineJudge.shared()
    probed = probe(rag, [s for s in load_sets(None)[0]["answerable"] if s.id.startswith("q")])
    cfgs = configs(probed)
    if not args.no_flag:
        cfgs.update({f"{k} + post_check=flag": {**(v or {}), "post_check": "flag"}
                     for k, v in list(cfgs.items()) if v is not None})
    # Stage 3 of the contract: a metadata filter inside the search, here "only our own documents".
    trusted = {"doc_id": sorted({r["doc_id"] for r in kb})}
    cfgs["unguarded + filter doc_id=own documents"] = {"_filters": trusted}
    cfgs["guard calibrated p25 + filter doc_id=own documents"] = {**cfgs["guard calibrated p25"], "_filters": trusted}
    rows, raw = [], {}
    for name, cfg in cfgs.items():
        kw = None if cfg is None else {k: v for k, v in cfg.items() if k != "_filters"}
        if cfg is not None and list(cfg) == ["_filters"]:
            kw = None
        filters = (cfg or {}).get("_filters")
        use = {k: [replace(x, metadata={**x.metadata, "filters": filters}) for x in v] if filters else v
               for k, v in sets.items()}
        outs = {"answerable": run(rag, use["answerable"], kw) if use["answerable"] else [],
                "unanswerable": run(rag, use["unanswerable"], kw) if use["unanswerable"] else [],
                "noisy": run(noisy_rag, use["noisy"], kw) if use["noisy"] else []}
        rows.append(summarise(name, outs, judge))
        raw[name] = {k: [ragauge.data.sample_to_dict(s) for s in v] for k, v in outs.items()}
        print(f"[{time.perf_counter() - t0:6.1f}s] {name}", file=sys.stderr)
    n = {k: len(v) for k, v in sets.items()}
    md = markdown(rows, n, cfgs)
    print(md)
    doc = {"command": "python benchmarks/guard_effect.py " + " ".join(argv if argv is not None else sys.argv[1:]),
           "generator": rag.mode, "n": n, "configs": cfgs, "rows": rows,
           "probe_quantiles": {k: {p: round(float(np.percentile(v, p)), 3) for p in (10, 25, 50)}
                               for k, v in probed.items()},
           "seconds": round(time.perf_counter() - t0, 1)}
    if args.out_dir:
        out = Path(args.out_dir)
        out.mkdir(parents=True, exist_ok=True)
        (out / "guard_effect.json").write_text(json.dumps(doc, ensure_ascii=False, indent=2), encoding="utf-8")
        (out / "guard_effect.md").write_text(md + "\n", encoding="utf-8")
        (out / "guard_effect_samples.json").write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
        print(f"wrote {out}/guard_effect.json, guard_effect.md, guard_effect_samples.json", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
