"""Who may see the dashboard and send its forms: tokens, the session cookie, CSRF, security headers.

- Two roles: ``admin`` (the API token, ``RAGAUGE_TOKEN``: may also give feedback) and ``read`` (the
  optional dashboard token: pages and exports only).
- A script may send ``Authorization: Bearer <token>``; a person logs in through a form, which sets an
  HttpOnly, SameSite=Strict session cookie ``role.issued.nonce.signature``. The signature is an HMAC
  keyed by a hash of the tokens, so a cookie cannot be forged without them, and changing a token ends
  every session. The cookie never contains a token.
- CSRF: every form carries a hidden ``csrf`` field equal to the ``ragauge_csrf`` cookie (random, one per
  browser session, renewed at login); a POST without both, or with different values, is refused.
- :data:`HEADERS` go on every dashboard response: a strict Content-Security-Policy (no scripts at all,
  styles only from this server), no framing, no referrer, no caching of pages.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass
from typing import Mapping

SESSION_COOKIE = "ragauge_session"
CSRF_COOKIE = "ragauge_csrf"
LANG_COOKIE = "ragauge_lang"
SESSION_MAX_AGE = 12 * 3600

CSP = ("default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
       "frame-ancestors 'none'; base-uri 'none'")
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


@dataclass(frozen=True)
class Tokens:
    """The API token (admin) and the optional read-only dashboard token."""

    api: str
    read: str | None = None

    def role_of(self, given: str) -> str | None:
        """``admin``, ``read`` or ``None`` (compared in constant time)."""
        given_b = given.encode()
        if hmac.compare_digest(given_b, self.api.encode()):
            return "admin"
        if self.read and hmac.compare_digest(given_b, self.read.encode()):
            return "read"
        return None

    def _key(self) -> bytes:
        material = f"ragauge-dashboard-session\0{self.api}\0{self.read or ''}".encode()
        return hashlib.sha256(material).digest()

    def session_value(self, role: str, *, now: float | None = None) -> str:
        issued = int(time.time() if now is None else now)
        body = f"{role}.{issued}.{secrets.token_urlsafe(16)}"
        return f"{body}.{self._sign(body)}"

    def _sign(self, body: str) -> str:
        return hmac.new(self._key(), body.encode(), hashlib.sha256).hexdigest()

    def session_role(self, value: str | None, *, now: float | None = None) -> str | None:
        """The role of a session cookie, or ``None`` when it is missing, forged or older than 12 hours."""
        if not value or value.count(".") != 3:
            return None
        body, _, sig = value.rpartition(".")
        if not hmac.compare_digest(sig.encode(), self._sign(body).encode()):
            return None
        role, issued, _nonce = body.split(".")
        if role not in ("admin", "read") or not issued.isdigit():
            return None
        age = (time.time() if now is None else now) - int(issued)
        return role if 0 <= age <= SESSION_MAX_AGE else None

    def role_of_request(self, headers: Mapping[str, str], cookies: Mapping[str, str]) -> str | None:
        auth = headers.get("authorization", "")
        if auth.startswith("Bearer "):
            return self.role_of(auth[len("Bearer "):])
        return self.session_role(cookies.get(SESSION_COOKIE))


def new_csrf() -> str:
    return secrets.token_urlsafe(32)


def csrf_ok(cookie: str | None, field: str | None) -> bool:
    """The double-submitted token: the form's hidden field equals the cookie (both non-empty)."""
    if not cookie or not field or len(cookie) < 32:
        return False
    return hmac.compare_digest(cookie.encode(), field.encode())


def safe_next(target: str | None) -> str:
    """Where to go after login: a path on this server only (never ``//host`` or ``http://...``).

    >>> safe_next("/requests?low=1"), safe_next("//evil.example/"), safe_next("https://x"), safe_next("/\\\\x")
    ('/requests?low=1', '/', '/', '/')
    """
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    if any(ord(ch) < 32 for ch in target):
        return "/"
    return target


class LoginThrottle:
    """At most ``limit`` failed logins per client address in ``window_s`` seconds (then 429 until the oldest
    failure leaves the window): guessing a token through the form stays slow. In memory, per process."""

    def __init__(self, limit: int = 10, window_s: float = 300.0) -> None:
        self.limit = limit
        self.window_s = window_s
        self._failures: dict[str, list[float]] = {}

    def _recent(self, client: str, now: float) -> list[float]:
        times = [t for t in self._failures.get(client, []) if now - t < self.window_s]
        if times:
            self._failures[client] = times
        else:
            self._failures.pop(client, None)
        return times

    def wait_s(self, client: str, *, now: float | None = None) -> float:
        """Seconds until ``client`` may try again (0 when it may now)."""
        now = time.time() if now is None else now
        times = self._recent(client, now)
        return 0.0 if len(times) < self.limit else max(0.0, times[0] + self.window_s - now)

    def failed(self, client: str, *, now: float | None = None) -> None:
        now = time.time() if now is None else now
        if len(self._failures) > 10_000:  # many addresses: forget the idle ones
            for key in list(self._failures):
                self._recent(key, now)
        self._failures.setdefault(client, []).append(now)
