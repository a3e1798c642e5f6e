"""Why a corpus got no unanswerable question, in words true for the run (issue 19: every corpus of three or more
fact-bearing chunks gets one from its own vocabulary, or the summary says exactly why not)."""

from __future__ import annotations

from collections import Counter

#: Fewer fact-bearing chunks than this and no unanswerable question is expected.
MIN_FACT_BEARING = 3


def unanswerable_reason(*, selected: int, made: int, fact_bearing: int, tried: dict[str, int], dropped: Counter,
                        excluded_by_mix: bool = False) -> str | None:
    """None when the set has an unanswerable case or the corpus is too small to expect one; else the reason.

    >>> unanswerable_reason(selected=0, made=0, fact_bearing=5, tried={"frames": 4, "frame_questions": 0,
    ...     "price_rows": 0, "price_questions": 0, "defined_terms": 0, "term_questions": 0}, dropped=Counter())
    'no unanswerable question: 4 prose question frame(s) found no other subject of the same kind the documents use with that verb; no Russian price table to vary; the documents define no term, so no used-but-undefined term is asked'
    """
    if selected or fact_bearing < MIN_FACT_BEARING:
        return None
    if excluded_by_mix:
        return "no unanswerable question: --mix names no 'unanswerable' share"
    if made:
        return (f"no unanswerable question: {made} candidate(s) passed the checks but were not selected within --n "
                "(the unanswerable share is capped at 10% of --n)")
    parts = []
    frames, frame_q = tried.get("frames", 0), tried.get("frame_questions", 0)
    parts.append(f"{frames} prose question frame(s) found no other subject of the same kind the documents use "
                 "with that verb" if frames and not frame_q else
                 "no prose question has a frame another subject could fill" if not frames else
                 f"{frame_q} frame question(s) made")
    rows, row_q = tried.get("price_rows", 0), tried.get("price_questions", 0)
    parts.append("no Russian price table to vary" if not rows else
                 f"{rows} price row(s) recombine into no new item of the same kind" if not row_q else
                 f"{row_q} new price item(s) made")
    terms, term_q = tried.get("defined_terms", 0), tried.get("term_questions", 0)
    parts.append("the documents define no term, so no used-but-undefined term is asked" if not terms else
                 f"{terms} defined term(s), and every other term is described in the documents" if not term_q else
                 f"{term_q} undefined term(s) made")
    checks = {k.removeprefix("unanswerable_"): v for k, v in sorted(dropped.items())
              if k.startswith("unanswerable_") and v}
    if checks:
        parts.append("the absence checks dropped " + ", ".join(f"{k} {v}" for k, v in checks.items()))
    return "no unanswerable question: " + "; ".join(parts)


__all__ = ["MIN_FACT_BEARING", "unanswerable_reason"]
