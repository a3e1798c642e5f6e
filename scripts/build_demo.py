#!/usr/bin/env python3
"""Build the bundled demo data set: ``src/ragauge/demo/data/kb.jsonl`` and ``samples.jsonl``.

Hand-written content (documents, questions, answers, references, labels, tags, relevant ids) lives in
two data files, ``src/ragauge/demo/source/kb.toml`` and ``questions.toml`` (TOML: comments, multi-line
texts, no code; read with the standard library's ``tomllib``). This script checks them (a mistake stops
it with the file, the entry and the field) and adds what a real system would produce:

- the ranking: a small BM25 retriever over lowercased Russian tokens with crude suffix stripping and no
  knowledge of document versions, so it misses paraphrases, trips over typos and mixes up the old and
  the new price list, as cheap production retrievers do. It returns the top 10 (``retrieved_ids``); the
  generator saw the top 5 (``contexts``, with their texts and retriever scores);
- simulated timings (end-to-end latency, retrieval time, time to first token), lognormal with a fixed
  seed;
- the noisy variants (noise robustness): ``ragauge.data.noise.make_noisy_variants`` over the clean
  samples (seeded), kept for the questions listed as ``[[noisy]]`` in ``questions.toml``, with the hand-written answers
  given there. A variant is not a retrieval event: it has no ``retrieved_ids`` and no ``relevant_ids``
  (ranking metrics leave it unscored), its contexts are the clean ones with two chunks inserted.

The output is deterministic: the same bytes on every run. Usage::

    python scripts/build_demo.py            # writes into src/ragauge/demo/data/
    python scripts/build_demo.py --out DIR  # writes elsewhere (the tests rebuild into a tmp dir)
    python scripts/build_demo.py --show     # also prints each question's ranking
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "src" / "ragauge" / "demo" / "data"
SOURCE_DIR = ROOT / "src" / "ragauge" / "demo" / "source"
if str(ROOT / "src") not in sys.path:  # a bare checkout works too (the package is imported lazily)
    sys.path.append(str(ROOT / "src"))

#: How many ids the retriever returns, and how many of them the generator sees as contexts.
TOP_K = 10
N_CONTEXTS = 5
#: Text analysis of the demo system: "standard" (lowercase word tokens, no stemming, no stop words), the
#: default of most search engines and a classic mistake on Russian, where one word has a dozen forms.
ANALYZER = "standard"
#: BM25 parameters (the textbook defaults).
BM25_K1 = 1.2
BM25_B = 0.75
#: A BM25 score s is reported as s / (s + SCORE_HALF), a 0..1 number like a similarity score.
SCORE_HALF = 8.0
#: Seed of the simulated timings.
TIMING_SEED = 20260301
#: Noisy variants: distractors inserted per sample, the seed of ``make_noisy_variants`` and of their timings.
N_NOISE = 2
NOISE_SEED = 0
NOISE_TIMING_SEED = 20260302

TAGS = (
    "exact_numbers",
    "paraphrase",
    "long_section",
    "table",
    "document_version",
    "unanswerable",
    "badly_formulated",
    "multi_context",
    "sensitive",
    "noisy_variant",
)
ANSWER_LABELS = (
    "faithful",
    "wrong_number",
    "wrong_unit",
    "wrong_scope",
    "unsupported",
    "refusal_correct",
    "refusal_wrong",
    "off_topic",
    # the hallucination taxonomy's classes that the labels above do not name (docs/metrics.md)
    "outdated_edition",  # a figure of the superseded edition, while the current one was retrieved
    "self_contradiction",  # two statements of the answer contradict each other
    "wrong_source",  # faithful to a retrieved chunk that is itself wrong (the sample's trusted source says so)
)
#: Labels of answers that are acceptable (correct and grounded, or an honest refusal).
OK_LABELS = ("faithful", "refusal_correct")


# ------------------------------------------------------------------------------------------- source


class SourceError(ValueError):
    """A mistake in the demo's hand-written source: the message names the file, the entry and the field."""


class Source(NamedTuple):
    """The hand-written demo: documents (each with its chunks), questions and noisy variants, as read."""

    documents: list[dict[str, Any]]
    questions: list[dict[str, Any]]
    noisy: list[dict[str, Any]]


