"""Checks of a reference against its source chunks; a candidate that fails one is dropped with the reason.

* :func:`missing_numbers`: every number of the reference must be among the numbers of its chunks
  ("1 150" and "1150" are the same number). Applied to answerable cases that only read the documents
  (type "simple"); a reasoning or multi-context reference also holds the numbers it computes.
* :func:`quote_missing`: a sensitive reference quotes its policy sentence («…»), which must be in the chunk.
* :func:`unsupported`: claim-level support by the offline judge (the verifier of
  :mod:`ragauge.judges.offline`), for references that are statements (a capitalised sentence of four
  words or more); a reference
  that is a bare value ("1 150 руб. за м²") holds no claim to verify and is checked by numbers only.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from ragauge.generate.questions.candidate import Candidate
from ragauge.generate.questions.facts import NUMBER


def numbers(text: str) -> set[str]:
    """Normalised numbers of ``text``: "1 150,5" -> "1150.5"; "14%" -> "14"."""
    out = set()
    for m in NUMBER.finditer(text):
        raw = re.sub(r"[ \u00a0]", "", m.group()).replace(",", ".").replace("−", "-").lstrip("-")
        if "." in raw:
            raw = raw.rstrip("0").rstrip(".")
        out.add(raw)
    return out


def missing_numbers(c: Candidate) -> list[str]:
    """Numbers of the reference found in none of its chunks (empty when all are there)."""
    if c.type != "simple" or not c.chunks or c.expected_behaviour != "answer":
        return []
    have: set[str] = set()
    for ch in c.chunks:
        have |= numbers(ch.text)
        have |= numbers(ch.title)
        have |= numbers(" ".join(ch.section))
        have |= {x for x in (ch.version, ch.date) if x} | numbers(ch.date or "") | numbers(ch.version or "")
    return sorted(n for n in numbers(c.reference) if n not in have)


def quote_missing(c: Candidate) -> bool:
    """True when a sensitive reference's «quote» is not in its chunk."""
    if c.expected_behaviour != "refuse_or_caution":
        return False
    quotes = re.findall(r"«(.+)»", c.reference)
    return not quotes or not any(quotes[0] in ch.text for ch in c.chunks)


def is_statement(reference: str) -> bool:
    """A sentence of four words or more that starts with a capital letter (a definition's "работы, результат
    которых …" is a fragment, not a claim)."""
    return reference[:1].isupper() and len(re.findall(r"[^\W\d_]+", reference)) >= 4


def unsupported(judge: Any, cands: Sequence[Candidate]) -> list[bool]:
    """For each candidate: True when the judge finds a claim of its reference unsupported by its chunks.
    Candidates that are not answerable "simple" statements are not checked (False)."""
    idx = [i for i, c in enumerate(cands) if c.expected_behaviour == "answer" and c.type == "simple" and c.chunks
           and is_statement(c.reference)]
    out = [False] * len(cands)
    if not idx or judge is None:
        return out
    claims = judge.claims([cands[i].reference for i in idx], [cands[i].lang for i in idx])
    verdicts = judge.verify([(cl, [ch.text for ch in cands[i].chunks], cands[i].lang) for cl, i in zip(claims, idx)])
    for i, vs in zip(idx, verdicts):
        out[i] = bool(vs) and any(v.label != "supported" for v in vs)
    return out


__all__ = ["is_statement", "missing_numbers", "numbers", "quote_missing", "unsupported"]
