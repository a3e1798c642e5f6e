"""One registry of metrics: parse a name into a spec, find the code that computes it, list them all.

A *definition* (``MetricDef``) is a family member with an optional parameter: ``ndcg`` with ``@k``,
``latency`` with a percentile ``_pNN``. ``parse_metric("ndcg@10")`` returns the ``MetricSpec`` whose
``name`` prints back as ``ndcg@10``. Unknown names fail with close matches and the list command.
"""

from __future__ import annotations

import difflib
import importlib
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..errors import UnknownMetricError
from .spec import MetricSpec

#: ``compute(specs, samples)`` of a family module: the columns (a formula family), or a judge family's plan
#: (:mod:`ragauge.metrics.plan`) that yields requests and returns the columns
ComputeFunction = Callable[..., Any]

# Modules that define metric families; each has DEFINITIONS (list of MetricDef) and
# compute(specs, samples) -> dict[str, ScoreColumn] | Plan[dict[str, ScoreColumn]].
FAMILY_MODULES = ("ranking", "context_ids", "operational", "faithfulness", "answer", "context_judge", "noise", "toxicity",
                 "context_relevance", "citations", "diagnostics", "answerability", "agent", "taxonomy",
                 "behaviour")


@dataclass(frozen=True, slots=True)
class MetricDef:
    """A metric before its parameter is bound.

    ``param``: ``"k"`` (written ``name@k``), ``"percentile"`` (written ``name_p95``) or ``None``.
    ``description`` may use ``{k}``/``{p}`` and ``{cut}`` (" of the top k" or "").
    """

    base: str
    family: str
    description: str
    param: str | None = None
    param_required: bool = False
    aliases: tuple[str, ...] = ()
    higher_is_better: bool = True
    range: tuple[float | None, float | None] = (0.0, 1.0)
    requires: tuple[str, ...] = ()
    unit: str | None = None
    judge: str | None = None
    extra: tuple[tuple[str, object], ...] = ()

    def bind(self, value: int | float | None) -> MetricSpec:
        params: dict[str, object] = dict(self.extra)
        aggregate = "mean"
        if self.param == "k":
            name = self.base if value is None else f"{self.base}@{int(value)}"
            if value is not None:
                params["k"] = int(value)
            text = self.description.format(k=value, cut=f" of the top {value}" if value is not None else "")
        elif self.param == "percentile":
            p = _fmt_number(value)
            name = f"{self.base}_p{p}"
            params["percentile"] = float(value)  # type: ignore[arg-type]
            aggregate = f"p{p}"
            text = self.description.format(p=p)
        else:
            name = self.base
            text = self.description
        return MetricSpec(
            name=name,
            base=self.base,
            family=self.family,
            description=text,
            params=params,
            higher_is_better=self.higher_is_better,
            range=self.range,
            requires=self.requires,
            aggregate=aggregate,
            unit=self.unit,
            judge=self.judge,
        )


def _fmt_number(value: float | int | None) -> str:
    v = float(value)  # type: ignore[arg-type]
    return str(int(v)) if v.is_integer() else repr(v)


_K_RE = re.compile(r"^(?P<base>[a-z][a-z0-9_]*?)(?:@(?P<k>\d+))?$")
_P_RE = re.compile(r"^(?P<base>[a-z][a-z0-9_]*?)_p(?P<p>\d{1,3}(?:\.\d+)?)$")

_DEFS: dict[str, MetricDef] | None = None
_ALIASES: dict[str, str] = {}
_COMPUTE: dict[str, ComputeFunction] = {}


def _load() -> dict[str, MetricDef]:
    global _DEFS
    if _DEFS is None:
        defs: dict[str, MetricDef] = {}
        for mod_name in FAMILY_MODULES:
            module = importlib.import_module(f".{mod_name}", __package__)
            for d in module.DEFINITIONS:
                if d.base in defs:
                    raise RuntimeError(f"metric {d.base!r} defined twice")
                defs[d.base] = d
                for alias in d.aliases:
                    _ALIASES[alias] = d.base
            _COMPUTE[module.FAMILY] = module.compute
        _DEFS = defs
    return _DEFS


def definitions() -> list[MetricDef]:
    """Every metric definition, in registry order."""
    return list(_load().values())


def compute_function(family: str) -> ComputeFunction:
    _load()
    return _COMPUTE[family]