#: field -> (type, required) of each kind of entry; anything else in an entry is a mistake (a typo'd key).
_DOCUMENT = {"doc_id": (str, True), "title": (str, True), "version": (str, False), "chunks": (list, True)}
_CHUNK = {"id": (str, True), "section": (str, True), "text": (str, True)}
_QUESTION = {"id": (str, True), "question": (str, True), "tags": (list, True), "relevant": (dict, True),
             "reference": (str, True), "answer": (str, True), "label": (str, True), "note": (str, False),
             "grounded": (bool, False), "equivalent_form": (bool, False), "trusted": (str, False)}
_NOISY = {"of": (str, True), "noise": (list, True), "answer": (str, True), "label": (str, True),
          "note": (str, False), "grounded": (bool, False), "equivalent_form": (bool, False)}


def _where(path: Path, table: str, n: int, entry: dict) -> str:
    name = entry.get("id") or entry.get("of") or entry.get("doc_id")
    return f"{path.name}: [[{table}]] #{n}" + (f" ({name})" if isinstance(name, str) else "")


def _check_fields(entry: Any, schema: dict[str, tuple[type, bool]], where: str) -> dict[str, Any]:
    if not isinstance(entry, dict):
        raise SourceError(f"{where}: expected a table of fields, got {entry!r}")
    unknown = sorted(set(entry) - set(schema))
    if unknown:
        raise SourceError(f"{where}: unknown field(s) {', '.join(unknown)}; the fields are {', '.join(schema)}")
    for field, (kind, required) in schema.items():
        if field not in entry:
            if required:
                raise SourceError(f"{where}: field {field!r} is missing")
            continue
        if not isinstance(entry[field], kind) or (kind is str and not entry[field].strip()):
            raise SourceError(f"{where}: field {field!r} must be a non-empty {kind.__name__}, got {entry[field]!r}")
    return entry


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SourceError(f"{path}: cannot read the demo source ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:  # its message carries the line and column
        raise SourceError(f"{path.name}: not valid TOML: {exc}") from None


def load_source(source_dir: Path | str = SOURCE_DIR) -> Source:
    """Read ``kb.toml`` and ``questions.toml`` from ``source_dir`` and check the shape of every entry."""
    folder = Path(source_dir)
    kb_file, q_file = folder / "kb.toml", folder / "questions.toml"
    kb, qs = _read_toml(kb_file), _read_toml(q_file)
    documents = kb.get("documents", [])
    for n, doc in enumerate(documents, 1):
        where = _where(kb_file, "documents", n, doc)
        _check_fields(doc, _DOCUMENT, where)
        for m, chunk in enumerate(doc["chunks"], 1):
            _check_fields(chunk, _CHUNK, f"{where}, [[documents.chunks]] #{m}" + (f" ({chunk.get('id')})" if isinstance(chunk, dict) else ""))
    questions, noisy = qs.get("questions", []), qs.get("noisy", [])
    for table, rows, schema in (("questions", questions, _QUESTION), ("noisy", noisy, _NOISY)):
        for n, row in enumerate(rows, 1):
            _check_fields(row, schema, _where(q_file, table, n, row))
    if not documents or not questions:
        raise SourceError(f"{folder}: the demo needs [[documents]] in kb.toml and [[questions]] in questions.toml")
    return Source(documents, questions, noisy)


# --------------------------------------------------------------------------------------------- text


def clean_text(raw: str) -> str:
    """Strip each line; table chunks keep one row per line, prose becomes one line."""
    lines = [line.strip() for line in raw.strip().splitlines() if line.strip()]
    sep = "\n" if any(" | " in line for line in lines) else " "
    return sep.join(lines)


def kb_records(source: Source) -> list[dict]:
    """The chunks as written to kb.jsonl, in document order."""
    records = []
    for doc in source.documents:
        for chunk in doc["chunks"]:
            records.append(
                {
                    "id": chunk["id"],
                    "doc_id": doc["doc_id"],
                    "title": doc["title"],
                    "version": doc.get("version"),
                    "section": chunk["section"],
                    "text": clean_text(chunk["text"]),
                }
            )
    return records


# ---------------------------------------------------------------------------------------- retriever

_STOP = frozenset(
    """и в во на по с со за к ко не от до для что как какой какая какие каков какое ли или а но из о об
    при же это у то так есть если его ее их мы вы он она они я мне нам нас вас бы да нет чем там тут
    уже только еще всё все весь сколько нужно можно надо ли будет быть был была было""".split()
)
# Crude Russian suffix stripping: longest suffix first, the stem keeps at least 4 letters.
_SUFFIXES = sorted(
    """иями ями ами ого его ому ему ыми ими ых их ую юю ая яя ое ее ые ие ой ей ий ый ом ем ам ям ах ях
    ов ев ию ия ие ья ье ьи ью ть ти ся сь а я о е ы и у ю ь""".split(),
    key=len,
    reverse=True,
)
_TOKEN = re.compile(r"[a-zа-я0-9]+")


def stem(token: str) -> str:
    if token.isdigit() or len(token) <= 4:
        return token
    for suffix in _SUFFIXES:
        if token.endswith(suffix) and len(token) - len(suffix) >= 4:
            return token[: -len(suffix)]
    return token


def tokens(text: str, analyzer: str = "standard") -> list[str]:
    """``standard``: lowercase word tokens, nothing else (what the demo system uses);
    ``russian``: also drops stop words and strips suffixes (used only to print the comparison)."""
    words = _TOKEN.findall(text.lower().replace("ё", "е"))
    if analyzer == "standard":
        return words
    return [stem(t) for t in words if t not in _STOP]


class BM25:
    """Okapi BM25 over the chunk texts (title and section are not indexed)."""

    def __init__(self, records: list[dict], analyzer: str = ANALYZER) -> None:
        self.analyzer = analyzer
        self.ids = [r["id"] for r in records]
        self.docs = [Counter(tokens(r["text"], analyzer)) for r in records]
        self.lengths = [sum(d.values()) for d in self.docs]
        self.avg_len = sum(self.lengths) / len(self.lengths)
        df: Counter[str] = Counter()
        for d in self.docs:
            df.update(d.keys())
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}

    def search(self, query: str, k: int) -> list[tuple[str, float]]:
        q = set(tokens(query, self.analyzer))
        scored = []
        for i, doc in enumerate(self.docs):
            s = 0.0
            norm = BM25_K1 * (1 - BM25_B + BM25_B * self.lengths[i] / self.avg_len)
            for t in q:
                tf = doc.get(t)
                if tf:
                    s += self.idf[t] * tf * (BM25_K1 + 1) / (tf + norm)
            scored.append((s, i))
        # Highest score first; ties by position in the KB, so the order is total and stable.
        scored.sort(key=lambda p: (-p[0], p[1]))
        return [(self.ids[i], s) for s, i in scored[:k]]


