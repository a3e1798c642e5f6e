"""Quality gates as tests: assertion helpers, golden data sets and pipeline runs for pytest.

    >>> from ragauge.testing import assert_quality, assert_sample, golden, run_pipeline  # doctest: +SKIP

The pytest plugin (:mod:`ragauge.pytest_plugin`) is a thin shell over these functions; they work without
pytest too. Every gate goes through :mod:`ragauge.gates.check`, the checker behind ``ragauge eval``.
Names load on first use (nothing heavy at import).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "assert_quality": ("ragauge.testing.assertions", "assert_quality"),
    "assert_sample": ("ragauge.testing.assertions", "assert_sample"),
    "check_quality": ("ragauge.testing.assertions", "check_quality"),
    "QualityGateError": ("ragauge.testing.assertions", "QualityGateError"),
    "golden": ("ragauge.testing.golden_set", "golden"),
    "GoldenSample": ("ragauge.testing.golden_set", "GoldenSample"),
    "SampleResult": ("ragauge.testing.golden_set", "SampleResult"),
    "sample_result": ("ragauge.testing.golden_set", "sample_result"),
    "run_pipeline": ("ragauge.testing.pipeline", "run_pipeline"),
    "collect": ("ragauge.testing.pipeline", "collect"),
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    try:
        module, attr = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module 'ragauge.testing' has no attribute {name!r}") from None
    value = getattr(import_module(module), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
