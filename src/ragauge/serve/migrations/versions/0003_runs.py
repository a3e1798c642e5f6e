"""Uploaded ``ragauge eval`` runs (their per-sample scores), for the dashboard's run comparison.

The LLM judge's sampled scores need no schema change: they are stored as ``METRIC:llm`` rows of ``scores``
(see ``ragauge.serve.llm_scoring``); existing rows are all the offline judge's and stay as they are.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "runs",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("app", sa.String(400)),
        sa.Column("uploaded_at", sa.Float, nullable=False),
        sa.Column("n_samples", sa.Integer, nullable=False),
        sa.Column("summary", sa.JSON, nullable=False),
        sa.Column("scores", sa.JSON, nullable=False),
    )
    op.create_index("ix_runs_uploaded_at", "runs", ["uploaded_at"])


def downgrade() -> None:
    op.drop_index("ix_runs_uploaded_at", table_name="runs")
    op.drop_table("runs")
