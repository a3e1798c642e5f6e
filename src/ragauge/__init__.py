"""ragauge: numbers you can trust about a RAG system.

    >>> import ragauge
    >>> results = ragauge.evaluate("samples.jsonl", metrics=["ndcg@10", "mrr", "recall@5"])  # doctest: +SKIP
    >>> results.summary["ndcg@10"].value  # doctest: +SKIP

Nothing heavy is imported here: names load on first use.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ._version import __version__

_EXPORTS = {
    "evaluate": ("ragauge.engine.evaluate", "evaluate"),
    "aevaluate": ("ragauge.engine.evaluate", "aevaluate"),
    "EvalConfig": ("ragauge.engine.config", "EvalConfig"),
    "golden": ("ragauge.testing.golden_set", "golden"),
    "assert_quality": ("ragauge.testing.assertions", "assert_quality"),
    "Results": ("ragauge.engine.results", "Results"),
    "load": ("ragauge.data", "load"),
    "Sample": ("ragauge.data.schema", "Sample"),
    "Context": ("ragauge.data.schema", "Context"),
    "MetricSpec": ("ragauge.metrics.spec", "MetricSpec"),
    "parse_metric": ("ragauge.metrics.registry", "parse_metric"),
    "resolve_profile": ("ragauge.gates.profiles", "resolve_profile"),
    "RagaugeError": ("ragauge.errors", "RagaugeError"),
    "InputError": ("ragauge.errors", "InputError"),
    "ConfigError": ("ragauge.errors", "ConfigError"),
    "UnknownMetricError": ("ragauge.errors", "UnknownMetricError"),
}

__all__ = ["__version__", *sorted(_EXPORTS)]


def __getattr__(name: str) -> Any:
    try:
        module, attr = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module 'ragauge' has no attribute {name!r}") from None
    value = getattr(import_module(module), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
