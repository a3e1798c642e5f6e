"""Noise robustness: does the answer stay correct when irrelevant chunks are mixed into the contexts?

Data: next to each clean sample, a *noisy variant* whose contexts are the clean ones with irrelevant
chunks inserted (``ragauge.data.noise.make_noisy_variants`` builds them; your pipeline then answers
them), marked ``metadata.noise_of = <id of the clean sample>``.

For a noisy variant ``s`` of clean sample ``c``, with ``C`` = answer correctness against the reference
(same judge, :mod:`ragauge.metrics.answer`)::

    noise_robustness(s) = 0                     if the noisy answer states a fact the reference contradicts
                                                and the clean answer did not (a distractor changed a fact)
                        = min(1, C(s) / C(c))   otherwise

1.0 means the distractors cost nothing. The first rule makes the score what the seeds mean by noise
robustness, the share of questions whose answer stays right: one wrong number among three right
facts would otherwise keep ~0.75 of the clean correctness and pass a 0.90 bar on average. Unscored: clean samples themselves ("not a noisy variant"),
a variant whose clean sample is absent, and a clean answer that was not correct to begin with
(``C(c) < 0.5``: there is nothing to keep). The mean is over the scored variants.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..data.schema import Sample
from ._judging import languages
from .answer import _correctness
from .column import ScoreColumn
from .plan import Plan
from .registry import MetricDef
from .spec import MetricSpec

FAMILY = "noise"
MIN_CLEAN_CORRECTNESS = 0.5
#: the reason of a sample that is no noisy variant (the Ray engine fills it in for such samples)
NOT_A_VARIANT_REASON = "not a noisy variant (no metadata.noise_of)"

DEFINITIONS = [
    MetricDef("noise_robustness", FAMILY, "0 when the noisy variant's answer states a fact the reference contradicts and the clean one did not, else min(1, correctness of the variant / correctness of its clean sample); variants marked metadata.noise_of.",
              requires=("answer", "reference", "contexts", "metadata.noise_of"), judge="any"),
]


def compute(specs: Sequence[MetricSpec], samples: Sequence[Sample]) -> Plan[dict[str, ScoreColumn]]:
    n = len(samples)
    index = {s.id: i for i, s in enumerate(samples)}
    clean_of: dict[int, int] = {}
    reasons: list[str | None] = [None] * n
    for i, s in enumerate(samples):
        parent = s.metadata.get("noise_of") if s.metadata else None
        if parent is None:
            reasons[i] = NOT_A_VARIANT_REASON
        elif str(parent) not in index:
            reasons[i] = f"its clean sample {parent!r} is not in the data set"
        else:
            clean_of[i] = index[str(parent)]
    needed = sorted(set(clean_of) | set(clean_of.values()))
    sub = [samples[i] for i in needed]
    corr = yield from _correctness(sub, languages(sub), tuple(s.name for s in specs))
    c_of = {i: (corr.values[k], corr.reasons[k]) for k, i in enumerate(needed)}
    wrong_of = {i: _contradicted(corr.artifacts[k]) for k, i in enumerate(needed)}
    values: list[float | None] = [None] * n
    arts: list[dict[str, Any] | None] = [None] * n
    for i, j in clean_of.items():
        (cn, rn), (cc, rc) = c_of[i], c_of[j]
        if cc is None:
            reasons[i] = f"clean sample's correctness unscored: {rc}"
        elif cc < MIN_CLEAN_CORRECTNESS:
            # the reason stays categorical (it is counted); the value goes to the artifact
            reasons[i] = f"the clean answer is not correct (correctness < {MIN_CLEAN_CORRECTNESS})"
            arts[i] = {"clean_id": samples[j].id, "clean_correctness": cc}
        elif cn is None:
            reasons[i] = f"noisy answer's correctness unscored: {rn}"
        else:
            new_wrong = [c for c in wrong_of[i] if c not in set(wrong_of[j])]
            values[i] = 0.0 if len(wrong_of[i]) > len(wrong_of[j]) else min(1.0, cn / cc)
            art: dict[str, Any] = {"clean_id": samples[j].id, "clean_correctness": cc, "noisy_correctness": cn}
            if len(wrong_of[i]) > len(wrong_of[j]):
                art["new_contradicted"] = new_wrong or wrong_of[i]
                art["reason"] = "the noisy answer states a fact the reference contradicts; the clean one did not"
            arts[i] = art
    col = ScoreColumn(values, reasons, arts)
    return {spec.name: col for spec in specs}


def _contradicted(artifact: dict[str, Any] | None) -> list[str]:
    """The answer's facts the judge found contradicted by the reference (correctness artifact)."""
    claims = (artifact or {}).get("claims") or []
    return [str(c.get("text")) for c in claims if isinstance(c, dict) and c.get("verdict") == "contradicted"]
