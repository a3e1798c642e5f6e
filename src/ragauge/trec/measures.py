"""trec_eval measure names, ``-m`` syntax, and per-query values from a joined run.

Supported trec_eval measures (names, parameters and printed names as trec_eval's):
``runid num_q num_ret num_rel num_rel_ret map Rprec recip_rank P recall ndcg ndcg_cut map_cut
success``. ``-m name.p1,p2`` sets cutoffs (``-m P.5,10`` prints ``P_5`` and ``P_10``; cutoffs are
read like C ``atol``, sorted, and must be positive without duplicates). Nicknames: ``official``
(trec_eval's default set, restricted to what ragauge implements) and ``all_trec`` (everything here).
Several ``-m`` for one measure merge their cutoffs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from ..errors import InputError, UnknownMetricError
from ..scores import ranking as rk
from .join import JoinedRun

__all__ = ["MEASURES", "MeasureSpec", "TrecEvaluation", "compute", "parse_measures"]

_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
# trec_eval's print order (its measures.c table), with default cutoffs (None: no parameters).
MEASURES: dict[str, tuple[int, ...] | None] = {
    "runid": None,
    "num_q": None,
    "num_ret": None,
    "num_rel": None,
    "num_rel_ret": None,
    "map": None,
    "Rprec": None,
    "recip_rank": None,
    "P": _CUTS,
    "recall": _CUTS,
    "ndcg": None,
    "ndcg_cut": _CUTS,
    "map_cut": _CUTS,
    "success": (1, 5, 10),
}
NICKNAMES = {
    "official": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "Rprec", "recip_rank", "P"),
    "all_trec": tuple(MEASURES),
}
_SUMMED = {"num_ret", "num_rel", "num_rel_ret"}  # integers, summed in the 'all' line
_NOT_SUPPORTED = (
    "gm_map bpref iprec_at_recall infAP gm_bpref Rprec_mult utility 11pt_avg binG G ndcg_rel Rndcg "
    "relative_P set_P set_relative_P set_recall set_map set_F num_nonrel_judged_ret rbp rbp_resid unj relstring"
).split()


@dataclass(frozen=True)
class MeasureSpec:
    name: str
    cutoffs: tuple[int, ...] | None = None

    def line_names(self) -> list[str]:
        if self.cutoffs is None:
            return [self.name]
        return [f"{self.name}_{k}" for k in self.cutoffs]


def _cutoffs(name: str, text: str) -> tuple[int, ...]:
    values = []
    for token in text.split(","):
        match = re.match(r"\s*[+-]?\d+", token)  # like C atol: leading integer, rest ignored
        value = int(match.group()) if match else 0
        if value <= 0:
            raise InputError(
                f"measure '{name}': cutoffs must be positive integers", value=text, hint=f"e.g. -m {name}.5,10"
            )
        values.append(value)
    if len(set(values)) != len(values):
        raise InputError(f"measure '{name}': duplicate cutoff", value=text)
    return tuple(sorted(values))


def parse_measures(args: Iterable[str] | None) -> list[MeasureSpec]:
    """trec_eval ``-m`` arguments -> measure specs in trec_eval's print order (default: official)."""
    chosen: dict[str, set[int] | None] = {}
    for arg in list(args or []) or ["official"]:
        name, dot, params = arg.partition(".")
        names = NICKNAMES.get(name, (name,))
        for one in names:
            if one not in MEASURES:
                close = [m for m in MEASURES if m.lower().startswith(one.lower()[:3])]
                why = "is a trec_eval measure that ragauge does not compute" if one in _NOT_SUPPORTED else "is unknown"
                raise UnknownMetricError(
                    f"trec_eval measure '{one}' {why}. Supported: {', '.join(MEASURES)}"
                    + (f" (close: {', '.join(close)})" if close else "")
                    + "; nicknames: official, all_trec"
                )
            default = MEASURES[one]
            if dot and one == name:
                if default is None:
                    raise InputError(f"measure '{one}' takes no parameters", value=arg)
                cuts: set[int] | None = set(_cutoffs(one, params))
            else:
                cuts = None if default is None else set(default)
            if one in chosen and chosen[one] is not None and cuts is not None:
                chosen[one] = chosen[one] | cuts  # type: ignore[operator]
            else:
                chosen.setdefault(one, cuts)
    return [MeasureSpec(m, None if chosen[m] is None else tuple(sorted(chosen[m]))) for m in MEASURES if m in chosen]


@dataclass(frozen=True)
class TrecEvaluation:
    """Per-query values (rows follow ``query_ids``) of each printed measure name, e.g. ``P_5``."""

    query_ids: list[str]
    specs: list[MeasureSpec]
    values: dict[str, np.ndarray]
    run_id: str

    def summary(self) -> dict[str, float | int | str]:
        """The ``all`` line of each measure: mean over queries, sums for ``num_*``."""
        out: dict[str, float | int | str] = {}
        n = len(self.query_ids)
        for spec in self.specs:
            for line in spec.line_names():
                if line == "runid":
                    out[line] = self.run_id
                elif line == "num_q":
                    out[line] = n
                elif line in _SUMMED:
                    out[line] = int(self.values[line].sum())
                else:
                    out[line] = float(self.values[line].sum() / n) if n else 0.0
        return out


def compute(joined: JoinedRun, specs: Sequence[MeasureSpec]) -> TrecEvaluation:
    """Per-query values of ``specs`` over a joined run."""
    batch = joined.batch
    values: dict[str, np.ndarray] = {}
    for spec in specs:
        name = spec.name
        if name in ("runid", "num_q"):
            continue
        if name == "num_ret":
            values[name] = batch.retrieved.astype(np.int64)
        elif name == "num_rel":
            values[name] = batch.num_rel.astype(np.int64)
        elif name == "num_rel_ret":
            values[name] = rk.num_rel_ret(batch)
        elif name == "map":
            values[name] = rk.average_precision(batch)
        elif name == "Rprec":
            values[name] = rk.r_precision(batch)
        elif name == "recip_rank":
            values[name] = rk.reciprocal_rank(batch)
        elif name == "ndcg":
            values[name] = rk.ndcg(batch)
        else:
            kernel = {
                "P": rk.precision,
                "recall": rk.recall,
                "ndcg_cut": rk.ndcg,
                "map_cut": rk.average_precision,
                "success": rk.hit_rate,
            }[name]
            for k, line in zip(spec.cutoffs or (), spec.line_names()):
                values[line] = kernel(batch, k)
    return TrecEvaluation(joined.query_ids, list(specs), values, joined.run_id)
