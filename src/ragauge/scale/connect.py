"""Joining a Ray cluster with a bounded wait: a wrong ``--address`` is an error in seconds, not a hang.

``ray.init(address=...)`` retries an address where nothing answers for ever (Ray's GCS client logs a
warning every 30 s). So before it, the cluster's port is opened once with a timeout
(``RAGAUGE_RAY_CONNECT_TIMEOUT`` seconds, default 10): nothing listening, a host that does not resolve or
does not answer is a :class:`ClusterUnreachableError` (exit 3, like an endpoint that is down) naming the
address and what to do. ``"auto"`` is resolved as Ray resolves it (``RAY_ADDRESS``, then the cluster this
machine started last) and the result is checked the same way.

A port that answers but is not a Ray cluster still goes to Ray as given (Ray's own errors then apply).
"""

from __future__ import annotations

import logging
import os
import socket
from typing import Any

from ..errors import ConfigError, JudgeError

__all__ = ["ClusterUnreachableError", "connect", "connect_timeout", "resolve_address"]

DEFAULT_TIMEOUT_S = 10.0
CLIENT_PORT = 10001  #: Ray Client's default port (ray://HOST)


class ClusterUnreachableError(JudgeError):
    """The Ray cluster named by ``--address`` did not answer (exit 3: where scoring runs is unavailable)."""


def connect_timeout() -> float:
    """Seconds to wait for the cluster's port: ``RAGAUGE_RAY_CONNECT_TIMEOUT``, default 10."""
    raw = os.environ.get("RAGAUGE_RAY_CONNECT_TIMEOUT")
    if raw is None or not raw.strip():
        return DEFAULT_TIMEOUT_S
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise ConfigError(f"RAGAUGE_RAY_CONNECT_TIMEOUT must be a number of seconds > 0, got {raw!r}")
    return value


def _host_port(address: str) -> tuple[str, int]:
    """``HOST:PORT``, ``ray://HOST[:PORT]``, ``[v6]:PORT`` -> (host, port)."""
    rest = address[len("ray://"):] if address.startswith("ray://") else address
    rest = rest.split("/", 1)[0]
    default = CLIENT_PORT if address.startswith("ray://") else None
    if rest.startswith("["):  # [::1]:6379
        host, _, tail = rest[1:].partition("]")
        port_text = tail[1:] if tail.startswith(":") else ""
    else:
        host, sep, port_text = rest.rpartition(":")
        if not sep:
            host, port_text = rest, ""
    if not port_text and default is not None:
        return host, default
    if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ConfigError(f"--address {address!r} is not a Ray cluster address; use auto, HOST:PORT (the head's "
                          "GCS port, 6379 by default) or ray://HOST:10001 (Ray Client)")
    return host, int(port_text)


def resolve_address(address: str) -> str:
    """``"auto"`` -> the ``HOST:PORT`` Ray would connect to (``RAY_ADDRESS``, else the cluster started last on
    this machine); other addresses as given."""
    if address != "auto":
        return address
    env = os.environ.get("RAY_ADDRESS")
    if env and env != "auto":
        return env
    try:
        from ray._private.services import canonicalize_bootstrap_address

        found = canonicalize_bootstrap_address("auto")
    except Exception:  # noqa: BLE001 - Ray's lookup raises ConnectionError/ValueError when none is found
        found = None
    if not found:
        raise ClusterUnreachableError(
            "--address auto found no running Ray cluster on this machine (no RAY_ADDRESS, no cluster started by "
            "`ray start`). Start one with `ray start --head`, give the head's address (--address HOST:6379 or "
            "ray://HOST:10001), or leave out --address to let ragauge start a local cluster for the run")
    return str(found)


def check_reachable(address: str, *, timeout: float | None = None) -> None:
    """Open the cluster's port once within ``timeout`` seconds, else raise :class:`ClusterUnreachableError`."""
    host, port = _host_port(address)
    wait = connect_timeout() if timeout is None else timeout
    try:
        with socket.create_connection((host, port), timeout=wait):
            return
    except socket.gaierror as exc:
        why = f"the host {host!r} does not resolve ({exc.strerror or exc})"
    except TimeoutError:
        why = f"no answer within {wait:g} s"
    except OSError as exc:
        why = exc.strerror or str(exc)
    client = address.startswith("ray://")
    what = "Ray Client server (ray start --head starts it on port 10001)" if client else "Ray head's GCS port"
    raise ClusterUnreachableError(
        f"cannot reach the Ray cluster at {address!r} ({host}:{port}): {why}. Check that the cluster is up "
        f"(`ray status --address {host}:{6379 if client else port}` on the head) and that {host}:{port} is the "
        f"{what} and reachable from here; or leave out --address to run on a local cluster. "
        f"The wait is RAGAUGE_RAY_CONNECT_TIMEOUT seconds ({wait:g})")


def connect(ray: Any, address: str | None, *, runtime_env: dict[str, Any] | None = None) -> None:
    """``ray.init`` for a run: a local cluster (``address=None``, usage statistics off) or the cluster at
    ``address`` after :func:`check_reachable`. Ray's INFO lines stay out of the user's terminal."""
    if address is None:
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no telemetry from a cluster we start
        ray.init(include_dashboard=False, log_to_driver=False, runtime_env=runtime_env, logging_level=logging.ERROR)
        return
    target = resolve_address(address)
    check_reachable(target)
    ray.init(address=target, log_to_driver=False, logging_level=logging.ERROR)
