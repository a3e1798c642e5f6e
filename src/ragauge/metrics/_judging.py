"""Shared steps of judge metrics: languages, claims and verdicts for a batch, per-sample artifacts."""

from __future__ import annotations

from typing import Any, Sequence

from ..data.schema import Sample
from ..judges.types import ClaimVerdict


def languages(samples: Sequence[Sample]) -> list[str | None]:
    """The declared language of each sample, else detected from its answer/question (script-based)."""
    from ..lang import detect_language

    return [s.language or detect_language(s.answer or s.question or "") for s in samples]


def claims_artifact(verdicts: Sequence[ClaimVerdict], **extra: Any) -> dict[str, Any]:
    return {"claims": [v.to_dict() for v in verdicts], **extra}
