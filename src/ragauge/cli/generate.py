"""``ragauge generate DOCS_DIR --out golden.jsonl``: a golden test set from a folder of documents."""

from __future__ import annotations

import argparse
import sys


def register(sub) -> None:
    p = sub.add_parser(
        "generate",
        help="generate a golden test set (questions, references, relevant chunks) from a folder of documents",
        description="Load DOCS_DIR (.txt .md .html .pdf .docx .csv .xlsx; unreadable files are reported and "
        "skipped), chunk it, generate questions by slice (numbers, tables, definitions, clauses, versions, "
        "multi-context, unanswerable, badly formulated, paraphrases, sensitive) and write the golden JSONL "
        "plus the knowledge base it refers to. Offline by default: no model, no network, deterministic. "
        "The golden file, its sidecar and the knowledge base are replaced together or not at all. "
        "Exit 0 on success, 2 when DOCS_DIR is not a folder, holds no readable document, nothing could be "
        "generated or an output file cannot be written, 3 when the LLM endpoint or an optional package is "
        "unavailable.",
    )
    p.add_argument("docs", metavar="DOCS_DIR", help="folder of documents (read recursively)")
    p.add_argument("--out", "-o", required=True, help="golden JSONL to write (one case a line)")
    p.add_argument("--kb", help="knowledge base JSONL to write (default: kb.jsonl next to --out)")
    p.add_argument("--n", type=int, default=100, help="target number of cases (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed; the same folder and seed give the same file (default 0)")
    p.add_argument("--judge", default="offline",
                   help="'offline' (templates, no model; default) or 'openai:MODEL@URL' (LLM generation with a "
                   "critic pass; key from RAGAUGE_LLM_API_KEY)")
    p.add_argument("--mix", metavar="KIND=SHARE,...",
                   help="shares of the set by kind, e.g. simple=0.5,reasoning=0.3,multi_context=0.2 (normalised "
                   "to sum to 1; kinds: simple, reasoning, multi_context, unanswerable, badly_formulated, "
                   "paraphrase; the LLM path takes the first three). A kind not named gets none; a kind the "
                   "documents cannot fill leaves the set short instead of growing another. Default: balanced")
    p.add_argument("--max-calls", type=int, help="with an LLM judge: stop after this many calls")
    p.add_argument("--lang", choices=("ru", "en"), help="language of the questions (default: each chunk's own). "
                   "Offline templates do not translate: only text in that language is asked about")
    p.add_argument("--max-chars", type=int, default=1200, help="chunk size limit in characters (default 1200)")
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing but errors")
    p.set_defaults(func=run)


def _generate(args: argparse.Namespace, chunks, documents):
    from ..errors import ConfigError

    from ..judges.spec import parse_judge

    try:
        choice = parse_judge(args.judge)
    except ConfigError:
        from ..judges.llm.config import judge_spec_hint, redact_spec

        raise ConfigError(f"--judge {redact_spec(args.judge)!r}: ragauge generate takes 'offline' or "
                          f"'openai:MODEL@URL'{judge_spec_hint(args.judge)}") from None
    if choice.kind in ("offline", "auto"):
        if args.max_calls is not None:
            raise ConfigError("--max-calls applies to an LLM judge (--judge openai:MODEL@URL)")
        from ..generate.questions import generate_questions

        return generate_questions(chunks, n=args.n, seed=args.seed, lang=args.lang, documents=documents,
                                  mix=_mix(args))
    if choice.kind != "llm":
        raise ConfigError(f"--judge {choice.shown!r}: ragauge generate takes 'offline' or 'openai:MODEL@URL'")
    spec = choice.text
    from ..generate.llm_questions import generate_with_llm

    return generate_with_llm(chunks, n=args.n, judge_spec=spec, seed=args.seed, lang=args.lang,
                             max_calls=args.max_calls, mix=_mix(args, llm=True))


def _mix(args: argparse.Namespace, *, llm: bool = False):
    """``--mix`` parsed (a clear error naming the accepted kinds), or None."""
    if getattr(args, "mix", None) is None:
        return None
    from ..errors import ConfigError
    from ..generate._llm_questions_plan import LLM_TYPES
    from ..generate.questions.mix import MIX_KINDS, parse_mix

    try:
        return parse_mix(args.mix, allowed=LLM_TYPES if llm else MIX_KINDS)
    except ConfigError as exc:
        where = " (with an LLM judge)" if llm else ""
        raise ConfigError(f"--mix {args.mix!r}{where}: {str(exc).removeprefix('mix: ')}") from None


