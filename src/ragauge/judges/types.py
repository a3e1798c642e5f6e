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


# --- "could not judge this one" ------------------------------------------------------------------
# The door returns lists aligned with the inputs, so a failed item cannot be left out (that would
# misalign the batch) nor become a silent default. A judge puts a marker where the value would be:
# ``claims``/``verify`` return an empty :class:`UnscoredList` carrying the reason and raw reply;
# ``relevance`` returns the :class:`Unscored` itself. Metrics check with :func:`unscored_of` and mark
# the sample unscored with the reason, keeping ``Unscored.artifact()`` in its artifacts.

UNPARSEABLE = "judge reply unparseable"
CALL_FAILED = "judge call failed"


@dataclass(frozen=True, slots=True)
class Unscored:
    reason: str  #: :data:`UNPARSEABLE` or :data:`CALL_FAILED`
    error: str  #: the parser's or the client's message
    raw: str | None = None  #: the last reply, as the server sent it
    prompt: str | None = None  #: prompt id, e.g. "verify.ru@1"

    def artifact(self) -> dict[str, Any]:
        return {"judge_error": f"{self.reason}: {self.error}", "raw_reply": self.raw, "prompt": self.prompt}


class UnscoredList(list):
    """An empty list that says why it is empty."""

    def __init__(self, unscored: Unscored) -> None:
        super().__init__()
        self.unscored = unscored


def unscored_of(value: Any) -> Unscored | None:
    """The :class:`Unscored` marker of a judge result, or ``None`` for a real result."""
    if isinstance(value, Unscored):
        return value
    return getattr(value, "unscored", None) if isinstance(value, UnscoredList) else None
