"""How the guard calls the user's functions: signatures checked once, filters never dropped silently."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Callable

from ..errors import ConfigError


def is_async(fn: Callable[..., Any] | None) -> bool:
    if fn is None:
        return False
    target = fn if inspect.isfunction(fn) or inspect.ismethod(fn) else getattr(fn, "__call__", fn)
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(target)


def _signature(fn: Callable[..., Any], role: str) -> inspect.Signature | None:
    if not callable(fn):
        raise ConfigError(f"{role} must be a callable (got {fn!r})")
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):  # some builtins: trust the documented convention
        return None


@dataclass(frozen=True)
class RetrieverCall:
    """Whether ``retrieve`` takes ``(query, filters, k)`` or only ``(query[, k])``."""

    fn: Callable[..., Any]
    takes_filters: bool
    takes_k: bool

    @classmethod
    def inspect(cls, fn: Callable[..., Any]) -> "RetrieverCall":
        sig = _signature(fn, "retrieve")
        if sig is None:
            return cls(fn, True, True)
        params = list(sig.parameters.values())
        if any(p.kind is p.VAR_POSITIONAL for p in params):
            return cls(fn, True, True)
        positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        names = {p.name for p in params}
        if not positional:
            raise ConfigError(f"retrieve {fn!r} takes no positional argument; expected retrieve(query, filters, k)")
        takes_filters = "filters" in names or len(positional) >= 3
        takes_k = len(positional) >= 2 or "k" in names
        return cls(fn, takes_filters, takes_k)

    def args(self, query: str, filters: Any, k: int) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The call's arguments; a filter the retriever cannot take is a :class:`ConfigError`."""
        if self.takes_filters:
            return (query, filters, k), {}
        if filters is not None:
            raise ConfigError(
                f"filters {filters!r} were given but retrieve {getattr(self.fn, '__name__', self.fn)!r} has no "
                "filters parameter; the guard passes filters into the search and never post-filters. "
                "Give the retriever the signature retrieve(query, filters, k), or drop the filters"
            )
        return ((query, k) if self.takes_k else (query,)), {}


def generate_kwargs(fn: Callable[..., Any], rewritten: str | None, question: str) -> dict[str, Any]:
    """``{"rewritten": ...}`` when ``generate`` declares a ``rewritten`` parameter (or ``**kwargs``)."""
    if rewritten is None or rewritten == question:
        return {}
    sig = _signature(fn, "generate")
    if sig is None:
        return {}
    params = sig.parameters.values()
    if "rewritten" in sig.parameters or any(p.kind is p.VAR_KEYWORD for p in params):
        return {"rewritten": rewritten}
    return {}