def similarity(score: float) -> float:
    return round(score / (score + SCORE_HALF), 3)


# ------------------------------------------------------------------------------------------ metrics


def retrieval_figures(samples: list[dict]) -> dict[str, float | int]:
    """hit_rate, recall, MRR and nDCG (binary cut at grade >= 1, graded gains) over answerable samples."""
    rows = [s for s in samples if s["relevant_ids"]]
    out: dict[str, float | int] = {"n_answerable": len(rows)}
    for k in (5, 10):
        hits = recalls = ndcgs = 0.0
        for s in rows:
            rel = {d: g for d, g in s["relevant_ids"].items() if g >= 1}
            top = s["retrieved_ids"][:k]
            found = [d for d in top if d in rel]
            hits += bool(found)
            recalls += len(found) / len(rel)
            dcg = sum(rel.get(d, 0) / math.log2(i + 2) for i, d in enumerate(top))
            ideal = sorted(rel.values(), reverse=True)[:k]
            ndcgs += dcg / sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
        out[f"hit_rate@{k}"] = hits / len(rows)
        out[f"recall@{k}"] = recalls / len(rows)
        out[f"ndcg@{k}"] = ndcgs / len(rows)
    mrr = 0.0
    for s in rows:
        for i, d in enumerate(s["retrieved_ids"]):
            if s["relevant_ids"].get(d, 0) >= 1:
                mrr += 1 / (i + 1)
                break
    out["mrr@10"] = mrr / len(rows)
    return out


# ------------------------------------------------------------------------------------------ timings


