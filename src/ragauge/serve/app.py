"""The collector's HTTP API (FastAPI): ingest, the trace list, health. A thin shell over store/scoring.

- ``GET /healthz``: no token; 200 ``{"status": "ok"}`` when the database answers, else 503.
- ``POST /api/traces``: the SDK's batch (:mod:`.schema`); 200 ``{"accepted", "duplicates"}``; 422
  ``{"detail", "errors": [{"index", "trace_id", "reason"}]}`` and nothing stored; 413 over the body limit.
- ``GET /api/traces?limit=N`` (1..1000, default 50; optional ``app_name``, ``app_version``): newest first,
  one item per trace with ``scores`` (metric -> value; null = unscored, reason in ``unscored``) and
  ``scoring.state`` (pending, claimed, done, failed).
- ``GET /api/traces/{id}``: one trace with its spans and the scores' artifacts; ``GET /api/status``: queue.
- ``POST /api/runs`` (a ``ragauge eval`` results.json), ``GET /api/runs``, ``GET /api/runs/compare?base=&new=``
  (``ragauge compare``'s paired comparison; :mod:`.runs`).
- ``GET /api/metrics?window=1h``: latency / retrieval / TTFT percentiles per time window (:mod:`.timeseries`).

Every ``/api`` route needs ``Authorization: Bearer <RAGAUGE_TOKEN>``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import os
from typing import Any, AsyncIterator, Sequence

from fastapi import Depends, FastAPI, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response

from .._version import __version__
from ..errors import ConfigError, InputError
from . import otlp, otlp_ingest, store
from .db import default_url, make_engine, migrate
from .schema import BatchError, FeedbackError, parse_batch, parse_feedback
from .scoring import DEFAULT_METRICS, Scorer

log = logging.getLogger("ragauge.serve")

DEFAULT_MAX_BODY = 10 * 1024 * 1024


class _TooLarge(Exception):
    pass


async def _read_body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise _TooLarge(int(declared))
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise _TooLarge(size)
        chunks.append(chunk)
    return b"".join(chunks)


def _inflate(body: bytes, encoding: str | None, limit: int) -> bytes:
    """The body without its gzip Content-Encoding (what OTLP exporters may send), within ``limit``."""
    if not encoding or encoding.strip().lower() == "identity":
        return body
    if encoding.strip().lower() != "gzip":
        raise otlp.OtlpError(f"Content-Encoding {encoding!r} is not supported; send gzip or none")
    import zlib

    d = zlib.decompressobj(wbits=31)
    try:
        out = d.decompress(body, limit + 1)
    except zlib.error as exc:
        raise otlp.OtlpError(f"the gzip body is corrupt: {exc}") from None
    if len(out) > limit:
        raise _TooLarge(len(out))
    if not d.eof:
        raise otlp.OtlpError("the gzip body is truncated")
    return out


def create_app(*, db: str | None = None, token: str | None = None, max_body_bytes: int = DEFAULT_MAX_BODY,
               scoring: bool = True, metrics: Sequence[str] = DEFAULT_METRICS, judge: Any = "offline",
               scorer_options: dict[str, Any] | None = None, profile: str | None = "dashboard",
               alerts: bool = True, alert_window: int = 200, alert_min_samples: int = 30,
               alert_webhook: str | None = None, alert_interval_s: float = 30.0, public_url: str | None = None,
               dashboard: bool = True, dashboard_settings: dict[str, Any] | None = None) -> FastAPI:
    """The collector app. ``token``: default ``RAGAUGE_TOKEN`` (required). The database is migrated here,
    before the first request; the scorer and alert threads run while the app is served (its lifespan).

    Alerts (:mod:`.alerts`): the ``profile``'s thresholds on the scored ``metrics`` over the last
    ``alert_window`` scored requests per app version, checked every ``alert_interval_s``; a log line, and
    a POST to ``alert_webhook`` when given; links point at ``public_url`` (the dashboard's address).
    The dashboard (``ragauge.serve.dashboard``, when installed) is mounted with ``token``, ``profile`` and
    ``dashboard_settings``."""
    token = token if token is not None else os.environ.get("RAGAUGE_TOKEN")
    if not token:
        raise ConfigError("no API token: set RAGAUGE_TOKEN (e.g. export RAGAUGE_TOKEN=$(openssl rand -hex 24)); "
                          "the SDK sends the same value as Authorization: Bearer ...")
    if max_body_bytes < 1024:
        raise ConfigError(f"the body limit must be at least 1024 bytes, got {max_body_bytes}")
    engine = make_engine(db or default_url())
    migrate(engine)
    scorer = Scorer(engine, metrics=metrics, judge=judge, **(scorer_options or {})) if scoring else None
    alerter = _alerter(engine, profile=profile, metrics=metrics, enabled=alerts, window=alert_window,
                       min_samples=alert_min_samples, webhook=alert_webhook, interval_s=alert_interval_s,
                       public_url=public_url)
    expected = f"Bearer {token}".encode()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if scorer is not None:
            scorer.start()
        if alerter is not None:
            alerter.start()
        adopter = asyncio.create_task(_adopt_waiting(engine))
        try:
            yield
        finally:
            adopter.cancel()
            if alerter is not None:
                await run_in_threadpool(alerter.stop)
            if scorer is not None:
                await run_in_threadpool(scorer.stop)
            engine.dispose()

    app = FastAPI(title="ragauge collector", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None, openapi_url=None)
    app.state.engine = engine
    app.state.scorer = scorer
    app.state.alerter = alerter

    def authorized(request: Request) -> None:
        given = request.headers.get("authorization", "").encode()
        if not hmac.compare_digest(given, expected):
            raise HTTPException(401, "missing or wrong token: send Authorization: Bearer <RAGAUGE_TOKEN>",
                                headers={"WWW-Authenticate": "Bearer"})

    @app.exception_handler(_TooLarge)
    async def too_large(_request: Request, exc: _TooLarge) -> JSONResponse:
        return JSONResponse({"detail": f"request body over the limit of {max_body_bytes} bytes; send smaller "
                                       "batches (the SDK splits them on its own)"}, status_code=413)

    @app.get("/healthz")
    async def healthz() -> JSONResponse:
        import sqlalchemy as sa

        def ping() -> None:
            with engine.connect() as conn:
                conn.execute(sa.text("SELECT 1"))
        try:
            await run_in_threadpool(ping)
        except Exception as exc:  # noqa: BLE001 - health says why, never a traceback
            return JSONResponse({"status": "error", "detail": f"database: {type(exc).__name__}"}, status_code=503)
        return JSONResponse({"status": "ok", "version": __version__})

    @app.post("/api/traces", dependencies=[Depends(authorized)])
    async def ingest(request: Request) -> JSONResponse:
        body = await _read_body(request, max_body_bytes)

        def work() -> dict[str, int]:
            return store.insert_batch(engine, parse_batch(body))
        try:
            result = await run_in_threadpool(work)
        except BatchError as exc:
            return JSONResponse({"detail": f"batch refused, nothing stored: {exc}", "errors": exc.errors},
                                status_code=422)
        return JSONResponse(result)

    @app.post("/v1/traces", dependencies=[Depends(authorized)])
    async def otlp_traces(request: Request) -> Response:
        """OTLP/HTTP (protobuf or JSON) with OpenInference attributes; see :mod:`.otlp_ingest`."""
        kind = otlp.JSON
        try:
            kind = otlp.media_type(request.headers.get("content-type"))
            body = _inflate(await _read_body(request, max_body_bytes), request.headers.get("content-encoding"),
                            max_body_bytes)

            def work() -> dict[str, Any]:
                return otlp_ingest.ingest(engine, otlp.decode(body, kind))
            result = await run_in_threadpool(work)
        except otlp.OtlpError as exc:
            code = 415 if isinstance(exc, otlp.UnsupportedMediaType) else 400
            return Response(otlp.error_body(kind, f"refused, nothing stored: {exc}"), status_code=code,
                            media_type=kind)
        return Response(otlp.success_body(kind, rejected=result["rejected_spans"], message=result["message"]),
                        media_type=kind)

    @app.get("/api/traces", dependencies=[Depends(authorized)])
    async def list_traces(limit: int = Query(50, ge=1, le=1000), offset: int = Query(0, ge=0),
                          app_name: str | None = None, app_version: str | None = None,
                          filter: str | None = Query(None, description=", ".join(store.FILTERS)),
                          below: float = store.LOW_FAITHFULNESS, slow_ms: float = store.SLOW_MS,
                          since: float | None = None, until: float | None = None, metric: str = "faithfulness",
                          above: float | None = None) -> JSONResponse:
        if filter is not None and filter not in store.FILTERS:
            raise HTTPException(422, f"unknown filter {filter!r}; use one of {', '.join(store.FILTERS)}")
        if filter == "high_score" and above is None:
            raise HTTPException(422, "filter=high_score needs above=<value>")
        items = await run_in_threadpool(store.list_traces, engine, limit=limit, offset=offset, app_name=app_name,
                                        app_version=app_version, filter=filter, below=below, slow_ms=slow_ms,
                                        since=since, until=until, metric=metric, above=above)
        return JSONResponse({"items": items, "count": len(items)})

    @app.post("/api/traces/{trace_id}/feedback", dependencies=[Depends(authorized)])
    async def give_feedback(trace_id: str, request: Request) -> JSONResponse:
        body = await _read_body(request, 64 * 1024)
        try:
            fb = parse_feedback(body)
        except FeedbackError as exc:
            return JSONResponse({"detail": f"feedback refused: {exc}"}, status_code=422)
        stored = await run_in_threadpool(lambda: store.add_feedback(engine, trace_id, rating=fb.rating,
                                                                    comment=fb.comment, user=fb.user))
        if stored is None:
            raise HTTPException(404, f"no trace with id {trace_id!r} (feedback can only be attached to a stored "
                                     "trace; the SDK flushes the trace first)")
        return JSONResponse(stored)

    @app.get("/api/summary", dependencies=[Depends(authorized)])
    async def summary(app_name: str | None = None, since: float | None = None,
                      until: float | None = None) -> JSONResponse:
        groups = await run_in_threadpool(store.version_summary, engine, app_name=app_name, since=since, until=until)
        return JSONResponse({"versions": groups})

    @app.get("/api/metrics", dependencies=[Depends(authorized)])
    async def timing_metrics(window: str = "1h", app_name: str | None = None,
                             app_version: str | None = Query(None, description="empty: traces without a version"),
                             since: float | None = None, until: float | None = None) -> JSONResponse:
        from .timeseries import windowed_metrics

        try:
            out = await run_in_threadpool(lambda: windowed_metrics(
                engine, window=window, app_name=app_name, app_version=app_version or None,
                version_given=app_version is not None, since=since, until=until))
        except InputError as exc:
            raise HTTPException(422, str(exc)) from None
        return JSONResponse(out)

    @app.post("/api/runs", dependencies=[Depends(authorized)])
    async def upload_run(request: Request, name: str | None = None) -> JSONResponse:
        """A ``ragauge eval`` results.json (the body) -> stored for the dashboard's run comparison."""
        from . import runs

        body = await _read_body(request, max_body_bytes)
        try:
            stored = await run_in_threadpool(lambda: runs.add_run(engine, body, name=name))
        except InputError as exc:
            return JSONResponse({"detail": f"run refused, nothing stored: {exc}"}, status_code=422)
        return JSONResponse(stored)

    @app.get("/api/runs", dependencies=[Depends(authorized)])
    async def uploaded_runs(limit: int = Query(200, ge=1, le=1000)) -> JSONResponse:
        from . import runs

        return JSONResponse({"runs": await run_in_threadpool(runs.list_runs, engine, limit=limit)})

    @app.get("/api/runs/compare", dependencies=[Depends(authorized)])
    async def compare_uploaded(base: str, new: str, intersect: bool = False) -> JSONResponse:
        from . import runs

        try:
            result = await run_in_threadpool(lambda: runs.compare(engine, base, new, intersect=intersect))
        except LookupError as exc:
            raise HTTPException(404, str(exc)) from None
        except InputError as exc:
            raise HTTPException(422, str(exc)) from None
        return JSONResponse(result.to_dict())

    @app.get("/api/traces/{trace_id}", dependencies=[Depends(authorized)])
    async def one_trace(trace_id: str) -> JSONResponse:
        item = await run_in_threadpool(store.get_trace, engine, trace_id)
        if item is None:
            raise HTTPException(404, f"no trace with id {trace_id!r}")
        return JSONResponse(item)

    @app.get("/api/status", dependencies=[Depends(authorized)])
    async def status() -> JSONResponse:
        counts = await run_in_threadpool(store.queue_counts, engine)
        llm = scorer.llm.usage() if scorer is not None and scorer.llm is not None else None
        return JSONResponse({"scoring": {"enabled": scorer is not None, "metrics": list(metrics), "queue": counts,
                                         "llm": llm}})

    if dashboard:
        _mount_dashboard(app, engine, {"token": token, "profile": profile or "none", **(dashboard_settings or {})})
    return app


async def _adopt_waiting(engine: Any, every_s: float = otlp_ingest.ROOT_WAIT_S / 3) -> None:
    """Store OTLP traces whose remote parent never arrives (:func:`.otlp_ingest.adopt_waiting`)."""
    while True:
        await asyncio.sleep(every_s)
        try:
            await run_in_threadpool(otlp_ingest.adopt_waiting, engine)
        except Exception as exc:  # noqa: BLE001 - e.g. the database is gone for a moment
            log.warning("ragauge serve: storing waiting OTLP traces failed (%s: %s); retrying", type(exc).__name__, exc)


def _alerter(engine: Any, *, profile: str | None, metrics: Sequence[str], enabled: bool, window: int,
             min_samples: int, webhook: str | None, interval_s: float, public_url: str | None) -> Any:
    """The alert checker, or None (alerts off, no profile, or no rule on a scored metric)."""
    if webhook is not None:
        from urllib.parse import urlsplit

        parts = urlsplit(webhook)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ConfigError("the alert webhook must be an http(s) URL, e.g. https://hooks.example.com/ragauge")
    if window < 2 or min_samples < 1:
        raise ConfigError(f"the alert window must be >= 2 and min samples >= 1, got {window} and {min_samples}")
    if not enabled or not profile or profile == "none":
        return None
    from .alerts import Alerter, rules_from_profile

    rules = rules_from_profile(profile, metrics, window=window, min_samples=min(min_samples, window))
    if not rules:
        return None
    return Alerter(engine, rules, webhook=webhook, base_url=public_url, interval_s=interval_s)


def _mount_dashboard(app: FastAPI, engine: Any, settings: dict[str, Any]) -> None:
    try:
        from .dashboard import mount
    except ImportError:  # the dashboard is an optional part of the package
        return
    mount(app, engine, settings)
