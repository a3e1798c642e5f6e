"""Trace every production RAG request and send it to a ``ragauge serve`` collector.

    from ragauge import trace
    trace.configure(endpoint="http://127.0.0.1:8501", app_name="support-bot", app_version="1.3")
    with trace.request(question) as t:
        chunks = retriever(question); t.span("retrieval", query=question, chunks=chunks)
        answer = llm(question, chunks); t.set_answer(answer)

Until :func:`configure` is called every call is a no-op (one global read). After it, a request costs a
few microseconds: the trace goes to a bounded queue and a background thread exports batches
(:mod:`ragauge.trace._export`); a collector that is down or slow never blocks or breaks the request.
The token comes from ``token=`` or ``RAGAUGE_TOKEN``. Format and guarantees: docs/monitoring.md.
"""

from __future__ import annotations

import atexit
import functools
import inspect
import os
import threading
from typing import Any, Callable, Mapping
from urllib.parse import urlsplit

from ..errors import ConfigError, InputError
from ._trace import NOOP_TRACE, Span, Trace, current

__all__ = ["configure", "request", "traced", "current", "feedback", "flush", "shutdown", "stats", "is_configured",
           "Trace", "Span"]

_lock = threading.Lock()
_exporter: Any = None
_final_stats: dict[str, int] | None = None  # the last exporter's counters after shutdown()
_defaults: dict[str, Any] = {}
_atexit_registered = False


