"""The on-disk spool: batches the collector did not take, kept as JSONL segments until it does.

One segment per batch (``seg-<time_ns>-<pid>-<n>.jsonl``, one serialized trace per line), written whole
or not at all through :func:`ragauge.files.write_text_atomically`, so a kill mid-write leaves no half
segment. Segments are re-sent oldest first, also by the next process that uses the same folder, and
deleted only after the collector accepted them. The collector ignores trace ids it already stored, so a
segment sent twice (two processes, or a reply lost after the commit) is counted once.
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from pathlib import Path

from ..errors import OutputError
from ..files import write_text_atomically

_PREFIX = "seg-"
_SUFFIX = ".jsonl"


class Spool:
    """A bounded folder of JSONL segments (``max_bytes`` in total; a batch that does not fit is refused)."""

    def __init__(self, folder: str | os.PathLike[str], *, max_bytes: int = 256 * 1024 * 1024) -> None:
        self.folder = Path(folder)
        self.max_bytes = int(max_bytes)
        self._counter = itertools.count()
        self._lock = threading.Lock()
        self.folder.mkdir(parents=True, exist_ok=True)

    def segments(self) -> list[Path]:
        """Segment files, oldest first (their names start with the time they were written)."""
        try:
            return sorted(p for p in self.folder.iterdir()
                          if p.name.startswith(_PREFIX) and p.name.endswith(_SUFFIX))
        except OSError:
            return []

    def size(self) -> int:
        total = 0
        for p in self.segments():
            try:
                total += p.stat().st_size
            except OSError:
                pass
        return total

    def write(self, lines: list[str]) -> bool:
        """Store one batch; False when the spool is full or the folder cannot be written."""
        text = "\n".join(lines) + "\n"
        with self._lock:
            if self.size() + len(text.encode("utf-8")) > self.max_bytes:
                return False
            name = f"{_PREFIX}{time.time_ns():020d}-{os.getpid()}-{next(self._counter):06d}{_SUFFIX}"
            try:
                write_text_atomically(self.folder / name, text)
            except OutputError:
                return False
        return True

    @staticmethod
    def read(path: Path) -> list[str] | None:
        """The serialized traces of one segment (None when it vanished: another process sent it)."""
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        return [line for line in text.splitlines() if line.strip()]

    @staticmethod
    def remove(path: Path) -> None:
        try:
            path.unlink()
        except FileNotFoundError:
            pass
