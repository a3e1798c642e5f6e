"""``behaviour_match``: did the answer do what the golden case expects (answer, decline, ask to clarify)?

A case declares ``expected_behaviour`` (``metadata.expected_behaviour``, or an ``expected_behaviour``
column, which the loader keeps in metadata; ``ragauge generate`` writes it for sensitive cases):

============================  ==================================================================
expected                      accepted behaviours of the answer
============================  ==================================================================
``answer``                    answers
``not_found`` (``refuse``)    declines ("the knowledge base has nothing on it") or asks to clarify
``clarify``                   asks the user to clarify
``refuse_or_caution``         anything: declines, asks, or answers (with the caution a reviewer checks)
============================  ==================================================================

Per sample: 1 when the answer's behaviour is accepted, else 0; unscored without ``expected_behaviour`` or
without an answer. What the answer did comes from the judge, as a ``Behaviour`` request (one of
``answer``/``not_found``/``clarify`` per text; a judge without its own rules derives it from whether the
text declines -- the offline judge's rules in :mod:`ragauge.judges.offline.claims` also count an opener such
as "Уточните, пожалуйста, ..." as declining -- and a declined answer that asks a question is ``clarify``).
Artifact: ``{expected, did, accepted}``.

    >>> accepted_behaviours("refuse")
    ('not_found', 'clarify')
    >>> behaviour_score("answer", "not_found")
    0.0
"""

from __future__ import annotations

from typing import Any, Sequence

from ..data.schema import Sample
from ..errors import InputError
from ._judging import languages
from ..judges.requests import Behaviour
from .column import ScoreColumn
from .plan import Plan
from .registry import MetricDef
from .spec import MetricSpec

FAMILY = "behaviour"

FIELD = "expected_behaviour"

#: What each expected behaviour accepts of what the answer did (``answer``, ``not_found``, ``clarify``).
ACCEPTED: dict[str, tuple[str, ...]] = {
    "answer": ("answer",),
    "not_found": ("not_found", "clarify"),
    "clarify": ("clarify",),
    "refuse_or_caution": ("not_found", "clarify", "answer"),
}

#: Other names a person writes for the same expectation.
ALIASES: dict[str, str] = {"refuse": "not_found"}

DEFINITIONS = [
    MetricDef("behaviour_match", FAMILY, "1 when the answer behaves as the case's expected_behaviour says "
              "(answer / not_found or refuse / clarify / refuse_or_caution), else 0; unscored without it.",
              requires=("answer", f"metadata.{FIELD}"), judge="any"),
]


def accepted_behaviours(expected: str) -> tuple[str, ...]:
    """The behaviours ``expected`` (a name or an alias) accepts; ``KeyError`` for an unknown name."""
    return ACCEPTED[ALIASES.get(expected, expected)]


def behaviour_score(expected: str, did: str) -> float:
    """1.0 when ``did`` is accepted by ``expected``, else 0.0."""
    return 1.0 if did in accepted_behaviours(expected) else 0.0


def _expected(sample: Sample) -> str | None:
    value = (sample.metadata or {}).get(FIELD)
    if value is None:
        return None
    key = value.strip().lower() if isinstance(value, str) else value
    if not isinstance(key, str) or ALIASES.get(key, key) not in ACCEPTED:
        names = ", ".join(list(ACCEPTED) + list(ALIASES))
        raise InputError(f"sample {sample.id!r}: unknown expected_behaviour {value!r}", field=f"metadata.{FIELD}",
                         value=value, hint=f"use one of {names}")
    return key


def compute(specs: Sequence[MetricSpec], samples: Sequence[Sample]) -> Plan[dict[str, ScoreColumn]]:
    n = len(samples)
    names = tuple(s.name for s in specs)
    vals: list[float | None] = [None] * n
    reasons: list[str | None] = [None] * n
    arts: list[dict[str, Any] | None] = [None] * n
    todo: list[tuple[int, str]] = []
    for i, s in enumerate(samples):
        expected = _expected(s)
        if expected is None:
            reasons[i] = "no expected_behaviour"
        elif s.answer is None:
            reasons[i] = "no answer"
        else:
            todo.append((i, expected))
    langs = languages(samples)
    did = yield [Behaviour(text=samples[i].answer or "", lang=langs[i], sample=samples[i].id, metrics=names)
                 for i, _ in todo]
    for (i, expected), reply in zip(todo, did):
        if reply.unscored is not None:
            reasons[i], arts[i] = reply.unscored.reason, reply.unscored.artifact()
            continue
        vals[i] = behaviour_score(expected, str(reply.value))
        arts[i] = {"expected": expected, "did": reply.value, "accepted": list(accepted_behaviours(expected))}
    return {spec.name: ScoreColumn(vals, reasons, arts) for spec in specs}


__all__ = ["ACCEPTED", "ALIASES", "accepted_behaviours", "behaviour_score", "compute"]
