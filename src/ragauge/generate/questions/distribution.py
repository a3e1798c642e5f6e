"""How a golden set is spread and why it is short: cases per document section, and the reason in words when
it holds fewer cases than asked (true for the run: distinct questions made, checks, copies under their cap)."""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from ragauge.generate.questions.candidate import Candidate


def by_section(final: Sequence[tuple[Candidate, int | None]]) -> dict[str, int]:
    """Cases per "document / section" of their first chunk ("-" for questions with no chunk: unanswerable)."""
    out: Counter = Counter()
    for c, _ in final:
        ch = c.chunks[0] if c.chunks else None
        out["-" if ch is None else " / ".join([ch.title or ch.doc_id] + list(ch.section[-1:]))] += 1
    return dict(sorted(out.items()))


def short_reason(summary: dict[str, Any], distinct: int, held_back: int, dropped: Counter) -> str:
    """Why the set is short of ``n``, in words that are true for this run: how many distinct questions the
    documents gave, how many checks and near duplicates removed, how many copies the cap allowed."""
    checks = sum(v for k, v in dropped.items() if k.startswith(("reference_", "sensitive_quote", "ambiguous_")))
    unformed = sum(v for k, v in dropped.items() if k.startswith("prose_no_"))
    parts = [f"the documents gave {distinct} distinct questions after checks ({checks} dropped by a reference "
             f"check, {dropped.get('near_duplicate', 0)} near duplicates refused)",
             f"{summary['copies']} typo/synonym copies were added ({summary['copy_cap']})"]
    if held_back > 0:
        parts.append(f"{held_back} more were held back by the caps on unanswerable/sensitive questions")
    if unformed:
        parts.append(f"{unformed} sentences with a number gave no question (see coverage.unused)")
    return "; ".join(parts)


__all__ = ["by_section", "short_reason"]
