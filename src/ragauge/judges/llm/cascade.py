"""Cascade judge: the offline verifier decides the claims it is sure about; only uncertain ones go to the LLM.

For every ``verify`` batch:

1. the offline verifier judges every claim (free): P(supported) per claim;
2. a claim whose P lies in the *band* ``[lo, hi]`` is uncertain and escalated; outside the band the
   offline verdict stands (``p > hi``: supported, ``p < lo``: the verifier's own label);
3. escalated claims are sent to the LLM judge in as few calls as possible: items that share a claim
   list (context precision asks about each context alone, context recall about all together) send the
   *union* of their uncertain claims once, and :meth:`LLMJudge.verify` merges them into one call;
4. each verdict says who decided it (:class:`CascadeVerdict`: ``judge`` is ``"offline"`` or ``"llm"``,
   ``offline_probability`` keeps the verifier's P). An LLM failure on an escalated claim (reply
   unparseable after the re-asks, call failed) keeps the offline verdict, marked ``"offline (llm failed)"``
   and counted in ``escalation.llm_failed``; a budget stop raises as in the LLM judge.

Claims (extraction), relevance, refusals, similarity and toxicity come from the offline judge: no
call. So answer relevancy is the offline calibrated score, not the LLM's generated questions.

The default band comes from the verifier's calibration on the dev sets (``benchmarks/cascade.py
--calibration``; docs/llm-judge.md, "Cascade"): where the offline decision is wrong most often.
``band=(0, 1)`` escalates everything (LLM verification with offline claims); an empty band
(``lo > hi``) never calls the LLM.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Sequence

from ...errors import ConfigError
from ..base import JudgeBase
from ..requests import Reply, Request
from ..types import ClaimVerdict, Provenance
from .config import judge_spec_hint, redact_spec
from .outcome import unscored_of
from .usage import serving

#: p(supported) band escalated to the LLM by default (measured: docs/llm-judge.md, "Cascade").
DEFAULT_BAND = (0.4, 0.7)
BAND_ENV = "RAGAUGE_CASCADE_BAND"


@dataclass(frozen=True, slots=True)
class CascadeVerdict(ClaimVerdict):
    """A :class:`ClaimVerdict` that says which judge decided it."""

    judge: str = "offline"  #: "offline", "llm" or "offline (llm failed)"
    offline_probability: float | None = None  #: the verifier's P(supported), whoever decided

    def to_dict(self) -> dict[str, Any]:
        d = ClaimVerdict.to_dict(self)
        d["judge"] = self.judge
        d["offline_probability"] = None if self.offline_probability is None else round(self.offline_probability, 4)
        return d


def parse_band(value: Any, *, where: str = "cascade band") -> tuple[float, float]:
    """``"0.2,0.8"`` or ``(0.2, 0.8)`` -> ``(0.2, 0.8)``; both in [0, 1]. ``lo > hi`` is allowed: nothing escalates.

    >>> parse_band("0.3, 0.7")
    (0.3, 0.7)
    """
    parts = value.split(",") if isinstance(value, str) else list(value) if isinstance(value, (tuple, list)) else None
    try:
        lo, hi = (float(x) for x in parts)  # type: ignore[union-attr]
    except (TypeError, ValueError):
        raise ConfigError(f"{where}: expected two numbers LO,HI in [0, 1] (P(supported) escalated to the LLM), "
                          f"got {value!r}; e.g. 0.2,0.8") from None
    if not (0.0 <= lo <= 1.0 and 0.0 <= hi <= 1.0):
        raise ConfigError(f"{where}: LO and HI must be in [0, 1], got {value!r}")
    return lo, hi


def _as_cascade(v: ClaimVerdict, judge: str, p_off: float, note: str = "") -> CascadeVerdict:
    reason = f"{v.reason} [{note}]" if note else v.reason
    return CascadeVerdict(v.claim, v.start, v.end, v.label, v.probability, v.evidence, reason, v.features,
                          judge=judge, offline_probability=p_off)


class CascadeJudge(JudgeBase):
    """Offline verifier first, the LLM for the claims in the uncertainty band (see the module docstring)."""

    name = "cascade"

    def __init__(self, llm: Any, *, offline: Any = None, band: Any = None) -> None:
        self.llm = llm
        self._offline = offline
        if band is None:
            band = os.environ.get(BAND_ENV) or DEFAULT_BAND
        self.band = parse_band(band, where=BAND_ENV if isinstance(band, str) else "cascade band")
        self.claims_seen = 0
        self.escalated = 0
        self.llm_failed = 0

    @classmethod
    def from_spec(cls, spec: str, *, band: Any = None, offline: Any = None, **kwargs: Any) -> "CascadeJudge":
        """``cascade:openai:MODEL@URL`` (the part after ``cascade:`` is an LLM judge spec); ``kwargs`` go to
        :meth:`LLMJudge.from_spec` (budget, cache, dry_run, config)."""
        from .judge import LLMJudge

        head, _, rest = spec.partition(":")
        if head != "cascade" or not rest:
            raise ConfigError(f"not a cascade judge spec: {redact_spec(spec)!r}; expected 'cascade:openai:MODEL@URL'"
                              f"{judge_spec_hint(spec)}")
        return cls(LLMJudge.from_spec(rest, offline=offline, **kwargs), offline=offline, band=band)

    @property
    def offline(self) -> Any:
        if self._offline is None:
            self._offline = self.llm.offline
        return self._offline

    # passthroughs the CLI and the engine use
    @property
    def plan(self) -> Any:
        return self.llm.plan

    @property
    def budget(self) -> Any:
        return self.llm.budget

    def serving(self, metrics: Sequence[str]) -> Any:
        return self.llm.serving(metrics)

    def escalation(self) -> dict[str, Any]:
        n = self.claims_seen
        return {"band": list(self.band), "claims": n, "escalated": self.escalated,
                "share": None if n == 0 else round(self.escalated / n, 4), "llm_failed": self.llm_failed}

    def usage_report(self) -> dict[str, Any]:
        return {**self.llm.usage_report(), "judge": self.name, "escalation": self.escalation()}

    def provenance(self) -> Provenance:
        off, llm = self.offline.provenance(), self.llm.provenance()
        return Provenance("cascade", f"{off.model} -> {llm.model}", f"{off.version}+{llm.version}", {
            "band": list(self.band), "escalation": self.escalation(),
            "decides": "claims with offline P(supported) in the band go to the LLM; each verdict names its judge",
            "offline": off.to_dict(), "llm": llm.to_dict(),
            "delegated_to_offline": ["claims", "relevance", "refusals", "similarity", "toxicity"]})

    def close(self) -> None:
        self.llm.close()

    @property  # type: ignore[override]
    def capabilities(self) -> frozenset[str]:
        """Relevance details and behaviours: the offline half's, where it has them."""
        return frozenset(m for m in ("relevance_details", "behaviours") if callable(getattr(self.offline, m, None)))

    # --- the door -----------------------------------------------------------------------------
    def _answer_distinct(self, requests: list[Request]) -> list[Reply]:
        """As :class:`~ragauge.judges.base.JudgeBase` (identical requests already answered once, for every
        metric that asked), per set of metrics, so each escalated LLM call is attributed to the metrics of the
        requests it serves and each claim is escalated and counted once."""
        groups: dict[tuple[str, ...], list[int]] = {}
        for i, r in enumerate(requests):
            groups.setdefault(tuple(sorted(set(r.metrics))), []).append(i)
        got: list[Reply | None] = [None] * len(requests)
        for metrics, idx in groups.items():
            with serving(metrics):
                for i, reply in zip(idx, super()._answer_distinct([requests[i] for i in idx])):
                    got[i] = reply
        return got  # type: ignore[return-value]

    def _uncertain(self, p: float) -> bool:
        lo, hi = self.band
        return lo <= p <= hi

    def verify(self, items: Sequence[tuple[Sequence[Any], Sequence[str], str | None]]) -> list[list[ClaimVerdict]]:
        offline = self.offline.verify(items)
        # items sharing a claim list escalate the union of their uncertain claims: one LLM call for the group
        groups: dict[tuple[tuple[str, ...], str | None], set[int]] = {}
        for (claims, _, lang), verdicts in zip(items, offline):
            key = (tuple(v.claim for v in verdicts), lang)
            groups.setdefault(key, set()).update(j for j, v in enumerate(verdicts) if self._uncertain(v.probability))
        asks, owner = [], []
        for i, ((claims, sources, lang), verdicts) in enumerate(zip(items, offline)):
            pick = sorted(groups[(tuple(v.claim for v in verdicts), lang)])
            if pick and any(self._uncertain(verdicts[j].probability) for j in pick):
                asks.append(([list(claims)[j] for j in pick], list(sources), lang))
                owner.append((i, pick))
        answers = self.llm.verify(asks) if asks else []
        by_item = {i: (pick, got) for (i, pick), got in zip(owner, answers)}
        out: list[list[ClaimVerdict]] = []
        for i, verdicts in enumerate(offline):
            pick, got = by_item.get(i, ([], []))
            failed = unscored_of(got)
            row: list[ClaimVerdict] = []
            for j, v in enumerate(verdicts):
                self.claims_seen += 1
                if not self._uncertain(v.probability):
                    row.append(_as_cascade(v, "offline", v.probability))
                    continue
                self.escalated += 1
                if failed is not None or j not in pick or len(got) != len(pick):
                    self.llm_failed += 1
                    note = f"LLM failed: {failed.reason}" if failed is not None else "LLM gave no verdict"
                    row.append(_as_cascade(v, "offline (llm failed)", v.probability, note))
                    continue
                row.append(_as_cascade(got[pick.index(j)], "llm", v.probability))
            out.append(row)
        return out

    def claims(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[list[Any]]:
        return self.offline.claims(texts, langs)

    def relevance(self, questions: Sequence[str], answers: Sequence[str]) -> list[Any]:
        return self.offline.relevance(questions, answers)

    def relevance_details(self, questions: Sequence[str], answers: Sequence[str],
                          langs: Sequence[str | None] | None = None) -> list[dict[str, Any]]:
        """Answer relevancy by what was asked: the offline judge's (the cascade escalates claims, not relevancy)."""
        return self.offline.relevance_details(questions, answers, langs)

    def behaviours(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[str]:
        return self.offline.behaviours(texts, langs)

    def refusals(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[bool]:
        return self.offline.refusals(texts, langs)

    def similarity(self, a: Sequence[str], b: Sequence[str]) -> Any:
        return self.offline.similarity(a, b)

    def toxicity(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[Any]:
        return self.offline.toxicity(texts, langs)


__all__ = ["BAND_ENV", "CascadeJudge", "CascadeVerdict", "DEFAULT_BAND", "parse_band"]
