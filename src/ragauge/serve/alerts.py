"""Alerts: a profile's thresholds over the last N scored requests, firing when the interval is past them.

A rule is one threshold of a ragauge profile (``dashboard``: ``faithfulness >= 0.85``) on a metric the
scorer computes. For each app name and version, the values of the last ``window`` requests scored on
that metric get the interval of ``ragauge eval`` (:func:`ragauge.stats.intervals.metric_ci`, seeded); the
rule **fires** when the whole interval is on the wrong side (``high < 0.85`` for ``>=``), so noise in a
small window does not page anyone, and needs ``min_samples`` values first. It **resolves** when the
interval is no longer entirely on the wrong side.

A change of state is one log line on the ``ragauge.serve.alerts`` logger (WARNING when firing) and, when a
webhook URL is set, one JSON POST; the state lives in the ``alerts`` table, so a firing alert is
announced once (also across restarts) and a webhook that failed is tried again at the next check. The
message links to the offending requests (the dashboard's list, filtered to the low scores) and names up
to 20 of them. The webhook URL is never logged (it often holds a secret), only its host.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Sequence
from urllib.parse import urlencode, urlsplit

import sqlalchemy as sa

from . import store
from .db import alerts, traces

log = logging.getLogger("ragauge.serve.alerts")

_BAD_SIDE = {">=": "below", ">": "below", "<=": "above", "<": "above"}


@dataclass(frozen=True)
class AlertRule:
    """``metric OP value`` over the last ``window`` scored requests of an app version."""

    metric: str
    op: str
    value: float
    window: int = 200
    level: float = 0.95
    min_samples: int = 30

    @property
    def label(self) -> str:
        return f"{self.metric} {self.op} {self.value:g}"


@dataclass(frozen=True)
class WindowVerdict:
    firing: bool
    n: int
    mean: float | None
    low: float | None
    high: float | None
    why: str


def judge_window(values: Sequence[float], rule: AlertRule) -> WindowVerdict:
    """Pure: does the interval of ``values`` lie entirely on the wrong side of the rule's threshold?

    >>> judge_window([0.2] * 40, AlertRule("faithfulness", ">=", 0.85)).firing
    True
    >>> judge_window([0.2] * 5, AlertRule("faithfulness", ">=", 0.85)).why
    'only 5 scored requests (needs 30)'
    """
    import numpy as np

    from ..stats.intervals import metric_ci

    arr = np.asarray(values, dtype=np.float64)
    if arr.size < max(1, rule.min_samples):
        return WindowVerdict(False, int(arr.size), float(arr.mean()) if arr.size else None, None, None,
                             f"only {arr.size} scored requests (needs {rule.min_samples})")
    iv = metric_ci(arr, level=rule.level, seed=0)
    mean = float(arr.mean())
    if iv is None:
        return WindowVerdict(False, int(arr.size), mean, None, None, "no interval")
    below = _BAD_SIDE[rule.op] == "below"
    firing = iv.high < rule.value if below else iv.low > rule.value
    return WindowVerdict(firing, int(arr.size), mean, iv.low, iv.high,
                         f"mean {mean:.3f}, {rule.level:.0%} interval [{iv.low:.3f}, {iv.high:.3f}] "
                         f"{'entirely ' + _BAD_SIDE[rule.op] if firing else 'not entirely ' + _BAD_SIDE[rule.op]} "
                         f"{rule.value:g}")


def rules_from_profile(profile: str, metrics: Sequence[str], *, window: int = 200, level: float = 0.95,
                       min_samples: int = 30) -> list[AlertRule]:
    """The rules of ``profile`` on the ``metrics`` the scorer computes (mean metrics; an ``a|b``
    threshold uses the first alternative that is scored)."""
    from ..gates.profiles import resolve_profile
    from ..metrics.registry import parse_metric

    scored = {parse_metric(m).name for m in metrics}
    rules = []
    for th in resolve_profile(profile).thresholds:
        name = next((m for m in th.metrics if m in scored), None)
        if name is None or parse_metric(name).percentile is not None:
            continue
        rules.append(AlertRule(name, th.op, th.value, window=window, level=level, min_samples=min_samples))
    return rules


def _link(base_url: str | None, rule: AlertRule, app_name: str, app_version: str | None) -> str | None:
    if not base_url:
        return None
    params: dict[str, Any] = {"app_name": app_name}
    if app_version is not None:
        params["app_version"] = app_version
    if _BAD_SIDE[rule.op] == "below":
        params.update(filter="low_score", metric=rule.metric, below=rule.value)
    else:
        params.update(filter="high_score", metric=rule.metric, above=rule.value)
    return f"{base_url.rstrip('/')}/requests?{urlencode(params)}"


class Alerter:
    """Checks every rule per app version each ``interval_s``; ``start()`` runs it in a thread."""

    def __init__(self, engine: sa.Engine, rules: Sequence[AlertRule], *, webhook: str | None = None,
                 base_url: str | None = None, interval_s: float = 30.0, timeout_s: float = 5.0) -> None:
        self.engine = engine
        self.rules = list(rules)
        self.webhook = webhook
        self.base_url = base_url
        self.interval_s = interval_s
        self.timeout_s = timeout_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _versions(self) -> list[tuple[str, str | None]]:
        with self.engine.connect() as conn:
            return [(r.app_name, r.app_version) for r in
                    conn.execute(sa.select(traces.c.app_name, traces.c.app_version).distinct())]

    def check_once(self, now: float | None = None) -> list[dict[str, Any]]:
        """Evaluate every rule now; returns the notifications of state changes (sent or not)."""
        now = time.time() if now is None else now
        events = []
        for app_name, app_version in self._versions():
            for rule in self.rules:
                window = store.recent_scores(self.engine, rule.metric, n=rule.window, app_name=app_name,
                                             app_version=app_version)
                verdict = judge_window([v for _, v in window], rule)
                event = self._transition(rule, app_name, app_version, verdict, window, now)
                if event is not None:
                    events.append(event)
        return events

    def _transition(self, rule: AlertRule, app_name: str, app_version: str | None, verdict: WindowVerdict,
                    window: list[tuple[str, float]], now: float) -> dict[str, Any] | None:
        key = f"{rule.label}|{app_name}|{app_version or ''}"
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(alerts).where(alerts.c.key == key)).first()
        was_firing = row is not None and row.state == "firing"
        pending_send = row is not None and not (row.detail or {}).get("notified", True)
        if verdict.firing == was_firing and not pending_send:
            return None
        if verdict.firing == was_firing and row is not None:  # same state, the last webhook failed: again
            detail = dict(row.detail)
        else:
            bad = [tid for tid, v in window if (v < rule.value if _BAD_SIDE[rule.op] == "below" else v > rule.value)]
            detail = {"status": "firing" if verdict.firing else "resolved", "rule": rule.label,
                      "metric": rule.metric, "threshold": {"op": rule.op, "value": rule.value},
                      "app_name": app_name, "app_version": app_version, "window": rule.window, "n": verdict.n,
                      "mean": verdict.mean, "interval": [verdict.low, verdict.high], "level": rule.level,
                      "why": verdict.why, "link": _link(self.base_url, rule, app_name, app_version),
                      "trace_ids": bad[:20], "at": now}
            detail["text"] = _text(detail)
            level = logging.WARNING if verdict.firing else logging.INFO
            log.log(level, "ragauge alert %s: %s", detail["status"].upper(), detail["text"])
        detail["notified"] = self._send(detail)
        values = {"metric": rule.metric, "app_name": app_name, "app_version": app_version,
                  "state": detail["status"], "updated_at": now, "detail": detail}
        with self.engine.begin() as conn:
            if row is None:
                conn.execute(alerts.insert().values(key=key, since=now, **values))
            elif verdict.firing != was_firing:
                conn.execute(alerts.update().where(alerts.c.key == key).values(since=now, **values))
            else:
                conn.execute(alerts.update().where(alerts.c.key == key).values(**values))
        return detail

    def _send(self, detail: dict[str, Any]) -> bool:
        if not self.webhook:
            return True
        import httpx

        payload = {k: v for k, v in detail.items() if k != "notified"}
        host = urlsplit(self.webhook).netloc
        try:
            resp = httpx.post(self.webhook, json=payload, timeout=self.timeout_s)
        except httpx.HTTPError as exc:
            log.warning("ragauge alert webhook (%s) unreachable: %s; will retry", host, type(exc).__name__)
            return False
        if not 200 <= resp.status_code < 300:
            log.warning("ragauge alert webhook (%s) answered HTTP %d; will retry", host, resp.status_code)
            return False
        return True

    # -- thread ------------------------------------------------------------------------------------
    def _loop(self) -> None:
        while not self._stop.wait(self.interval_s):
            try:
                self.check_once()
            except Exception as exc:  # noqa: BLE001 - e.g. the database is busy for a moment
                log.warning("ragauge alerts: check failed (%s: %s); retrying", type(exc).__name__, exc)

    def start(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._stop.clear()
            self._thread = threading.Thread(target=self._loop, name="ragauge-alerts", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)


def _text(d: dict[str, Any]) -> str:
    version = f" {d['app_version']}" if d["app_version"] else ""
    head = (f"{d['app_name']}{version}: {d['rule']} violated over the last {d['n']} scored requests"
            if d["status"] == "firing" else f"{d['app_name']}{version}: {d['rule']} holds again")
    link = f"; requests: {d['link']}" if d.get("link") else ""
    return f"{head} ({d['why']}){link}"
