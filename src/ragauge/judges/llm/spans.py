"""Map text an LLM copied (an evidence quote, a claim) back to character offsets in the original.

An LLM's quote is rarely byte-exact: it changes whitespace, quotes (« » vs " "), dashes, case, ё/е,
or drops a few words. :func:`locate` tries, in order:

1. exact substring;
2. the same after normalisation (casefold, ё->е, every quote/dash/space variant unified, runs of
   whitespace collapsed, numbers written one way: digit-group separators dropped -- "1 150",
   "1\u00a0150", "1\u2009150", "10,000", "10'000" -> "1150", "10000" -- and a decimal comma made a
   point, "7,5" -> "7.5"), mapped back to original offsets; then the same with every space and
   quote mark dropped ("5 %" matches "5%", 'ООО "Ромашка"' matches "ООО Ромашка");
3. fuzzy: :class:`difflib.SequenceMatcher` over the normalised texts; the span runs from the first to
   the last matching block, accepted when the matched characters cover at least ``min_ratio`` of the
   needle *and* of the span (so a scattered match over a long passage is refused).

It returns ``(start, end, method)`` with ``haystack[start:end]`` the located text, or ``None``.

>>> locate("гарантия 5 лет", "Срок: Гарантия — 5 лет.")[2]
'fuzzy'
>>> locate("Гарантия  5 лет", "Гарантия 5 лет на всё.")
(0, 14, 'normalized')
"""

from __future__ import annotations

import difflib
import re

