"""How the LLM judge says "could not judge this one" without breaking the batched judge door.

The door returns lists aligned with the inputs, so a failed item cannot simply be left out (that
would misalign the batch) nor become a silent default. Instead the judge puts a marker where the
value would be:

- ``claims`` and ``verify`` return an :class:`UnscoredList` -- an *empty* list (so code that does not
  know about it sees "no claims"/"no verdicts" and cannot invent a score) that carries the
  :class:`Unscored` reason and the raw reply;
- ``relevance`` returns the :class:`Unscored` object itself in place of the float.

Metrics check with :func:`unscored_of` and mark the sample ``"unscored: judge reply unparseable"``
(or ``"unscored: judge call failed"``) with ``{"judge_error": ..., "raw_reply": ...}`` in its artifact.
"""

from __future__ import annotations

from ..types import CALL_FAILED, UNPARSEABLE, Unscored, UnscoredList, unscored_of

__all__ = ["CALL_FAILED", "UNPARSEABLE", "Unscored", "UnscoredList", "unscored_of"]
