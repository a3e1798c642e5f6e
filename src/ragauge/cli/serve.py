"""``ragauge serve``: the collector (FastAPI + uvicorn) that stores and scores traces from ragauge.trace.

A thin shell over :func:`ragauge.serve.app.create_app`. Needs ``pip install 'ragauge[serve]'``.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import ConfigError

_NEEDS = ("fastapi", "uvicorn", "sqlalchemy", "alembic", "pydantic")


def register(sub) -> None:
    p = sub.add_parser(
        "serve", help="run the monitoring collector: ingest traces, store them, score them in the background",
        description="Run the collector for ragauge.trace: POST /api/traces (the SDK's batches), POST /v1/traces "
        "(OTLP/HTTP with OpenInference attributes, protobuf or JSON), GET /api/traces (each trace with its "
        "scores and feedback), POST /api/traces/{id}/feedback, GET /api/summary, GET /healthz and the dashboard "
        "at /. Traces are stored in a SQLite file (default) or PostgreSQL (--db URL) and scored in the "
        "background with the offline judge, with the metric code of `ragauge eval`; the profile's thresholds "
        "over the last --alert-window scored requests raise alerts (log line, optional webhook). The API token "
        "comes from RAGAUGE_TOKEN (required).",
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
    p.add_argument("--score-lease", type=float, default=300.0, metavar="S",
                   help="seconds before a batch claimed by a scorer that died is scored again (default 300)")
    p.add_argument("--llm-judge", metavar="SPEC", help="also score a sampled share of traces with this LLM judge "
                   "(openai:MODEL@URL); stored as METRIC:llm beside the offline scores")
    p.add_argument("--llm-share", type=float, default=0.1, metavar="X",
                   help="share of traces (0..1) the LLM judge scores, chosen by trace id (default 0.1)")
    p.add_argument("--llm-max-calls", type=int, metavar="N", help="at most N paid LLM calls (per process)")
    p.add_argument("--llm-max-tokens", type=int, metavar="N", help="at most N LLM tokens (per process)")
    p.add_argument("--llm-max-usd", type=float, metavar="USD", help="at most this much money (needs --llm-prices)")
    p.add_argument("--llm-prices", metavar="FILE", help="TOML price table for --llm-max-usd")
    p.add_argument("--max-body-mb", type=float, default=10.0, help="request body limit in MiB (default 10)")
    p.add_argument("--profile", default="dashboard", help="threshold profile for alerts and the dashboard "
                   "(default dashboard; 'none' for no thresholds)")
    p.add_argument("--alert-window", type=int, default=200, metavar="N",
                   help="alerts look at the last N scored requests of each app version (default 200)")
    p.add_argument("--alert-min", type=int, default=30, metavar="N",
                   help="no alert on fewer scored requests than this (default 30)")
    p.add_argument("--alert-webhook", metavar="URL", help="POST each alert (JSON) to this URL (default: log only)")
    p.add_argument("--alert-interval", type=float, default=30.0, metavar="S", help="seconds between checks (30)")
    p.add_argument("--no-alerts", action="store_true", help="do not check alert thresholds")
    p.add_argument("--public-url", metavar="URL", help="the dashboard's address for links in alerts "
                   "(default http://HOST:PORT)")
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
    if args.score_lease < 1:
        raise ConfigError(f"--score-lease must be at least 1 second, got {args.score_lease}")
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
    if args.alert_window < 2 or args.alert_min < 1 or args.alert_interval <= 0:
        raise ConfigError("--alert-window must be >= 2, --alert-min >= 1 and --alert-interval > 0")
    profile = None if args.profile == "none" else args.profile
    scorer_options = {"batch_size": args.score_batch, "lease_s": args.score_lease,
                      "llm": llm_sampler(args, metrics)}
    return create_app(db=args.db, max_body_bytes=max_body, scoring=not args.no_scoring, metrics=metrics,
                      judge="offline", scorer_options=scorer_options, profile=profile,
                      alerts=not args.no_alerts, alert_window=args.alert_window, alert_min_samples=args.alert_min,
                      alert_webhook=args.alert_webhook, alert_interval_s=args.alert_interval,
                      public_url=args.public_url or f"http://{args.host}:{args.port}")


def llm_sampler(args: argparse.Namespace, metrics: tuple[str, ...]) -> Any:
    """The sampled LLM judge of ``--llm-judge``, built by :func:`ragauge.judges.spec.make_judge`; None without it."""
    limits: dict[str, Any] = {"max_calls": getattr(args, "llm_max_calls", None), "max_tokens": getattr(args, "llm_max_tokens", None),
              "max_usd": getattr(args, "llm_max_usd", None)}
    spec = getattr(args, "llm_judge", None)
    if spec is None:
        if any(v is not None for v in limits.values()) or getattr(args, "llm_prices", None):
            raise ConfigError("--llm-max-calls/--llm-max-tokens/--llm-max-usd/--llm-prices apply to --llm-judge "
                              "openai:MODEL@URL")
        return None
    if args.no_scoring:
        raise ConfigError("--llm-judge scores traces; it cannot be used with --no-scoring")
    share = args.llm_share
    if not 0.0 < share <= 1.0:
        raise ConfigError(f"--llm-share must be in (0, 1], e.g. 0.1 for one trace in ten; got {share}")
    if all(v is None for v in limits.values()):
        raise ConfigError("--llm-judge runs unattended: give it a budget, --llm-max-calls N, --llm-max-tokens N "
                          "or --llm-max-usd USD (with --llm-prices FILE)")
    from ..judges.spec import make_judge, parse_judge
    from ..serve.llm_scoring import LLMSampler

    choice = parse_judge(spec, option="--llm-judge")
    if choice.kind != "llm":
        raise ConfigError(f"--llm-judge {choice.shown!r}: give an LLM judge, openai:MODEL@URL (the offline judge "
                          "already scores every trace)")
    judge = make_judge(spec, option="--llm-judge", prices=args.llm_prices, **limits,
                       flags={"max_usd": "--llm-max-usd", "prices": "--llm-prices",
                              "budget": "--llm-max-calls/--llm-max-tokens/--llm-max-usd/--llm-prices"})
    return LLMSampler(judge, name=choice.shown, share=share, metrics=metrics)  # an LLMSampler


def run(args: argparse.Namespace) -> int:
    import logging

    app = build_app(args)
    import uvicorn

    # alerts, scorer warnings and OTLP notes go to stderr as lines (uvicorn configures only its own loggers)
    logger = logging.getLogger("ragauge")
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(args.log_level.upper())

    print(f"ragauge serve: listening on http://{args.host}:{args.port} (Ctrl-C to stop)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, access_log=False)
    return 0