def timings(rng: random.Random, answer: str) -> tuple[float, float, float]:
    """Simulated (latency_ms, retrieval_ms, ttft_ms): lognormal, generation time grows with the answer."""
    retrieval = rng.lognormvariate(math.log(120.0), 0.35)
    ttft = min(max(rng.lognormvariate(math.log(430.0), 0.22), 250.0), 900.0)
    per_char = rng.lognormvariate(math.log(3.2), 0.3)  # ms per answer character while streaming
    overhead = rng.lognormvariate(math.log(750.0), 0.6)  # prompt assembly, queueing, network
    latency = retrieval + ttft + overhead + per_char * len(answer)
    return round(latency, 1), round(retrieval, 1), round(ttft, 1)


# -------------------------------------------------------------------------------------------- build


def rankings(records: list[dict], questions: list[dict], analyzer: str = ANALYZER) -> dict[str, list[tuple[str, float]]]:
    index = BM25(records, analyzer)
    return {q["id"]: index.search(q["question"], TOP_K) for q in questions}


def build_samples(records: list[dict], questions: list[dict]) -> list[dict]:
    by_id = {r["id"]: r for r in records}
    ranked = rankings(records, questions)
    rng = random.Random(TIMING_SEED)
    samples = []
    for q in sorted(questions, key=lambda q: q["id"]):
        ranking = ranked[q["id"]]
        latency, retrieval, ttft = timings(rng, q["answer"])
        samples.append(
            {
                "id": q["id"],
                "question": q["question"],
                "answer": q["answer"],
                "contexts": [
                    {"id": cid, "text": by_id[cid]["text"], "score": similarity(s), "metadata": chunk_metadata(by_id[cid])}
                    for cid, s in ranking[:N_CONTEXTS]
                ],
                "retrieved_ids": [cid for cid, _ in ranking],
                "relevant_ids": dict(q["relevant"]),
                "reference": q["reference"],
                "tags": list(q["tags"]),
                "language": "ru",
                "latency_ms": latency,
                "retrieval_ms": retrieval,
                "ttft_ms": ttft,
                "metadata": {
                    "answer_label": q["label"],
                    "error_note": q.get("note"),
                    "grounded": q.get("grounded", q["label"] in OK_LABELS),
                    "equivalent_form": q.get("equivalent_form", False),
                    **({"trusted": q["trusted"]} if "trusted" in q else {}),
                },
            }
        )
    return samples


def chunk_metadata(record: dict) -> dict:
    """What the demo system passes along with a chunk: its document, title and edition (so a judge can tell the
    superseded price list from the current one: ``ragauge.guard.editions``)."""
    return {"doc_id": record["doc_id"], "title": record["title"], "version": record["version"]}


def _as_sample(row: dict):
    from ragauge.data.schema import Context, Sample

    return Sample(
        id=row["id"],
        question=row["question"],
        answer=row["answer"],
        contexts=tuple(Context(text=c["text"], id=c["id"], score=c["score"], metadata=dict(c.get("metadata") or {}))
                       for c in row["contexts"]),
        retrieved_ids=tuple(row["retrieved_ids"]),
        relevant_ids=dict(row["relevant_ids"]),
        reference=row["reference"],
        tags=tuple(row["tags"]),
        language=row["language"],
        metadata=dict(row["metadata"]),
    )


