"""Storage: the tables (SQLAlchemy Core, portable types only), the engine and the migrations.

SQLite by default (a file; WAL, a busy timeout and ``BEGIN IMMEDIATE`` so that the ingest threads and the
scorer take turns instead of failing), PostgreSQL by URL (``postgresql+psycopg://...``). The schema is
owned by the Alembic migrations in ``serve/migrations`` and applied by :func:`migrate` at startup; the
tables below mirror them for queries.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa

from ..errors import ConfigError

metadata = sa.MetaData()

traces = sa.Table(
    "traces", metadata,
    sa.Column("id", sa.String(128), primary_key=True),
    sa.Column("app_name", sa.String(200), nullable=False),
    sa.Column("app_version", sa.String(100)),
    sa.Column("question", sa.Text),
    sa.Column("answer", sa.Text),
    sa.Column("start_time", sa.Float, nullable=False),
    sa.Column("received_at", sa.Float, nullable=False),
    sa.Column("duration_ms", sa.Float),
    sa.Column("retrieval_ms", sa.Float),
    sa.Column("ttft_ms", sa.Float),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("error", sa.Text),
    sa.Column("language", sa.String(16)),
    sa.Column("tags", sa.JSON, nullable=False),
    sa.Column("meta", sa.JSON, nullable=False),
    sa.Column("outcome", sa.String(32)),  # answer | no_answer | clarifying_question | blocked | error
    sa.Index("ix_traces_received_at", "received_at"),
    sa.Index("ix_traces_outcome", "outcome"),
    sa.Index("ix_traces_app", "app_name", "app_version"),
)

spans = sa.Table(
    "spans", metadata,
    sa.Column("trace_id", sa.String(128), sa.ForeignKey("traces.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("position", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("name", sa.String(200)),
    sa.Column("start_ms", sa.Float),
    sa.Column("duration_ms", sa.Float),
    sa.Column("data", sa.JSON, nullable=False),
)

score_queue = sa.Table(
    "score_queue", metadata,
    sa.Column("trace_id", sa.String(128), sa.ForeignKey("traces.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("state", sa.String(16), nullable=False),  # pending | claimed | done | failed
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("enqueued_at", sa.Float, nullable=False),
    sa.Column("claimed_at", sa.Float),
    sa.Column("claimed_by", sa.String(100)),
    sa.Column("finished_at", sa.Float),
    sa.Column("last_error", sa.Text),
    sa.Index("ix_score_queue_state", "state", "enqueued_at"),
)

scores = sa.Table(
    "scores", metadata,
    sa.Column("trace_id", sa.String(128), sa.ForeignKey("traces.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("metric", sa.String(100), primary_key=True),
    sa.Column("value", sa.Float),
    sa.Column("reason", sa.Text),  # why it is unscored (value NULL)
    sa.Column("artifacts", sa.JSON),
    sa.Column("judge", sa.String(50)),
    sa.Column("scored_at", sa.Float, nullable=False),
    sa.Index("ix_scores_metric_scored_at", "metric", "scored_at"),
)

feedback = sa.Table(
    "feedback", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("trace_id", sa.String(128), sa.ForeignKey("traces.id", ondelete="CASCADE"), nullable=False),
    sa.Column("rating", sa.Integer, nullable=False),  # +1 thumbs up, -1 thumbs down
    sa.Column("comment", sa.Text),
    sa.Column("author", sa.String(200)),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Index("ix_feedback_trace", "trace_id", "created_at"),
)

# Spans of an OTLP trace whose root span has not arrived yet (exporters send children first).
otlp_pending = sa.Table(
    "otlp_pending", metadata,
    sa.Column("trace_id", sa.String(128), primary_key=True),
    sa.Column("span_id", sa.String(32), primary_key=True),
    sa.Column("received_at", sa.Float, nullable=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Index("ix_otlp_pending_received_at", "received_at"),
)

alerts = sa.Table(
    "alerts", metadata,
    sa.Column("key", sa.String(400), primary_key=True),
    sa.Column("metric", sa.String(100), nullable=False),
    sa.Column("app_name", sa.String(200)),
    sa.Column("app_version", sa.String(100)),
    sa.Column("state", sa.String(16), nullable=False),  # firing | resolved
    sa.Column("since", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    sa.Column("detail", sa.JSON, nullable=False),
)

# Uploaded `ragauge eval` runs: the per-sample scores a paired comparison needs (``ragauge.serve.runs``).
runs = sa.Table(
    "runs", metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("app", sa.String(400)),
    sa.Column("uploaded_at", sa.Float, nullable=False),
    sa.Column("n_samples", sa.Integer, nullable=False),
    sa.Column("summary", sa.JSON, nullable=False),  # metric -> {mean, n}
    sa.Column("scores", sa.JSON, nullable=False),  # a reduced ragauge.results/1 document (ids, specs, scores)
    sa.Index("ix_runs_uploaded_at", "uploaded_at"),
)

MIGRATIONS = Path(__file__).with_name("migrations")


def default_url() -> str:
    """A SQLite file in the working folder."""
    return "sqlite:///ragauge.db"


def make_engine(url: str) -> sa.Engine:
    """An engine for ``url``; SQLite gets WAL, foreign keys, a busy timeout and immediate write locks."""
    try:
        parsed = sa.engine.make_url(url)
    except sa.exc.ArgumentError:
        raise ConfigError(f"--db {url!r} is not a database URL; use e.g. sqlite:///ragauge.db or "
                          "postgresql+psycopg://user@host/dbname") from None
    try:
        if parsed.get_backend_name() == "sqlite":
            return _sqlite_engine(url, parsed)
        return sa.create_engine(url, pool_pre_ping=True)
    except (ImportError, sa.exc.NoSuchModuleError) as exc:
        raise ConfigError(f"no driver for {parsed.drivername!r} ({exc}); for PostgreSQL install it with: "
                          "pip install 'psycopg[binary]' and use postgresql+psycopg://...") from None


def _sqlite_engine(url: str, parsed: Any) -> sa.Engine:
    db = parsed.database
    if db and db != ":memory:" and not db.startswith("file:"):
        Path(db).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
    engine = sa.create_engine(url, connect_args={"timeout": 30})

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves (below)
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.close()

    @sa.event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        # A deferred transaction that reads then writes can fail at once with SQLITE_BUSY when another
        # writer went first; taking the write lock up front makes writers wait their turn instead.
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def migrate(engine: sa.Engine) -> None:
    """Bring the database to the newest schema (Alembic ``upgrade head``)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
