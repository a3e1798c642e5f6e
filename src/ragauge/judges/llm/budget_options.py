"""One place that turns the budget options of every front door (``ragauge eval``, the pytest plugin) into
a :class:`~ragauge.judges.llm.budget.Budget`, so the rules and messages cannot drift apart.

A money limit needs a price for the judge's model (``--prices FILE``): without one the cost is unknown
and the limit is refused up front rather than never triggering.
"""

from __future__ import annotations

from pathlib import Path

from ...errors import ConfigError
from .budget import Budget, load_prices


def budget_from_options(spec: str, *, max_calls: int | None = None, max_tokens: int | None = None,
                        max_usd: float | None = None, prices: str | Path | None = None,
                        usd_flag: str = "--max-usd", prices_flag: str = "--prices") -> Budget:
    """``spec`` is the judge spec (``openai:MODEL@URL``; the model may come from the environment)."""
    from .config import parse_judge_spec

    for name, value in (("calls", max_calls), ("tokens", max_tokens), ("usd", max_usd)):
        if value is not None and value < 0:
            raise ConfigError(f"the budget's max {name} must be >= 0, got {value}")
    price = None
    if prices:
        model = parse_judge_spec(spec)[0]
        table = load_prices(prices)
        if model not in table:
            raise ConfigError(f"{prices}: no price for model {model!r}; known: {', '.join(sorted(table)) or 'none'}")
        price = table[model]
    if max_usd is not None and price is None:
        raise ConfigError(f"{usd_flag} needs {prices_flag} FILE with a price for the judge's model")
    return Budget(max_calls=max_calls, max_tokens=max_tokens, max_cost=max_usd, prices=price)
