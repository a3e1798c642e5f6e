"""Labelled samples -> the values and labels :mod:`.thresholds` sweeps. Every sample is used or named.

Labels (``label=``):

* ``"answerable"`` (default): should the guard answer? A sample's ``answerable`` field (true/false)
  when present; else False when it is tagged ``unanswerable``; else True when it has relevant ids
  (grade >= 1). Otherwise the sample cannot be labelled: an :class:`InputError`, or with
  ``skip_unlabelled=True`` it is left out and *listed* in ``skipped``.
* ``"retrieved_relevant"``: should the guard answer *this retrieval*? True when one of the retrieved
  contexts is a relevant id (grade >= 1); False for unanswerable samples and for retrievals that
  missed every relevant chunk.

Values: the retrieval gate's value is the best context score (contexts without a score are ignored;
a sample with contexts but no score at all is an error: it says nothing about the scale; a sample
with no contexts is "nothing retrieved", never answered). :func:`grade_values` computes the grade
stage's relevancy and support per sample with the guard's own functions and judge.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..errors import ConfigError, InputError
from .grade import grade_answerability, relevancy

LABELS = ("answerable", "retrieved_relevant")


@dataclass(frozen=True, slots=True)
class CalibrationData:
    ids: tuple[str, ...]
    values: tuple[float | None, ...]
    labels: tuple[bool, ...]
    skipped: tuple[str, ...] = field(default=())  #: ids left out with skip_unlabelled=True


def _relevant(sample: Any) -> set[str]:
    return {doc for doc, grade in (sample.relevant_ids or {}).items() if grade >= 1}


def answerable(sample: Any) -> bool | None:
    """The ``answerable`` label of a loaded :class:`~ragauge.data.schema.Sample` (module doc), or None."""
    given = (sample.metadata or {}).get("answerable")
    if isinstance(given, bool):
        return given
    if given is not None:
        raise InputError("'answerable' must be true or false", field="answerable", value=given,
                         hint=f"sample {sample.id!r}")
    if "unanswerable" in sample.tags:
        return False
    if _relevant(sample):
        return True
    return None


def label_of(sample: Any, label: str) -> bool | None:
    if label == "answerable":
        return answerable(sample)
    if label == "retrieved_relevant":
        base = answerable(sample)
        if base is None:
            return None
        relevant = _relevant(sample)
        return base and any(c.id in relevant for c in sample.contexts)
    raise ConfigError(f"label={label!r}; expected one of {LABELS}")


def best_score(sample: Any) -> float | None:
    """Max context score; None when nothing was retrieved. Contexts but no score -> InputError."""
    if not sample.contexts:
        return None
    scores = [c.score for c in sample.contexts if c.score is not None]
    if not scores:
        raise InputError("the sample's contexts have no retrieval scores", field="contexts[].score",
                         hint=f"sample {sample.id!r}: calibrating the score threshold needs the retriever's "
                              "scores; add 'score' to each context")
    return max(scores)


def retrieval_data(samples: Sequence[Any], *, label: str = "answerable",
                   skip_unlabelled: bool = False) -> CalibrationData:
    """Best score and label per sample (module doc)."""
    ids, values, labels, skipped = [], [], [], []
    for s in samples:
        y = label_of(s, label)
        if y is None:
            if skip_unlabelled:
                skipped.append(s.id)
                continue
            raise InputError("cannot tell whether the sample is answerable", field="answerable",
                             hint=f"sample {s.id!r}: add \"answerable\": true/false, relevant_ids, or the tag "
                                  "'unanswerable' (or pass skip_unlabelled=True / --skip-unlabelled)")
        ids.append(s.id)
        values.append(best_score(s))
        labels.append(y)
    return CalibrationData(tuple(ids), tuple(values), tuple(labels), tuple(skipped))


def grade_values(samples: Sequence[Any], data: CalibrationData, *, judge: Any,
                 score_threshold: float | None = None,
                 synonyms_of: Callable[[str], set[str]] | None = None) -> dict[str, list[float | None]]:
    """The grade stage's ``relevancy`` and ``support`` for each sample of ``data`` (same order), over the
    contexts the score threshold keeps (all with ``None``). A sample with no kept context gets ``None``
    (the guard would stop before grading)."""
    by_id = {s.id: s for s in samples}
    out: dict[str, list[float | None]] = {"relevancy": [], "support": []}
    for sid in data.ids:
        s = by_id[sid]
        texts = [c.text for c in s.contexts
                 if score_threshold is None or c.score is None or c.score >= score_threshold]
        if not texts:
            out["relevancy"].append(None)
            out["support"].append(None)
            continue
        rel, _ = relevancy(judge, s.question, texts)
        out["relevancy"].append(None if rel != rel else rel)
        out["support"].append(grade_answerability(judge, s.question, texts, s.language,
                                                  synonyms_of=synonyms_of).score)
    return out
