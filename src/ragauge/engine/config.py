"""``EvalConfig``: everything one evaluation needs besides the data, built alike by every front door.

The CLI (``ragauge eval``), the pytest plugin, ``ragauge.toml`` and the Python API all make one of these
(:meth:`EvalConfig.from_project` merges the project file with what was given), and
:func:`ragauge.engine.evaluate.evaluate` reads nothing else. Defaults live here and only here.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Mapping

from ..errors import InputError

DEFAULT_PROFILE = "dashboard"
DEFAULT_SEED = 0
DEFAULT_CI_LEVEL = 0.95
DEFAULT_RESAMPLES = 2000
DEFAULT_MIN_SLICE_N = 5


@dataclass(frozen=True)
class EvalConfig:
    """One evaluation's settings (see :func:`ragauge.evaluate` for each field's meaning).

    ``profile``: a profile name, a ``Profile``, or ``None`` (``"none"`` is read as ``None``).
    ``judge``: a spec (``"auto"``, ``"offline"``, ``"none"``, ``"openai:MODEL@URL"``, ``"cascade:..."``)
    or a judge object.
    """

    metrics: Any = None
    #: metrics computed besides ``metrics`` or the profile's defaults (e.g. diagnostics next to the gated ones)
    also: Any = None
    profile: Any = DEFAULT_PROFILE
    judge: Any = "auto"
    k: int | None = None
    seed: int = DEFAULT_SEED
    ci_level: float = DEFAULT_CI_LEVEL
    n_resamples: int = DEFAULT_RESAMPLES
    user_profiles: Mapping[str, Any] | None = None
    field_map: Mapping[str, str] | None = None
    baseline: Any = None
    margin: float | None = None
    allow_intersection: bool = False
    min_slice_n: int = DEFAULT_MIN_SLICE_N
    lang: str | None = None
    #: which system was evaluated (TruLens' app name / version): recorded in results.json, shown in
    #: reports, used by ``ragauge compare``
    app_name: str | None = None
    app_version: str | None = None
    #: where scoring runs: "local" (this process) or "ray" (``ragauge.scale``: Ray Data blocks, an actor pool)
    engine: str = "local"
    #: Ray cluster address ("auto", "ray://HOST:10001"; default: a local cluster) and scoring actors
    ray_address: str | None = None
    workers: int | None = None
    #: samples per Ray block (the unit a worker reads, scores and a failure redoes); default 256
    batch_size: int | None = None

    def __post_init__(self) -> None:
        if self.engine not in ("local", "ray"):
            raise InputError(f"unknown engine {self.engine!r}", field="engine", hint="use 'local' (default) or 'ray'")
        if self.workers is not None and (isinstance(self.workers, bool) or not isinstance(self.workers, int)
                                         or self.workers < 1):
            raise InputError("workers must be an integer >= 1", field="workers", value=self.workers)
        if self.batch_size is not None and (isinstance(self.batch_size, bool) or not isinstance(self.batch_size, int)
                                            or self.batch_size < 1):
            raise InputError("batch_size (samples per Ray block) must be an integer >= 1", field="batch_size",
                             value=self.batch_size)
        if self.engine == "local" and (self.ray_address is not None or self.workers is not None
                                       or self.batch_size is not None):
            raise InputError("a Ray address, workers and batch_size apply to engine 'ray'", field="engine",
                             hint="add --engine ray (engine='ray'), or leave out --address/--workers/--batch-size")
        for name in ("app_name", "app_version"):
            value = getattr(self, name)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                value = str(value)  # app_version=2 or 1.3 from Python or TOML
                object.__setattr__(self, name, value)
            if value is not None and (not isinstance(value, str) or not value.strip() or len(value) > 200):
                raise InputError(f"{name} must be a non-empty string of at most 200 characters", field=name,
                                 value=value, hint='e.g. app_name="support-bot", app_version="1.3"')
        if isinstance(self.profile, str) and self.profile.strip().lower() == "none":
            object.__setattr__(self, "profile", None)
        if self.lang not in (None, "ru", "en"):
            raise InputError(f"unknown diagnosis language {self.lang!r}", field="lang",
                             hint="use 'ru' or 'en' (or leave it out)")
        if isinstance(self.min_slice_n, bool) or not isinstance(self.min_slice_n, int) or self.min_slice_n < 2:
            raise InputError("the minimum slice size must be an integer >= 2", field="min_slice_n",
                             value=self.min_slice_n)
        if self.margin is not None:
            from ..gates.profiles import check_margin

            object.__setattr__(self, "margin", check_margin(self.margin, where="--margin"))

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @classmethod
    def from_project(cls, project: Any = None, **given: Any) -> "EvalConfig":
        """The project file's settings (a :class:`ragauge.config.Config`; ``None``: defaults), then every
        ``given`` value that is not ``None`` on top (an option left out keeps the file's value)."""
        base: dict[str, Any] = {}
        if project is not None:
            for name in ("profile", "k", "seed", "ci_level", "n_resamples", "app_name", "app_version"):
                value = getattr(project, name, None)
                if value is not None:
                    base[name] = value
            if getattr(project, "metrics", None):
                base["metrics"] = list(project.metrics)
            if getattr(project, "profiles", None):
                base["user_profiles"] = project.profiles
        unknown = set(given) - set(cls.names())
        if unknown:
            raise TypeError(f"unknown evaluation setting(s): {', '.join(sorted(unknown))}")
        base.update({k: v for k, v in given.items() if v is not None})
        return cls(**base)

    def with_(self, **changes: Any) -> "EvalConfig":
        """A copy with ``changes`` (validated again)."""
        return replace(self, **changes)


def as_config(config: EvalConfig | None, options: Mapping[str, Any]) -> EvalConfig:
    """``evaluate(data, config, **options)``: the config (default: defaults) with ``options`` applied."""
    if config is not None and not isinstance(config, EvalConfig):
        raise TypeError(f"config must be an EvalConfig, got {type(config).__name__}")
    unknown = set(options) - set(EvalConfig.names())
    if unknown:
        raise TypeError(f"evaluate() got unknown argument(s): {', '.join(sorted(unknown))}; "
                        f"settings are: {', '.join(EvalConfig.names())}")
    return (config or EvalConfig()).with_(**options) if options else (config or EvalConfig())

