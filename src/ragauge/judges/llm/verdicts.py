"""Pure pieces of the LLM judge's results: claims as the model wrote them, verdicts for one item, relevancy.

No I/O: these turn parsed replies into the door's types (:class:`ClaimVerdict` with
:class:`EvidenceSpan`) and compute answer relevancy from generated questions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Sequence

from ..types import CONTRADICTED, SUPPORTED, UNSUPPORTED, ClaimVerdict, EvidenceSpan
from .spans import locate_in_sources


@dataclass(frozen=True, slots=True)
class LLMClaim:
    """A claim as the LLM wrote it; ``text[start:end]`` of the judged text is where it was found
    (``start == end == 0`` when it could not be located: the LLM rephrased beyond recognition)."""

    text: str
    start: int
    end: int


def relevancy_from_questions(cosines: Sequence[float], noncommittal: bool) -> float | None:
    """Answer relevancy from generated questions (Ragas' definition).

    ``0`` if the answer is noncommittal, else ``mean_i cos(question, generated_i)`` clipped to [0, 1];
    ``None`` when no question was generated.

    >>> relevancy_from_questions([0.9, 0.7], False)
    0.8
    >>> relevancy_from_questions([0.9], True)
    0.0
    """
    if noncommittal:
        return 0.0
    if not cosines:
        return None
    return float(min(1.0, max(0.0, sum(cosines) / len(cosines))))


def offsets(claim: Any) -> tuple[int, int]:
    start, end = getattr(claim, "start", 0), getattr(claim, "end", 0)
    return (start, end) if isinstance(start, int) and isinstance(end, int) else (0, 0)


#: Reasons a "supported" verdict is overruled (the quote check of :func:`to_verdict`).
NO_QUOTE = "the judge quoted no evidence for it"
QUOTE_NOT_FOUND = "evidence quoted by the judge not found in the sources"
_DIGITS = re.compile(r"\d+")


def numbers_agree(quote: str, span: str) -> bool:
    """Every digit run of ``quote`` occurs in ``span``: a fuzzy match may not change a number
    ("costs $5" must not match "costs $900").

    >>> numbers_agree("costs $5", "costs $900"), numbers_agree("5 years", "Warranty: five (5) years")
    (False, True)
    """
    have = set(_DIGITS.findall(span))
    return all(d in have for d in _DIGITS.findall(quote))


def find_quote(quote: str, sources: list[str], prefer: tuple[int, ...] = ()) -> tuple[int, int, int, str] | None:
    """Where ``quote`` is in ``sources`` (:func:`~.spans.locate_in_sources`: exact, normalised, fuzzy), a
    fuzzy match counting only when its numbers agree (:func:`numbers_agree`); ``None`` if nowhere."""
    hit = locate_in_sources(quote, sources, prefer=prefer)
    if hit is not None and hit[3] == "fuzzy" and not numbers_agree(quote, sources[hit[0]][hit[1]:hit[2]]):
        return None
    return hit


def to_verdict(text: str, claim: Any, v: Any, idx: list[int], sources: list[str], *, full: bool) -> ClaimVerdict:
    """One verdict for an item holding ``sources`` (``idx``: their positions in the union asked about).

    The quote check: a ``supported`` verdict stands only when its evidence quote is found in the item's
    sources (exactly, after normalising case/quotes/dashes/whitespace, or fuzzily with the same numbers);
    a quote found nowhere, or no quote at all, makes it ``unsupported`` with the reason
    (:data:`QUOTE_NOT_FOUND`, :data:`NO_QUOTE`). A ``contradicted`` verdict keeps its label; an
    unfound quote is noted in its reason."""
    cited = tuple(k for k, u in enumerate(idx) if u in v.sources)
    label = v.label if (full or cited) else UNSUPPORTED
    reason = v.reason
    if not full and not cited and v.label != UNSUPPORTED:
        reason = f"decided by other sources ({v.label}): {v.reason}".strip()
    evidence, features = None, {"quote_found": 0.0, "sources_cited": float(len(cited))}
    if label != UNSUPPORTED and v.quote.strip():
        hit = find_quote(v.quote, sources, prefer=cited)
        if hit is not None:
            s, a, b, method = hit
            evidence = EvidenceSpan(s, a, b, sources[s][a:b])
            features["quote_found"] = 1.0 if method != "fuzzy" else 0.5
        elif label == SUPPORTED:
            label = UNSUPPORTED
            reason = f"{QUOTE_NOT_FOUND}: {v.quote[:80]!r} (the judge said supported: {v.reason})".strip()
        else:
            reason = f"{reason} [quote not found in the sources: {v.quote[:80]!r}]".strip()
    elif label == SUPPORTED:
        label = UNSUPPORTED
        reason = f"{NO_QUOTE} (the judge said supported: {v.reason})".strip()
    prob = 1.0 if label == SUPPORTED else 0.0
    start, end = offsets(claim)
    return ClaimVerdict(text, start, end, label if label in (SUPPORTED, UNSUPPORTED, CONTRADICTED) else UNSUPPORTED,
                        prob, evidence, reason, features)


def verdict_from_findings(f: Any, idx: list[int]) -> Any:
    """The verdict, for an item holding the sources at union positions ``idx``, of a claim checked source by
    source (``f``: :class:`~.parse.RawFindings`): ``supported`` if one of *those* sources supports it, else
    ``contradicted`` if one contradicts it, else ``unsupported``. Returned as a :class:`~.parse.RawVerdict`
    citing only the item's deciding sources, for :func:`to_verdict` with ``full=True``.

    >>> from .parse import RawFindings
    >>> f = RawFindings(0, ((0, "supported", "five years"), (2, "contradicted", "three years")), "r")
    >>> verdict_from_findings(f, [0, 1, 2]).label, verdict_from_findings(f, [2]).label, verdict_from_findings(f, [1]).label
    ('supported', 'contradicted', 'unsupported')
    """
    from .parse import RawVerdict

    held = set(idx)
    for label in (SUPPORTED, CONTRADICTED):
        hits = [(s, q) for s, lab, q in f.findings if lab == label and s in held]
        if hits:
            quote = next((q for _, q in hits if q), "")
            return RawVerdict(f.claim, label, tuple(sorted({s for s, _ in hits})), quote, f.reason)
    reason = f.reason
    if f.findings:
        reason = f"decided by other sources: {f.reason}".strip()
    return RawVerdict(f.claim, UNSUPPORTED, (), "", reason)
