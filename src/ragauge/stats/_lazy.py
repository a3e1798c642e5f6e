"""Lazy imports of heavy statistics libraries (importing ``scipy.stats`` takes seconds; most runs never need it)."""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

__all__ = ["scipy_stats"]


def scipy_stats() -> ModuleType:
    """``scipy.stats``, imported on first use (later calls hit the module cache).

    Typed as a module: scipy ships no type information, so its attributes are ``Any`` to mypy either way.
    """
    return import_module("scipy.stats")
