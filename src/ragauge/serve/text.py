"""Text the databases can store: NUL (U+0000) becomes U+FFFD in every string and JSON key.

PostgreSQL refuses NUL in ``text`` and ``jsonb`` (psycopg raises DataError, the request would be a 500 and
the SDK would retry it forever, blocking every later trace of the process). SQLite stores it, but the
two stores must keep the same data, so both get the replacement character.
"""

from __future__ import annotations

from typing import Any

NUL = "\x00"
REPLACEMENT = "\ufffd"


def no_nul(value: Any) -> Any:
    """``value`` with NUL replaced in every string, list item and dict key/value (other values as they are)."""
    if isinstance(value, str):
        return value.replace(NUL, REPLACEMENT) if NUL in value else value
    if isinstance(value, dict):
        return {no_nul(k): no_nul(v) for k, v in value.items()}
    if isinstance(value, list):
        return [no_nul(v) for v in value]
    return value
