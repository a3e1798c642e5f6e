"""Counts in the LLM judge's messages, written so that they read right ("1 call", "2 calls")."""

from __future__ import annotations


def count(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1 (English nouns that take an "s").

    >>> count(1, "call"), count(0, "call"), count(3, "attempt")
    ('1 call', '0 calls', '3 attempts')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def resent_note(resent: int, requests: int) -> str:
    """What a failed call's message adds when some of its requests were not failures but rejections of a
    structured-output mode (or a seed), re-sent without it: they are not counted as attempts, and this says
    so, so the attempts agree with the failed requests counted by kind ("HTTP 500 x6").

    >>> resent_note(0, 6), resent_note(2, 8)
    ('', ' (before them, 2 requests were refused for a structured-output mode or seed and re-sent without it: 8 requests in all)')
    """
    if resent == 0:
        return ""
    return (f" (before them, {count(resent, 'request')} {'was' if resent == 1 else 'were'} refused for a "
            f"structured-output mode or seed and re-sent without it: {count(requests, 'request')} in all)")
