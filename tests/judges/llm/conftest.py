from __future__ import annotations

import pytest

from llm_fake_server import FakeOpenAI, StubOffline
from ragauge.judges.llm import client as client_mod


@pytest.fixture(autouse=True)
def _forget_endpoints():
    """Loopback ports are reused between tests: forget what earlier servers accepted."""
    client_mod._ENDPOINTS.clear()
    yield
    client_mod._ENDPOINTS.clear()


@pytest.fixture
def fake():
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def stub_offline():
    return StubOffline()
