"""The first schema: traces, spans, the scoring queue and scores.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "traces",
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
    )
    op.create_index("ix_traces_received_at", "traces", ["received_at"])
    op.create_index("ix_traces_app", "traces", ["app_name", "app_version"])
    op.create_table(
        "spans",
        sa.Column("trace_id", sa.String(128), sa.ForeignKey("traces.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("name", sa.String(200)),
        sa.Column("start_ms", sa.Float),
        sa.Column("duration_ms", sa.Float),
        sa.Column("data", sa.JSON, nullable=False),
    )
    op.create_table(
        "score_queue",
        sa.Column("trace_id", sa.String(128), sa.ForeignKey("traces.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("enqueued_at", sa.Float, nullable=False),
        sa.Column("claimed_at", sa.Float),
        sa.Column("claimed_by", sa.String(100)),
        sa.Column("finished_at", sa.Float),
        sa.Column("last_error", sa.Text),
    )
    op.create_index("ix_score_queue_state", "score_queue", ["state", "enqueued_at"])
    op.create_table(
        "scores",
        sa.Column("trace_id", sa.String(128), sa.ForeignKey("traces.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("metric", sa.String(100), primary_key=True),
        sa.Column("value", sa.Float),
        sa.Column("reason", sa.Text),
        sa.Column("artifacts", sa.JSON),
        sa.Column("judge", sa.String(50)),
        sa.Column("scored_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("scores")
    op.drop_index("ix_score_queue_state", table_name="score_queue")
    op.drop_table("score_queue")
    op.drop_table("spans")
    op.drop_index("ix_traces_app", table_name="traces")
    op.drop_index("ix_traces_received_at", table_name="traces")
    op.drop_table("traces")
