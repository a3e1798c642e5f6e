"""Threshold profiles: the built-in ones (``profiles.toml``, data) and a user's from ``ragauge.toml``.

A profile maps metric names to thresholds. ``extends`` inherits another profile's thresholds and k;
the child's entries replace the parent's entry for the same metric. ``@K`` in a name becomes the
profile's ``k``.

Targets vs gates ("the gate catches regressions, it does not guarantee target quality"): a metric may
carry a production *target* beside its CI *gate*. The gate decides the exit code; the target is only
shown (met or not) and recorded. Write it in the threshold's table, or in a ``targets`` table that
adds targets to gates defined here or inherited::

    [profiles.ci.thresholds]
    faithfulness = { gate = ">= 0.75", target = ">= 0.85" }   # or {op = ">=", value = 0.75, target = 0.85}
    [profiles.ci.targets]
    "mrr@K" = ">= 0.75"

A target points the same way as its gate and is at least as strict (``>= 0.85`` over a gate ``>= 0.75``);
a target on a metric without a gate is refused. Targets and gates are inherited separately, so a child
that lowers a gate keeps its parent's target.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any, Iterable, Mapping

from ..errors import ConfigError, UnknownMetricError
from .compare import OPERATORS

OPS = OPERATORS  # one list of comparisons: gates/compare.py
MODES = ("point", "confident", "non_inferior", "non_inferior_strict")
#: Fewer scored samples than this make every gate carry a warning (the seeds' "fewer than 30 questions are
#: not reliable"); a profile's ``min_samples`` changes it, ``small_sample = "fail"`` makes it a failure.
MIN_SAMPLES = 30
SMALL_SAMPLE_POLICIES = ("warn", "fail")

@dataclass(frozen=True, slots=True)
class Threshold:
    """``metrics[0] OP value`` (the first of ``metrics`` evaluated in the run is the one gated)."""

    metrics: tuple[str, ...]
    op: str
    value: float
    mode: str = "point"
    #: non_inferior only: the largest tolerated loss against the baseline, in the metric's units
    margin: float | None = None
    #: the production target (shown and recorded, never gating): ``target_op target``
    target: float | None = None
    target_op: str | None = None

    @property
    def label(self) -> str:
        return "|".join(self.metrics)

    def describe(self) -> str:
        return f"{self.op} {self.value:g}"

    def describe_target(self) -> str | None:
        return None if self.target is None else f"{self.target_op} {self.target:g}"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"metrics": list(self.metrics), "op": self.op, "value": self.value, "mode": self.mode}
        if self.margin is not None:
            out["margin"] = self.margin
        if self.target is not None:
            out["target"] = {"op": self.target_op, "value": self.target}
        return out


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    description: str
    k: int | None
    thresholds: tuple[Threshold, ...]
    #: default margin of this profile's non_inferior thresholds (``None``: the CLI's, else 0.02)
    margin: float | None = None
    #: gates on fewer scored samples carry a warning (``small_sample = "fail"``: they fail)
    min_samples: int = MIN_SAMPLES
    small_sample: str = "warn"
    #: the description in Russian, for Russian reports ("" when the profile has none)
    description_ru: str = ""

    def to_dict(self) -> dict[str, Any]:
        out = {"name": self.name, "description": self.description, "k": self.k,
               "thresholds": [t.to_dict() for t in self.thresholds],
               "min_samples": self.min_samples, "small_sample": self.small_sample}
        if self.margin is not None:
            out["margin"] = self.margin
        if self.description_ru:
            out["description_ru"] = self.description_ru
        return out


_THRESHOLD_RE = re.compile(r"^\s*(>=|<=|>|<)\s*([-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s*$")


def builtin_profiles() -> dict[str, dict[str, Any]]:
    text = resources.files(__package__).joinpath("profiles.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _op_value(text: Any, *, key: str, where: str, what: str = "threshold") -> tuple[str, float]:
    m = _THRESHOLD_RE.match(text) if isinstance(text, str) else None
    if not m:
        raise ConfigError(f"{where}: cannot read {what} {text!r} for {key!r}; write e.g. \">= 0.85\" or \"< 3000\"")
    return m[1], float(m[2])


def parse_target(key: str, raw: Any, *, op: str | None, where: str) -> tuple[str, float]:
    """A target: ``">= 0.85"``, or a bare number that takes the gate's operator ``op``."""
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        if op is None:
            raise ConfigError(f"{where}: target for {key!r} is a bare number; write it with its operator, e.g. \">= {raw}\"")
        return op, float(raw)
    return _op_value(raw, key=key, where=where, what="target")


