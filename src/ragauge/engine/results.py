"""The outcome of one evaluation, and its versioned JSON form (``docs/results-schema.md``)."""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from .._version import __version__
from ..data.schema import Sample
from ..gates.check import GateResult, overall_passed
from ..gates.profiles import Profile
from ..metrics.column import ScoreColumn
from ..metrics.spec import MetricSpec
from ..results_schema import SCHEMA, check_schema
from .summary import CIConfig, MetricSummary


def read_results(source: "str | Path | Mapping[str, Any]") -> tuple[dict[str, Any], str]:
    """Read a results document written by ``ragauge eval``: a results.json path, its folder, or a dict.

    Returns ``(document, name)``; the one reader behind ``--baseline``, ``compare``, ``plan`` and
    ``calibrate``. Refuses, with file and fix, what cannot be read and a schema major version it does
    not know.
    """
    from ..errors import InputError

    hint = "pass the results.json written by `ragauge eval` (or its folder)"
    if isinstance(source, Mapping):
        doc, name = dict(source), "results"
    else:
        path = Path(source)
        if path.is_dir():
            path = path / "results.json"
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise InputError("file not found", file=str(path), hint=hint) from None
        except UnicodeDecodeError:
            raise InputError("not UTF-8 text", file=str(path), hint=hint) from None
        except OSError as exc:
            raise InputError(f"cannot read it: {exc.strerror}", file=str(path), hint=hint) from None
        doc = _parse_results(text, str(path), hint)
        name = str(path)
    if not isinstance(doc, dict):
        raise InputError("not a results document (expected a JSON object)", file=name, hint=hint)
    check_schema(doc, source=name, required=False)
    return doc, name

def _parse_results(text: str, file: str, hint: str) -> Any:
    """The strict parser of ``data/_json.py``: a duplicate key, 100k nested ``[`` or a 5000-digit number is
    an ``InputError`` naming the file (exit 2), never a crash or a silently kept last value."""
    from ..data._json import DuplicateKeyError, duplicate_key_field, json_problem, parse_json
    from ..errors import InputError

    try:
        return parse_json(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"invalid JSON: {exc.msg} (column {exc.colno})", file=file, line=exc.lineno,
                         hint=hint) from None
    except (ValueError, RecursionError) as exc:
        message, fix = json_problem(exc)
        field = (duplicate_key_field(text) or exc.key) if isinstance(exc, DuplicateKeyError) else None
        raise InputError(message, file=file, field=field, hint=f"{fix}; {hint}") from None


#: How summary CIs are computed (each entry's ``ci.method`` says which one it got).
CI_METHODS = {"pass_rate": "wilson", "mean": "bootstrap-bca (percentile when BCa is undefined)",
              "percentile": "bootstrap-percentile"}


