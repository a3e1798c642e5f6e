"""Near-duplicate questions: normalised lemma sets and a Jaccard threshold.

The key of a question is the set of lemmas of *all* its words (function words and numerals included,
so "в один слой" and "в два слоя" stay apart), numbers normalised ("1 150" -> "1150"). Two questions
are near duplicates when ``|A & B| / |A | B| >= threshold`` (default 0.9) — word order, case,
punctuation and inflection do not matter. Fast: no model, one lemma lookup per distinct word.
"""

from __future__ import annotations

import re

from ragauge.generate.questions import morph

_TOKEN = re.compile(r"\d+(?:[ \u00a0]\d{3})*(?:[.,]\d+)?|[^\W\d_]+(?:-[^\W\d_]+)*")


def question_key(text: str) -> frozenset[str]:
    """Lemmas of every word of ``text`` (lower-cased words when pymorphy3 is missing).

    >>> question_key("Сколько стоит укладка ламината?") == question_key("сколько стоит  УКЛАДКА ламината")
    True
    """
    out = set()
    analyzer = morph._analyzer()
    for raw in _TOKEN.findall(text.lower()):
        if raw[0].isdigit():
            out.add(re.sub(r"[ \u00a0]", "", raw).replace(",", "."))
        elif analyzer is not None and re.search("[а-яё]", raw):
            out.add(analyzer.parse(raw)[0].normal_form.replace("ё", "е"))
        else:
            out.add(raw[:-1] if raw.endswith("s") and len(raw) > 3 else raw)
    return frozenset(out)


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """|a & b| / |a | b|; two empty sets are identical (1.0)."""
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


class NearDuplicateFilter:
    """Accept questions one by one; refuse one whose key is within ``threshold`` of an accepted one."""

    def __init__(self, threshold: float = 0.9) -> None:
        if not 0.0 < threshold <= 1.0:
            from ragauge.errors import ConfigError

            raise ConfigError(f"dedup threshold must be in (0, 1] (got {threshold!r})")
        self.threshold = threshold
        self._keys: list[frozenset[str]] = []
        self._exact: set[frozenset[str]] = set()

    def accept(self, question: str) -> bool:
        key = question_key(question)
        if key in self._exact or any(jaccard(key, k) >= self.threshold for k in self._keys):
            return False
        self._keys.append(key)
        self._exact.add(key)
        return True


__all__ = ["NearDuplicateFilter", "jaccard", "question_key"]