def parse_threshold(key: str, raw: Any, *, where: str, default_mode: str = "point") -> Threshold:
    """Parse one ``name = ">= 0.85"`` entry, or a table ``{op, value, mode, margin, target}`` (``gate = ">= 0.75"``
    may stand for ``op`` and ``value``)."""
    metrics = tuple(m.strip().lower() for m in key.split("|") if m.strip())
    if not metrics:
        raise ConfigError(f"{where}: empty metric name in a threshold")
    mode = default_mode
    margin = None
    target: tuple[str, float] | None = None
    if isinstance(raw, Mapping):
        unknown = set(raw) - {"op", "value", "mode", "margin", "gate", "target"}
        if unknown:
            raise ConfigError(f"{where}: threshold for {key!r} has unknown keys {sorted(unknown)}; "
                              "use op, value (or gate), mode, margin, target")
        if "gate" in raw and ("op" in raw or "value" in raw):
            raise ConfigError(f"{where}: threshold for {key!r} gives both gate and op/value; keep one of them")
        if "gate" in raw:
            text = raw["gate"]
        elif "value" not in raw:
            raise ConfigError(f"{where}: threshold for {key!r} has no gate; write gate = \">= 0.75\" (or op and value) "
                              "beside the target: the gate decides the exit code, the target is only shown")
        else:
            text = f"{raw.get('op', '>=')} {raw.get('value')}"
        mode = raw.get("mode", default_mode)
        if "margin" in raw:
            margin = check_margin(raw["margin"], where=f"{where}: threshold for {key!r}")
    elif isinstance(raw, str):
        text = raw
    else:
        raise ConfigError(
            f"{where}: threshold for {key!r} must be a string like \">= 0.85\" or a table "
            f"{{op = \">=\", value = 0.85, mode = \"confident\"}}, got {raw!r}"
        )
    op, value = _op_value(text, key=key, where=where)
    if mode not in MODES:
        raise ConfigError(f"{where}: unknown gate mode {mode!r} for {key!r}; use one of {', '.join(MODES)}")
    if isinstance(raw, Mapping) and "target" in raw:
        target = parse_target(key, raw["target"], op=op, where=where)
    th = Threshold(metrics, op, value, mode, margin)
    return with_target(th, target, where=where) if target else th


def with_target(th: Threshold, target: tuple[str, float], *, where: str) -> Threshold:
    """``th`` with its production target, after checking that the target points the same way and is at
    least as strict as the gate (module doc)."""
    op, value = target
    up = th.op in (">=", ">")
    if (op in (">=", ">")) != up:
        raise ConfigError(f"{where}: the target {op} {value:g} for {th.label!r} points the other way from its gate "
                          f"{th.describe()}; write the target with {'>= or >' if up else '<= or <'}")
    if (value < th.value) if up else (value > th.value):
        raise ConfigError(f"{where}: the target {op} {value:g} for {th.label!r} is looser than its gate {th.describe()}; "
                          "the target is the production goal and the gate the (lower) CI bar below it: swap them")
    return Threshold(th.metrics, th.op, th.value, th.mode, th.margin, value, op)


def check_margin(raw: Any, *, where: str) -> float:
    """A non-inferiority margin: a finite number >= 0 (in the metric's units)."""
    if isinstance(raw, bool) or not isinstance(raw, (int, float)) or not raw >= 0 or raw == float("inf"):
        raise ConfigError(f"{where}: margin must be a number >= 0 in the metric's units (e.g. 0.02), got {raw!r}")
    return float(raw)


def _check_names(th: Threshold, *, where: str) -> None:
    from ..metrics.registry import parse_metric

    for name in th.metrics:
        if "@k" in name:
            continue
        try:
            parse_metric(name)
        except UnknownMetricError as exc:
            raise ConfigError(f"{where}: {exc}") from None


def unknown_profile_message(name: str, available: Iterable[str]) -> str:
    """``unknown profile 'dashbord'; did you mean 'dashboard'? available: ...`` (close matches by difflib).

    >>> unknown_profile_message("dashbord", ["dashboard", "strict"]).split(" (")[0]
    "unknown profile 'dashbord'; did you mean 'dashboard'? available: dashboard, strict"
    >>> unknown_profile_message("xyz", ["dashboard"]).split(";")[1][:21]
    ' available: dashboard'
    """
    import difflib

    names = sorted(available)
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    if not close:  # "Dashboard", "STRICT": a case slip is a close match too
        close = [n for n in names if n.lower() == str(name).lower()]
    # the question ends its clause: "...? available: ...", never "...?; available: ..."
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}? available" if close else "; available"
    return (f"unknown profile {name!r}{hint}: {', '.join(names)} (`ragauge profiles` lists them), or "
            f"'none' (profile=None in Python) for no gates. Define your own under [profiles.{name}] in ragauge.toml or "
            f"[tool.ragauge.profiles.{name}] in pyproject.toml")


