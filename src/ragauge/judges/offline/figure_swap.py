"""Figure swap in prose: the claim's figure is stated in the contexts, but for something else.

"Выписка на бумаге в отделении стоит 300 рублей" against "Выписка по счёту: в интернет-банке — бесплатно, в
отделении на бумажном носителе — 200 рублей. … Перевыпуск карты — 300 рублей.": "300 рублей" is in the context,
so the number check finds it, but the sentence about the claim's own thing (the one that shares most of the
claim's words) gives it "200 рублей", and the sentence that holds "300 рублей" is about another thing. The
table version of this mistake is :func:`.claim_rules.row_swap`; this is the same for sentences, the swap a
FactCC-style "number from the same document" transformation makes.

The rule reads claims with one figure (a number with a unit, not approximate): in a claim with two, one
may be a qualifier of the thing ("стяжка толщиной до 50 мм стоит 620 руб./м²"). It fires when:

* the sentences of the contexts that share most of the claim's content words (at least ``MIN_COVER`` of
  them; ties all count) do not state that figure, and state another figure of the same unit;
* every sentence that does state the figure shares at least ``MARGIN`` fewer of the claim's words.

A claim that combines two sentences' facts keeps each figure with the sentence about it, so it passes; a
figure the contexts do not state at all is the number check's business, not this rule's.

    >>> figure_swap("Выписка на бумаге в отделении стоит 300 рублей.",
    ...             ["Выписка по счёту: в интернет-банке — бесплатно, в отделении на бумажном носителе — 200 рублей. "
    ...              "Перевыпуск карты стоит 300 рублей."])
    "the figure '300 рублей' is stated for something else in the context; for this it gives '200 рублей'"
"""

from __future__ import annotations

from collections.abc import Sequence

from ragauge.judges.offline.claim_rules import _lemma_set, _stems
from ragauge.judges.offline.quantities import Quantity, extract_quantities
from ragauge.judges.offline.text import split_sentences

__all__ = ["MARGIN", "MIN_COVER", "figure_swap"]

MIN_COVER = 0.6  #: share of the claim's content words the sentence about its thing must hold
MARGIN = 0.4  #: how many fewer (as a share) every sentence holding the figure must hold


#: stems of verbs that only link a thing to its figure
_COPULAS = frozenset({"стоит", "соста", "равня", "обойт", "cost", "amoun", "total"})


def _key(q: Quantity) -> tuple[str | None, float]:
    return q.base_unit, round(q.value * q.factor, 6)


def _figures(text: str) -> list[Quantity]:
    return [q for q in extract_quantities(text, None) if q.kind in ("number", "range") and q.unit]


def figure_swap(claim: str, contexts: Sequence[str]) -> str | None:
    """A reason when a figure of ``claim`` belongs to another sentence's thing (module doc), else None."""
    own = _figures(claim)
    if len(own) != 1 or own[0].approx:  # with two figures one may qualify the thing ("стяжка толщиной до 50 мм")
        return None
    bare = claim
    for q in sorted(_figures(claim), key=lambda q: -q.start):  # the figures' own words ("рублей") say no thing
        bare = bare[:q.start] + " " + bare[q.end:]
    words = _stems(_lemma_set(bare)) - _COPULAS
    if len(words) < 2:
        return None
    sentences = [s.text for text in contexts for s in split_sentences(text) if "|" not in s.text]
    covers = [len(words & _stems(_lemma_set(s))) / len(words) for s in sentences]
    if not covers or max(covers) < MIN_COVER:
        return None
    best = max(covers)
    tops = [s for s, c in zip(sentences, covers) if c == best]
    top_figures = [q for s in tops for q in _figures(s)]
    for q in own:
        key = _key(q)
        if any(_key(t) == key for t in top_figures):
            continue
        rivals = [t for t in top_figures if t.base_unit == q.base_unit]
        if not rivals:
            continue
        holders = [c for s, c in zip(sentences, covers) if any(_key(t) == key for t in _figures(s))]
        if holders and max(holders) <= best - MARGIN:
            return (f"the figure '{q.raw}' is stated for something else in the context; "
                    f"for this it gives '{rivals[0].raw}'")
    return None
