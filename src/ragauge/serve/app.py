"""The collector's HTTP API (FastAPI): ingest, the trace list, health. A thin shell over store/scoring.

- ``GET /healthz``: no token; 200 ``{"status": "ok"}`` when the database answers, else 503.
- ``POST /api/traces``: the SDK's batch (:mod:`.schema`); 200 ``{"accepted", "duplicates"}``; 422
  ``{"detail", "errors": [{"index", "trace_id", "reason"}]}`` and nothing stored; 413 over the body limit.
- ``GET /api/traces?limit=N`` (1..1000, default 50; optional ``app_name``, ``app_version``): newest first,
  one item per trace with ``scores`` (metric -> value; null = unscored, reason in ``unscored``) and
  ``scoring.state`` (pending, claimed, done, failed).
- ``GET /api/traces/{id}``: one trace with its spans and the scores' artifacts; ``GET /api/status``: queue.

Every ``/api`` route needs ``Authorization: Bearer <RAGAUGE_TOKEN>``.
"""

from __future__ import annotations

import contextlib
import hmac
import os
from typing import Any, AsyncIterator, Sequence

from fastapi import Depends, FastAPI, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from .._version import __version__
from ..errors import ConfigError
from . import store
from .db import default_url, make_engine, migrate
from .schema import BatchError, parse_batch
from .scoring import DEFAULT_METRICS, Scorer

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


def create_app(*, db: str | None = None, token: str | None = None, max_body_bytes: int = DEFAULT_MAX_BODY,
               scoring: bool = True, metrics: Sequence[str] = DEFAULT_METRICS, judge: Any = "offline",
               scorer_options: dict[str, Any] | None = None) -> FastAPI:
    """The collector app. ``token``: default ``RAGAUGE_TOKEN`` (required). The database is migrated here,
    before the first request; the scorer thread runs while the app is served (its lifespan)."""
    token = token if token is not None else os.environ.get("RAGAUGE_TOKEN")
    if not token:
        raise ConfigError("no API token: set RAGAUGE_TOKEN (e.g. export RAGAUGE_TOKEN=$(openssl rand -hex 24)); "
                          "the SDK sends the same value as Authorization: Bearer ...")
    if max_body_bytes < 1024:
        raise ConfigError(f"the body limit must be at least 1024 bytes, got {max_body_bytes}")
    engine = make_engine(db or default_url())
    migrate(engine)
    scorer = Scorer(engine, metrics=metrics, judge=judge, **(scorer_options or {})) if scoring else None
    expected = f"Bearer {token}".encode()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if scorer is not None:
            scorer.start()
        try:
            yield
        finally:
            if scorer is not None:
                await run_in_threadpool(scorer.stop)
            engine.dispose()

    app = FastAPI(title="ragauge collector", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None, openapi_url=None)
    app.state.engine = engine
    app.state.scorer = scorer

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

    @app.get("/api/traces", dependencies=[Depends(authorized)])
    async def list_traces(limit: int = Query(50, ge=1, le=1000), app_name: str | None = None,
                          app_version: str | None = None) -> JSONResponse:
        items = await run_in_threadpool(store.list_traces, engine, limit=limit, app_name=app_name,
                                        app_version=app_version)
        return JSONResponse({"items": items, "count": len(items)})

    @app.get("/api/traces/{trace_id}", dependencies=[Depends(authorized)])
    async def one_trace(trace_id: str) -> JSONResponse:
        item = await run_in_threadpool(store.get_trace, engine, trace_id)
        if item is None:
            raise HTTPException(404, f"no trace with id {trace_id!r}")
        return JSONResponse(item)

    @app.get("/api/status", dependencies=[Depends(authorized)])
    async def status() -> JSONResponse:
        counts = await run_in_threadpool(store.queue_counts, engine)
        return JSONResponse({"scoring": {"enabled": scorer is not None, "metrics": list(metrics), "queue": counts}})

    return app
