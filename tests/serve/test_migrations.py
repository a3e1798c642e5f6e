"""The Alembic migrations build exactly the tables the code queries (db.py), on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")

from alembic.migration import MigrationContext  # noqa: E402
from alembic.autogenerate import compare_metadata  # noqa: E402

from ragauge.serve.db import make_engine, metadata, migrate  # noqa: E402


def test_migrated_schema_matches_the_tables_in_code(db_url):
    engine = make_engine(db_url)
    migrate(engine)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    engine.dispose()
    assert diff == [], f"db.py and the migrations disagree: {diff}"


def test_downgrade_to_the_first_schema_and_up_again(db_url):
    from alembic import command
    from alembic.config import Config

    from ragauge.serve.db import MIGRATIONS

    engine = make_engine(db_url)
    migrate(engine)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0001")
    import sqlalchemy as sa

    assert not {"feedback", "runs"} & set(sa.inspect(engine).get_table_names())
    migrate(engine)
    assert {"feedback", "otlp_pending", "alerts", "runs"} <= set(sa.inspect(engine).get_table_names())
    engine.dispose()
