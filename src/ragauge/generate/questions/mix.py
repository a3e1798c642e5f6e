"""The type mix of a golden set: ``--mix simple=0.5,reasoning=0.3,multi_context=0.2``.

A mix names shares of the set by *kind*: the case types (:data:`ragauge.generate.case.TYPES`) and the
two variant kinds, ``badly_formulated`` (typo/layout/colloquial copies) and ``paraphrase`` (synonym
copies). Shares must be non-negative numbers; they are **normalised** to sum to 1 (``simple=2,
reasoning=1`` is 2/3 and 1/3), and a kind the mix does not name gets none. Targets per kind are the
largest-remainder rounding of ``share * n`` (they sum to ``n``). When the documents cannot give a kind
its target the set is shorter, never padded with another kind; :func:`mix_report` says which kind fell
short and by how much.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any, Mapping, Sequence

from ragauge.errors import ConfigError
from ragauge.generate.case import TYPES, GoldenCase

VARIANT_KINDS = ("badly_formulated", "paraphrase")
MIX_KINDS = TYPES + VARIANT_KINDS


def _bad(what: str, allowed: Sequence[str]) -> ConfigError:
    return ConfigError(f"mix: {what}; accepted kinds: {', '.join(allowed)} "
                       "(example: --mix simple=0.5,reasoning=0.3,multi_context=0.2)")


def parse_mix(value: str | Mapping[str, Any], *, allowed: Sequence[str] = MIX_KINDS) -> dict[str, float]:
    """``"simple=0.5,reasoning=0.3"`` or ``{"simple": 0.5, ...}`` -> normalised ``{kind: share}``.

    >>> parse_mix("simple=0.5, reasoning=0.3,multi_context=0.2")
    {'simple': 0.5, 'reasoning': 0.3, 'multi_context': 0.2}
    >>> parse_mix({"simple": 3, "reasoning": 1})
    {'simple': 0.75, 'reasoning': 0.25}
    """
    pairs: list[tuple[str, Any]] = []
    if isinstance(value, str):
        for part in (p.strip() for p in value.split(",")):
            if not part:
                continue
            if "=" not in part:
                raise _bad(f"{part!r} is not KIND=SHARE", allowed)
            k, v = part.split("=", 1)
            pairs.append((k.strip(), v.strip()))
    elif isinstance(value, Mapping):
        pairs = [(str(k), v) for k, v in value.items()]
    else:
        raise _bad(f"expected 'KIND=SHARE,...' or a dict, got {type(value).__name__}", allowed)
    if not pairs:
        raise _bad("it is empty", allowed)
    out: dict[str, float] = {}
    for kind, raw in pairs:
        if kind not in allowed:
            raise _bad(f"unknown kind {kind!r}", allowed)
        if kind in out:
            raise _bad(f"{kind!r} is given twice", allowed)
        try:
            share = float(raw) if not isinstance(raw, bool) else math.nan
        except (TypeError, ValueError):
            share = math.nan
        if not math.isfinite(share):
            raise _bad(f"the share of {kind!r} is {raw!r}, not a number", allowed)
        if share < 0:
            raise _bad(f"the share of {kind!r} is negative ({raw!r})", allowed)
        out[kind] = share
    total = sum(out.values())
    if total <= 0:
        raise _bad("every share is 0", allowed)
    return {k: round(v / total, 6) for k, v in out.items()}


def targets(mix: Mapping[str, float], n: int) -> dict[str, int]:
    """Cases per kind: ``share * n`` rounded by largest remainder (ties in mix order), summing to ``n``."""
    raw = {k: s * n for k, s in mix.items()}
    out = {k: math.floor(v) for k, v in raw.items()}
    order = sorted(mix, key=lambda k: -(raw[k] - out[k]))
    for k in order[: n - sum(out.values())]:
        out[k] += 1
    return out


def kind_of(case: GoldenCase) -> str:
    """The mix kind of a case: a variant's kind (from its slices) when it is a copy, else its type."""
    if "variant_of" in case.extra:
        return "badly_formulated" if "badly_formulated" in case.slices else "paraphrase"
    return case.type


def mix_report(cases: Sequence[GoldenCase], mix: Mapping[str, float], wanted: Mapping[str, int],
               available: Mapping[str, int]) -> dict[str, Any]:
    """Requested vs achieved per kind, and a line per kind the documents could not fill.

    ``available``: distinct checked candidates of each kind the documents gave (what could be chosen).
    """
    got = Counter(kind_of(c) for c in cases)
    total = len(cases) or 1
    rows = {k: {"requested_share": mix[k], "requested": wanted[k], "achieved": got.get(k, 0),
                "achieved_share": round(got.get(k, 0) / total, 4)} for k in mix}
    short = [f"{k}: asked {wanted[k]}, the documents gave {got.get(k, 0)} "
             f"({available.get(k, 0)} candidates of this kind passed the checks)"
             for k in mix if got.get(k, 0) < wanted[k]]
    return {"kinds": rows, "short": short,
            "note": "shares are normalised to sum to 1; a kind short of its share is not replaced by another"}


__all__ = ["MIX_KINDS", "VARIANT_KINDS", "kind_of", "mix_report", "parse_mix", "targets"]
