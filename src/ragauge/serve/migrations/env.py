"""Alembic environment of the collector: run on the connection :func:`ragauge.serve.db.migrate` passes."""

from __future__ import annotations

from alembic import context

from ragauge.serve.db import make_engine, metadata

config = context.config
connection = config.attributes.get("connection")


def _run(conn) -> None:
    context.configure(connection=conn, target_metadata=metadata,
                      render_as_batch=conn.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


if connection is not None:
    _run(connection)
else:  # `alembic -x url=...` from a shell
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option("sqlalchemy.url")
    with make_engine(url).begin() as conn:
        _run(conn)
