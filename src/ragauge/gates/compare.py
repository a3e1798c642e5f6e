"""Value against a bar: the one definition of ``value op threshold`` (gates, slice alarms, reports, diagnosis).

Profiles only admit :data:`OPERATORS` (``gates/profiles.py`` refuses any other when it loads). A results
document read back from disk may carry anything, so readers use :func:`meets_or_unknown` and decide what
"unknown" means for them (a report does not show a pass; the diagnosis does not claim a miss).

>>> meets(0.9, ">=", 0.85), meets(3.2, "<", 3.0)
(True, False)
>>> meets_or_unknown(0.9, "==", 0.9) is None
True
"""

from __future__ import annotations

import operator
from typing import Callable

OPERATORS: tuple[str, ...] = (">=", "<=", ">", "<")
_FUNCS: dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt}


def meets(value: float, op: str, threshold: float) -> bool:
    """``value op threshold``; an operator outside :data:`OPERATORS` is a ``ValueError`` naming them."""
    try:
        func = _FUNCS[op]
    except (KeyError, TypeError):
        raise ValueError(f"unknown comparison {op!r}; use one of {', '.join(OPERATORS)}") from None
    return bool(func(float(value), float(threshold)))


def meets_or_unknown(value: float, op: object, threshold: float) -> bool | None:
    """As :func:`meets`, but ``None`` for an operator outside :data:`OPERATORS` (documents read from disk)."""
    if not isinstance(op, str) or op not in _FUNCS:
        return None
    return meets(value, op, threshold)


def higher_is_better(op: str) -> bool:
    """``>=``/``>`` bars are minimums (the lower CI bound decides), ``<=``/``<`` are budgets."""
    return op in (">=", ">")
