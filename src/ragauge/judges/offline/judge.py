"""The offline judge: claims, verification, relevance and toxicity with models from PyPI packages.

Assembles the building blocks of this package behind the :class:`ragauge.judges.base.Judge` door (it
answers requests through :class:`~ragauge.judges.base.JudgeBase` with the batched methods below):
``claims.extract_claims`` -> ``verifier.Verifier`` (evidence search + trained head) for verdicts,
the USE encoder for similarity and relevance, and the calibrated toxicity scorer. Work is shared
within a process: claims are cached per text, embeddings per text hash, models load once.
"""

from __future__ import annotations

import json
import os
import threading
from functools import lru_cache
from importlib import resources
from typing import Any, Sequence

import numpy as np

from ..base import OPTIONAL, JudgeBase
from ..types import ClaimVerdict, Provenance
from . import deps


@lru_cache(maxsize=1)
def _relevancy_calibration() -> dict[str, float]:
    text = resources.files(__package__).joinpath("relevancy_calibration.json").read_text(encoding="utf-8")
    return json.loads(text)


@lru_cache(maxsize=1)
def _intent_weights() -> dict:
    """The relevancy combiner's weights (``scripts/calibrate_relevancy.py --intent``; ``intent.combine``)."""
    text = resources.files(__package__).joinpath("relevancy_intent_calibration.json").read_text(encoding="utf-8")
    return json.loads(text)


@lru_cache(maxsize=1)
def _measured_accuracy() -> dict:
    """The verifier's measured accuracy per task type (from benchmarks/judge_accuracy.py), shown in reports
    so users know when to switch to an LLM judge."""
    text = resources.files(__package__).joinpath("verifier_accuracy.json").read_text(encoding="utf-8")
    return json.loads(text)


