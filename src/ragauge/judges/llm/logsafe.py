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

__all__ = ["HTTP_LOGGERS", "RedactURLs", "redact_http_logs"]

#: The loggers of httpx and httpcore (1.x) that may write a URL.
HTTP_LOGGERS = ("httpx", "httpcore", "httpcore.connection", "httpcore.http11", "httpcore.http2",
                "httpcore.proxy", "httpcore.socks")
_URL = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s'\"<>]+")


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
