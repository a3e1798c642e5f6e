"""One traced RAG request and its spans; the no-op stand-ins used until :func:`configure` is called.

The request thread only records references and ``perf_counter`` readings; the wire dict is built by the
export thread (:meth:`Trace.to_dict`). So do not mutate a list of chunks after handing it to a span.
Nothing here raises into the user's code: a fault inside the SDK is counted and the request goes on.
"""

from __future__ import annotations

import contextvars
import time
import uuid
from typing import Any, Literal, Mapping

from ._wire import span_dict

_current: contextvars.ContextVar["Trace | None"] = contextvars.ContextVar("ragauge_trace", default=None)


class Span:
    """A step of a request (retrieval, generation, guard, rewrite, custom).

    Recorded when created; used as a context manager it also measures its own duration (otherwise pass
    ``duration_ms=``). ``set(**fields)`` adds fields later, e.g. the chunks once retrieval returned.
    """

    __slots__ = ("kind", "name", "fields", "start_ms", "duration_ms", "error", "_t0", "_trace_t0")

    def __init__(self, kind: str, name: str | None, fields: dict[str, Any], trace_t0: float,
                 duration_ms: float | None) -> None:
        self.kind, self.name, self.fields = kind, name, fields
        self._trace_t0 = trace_t0
        self._t0 = time.perf_counter()
        self.start_ms = (self._t0 - trace_t0) * 1000.0
        self.duration_ms = duration_ms
        self.error: str | None = None

    def set(self, **fields: Any) -> "Span":
        self.fields.update(fields)
        return self

    def __enter__(self) -> "Span":
        self._t0 = time.perf_counter()
        self.start_ms = (self._t0 - self._trace_t0) * 1000.0
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> Literal[False]:
        if self.duration_ms is None:
            self.duration_ms = (time.perf_counter() - self._t0) * 1000.0
        if exc_type is not None:
            self.error = f"{exc_type.__name__}: {exc}"[:2000]
        return False

    def to_dict(self) -> dict[str, Any]:
        return span_dict(self.kind, self.name, self.start_ms, self.duration_ms, self.fields, self.error)


class Trace:
    """One request: ``with trace.request(question) as t:`` ... ``t.span(...)``, ``t.set_answer(...)``."""

    __slots__ = ("id", "question", "answer", "app_name", "app_version", "metadata", "tags", "language",
                 "spans", "start_time", "duration_ms", "status", "error", "_t0", "_exporter", "_token", "_done")

    def __init__(self, exporter: Any, question: str | None, *, app_name: str, app_version: str | None,
                 metadata: Mapping[str, Any] | None = None, tags: Any = (), language: str | None = None,
                 trace_id: str | None = None) -> None:
        self.id = trace_id or uuid.uuid4().hex
        self.question = question
        self.answer: str | None = None
        self.app_name, self.app_version = app_name, app_version
        self.metadata = dict(metadata) if metadata else {}
        self.tags = list(tags) if tags else []
        self.language = language
        self.spans: list[Span] = []
        self.start_time = time.time()
        self._t0 = time.perf_counter()
        self.duration_ms: float | None = None
        self.status: str = "ok"
        self.error: str | None = None
        self._exporter = exporter
        self._token: Any = None
        self._done = False

    def span(self, kind: str, *, name: str | None = None, duration_ms: float | None = None, **fields: Any) -> Span:
        """Record a step; ``kind`` is retrieval (query, chunks, filters), generation (prompt, answer,
        ttft_ms, tokens, model), guard (decision, reason), rewrite (query, rewritten) or any other name
        (stored as custom). Other keyword arguments go to the span's ``attributes``."""
        s = Span(kind, name, fields, self._t0, duration_ms)
        self.spans.append(s)
        return s

    def set_answer(self, answer: Any) -> None:
        self.answer = None if answer is None else str(answer)

    def set_metadata(self, **values: Any) -> None:
        self.metadata.update(values)

    def add_tags(self, *tags: str) -> None:
        self.tags.extend(tags)

    def __enter__(self) -> "Trace":
        self._token = _current.set(self)
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> Literal[False]:
        try:
            self.finish(None if exc_type is None else f"{exc_type.__name__}: {exc}")
        finally:
            if self._token is not None:
                try:
                    _current.reset(self._token)
                except ValueError:  # exited in another context (e.g. a generator): nothing to restore
                    pass
        return False

    def finish(self, error: str | None = None) -> None:
        """End the request and hand it to the exporter (called by ``__exit__``; once only)."""
        if self._done:
            return
        self._done = True
        self.duration_ms = (time.perf_counter() - self._t0) * 1000.0
        if error is not None:
            self.status, self.error = "error", error[:2000]
        try:
            self._exporter.submit(self)
        except Exception:  # noqa: BLE001 - never into the user's request
            pass

    def to_dict(self) -> dict[str, Any]:
        answer = self.answer
        if answer is None:  # the last generation span's answer
            for s in reversed(self.spans):
                if s.kind == "generation" and s.fields.get("answer") is not None:
                    answer = str(s.fields["answer"])
                    break
        return {
            "id": self.id, "app_name": self.app_name, "app_version": self.app_version,
            "question": None if self.question is None else str(self.question), "answer": answer,
            "start_time": self.start_time, "duration_ms": self.duration_ms, "status": self.status,
            "error": self.error, "language": self.language, "tags": [str(t) for t in self.tags],
            "metadata": self.metadata, "spans": [s.to_dict() for s in self.spans],
        }


class _NoopSpan:
    __slots__ = ()

    def set(self, **fields: Any) -> "_NoopSpan":
        return self

    def __enter__(self) -> "_NoopSpan":
        return self

    def __exit__(self, *exc: Any) -> Literal[False]:
        return False


class _NoopTrace:
    """What :func:`request` returns until the SDK is configured: every method does nothing."""

    __slots__ = ()
    id = None

    def span(self, kind: str, **fields: Any) -> _NoopSpan:
        return _NOOP_SPAN

    def set_answer(self, answer: Any) -> None:
        pass

    def set_metadata(self, **values: Any) -> None:
        pass

    def add_tags(self, *tags: str) -> None:
        pass

    def finish(self, error: str | None = None) -> None:
        pass

    def __enter__(self) -> "_NoopTrace":
        return self

    def __exit__(self, *exc: Any) -> Literal[False]:
        return False


_NOOP_SPAN = _NoopSpan()
NOOP_TRACE = _NoopTrace()


def current() -> "Trace | _NoopTrace":
    """The request being traced in this context (a no-op trace outside one)."""
    t = _current.get()
    return NOOP_TRACE if t is None else t
