"""``ragauge serve``: the collector (FastAPI + uvicorn) that stores and scores traces from ragauge.trace.

A thin shell over :func:`ragauge.serve.app.create_app`. Needs ``pip install 'ragauge[serve]'``.
"""

from __future__ import annotations

import argparse

from ..errors import ConfigError

_NEEDS = ("fastapi", "uvicorn", "sqlalchemy", "alembic", "pydantic")


def register(sub) -> None:
    p = sub.add_parser(
        "serve", help="run the monitoring collector: ingest traces, store them, score them in the background",
        description="Run the collector for ragauge.trace: POST /api/traces (the SDK's batches), GET /api/traces "
        "(each trace with its scores), GET /healthz. Traces are stored in a SQLite file (default) or "
        "PostgreSQL (--db URL) and scored in the background with the offline judge, with the metric code of "
        "`ragauge eval`. The API token comes from RAGAUGE_TOKEN (required).",
        epilog="Example: RAGAUGE_TOKEN=... ragauge serve --port 8501 --db sqlite:///ragauge.db. "
        "Exit codes: 0 stopped, 2 bad options or no token. Details: docs/monitoring.md.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8501, help="port (default 8501)")
    p.add_argument("--db", help="database URL (default sqlite:///ragauge.db in this folder; "
                   "postgresql+psycopg://user@host/db for PostgreSQL)")
    p.add_argument("--metrics", help="comma-separated metrics to score every trace on "
                   "(default faithfulness,answer_relevancy,context_precision)")
    p.add_argument("--no-scoring", action="store_true", help="store traces only; do not score them")
    p.add_argument("--score-batch", type=int, default=16, metavar="N", help="traces scored together (default 16)")
    p.add_argument("--max-body-mb", type=float, default=10.0, help="request body limit in MiB (default 10)")
    p.add_argument("--log-level", default="info", choices=("critical", "error", "warning", "info", "debug"))
    p.set_defaults(func=run)


def _require() -> None:
    import importlib.util

    missing = [m for m in _NEEDS if importlib.util.find_spec(m) is None]
    if missing:
        raise ConfigError(f"`ragauge serve` needs {', '.join(missing)}; install them with: pip install 'ragauge[serve]'")


def build_app(args: argparse.Namespace):
    """The app for ``args`` (separate from :func:`run` so tests can check options without serving)."""
    _require()
    from ..serve.app import DEFAULT_MAX_BODY, create_app
    from ..serve.scoring import DEFAULT_METRICS

    if not 1 <= args.port <= 65535:
        raise ConfigError(f"--port {args.port} is not a TCP port (1..65535)")
    if args.score_batch < 1:
        raise ConfigError(f"--score-batch must be >= 1, got {args.score_batch}")
    metrics = DEFAULT_METRICS
    if args.metrics:
        from ..metrics.registry import parse_metric

        metrics = tuple(m.strip() for m in args.metrics.split(",") if m.strip())
        for m in metrics:
            parse_metric(m)  # unknown names fail here with the close matches, not in the scorer thread
    max_body = int(args.max_body_mb * 1024 * 1024) if args.max_body_mb else DEFAULT_MAX_BODY
    if not args.no_scoring:
        from ..engine.evaluate import offline_judge_installed
        from ..metrics.registry import parse_metric

        if any(parse_metric(m).judge for m in metrics) and not offline_judge_installed():
            raise ConfigError("scoring needs the offline judge: pip install 'ragauge[offline]' "
                              "(or run with --no-scoring, or --metrics without judge metrics)")
    return create_app(db=args.db, max_body_bytes=max_body, scoring=not args.no_scoring, metrics=metrics,
                      judge="offline", scorer_options={"batch_size": args.score_batch})


def run(args: argparse.Namespace) -> int:
    app = build_app(args)
    import uvicorn

    print(f"ragauge serve: listening on http://{args.host}:{args.port} (Ctrl-C to stop)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, access_log=False)
    return 0
