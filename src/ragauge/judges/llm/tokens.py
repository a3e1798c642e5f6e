"""A rough token count for budgets and dry runs, when the server's tokenizer is not at hand.

``ceil(utf8_bytes / 4)``: about 4 characters a token for English and 2 for Cyrillic (2 bytes a
letter), which is what GPT-style BPE vocabularies give on ordinary prose, a little pessimistic for
Russian on newer tokenizers. Used for estimates only; spent tokens come from the server's ``usage``.

>>> estimate_tokens("The warranty is five years.")
7
>>> estimate_tokens("Гарантия пять лет.")
9
"""

from __future__ import annotations


def estimate_tokens(text: str) -> int:
    n = len(text.encode("utf-8"))
    return (n + 3) // 4
