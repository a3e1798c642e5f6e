"""``ragauge serve``: the self-hosted collector that stores and scores traces from :mod:`ragauge.trace`
(``/api/traces``) and OpenInference spans over OTLP/HTTP (``/v1/traces``), with user feedback, alerts and
the dashboard. Reference: docs/monitoring.md.

Needs the serve extra: ``pip install 'ragauge[serve]'`` (FastAPI, uvicorn, SQLAlchemy 2, Alembic).

    from ragauge.serve import create_app
    app = create_app(db="sqlite:///ragauge.db", token="...")
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app", "Scorer", "trace_record", "DEFAULT_METRICS"]


def __getattr__(name: str) -> Any:  # heavy imports (FastAPI, SQLAlchemy) only when used
    if name == "create_app":
        from .app import create_app

        return create_app
    if name in ("Scorer", "trace_record", "DEFAULT_METRICS"):
        from . import scoring

        return getattr(scoring, name)
    raise AttributeError(f"module 'ragauge.serve' has no attribute {name!r}")
