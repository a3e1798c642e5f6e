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

from ..engine.config import EvalConfig
from .assertions import CONTEXT_ATTR

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.results import Results

#: Arguments of the marker / the ``ragauge_eval`` factory that go to ``evaluate``.
EVALUATE_ARGS = ("metrics", "profile", "judge", "k", "seed", "n_resamples", "baseline", "margin",
                 "allow_intersection", "min_slice_n", "lang", "field_map", "app_name", "app_version")
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
        if kwargs.get("baseline") is None and self.baseline is not None:
            kwargs["baseline"] = self.baseline
        if kwargs.get("judge") is None and self.judge is not None:
            kwargs["judge"] = self.judge
        pipe_args = {k: kwargs.pop(k) for k in PIPELINE_ARGS if k in kwargs}
        # the project file, then what the marker / fixture / command line gave: one EvalConfig, as `ragauge eval`
        settings = EvalConfig.from_project(cfg, **{k: v for k, v in kwargs.items() if k in EVALUATE_ARGS})
        kwargs = {name: getattr(settings, name) for name in EvalConfig.names()} | pipe_args
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
        runs) under ``out`` (sub-folders when there are several), and ``out/summary.md``.

        Everything is rendered first and then replaced together (:func:`ragauge.files.write_files_atomically`):
        a full disk or an unencodable text leaves the previous session's files whole and raises
        :class:`~ragauge.errors.OutputError` naming the file."""
        if self.out is None or not self.evaluations:
            return {}
        from ..files import write_files_atomically
        from ..report import render_reports

        files: dict[Path, str] = {}
        written: dict[str, Path] = {}
        several = len(self.evaluations) > 1
        for n, ev in enumerate(self.evaluations, 1):
            folder = self.out / _slug(n, ev.label) if several else self.out
            for fmt, (path, text) in render_reports(ev.results, folder).items():
                files[path] = text
                written[f"{n}:{fmt}"] = path
            if ev.recorded:
                path = folder / "samples.jsonl"
                files[path] = _jsonl(ev.results.samples, path)
                written[f"{n}:samples"] = path
        path = self.out / "summary.md"
        files[path] = self.markdown()
        written["summary"] = path
        write_files_atomically(files)
        self.written.update(written)
        return self.written

    def markdown(self) -> str:
        from ..report.escape import md_cell, md_code
        from ..report.markdown import render_markdown
        from ..report.messages import msg, report_lang

        docs = [ev.results.to_dict() for ev in self.evaluations]
        parts = [render_markdown(doc) for doc in docs]
        if self.failures:
            lang = report_lang(docs[0]) if docs else "en"
            parts.append(f"### {msg(lang, 'failed_assertions')}\n\n"
                         + "\n".join(f"- {md_code(nodeid)}: {md_cell(line)}" for nodeid, line in self.failures) + "\n")
        return "\n".join(parts)

    def terminal_lines(self) -> list[str]:
        from ..report.escape import terminal_text
        from ..report.messages import plural
        from ..report.table import render_table

        lines: list[str] = []
        for ev in self.evaluations:
            lines += render_table(ev.results.to_dict()).splitlines() + [""]
        n = self.n_evaluations
        samples = sum(len(ev.results.samples) for ev in self.evaluations)
        lines.append(f"ragauge: {plural('en', n, 'evaluations')} ({plural('en', samples, 'samples')}) in this session")
        for nodeid, line in self.failures:
            lines.append(f"ragauge: FAILED {terminal_text(nodeid)}: {terminal_text(line)}")
        if "summary" in self.written:
            lines.append(f"ragauge: reports in {terminal_text(self.out)} "
                         f"(PR summary: {terminal_text(self.written['summary'])})")
        return lines


def _jsonl(samples: Any, path: Path) -> str:
    """samples.jsonl as text (what :func:`ragauge.data.writers.write_jsonl` writes), to be written with the rest."""
    import json

    from ..data.writers import sample_to_dict
    from ..errors import InputError

    lines = []
    for sample in samples:
        try:
            lines.append(json.dumps(sample_to_dict(sample), ensure_ascii=False, allow_nan=False) + "\n")
        except (TypeError, ValueError) as exc:
            raise InputError(f"sample {sample.id!r} cannot be written as JSON: {exc}", file=str(path), field="metadata",
                             hint="Metadata values must be JSON: strings, finite numbers, booleans, lists, objects") from exc
    return "".join(lines)


def _slug(n: int, label: str) -> str:
    stem = Path(label).stem if label else "run"
    return f"{n}-" + (re.sub(r"[^A-Za-z0-9_.-]+", "-", stem).strip("-") or "run")


Factory = Callable[..., Any]