def build_noisy(clean: list[dict], noisy: list[dict]) -> list[dict]:
    """The noisy variants (``[[noisy]]`` of questions.toml): contexts from ``make_noisy_variants`` over all clean samples
    (so distractors come from the whole demo), answers and labels from the source, simulated timings."""
    from ragauge.data.noise import make_noisy_variants

    wanted = {n["of"]: n for n in noisy}
    variants = {v.metadata["noise_of"]: v for v in make_noisy_variants([_as_sample(r) for r in clean], n_noise=N_NOISE, seed=NOISE_SEED)}
    by_id = {r["id"]: r for r in clean}
    rng = random.Random(NOISE_TIMING_SEED)
    out = []
    for of in sorted(wanted):
        n, v, base = wanted[of], variants[of], by_id[of]
        drawn = tuple(c.id for c in v.contexts if c.metadata.get("noise"))
        if drawn != tuple(n["noise"]):
            raise SourceError(
                f"questions.toml: [[noisy]] of = {of!r}: make_noisy_variants inserted {list(drawn)}, the answer was "
                f"written for {list(n['noise'])}; re-check the answer against the new contexts and update 'noise'"
            )
        contexts = []
        for c in v.contexts:
            ctx = {"id": c.id, "text": c.text, "score": c.score}
            if c.metadata:
                ctx["metadata"] = dict(c.metadata)
            contexts.append(ctx)
        latency, retrieval, ttft = timings(rng, n["answer"])
        out.append(
            {
                "id": v.id,
                "question": base["question"],
                "answer": n["answer"],
                "contexts": contexts,
                "retrieved_ids": None,  # not a retrieval event: ranking metrics leave the variant unscored
                "relevant_ids": None,
                "reference": base["reference"],
                "tags": list(base["tags"]) + ["noisy_variant"],
                "language": "ru",
                "latency_ms": latency,
                "retrieval_ms": retrieval,
                "ttft_ms": ttft,
                "metadata": {
                    "answer_label": n["label"],
                    "error_note": n.get("note"),
                    "grounded": n.get("grounded", n["label"] in OK_LABELS),
                    "equivalent_form": n.get("equivalent_form", False),
                    "noise_of": of,
                    "n_noise": N_NOISE,
                    "noise_robust": n["label"] in OK_LABELS,
                },
            }
        )
    return out


def check_source(records: list[dict], source: Source) -> None:
    """Fail early on mistakes in the hand-written source, naming the entry and what to fix."""
    seen: set[str] = set()
    for r in records:
        if r["id"] in seen:
            raise SourceError(f"kb.toml: chunk id {r['id']!r} is used twice; chunk ids must be unique")
        seen.add(r["id"])
    qids = [q["id"] for q in source.questions]
    twice = sorted({q for q in qids if qids.count(q) > 1})
    if twice:
        raise SourceError(f"questions.toml: question id(s) {', '.join(twice)} used twice; ids must be unique")
    for q in source.questions:
        where = f"questions.toml: [[questions]] id = {q['id']!r}"
        if q["label"] not in ANSWER_LABELS:
            raise SourceError(f"{where}: label {q['label']!r} is not one of {', '.join(ANSWER_LABELS)}")
        if not 1 <= len(q["tags"]) <= 3 or not set(q["tags"]) <= set(TAGS) - {"noisy_variant"}:
            raise SourceError(f"{where}: tags {q['tags']} must be 1 to 3 of {', '.join(TAGS[:-1])}")
        unknown = sorted(set(q["relevant"]) - seen)
        if unknown:
            raise SourceError(f"{where}: relevant names chunk(s) not in kb.toml: {', '.join(unknown)}")
        if any(g not in (1, 2) for g in q["relevant"].values()):
            raise SourceError(f"{where}: relevant grades must be 1 (partly) or 2 (directly), got {q['relevant']}")
        if ("unanswerable" in q["tags"]) != (not q["relevant"]):
            raise SourceError(f"{where}: tag 'unanswerable' goes with an empty relevant = {{}}, and only with it")
        if (q["label"] in OK_LABELS) != ("note" not in q):
            raise SourceError(f"{where}: a note says what is wrong: required for label {q['label']!r} "
                              f"unless it is one of {', '.join(OK_LABELS)} (then leave it out)")
        if "trusted" in q and q["label"] in OK_LABELS:
            raise SourceError(f"{where}: a trusted source is given for the factuality cases (a wrong answer faithful "
                              "to a wrong context); this answer is acceptable")
    by_qid = {q["id"]: q for q in source.questions}
    noisy_of = [n["of"] for n in source.noisy]
    if len(noisy_of) != len(set(noisy_of)):
        raise SourceError("questions.toml: two [[noisy]] entries for one question; keep one per question")
    for n in source.noisy:
        where = f"questions.toml: [[noisy]] of = {n['of']!r}"
        q = by_qid.get(n["of"])
        if q is None or q["label"] != "faithful" or not q["relevant"]:
            raise SourceError(f"{where}: noisy variants are made of faithful answers to answerable questions only")
        if n["label"] not in ANSWER_LABELS or n["label"] == "refusal_correct":
            raise SourceError(f"{where}: label {n['label']!r} must be one of {', '.join(ANSWER_LABELS)} "
                              "except refusal_correct")
        if (n["label"] in OK_LABELS) != ("note" not in n):
            raise SourceError(f"{where}: a note is required for an error label and left out otherwise")
        if len(n["noise"]) != N_NOISE or set(n["noise"]) & set(q["relevant"]):
            raise SourceError(f"{where}: noise must list the {N_NOISE} inserted chunk ids, none relevant to {n['of']}")