@dataclass
class Results:
    samples: Sequence[Sample]
    specs: list[MetricSpec]
    columns: dict[str, ScoreColumn]
    summary: dict[str, MetricSummary]
    gates: list[GateResult]
    profile: Profile | None
    slices: dict[str, dict[str, Any]]
    ci: CIConfig
    source: str | None = None
    #: paired comparison with a baseline run (``engine.baseline.comparison_block``), when one was given
    comparison: dict[str, Any] | None = None
    #: hidden-breakage alarms (``engine.slice_alarms``) and the policy that produced them
    alarms: list[dict[str, Any]] = field(default_factory=list)
    slice_policy: dict[str, Any] | None = None
    #: language of the diagnosis: "ru", "en" or None (the samples' majority language)
    lang: str | None = None
    #: what a paying judge spent: calls, cache hits, tokens, cost per run and per metric (``None``: offline judge)
    usage: dict[str, Any] | None = None
    #: which system was evaluated: {"name": ..., "version": ...} (``None``: not said)
    app: dict[str, str | None] | None = None
    #: generated golden cases never reviewed by an expert (``engine.golden_review``), ``None``: none generated
    golden_review: dict[str, Any] | None = None
    created_at: str = field(default_factory=lambda: _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"))
    #: a ``--shards`` run (``scale.shards_run``): where its per-sample rows are (``source.shards`` of
    #: results.json: path, format, files, n_samples); ``samples`` is then empty and ``columns`` compact
    shards: dict[str, Any] | None = None

    @property
    def passed(self) -> bool:
        return overall_passed(self.gates)

    @property
    def failed_gates(self) -> list[GateResult]:
        return [g for g in self.gates if g.status in ("fail", "unscored")]

    def value(self, metric: str) -> float | None:
        return self.summary[metric].value

    def to_dict(self) -> dict[str, Any]:
        samples = []
        for i, s in enumerate(self.samples):
            scores: dict[str, float | None] = {}
            unscored: dict[str, str] = {}
            artifacts: dict[str, Any] = {}
            for name, col in self.columns.items():
                scores[name] = col.values[i]
                if col.reasons[i] is not None:
                    unscored[name] = col.reasons[i]  # type: ignore[assignment]
                if col.artifacts[i]:
                    artifacts[name] = col.artifacts[i]
            samples.append({
                "id": s.id, "tags": list(s.tags), "question": s.question, "answer": s.answer,
                "reference": s.reference, "language": s.language, "scores": scores, "unscored": unscored,
                "artifacts": artifacts,
            })
        doc = {
            "schema": SCHEMA,
            "ragauge_version": __version__,
            "created_at": self.created_at,
            "source": self._source(),
            "app": dict(self.app) if self.app else None,
            "golden_review": self.golden_review,
            "seed": self.ci.seed,
            "ci": {"level": self.ci.level, "method": "per metric", "n_resamples": self.ci.n_resamples,
                   "methods": dict(CI_METHODS)},
            "profile": self.profile.to_dict() if self.profile else None,
            "metrics": [s.to_dict() for s in self.specs],
            "summary": {name: s.to_dict() for name, s in self.summary.items()},
            "gates": [g.to_dict() for g in self.gates],
            "passed": self.passed,
            "comparison": self.comparison,
            "alarms": list(self.alarms),
            "slice_checks": self.slice_policy,
            "lang": None,
            "diagnosis": [],
            "usage": self.usage,
            "slices": {
                tag: {"n_samples": sl["n_samples"], "summary": {m: s.to_dict() for m, s in sl["summary"].items()},
                      "checks": dict(sl.get("checks") or {})}
                for tag, sl in self.slices.items()
            },
            "samples": samples,
        }
        if self.shards is not None:  # the rows are in the shards: results.json says so next to its empty list
            from ..scale.shard_read import SAMPLES_IN_SHARDS

            doc["samples_in"] = SAMPLES_IN_SHARDS
        from ..diagnosis import diagnose
        from ..diagnosis._read import language

        # One language for the whole report (its headings and the diagnosis): the one asked for, else the
        # samples' majority language.
        doc["lang"] = self.lang or language(doc)
        doc["diagnosis"] = [d.to_dict() for d in diagnose(doc, lang=doc["lang"])]
        return doc

    def _source(self) -> dict[str, Any]:
        if self.shards is None:
            return {"path": self.source, "n_samples": len(self.samples)}
        return {"path": self.source, "n_samples": self.shards["n_samples"], "shards": dict(self.shards)}

    def to_json(self, *, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent, allow_nan=False)

    def save(self, out_dir: str | Path, *, formats: Sequence[str] = ("json", "html", "markdown")) -> dict[str, Path]:
        """Write ``results.json`` (always), ``report.html`` and ``report.md`` into ``out_dir``."""
        from ..report import write_reports

        return write_reports(self, Path(out_dir), formats=formats)

    def to_pandas(self):
        """One row per sample, one column per metric (``None`` for unscored), like Ragas' ``to_pandas``.
        A ``--shards`` run reads them from its shards (``id``, ``tags``, the metrics; the texts stay in the input)."""
        try:
            import pandas as pd
        except ImportError:
            from ..errors import MissingDependencyError

            raise MissingDependencyError("pandas", feature="Results.to_pandas()", extra="tables") from None
        if self.shards is not None:  # id, tags and one column per metric, read from the shards
            return self._shard_table().to_pandas()
        rows = []
        for i, s in enumerate(self.samples):
            row: dict[str, Any] = {"id": s.id, "question": s.question, "tags": list(s.tags)}
            for name, col in self.columns.items():
                row[name] = col.values[i]
            rows.append(row)
        return pd.DataFrame(rows)

    def _shard_table(self) -> Any:
        import pyarrow as pa
        import pyarrow.parquet as pq

        from ..scale.shard_read import shard_files

        doc = {"source": self._source(), "samples_in": "shards"}
        files = shard_files(doc, source="results")
        names = ["id", "tags", *self.columns]
        return pa.concat_tables([pq.read_table(f, columns=names) for f in files])

    def summary_table(self) -> str:
        from ..report.table import render_table

        return render_table(self.to_dict())
