"""Project configuration: ``ragauge.toml`` or ``[tool.ragauge]`` in ``pyproject.toml``.

Looked up in the current folder and its parents (the first file found wins; ``ragauge.toml`` before
``pyproject.toml`` in the same folder). Keys::

    profile = "dashboard"        # default profile for `ragauge eval`
    k = 10                       # replaces @K in profiles
    metrics = ["ndcg@10", ...]   # default metric list
    seed = 0
    ci_level = 0.95
    n_resamples = 2000
    app_name = "support-bot"     # which system was evaluated (results.json, reports, compare)
    app_version = "1.3"
    [profiles.mybot]             # user profiles (see docs/gates.md)
    extends = "dashboard"
    thresholds = { "ndcg@10" = ">= 0.8" }
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ConfigError

KEYS = {"profile", "k", "metrics", "seed", "ci_level", "n_resamples", "profiles", "app_name", "app_version"}


@dataclass(frozen=True)
class Config:
    path: str | None = None
    profile: str | None = None
    k: int | None = None
    metrics: tuple[str, ...] | None = None
    #: None = not set in the file (the defaults live in ragauge.engine.config)
    seed: int | None = None
    ci_level: float | None = None
    n_resamples: int | None = None
    profiles: dict[str, Any] = field(default_factory=dict)
    app_name: str | None = None
    app_version: str | None = None


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None


def find_config(start: Path | None = None) -> tuple[Path, dict[str, Any]] | None:
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        own = folder / "ragauge.toml"
        if own.is_file():
            return own, _read_toml(own)
        py = folder / "pyproject.toml"
        if py.is_file():
            table = _read_toml(py).get("tool", {}).get("ragauge")
            if table is not None:
                return py, table
    return None


def _typed(where: str, key: str, value: Any, kind: type | tuple[type, ...], what: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, kind):
        raise ConfigError(f"{where}: '{key}' must be {what}, got {value!r}")
    return value


def load_config(path: str | Path | None = None, *, start: Path | None = None) -> Config:
    """Read the config file at ``path``, or find one from ``start`` (cwd); no file -> defaults."""
    if path is not None:
        p = Path(path)
        if not p.is_file():
            raise ConfigError(f"config file {p} does not exist")
        table = _read_toml(p)
        if p.name == "pyproject.toml":
            table = table.get("tool", {}).get("ragauge", {})
        found: tuple[Path, dict[str, Any]] | None = (p, table)
    else:
        found = find_config(start)
    if found is None:
        return Config()
    p, table = found
    where = str(p) + (" [tool.ragauge]" if p.name == "pyproject.toml" else "")
    unknown = set(table) - KEYS
    if unknown:
        raise ConfigError(f"{where}: unknown keys {sorted(unknown)}; allowed: {', '.join(sorted(KEYS))}")
    metrics = table.get("metrics")
    if metrics is not None:
        if not isinstance(metrics, list) or not all(isinstance(m, str) for m in metrics):
            raise ConfigError(f"{where}: 'metrics' must be a list of metric names, got {metrics!r}")
        metrics = tuple(metrics)
    profiles = table.get("profiles", {})
    _typed(where, "profiles", profiles, dict, "a table of profiles")
    return Config(
        path=str(p),
        profile=_typed(where, "profile", table["profile"], str, "a profile name") if "profile" in table else None,
        k=_typed(where, "k", table["k"], int, "a positive integer") if "k" in table else None,
        metrics=metrics,
        seed=_typed(where, "seed", table["seed"], int, "an integer") if "seed" in table else None,
        ci_level=float(_typed(where, "ci_level", table["ci_level"], (int, float), "a number in (0, 1)"))
        if "ci_level" in table else None,
        n_resamples=_typed(where, "n_resamples", table["n_resamples"], int, "a positive integer")
        if "n_resamples" in table else None,
        profiles=profiles,
        app_name=_typed(where, "app_name", table["app_name"], str, "a string") if "app_name" in table else None,
        app_version=str(_typed(where, "app_version", table["app_version"], (str, int, float), "a string"))
        if "app_version" in table else None,
    )
