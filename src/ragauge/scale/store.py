"""The monitoring store (``ragauge serve``'s SQLite/PostgreSQL database) as a source of samples and a sink
of scores: "score yesterday's traces", on Ray or locally.

Source: :class:`StoreSource` names a time window of *received* time (``[since, until)``, unix seconds, the
window the collector's API and dashboard filter on) and optionally an app name and version. Its blocks are
planned on the driver by one streamed pass over ``(received_at, id)`` in that order, keeping only each
block's first and last key; a worker reads a block by that key range, so a trace stored during the run
(after the planned last key) does not shift any block. Each trace becomes the collector's own record
(:func:`ragauge.serve.scoring.trace_record`, what its background scorer scores) and is validated as a
JSONL line is, errors naming the database and the trace id.

Sink: :func:`write_scores` stores a block's columns with the collector's own writer
(``Scorer._store``: the same rows, the judge label, the trace's queue item marked done), so the dashboard
reads them like the background scorer's. Scores of an LLM judge are refused there (the collector keeps
those beside the offline ones as ``METRIC:llm``; see docs/monitoring.md).

Needs the serve extra (SQLAlchemy, Alembic): ``pip install 'ragauge[serve]'``.
"""

from __future__ import annotations

import datetime as _dt
import pickle
import re
from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Sequence

from ..errors import ConfigError, InputError, MissingDependencyError

__all__ = ["StoreSource", "is_store_url", "parse_time", "plan_store_blocks", "store_records", "write_scores"]

_URL = re.compile(r"^(sqlite|postgresql|postgres)(\+[a-z0-9_]+)?://", re.IGNORECASE)


def is_store_url(text: Any) -> bool:
    """Whether ``text`` is a database URL the collector can use (``sqlite:///...``, ``postgresql+psycopg://...``)."""
    return isinstance(text, str) and bool(_URL.match(text))


def parse_time(text: Any, *, option: str) -> float | None:
    """``--since``/``--until``: unix seconds, or an ISO 8601 date or date-time (without a zone: UTC).

    >>> parse_time("2025-05-01", option="--since"), parse_time("1746057600", option="--since")
    (1746057600.0, 1746057600.0)
    """
    if text is None or isinstance(text, (int, float)) and not isinstance(text, bool):
        return None if text is None else float(text)
    raw = str(text).strip()
    try:
        return float(raw)
    except ValueError:
        pass
    try:
        when = _dt.datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        raise ConfigError(f"{option} {raw!r} is not a time; use an ISO date or date-time (2025-05-01, "
                          "2025-05-01T18:30, 2025-05-01T18:30+03:00; without a zone it is UTC) or unix seconds") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=_dt.timezone.utc)
    return when.timestamp()


def _sa() -> Any:
    try:
        import sqlalchemy as sa
    except ImportError:
        raise MissingDependencyError("sqlalchemy", feature="Reading the monitoring store", extra="serve") from None
    return sa


@dataclass(frozen=True)
class StoreSource:
    """The traces of a ``ragauge serve`` database to score: received in ``[since, until)`` (unix seconds;
    ``None``: open), of ``app_name``/``app_version`` when given. Pass it where a data path goes:
    ``ragauge.evaluate(StoreSource("sqlite:///ragauge.db", since=...), engine="ray")``."""

    url: str
    since: float | None = None
    until: float | None = None
    app_name: str | None = None
    app_version: str | None = None

    def __post_init__(self) -> None:
        if not is_store_url(self.url):
            raise ConfigError(f"{self.url!r} is not a database URL; use sqlite:///ragauge.db or "
                              "postgresql+psycopg://user@host/db (the URL given to ragauge serve --db)")
        scheme = self.url.split("://", 1)[0].lower()
        if scheme.split("+", 1)[0] == "postgres":  # Heroku's spelling: SQLAlchemy knows postgresql:// only
            fixed = "postgresql+psycopg://" + self.url.split("://", 1)[1]
            raise ConfigError(f"{scheme}:// is not a SQLAlchemy URL scheme: write postgresql+psycopg://... "
                              f"(here: {_hide_password(fixed)}; the URL given to ragauge serve --db)")
        for name in ("since", "until"):
            object.__setattr__(self, name, parse_time(getattr(self, name), option=name))
        if self.since is not None and self.until is not None and self.until <= self.since:
            raise ConfigError(f"the window is empty: until ({_iso(self.until)}) is not after since ({_iso(self.since)})")

    @property
    def label(self) -> str:
        """The URL with its password hidden, and the window: what errors and results.json show."""
        sa = _sa()
        try:
            shown = sa.engine.make_url(self.url).render_as_string(hide_password=True)
        except Exception:  # noqa: BLE001 - a URL SQLAlchemy cannot parse: refused when opened
            shown = self.url.split("@")[-1]
        parts = [f"since {_iso(self.since)}" if self.since is not None else "",
                 f"until {_iso(self.until)}" if self.until is not None else "",
                 f"app {self.app_name}" if self.app_name else "",
                 f"version {self.app_version}" if self.app_version else ""]
        window = ", ".join(p for p in parts if p)
        return f"{shown} ({window})" if window else shown

    def conditions(self) -> list[Any]:
        from ..serve.db import traces

        c = traces.c
        conds = []
        if self.since is not None:
            conds.append(c.received_at >= self.since)
        if self.until is not None:
            conds.append(c.received_at < self.until)
        if self.app_name is not None:
            conds.append(c.app_name == self.app_name)
        if self.app_version is not None:
            conds.append(c.app_version == self.app_version)
        return conds


