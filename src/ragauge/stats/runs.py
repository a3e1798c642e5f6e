"""Reading the per-sample scores of two results files and comparing every metric they share.

:func:`run_scores` reads a ``ragauge.results/1`` document; :func:`compare_runs` pairs each common metric
by id (:func:`.pairing.pair_by_id`), compares it (:func:`.paired.compare_paired`) and Holm-corrects the
p-values across the metrics (:func:`.paired_tests.holm`). Used by ``ragauge compare`` and baselines.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..errors import InputError
from ..results_schema import check_schema
from .paired import PairedResult, _decide, compare_paired
from .paired_tests import holm
from .pairing import _id_mismatch, pair_by_id

__all__ = ["ComparisonResult", "RunScores", "compare_runs", "run_scores"]


@dataclass(frozen=True, slots=True)
class RunScores:
    """The per-sample scores of one results.json document, by metric."""

    source: str
    ids: tuple[str, ...]
    specs: dict[str, dict[str, Any]]
    scores: dict[str, dict[str, float | None]]
    #: the evaluated system as results.json names it ("support-bot 1.3"), ``None`` when it does not
    app: str | None = None


def app_label(doc: Mapping[str, Any]) -> str | None:
    """``"name version"`` from a results document's ``app`` block (either part may be missing), else ``None``."""
    app = doc.get("app")
    if not isinstance(app, Mapping):
        return None
    parts = [str(app[k]) for k in ("name", "version") if isinstance(app.get(k), (str, int, float))]
    return " ".join(parts) or None


def run_scores(doc: Mapping[str, Any], *, source: str = "results.json") -> RunScores:
    """Read the per-sample scores out of a results.json document (schema ``ragauge.results/1``)."""
    check_schema(doc, source=source)
    specs: dict[str, dict[str, Any]] = {}
    for s in doc.get("metrics") or []:
        if isinstance(s, Mapping) and isinstance(s.get("name"), str):
            specs[s["name"]] = dict(s)
    if doc.get("samples_in") == "shards":  # a --shards run: never read as a run without samples
        shards = doc.get("source", {}).get("shards", {}) if isinstance(doc.get("source"), Mapping) else {}
        raise InputError(f"the per-sample scores of this run are in its Parquet shards ({shards.get('path', '?')}), "
                         "not in results.json", file=source, field="samples_in",
                         hint="ragauge compare and --baseline read them; for this command, re-run without --shards")
    samples = doc.get("samples")
    if not isinstance(samples, list):
        raise InputError("missing the per-sample scores", file=source, field="samples",
                         hint="re-run `ragauge eval`; compare needs results.json with its samples")
    ids: list[str] = []
    seen: set[str] = set()
    scores: dict[str, dict[str, float | None]] = {name: {} for name in specs}
    for k, s in enumerate(samples):
        sid = s.get("id") if isinstance(s, Mapping) else None
        if not isinstance(sid, str):
            raise InputError("sample without a string id", file=source, field=f"samples[{k}].id", value=sid)
        if sid in seen:
            raise InputError("duplicate sample id", file=source, field=f"samples[{k}].id", value=sid,
                             hint="ids must be unique to pair samples between runs")
        seen.add(sid)
        ids.append(sid)
        row = s.get("scores")
        if row is None:
            row = {}
        elif not isinstance(row, Mapping):
            raise InputError("per-sample scores must be an object {metric: value}", file=source,
                             field=f"samples[{k}].scores", value=row,
                             hint="pass the results.json written by `ragauge eval`")
        for name in specs:
            v = row.get(name)
            if v is not None and not (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)):
                raise InputError("score is not a finite number or null", file=source,
                                 field=f"samples[{k}].scores.{name}", value=v)
            scores[name][sid] = None if v is None else float(v)
    return RunScores(source, tuple(ids), specs, scores, app_label(doc))


@dataclass(frozen=True, slots=True)
class ComparisonResult:
    """Every compared metric of two runs, Holm-corrected together."""

    base: str
    new: str
    n_common: int
    only_base: int
    only_new: int
    alpha: float
    level: float
    seed: int | None
    metrics: tuple[PairedResult, ...]
    base_app: str | None = None
    new_app: str | None = None

    @property
    def any_worse(self) -> bool:
        return any(r.verdict == "worse" for r in self.metrics)

    def to_dict(self) -> dict[str, Any]:
        return {
            "base": self.base, "new": self.new, "base_app": self.base_app, "new_app": self.new_app, "n_common": self.n_common, "only_base": self.only_base,
            "only_new": self.only_new, "alpha": self.alpha, "level": self.level, "seed": self.seed,
            "correction": "holm", "any_worse": self.any_worse,
            "metrics": [r.to_dict() for r in self.metrics],
        }


def compare_runs(
    base: RunScores,
    new: RunScores,
    *,
    metrics: Sequence[str] | None = None,
    allow_intersection: bool = False,
    alpha: float = 0.05,
    level: float = 0.95,
    power: float = 0.8,
    n_resamples: int = 2000,
    n_permutations: int = 10_000,
    seed: int = 0,
) -> ComparisonResult:
    """Compare every metric (or ``metrics``) present in both runs, with Holm across them.

    Each metric uses the same ``seed``, so a metric's numbers do not depend on which others are compared.
    """
    new_set, base_set = set(new.ids), set(base.ids)
    only_base = [i for i in base.ids if i not in new_set]
    only_new = [i for i in new.ids if i not in base_set]
    if (only_base or only_new) and not allow_intersection:
        raise _id_mismatch(only_base, only_new, f" ({base.source} vs {new.source})")
    common = [m for m in new.specs if m in base.specs]
    if metrics:
        missing = [m for m in metrics if m not in base.specs or m not in new.specs]
        if missing:
            raise InputError(
                f"metric(s) {', '.join(missing)} not in both runs", field="--metrics",
                hint=f"metrics in both runs: {', '.join(common) or 'none'}",
            )
        common = list(dict.fromkeys(metrics))
    if not common:
        raise InputError("the two runs have no metric in common",
                         hint=f"base has {', '.join(base.specs) or 'none'}; new has {', '.join(new.specs) or 'none'}")
    pairings, specs = [], []
    for m in common:
        hib_b, hib_n = base.specs[m].get("higher_is_better", True), new.specs[m].get("higher_is_better", True)
        agg_b, agg_n = base.specs[m].get("aggregate", "mean"), new.specs[m].get("aggregate", "mean")
        if hib_b != hib_n or agg_b != agg_n:
            raise InputError(f"metric '{m}' is defined differently in the two runs", field="metrics",
                             value={"base": [hib_b, agg_b], "new": [hib_n, agg_n]},
                             hint="re-score both runs with the same ragauge version")
        pairings.append(pair_by_id(base.scores[m], new.scores[m], allow_intersection=True))
        specs.append((bool(hib_n), None if agg_n == "mean" else float(str(agg_n)[1:])))
    raw = [compare_paired(p.base, p.new, metric=m, higher_is_better=h, percentile=pct, seed=seed,
                          dropped=p.dropped(), alpha=alpha, level=level, power=power, n_resamples=n_resamples,
                          n_permutations=n_permutations)
           for m, p, (h, pct) in zip(common, pairings, specs)]
    adjusted = holm([r.p_value for r in raw])
    results = [r if r.p_value is None else _decide(r, adj) for r, adj in zip(raw, adjusted)]
    return ComparisonResult(base.source, new.source, len(base_set & new_set), len(only_base), len(only_new),
                            alpha, level, seed, tuple(results), base.app, new.app)
