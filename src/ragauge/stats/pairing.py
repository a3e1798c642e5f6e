"""Pairing two runs' scores by sample id: the first step of every paired comparison.

Comparisons pair samples by id and refuse mismatched id sets unless ``allow_intersection``; samples
unscored in either run are dropped and counted (:class:`Pairing`), never silently lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import numpy as np

from ..errors import InputError

__all__ = ["Pairing", "pair_by_id"]


@dataclass(frozen=True, slots=True, eq=False)
class Pairing:
    """Two score vectors aligned by id, and what was left out on the way."""

    ids: tuple[str, ...]
    base: np.ndarray
    new: np.ndarray
    only_base: int = 0  #: ids present only in the base run (dropped with allow_intersection)
    only_new: int = 0
    unscored_base: int = 0  #: common ids dropped because the base run has no score
    unscored_new: int = 0  #: common ids dropped because the new run has no score (and base had one)

    @property
    def n(self) -> int:
        return len(self.ids)

    def dropped(self) -> dict[str, int]:
        return {"only_base": self.only_base, "only_new": self.only_new,
                "unscored_base": self.unscored_base, "unscored_new": self.unscored_new}


def _id_mismatch(only_base: list[str], only_new: list[str], what: str) -> InputError:
    def show(ids: list[str]) -> str:
        head = ", ".join(repr(i) for i in sorted(ids)[:5])
        return f"{len(ids)} ({head}{', ...' if len(ids) > 5 else ''})" if ids else "0"

    return InputError(
        f"the two runs were not scored on the same samples{what}: only in base {show(only_base)}, "
        f"only in new {show(only_new)}",
        hint="compare runs on the same data set, or use the common ids only with --intersection "
        "(allow_intersection=True); the dropped ids are then counted in the result",
    )


def pair_by_id(
    base: Mapping[str, float | None],
    new: Mapping[str, float | None],
    *,
    allow_intersection: bool = False,
) -> Pairing:
    """Align ``{id: score or None}`` maps of two runs. ``None`` (unscored) in either run drops the pair.

    Raises ``InputError`` when the id sets differ, unless ``allow_intersection``.

    >>> p = pair_by_id({"a": 1.0, "b": None, "c": 0.5}, {"a": 0.0, "b": 1.0, "c": 0.5})
    >>> p.ids, p.unscored_base
    (('a', 'c'), 1)
    """
    only_base = [i for i in base if i not in new]
    only_new = [i for i in new if i not in base]
    if (only_base or only_new) and not allow_intersection:
        raise _id_mismatch(only_base, only_new, "")
    ids, b, n = [], [], []
    unscored_base = unscored_new = 0
    for i, vb in base.items():
        if i not in new:
            continue
        vn = new[i]
        if vb is None:
            unscored_base += 1
        elif vn is None:
            unscored_new += 1
        else:
            ids.append(i)
            b.append(float(vb))
            n.append(float(vn))
    return Pairing(tuple(ids), np.asarray(b, dtype=np.float64), np.asarray(n, dtype=np.float64),
                   len(only_base), len(only_new), unscored_base, unscored_new)
