"""Content-addressed cache of LLM judge replies: one SQLite file, safe for concurrent writers.

Key: ``sha256`` of the canonical JSON of everything that decides the reply -- model, prompt id and
the prompt file's sha256, the rendered messages (the inputs), the expected schema, temperature,
seed and max_tokens (:func:`cache_key`). The endpoint URL, the API key and the structured-output
mode are *not* in the key: the same model asked the same thing gives the same answer through a
gateway or directly, and a server that needed a fallback mode must not make a re-run pay again.

Only replies that *parsed* are kept: the judge writes (and commits) a reply the moment it has parsed
into the expected shape, so a run killed with ``kill -9`` keeps every usable reply it paid for and the
next run resumes from there. A reply that did not parse (prose, truncated JSON, a gateway's error
page) is never cached -- a re-run after the server or model is fixed asks again -- and such a reply
found in an old cache file is removed when it fails to parse (:meth:`ReplyCache.discard`). WAL journal + ``busy_timeout``: many
processes (pytest-xdist workers, parallel CI jobs) can read and write the same file; ``INSERT OR
IGNORE`` makes a race between two writers of one key harmless (same key, same content).
``synchronous=NORMAL``: durable across a process crash, not across a power cut (the cost of losing a
few replies there is a few paid calls, not a wrong number).

Default location: ``$RAGAUGE_CACHE_DIR/llm-replies.sqlite``, else ``~/.cache/ragauge/``. Delete the
file to reset; ``ragauge.judges.llm.cache.ReplyCache(path).stats()`` shows what it holds.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FILENAME = "llm-replies.sqlite"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS replies (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    prompt_id TEXT NOT NULL,
    reply TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    created REAL NOT NULL
)
"""


def cache_key(**parts: Any) -> str:
    """sha256 of the canonical JSON of ``parts`` (sorted keys, no whitespace, UTF-8)."""
    blob = json.dumps(parts, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def default_cache_path() -> Path:
    root = os.environ.get("RAGAUGE_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "ragauge")
    return Path(root) / FILENAME


@dataclass(frozen=True, slots=True)
class CachedReply:
    text: str
    prompt_tokens: int
    completion_tokens: int


class ReplyCache:
    """``get(key)`` / ``put(key, ...)`` over one SQLite file (``path=None``: in memory, this process only)."""

    def __init__(self, path: str | os.PathLike[str] | None) -> None:
        self.path = Path(path) if path is not None else None
        self._lock = threading.Lock()
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(self.path) if self.path else ":memory:", timeout=60,
                                   check_same_thread=False, isolation_level=None)
        if self.path is not None:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA busy_timeout=60000")
        self._db.execute(_SCHEMA)
        self.hits = 0
        self.misses = 0

    def get(self, key: str) -> CachedReply | None:
        with self._lock:
            row = self._db.execute(
                "SELECT reply, prompt_tokens, completion_tokens FROM replies WHERE key = ?", (key,)).fetchone()
        if row is None:
            self.misses += 1
            return None
        self.hits += 1
        return CachedReply(row[0], row[1], row[2])

    def put(self, key: str, *, model: str, prompt_id: str, reply: str, prompt_tokens: int,
            completion_tokens: int) -> None:
        with self._lock:  # autocommit: on disk when this returns
            self._db.execute(
                "INSERT OR IGNORE INTO replies VALUES (?, ?, ?, ?, ?, ?, ?)",
                (key, model, prompt_id, reply, prompt_tokens, completion_tokens, time.time()))

    def discard(self, key: str) -> None:
        """Remove ``key`` (a cached reply that turned out unusable), if present."""
        with self._lock:
            self._db.execute("DELETE FROM replies WHERE key = ?", (key,))

    def stats(self) -> dict[str, Any]:
        with self._lock:
            n, p, c = self._db.execute(
                "SELECT count(*), coalesce(sum(prompt_tokens), 0), coalesce(sum(completion_tokens), 0) FROM replies"
            ).fetchone()
        return {"path": str(self.path) if self.path else None, "replies": n, "prompt_tokens": p,
                "completion_tokens": c, "hits": self.hits, "misses": self.misses}

    def close(self) -> None:
        with self._lock:
            self._db.close()
