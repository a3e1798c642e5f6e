"""Scope cues: parties ("заказчик", "customer") and quantifiers ("только", "каждый", "any") a claim and its
evidence must agree on."""

from __future__ import annotations

from ragauge.judges.offline.lemmas import _analyze, _is_cyrillic_word
from ragauge.judges.offline.porter import porter_stem

# ---------------------------------------------------------------- scope

# (tag, phrase). Russian phrases are matched on lemmas, English ones on Porter stems, so
# "любой из сторон", "заказчику", "parties" all match. Longer phrases win over their parts.
_SCOPE_PHRASES: tuple[tuple[str, str], ...] = (
    ("party:any", "любой из сторона"),
    ("party:any", "любой сторона"),
    ("party:any", "каждый сторона"),
    ("party:any", "каждый из сторона"),
    ("party:any", "один из сторона"),
    ("party:both", "оба сторона"),
    ("party:customer", "заказчик"),
    ("party:customer", "генеральный заказчик"),
    ("party:customer", "клиент"),
    ("party:customer", "покупатель"),
    ("party:contractor", "подрядчик"),
    ("party:contractor", "генподрядчик"),
    ("party:contractor", "генеральный подрядчик"),
    ("party:contractor", "исполнитель"),
    ("party:subcontractor", "субподрядчик"),
    ("party:supplier", "поставщик"),
    ("q:only", "только"),
    ("q:only", "лишь"),
    ("q:only", "исключительно"),
    ("q:all", "весь"),
    ("q:all", "каждый"),
    ("q:any", "любой"),
    ("q:none", "никакой"),
    ("party:any", "any party"),
    ("party:any", "either party"),
    ("party:any", "each party"),
    ("party:any", "any of the parties"),
    ("party:any", "either of the parties"),
    ("party:any", "one of the parties"),
    ("party:both", "both parties"),
    ("party:customer", "customer"),
    ("party:customer", "client"),
    ("party:customer", "buyer"),
    ("party:customer", "employer"),
    ("party:contractor", "contractor"),
    ("party:contractor", "general contractor"),
    ("party:subcontractor", "subcontractor"),
    ("party:supplier", "supplier"),
    ("party:supplier", "vendor"),
    ("q:only", "only"),
    ("q:only", "solely"),
    ("q:only", "exclusively"),
    ("q:all", "all"),
    ("q:all", "every"),
    ("q:all", "each"),
    ("q:any", "any"),
    # "каждый месяц" is a frequency ("ежемесячно"), not the quantifier "every": no tag
    *(("", f"{q} {unit}") for q in ("каждый", "every", "each")
      for unit in ("день", "неделя", "месяц", "квартал", "год", "час", "day", "week", "month", "quarter", "year", "hour")),
)
_PARTIES = frozenset({"party:customer", "party:contractor", "party:subcontractor", "party:supplier"})


def _phrase_key(phrase: str) -> tuple[str, ...]:
    return tuple(w if _is_cyrillic_word(w) else porter_stem(w) for w in phrase.split())


_SCOPE_INDEX: dict[tuple[str, ...], str] = {_phrase_key(p): tag for tag, p in _SCOPE_PHRASES}
_SCOPE_MAX = max(len(k) for k in _SCOPE_INDEX)


def scope_terms(text: str, lang: str | None = None) -> frozenset[str]:
    """Party and quantifier scope tags of ``text``: ``party:any|both|customer|contractor|
    subcontractor|supplier`` and ``q:only|all|any|none``. "исполнитель" counts as the contractor.

    >>> sorted(scope_terms("Любая из сторон вправе расторгнуть договор"))
    ['party:any']
    """
    lemmas = [t.lemma for t in _analyze(text)]
    tags = set()
    i = 0
    while i < len(lemmas):
        for size in range(min(_SCOPE_MAX, len(lemmas) - i), 0, -1):
            tag = _SCOPE_INDEX.get(tuple(lemmas[i : i + size]))
            if tag is not None:
                if tag:
                    tags.add(tag)
                i += size
                break
        else:
            i += 1
    return frozenset(tags)


def _covered(tag: str, evidence: frozenset[str]) -> bool:
    if tag in evidence:
        return True
    if tag in _PARTIES or tag in ("party:any", "party:both"):
        return "party:any" in evidence or "party:both" in evidence
    return False


def scope_mismatch(claim: str, evidence: str, *, lang: str | None = None) -> int:
    """How many scope tags of the claim the evidence does not cover.

    A named party in the claim is covered by itself or by "any/each/both parties" in the evidence
    (what any party may do, the customer may do); "any party" in the claim is covered only by
    "any/both parties". Quantifiers must appear as such.

    >>> scope_mismatch("Любая из сторон может расторгнуть договор", "Заказчик вправе расторгнуть договор")
    1
    """
    evid = scope_terms(evidence)
    return sum(1 for tag in scope_terms(claim) if not _covered(tag, evid))


__all__ = ["scope_mismatch", "scope_terms"]
