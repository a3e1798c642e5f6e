"""Post-generation check helpers: remove unsupported claim spans by offsets, pick citations. Pure."""

from __future__ import annotations

import re
from typing import Any, Sequence

from .result import Chunk


def strip_spans(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """``text`` without ``text[start:end]`` for each span, whitespace tidied.

    >>> strip_spans("A is 5. B is 7. C.", [(8, 15)])
    'A is 5. C.'
    """
    out = text
    for start, end in sorted(set(spans), reverse=True):
        out = out[:start] + out[end:]
    out = re.sub(r"[ \t]{2,}", " ", out)
    out = re.sub(r" +([.,;:!?])", r"\1", out)
    out = re.sub(r"\n{3,}", "\n\n", out)
    return out.strip()


def citations(chunks: Sequence[Chunk], verdicts: Sequence[Any] | None = None) -> list[dict[str, Any]]:
    """One citation per chunk (id, score, metadata) from retrieval, never from the model's text.

    With post-check verdicts, only chunks that are evidence for a supported claim are cited (all chunks
    when none is, e.g. when the verdicts carry no evidence).
    """
    used = list(range(len(chunks)))
    if verdicts:
        evidence = sorted({v.evidence.source for v in verdicts
                           if getattr(v, "supported", False) and getattr(v, "evidence", None) is not None
                           and 0 <= v.evidence.source < len(chunks)})
        if evidence:
            used = evidence
    return [{"id": chunks[i].id, "score": chunks[i].score, "metadata": dict(chunks[i].metadata)} for i in used]