def _hide_password(url: str) -> str:
    head, at, tail = url.rpartition("@")
    if not at or ":" not in head.split("://", 1)[-1]:
        return url
    scheme, _, cred = head.partition("://")
    return f"{scheme}://{cred.split(':', 1)[0]}:***@{tail}"


def _iso(t: float | None) -> str:
    return "-" if t is None else _dt.datetime.fromtimestamp(t, _dt.timezone.utc).isoformat(timespec="seconds")


_ENGINES: dict[str, Any] = {}


def _engine(url: str, label: str, *, write: bool = False) -> Any:
    """One engine per database, use and process (a worker reads many blocks); the database must exist and hold
    the collector's tables (nothing is created by reading). Reads use a plain engine: the collector's own
    (``serve.db.make_engine``) takes SQLite's write lock at every BEGIN, which would stall the live collector's
    ingest and make a read wait for another open read; WAL lets plain readers run beside one writer. Writing
    the scores back (``write=True``) uses the collector's engine, so it takes turns with the collector."""
    key = f"{'w' if write else 'r'}:{url}"
    if key in _ENGINES:
        return _ENGINES[key]
    sa = _sa()
    try:
        parsed = sa.engine.make_url(url)
    except sa.exc.ArgumentError:
        raise ConfigError(f"{label!r} is not a database URL") from None
    if parsed.get_backend_name() == "sqlite":
        import os

        db = parsed.database
        if not db or db == ":memory:" or not os.path.isfile(db):
            raise InputError("no such SQLite database file", file=label,
                             hint="Give the file ragauge serve writes (its --db), e.g. sqlite:///ragauge.db; "
                                  "four slashes for an absolute path: sqlite:////var/lib/ragauge.db")
    try:
        if write:
            from ..serve.db import make_engine

            engine = make_engine(url)
        elif parsed.get_backend_name() == "sqlite":
            engine = sa.create_engine(url, connect_args={"timeout": 30})
        else:
            engine = sa.create_engine(url, pool_pre_ping=True)
    except (ImportError, sa.exc.NoSuchModuleError) as exc:
        raise ConfigError(f"{label}: no database driver for {parsed.drivername!r} ({exc}); for PostgreSQL: "
                          "pip install 'psycopg[binary]' and use postgresql+psycopg://...") from None
    try:
        tables = set(sa.inspect(engine).get_table_names())
    except sa.exc.SQLAlchemyError as exc:
        raise InputError(f"cannot open the database: {type(exc).__name__}: {str(exc).splitlines()[0]}",
                         file=label, hint="Check the URL, the server and the credentials") from None
    if not {"traces", "spans", "scores", "score_queue"} <= tables:
        raise InputError("not a ragauge serve database (no traces/spans/scores tables)", file=label,
                         hint="Point at the database of ragauge serve --db; start the collector once to create it")
    _ENGINES[key] = engine
    return engine


