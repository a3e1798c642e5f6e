"""What the collector accepts: the SDK's batch format (``ragauge.trace/1``), validated with pydantic.

A batch is ``{"schema": "ragauge.trace/1", "traces": [...]}``. Every trace is validated on its own so that
a refusal names each bad trace by index and field (``traces[3].spans[0].chunks[1].text: Field required``);
one bad trace refuses the whole batch and nothing of it is stored.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .text import no_nul

SCHEMA = "ragauge.trace/1"
MAX_TRACES_PER_BATCH = 1000
MAX_SPANS_PER_TRACE = 500
MAX_CHUNKS_PER_SPAN = 1000

_ID = r"^[A-Za-z0-9_.:\-]{1,128}$"
_Ms = Annotated[float, Field(ge=0)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, str_max_length=1_000_000)


class Chunk(_Model):
    id: str | None = Field(None, max_length=512)
    text: str
    score: float | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class _SpanBase(_Model):
    name: str | None = Field(None, max_length=200)
    start_ms: _Ms | None = None
    duration_ms: _Ms | None = None
    error: str | None = None
    attributes: dict[str, Any] = Field(default_factory=dict)


class RetrievalSpan(_SpanBase):
    kind: Literal["retrieval"]
    query: str | None = None
    chunks: list[Chunk] = Field(default_factory=list, max_length=MAX_CHUNKS_PER_SPAN)
    filters: dict[str, Any] | None = None


class GenerationSpan(_SpanBase):
    kind: Literal["generation"]
    prompt: str | list[Any] | dict[str, Any] | None = None
    answer: str | None = None
    ttft_ms: _Ms | None = None
    tokens: int | dict[str, int] | None = None
    model: str | None = Field(None, max_length=200)


class GuardSpan(_SpanBase):
    kind: Literal["guard"]
    decision: str | dict[str, Any] | None = None
    reason: str | None = None


class RewriteSpan(_SpanBase):
    kind: Literal["rewrite"]
    query: str | None = None
    rewritten: str | None = None


class CustomSpan(_SpanBase):
    kind: Literal["custom"]


SpanIn = Annotated[Union[RetrievalSpan, GenerationSpan, GuardSpan, RewriteSpan, CustomSpan],
                   Field(discriminator="kind")]


class TraceIn(_Model):
    id: str = Field(pattern=_ID)
    app_name: str = Field(min_length=1, max_length=200)
    app_version: str | None = Field(None, max_length=100)
    question: str | None = None
    answer: str | None = None
    start_time: float = Field(ge=0, description="unix time in seconds")
    duration_ms: _Ms | None = None
    status: Literal["ok", "error"] = "ok"
    error: str | None = None
    language: str | None = Field(None, max_length=16)
    tags: list[Annotated[str, Field(max_length=200)]] = Field(default_factory=list, max_length=100)
    metadata: dict[str, Any] = Field(default_factory=dict)
    spans: list[SpanIn] = Field(default_factory=list, max_length=MAX_SPANS_PER_TRACE)


_TRACE = TypeAdapter(TraceIn)


class _BatchIn(_Model):
    schema_: Literal["ragauge.trace/1"] = Field("ragauge.trace/1", alias="schema")
    traces: list[TraceIn] = Field(max_length=MAX_TRACES_PER_BATCH)


_BATCH = TypeAdapter(_BatchIn)


class BatchError(ValueError):
    """A batch refused as a whole: ``errors`` lists ``{"index", "trace_id", "reason"}`` (index None: the
    batch itself is malformed)."""

    def __init__(self, errors: list[dict[str, Any]]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"traces[{e['index']}]: {e['reason']}" if e["index"] is not None else e["reason"]
                                   for e in errors[:5]))


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON (send null for a missing number)")


def _where(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if part in ("retrieval", "generation", "guard", "rewrite", "custom"):
            continue  # pydantic's union tag: not a field of the input
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def parse_batch(body: bytes) -> list[TraceIn]:
    """The traces of one POST body, or :class:`BatchError` with a reason for every bad trace."""
    # fast path: parse and validate in one pass (Rust); NaN, Infinity and NUL take the slow path
    if b"NaN" not in body and b"Infinity" not in body and b"\\u0000" not in body:
        try:
            return _BATCH.validate_json(body).traces
        except ValidationError:
            pass  # the slow path below says which trace and field, by index
    try:
        doc = json.loads(body, parse_constant=_no_constants)
    except (ValueError, UnicodeDecodeError) as exc:
        raise BatchError([{"index": None, "trace_id": None, "reason": f"the body is not JSON: {exc}"}]) from None
    doc = no_nul(doc)  # NUL -> U+FFFD (PostgreSQL cannot store it); the fast path's body has none
    if not isinstance(doc, dict) or not isinstance(doc.get("traces"), list):
        raise BatchError([{"index": None, "trace_id": None,
                           "reason": 'expected an object {"schema": "ragauge.trace/1", "traces": [...]}'}])
    schema = doc.get("schema", SCHEMA)
    if schema != SCHEMA:
        raise BatchError([{"index": None, "trace_id": None,
                           "reason": f"unknown schema {schema!r}; this collector reads {SCHEMA!r}"}])
    unknown = sorted(set(doc) - {"schema", "traces"})
    if unknown:
        raise BatchError([{"index": None, "trace_id": None, "reason": f"unknown batch fields {unknown}"}])
    items = doc["traces"]
    if len(items) > MAX_TRACES_PER_BATCH:
        raise BatchError([{"index": None, "trace_id": None,
                           "reason": f"{len(items)} traces in one batch; at most {MAX_TRACES_PER_BATCH}"}])
    traces: list[TraceIn] = []
    errors: list[dict[str, Any]] = []
    for i, item in enumerate(items):
        tid = item.get("id") if isinstance(item, dict) else None
        try:
            traces.append(_TRACE.validate_python(item))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = _where(tuple(first["loc"]))
            more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
            errors.append({"index": i, "trace_id": tid if isinstance(tid, str) else None,
                           "reason": f"{where or 'trace'}: {first['msg']}{more}"})
    if errors:
        raise BatchError(errors)
    return traces


class FeedbackIn(_Model):
    """``POST /api/traces/{id}/feedback``: ``rating`` "up" / "down" (or 1 / -1), an optional comment and user."""

    rating: Literal["up", "down", 1, -1]
    comment: str | None = Field(None, max_length=5000)
    user: str | None = Field(None, max_length=200)


class Feedback(BaseModel):
    rating: int
    comment: str | None
    user: str | None


class FeedbackError(ValueError):
    """Feedback refused; the message names the field."""


_FEEDBACK = TypeAdapter(FeedbackIn)


def parse_feedback(body: bytes) -> Feedback:
    """The feedback of one POST body (rating as +1 / -1), or :class:`FeedbackError`."""
    try:
        doc = json.loads(body, parse_constant=_no_constants)
    except (ValueError, UnicodeDecodeError) as exc:
        raise FeedbackError(f"the body is not JSON: {exc}") from None
    doc = no_nul(doc)
    if isinstance(doc, dict) and isinstance(doc.get("rating"), bool):  # True == 1 to Python; not a rating
        raise FeedbackError('rating: expected "up" or "down" (or 1 / -1), got a boolean')
    try:
        fb = _FEEDBACK.validate_python(doc)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise FeedbackError(f"{_where(tuple(first['loc'])) or 'body'}: {first['msg']} "
                            '(send {"rating": "up" | "down", "comment": "..."})') from None
    rating = 1 if fb.rating in ("up", 1) else -1
    comment = fb.comment.strip() if fb.comment and fb.comment.strip() else None
    return Feedback(rating=rating, comment=comment, user=fb.user)
