"""Run the ragauge pytest plugin inside pytest's own ``pytester`` against small projects."""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points

import pytest

# pytester is enabled for the whole suite in pyproject.toml (addopts "-p pytester"): pytest refuses
# pytest_plugins in a non-top-level conftest.


def _entry_point_installed() -> bool:
    return any(ep.value == "ragauge.pytest_plugin" for ep in entry_points(group="pytest11"))


#: ``-p ragauge.pytest_plugin`` until the pytest11 entry point is installed (then pytest loads it itself,
#: and naming it again would register it twice).
PLUGIN = () if _entry_point_installed() else ("-p", "ragauge.pytest_plugin")


# pytester's in-process runs restore sys.modules afterwards, and numpy cannot be imported twice in a
# process: what an evaluation needs is imported here, before any pytester snapshot, and kept across runs.
# scipy.stats too: ragauge imports it lazily (issue 14), and its numpy extension modules cannot load twice.
for _name in ("numpy", "scipy.stats", "ragauge.engine.evaluate", "ragauge.testing.session", "ragauge.report.markdown",
              "ragauge.report.table", "ragauge.report.html", "ragauge.diagnosis", "ragauge.data.writers",
              "ragauge.testing.golden_set", "ragauge.testing.assertions", "ragauge.testing.pipeline"):
    importlib.import_module(_name)


@pytest.fixture
def run(pytester):
    """``run(*args)``: pytest in-process on the pytester project, with the plugin enabled."""

    def go(*args: str, subprocess: bool = False):
        call = pytester.runpytest_subprocess if subprocess else pytester.runpytest
        return call(*PLUGIN, "-p", "no:cacheprovider", *args)

    return go