def plan_store_blocks(source: StoreSource, block_size: int) -> Iterator[Any]:
    """Blocks of ``block_size`` traces in ``(received_at, id)`` order: the driver keeps two keys a block."""
    from ..serve.db import traces
    from .io import Block

    sa = _sa()
    engine = _engine(source.url, source.label)
    c = traces.c
    query = sa.select(c.received_at, c.id).where(*source.conditions()).order_by(c.received_at, c.id)
    index = row = 0
    lo: tuple[float, str] | None = None
    hi: tuple[float, str] | None = None
    n = 0
    with engine.connect() as conn:
        for key in conn.execution_options(stream_results=True, yield_per=2000).execute(query):
            if lo is None:
                lo = (float(key[0]), str(key[1]))
            hi = (float(key[0]), str(key[1]))
            n += 1
            if n == block_size:
                yield Block(index, "store", source.label, source.url, first=row,
                            payload=pickle.dumps((source, lo, hi), protocol=5))
                index, row, lo, n = index + 1, row + n, None, 0
    if lo is not None and hi is not None:
        yield Block(index, "store", source.label, source.url, first=row,
                    payload=pickle.dumps((source, lo, hi), protocol=5))


def store_records(block: Any) -> Iterator[tuple[Any, dict[str, Any]]]:
    """(location, sample record) for each trace of a store block, in key order (what a worker reads)."""
    from ..data._collect import Location
    from ..serve.db import spans, traces
    from ..serve.scoring import trace_record

    sa = _sa()
    source, lo, hi = pickle.loads(block.payload)
    engine = _engine(source.url, block.label)
    c = traces.c
    after_lo = sa.or_(c.received_at > lo[0], sa.and_(c.received_at == lo[0], c.id >= lo[1]))
    before_hi = sa.or_(c.received_at < hi[0], sa.and_(c.received_at == hi[0], c.id <= hi[1]))
    with engine.connect() as conn:
        rows = conn.execute(sa.select(traces).where(*source.conditions(), after_lo, before_hi)
                            .order_by(c.received_at, c.id)).all()
        ids = [r.id for r in rows]
        span_map: dict[str, list[dict[str, Any]]] = {}
        for i in range(0, len(ids), 500):
            for r in conn.execute(sa.select(spans.c.trace_id, spans.c.data).where(spans.c.trace_id.in_(ids[i:i + 500]))
                                  .order_by(spans.c.trace_id, spans.c.position)):
                span_map.setdefault(r.trace_id, []).append(r.data)
    for row in rows:
        yield Location(f"{block.label}, trace {row.id!r}"), trace_record(row, span_map.get(row.id, []))


def judge_label(judge_spec: Any) -> str:
    """What the collector writes in ``scores.judge`` for this run's judge; an LLM judge (a cascade, or an object
    wrapping one, too) is refused (see above). Both engines call it with the run's ``judge`` setting as given
    (``"auto"``, the default, is ``offline`` even when only retrieval metrics run: the collector's label)."""
    from .judge_spec import JudgeSpec, uses_llm

    if uses_llm(judge_spec):
        raise ConfigError("writing an LLM judge's scores back to the store is not supported: the collector keeps "
                          "them as METRIC:llm beside the offline scores (ragauge serve --llm-judge). Score with the "
                          "offline judge to write back, or leave out --to-store")
    if judge_spec is None or isinstance(judge_spec, (str, JudgeSpec)):
        spec = JudgeSpec.of(judge_spec)
        return type(spec.judge).__name__ if spec.kind == "object" else spec.kind
    from ..judges.offline.judge import OfflineJudge

    # a judge object: named as is (not JudgeSpec.of, whose check that it pickles is the Ray engine's)
    return "offline" if isinstance(judge_spec, OfflineJudge) else type(judge_spec).__name__


def write_scores(url: str, ids: Sequence[str], columns: Mapping[str, Any], *, judge: str) -> int:
    """Store ``columns`` (metric -> ``ScoreColumn`` aligned with ``ids``) for these traces, as the collector's
    background scorer stores its own (its writer: old rows of these traces replaced, queue items done).
    Returns the rows written."""
    from types import SimpleNamespace

    from ..serve.scoring import Scorer

    if not ids:
        return 0
    engine = _engine(url, StoreSource(url).label, write=True)
    scorer = Scorer(engine, metrics=list(columns), judge=judge)
    scorer._store(SimpleNamespace(samples=[SimpleNamespace(id=i) for i in ids], columns=dict(columns)))
    return len(ids) * len(columns)
