"""Keep secrets in an endpoint URL out of the HTTP libraries' log lines.

httpx logs every request at INFO (``HTTP Request: POST https://gw/v1/chat/completions?api_key=... "HTTP/1.1
200 OK"``) and httpcore traces connections at DEBUG; an application that turns logging on for its own
reasons would print the key that a gateway takes in the query string (``?api_key=``, ``?code=``) or in
``user:password@``. :func:`redact_http_logs` puts a filter on those loggers that rewrites every URL in a
record with :func:`~.config.redact_url` (userinfo and query values become ``***``) before any handler
sees it. It is installed when an LLM client is created; installing it again changes nothing.

A filter set on a logger is not consulted for records of its child loggers, so the filter goes on
``httpx``, ``httpcore`` and each child logger those packages use (and any other child already created).

>>> import logging
>>> redact_http_logs()
>>> record = logging.LogRecord("httpx", logging.INFO, "", 0, "HTTP Request: %s %s", ("POST",
...     "https://bob:pw@gw.example/v1/chat/completions?api_key=sk-1"), None)
>>> _ = logging.getLogger("httpx").filter(record)
>>> record.getMessage()
'HTTP Request: POST https://***@gw.example/v1/chat/completions?api_key=***'
"""

from __future__ import annotations

import logging
import re

from .config import redact_url

__all__ = ["HTTP_LOGGERS", "RedactURLs", "brief", "redact_http_logs"]

#: The loggers of httpx and httpcore (1.x) that may write a URL.
HTTP_LOGGERS = ("httpx", "httpcore", "httpcore.connection", "httpcore.http11", "httpcore.http2",
                "httpcore.proxy", "httpcore.socks")
_URL = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s'\"<>]+")
#: Things in a reply that look like a credential: a bearer token, ``api_key=...``/``"api_key": "..."``, an
#: OpenAI-style key (``sk-...``).
_SECRET = re.compile(r"(?i)(bearer\s+|\b(?:api[_-]?key|access[_-]?token|token|password|secret)[\"']?\s*[:=]\s*[\"']?)"
                     r"[^\s\"',;&}]+|\bsk-[A-Za-z0-9_\-]{6,}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]+")


def brief(text: str, limit: int = 80) -> str:
    """``text`` safe to quote in one line of an error message: URLs redacted (:func:`~.config.redact_url`),
    credential-like values ``***``, control characters and line breaks a space, cut at ``limit``
    characters (with "...").

    >>> brief("Error: bad key sk-abcdef123456 at https://gw.example/v1?api_key=k\\n" + "x" * 100, 70)
    'Error: bad key *** at https://gw.example/v1?api_key=*** xxxxxxxxxxx...'
    """
    out = _URL.sub(lambda m: redact_url(m.group()), text)
    out = _SECRET.sub(lambda m: (m.group(1) or "") + "***", out)
    out = _CONTROL.sub(" ", out).strip()
    return out if len(out) <= limit else out[: limit - 3] + "..."


class RedactURLs(logging.Filter):
    """Rewrites every URL in a record's message with :func:`~.config.redact_url`; never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record is the logging module's to report, not ours
            return True
        redacted = _URL.sub(lambda m: redact_url(m.group()), message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


_FILTER = RedactURLs()


def redact_http_logs() -> None:
    """Install :class:`RedactURLs` on the httpx and httpcore loggers (idempotent)."""
    known = logging.Logger.manager.loggerDict
    names = set(HTTP_LOGGERS) | {n for n in list(known) if n.startswith(("httpx.", "httpcore."))}
    for name in sorted(names):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactURLs) for f in logger.filters):
            logger.addFilter(_FILTER)
