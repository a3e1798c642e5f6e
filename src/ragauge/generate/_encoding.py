"""Bytes to text for .txt/.md/.csv/.html: UTF-8 (with or without BOM), UTF-16 with BOM, cp1251 fallback.

cp1251 decodes almost any byte string, so it is accepted only when the non-ASCII characters it
yields are mostly Cyrillic; otherwise the file is reported with a hint to re-save it as UTF-8.
"""

from __future__ import annotations

import codecs
import re

from ragauge.errors import InputError


def _cyrillic_share(text: str) -> float:
    non_ascii = [c for c in text if ord(c) > 127]
    if not non_ascii:
        return 1.0
    cyr = sum(1 for c in non_ascii if "\u0400" <= c <= "\u04ff" or c in "«»—–№")
    return cyr / len(non_ascii)


_MIXED_WORD = re.compile(r"(?=\w*[A-Za-z])(?=\w*[А-Яа-яЁё])\w+")


def _plausible_russian(text: str) -> bool:
    """Mostly Cyrillic outside ASCII, and few words mixing Latin and Cyrillic letters ("trйs" is
    French cp1252 read as cp1251)."""
    words = re.findall(r"\w+", text)
    mixed = sum(1 for w in words if _MIXED_WORD.fullmatch(w))
    return _cyrillic_share(text) >= 0.8 and mixed <= max(1, len(words) // 50)


def decode_bytes(data: bytes, *, file: str) -> tuple[str, str]:
    """Return ``(text, encoding)``; raise :class:`InputError` when no supported encoding fits.

    >>> decode_bytes("Цена".encode("cp1251"), file="x.txt")
    ('Цена', 'cp1251')
    >>> decode_bytes(codecs.BOM_UTF8 + "Цена".encode(), file="x.txt")
    ('Цена', 'utf-8-sig')
    """
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8):].decode("utf-8", errors="replace"), "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16"), "utf-16"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("cp1251")
    except UnicodeDecodeError:
        text = ""
    if text and _plausible_russian(text):
        return text, "cp1251"
    raise InputError("the file is neither UTF-8 nor Russian cp1251 text", file=file,
                     hint="Re-save it as UTF-8 (e.g. `iconv -f SOURCE -t UTF-8`)")
