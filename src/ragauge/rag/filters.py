"""Metadata filters of the reference retriever, applied to the candidate set *before* ranking.

A filter is a mapping ``field -> value`` or ``field -> [values]`` (any of them). Fields are a chunk's
``id``, ``doc_id``, ``title``, ``version``, ``section`` or any other key of its record. All fields must
match (AND). Values compare as strings, so ``{"version": 2026}`` matches ``"2026"``.

A field that no chunk of the index has is a :class:`ConfigError` (a typo would otherwise filter out
everything and look like "nothing found").

>>> records = [{"id": "a", "doc_id": "price"}, {"id": "b", "doc_id": "contract"}]
>>> filter_mask(records, {"doc_id": ["price", "faq"]}).tolist()
[True, False]
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from ..errors import ConfigError


def _allowed(field: str, value: Any) -> set[str]:
    values = value if isinstance(value, (list, tuple, set, frozenset)) else [value]
    if not values:
        raise ConfigError(f"filter field {field!r} has an empty list of values; give at least one value "
                          "or drop the field")
    return {str(v) for v in values}


def filter_mask(records: Sequence[Mapping[str, Any]], filters: Mapping[str, Any] | None) -> np.ndarray:
    """Boolean mask over ``records``: ``True`` where every filter field matches."""
    mask = np.ones(len(records), dtype=bool)
    if filters is None:
        return mask
    if not isinstance(filters, Mapping):
        raise ConfigError(f"filters must be a mapping field -> value(s) (got {type(filters).__name__}: "
                          f"{filters!r}), e.g. {{'doc_id': 'price-list-2026'}}")
    for field, value in filters.items():
        allowed = _allowed(field, value)
        present = [field in r for r in records]
        if records and not any(present):
            known = sorted({k for r in records for k in r if k != "text"})
            raise ConfigError(f"filter field {field!r} is not a field of any indexed chunk; known fields: {known}")
        column = np.array([field in r and r[field] is not None and str(r[field]) in allowed for r in records],
                          dtype=bool)
        mask &= column
    return mask


__all__ = ["filter_mask"]