def configure(endpoint: str, *, token: str | None = None, app_name: str = "app", app_version: str | None = None,
              spool_dir: str | os.PathLike[str] | None = None, max_queue: int = 10_000, batch_size: int = 256,
              flush_interval: float = 0.5, timeout: float = 5.0, max_spool_bytes: int = 256 * 1024 * 1024,
              protocol: str = "ragauge", headers: Mapping[str, str] | None = None, transport: Any = None) -> None:
    """Start tracing to the collector at ``endpoint`` (e.g. ``http://127.0.0.1:8501``).

    ``spool_dir``: a folder where batches the collector did not take wait on disk (re-sent after a restart
    of either side). Without it they wait in memory (bounded by ``max_queue``) and are lost at exit.
    Calling it again replaces the previous configuration (the old exporter is flushed and stopped).

    ``protocol``: ``"ragauge"`` (default; ``<endpoint>/api/traces``) or ``"otlp-json"`` / ``"otlp-protobuf"``:
    OpenInference spans over OTLP/HTTP to ``<endpoint>/v1/traces`` (Phoenix, Langfuse, an OpenTelemetry
    collector, or ``ragauge serve``; protobuf needs ``pip install opentelemetry-proto``). ``headers``: extra
    HTTP headers (e.g. another backend's API key); the token is sent as ``Authorization: Bearer``.
    """
    global _exporter, _atexit_registered
    parts = urlsplit(str(endpoint))
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(f"trace endpoint {endpoint!r} is not an http(s) URL; "
                          "pass e.g. endpoint='http://127.0.0.1:8501' (where `ragauge serve` listens)")
    if not app_name or not str(app_name).strip():
        raise ConfigError("app_name must be a non-empty name, e.g. app_name='support-bot'")
    for name, value in (("max_queue", max_queue), ("batch_size", batch_size)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ConfigError(f"{name} must be a positive integer, got {value!r}")
    from ._export import PROTOCOLS, Exporter

    if protocol not in PROTOCOLS:
        raise ConfigError(f"protocol {protocol!r} is unknown; use one of {', '.join(PROTOCOLS)}")
    if protocol == "otlp-protobuf":
        import importlib.util

        try:
            found = importlib.util.find_spec("opentelemetry.proto") is not None
        except ModuleNotFoundError:  # no opentelemetry package at all
            found = False
        if not found:
            raise ConfigError("protocol='otlp-protobuf' needs the OTLP classes: pip install opentelemetry-proto "
                              "(or use protocol='otlp-json')")

    token = token if token is not None else os.environ.get("RAGAUGE_TOKEN")
    new = Exporter(str(endpoint), token=token, spool_dir=None if spool_dir is None else os.fspath(spool_dir),
                   max_queue=max_queue, batch_size=batch_size, flush_interval=flush_interval, timeout=timeout,
                   max_spool_bytes=max_spool_bytes, transport=transport, protocol=protocol,
                   headers=dict(headers) if headers else None)
    with _lock:
        old, _exporter = _exporter, new
        _defaults.clear()
        _defaults.update(app_name=str(app_name), app_version=None if app_version is None else str(app_version))
        if not _atexit_registered:
            atexit.register(_at_exit)
            _atexit_registered = True
    if old is not None:
        old.shutdown(timeout=1.0)


def is_configured() -> bool:
    return _exporter is not None


def request(question: str | None = None, *, metadata: Mapping[str, Any] | None = None, tags: Any = (),
            language: str | None = None, trace_id: str | None = None, app_name: str | None = None,
            app_version: str | None = None) -> Any:
    """A context manager for one RAG request; a shared no-op object until :func:`configure` was called."""
    exporter = _exporter
    if exporter is None:
        return NOOP_TRACE
    try:
        return Trace(exporter, question, app_name=app_name or _defaults["app_name"],
                     app_version=app_version if app_version is not None else _defaults.get("app_version"),
                     metadata=metadata, tags=tags, language=language, trace_id=trace_id)
    except Exception:  # noqa: BLE001 - e.g. odd metadata: never into the user's request
        return NOOP_TRACE


def traced(func: Callable[..., Any] | None = None, *, question_arg: str | None = None,
           **request_kwargs: Any) -> Any:
    """Decorator: trace each call as one request. The question is the argument named ``question_arg``
    (default: a ``question`` keyword, else the first positional argument); a ``str`` result becomes the
    answer. Inside, :func:`current` gives the trace for child spans. Works on ``async def`` too."""

    def question_of(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if question_arg is not None:
            return kwargs.get(question_arg)
        if "question" in kwargs:
            return kwargs["question"]
        return args[0] if args else None

    def deco(f: Callable[..., Any]) -> Callable[..., Any]:
        if inspect.iscoroutinefunction(f):
            @functools.wraps(f)
            async def awrapper(*args: Any, **kwargs: Any) -> Any:
                if _exporter is None:
                    return await f(*args, **kwargs)
                with request(question_of(args, kwargs), **request_kwargs) as t:
                    result = await f(*args, **kwargs)
                    if isinstance(result, str):
                        t.set_answer(result)
                    return result
            return awrapper

        @functools.wraps(f)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if _exporter is None:
                return f(*args, **kwargs)
            with request(question_of(args, kwargs), **request_kwargs) as t:
                result = f(*args, **kwargs)
                if isinstance(result, str):
                    t.set_answer(result)
                return result
        return wrapper

    return deco(func) if func is not None else deco


def feedback(trace: Any, rating: str | int, comment: str | None = None, *, user: str | None = None,
             timeout: float = 5.0) -> bool:
    """Attach a user's thumbs up/down (``"up"``/``"down"`` or 1/-1) and an optional comment to a traced
    request (a :class:`Trace` or its id). Blocks for up to ``timeout`` (the trace is delivered first; call
    it from the feedback handler, not the request's hot path). True when the collector stored it; False
    when not configured, the collector did not answer in time, or the protocol is OTLP. A bad ``rating``
    raises :class:`ragauge.errors.InputError`."""
    if isinstance(rating, bool) or rating not in ("up", "down", 1, -1):
        raise InputError(f"rating must be 'up' or 'down' (or 1 / -1), got {rating!r}")
    trace_id = getattr(trace, "id", trace)
    exporter = _exporter
    if exporter is None or not trace_id:
        return False
    payload: dict[str, Any] = {"rating": "up" if rating in ("up", 1) else "down"}
    if comment is not None:
        payload["comment"] = str(comment)
    if user is not None:
        payload["user"] = str(user)
    try:
        return bool(exporter.send_feedback(str(trace_id), payload, timeout))
    except Exception:  # noqa: BLE001 - never into the user's code
        return False


def flush(timeout: float = 5.0) -> bool:
    """Deliver what is queued and pending now; True when all of it reached the collector in time."""
    exporter = _exporter
    return True if exporter is None else exporter.flush(timeout)


def shutdown(timeout: float = 5.0) -> bool:
    """Flush, stop the export thread and go back to no-op; undelivered traces stay in the spool."""
    global _exporter, _final_stats
    with _lock:
        exporter, _exporter = _exporter, None
    if exporter is None:
        return True
    ok: bool = exporter.shutdown(timeout)
    _final_stats = exporter.stats()
    return ok


def stats() -> dict[str, int]:
    """The exporter's counters (submitted, sent, dropped, rejected, spooled, errors, queued,
    pending_batches); after :func:`shutdown` the final ones; all zero when never configured."""
    exporter = _exporter
    if exporter is None:
        if _final_stats is not None:
            return dict(_final_stats)
        return {k: 0 for k in ("submitted", "sent", "dropped", "rejected", "spooled", "errors", "queued",
                               "pending_batches")}
    counts: dict[str, int] = exporter.stats()
    return counts


def _at_exit() -> None:  # pragma: no cover - process exit
    try:
        shutdown(timeout=2.0)
    except Exception:  # noqa: BLE001
        pass
