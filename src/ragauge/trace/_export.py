"""Background export: a bounded queue, batches over HTTP, backoff while the collector is away, a spool.

The user's request only calls :meth:`Exporter.submit` (a ``put_nowait``; a full queue counts a drop and
returns). One daemon thread turns finished traces into JSON, posts batches to ``<endpoint>/api/traces``
and handles the answers:

- 2xx: delivered. 422 with per-trace reasons: those traces are rejected (counted, logged once with the
  reason) and the rest is sent again. 413: the batch is split in halves; a single trace too large is
  rejected. Other 400s: the batch is rejected.
- a connection error, a timeout, 401/403/404/408/429 or 5xx: the collector is "away"; the batch goes to
  the spool (or a bounded in-memory list without a spool folder) and nothing is posted until the
  backoff (0.2 s doubling to 30 s) has passed; then the oldest pending batch is tried first.

Nothing here raises into the caller; problems are counters (:meth:`Exporter.stats`) and log lines on the
``ragauge.trace`` logger. The token is never logged.
"""

from __future__ import annotations

import collections
import logging
import queue
import threading
import time
from typing import Any

from ._spool import Spool
from ._wire import batch_body, dumps_trace

log = logging.getLogger("ragauge.trace")

_RETRYABLE = {401, 403, 404, 408, 409, 425, 429}


class _Away(Exception):
    """The collector did not take the batch for a reason that may pass (network, 5xx, auth)."""

    def __init__(self, why: str, lines: list[str]) -> None:
        super().__init__(why)
        self.why, self.lines = why, lines


