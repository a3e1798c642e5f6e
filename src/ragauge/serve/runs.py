"""Uploaded ``ragauge eval`` runs: store a results.json's per-sample scores, list them, compare two.

The comparison is ``ragauge compare``'s own: :func:`ragauge.stats.runs.run_scores` reads the document and
:func:`ragauge.stats.runs.compare_runs` pairs every common metric by sample id, Holm-corrected. Only what
that needs is kept (the schema, the metric specs, each sample's id and scores, the app), not the artifacts.
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Any, Mapping

import sqlalchemy as sa

from ..errors import InputError
from .db import runs
from .text import no_nul

MAX_NAME = 200


def parse_run(body: bytes, *, name: str | None = None) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A results.json body -> ``(name, reduced document, summary)``; a bad document is an InputError that
    names the field, as ``ragauge compare`` says it."""
    from ..stats.runs import run_scores

    try:
        doc = json.loads(body, parse_constant=_no_constant)
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"the upload is not JSON ({exc})", file="results.json",
                         hint="send the results.json that `ragauge eval --out DIR` wrote") from None
    doc = no_nul(doc)  # NUL -> U+FFFD: PostgreSQL cannot store it
    if not isinstance(doc, Mapping):
        raise InputError("the upload is not a results document (a JSON object)", file="results.json",
                         hint="send the results.json that `ragauge eval --out DIR` wrote")
    scores = run_scores(doc, source="results.json")  # checks the schema, ids and every score
    reduced = {"schema": doc["schema"], "metrics": [scores.specs[m] for m in scores.specs],
               "samples": [{"id": i, "scores": {m: scores.scores[m].get(i) for m in scores.specs}} for i in scores.ids]}
    if isinstance(doc.get("app"), Mapping):
        reduced["app"] = {k: doc["app"][k] for k in ("name", "version") if k in doc["app"]}
    summary = {}
    for m in scores.specs:
        vals = [v for v in scores.scores[m].values() if v is not None]
        summary[m] = {"mean": sum(vals) / len(vals) if vals else None, "n": len(vals)}
    label = no_nul((name or "").strip()) or scores.app or "run"
    if len(label) > MAX_NAME:
        raise InputError(f"the run name is over {MAX_NAME} characters", field="name")
    return label, reduced, summary


def _no_constant(text: str) -> Any:
    raise ValueError(f"{text} is not a JSON number")


def add_run(engine: sa.Engine, body: bytes, *, name: str | None = None) -> dict[str, Any]:
    label, reduced, summary = parse_run(body, name=name)
    run_id = uuid.uuid4().hex
    row = {"id": run_id, "name": label, "app": _app(reduced), "uploaded_at": time.time(),
           "n_samples": len(reduced["samples"]), "summary": summary, "scores": reduced}
    with engine.begin() as conn:
        conn.execute(runs.insert().values(**row))
    return {k: row[k] for k in ("id", "name", "app", "uploaded_at", "n_samples", "summary")}


def _app(doc: Mapping[str, Any]) -> str | None:
    from ..stats.runs import app_label

    return app_label(doc)


def list_runs(engine: sa.Engine, *, limit: int = 200) -> list[dict[str, Any]]:
    """The newest ``limit`` runs (without their scores)."""
    c = runs.c
    q = sa.select(c.id, c.name, c.app, c.uploaded_at, c.n_samples, c.summary).order_by(c.uploaded_at.desc()).limit(limit)
    with engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(q)]


def compare(engine: sa.Engine, base_id: str, new_id: str, *, intersect: bool = False, seed: int = 0) -> Any:
    """``ragauge compare BASE NEW`` on two uploaded runs: a :class:`ragauge.stats.runs.ComparisonResult`.
    Samples must be the same set unless ``intersect`` (then the common ids are compared)."""
    from ..stats.runs import compare_runs, run_scores

    with engine.connect() as conn:
        found = {r.id: r for r in conn.execute(sa.select(runs.c.id, runs.c.name, runs.c.scores)
                                               .where(runs.c.id.in_([base_id, new_id])))}
    for rid in (base_id, new_id):
        if rid not in found:
            raise LookupError(f"no uploaded run with id {rid!r}")
    base = run_scores(found[base_id].scores, source=found[base_id].name)
    new = run_scores(found[new_id].scores, source=found[new_id].name)
    return compare_runs(base, new, allow_intersection=intersect, seed=seed)