def _llm_nothing(summary: dict, docs: str) -> None:
    """No case from the LLM path: say why (the first failure), exit 3 when calls failed, else 2."""
    from ..errors import InputError, JudgeError

    failures = summary.get("failures") or []
    first = failures[0].get("error") or failures[0].get("kind") if failures else None
    if summary.get("call_failed"):
        raise JudgeError(f"the LLM generated no question from {docs}: {first or 'every call failed'}")
    if summary.get("budget_stopped") or (summary.get("groups") or {}).get("not_started_budget"):
        raise InputError(f"the LLM generated no question from {docs} within the call budget",
                         hint="Raise --max-calls (a group of questions needs two calls)")
    reasons = {k: v for k, v in (summary.get("rejected") or {}).items() if v}
    raise InputError(f"the LLM generated no usable question from {docs} (rejected: {reasons or 'none'}; "
                     f"first failure: {first or 'none'})", hint="See the summary; try another model or --judge offline")


def _print_summary(summary: dict, problems, out: str, kb: str) -> None:
    counts = lambda d: ", ".join(f"{k} {v}" for k, v in d.items()) or "none"  # noqa: E731
    lines = [f"wrote {summary.get('generated', 0)} cases to {out} (asked for {summary.get('requested')}, "
             f"seed {summary.get('seed')}) and the knowledge base to {kb}"]
    for key in ("by_type", "by_slice", "by_language", "by_document", "by_section", "dropped"):
        if isinstance(summary.get(key), dict):
            lines.append(f"  {key.replace('_', ' ')}: {counts(summary[key])}")
    cov = summary.get("coverage")
    if isinstance(cov, dict) and cov.get("fact_bearing"):
        lines.append(f"  coverage: {cov['covered']}/{cov['fact_bearing']} fact-bearing chunks got a question "
                     f"({100 * (cov.get('share') or 0):.0f}%)")
        for row in (cov.get("unused") or [])[:10]:
            lines.append(f"    unused {row.get('chunk_id', '?')}: {row.get('reason', '?')}")
        if len(cov.get("unused") or []) > 10:
            lines.append(f"    ... and {len(cov['unused']) - 10} more (golden.meta.json has them all)")
    mix = summary.get("mix")
    if isinstance(mix, dict):
        lines.append("  mix (requested -> achieved): " + ", ".join(
            f"{k} {100 * r['requested_share']:.0f}% ({r['requested']}) -> {100 * r['achieved_share']:.0f}% "
            f"({r['achieved']})" for k, r in mix["kinds"].items()))
        lines += [f"    short: {line} (not replaced by another kind)" for line in mix.get("short") or []]
    if summary.get("copies") is not None:
        lines.append(f"  copies (typo / synonym variants of other cases): {summary['copies']}"
                     + (f" ({summary['copy_cap']})" if summary.get("copy_cap") is not None else ""))
    if summary.get("short_of_target"):
        why = summary.get("short_reason") or "the generator found no more cases it could check"
        lines.append(f"  {summary['short_of_target']} fewer than asked: {why}"
                     + (" (see the unused chunks above)" if isinstance(cov, dict) and cov.get("unused") else ""))
    if summary.get("unanswerable_reason"):
        lines.append(f"  unanswerable questions: {summary['unanswerable_reason']}")
    if problems:
        lines.append(f"  skipped {len(problems)} file(s):")
        lines += [f"    {p}" for p in problems]
    print("\n".join(lines), file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..errors import InputError
    from ..generate import chunk, load_folder, write_golden
    from ..generate.kb import kb_jsonl_text

    if args.n < 1:
        raise InputError("--n must be at least 1", value=args.n)
    documents, problems = load_folder(args.docs)
    if not documents:
        listed = "; ".join(str(p) for p in problems[:5]) if problems else "the folder is empty"
        raise InputError(f"no readable document in {args.docs} ({listed})",
                         hint="Add .txt, .md, .html, .pdf, .docx, .csv or .xlsx files")
    chunks = chunk(documents, max_chars=args.max_chars)
    if not chunks:
        raise InputError(f"the documents in {args.docs} hold no text to chunk", hint="Check that they are not empty")
    cases, summary = _generate(args, chunks, documents)
    if not cases and summary.get("generator") == "llm":
        _llm_nothing(summary, args.docs)
    if not cases:
        raise InputError(f"no question could be generated from {args.docs} ({len(chunks)} chunks)",
                         hint="The documents need tables, numbers or definitions in Russian or English; "
                         "try --judge openai:MODEL@URL for free text")
    out = Path(args.out)
    kb = Path(args.kb) if args.kb else out.with_name("kb.jsonl")
    if kb.resolve() == out.resolve():
        raise InputError(f"--out and the knowledge base are the same file ({out})",
                         hint="Name the golden file differently, or pass --kb with another path")
    # golden.jsonl + golden.meta.json (version 1) + kb.jsonl: replaced together or not at all
    write_golden(cases, out, details={"generator": summary.get("generator"), "seed": args.seed,
                                      "documents": str(args.docs)}, also={kb: kb_jsonl_text(chunks)})
    if not args.quiet:
        _print_summary(summary, problems, str(out), str(kb))
    return 0