class OfflineJudge(JudgeBase):
    name = "offline"
    capabilities = frozenset(OPTIONAL)  # facts, agree, relevance details, behaviours, answerability: its own
    _shared: "OfflineJudge | None" = None
    _lock = threading.Lock()

    def __init__(self, *, cache_dir: str | None = None) -> None:
        # An on-disk embedding cache only when asked for: cache_dir, else $RAGAUGE_CACHE_DIR (the folder
        # the LLM judge's reply cache uses, and the one the CI workflow files keep between runs).
        self._cache_dir = cache_dir if cache_dir is not None else (os.environ.get("RAGAUGE_CACHE_DIR") or None)
        self._claims: dict[tuple[str, str | None], list[Any]] = {}

    @classmethod
    def shared(cls) -> "OfflineJudge":
        with cls._lock:
            if cls._shared is None:
                cls._shared = cls()
            return cls._shared

    # --- models, lazily -------------------------------------------------------------------
    @property
    def embedder(self):
        from .embed import Embedder

        return deps.once(("embedder", self._cache_dir), lambda: Embedder(cache_dir=self._cache_dir))

    @property
    def verifier(self):
        from .verifier import Verifier

        return deps.once(("verifier", self._cache_dir), lambda: Verifier(embedder=self.embedder))

    def provenance(self) -> Provenance:
        from .verifier import weights_version

        return Provenance("offline", f"ragauge-verifier + {self.embedder.model_id}", weights_version(),
                          {"measured_accuracy": _measured_accuracy()})

    # --- the door ---------------------------------------------------------------------------
    def claims(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[list[Any]]:
        from .claims import answer_claims

        out = []
        for text, lang in zip(texts, langs):
            key = (text, lang)
            if key not in self._claims:  # a short answer ("Arthur's Magazine") is one claim itself
                self._claims[key] = answer_claims(text, lang=lang)
            out.append(self._claims[key])
        return out

    def facts(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[list[Any]]:
        """Claims cut into facts (``claims.extract_facts``): the units answer correctness counts."""
        from .claims import extract_facts

        return [extract_facts(text, lang=lang) for text, lang in zip(texts, langs)]

    def agree(self, items: Sequence[tuple[Sequence[Any], str, str | None, str | None]]) -> list[list[ClaimVerdict]]:
        """For each ``(claims, other_text, question, lang)``: one verdict per claim, does ``other_text``
        (another answer to ``question``: the reference, or the answer) state it? (``answer_match.agree_many``:
        the verifier plus number, polarity, scope, entity and word-coverage checks over the whole other
        text and the question.)"""
        from .answer_match import agree_many

        return agree_many(items, verifier=self.verifier)

    def verify(self, items: Sequence[tuple[Sequence[Any], Sequence[str], str | None]]) -> list[list[ClaimVerdict]]:
        return self.verifier.verify_many([(list(c), list(s), lang) for c, s, lang in items])

    def refusals(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[bool]:
        from .claims import is_refusal

        return [is_refusal(t, lang) for t, lang in zip(texts, langs)]

    def behaviours(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[str]:
        """What each answer did: ``answer``, ``not_found`` (declined, nothing checkable) or ``clarify``."""
        from .behaviour import answer_behaviour

        return [answer_behaviour(t, lang) for t, lang in zip(texts, langs)]

    def similarity(self, a: Sequence[str], b: Sequence[str]) -> np.ndarray:
        if not a:
            return np.zeros(0)
        vecs = self.embedder.embed(list(a) + list(b))
        u, v = vecs[: len(a)], vecs[len(a):]
        return np.clip((u * v).sum(axis=1), 0.0, 1.0)

    def relevance(self, questions: Sequence[str], answers: Sequence[str]) -> list[float]:
        """Calibrated P(the text addresses the question) from the question-text cosine alone.

        ``sigmoid(a * cos + b)`` with ``a, b`` fitted by ``scripts/calibrate_relevancy.py``. The guard grades
        retrieved chunks with it; the ``answer_relevancy`` metric uses :meth:`relevance_details` (does the
        answer give what was asked), which takes this cosine logit as one of its features.
        """
        cal = _relevancy_calibration()
        cos = self.similarity(questions, answers)
        return [float(x) for x in 1.0 / (1.0 + np.exp(-(cal["a"] * cos + cal["b"])))]

    def relevance_inputs(self, questions: Sequence[str], answers: Sequence[str],
                         langs: Sequence[str | None] | None = None) -> list[tuple[Any, float, float]]:
        """Per pair: ``(intent.relevance_features(q, a), cos_logit, rude)``.

        ``cos_logit = a * cos + b``: the USE question-answer cosine's own calibration
        (``relevancy_calibration.json``); ``rude``: the toxicity probability, looked at only when the
        answer misses a value of the asked type (an insult instead of an answer), else 0."""
        from .intent import relevance_features

        langs = list(langs) if langs is not None else [None] * len(questions)
        cal = _relevancy_calibration()
        cos = self.similarity(questions, answers)
        feats = [relevance_features(q, a, lg) for q, a, lg in zip(questions, answers, langs)]
        rude = [0.0] * len(feats)
        need = [i for i, f in enumerate(feats) if f.value_share < 1.0]
        if need:
            for i, t in zip(need, self.toxicity([answers[i] for i in need], [langs[i] for i in need])):
                rude[i] = float(t.probability or 0.0)
        return [(f, float(cal["a"] * c + cal["b"]), r) for f, c, r in zip(feats, cos, rude)]

    def relevance_details(self, questions: Sequence[str], answers: Sequence[str],
                          langs: Sequence[str | None] | None = None) -> list[dict]:
        """Answer relevancy with its reasons: per pair ``{"score", "label", "intent", "value_found",
        "subject_overlap", "similarity_logit", "evasive", "declines", "rude"}``.

        ``score = intent.combine(...)``: a logistic model over the intent features and the cosine logit,
        weights from ``relevancy_intent_calibration.json``; ``label`` is ``intent.label_of``."""
        from .intent import combine, label_of

        weights = _intent_weights()
        out = []
        for f, logit, rude in self.relevance_inputs(questions, answers, langs):
            score = combine(f, cos_logit=logit, rude=rude, weights=weights)
            out.append({
                "score": score,
                "label": label_of(f, score, rude=rude, threshold=float(weights.get("threshold", 0.5))),
                "intent": list(f.intent.kinds), "value_found": list(f.parts_given),
                "subject_overlap": round(f.overlap, 3), "similarity_logit": round(logit, 3),
                "evasive": f.evasive, "declines": f.declines, "rude": round(rude, 3),
            })
        return out

    def answerability(self, questions: Sequence[str], contexts_lists: Sequence[Sequence[str]],
                      langs: Sequence[str | None] | None = None, *, synonyms_of: Any = None) -> list[Any]:
        """Per question: does its contexts list answer it? An ``answerability.Answerability`` (``score`` in
        [0, 1], per part the best sentence and what it lacks). Rules of :mod:`.answerability`."""
        from .answerability import answerability

        langs = list(langs) if langs is not None else [None] * len(questions)
        syn = synonyms_of or (lambda lemma: {lemma})
        return [answerability(q, list(c), lg, synonyms_of=syn) for q, c, lg in zip(questions, contexts_lists, langs)]

    def toxicity(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[Any]:
        from .toxicity import get_toxicity_scorer

        return get_toxicity_scorer().score(list(texts), list(langs))
