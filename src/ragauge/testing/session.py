"""One pytest session's evaluations: cached by their arguments, written and summarised at the end.

Used by :mod:`ragauge.pytest_plugin`; holds no gate logic (gates come from ``evaluate`` and
:mod:`ragauge.testing.assertions`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

from .assertions import CONTEXT_ATTR

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.results import Results

#: Arguments of the marker / the ``ragauge_eval`` factory that go to ``evaluate``.
EVALUATE_ARGS = ("metrics", "profile", "judge", "k", "seed", "n_resamples", "baseline", "margin",
                 "allow_intersection", "min_slice_n", "lang", "field_map")
PIPELINE_ARGS = ("pipeline", "retrieve", "generate")


def _freeze(x: Any) -> Any:
    if x is None or isinstance(x, (str, int, float, bool)):
        return x
    if isinstance(x, Path):
        return str(x.resolve())
    if isinstance(x, (list, tuple)):
        return tuple(_freeze(v) for v in x)
    if isinstance(x, Mapping):
        return tuple(sorted((str(k), _freeze(v)) for k, v in x.items()))
    return ("object", id(x))  # callables, judges, DataFrames: by identity (kept alive by the cache)


@dataclass
class Evaluation:
    label: str
    results: "Results"
    recorded: bool  #: samples came from a pipeline run (their answers/timings are worth saving)


@dataclass
class Session:
    rootdir: Path
    profile: str | None = None  #: --ragauge-profile
    baseline: str | None = None  #: --ragauge-baseline
    judge: Any = None  #: --ragauge-judge (built lazily)
    out: Path | None = None  #: --ragauge-out
    cache: dict[Any, tuple[Evaluation, Any]] = field(default_factory=dict)
    evaluations: list[Evaluation] = field(default_factory=list)
    failures: list[tuple[str, str]] = field(default_factory=list)  #: (test id, first line) of gate failures
    written: dict[str, Path] = field(default_factory=dict)
    _config: Any = None

    @property
    def n_evaluations(self) -> int:
        return len(self.evaluations)

    def config(self):
        if self._config is None:
            from ..config import load_config

            self._config = load_config(start=self.rootdir)
        return self._config

    def _data(self, data: Any, base_dir: Path | None) -> tuple[Any, Any, str]:
        """(what evaluate takes, its cache key, a label)."""
        from .golden_set import GoldenSample, GoldenSet

        if isinstance(data, GoldenSample):
            data = data.golden_set
        if isinstance(data, GoldenSet):
            return list(data.samples), ("golden", data.source, data.field_map), data.source
        if isinstance(data, (str, Path)):
            p = Path(data)
            if not p.is_absolute():
                for folder in (base_dir, self.rootdir):
                    if folder is not None and (folder / p).exists():
                        p = folder / p
                        break
            p = p.resolve()
            return str(p), ("path", str(p)), str(p)
        if isinstance(data, (list, tuple)) and data and all(isinstance(s, GoldenSample) for s in data):
            gs = data[0].golden_set
            return list(gs.samples), ("golden", gs.source, gs.field_map), gs.source
        return data, _freeze(data), type(data).__name__

    def evaluate(self, data: Any, *, base_dir: Path | None = None, **kwargs: Any) -> "Results":
        """Evaluate once per distinct arguments in this session; later calls get the cached ``Results``."""
        unknown = set(kwargs) - set(EVALUATE_ARGS) - set(PIPELINE_ARGS)
        if unknown:
            from ..errors import ConfigError

            raise ConfigError(f"unknown ragauge marker/fixture argument(s): {', '.join(sorted(unknown))}; "
                              f"use data, {', '.join(EVALUATE_ARGS + PIPELINE_ARGS)}")
        if data is None:
            from ..errors import ConfigError

            raise ConfigError("no data to evaluate: use @pytest.mark.ragauge(data='golden.jsonl', ...) "
                              "or ragauge_eval('golden.jsonl', ...)")
        cfg = self.config()
        if self.profile is not None:
            kwargs["profile"] = self.profile
        kwargs.setdefault("profile", cfg.profile or "dashboard")
        if kwargs["profile"] == "none":
            kwargs["profile"] = None
        if kwargs.get("baseline") is None and self.baseline is not None:
            kwargs["baseline"] = self.baseline
        if kwargs.get("judge") is None and self.judge is not None:
            kwargs["judge"] = self.judge
        if kwargs.get("metrics") is None and cfg.metrics:
            kwargs["metrics"] = list(cfg.metrics)
        kwargs.setdefault("k", cfg.k)
        kwargs.setdefault("seed", cfg.seed)
        kwargs.setdefault("n_resamples", cfg.n_resamples)
        if isinstance(kwargs.get("baseline"), (str, Path)):
            b = Path(kwargs["baseline"])
            if not b.is_absolute() and base_dir is not None and (base_dir / b).exists():
                b = base_dir / b
            kwargs["baseline"] = str(b.resolve())
        payload, key_data, label = self._data(data, base_dir)
        key = (key_data, tuple(sorted((k, _freeze(v)) for k, v in kwargs.items())))
        hit = self.cache.get(key)
        if hit is not None:
            return hit[0].results
        pipe = {k: kwargs.pop(k) for k in PIPELINE_ARGS if kwargs.get(k) is not None}
        for k in PIPELINE_ARGS:
            kwargs.pop(k, None)
        kwargs.setdefault("user_profiles", cfg.profiles)
        if pipe:
            from .pipeline import run_pipeline

            results = run_pipeline(payload, **pipe, **kwargs)
        else:
            results = import_module("ragauge.engine.evaluate").evaluate(payload, **kwargs)
            if results.source is None:
                results.source = label
        setattr(results, CONTEXT_ATTR, {"baseline": kwargs.get("baseline"), "margin": kwargs.get("margin"),
                                        "allow_intersection": kwargs.get("allow_intersection", False),
                                        "user_profiles": cfg.profiles})
        ev = Evaluation(label, results, bool(pipe))
        self.evaluations.append(ev)
        self.cache[key] = (ev, (data, kwargs, pipe))  # keeps objects keyed by id() alive
        return results

    # --- outputs ------------------------------------------------------------------------------

    def write(self) -> dict[str, Path]:
        """Write every evaluation's results.json, report.md, report.html (and samples.jsonl for pipeline
        runs) under ``out`` (sub-folders when there are several), and ``out/summary.md``."""
        if self.out is None or not self.evaluations:
            return {}
        self.out.mkdir(parents=True, exist_ok=True)
        several = len(self.evaluations) > 1
        for n, ev in enumerate(self.evaluations, 1):
            folder = self.out / _slug(n, ev.label) if several else self.out
            for fmt, path in ev.results.save(folder).items():
                self.written[f"{n}:{fmt}"] = path
            if ev.recorded:
                from ..data.writers import write_jsonl

                write_jsonl(ev.results.samples, folder / "samples.jsonl")
                self.written[f"{n}:samples"] = folder / "samples.jsonl"
        path = self.out / "summary.md"
        path.write_text(self.markdown(), encoding="utf-8")
        self.written["summary"] = path
        return self.written

    def markdown(self) -> str:
        from ..report.markdown import render_markdown

        parts = [render_markdown(ev.results.to_dict()) for ev in self.evaluations]
        if self.failures:
            parts.append("### Failed quality assertions\n\n"
                         + "\n".join(f"- `{nodeid}`: {line}" for nodeid, line in self.failures) + "\n")
        return "\n".join(parts)

    def terminal_lines(self) -> list[str]:
        from ..report.table import render_table

        lines: list[str] = []
        for ev in self.evaluations:
            lines += render_table(ev.results.to_dict()).splitlines() + [""]
        n = self.n_evaluations
        samples = sum(len(ev.results.samples) for ev in self.evaluations)
        lines.append(f"ragauge: {n} evaluation{'s' if n != 1 else ''} ({samples} samples) in this session")
        for nodeid, line in self.failures:
            lines.append(f"ragauge: FAILED {nodeid}: {line}")
        if "summary" in self.written:
            lines.append(f"ragauge: reports in {self.out} (PR summary: {self.written['summary']})")
        return lines


def _slug(n: int, label: str) -> str:
    stem = Path(label).stem if label else "run"
    return f"{n}-" + (re.sub(r"[^A-Za-z0-9_.-]+", "-", stem).strip("-") or "run")


Factory = Callable[..., Any]