def resolve_profile(
    name: str,
    *,
    user_profiles: Mapping[str, Mapping[str, Any]] | None = None,
    k: int | None = None,
    source: str = "ragauge.toml",
) -> Profile:
    """Build a profile by name from the built-ins and the user's profiles (user wins on a clash)."""
    table: dict[str, Mapping[str, Any]] = dict(builtin_profiles())
    origin = {n: "built-in profiles" for n in table}
    for n, p in (user_profiles or {}).items():
        table[n] = p
        origin[n] = source
    if name not in table:
        raise ConfigError(unknown_profile_message(name, table))
    chain: list[str] = []
    cur: str | None = name
    while cur is not None:
        if cur in chain:
            raise ConfigError(f"profile {name!r}: 'extends' forms a cycle: {' -> '.join(chain + [cur])}")
        if cur not in table:
            raise ConfigError(f"profile {chain[-1]!r} extends unknown profile {cur!r}")
        chain.append(cur)
        cur = table[cur].get("extends")
    merged: dict[str, Threshold] = {}
    targets: dict[str, tuple[str, float, str]] = {}  # first metric name -> (op, value, where it was set)
    description, description_ru, prof_k, prof_margin = "", "", None, None
    min_samples, small_sample = MIN_SAMPLES, "warn"
    for pname in reversed(chain):
        spec = table[pname]
        where = f"{origin[pname]}, profile {pname!r}"
        unknown = set(spec) - {"description", "description_ru", "extends", "k", "thresholds", "targets", "mode",
                               "margin", "min_samples", "small_sample"}
        if unknown:
            raise ConfigError(f"{where}: unknown keys {sorted(unknown)}; allowed: description, description_ru, extends, k, "
                              "margin, min_samples, mode, small_sample, targets, thresholds")
        if "margin" in spec:
            prof_margin = check_margin(spec["margin"], where=where)
        if "min_samples" in spec:
            raw_min = spec["min_samples"]
            if isinstance(raw_min, bool) or not isinstance(raw_min, int) or raw_min < 0:
                raise ConfigError(f"{where}: min_samples must be an integer >= 0 (0 turns the small-sample "
                                  f"warning off), got {raw_min!r}")
            min_samples = raw_min
        if "small_sample" in spec:
            if spec["small_sample"] not in SMALL_SAMPLE_POLICIES:
                raise ConfigError(f"{where}: small_sample must be \"warn\" or \"fail\", got {spec['small_sample']!r}")
            small_sample = spec["small_sample"]
        default_mode = spec.get("mode", "point")
        for key, raw in (spec.get("thresholds") or {}).items():
            th = parse_threshold(key, raw, where=where, default_mode=default_mode)
            _check_names(th, where=where)
            merged[th.metrics[0]] = th
            if th.target is not None:
                targets[th.metrics[0]] = (th.target_op, th.target, where)  # type: ignore[assignment]
        raw_targets = spec.get("targets") or {}
        if not isinstance(raw_targets, Mapping):
            raise ConfigError(f"{where}: targets must be a table {{metric = \">= 0.85\"}}, got {raw_targets!r}")
        for key, raw in raw_targets.items():
            first = key.split("|")[0].strip().lower()
            gate = merged.get(first)
            op, value = parse_target(key, raw, op=gate.op if gate else None, where=where)
            targets[first] = (op, value, where)
        if "description" in spec or "description_ru" in spec:  # a new English text drops the parent's Russian one
            description_ru = spec.get("description_ru", "")
            if not isinstance(description_ru, str):
                raise ConfigError(f"{where}: description_ru must be a string, got {description_ru!r}")
        description = spec.get("description", description)
        prof_k = spec.get("k", prof_k)
    kk = k if k is not None else prof_k
    if any("@k" in m for th in merged.values() for m in th.metrics) and kk is None:
        raise ConfigError(f"profile {name!r} uses @K but sets no k; add k = 5 to the profile or pass --k")
    for first, (op, value, where) in targets.items():
        if first not in merged:
            raise ConfigError(f"{where}: a target for {first!r}, which has no gate in this profile; add a gate "
                              f"(the CI bar, e.g. {first} = {{ gate = \"{op} {value:g}\", target = \"{op} {value:g}\" }}) "
                              "or remove the target")
        merged[first] = with_target(merged[first], (op, value), where=where)
    resolved = []
    for th in merged.values():
        metrics = tuple(m.replace("@k", f"@{kk}") for m in th.metrics)
        resolved.append(Threshold(metrics, th.op, th.value, th.mode, th.margin, th.target, th.target_op))
    return Profile(name, description, kk, tuple(resolved), prof_margin, min_samples, small_sample, description_ru)
