"""User feedback, spans of OTLP traces waiting for their root span, the alert state, and a trace's outcome.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # answer | no_answer | clarifying_question | blocked | error (the request list filters on it)
    with op.batch_alter_table("traces") as batch:
        batch.add_column(sa.Column("outcome", sa.String(32)))
    op.create_index("ix_traces_outcome", "traces", ["outcome"])
    # the alerts' window: the last N values of one metric
    op.create_index("ix_scores_metric_scored_at", "scores", ["metric", "scored_at"])
    op.create_table(
        "feedback",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("trace_id", sa.String(128), sa.ForeignKey("traces.id", ondelete="CASCADE"), nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("comment", sa.Text),
        sa.Column("author", sa.String(200)),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_feedback_trace", "feedback", ["trace_id", "created_at"])
    op.create_table(
        "otlp_pending",
        sa.Column("trace_id", sa.String(128), primary_key=True),
        sa.Column("span_id", sa.String(32), primary_key=True),
        sa.Column("received_at", sa.Float, nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
    )
    op.create_index("ix_otlp_pending_received_at", "otlp_pending", ["received_at"])
    op.create_table(
        "alerts",
        sa.Column("key", sa.String(400), primary_key=True),
        sa.Column("metric", sa.String(100), nullable=False),
        sa.Column("app_name", sa.String(200)),
        sa.Column("app_version", sa.String(100)),
        sa.Column("state", sa.String(16), nullable=False),  # firing | resolved
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.Column("detail", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    op.drop_index("ix_scores_metric_scored_at", table_name="scores")
    op.drop_index("ix_traces_outcome", table_name="traces")
    with op.batch_alter_table("traces") as batch:
        batch.drop_column("outcome")
    op.drop_table("alerts")
    op.drop_index("ix_otlp_pending_received_at", table_name="otlp_pending")
    op.drop_table("otlp_pending")
    op.drop_index("ix_feedback_trace", table_name="feedback")
    op.drop_table("feedback")
