"""Cut an answer (and a chunk) into plain and claim segments, from the faithfulness artifacts.

The scorer stores, per claim, ``{"text", "start", "end", "verdict", "probability", "evidence": {"source",
"start", "end", "text"} | None, "reason"}`` with ``answer[start:end] == text`` and
``contexts[source][start:end] == evidence.text``. A claim whose offsets do not match the text shown (an
answer edited since, an overlap) is listed but not marked inline, never marked in the wrong place.

    >>> segs = answer_segments("Built in 1889. Made of cheese.", [
    ...     {"text": "Made of cheese.", "start": 15, "end": 30, "verdict": "unsupported"}])
    >>> [(s.text, s.claim) for s in segs]
    [('Built in 1889. ', None), ('Made of cheese.', 0)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence


@dataclass(frozen=True)
class Segment:
    text: str
    claim: int | None = None  #: index into the claims list, None for plain text
    verdict: str | None = None


def claims_of(artifacts: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The claim verdicts stored with faithfulness (an empty list when there are none)."""
    claims = (artifacts or {}).get("claims")
    return [c for c in claims if isinstance(c, dict)] if isinstance(claims, list) else []


def _placed(text: str, start: Any, end: Any, expected: Any) -> bool:
    return (isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(text)
            and (expected is None or text[start:end] == expected))


def _cut(text: str, marks: Sequence[tuple[int, int, int, str | None]]) -> list[Segment]:
    out: list[Segment] = []
    pos = 0
    for start, end, idx, verdict in sorted(marks):
        if start < pos:  # overlaps the previous mark: listed, not marked
            continue
        if start > pos:
            out.append(Segment(text[pos:start]))
        out.append(Segment(text[start:end], idx, verdict))
        pos = end
    if pos < len(text) or not out:
        out.append(Segment(text[pos:]))
    return out


def answer_segments(answer: str, claims: Sequence[dict[str, Any]]) -> list[Segment]:
    marks = [(c["start"], c["end"], i, c.get("verdict")) for i, c in enumerate(claims)
             if _placed(answer, c.get("start"), c.get("end"), c.get("text"))]
    return _cut(answer, marks)


def context_segments(text: str, source: int, claims: Sequence[dict[str, Any]]) -> list[Segment]:
    """Chunk ``source``'s text with the evidence passages of supported claims marked (the closest
    passage of an unsupported claim is not evidence, so it stays plain)."""
    marks = []
    for i, c in enumerate(claims):
        ev = c.get("evidence")
        if (isinstance(ev, dict) and ev.get("source") == source and c.get("verdict") == "supported"
                and _placed(text, ev.get("start"), ev.get("end"), ev.get("text"))):
            marks.append((ev["start"], ev["end"], i, "supported"))
    return _cut(text, marks)
