"""How much of a golden set an expert has checked: generated cases that were never reviewed.

A case written by ``ragauge generate`` carries ``metadata.generator``; ``ragauge review import`` records the
expert's decision in ``metadata.review.status`` (``accepted``, ``edited``, or ``unreviewed`` when kept
without a decision). Unreviewed generated sets carry 10-20 % broken cases (docs/review.md), so a run says
how many of its cases are still unreviewed. Cases an expert wrote (no ``generator``) count as reviewed.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..data.schema import Sample

REVIEWED = ("accepted", "edited")
#: how many unreviewed ids results.json lists (the count is always complete)
MAX_IDS = 20


def golden_review(samples: Sequence[Sample]) -> dict[str, Any] | None:
    """``{"generated", "unreviewed", "share", "ids"}`` over the generated cases, ``None`` when there are none.

    >>> from ragauge.data.schema import Sample
    >>> golden_review([Sample(id="a", metadata={"generator": "offline"}),
    ...                Sample(id="b", metadata={"generator": "offline", "review": {"status": "accepted"}}),
    ...                Sample(id="c")])
    {'generated': 2, 'unreviewed': 1, 'share': 0.5, 'ids': ['a']}
    """
    generated = [s for s in samples if (s.metadata or {}).get("generator") is not None]
    if not generated:
        return None
    unreviewed = [s.id for s in generated
                  if not isinstance((s.metadata or {}).get("review"), dict)
                  or s.metadata["review"].get("status") not in REVIEWED]
    return {"generated": len(generated), "unreviewed": len(unreviewed),
            "share": round(len(unreviewed) / len(generated), 4), "ids": unreviewed[:MAX_IDS]}


def review_warning(block: dict[str, Any] | None, lang: str = "en") -> str | None:
    """The sentence a run prints when generated cases are unreviewed, or ``None``."""
    if not block or not block.get("unreviewed"):
        return None
    n, total = block["unreviewed"], block["generated"]
    pct = f"{block['share']:.0%}"
    if lang == "ru":
        return (f"{n} из {total} сгенерированных случаев ({pct}) эксперт не проверял: в непроверенных наборах "
                "10-20 % случаев с ошибками; проверьте их: ragauge review export / import")
    return (f"{n} of {total} generated cases ({pct}) were never reviewed by an expert; unreviewed sets carry "
            "10-20 % broken cases: review them with ragauge review export / import")
