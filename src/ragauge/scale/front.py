"""One door for the large-run options of ``ragauge eval``: the monitoring store as input (``--since``,
``--until``; the app name and version filter the traces) and as output (``--to-store``), and Parquet shards
(``--shards DIR``). Without them it is :func:`ragauge.evaluate` itself.

    evaluate_at_scale("sqlite:///ragauge.db", EvalConfig(engine="ray", app_version="1.3"),
                      since="2025-05-01", until="2025-05-02", to_store=True)
"""

from __future__ import annotations

import os
from typing import Any, Callable

from ..errors import ConfigError

__all__ = ["evaluate_at_scale", "store_source"]


def store_source(data: Any, config: Any, *, since: Any = None, until: Any = None) -> Any:
    """``data`` as a :class:`~ragauge.scale.store.StoreSource` when it is a database URL (its window from
    ``since``/``until``, its app from the config's ``app_name``/``app_version``), else ``data`` unchanged
    (a window without a database is refused)."""
    from .store import StoreSource, is_store_url

    if isinstance(data, StoreSource):
        return data
    if not is_store_url(data):
        if since is not None or until is not None:
            raise ConfigError("--since/--until select traces of the monitoring store: give its database URL as DATA "
                              "(e.g. ragauge eval sqlite:///ragauge.db --since 2025-05-01 --until 2025-05-02)")
        return data
    return StoreSource(data, since=since, until=until, app_name=config.app_name, app_version=config.app_version)


def evaluate_at_scale(data: Any, config: Any, *, since: Any = None, until: Any = None,
                      shards: str | os.PathLike[str] | None = None, to_store: bool = False,
                      progress: Callable[[str, int, int], None] | None = None) -> Any:
    """:func:`ragauge.evaluate` with the store as source/sink and shards as output (see the module doc).

    ``shards`` needs ``engine="ray"``; the store works on both engines (locally, the window is read whole)."""
    from ..engine import evaluate  # the package's name, read at call time (tests replace it)
    from .store import StoreSource

    source = store_source(data, config, since=since, until=until)
    if to_store and not isinstance(source, StoreSource):
        raise ConfigError("--to-store writes scores back to the store the traces came from: give its database URL "
                          "as DATA (ragauge eval sqlite:///ragauge.db --since ... --to-store)")
    if config.engine == "ray":
        from ..engine.on_ray import evaluate_on_ray

        return evaluate_on_ray(source, config, progress, shards=shards, to_store=to_store)
    if shards is not None:
        raise ConfigError("--shards writes a Ray run's per-sample results as they come: add --engine ray "
                          "(pip install 'ragauge[ray]'), or leave out --shards (results.json holds them)")
    if not isinstance(source, StoreSource):
        return evaluate(source, config, progress=progress)
    from .io import plan_blocks, read_block
    from .store import judge_label, write_scores

    label = judge_label(config.judge) if to_store else ""  # an LLM judge refused before any work
    fmap = dict(config.field_map) if config.field_map else None
    blocks = list(plan_blocks(source, block_size=1000))  # the whole plan first: no read inside the planning pass
    samples = [s for block in blocks for s in read_block(block, field_map=fmap)]
    if not samples:
        from ..errors import InputError

        raise InputError("no traces in the window", file=source.label,
                         hint="Check --since/--until (received time, UTC without a zone) and the app name/version")
    results = evaluate(samples, config, progress=progress)
    results.source = source.label
    if to_store:
        write_scores(source.url, [s.id for s in results.samples], results.columns, judge=label)
    return results
