"""A local Ray cluster for the tests that need one (2 CPUs, no dashboard), started once and shut down."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session")
def ray_cluster():
    ray = pytest.importorskip("ray", reason="the Ray engine needs: pip install 'ragauge[ray]'")
    pytest.importorskip("ray.data")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no telemetry from a test cluster
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()
