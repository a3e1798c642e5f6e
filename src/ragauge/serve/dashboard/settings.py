"""The dashboard's settings: one frozen object from the ``settings`` mapping of :func:`mount` and the env.

Keys (all optional): ``token`` (API token; default ``RAGAUGE_TOKEN``), ``read_token`` (read-only dashboard
token; default ``RAGAUGE_DASHBOARD_TOKEN``), ``profile`` (threshold profile, default ``dashboard``; "none"
for no thresholds), ``user_profiles`` (profiles from a ragauge.toml), ``window`` (requests per overview,
200), ``trend_width`` (rolling mean width, 20), ``page_size`` (50), ``low_faithfulness`` and ``slow_ms``
(the list filters' limits; default: the profile's faithfulness threshold and latency_p95 threshold, else
0.85 and 3000 ms), ``export_limit`` (5000), ``secure_cookies`` (mark cookies Secure: behind HTTPS).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Mapping

from ...errors import ConfigError
from ...gates.profiles import Profile, resolve_profile
from .queries import Limits
from .security import Tokens

_KEYS = {"token", "read_token", "profile", "user_profiles", "window", "trend_width", "page_size",
         "low_faithfulness", "slow_ms", "export_limit", "secure_cookies"}


@dataclass(frozen=True)
class DashboardSettings:
    tokens: Tokens
    profile: Profile | None
    limits: Limits
    window: int = 200
    trend_width: int = 20
    page_size: int = 50
    export_limit: int = 5000
    secure_cookies: bool = False

    @classmethod
    def from_mapping(cls, settings: Mapping[str, Any] | None) -> "DashboardSettings":
        s = dict(settings or {})
        unknown = sorted(set(s) - _KEYS)
        if unknown:
            raise ConfigError(f"dashboard settings: unknown keys {unknown}; allowed: {', '.join(sorted(_KEYS))}")
        api = s.get("token") or os.environ.get("RAGAUGE_TOKEN")
        if not api:
            raise ConfigError("the dashboard needs the API token: set RAGAUGE_TOKEN "
                              "(e.g. export RAGAUGE_TOKEN=$(openssl rand -hex 24))")
        read = s.get("read_token") or os.environ.get("RAGAUGE_DASHBOARD_TOKEN") or None
        if read is not None and read == api:
            raise ConfigError("the read-only dashboard token must differ from RAGAUGE_TOKEN "
                              "(else read-only sessions could give feedback)")
        name = s.get("profile", "dashboard")
        profile = None if name in (None, "none") else resolve_profile(str(name), user_profiles=s.get("user_profiles"))
        ints = {k: _positive_int(s, k, d) for k, d in
                (("window", 200), ("trend_width", 20), ("page_size", 50), ("export_limit", 5000))}
        limits = Limits(
            faithfulness_below=_number(s, "low_faithfulness", _threshold(profile, "faithfulness", 0.85)),
            slow_ms=_number(s, "slow_ms", _threshold(profile, "latency_p95", 3000.0)))
        return cls(tokens=Tokens(str(api), None if read is None else str(read)), profile=profile, limits=limits,
                   secure_cookies=bool(s.get("secure_cookies", False)), **ints)


def _threshold(profile: Profile | None, metric: str, default: float) -> float:
    if profile is not None:
        for th in profile.thresholds:
            if metric in th.metrics:
                return th.value
    return default


def _positive_int(s: Mapping[str, Any], key: str, default: int) -> int:
    value = s.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"dashboard settings: {key} must be a whole number >= 1, got {value!r}")
    return value


def _number(s: Mapping[str, Any], key: str, default: float) -> float:
    value = s.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
        raise ConfigError(f"dashboard settings: {key} must be a number >= 0, got {value!r}")
    return float(value)
