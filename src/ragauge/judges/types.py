"""What every judge returns: claim-level verdicts with evidence, and the judge's provenance.

Both the offline judge and the LLM judge produce these types, so a metric never knows which judge
it got, and the report shows the same claim-level evidence whatever produced it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Verdict labels. "contradicted" is a stronger "unsupported": the evidence says otherwise.
SUPPORTED, UNSUPPORTED, CONTRADICTED = "supported", "unsupported", "contradicted"
LABELS = (SUPPORTED, UNSUPPORTED, CONTRADICTED)


@dataclass(frozen=True, slots=True)
class EvidenceSpan:
    """``sources[source][start:end] == text``: where a claim's best evidence is."""

    source: int
    start: int
    end: int
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "start": self.start, "end": self.end, "text": self.text}


@dataclass(frozen=True, slots=True)
class ClaimVerdict:
    """One claim of a judged text (``text[start:end] == claim``) and the judge's decision on it.

    ``probability`` is the judge's P(supported) (1.0/0.0 for a judge that only gives labels);
    ``reason`` is a short sentence a person can check, e.g. 'number "52" not in context; context says "52,7"'.
    """

    claim: str
    start: int
    end: int
    label: str
    probability: float
    evidence: EvidenceSpan | None = None
    reason: str = ""
    features: dict[str, float] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if self.label not in LABELS:
            raise ValueError(f"unknown verdict label {self.label!r}; expected one of {LABELS}")

    @property
    def supported(self) -> bool:
        return self.label == SUPPORTED

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.claim, "start": self.start, "end": self.end, "verdict": self.label,
            "probability": round(self.probability, 4),
            "evidence": self.evidence.to_dict() if self.evidence else None, "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class Provenance:
    """Which judge produced a value: stored with every judge metric in results.json."""

    judge: str  #: "offline" or "llm"
    model: str  #: e.g. "ragauge-verifier-1 + USE-multilingual-v3" or "gpt-4o-mini"
    version: str  #: model/weights version or prompt hash
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"judge": self.judge, "model": self.model, "version": self.version, **self.details}
