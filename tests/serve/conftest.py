"""Fixtures for the collector: a database URL per test (SQLite file; PostgreSQL too when
RAGAUGE_TEST_POSTGRES_URL is set) and a real uvicorn server on 127.0.0.1."""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid

import pytest

TOKEN = "test-token-0123456789"


def _pg_url() -> str | None:
    return os.environ.get("RAGAUGE_TEST_POSTGRES_URL")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A fresh database: a SQLite file, and (when RAGAUGE_TEST_POSTGRES_URL names a server) a PostgreSQL
    schema dropped afterwards."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'ragauge.db'}"
        return
    base = _pg_url()
    if not base:
        pytest.skip("set RAGAUGE_TEST_POSTGRES_URL=postgresql+psycopg://user@host/db to run on PostgreSQL")
    import sqlalchemy as sa

    name = f"t_{uuid.uuid4().hex[:12]}"
    engine = sa.create_engine(base)
    with engine.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{name}"'))
    sep = "&" if "?" in base else "?"
    yield f"{base}{sep}options=-csearch_path%3D{name}"
    with engine.begin() as conn:
        conn.execute(sa.text(f'DROP SCHEMA "{name}" CASCADE'))
    engine.dispose()


def reserve_port() -> socket.socket:
    """A bound, not yet listening socket: connections to it are refused until a server starts on it."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


class LiveServer:
    """``app`` served by uvicorn in a thread on ``port`` (start/stop as often as needed)."""

    def __init__(self, make_app, port: int) -> None:
        self.make_app = make_app
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self._server = None
        self._thread = None

    def start(self, sock: socket.socket | None = None) -> "LiveServer":
        import uvicorn

        if sock is None:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(("127.0.0.1", self.port))
        config = uvicorn.Config(self.make_app(), log_level="warning", lifespan="on", access_log=False)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [sock]}, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
            self._thread.join(30)
            self._server = None


@pytest.fixture
def live(tmp_path):
    """``live(make_app)`` -> a LiveServer on a reserved port, not started yet; stopped at the end."""
    servers: list[LiveServer] = []
    socks: list[socket.socket] = []

    def make(make_app):
        sock = reserve_port()
        socks.append(sock)
        server = LiveServer(make_app, sock.getsockname()[1])
        server.reserved = sock
        servers.append(server)
        return server

    yield make
    for s in servers:
        s.stop()
    for sock in socks:
        sock.close()
