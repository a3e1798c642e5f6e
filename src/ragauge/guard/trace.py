"""Trace events: one per guard decision, for monitoring. Dependency-free; a no-op until configured.

Every stage record of a run becomes a ``guard.stage`` event and the final verdict a ``guard.result``
event (a run that raises ends with a ``guard.error`` event instead). An event is span-shaped like OpenTelemetry's (``trace_id`` = the request id, ``span_id``,
``parent_span_id`` = the request's span, start/end in Unix nanoseconds, ``attributes``) so a collector
can map it onto OTLP without ragauge depending on ``opentelemetry``.

A *sink* is any callable taking a :class:`TraceEvent`. Ready-made: :class:`ListSink` (in memory, for
tests), :class:`JsonlSink` (one JSON object a line, appended). Configure per guard
(``Guard(..., trace=sink)``) or for the process (:func:`set_default_sink`). With neither, nothing is
built or emitted: the cost when off is one ``is None`` test per run.

>>> sink = ListSink()
>>> emit = Emitter(sink, request_id="r1")
>>> emit.stage("score_threshold", "no_answer", {"max_score": 0.4}, {"score_threshold": 0.7}, "", 0.01)
>>> sink.events[0].to_dict()["attributes"]["ragauge.guard.decision"]
'no_answer'
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
import uuid
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from ..errors import ConfigError

Sink = Callable[["TraceEvent"], Any]

_default_sink: Sink | None = None


def set_default_sink(sink: Sink | None) -> None:
    """Send the events of every guard built without ``trace=`` to ``sink`` (``None``: tracing off)."""
    global _default_sink
    if sink is not None and not callable(sink):
        raise ConfigError(f"a trace sink must be a callable taking a TraceEvent (got {sink!r})")
    _default_sink = sink


def default_sink() -> Sink | None:
    """The process default sink; else, while :mod:`ragauge.trace` is configured, the bridge that sends
    the guard's decisions to the collector (:mod:`ragauge.guard.trace_bridge`); else ``None`` (off)."""
    if _default_sink is not None:
        return _default_sink
    from .. import trace as _sdk

    if not _sdk.is_configured():
        return None
    return BRIDGE


def _span_id() -> str:
    return uuid.uuid4().hex[:16]


@dataclass(frozen=True, slots=True)
class TraceEvent:
    """One guard decision. ``name`` is ``"guard.stage"`` or ``"guard.result"``; times in Unix ns."""

    name: str
    request_id: str
    span_id: str
    parent_span_id: str | None
    stage: str | None
    decision: str
    start_ns: int
    end_ns: int
    scores: dict[str, Any] = field(default_factory=dict)
    thresholds: dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    timings: dict[str, float] = field(default_factory=dict)
    #: the question asked, when the guard passed it to the :class:`Emitter` (not written by ``to_dict``)
    question: str | None = None
    #: the :class:`~ragauge.guard.result.GuardResult` on a ``guard.result`` event, when the guard passed it
    result: Any = None

    @property
    def duration_ms(self) -> float:
        return (self.end_ns - self.start_ns) / 1e6

    def to_dict(self) -> dict[str, Any]:
        """Span-shaped, JSON-ready: OTel field names, ragauge data under ``ragauge.guard.*`` attributes."""
        attributes: dict[str, Any] = {"ragauge.guard.decision": self.decision, "ragauge.guard.reason": self.reason}
        if self.stage is not None:
            attributes["ragauge.guard.stage"] = self.stage
        for prefix, values in (("scores", self.scores), ("thresholds", self.thresholds),
                               ("timings_ms", self.timings)):
            for key, value in values.items():
                attributes[f"ragauge.guard.{prefix}.{key}"] = _jsonable(value)
        return {
            "name": self.name, "trace_id": self.request_id, "span_id": self.span_id,
            "parent_span_id": self.parent_span_id, "start_time_unix_nano": self.start_ns,
            "end_time_unix_nano": self.end_ns,
            "status": {"code": "ERROR", "message": self.reason} if self.name == "guard.error" else {"code": "OK"},
            "attributes": attributes,
        }