_TRANSLATE = str.maketrans({
    "ё": "е", "«": '"', "»": '"', "„": '"', "“": '"', "”": '"', "‘": "'", "’": "'", "`": "'",
    "–": "-", "—": "-", "−": "-", "\u00a0": " ", "\u202f": " ", "\u2009": " ",
})
_WS = re.compile(r"\s+")
#: A number written with digit-group separators (space, no-break, narrow no-break and thin spaces,
#: comma, apostrophe): 1-3 leading digits, then groups of exactly three.
_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?:[ \u00a0\u202f\u2009,'’]\d{3})+(?![\d])")
_DECIMAL_COMMA = re.compile(r"(?<=\d),(?=\d)")
_QUOTE_MARKS = frozenset("\"'")


def _number_edits(text: str) -> tuple[set[int], set[int]]:
    """Positions of ``text`` to drop (digit-group separators) and commas to read as a decimal point."""
    drop: set[int] = set()
    for m in _GROUPED.finditer(text):
        # one separator per number ("1 150 000", "10,000,000"); a mix ("1 150,000") is not a grouping
        seps = {m.group()[i] for i in range(len(m.group())) if not m.group()[i].isdigit()}
        if len(seps) == 1:
            drop.update(m.start() + i for i, ch in enumerate(m.group()) if not ch.isdigit())
    point = {m.start() for m in _DECIMAL_COMMA.finditer(text)} - drop
    return drop, point


def _normalize(text: str, *, compact: bool = False) -> tuple[str, list[int]]:
    """Normalised text and, for each of its characters, the index of the original character.
    ``compact``: spaces and quote marks dropped as well."""
    drop, point = _number_edits(text)
    out: list[str] = []
    index: list[int] = []
    prev_space = True
    for i, ch in enumerate(text):
        if i in drop:
            continue
        c = "." if i in point else ch.casefold().translate(_TRANSLATE)
        if len(c) != 1:
            c = c[:1] or " "
        if c.isspace():
            if prev_space or compact:
                continue
            c = " "
            prev_space = True
        else:
            if compact and c in _QUOTE_MARKS:
                continue
            prev_space = False
        out.append(c)
        index.append(i)
    while out and out[-1] == " ":
        out.pop()
        index.pop()
    return "".join(out), index


def normalize(text: str) -> str:
    """``text`` as :func:`locate` compares it (case, quotes, dashes, spaces and numbers unified).

    >>> normalize("Штраф — 1\u00a0150,5 «руб.»")
    'штраф - 1150.5 "руб."'
    """
    return _normalize(text)[0]


def locate(needle: str, haystack: str, *, min_ratio: float = 0.8) -> tuple[int, int, str] | None:
    needle = needle.strip()
    if not needle or not haystack:
        return None
    at = haystack.find(needle)
    if at >= 0:
        return at, at + len(needle), "exact"
    n_norm, _ = _normalize(needle)
    h_norm, h_index = _normalize(haystack)
    if not n_norm:
        return None
    at = h_norm.find(n_norm)
    if at >= 0:
        return h_index[at], h_index[at + len(n_norm) - 1] + 1, "normalized"
    n_compact, _ = _normalize(needle, compact=True)
    h_compact, c_index = _normalize(haystack, compact=True)
    at = h_compact.find(n_compact) if n_compact else -1
    if at >= 0:
        return c_index[at], c_index[at + len(n_compact) - 1] + 1, "normalized"
    sm = difflib.SequenceMatcher(None, h_norm, n_norm, autojunk=False)
    blocks = [b for b in sm.get_matching_blocks() if b.size >= 3]
    if not blocks:
        return None
    # the densest run of blocks: drop far-away stragglers from either end while that improves density
    matched = sum(b.size for b in blocks)
    while len(blocks) > 1:
        span = blocks[-1].a + blocks[-1].size - blocks[0].a
        if matched >= min_ratio * span:
            break
        first_gap = blocks[1].a - (blocks[0].a + blocks[0].size)
        last_gap = blocks[-1].a - (blocks[-2].a + blocks[-2].size)
        drop = 0 if first_gap > last_gap else -1
        matched -= blocks[drop].size
        blocks.pop(drop)
    start, end = blocks[0].a, blocks[-1].a + blocks[-1].size
    if matched < min_ratio * len(n_norm) or matched < min_ratio * (end - start):
        return None
    return h_index[start], h_index[end - 1] + 1, "fuzzy"


def locate_token(needle: str, haystack: str) -> tuple[int, int, str] | None:
    """``needle`` as a whole token of ``haystack`` after the same normalisation as :func:`locate`:
    ``(start, end, "token")`` in original offsets, or ``None``. For quotes too short to match as a
    substring: neither end may touch a letter or digit, nor continue a number ("5" is not in "15",
    "900", "7,5" or "5.5"); a needle without a letter or digit ("$", "%") is found nowhere.

    >>> locate_token("5", "Гарантия 5 лет."), locate_token("5", "It costs $15."), locate_token("$5", "It costs $900.")
    ((9, 10, 'token'), None, None)
    """
    n_norm, _ = _normalize(needle.strip())
    if not any(ch.isalnum() for ch in n_norm) or not haystack:  # "$", "%": no token to look for
        return None
    h_norm, h_index = _normalize(haystack)
    left = r"(?<!\w)(?<!\d[.,])" if n_norm[0].isalnum() else ""
    right = r"(?!\w)(?![.,]\d)" if n_norm[-1].isalnum() else ""
    m = re.search(left + re.escape(n_norm) + right, h_norm)
    if m is None:
        return None
    return h_index[m.start()], h_index[m.end() - 1] + 1, "token"


def locate_in_sources(quote: str, sources: list[str], prefer: tuple[int, ...] = (),
                      *, min_ratio: float = 0.8) -> tuple[int, int, int, str] | None:
    """``(source, start, end, method)`` of ``quote``: the cited sources first, then the others."""
    order = [i for i in prefer if 0 <= i < len(sources)] + [i for i in range(len(sources)) if i not in prefer]
    best = None
    for i in order:
        hit = locate(quote, sources[i], min_ratio=min_ratio)
        if hit is None:
            continue
        if hit[2] != "fuzzy":
            return i, hit[0], hit[1], hit[2]
        if best is None:
            best = (i, hit[0], hit[1], hit[2])
    return best