def dump_jsonl(rows: list[dict], path: Path) -> None:
    with path.open("w", encoding="utf-8", newline="\n") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def build(out_dir: Path | str, source_dir: Path | str = SOURCE_DIR) -> dict[str, float | int]:
    """Write kb.jsonl and samples.jsonl into ``out_dir`` from the source in ``source_dir``; return the achieved
    retrieval figures (on the clean samples: the noisy variants have no ``relevant_ids``)."""
    source = load_source(source_dir)
    records = kb_records(source)
    check_source(records, source)
    samples = build_samples(records, source.questions)
    samples = sorted(samples + build_noisy(samples, source.noisy), key=lambda s: s["id"])
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    dump_jsonl(records, out / "kb.jsonl")
    dump_jsonl(samples, out / "samples.jsonl")
    return retrieval_figures(samples)


def _fmt(figures: dict[str, float | int]) -> str:
    return ", ".join(f"{k} {v:.3f}" if isinstance(v, float) else f"{k} {v}" for k, v in figures.items())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default: %(default)s)")
    parser.add_argument("--show", action="store_true", help="print each question's top 5 with relevance marks")
    parser.add_argument("--source", type=Path, default=SOURCE_DIR, help="folder of kb.toml and questions.toml (default: %(default)s)")
    args = parser.parse_args(argv)
    try:
        figures = build(args.out, args.source)
    except SourceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    source = load_source(args.source)
    samples = [json.loads(line) for line in (args.out / "samples.jsonl").read_text(encoding="utf-8").splitlines()]
    if args.show:
        for s in samples:
            if s["relevant_ids"] is None:  # a noisy variant: its contexts, distractors marked "~"
                marks = " ".join(c["id"] + ("~" if c.get("metadata", {}).get("noise") else "") for c in s["contexts"])
                print(f"{s['id']}: {marks}   [{s['metadata']['answer_label']}]")
                continue
            marks = " ".join(f"{d}{'*' * int(s['relevant_ids'].get(d, 0))}" for d in s["retrieved_ids"][:N_CONTEXTS])
            missing = [d for d in s["relevant_ids"] if d not in s["retrieved_ids"][:N_CONTEXTS]]
            print(f"{s['id']}: {marks}" + (f"   missed: {' '.join(missing)}" if missing else ""))
    labels = Counter(s["metadata"]["answer_label"] for s in samples)
    tags = Counter(t for s in samples for t in s["tags"])
    bad = sum(n for label, n in labels.items() if label not in OK_LABELS)
    noisy = [s for s in samples if "noise_of" in s["metadata"]]
    lat = sorted(s["latency_ms"] for s in samples)
    print(f"wrote {len(samples)} samples ({len(noisy)} noisy variants) and {len(kb_records(source))} chunks to {args.out}")
    print("retrieval: " + _fmt(figures))
    # What a Russian analyzer would have given on the same questions (not written anywhere).
    records = kb_records(source)
    clean = [s for s in samples if "noise_of" not in s["metadata"]]
    russian = rankings(records, source.questions, "russian")
    fixed = [dict(s, retrieved_ids=[d for d, _ in russian[s["id"]]]) for s in clean]
    print("  (with stemming and stop words: " + _fmt(retrieval_figures(fixed)) + ")")
    print(f"answers: {bad}/{len(samples)} not acceptable ({bad / len(samples):.0%}); " + ", ".join(f"{k} {v}" for k, v in sorted(labels.items())))
    print(f"noisy variants: {sum(s['metadata']['noise_robust'] for s in noisy)}/{len(noisy)} robust; distracted: "
          + ", ".join(s["id"] for s in noisy if not s["metadata"]["noise_robust"]))
    print("tags: " + ", ".join(f"{k} {v}" for k, v in sorted(tags.items())))
    print(f"latency: median {lat[len(lat) // 2]:.0f} ms, max {lat[-1]:.0f} ms, above 3 s: {sum(x > 3000 for x in lat)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
