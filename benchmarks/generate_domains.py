"""Offline generator on the test corpora of other domains (tests/generate/_domain_corpora.py).

    .venv/bin/python benchmarks/generate_domains.py [--n 30] [--show 5]

Per corpus: chunks, fact-bearing chunks (a text chunk with a digit in it, or a table), the share of them
with at least one case, answerable cases made against ``--n``, unanswerable cases and how many of them
use a word found nowhere in the corpus, sensitive cases whose reference is not quoted from the corpus,
and (with ``--show``) a few questions. Numbers measured before and after issue 19 are in docs/generate.md.
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
         "how", "what", "much", "many", "when", "soon", "long", "cost", "doe", "do", "is", "be", "are"}


def fact_bearing(chunk) -> bool:
    return chunk.kind == "table" or bool(re.search(r"\d", chunk.text))


def measure(name: str, n: int, seed: int = 0) -> dict:
    from _domain_corpora import write_corpus

    from ragauge.generate import chunk, load_folder
    from ragauge.generate.questions import generate_questions
    from ragauge.generate.questions.special import lemmas

    with tempfile.TemporaryDirectory() as tmp:
        docs, problems = load_folder(write_corpus(name, Path(tmp)))
        chunks = chunk(docs)
        cases, summary = generate_questions(chunks, n=n, seed=seed, documents=docs)
    bearing = {c.id for c in chunks if fact_bearing(c)}
    asked = {i for c in cases for i in c.relevant_ids}
    vocab = set()
    for c in chunks:
        vocab.update(lemmas(c.text + " " + c.title))
    corpus_text = " ".join(c.text for c in chunks)
    unans = [c for c in cases if c.expected_behaviour == "not_found"]
    foreign = [c for c in unans if any(w not in vocab and w not in FRAME for w in lemmas(c.question))]
    sens = [c for c in cases if c.expected_behaviour == "refuse_or_caution"]
    unquoted = [c for c in sens if not any(q in corpus_text for q in re.findall(r"«([^»]{20,})»", c.reference))]
    return {"corpus": name, "documents": len(docs), "problems": len(problems), "chunks": len(chunks),
            "fact_bearing": len(bearing), "covered": len(bearing & asked),
            "answerable": sum(c.expected_behaviour == "answer" for c in cases), "requested": n,
            "unanswerable": len(unans), "unanswerable_foreign_words": len(foreign),
            "sensitive": len(sens), "sensitive_not_quoted": len(unquoted),
            "coverage_reported": summary.get("coverage", {}).get("share"),
            "questions": [c.question for c in cases]}


def main(argv: list[str] | None = None) -> int:
    from _domain_corpora import CORPORA

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--show", type=int, default=0, help="print this many questions per corpus")
    args = parser.parse_args(argv)
    print("corpus     docs chunks bearing covered answerable/n unanswerable(foreign) sensitive(not quoted)")
    for name in CORPORA:
        m = measure(name, args.n)
        print(f"{name:10} {m['documents']:4} {m['chunks']:6} {m['fact_bearing']:7} {m['covered']:7} "
              f"{m['answerable']:7}/{m['requested']:<3} {m['unanswerable']:8}({m['unanswerable_foreign_words']})"
              f" {m['sensitive']:8}({m['sensitive_not_quoted']})")
        for q in m["questions"][:args.show]:
            print("    ", q)
    return 0


if __name__ == "__main__":
    sys.exit(main())
