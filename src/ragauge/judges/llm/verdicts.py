"""Pure pieces of the LLM judge's results: claims as the model wrote them, verdicts for one item, relevancy.

No I/O: these turn parsed replies into the door's types (:class:`ClaimVerdict` with
:class:`EvidenceSpan`) and compute answer relevancy from generated questions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Sequence

from ..types import CONTRADICTED, SUPPORTED, UNSUPPORTED, ClaimVerdict, EvidenceSpan
from .quote_words import words_agree
from .spans import locate_in_sources, locate_token, normalize


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
#: A quote shorter than this after :func:`clean_quote` and normalising ("5", "да", "$5") is looked up
#: only as a whole token (:func:`~.spans.locate_token`): "5" is found in "Warranty: 5 years", not in
#: "$900" or "15 days". It is checked like any other quote, never accepted unchecked.
MIN_QUOTE_CHARS = 3
_DIGITS = re.compile(r"\d+(?:\.\d+)?")
_ELLIPSIS = re.compile(r"\s*(?:…|\.{3,}|\[\s*(?:…|\.{3})\s*\]|\(\s*(?:…|\.{3})\s*\))\s*")
_TRAILING_ELLIPSIS = re.compile(_ELLIPSIS.pattern + r"$")
_WRAPPERS = (("«", "»"), ("„", "“"), ("“", "”"), ('"', '"'), ("'", "'"), ("‘", "’"), ("`", "`"), ("„", "”"))
_EDGE_PUNCT = " \t\r\n.,;:!?-–—"


def clean_quote(quote: str) -> str:
    """The evidence an LLM quoted without its wrapping: surrounding quote marks («…», "…", '…'),
    leading/trailing ellipses and punctuation, outer whitespace. An ellipsis *inside* stays (it marks
    an omission: :func:`find_quote` looks the parts up separately).

    >>> clean_quote('«Гарантия — 5 лет…»'), clean_quote("...the fee is 10,000 dollars.")
    ('Гарантия — 5 лет', 'the fee is 10,000 dollars')
    """
    q = quote
    while True:
        before = q
        head = _ELLIPSIS.match(q)
        if head is not None:
            q = q[head.end():]
        tail = _TRAILING_ELLIPSIS.search(q)
        if tail is not None:
            q = q[:tail.start()]
        q = q.strip(_EDGE_PUNCT)
        for a, b in _WRAPPERS:
            if len(q) >= 2 and q.startswith(a) and q.endswith(b):
                q = q[len(a):-len(b)]
        if q == before:
            return q


def quote_parts(quote: str) -> list[str]:
    """The parts of a cleaned quote between its inner ellipses ("A … B" -> ["A", "B"])."""
    return [p for p in (clean_quote(x) for x in _ELLIPSIS.split(clean_quote(quote))) if p]


def is_short(quote: str) -> bool:
    """Whether ``quote`` is under :data:`MIN_QUOTE_CHARS` characters once cleaned and normalised (spaces
    not counted): such a quote is looked up as a whole token only."""
    return len(normalize(clean_quote(quote)).replace(" ", "")) < MIN_QUOTE_CHARS


def numbers_agree(quote: str, span: str) -> bool:
    """Every number of ``quote`` occurs in ``span``, both written one way (:func:`~.spans.normalize`:
    "1 150" = "1150", "7,5" = "7.5"): a fuzzy match may not change a number ("costs $5" must not match
    "costs $900").

    >>> numbers_agree("costs $5", "costs $900"), numbers_agree("5 years", "Warranty: five (5) years")
    (False, True)
    >>> numbers_agree("a fee of 1 150 rub", "the fee: 1150 rub.")
    True
    """
    have = set(_DIGITS.findall(normalize(span)))
    return all(d in have for d in _DIGITS.findall(normalize(quote)))


def _find_one(quote: str, sources: list[str], prefer: tuple[int, ...]) -> tuple[int, int, int, str] | None:
    if is_short(quote):  # "5" would be a substring of "15" and "900": whole tokens only
        order = [i for i in prefer if 0 <= i < len(sources)] + [i for i in range(len(sources)) if i not in prefer]
        for i in order:
            token = locate_token(clean_quote(quote), sources[i])
            if token is not None:
                return i, token[0], token[1], "normalized"
        return None
    hit = locate_in_sources(quote, sources, prefer=prefer)
    if hit is not None and hit[3] == "fuzzy" and not fuzzy_agrees(quote, sources[hit[0]], hit[1], hit[2]):
        return None
    return hit


def fuzzy_agrees(quote: str, source: str, start: int, end: int) -> bool:
    """Whether a fuzzy match of ``quote`` at ``source[start:end]`` says what the source says there: the
    same numbers (:func:`numbers_agree`), the same negations and no word swapped for another
    (:func:`~.quote_words.words_agree`, over the span widened to whole words).

    >>> src = "The warranty is void if the seal is broken."
    >>> fuzzy_agrees("The warranty is not void if the seal is broken", src, 0, 43)
    False
    >>> fuzzy_agrees("warranty void if the seal is broken", src, 4, 43)
    True
    """
    while start > 0 and source[start - 1].isalnum():
        start -= 1
    while end < len(source) and source[end].isalnum():
        end += 1
    span = source[start:end]
    return numbers_agree(quote, span) and words_agree(quote, span)


def find_quote(quote: str, sources: list[str], prefer: tuple[int, ...] = ()) -> tuple[int, int, int, str] | None:
    """Where ``quote`` is in ``sources``: ``(source, start, end, method)`` or ``None`` if nowhere.

    The quote is cleaned first (:func:`clean_quote`: wrapping quote marks, ellipses, edge punctuation),
    then looked up with :func:`~.spans.locate_in_sources` (exact, normalised -- case, spaces, quote
    marks, dashes, number formats --, fuzzy), a fuzzy match counting only when its numbers agree
    (:func:`numbers_agree`). A quote (or part) under :data:`MIN_QUOTE_CHARS` characters is found only
    as a whole token, after the same normalisation. A quote with inner ellipses ("A … B") is found when
    each part is, in order, in one source; the span runs from the first part to the last.

    >>> find_quote("«1 150 рублей…»", ["Штраф: 1150 рублей в день."])
    (0, 7, 18, 'normalized')
    >>> find_quote("$5", ["It costs $900."]), find_quote("5", ["Delivery in 15 days."]), find_quote("5", ["Срок 5 лет."])
    (None, None, (0, 5, 6, 'normalized'))
    """
    parts = quote_parts(quote)
    if len(parts) <= 1:
        return _find_one(parts[0] if parts else quote, sources, prefer)
    order = [i for i in prefer if 0 <= i < len(sources)] + [i for i in range(len(sources)) if i not in prefer]
    for i in order:
        start, end, at, methods = -1, -1, 0, set()
        for part in parts:
            hit = _find_one(part, [sources[i][at:]], ())
            if hit is None:
                break
            _, a, b, how = hit
            start = at + a if start < 0 else start
            end, at = at + b, at + b
            methods.add(how)
        else:
            return i, start, end, "fuzzy" if "fuzzy" in methods else "normalized"
    return None


def to_verdict(text: str, claim: Any, v: Any, idx: list[int], sources: list[str], *, full: bool) -> ClaimVerdict:
    """One verdict for an item holding ``sources`` (``idx``: their positions in the union asked about).

    The quote check: a ``supported`` verdict stands only when its evidence quote is found in the item's
    sources (:func:`find_quote`: exactly, after normalising case/quotes/dashes/whitespace/number formats,
    or fuzzily with the same numbers); a quote found nowhere, or no quote at all, makes it
    ``unsupported`` with the reason (:data:`QUOTE_NOT_FOUND`, :data:`NO_QUOTE`). A short quote ("5",
    "$5") is checked too, as a whole token. Only a quote that is empty once cleaned ("", "…", "«»") is
    no quote: a ``supported`` verdict without one is ``unsupported`` (:data:`NO_QUOTE`) -- the check
    that replaces the quote check is that there is nothing to accept. A ``contradicted`` verdict keeps
    its label with or without a quote (it can only lower a score); an unfound quote is noted in its
    reason."""
    cited = tuple(k for k, u in enumerate(idx) if u in v.sources)
    label = v.label if (full or cited) else UNSUPPORTED
    reason = v.reason
    if not full and not cited and v.label != UNSUPPORTED:
        reason = f"decided by other sources ({v.label}): {v.reason}".strip()
    evidence, features = None, {"quote_found": 0.0, "sources_cited": float(len(cited))}
    quote = clean_quote(v.quote)
    if label != UNSUPPORTED and quote:
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


def verdict_from_findings(f: Any, idx: list[int], sources: list[str] | None = None) -> Any:
    """The verdict, for an item holding the sources at union positions ``idx``, of a claim checked source by
    source (``f``: :class:`~.parse.RawFindings`): ``supported`` if one of *those* sources supports it, else
    ``contradicted`` if one contradicts it, else ``unsupported``. Returned as a :class:`~.parse.RawVerdict`
    citing only the item's deciding sources, for :func:`to_verdict` with ``full=True``.

    Every finding's quote counts, not only the first: with the item's ``sources`` (texts, in the order of
    ``idx``) given, the quote kept is the first one that :func:`find_quote` finds (in its own source
    first), so one finding with a garbled quote does not overrule another that quotes the source exactly.

    >>> from .parse import RawFindings
    >>> f = RawFindings(0, ((0, "supported", "five years"), (2, "contradicted", "three years")), "r")
    >>> verdict_from_findings(f, [0, 1, 2]).label, verdict_from_findings(f, [2]).label, verdict_from_findings(f, [1]).label
    ('supported', 'contradicted', 'unsupported')
    >>> f = RawFindings(0, ((0, "supported", "six years"), (1, "supported", "5 years")), "r")
    >>> verdict_from_findings(f, [0, 1], ["Warranty: 5 years.", "It lasts 5 years."]).quote
    '5 years'
    """
    from .parse import RawVerdict

    held = set(idx)
    for label in (SUPPORTED, CONTRADICTED):
        hits = [(s, q) for s, lab, q in f.findings if lab == label and s in held]
        if hits:
            quotes = [(s, q) for s, q in hits if clean_quote(q)]
            quote = quotes[0][1] if quotes else ""
            if sources is not None:
                found = (q for s, q in quotes if find_quote(q, sources, prefer=(idx.index(s),)) is not None)
                quote = next(found, quote)
            return RawVerdict(f.claim, label, tuple(sorted({s for s, _ in hits})), quote, f.reason)
    reason = f.reason
    if f.findings:
        reason = f"decided by other sources: {f.reason}".strip()
    return RawVerdict(f.claim, UNSUPPORTED, (), "", reason)