def parse_metric(name: str | MetricSpec) -> MetricSpec:
    """Parse ``"ndcg@10"``, ``"mrr"``, ``"latency_p95"`` (case-insensitive, aliases allowed) into a spec."""
    if isinstance(name, MetricSpec):
        return name
    defs = _load()
    if not isinstance(name, str) or not name.strip():
        raise UnknownMetricError(f"a metric name must be a non-empty string, got {name!r}")
    text = name.strip().lower()
    m = _P_RE.match(text)
    if m:
        base = _ALIASES.get(m["base"], m["base"])
        d = defs.get(base)
        if d is not None and d.param == "percentile":
            p = float(m["p"])
            if not 0 < p < 100:
                raise UnknownMetricError(f"metric {name!r}: the percentile must be between 0 and 100")
            return d.bind(p)
    m = _K_RE.match(text)
    if m:
        base = _ALIASES.get(m["base"], m["base"])
        d = defs.get(base)
        if d is not None and d.param != "percentile":
            k = m["k"]
            if k is not None and d.param != "k":
                raise UnknownMetricError(f"metric {name!r}: {d.base} takes no @k cutoff; write {d.base!r}")
            if k is None and d.param_required:
                raise UnknownMetricError(
                    f"metric {name!r} needs a cutoff: write e.g. '{d.base}@5' or '{d.base}@10'"
                )
            if k is not None and int(k) < 1:
                raise UnknownMetricError(f"metric {name!r}: the cutoff k must be at least 1")
            return d.bind(int(k) if k is not None else None)
        if d is not None and d.param == "percentile":
            raise UnknownMetricError(
                f"metric {name!r} needs a percentile: write e.g. '{d.base}_p50' or '{d.base}_p95'"
            )
    raise UnknownMetricError(_unknown_message(name, defs))


_GLUED_RE = re.compile(r"^(?P<head>[a-z_\s\-.:@]+?)(?P<n>\d+)$")


def _written_as(name: str, defs: Mapping[str, MetricDef]) -> list[str]:
    """The full name meant by a name with its cutoff or percentile glued on or misspelt:
    ``ndcg10`` / ``ndcg_10`` / ``ndcg-at-10`` -> ``ndcg@10``, ``latency95`` / ``latency_95`` -> ``latency_p95``,
    ``ndcg@k`` -> ``ndcg@10`` (the letter k is a placeholder)."""
    text = name.strip().lower()
    if text.endswith("@k"):
        text = text[:-2] + "@10"
    m = _GLUED_RE.match(text)
    if not m:
        return []
    # the longest known metric name the head starts with, the rest being a separator ("@", "_at_", "-p", ...)
    head = m["head"]
    d = None
    for cut in range(len(head), 0, -1):
        name, rest = head[:cut].rstrip("_-.: "), head[cut:].strip("_-.: @")
        known = defs.get(_ALIASES.get(name, name))
        if known is not None and rest in ("", "p", "at", "at_k", "k"):
            d = known
            break
    if d is None:
        return []
    if d.param == "k":
        full = f"{d.base}@{int(m['n'])}"
    elif d.param == "percentile":
        full = f"{d.base}_p{int(m['n'])}"
    else:
        return []
    try:
        parse_metric(full)
    except UnknownMetricError:
        return []
    return [full]


def _unknown_message(name: str, defs: Mapping[str, MetricDef]) -> str:
    known = []
    for d in defs.values():
        if d.param == "k":
            known.append(f"{d.base}@k" if d.param_required else d.base)
        elif d.param == "percentile":
            known.append(f"{d.base}_p95")
        else:
            known.append(d.base)
    close = _written_as(name, defs)
    if not close:
        stem, at, cut = name.strip().lower().partition("@")
        close = difflib.get_close_matches(stem, list(defs) + list(_ALIASES), n=3, cutoff=0.6)
        if at and cut.isdigit():  # keep the cutoff the user wrote: 'ndgc@10' -> 'ndcg@10'
            close = [f"{c}@{cut}" if defs[_ALIASES.get(c, c)].param == "k" else c for c in close]
    hint = f" Did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    return (
        f"unknown metric {name!r}.{hint} Known metrics: {', '.join(known)}. "
        "Run 'ragauge metrics list' for definitions."
    )


def parse_metrics(names: Iterable[str | MetricSpec] | str) -> list[MetricSpec]:
    """Parse a list (or a comma-separated string) of names; duplicates are removed, order kept."""
    if isinstance(names, str):
        names = [n for n in names.split(",") if n.strip()]
    seen: dict[str, MetricSpec] = {}
    for n in names:
        spec = parse_metric(n)
        seen.setdefault(spec.name, spec)
    return list(seen.values())


def group_by_family(specs: Sequence[MetricSpec]) -> dict[str, list[MetricSpec]]:
    groups: dict[str, list[MetricSpec]] = {}
    for s in specs:
        groups.setdefault(s.family, []).append(s)
    return groups
