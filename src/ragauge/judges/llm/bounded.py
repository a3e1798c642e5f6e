"""A reply body read under a byte cap that holds for the *decoded* bytes, whatever the Content-Encoding.

The client asks for ``Accept-Encoding: identity``, but a server (or a proxy) may compress anyway; httpx
would then inflate each network chunk in one piece, and 50 KB of gzip can inflate to 50 MB before any
size check sees it. :class:`BoundedBody` is fed the raw bytes and inflates them with ``zlib``'s
``max_length``, so at most ``cap + 1`` decoded bytes ever exist: past the cap it raises
:class:`BodyTooLarge`. gzip, deflate (zlib-wrapped or raw) and identity are read; another coding
(br, zstd, ...) raises :class:`BodyUnreadable`, as does a corrupt stream.

>>> import gzip
>>> body = BoundedBody("gzip", cap=10)
>>> body.feed(gzip.compress(b"0" * 1000))
Traceback (most recent call last):
...
ragauge.judges.llm.bounded.BodyTooLarge: more than 10 bytes after gzip decoding
>>> body = BoundedBody("gzip", cap=100)
>>> body.feed(gzip.compress(b'{"ok": 1}')); body.finish()
b'{"ok": 1}'
"""

from __future__ import annotations

import zlib
from typing import Any

__all__ = ["BodyTooLarge", "BodyUnreadable", "BoundedBody"]

_GZIP = ("gzip", "x-gzip")


class BodyTooLarge(Exception):
    """The body passed the cap (decoded bytes, or raw bytes received)."""


class BodyUnreadable(Exception):
    """The body is in a content coding that is not read here, or its compressed stream is corrupt."""


class BoundedBody:
    """Collects a body from raw chunks; ``encoding`` is the Content-Encoding header ("" = identity)."""

    def __init__(self, encoding: str, *, cap: int) -> None:
        codings = [c.strip().lower() for c in encoding.split(",") if c.strip() and c.strip().lower() != "identity"]
        if len(codings) > 1 or (codings and codings[0] not in (*_GZIP, "deflate")):
            raise BodyUnreadable(f"the reply came with Content-Encoding {encoding!r} although 'identity' was asked for; "
                                 "only gzip and deflate can be read")
        self.coding = codings[0] if codings else ""
        self.cap = cap
        self.raw = 0  #: raw bytes received
        self._data = bytearray()
        self._inflate: Any = None  # a zlib decompressor, or None for identity
        if self.coding in _GZIP:
            self._inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif self.coding == "deflate":
            self._inflate = zlib.decompressobj(zlib.MAX_WBITS)
        self._first = True

    def feed(self, chunk: bytes) -> None:
        self.raw += len(chunk)
        if self.raw > self.cap:  # a compressed body over the cap inflates past it anyway
            raise BodyTooLarge(f"more than {self.cap:,} bytes received")
        if self._inflate is None:
            self._data += chunk
        else:
            self._data += self._decode(chunk)
        if len(self._data) > self.cap:
            raise BodyTooLarge(f"more than {self.cap:,} bytes after {self.coding} decoding")

    def _decode(self, chunk: bytes) -> bytes:
        assert self._inflate is not None
        room = self.cap + 1 - len(self._data)  # one byte past the cap is enough to know
        try:
            out: bytes = self._inflate.decompress(chunk, room)
        except zlib.error as exc:
            if self._first and self.coding == "deflate":  # some servers send raw deflate, no zlib header
                self._inflate = zlib.decompressobj(-zlib.MAX_WBITS)
                self._first = False
                return self._decode(chunk)
            raise BodyUnreadable(f"the {self.coding} reply is corrupt: {exc}") from None
        self._first = False
        return out

    def finish(self) -> bytes:
        """The whole decoded body (a stream cut short raises :class:`BodyUnreadable`)."""
        if self._inflate is not None:
            try:
                self._data += self._inflate.flush(self.cap + 1 - len(self._data))
            except zlib.error as exc:
                raise BodyUnreadable(f"the {self.coding} reply is corrupt: {exc}") from None
            if len(self._data) > self.cap:
                raise BodyTooLarge(f"more than {self.cap:,} bytes after {self.coding} decoding")
            if not self._inflate.eof:
                raise BodyUnreadable(f"the {self.coding} reply ended before its compressed stream did")
        return bytes(self._data)