def _jsonable(value: Any) -> Any:
    if isinstance(value, float) and value != value:
        return None  # NaN is not JSON; "unscored" is said by the decision
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    return repr(value)  # e.g. a LangChain filter callable: recorded, not serialised


class Emitter:
    """Builds and sends the events of one guarded request; a failing sink never fails the request.

    A sink that raises is reported with a :class:`RuntimeWarning` (shown once per distinct message by
    Python's default filter) and the event is lost: monitoring must not take the answer down.
    """

    def __init__(self, sink: Sink, *, request_id: str | None = None, question: str | None = None) -> None:
        self.sink = sink
        self.question = question
        self.request_id = request_id or uuid.uuid4().hex
        self.root_span = _span_id()
        self.start_ns = time.time_ns()

    def _send(self, event: TraceEvent) -> None:
        try:
            self.sink(event)
        except Exception as exc:  # noqa: BLE001 - any sink error; see the class doc
            # Python's warning filter shows a repeated identical message once, not once per event
            warnings.warn(f"trace sink {self.sink!r} failed ({type(exc).__name__}: {exc}); the guard goes on "
                          "without this event", RuntimeWarning, stacklevel=4)

    def stage(self, stage: str, decision: str, scores: Mapping[str, Any], thresholds: Mapping[str, Any],
              reason: str, duration_ms: float) -> None:
        end = time.time_ns()
        self._send(TraceEvent("guard.stage", self.request_id, _span_id(), self.root_span, stage, decision,
                              end - int(duration_ms * 1e6), end, dict(scores), dict(thresholds), reason,
                              question=self.question))

    def result(self, kind: str, reason: str, thresholds: Mapping[str, Any], timings: Mapping[str, float],
               result: Any = None) -> None:
        """The verdict; ``result`` (the GuardResult, optional) lets the SDK bridge add the kept chunks and
        the answer shown to a request it opened."""
        self._send(TraceEvent("guard.result", self.request_id, self.root_span, None, None, kind, self.start_ns,
                              time.time_ns(), {}, dict(thresholds), reason, dict(timings), question=self.question,
                              result=result))


    def error(self, exc: BaseException) -> None:
        """The run raised (a bad option, the user's retriever failed): the request span ends in error."""
        self._send(TraceEvent("guard.error", self.request_id, self.root_span, None, None, "error", self.start_ns,
                              time.time_ns(), reason=f"{type(exc).__name__}: {exc}", question=self.question))


class ListSink:
    """Keeps the events in ``events`` (tests, notebooks)."""

    def __init__(self) -> None:
        self.events: list[TraceEvent] = []

    def __call__(self, event: TraceEvent) -> None:
        self.events.append(event)

    def __repr__(self) -> str:
        return f"ListSink({len(self.events)} events)"


