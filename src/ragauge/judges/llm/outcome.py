"""How the LLM judge says "could not judge this one" without breaking the batched judge door.

The door returns lists aligned with the inputs, so a failed item cannot simply be left out (that
would misalign the batch) nor become a silent default. Instead the judge puts a marker where the
value would be:

- ``claims`` and ``verify`` return an :class:`UnscoredList` -- an *empty* list (so code that does not
  know about it sees "no claims"/"no verdicts" and cannot invent a score) that carries the
  :class:`Unscored` reason and the raw reply;
- ``relevance`` returns the :class:`Unscored` object itself in place of the float.

Metrics check with :func:`unscored_of` and mark the sample ``"unscored: judge reply unparseable"``
(or ``"unscored: judge call failed"``, or for a reply over the size cap :func:`too_large_reason`, e.g.
``"judge reply over max_reply_bytes=1,048,576 (RAGAUGE_LLM_MAX_REPLY_BYTES)"``) with
``{"judge_error": ..., "raw_reply": ...}`` in its artifact.
"""

from __future__ import annotations

from ..types import CALL_FAILED, UNPARSEABLE, Unscored, UnscoredList, unscored_of

__all__ = ["CALL_FAILED", "UNPARSEABLE", "Unscored", "UnscoredList", "too_large_reason", "unscored_of"]


def too_large_reason(max_reply_bytes: int) -> str:
    """The unscored reason of an item whose reply passed the cap: names the cap and the env var that sets it.

    >>> too_large_reason(100_000)
    'judge reply over max_reply_bytes=100,000 (RAGAUGE_LLM_MAX_REPLY_BYTES)'
    """
    from .config import ENV_PREFIX

    return f"judge reply over max_reply_bytes={max_reply_bytes:,} ({ENV_PREFIX}MAX_REPLY_BYTES)"