class Exporter:
    def __init__(self, endpoint: str, *, token: str | None = None, spool_dir: str | None = None,
                 max_queue: int = 10_000, batch_size: int = 256, flush_interval: float = 0.5,
                 timeout: float = 5.0, max_spool_bytes: int = 256 * 1024 * 1024,
                 backoff: float = 0.2, max_backoff: float = 30.0, transport: Any = None,
                 protocol: str = "ragauge", headers: dict[str, str] | None = None) -> None:
        import httpx

        self.url, self._body, content_type = _protocol(endpoint, protocol)
        self.protocol = protocol
        self._base = endpoint.rstrip("/")
        headers = {"Content-Type": content_type, "User-Agent": "ragauge-trace", **(headers or {})}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self._client = httpx.Client(timeout=timeout, headers=headers, transport=transport)
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=max_queue)
        self._spool = Spool(spool_dir, max_bytes=max_spool_bytes) if spool_dir else None
        self._memory: collections.deque[list[str]] = collections.deque()  # pending batches without a spool
        self._memory_n = 0
        self._max_queue = max_queue
        self._batch_size = max(1, batch_size)
        self._interval = flush_interval
        self._backoff0, self._backoff_max = backoff, max_backoff
        self._backoff = 0.0
        self._next_try = 0.0  # monotonic time before which the collector is not bothered
        self._lock = threading.Lock()
        self._counts = {"submitted": 0, "sent": 0, "dropped": 0, "rejected": 0, "spooled": 0, "errors": 0}
        self._warned: dict[str, float] = {}
        self._busy = False
        self._flushing = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ragauge-trace-export", daemon=True)
        self._thread.start()

    # -- the request side --------------------------------------------------------------------------
    def submit(self, item: Any) -> None:
        """Queue a finished trace (anything with ``to_dict()``, or a dict); never blocks, never raises."""
        try:
            self._queue.put_nowait(item)
        except queue.Full:
            self._count("dropped")
        else:
            self._count("submitted")

    # -- counters and logging ----------------------------------------------------------------------
    def _count(self, key: str, n: int = 1) -> None:
        with self._lock:
            self._counts[key] += n

    def _warn(self, key: str, message: str, *args: Any) -> None:
        now = time.monotonic()
        if now - self._warned.get(key, -1e9) >= 60.0:  # one line a minute per kind of trouble
            self._warned[key] = now
            log.warning(message, *args)

    def stats(self) -> dict[str, int]:
        """Counters: submitted, sent, dropped (queue or spool full), rejected (refused by the collector),
        spooled (batches written to disk), errors (failed deliveries that are retried, and SDK faults), queued and pending_batches now."""
        with self._lock:
            out = dict(self._counts)
        out["queued"] = self._queue.qsize()
        out["pending_batches"] = len(self._memory) + (len(self._spool.segments()) if self._spool else 0)
        return out

    # -- the export thread -------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            items = self._take()
            try:
                if items:
                    lines = self._serialize(items)
                    if lines:
                        self._deliver(lines)
                self._resend_pending()
            except Exception as exc:  # noqa: BLE001 - the export thread must outlive any bug
                self._count("errors")
                self._warn("bug", "ragauge.trace: export error (%s: %s)", type(exc).__name__, exc)
            finally:
                for _ in items:
                    self._queue.task_done()
                self._busy = False
            if self._stop.is_set() and self._queue.empty():
                return

    def _take(self) -> list[Any]:
        items: list[Any] = []
        try:
            items.append(self._queue.get(timeout=self._interval))
        except queue.Empty:
            return items
        self._busy = True
        # linger up to flush_interval so that a steady trickle makes a few large batches, not many tiny ones
        deadline = time.monotonic() + self._interval
        while len(items) < self._batch_size and not self._stop.is_set():
            left = deadline - time.monotonic()
            if left <= 0 or self._flushing:
                break
            try:
                items.append(self._queue.get(timeout=min(left, 0.05)))
            except queue.Empty:
                continue
        while len(items) < self._batch_size:
            try:
                items.append(self._queue.get_nowait())
            except queue.Empty:
                break
        return items

    def _serialize(self, items: list[Any]) -> list[str]:
        lines = []
        for item in items:
            try:
                lines.append(dumps_trace(item.to_dict() if hasattr(item, "to_dict") else item))
            except Exception as exc:  # noqa: BLE001
                self._count("errors")
                self._warn("serialize", "ragauge.trace: a trace could not be serialized (%s: %s)",
                           type(exc).__name__, exc)
        return lines

    def _away(self) -> bool:
        return time.monotonic() < self._next_try

    def _mark_away(self, why: str) -> None:
        self._count("errors")  # a failed delivery (connection error, timeout, 5xx): retried, not lost
        self._backoff = min(self._backoff_max, self._backoff * 2 if self._backoff else self._backoff0)
        self._next_try = time.monotonic() + self._backoff
        self._warn("away", "ragauge.trace: collector %s unavailable (%s); keeping traces, retrying in %.1f s",
                   self.url, why, self._backoff)

    def _mark_up(self) -> None:
        self._backoff = 0.0
        self._next_try = 0.0

    def _deliver(self, lines: list[str]) -> None:
        if self._away() or self._has_pending():
            self._keep(lines)  # keep the order: older pending batches go first
            return
        try:
            self._send(lines)
            self._mark_up()
        except _Away as exc:
            self._mark_away(exc.why)
            self._keep(exc.lines)

    def _has_pending(self) -> bool:
        return bool(self._memory) or bool(self._spool and self._spool.segments())

    def _keep(self, lines: list[str]) -> None:
        if self._spool is not None:
            if self._spool.write(lines):
                self._count("spooled")
            else:
                self._count("dropped", len(lines))
                self._warn("spool", "ragauge.trace: spool %s full or not writable; %d traces dropped",
                           self._spool.folder, len(lines))
            return
        with self._lock:
            if self._memory_n + len(lines) > self._max_queue:
                self._counts["dropped"] += len(lines)
                return
            self._memory.append(lines)
            self._memory_n += len(lines)

    def _resend_pending(self, budget_s: float = 1.0) -> None:
        """Send pending batches, oldest first, for up to ``budget_s`` (new traces wait in the queue)."""
        end = time.monotonic() + budget_s
        while not self._away() and self._has_pending() and time.monotonic() < end:
            self._resend_one()

    def _resend_one(self) -> None:
        """Try the oldest pending batch once the backoff has passed."""
        if self._away():
            return
        if self._memory:
            lines = self._memory[0]
            try:
                self._send(lines)
            except _Away as exc:
                self._mark_away(exc.why)
                return
            with self._lock:
                self._memory.popleft()
                self._memory_n -= len(lines)
            self._mark_up()
            return
        if self._spool is None:
            return
        for seg in self._spool.segments()[:1]:
            spooled = self._spool.read(seg)
            if spooled:
                try:
                    self._send(spooled)
                except _Away as exc:
                    self._mark_away(exc.why)
                    return
            self._spool.remove(seg)
            self._mark_up()

    def _send(self, lines: list[str]) -> None:
        """Post ``lines``; returns when every line was stored or rejected; raises _Away otherwise."""
        import httpx

        if not lines:
            return
        try:
            resp = self._client.post(self.url, content=self._body(lines))
        except httpx.HTTPError as exc:
            raise _Away(f"{type(exc).__name__}: {exc}"[:200], lines) from None
        code = resp.status_code
        if 200 <= code < 300:
            self._count("sent", len(lines))
            return
        if code in _RETRYABLE or code >= 500:
            raise _Away(f"HTTP {code}", lines)
        if code == 413:
            if len(lines) == 1:
                self._reject(lines, "the trace is larger than the collector's body limit")
                return
            half = len(lines) // 2
            self._send(lines[:half])
            self._send(lines[half:])
            return
        bad = _bad_indices(resp, len(lines))
        if code == 422 and bad:
            for i, reason in sorted(bad.items()):
                self._reject([lines[i]], reason)
            self._send([line for i, line in enumerate(lines) if i not in bad])
            return
        self._reject(lines, f"HTTP {code}: {resp.text[:300]}")

    def _reject(self, lines: list[str], reason: str) -> None:
        self._count("rejected", len(lines))
        self._warn("rejected:" + reason[:60], "ragauge.trace: the collector refused %d trace(s): %s", len(lines), reason)

    # -- feedback ----------------------------------------------------------------------------------
    def send_feedback(self, trace_id: str, payload: dict[str, Any], timeout: float) -> bool:
        """Deliver the pending traces, then post ``payload`` to ``/api/traces/{id}/feedback``; True when
        stored. A 404 (the trace still on its way) is retried until ``timeout``; nothing raises."""
        import httpx
        from urllib.parse import quote

        if self.protocol != "ragauge":
            self._warn("feedback-protocol", "ragauge.trace: feedback goes to a ragauge collector only "
                       "(protocol=%r); not sent", self.protocol)
            return False
        deadline = time.monotonic() + max(0.0, timeout)
        self.flush(timeout)
        url = f"{self._base}/api/traces/{quote(str(trace_id), safe='')}/feedback"
        while True:
            try:
                resp = self._client.post(url, json=payload, timeout=max(0.1, deadline - time.monotonic()))
                if 200 <= resp.status_code < 300:
                    return True
                why = f"HTTP {resp.status_code}: {resp.text[:200]}"
                retry = resp.status_code in (404, 408, 429) or resp.status_code >= 500
            except httpx.HTTPError as exc:
                why, retry = f"{type(exc).__name__}: {exc}"[:200], True
            if not retry or time.monotonic() + 0.2 > deadline:
                self._warn("feedback", "ragauge.trace: feedback for trace %s not stored (%s)", trace_id, why)
                return False
            time.sleep(0.2)

    # -- flush and shutdown ------------------------------------------------------------------------
    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until everything queued and pending was delivered (True) or ``timeout`` passed (False)."""
        deadline = time.monotonic() + max(0.0, timeout)
        self._next_try = 0.0  # try now, whatever the backoff said
        self._flushing = True  # no lingering for a fuller batch
        try:
            while time.monotonic() < deadline:
                if self._queue.unfinished_tasks == 0 and not self._busy and not self._has_pending():
                    return True
                if not self._thread.is_alive():
                    return False
                time.sleep(0.01)
            return False
        finally:
            self._flushing = False

    def shutdown(self, timeout: float = 5.0) -> bool:
        """Flush for up to ``timeout``, stop the thread; what is left goes to the spool (if any)."""
        delivered = self.flush(timeout)
        self._stop.set()
        self._thread.join(timeout=min(1.0, max(0.0, timeout)))
        left: list[Any] = []
        while True:
            try:
                left.append(self._queue.get_nowait())
            except queue.Empty:
                break
        lines = self._serialize(left)
        if lines:
            self._keep(lines)
        if self._memory_n and self._spool is None:
            self._count("dropped", self._memory_n)  # no spool: in-memory batches end with the process
            self._memory.clear()
            self._memory_n = 0
        if not self._thread.is_alive():
            self._client.close()
        return delivered and not lines


PROTOCOLS = ("ragauge", "otlp-json", "otlp-protobuf")


def _protocol(endpoint: str, protocol: str) -> tuple[str, Any, str]:
    """(url, body encoder, content type) of a protocol: ragauge's ``/api/traces`` or OTLP ``/v1/traces``."""
    base = endpoint.rstrip("/")
    if protocol == "ragauge":
        return base + "/api/traces", batch_body, "application/json"
    from . import _otlp

    url = base if base.endswith("/v1/traces") else base + "/v1/traces"
    if protocol == "otlp-json":
        return url, _otlp.json_body, "application/json"
    return url, _otlp.protobuf_body, "application/x-protobuf"


def _bad_indices(resp: Any, n: int) -> dict[int, str]:
    """``{index: reason}`` from the collector's 422 body ``{"errors": [{"index", "reason"}]}``."""
    try:
        body = resp.json()
    except ValueError:
        return {}
    out: dict[int, str] = {}
    for err in body.get("errors", []) if isinstance(body, dict) else []:
        if isinstance(err, dict) and isinstance(err.get("index"), int) and 0 <= err["index"] < n:
            out[err["index"]] = str(err.get("reason", "invalid"))
    return out
