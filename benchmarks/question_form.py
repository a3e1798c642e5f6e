"""How the question-form check (ragauge.generate.questions.wellformed) agrees with reviewers' verdicts.

    .venv/bin/python benchmarks/question_form.py [--show]

benchmarks/data/question_form_labelled.jsonl: the base questions of the 15 tuned corpora read in round 8
(docs/generate.md, "Every base question … read") and of the four round-9 blind corpora, each with the reviewer's
verdict. Prints how many questions read as unnatural the check names, and how many read as natural it would drop
(the sensitive templates, which the generator does not check, are counted apart; comparison templates, exempt
from "noun twice" in the generator, are not marked in this file and count as drops here).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from ragauge.generate.questions.wellformed import problem  # noqa: E402


def main() -> None:
    show = "--show" in sys.argv
    rows = [json.loads(line) for line in (ROOT / "benchmarks/data/question_form_labelled.jsonl").open(encoding="utf-8")]
    named = wrong = sensitive = 0
    for r in rows:
        lang = "ru" if re.search("[А-Яа-яЁё]", r["question"]) else "en"
        sign = problem(r["question"], lang)
        if sign is None:
            continue
        if not r["natural"]:
            named += 1
        elif r["question"].startswith(("Пришлите", "Send me")):
            sensitive += 1
        else:
            wrong += 1
        if show:
            print(f"{'natural' if r['natural'] else 'unnatural':9} {sign:36} {r['question']}")
    bad = sum(not r["natural"] for r in rows)
    print(f"questions {len(rows)}; read as unnatural {bad}, named by the check {named}; read as natural "
          f"{len(rows) - bad}, dropped by the check {wrong} (+{sensitive} sensitive, not checked in the generator)")


if __name__ == "__main__":
    main()