class JsonlSink:
    """Appends each event's :meth:`TraceEvent.to_dict` as one JSON line to ``path`` (thread-safe).

    The file is opened per write and flushed, so a crash loses at most the event being written and
    several processes may append to one file (lines are written in one call).
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        if self.path.is_dir():
            raise ConfigError(f"trace file {self.path} is a directory; give a file path such as "
                              f"{self.path / 'guard-trace.jsonl'}")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()

    def __call__(self, event: TraceEvent) -> None:
        line = json.dumps(event.to_dict(), ensure_ascii=False) + "\n"
        with self._lock, self.path.open("a", encoding="utf-8") as fh:
            fh.write(line)

    def __repr__(self) -> str:
        return f"JsonlSink({str(self.path)!r})"


def resolve_sink(trace: Sink | str | os.PathLike[str] | bool | None) -> Sink | None:
    """``Guard(trace=...)``: a callable, a ``.jsonl`` path, ``False`` (off even with a default sink) or
    ``None`` (the process default, see :func:`set_default_sink`; off when none is set)."""
    if trace is None:
        return _default_sink
    if trace is False:
        return None
    if isinstance(trace, (str, os.PathLike)):
        return JsonlSink(trace)
    if trace is True or not callable(trace):
        raise ConfigError(f"trace={trace!r}; expected a callable sink, a .jsonl path, False or None")
    return trace


class SdkBridge:
    """The sink that sends a guarded request to the collector through :mod:`ragauge.trace` (used by
    :func:`default_sink` while the SDK is configured and no other default sink is set).

    Every stage record becomes a ``guard`` span (name = the stage, its decision, reason, duration and
    scores) and the verdict a last ``guard`` span named ``guard`` (decision = the result kind: answer,
    no_answer, clarifying_question, blocked; or ``error``). Inside an open ``trace.request(...)`` (the
    reference RAG, the LangChain runnable, the user's own) the spans join that request. Otherwise the
    bridge opens a request at the guard's first event and makes it current, so the adapters' retriever
    and generator callables add their retrieval / generation spans to it; it is sent at the verdict. Its
    question is the one the guard passed to the :class:`Emitter`, else the one recovered from the
    retrieve stage's queries (the expanded query when a synonym dictionary matched).
    """

    def __init__(self, max_open: int = 10_000) -> None:
        self._open: dict[str, tuple[Any, bool]] = {}  # request id -> (trace, opened here)
        self._lock = threading.Lock()
        self.max_open = max_open

    def __call__(self, event: TraceEvent) -> None:
        from .. import trace as sdk

        with self._lock:
            entry = self._open.get(event.request_id)
        if entry is None:
            if event.name == "guard.error" and event.stage is None and event.question is None:
                return  # refused before any stage (e.g. an empty question): nothing was guarded
            current = sdk.current()
            if getattr(current, "id", None) is not None:
                entry = (current, False)
            else:
                rid = event.request_id  # the GuardResult's request_id names the stored trace when it can
                opened = sdk.request(event.question, trace_id=rid if _TRACE_ID.fullmatch(rid) else None)
                if getattr(opened, "id", None) is None:  # the SDK was shut down meanwhile
                    return
                opened.__enter__()
                entry = (opened, True)
            with self._lock:
                if len(self._open) >= self.max_open:  # requests that never ended (a crashed thread)
                    self._open.pop(next(iter(self._open)))
                self._open[event.request_id] = entry
        t: Any = entry[0]
        own = entry[1]
        if event.name == "guard.stage":
            if own and t.question is None and event.stage == "retrieve":
                queries = event.scores.get("queries") or []
                t.question = str(queries[-1]) if queries else None
            t.span("guard", name=event.stage, decision=event.decision, reason=event.reason,
                   duration_ms=event.duration_ms, scores=_jsonable(event.scores))
            return
        with self._lock:
            self._open.pop(event.request_id, None)
        error = event.reason if event.name == "guard.error" else None
        t.span("guard", name="guard", decision=event.decision, reason=event.reason,
               duration_ms=event.duration_ms, timings_ms=_jsonable(event.timings))
        if own:
            if event.result is not None:
                record_result(t, event.result)
            t.finish(error)
            t.__exit__(None, None, None)  # already finished: this only restores the previous current trace


_TRACE_ID = re.compile(r"[A-Za-z0-9_.:-]{1,128}")  # what the collector accepts as a trace id
BRIDGE = SdkBridge()


def record_result(t: Any, result: Any) -> None:
    """Add a :class:`~ragauge.guard.result.GuardResult`'s retrieval (the chunks the guard kept, with ids,
    texts, scores and metadata) and generation (the answer shown; TTFT = the whole run, as nothing is
    streamed) to the traced request ``t``, unless spans of those kinds are there already (the adapters'
    callables add their own), and set the request's answer. A no-op on the SDK's no-op trace."""
    if getattr(t, "id", None) is None:
        return
    have = {s.kind for s in t.spans}
    if "retrieval" not in have and result.stage("retrieve") is not None:
        t.span("retrieval", query=result.rewritten or result.question, duration_ms=result.timings.get("retrieve"),
               chunks=[c.to_dict() for c in result.contexts])
    if "generation" not in have and result.kind == "answer":
        t.span("generation", answer=result.text, duration_ms=result.timings.get("generate"),
               ttft_ms=result.timings.get("total"))
    t.set_answer(result.text)
