"""``ragauge rag run KB_OR_FOLDER --questions Q.jsonl --out A.jsonl [--guard]``: the reference RAG as a command.

Also ``ragauge rag index KB_OR_FOLDER --out DIR`` (build once, reuse: ``rag run DIR ...``).
A thin shell over :mod:`ragauge.rag`; every decision lives there.
"""

from __future__ import annotations

import argparse
import json
import sys


def register(sub) -> None:
    p = sub.add_parser("rag", help="run the reference RAG pipeline (the system under test), guarded or not",
                       description="A reference RAG (hybrid BM25 + multilingual embeddings, extractive answer or an "
                       "OpenAI-compatible LLM) over a kb.jsonl, a folder of documents or a saved index.")
    rsub = p.add_subparsers(dest="rag_command", metavar="SUBCOMMAND")
    run_p = rsub.add_parser("run", help="answer a questions file and write evaluable samples",
                            description="Answer every question of a golden/samples file (id, question; labels are "
                            "kept) and write samples JSONL with answers, contexts and timings for `ragauge eval`.")
    run_p.add_argument("source", help="kb.jsonl, a folder of documents, an index folder from `ragauge rag index`, "
                       "or `demo` (the bundled demo's knowledge base)")
    run_p.add_argument("--questions", "-q", required=True, help="questions file (JSONL, CSV, ...; id and question), "
                       "or `demo` (the demo's generated golden set)")
    run_p.add_argument("--out", "-o", required=True, help="samples JSONL to write")
    run_p.add_argument("-k", type=int, default=5, help="contexts per question (default 5)")
    run_p.add_argument("--llm", default=None, help="generate with an OpenAI-compatible LLM: openai:MODEL@URL "
                       "(default: extractive answers)")
    run_p.add_argument("--guard", action="store_true", help="wrap the pipeline in ragauge.guard.Guard")
    run_p.add_argument("--score-threshold", type=float, default=0.7,
                       help="guard: retrieval score threshold on P(relevant) (default 0.7; a negative value disables it)")
    run_p.add_argument("--relevancy", type=float, default=0.7, help="guard: grade relevancy threshold (default 0.7)")
    run_p.add_argument("--support", type=float, default=0.8, help="guard: grade support threshold (default 0.8)")
    run_p.add_argument("--no-grade", action="store_true", help="guard: skip the grade-before-generate stage")
    run_p.add_argument("--post-check", default="off", choices=("off", "flag", "block", "strip"),
                       help="guard: faithfulness check of the answer (default off)")
    run_p.add_argument("--synonyms", default=None, help="guard: domain synonym dictionary file")
    run_p.set_defaults(func=run)
    idx_p = rsub.add_parser("index", help="build the index once and save it to a folder")
    idx_p.add_argument("source", help="kb.jsonl or a folder of documents")
    idx_p.add_argument("--out", "-o", required=True, help="folder to write (chunks.jsonl, embeddings.npy, index.json)")
    idx_p.set_defaults(func=index)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def _open(source: str, **options):
    from ..rag import ReferenceRAG

    if source == "demo":
        from ..demo import kb_path

        source = str(kb_path())
    rag = ReferenceRAG.open(source, **options)
    for problem in rag.problems:
        print(f"skipped: {problem}", file=sys.stderr)
    return rag


def run(args: argparse.Namespace) -> int:
    from ..rag import run_to_jsonl

    rag = _open(args.source, llm=args.llm, k=args.k)
    guard = None
    if args.guard:
        guard = rag.guarded(score_threshold=None if args.score_threshold < 0 else args.score_threshold,
                            grade=not args.no_grade, post_check=args.post_check, synonyms=args.synonyms,
                            grade_thresholds={"relevancy": args.relevancy, "support": args.support})
    questions = args.questions
    if questions == "demo":
        from ..demo import golden_path

        questions = str(golden_path())
    samples = run_to_jsonl(rag, questions, args.out, guard=guard)
    kinds: dict[str, int] = {}
    for s in samples:
        kind = s.metadata.get("guard_kind", "answer")
        kinds[kind] = kinds.get(kind, 0) + 1
    print(f"wrote {len(samples)} samples to {args.out} ({rag.mode}; {json.dumps(kinds)})", file=sys.stderr)
    return 0


def index(args: argparse.Namespace) -> int:
    rag = _open(args.source)
    path = rag.save(args.out)
    print(f"indexed {len(rag.index)} chunks into {path}", file=sys.stderr)
    return 0
