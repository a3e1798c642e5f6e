"""Map text an LLM copied (an evidence quote, a claim) back to character offsets in the original.

An LLM's quote is rarely byte-exact: it changes whitespace, quotes (« » vs " "), dashes, case, ё/е,
or drops a few words. :func:`locate` tries, in order:

1. exact substring;
2. the same after normalisation (casefold, ё->е, every quote/dash/space variant unified, runs of
   whitespace collapsed), mapped back to original offsets;
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


def _normalize(text: str) -> tuple[str, list[int]]:
    """Normalised text and, for each of its characters, the index of the original character."""
    out: list[str] = []
    index: list[int] = []
    prev_space = True
    for i, ch in enumerate(text):
        c = ch.casefold().translate(_TRANSLATE)
        if len(c) != 1:
            c = c[:1] or " "
        if c.isspace():
            if prev_space:
                continue
            c = " "
            prev_space = True
        else:
            prev_space = False
        out.append(c)
        index.append(i)
    while out and out[-1] == " ":
        out.pop()
        index.pop()
    return "".join(out), index


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
