"""What a metric asks a judge, as data, and what it gets back.

A judge metric does not call a judge: it *declares* per sample what it needs (the claims of a text, those
claims checked against sources, how relevant an answer is, ...), each request tagged with the sample it
is about and the metrics it serves. The engine collects the requests of every metric of a run, hands them
to the judge in one :meth:`~ragauge.judges.base.Judge.answer` call per round, and sends each metric its
:class:`Reply` objects, aligned with its requests. A reply that could not be produced carries
``unscored`` (the reason and the judge's raw reply) instead of a value, so "unscored, with reason" is a
field, never an empty list that happens to carry an error.

Why requests and not method calls: a judge sees everything a round needs at once, so it can share
work (the offline judge embeds each sentence once), merge calls across metrics (the LLM judge extracts
an answer's and its reference's claims in one call and checks every claim list of a sample in one
call), and attribute its usage per request (``metrics``), not per guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Sequence

from .types import Unscored


@dataclass(frozen=True, slots=True, kw_only=True)
class Request:
    """Base of every request: which sample it is about (its id) and which metrics it serves."""

    sample: str = ""
    metrics: tuple[str, ...] = ()

    def key(self) -> tuple[Any, ...] | None:
        """Identical requests (same key) are answered once; ``None``: never merged."""
        return None


def _claim_ids(claims: Sequence[Any]) -> tuple[tuple[str, Any, Any], ...]:
    """What a claim list is known by: each claim's text *and* offsets (the same sentence at another place
    of another answer is another claim: its verdict carries its own offsets)."""
    return tuple((c, None, None) if isinstance(c, str) else
                 (str(getattr(c, "text", c)), getattr(c, "start", None), getattr(c, "end", None)) for c in claims)


@dataclass(frozen=True, slots=True, kw_only=True)
class Refusal(Request):
    """Does ``text`` decline to answer ("В базе нет документов ...", "I don't know")? Reply: ``bool``."""

    text: str
    lang: str | None = None

    def key(self) -> tuple[Any, ...]:
        return ("refusal", self.text, self.lang)


@dataclass(frozen=True, slots=True, kw_only=True)
class Behaviour(Request):
    """What ``text`` did: ``"answer"``, ``"not_found"`` (declined) or ``"clarify"``. Reply: ``str``."""

    text: str
    lang: str | None = None

    def key(self) -> tuple[Any, ...]:
        return ("behaviour", self.text, self.lang)


@dataclass(frozen=True, slots=True, kw_only=True)
class Claims(Request):
    """The atomic claims of ``text`` (objects with ``text``, ``start``, ``end``). ``unit="facts"``: claims
    cut so that each states its own number (what answer correctness counts; a judge without finer units
    gives its claims). ``role`` says which field of the sample the text is (``answer``, ``reference``, or
    another), so a judge that asks for several texts of a sample at once words its call the same way
    whatever order the metrics were named in. Reply: ``list`` of claims (empty: nothing checkable)."""

    text: str
    lang: str | None = None
    unit: Literal["claims", "facts"] = "claims"
    role: Literal["answer", "reference", "other"] = "other"

    def key(self) -> tuple[Any, ...]:
        return ("claims", self.text, self.lang, self.unit)


@dataclass(frozen=True, slots=True, kw_only=True)
class Verify(Request):
    """Each of ``claims`` checked against ``sources`` (together). Reply: ``list[ClaimVerdict]``, one per claim."""

    claims: Sequence[Any]
    sources: Sequence[str]
    lang: str | None = None

    def key(self) -> tuple[Any, ...]:
        return ("verify", _claim_ids(self.claims), tuple(self.sources), self.lang)


@dataclass(frozen=True, slots=True, kw_only=True)
class Agree(Request):
    """Does ``other`` (another answer to ``question``: the reference, or the answer) state each of ``claims``?
    A judge without a decision made for two answers checks ``claims`` against ``other`` as the only source
    (the reply's ``via`` says which: ``"agree"`` or ``"verify"``). Reply: ``list[ClaimVerdict]``."""

    claims: Sequence[Any]
    other: str
    question: str = ""
    lang: str | None = None

    def key(self) -> tuple[Any, ...]:
        return ("agree", _claim_ids(self.claims), self.other, self.question, self.lang)


@dataclass(frozen=True, slots=True, kw_only=True)
class Relevance(Request):
    """How well ``text`` addresses ``question``, in [0, 1]. ``detailed``: with the reasons (intent, value found,
    label) where the judge has them. Reply: a ``dict`` with ``"score"`` (and, detailed, the reasons)."""

    question: str
    text: str
    lang: str | None = None
    detailed: bool = False

    def key(self) -> tuple[Any, ...]:
        return ("relevance", self.question, self.text, self.lang, self.detailed)


@dataclass(frozen=True, slots=True, kw_only=True)
class Similarity(Request):
    """Semantic similarity of ``a`` and ``b`` in [0, 1]. Reply: ``float``."""

    a: str
    b: str

    def key(self) -> tuple[Any, ...]:
        return ("similarity", self.a, self.b)


@dataclass(frozen=True, slots=True, kw_only=True)
class Toxicity(Request):
    """How toxic ``text`` is. Reply: an object with ``probability`` (``None``: not scorable), ``toxic``,
    ``reason``, ``sentence``, ``model``, ``threshold``."""

    text: str
    lang: str | None = None

    def key(self) -> tuple[Any, ...]:
        return ("toxicity", self.text, self.lang)


@dataclass(frozen=True, slots=True, kw_only=True)
class Answerability(Request):
    """Do ``contexts`` answer ``question``? Reply: an object with ``score`` in [0, 1] and ``to_dict()``
    (per question part, the best sentence and what it lacks)."""

    question: str
    contexts: Sequence[str]
    lang: str | None = None

    def key(self) -> tuple[Any, ...]:
        return ("answerability", self.question, tuple(self.contexts), self.lang)


@dataclass(frozen=True, slots=True)
class Reply:
    """The judge's answer to one request: ``value``, or ``unscored`` (then ``value`` is ``None``).

    ``via`` names the judge's way of answering when a request can be answered more than one way
    (``Agree``: ``"agree"`` or ``"verify"``; ``Relevance``: ``"details"`` or ``"score"``)."""

    value: Any  #: the answer; ``None`` when unscored
    unscored: Unscored | None = None
    via: str = ""

    @classmethod
    def failed(cls, why: Unscored) -> "Reply":
        return cls(None, why)


__all__ = ["Agree", "Answerability", "Behaviour", "Claims", "Refusal", "Relevance", "Reply", "Request",
           "Similarity", "Toxicity", "Verify"]
