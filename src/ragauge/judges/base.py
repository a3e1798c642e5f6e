"""The one narrow door every judge goes through (offline models, an LLM endpoint, a cascade).

Metrics never call a judge: they declare their needs as requests (:mod:`ragauge.judges.requests`), the
engine hands every request of a round to :meth:`Judge.answer` in one call and sends each metric its
typed :class:`~ragauge.judges.requests.Reply` objects. A judge answers a whole round at once, so it can
share work (the offline judge embeds every sentence once), merge calls across metrics (the LLM judge)
and attribute its usage per request.

:class:`JudgeBase` answers requests with batched methods (``claims``, ``verify``, ``refusals``,
``relevance``, ``similarity``, ``toxicity``) that a judge implements, plus optional finer ones a judge
declares in ``capabilities`` (``facts``, ``agree``, ``relevance_details``, ``behaviours``,
``answerability``); without them the base answers from the required ones, and the reply's ``via`` says
how. Any other object with those methods (a hand-written judge in a test or a notebook) is wrapped by
:func:`get_judge` in :class:`MethodsJudge`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Protocol, Sequence, runtime_checkable

import numpy as np

from ..errors import ConfigError
from .requests import (Agree, Answerability, Behaviour, Claims, Refusal, Relevance, Reply, Request, Similarity,
                       Toxicity, Verify)
from .types import Provenance, unscored_of

#: Finer answers a judge may declare in ``capabilities``; without them :class:`JudgeBase` derives them.
OPTIONAL = ("facts", "agree", "relevance_details", "behaviours", "answerability")


@runtime_checkable
class Judge(Protocol):
    name: str

    def provenance(self) -> Provenance:
        """Which judge, model and version produced the values."""

    def answer(self, requests: Sequence[Request]) -> list[Reply]:
        """One reply per request, aligned; a request it could not answer gets a reply with ``unscored``."""

    def usage_report(self) -> dict[str, Any] | None:
        """Calls, tokens and cost by metric for results.json (``None``: a judge that does not pay per call)."""

    def no_verdict_error(self) -> Exception | None:
        """An error (exit 3) when the judge was asked and produced no verdict at all, else ``None``."""


class JudgeBase:
    """Answers requests with the judge's batched methods; subclasses implement the required ones."""

    name = "judge"
    #: which of :data:`OPTIONAL` this judge answers itself (the others are derived)
    capabilities: frozenset[str] = frozenset()

    # --- the door ----------------------------------------------------------------------------------
    def answer(self, requests: Sequence[Request]) -> list[Reply]:
        """Identical requests are answered once (tagged with every metric that asked); the distinct ones go to
        :meth:`_answer_distinct`."""
        unique: dict[Any, int] = {}
        first: list[int] = []  # request index -> index into `todo`
        todo: list[Request] = []
        for r in requests:
            k = r.key()
            if k is not None and k in unique:
                j = unique[k]
                if not set(r.metrics) <= set(todo[j].metrics):
                    todo[j] = replace(todo[j], metrics=tuple(dict.fromkeys((*todo[j].metrics, *r.metrics))))
                first.append(j)
                continue
            if k is not None:
                unique[k] = len(todo)
            first.append(len(todo))
            todo.append(r)
        got = self._answer_distinct(todo)
        return [got[i] for i in first]

    def _answer_distinct(self, requests: list[Request]) -> list[Reply]:
        """Distinct requests, each kind in one batched call."""
        got: list[Reply | None] = [None] * len(requests)
        for kind, idx in _by_kind(requests).items():
            for i, reply in zip(idx, self._answer_kind(kind, [requests[i] for i in idx])):
                got[i] = reply
        return got  # type: ignore[return-value]

    def _answer_kind(self, kind: tuple[type, str], reqs: list[Any]) -> list[Reply]:
        cls, variant = kind
        has = self.capabilities
        if cls is Refusal:
            return [_reply(bool(v)) for v in self.refusals([r.text for r in reqs], [r.lang for r in reqs])]
        if cls is Behaviour:
            return [_reply(str(v)) for v in self.behaviours([r.text for r in reqs], [r.lang for r in reqs])]
        if cls is Claims:
            fine = variant == "facts" and "facts" in has
            method = self.facts if fine else self.claims
            return [_reply(v, "facts" if fine else "claims")
                    for v in method([r.text for r in reqs], [r.lang for r in reqs])]
        if cls is Verify:
            return [_reply(v) for v in self.verify([(r.claims, list(r.sources), r.lang) for r in reqs])]
        if cls is Agree:
            if "agree" in has:
                return [_reply(v, "agree") for v in self.agree([(r.claims, r.other, r.question, r.lang) for r in reqs])]
            return [_reply(v, "verify") for v in self.verify([(r.claims, [r.other], r.lang) for r in reqs])]
        if cls is Relevance:
            qs, texts, langs = [r.question for r in reqs], [r.text for r in reqs], [r.lang for r in reqs]
            if variant == "detailed" and "relevance_details" in has:
                return [_reply(dict(d), "details") for d in self.relevance_details(qs, texts, langs)]
            return [_reply(v if unscored_of(v) else {"score": float(v)}, "score") for v in self.relevance(qs, texts)]
        if cls is Similarity:
            sims = self.similarity([r.a for r in reqs], [r.b for r in reqs])
            return [_reply(float(v)) for v in sims]
        if cls is Toxicity:
            return [_reply(v) for v in self.toxicity([r.text for r in reqs], [r.lang for r in reqs])]
        if cls is Answerability:
            return [_reply(v) for v in self.answerability([r.question for r in reqs], [list(r.contexts) for r in reqs],
                                                          [r.lang for r in reqs])]
        raise TypeError(f"{type(self).__name__} cannot answer a {cls.__name__} request")

    def provenance(self) -> Provenance | None:
        """Which judge produced the values; ``None`` for a judge that does not say (its columns carry no stamp)."""
        return None

    def usage_report(self) -> dict[str, Any] | None:
        return None

    def no_verdict_error(self) -> Exception | None:
        return None

    # --- required batched methods -------------------------------------------------------------------
    def claims(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[Any]:
        """Atomic claims of each text: objects with ``text``, ``start``, ``end`` (offsets into the text)."""
        raise NotImplementedError

    def verify(self, items: Sequence[tuple[Sequence[Any], Sequence[str], str | None]]) -> list[Any]:
        """For each ``(claims, sources, lang)``: one verdict per claim against the sources."""
        raise NotImplementedError

    def refusals(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[bool]:
        """Whether each text declines to answer."""
        raise NotImplementedError

    def relevance(self, questions: Sequence[str], answers: Sequence[str]) -> list[Any]:
        """How well each answer addresses its question, in [0, 1] (calibrated)."""
        raise NotImplementedError

    def similarity(self, a: Sequence[str], b: Sequence[str]) -> np.ndarray:
        """Semantic similarity of ``a[i]`` and ``b[i]`` in [0, 1]."""
        raise NotImplementedError

    def toxicity(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[Any]:
        """Per text: an object with ``probability`` (None if unscored), ``toxic``, ``reason``, ``sentence``."""
        raise NotImplementedError

    # --- optional ones, derived unless declared in `capabilities` ------------------------------------
    def facts(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[Any]:
        return self.claims(texts, langs)

    def agree(self, items: Sequence[tuple[Sequence[Any], str, str | None, str | None]]) -> list[Any]:
        return self.verify([(c, [other], lang) for c, other, _, lang in items])

    def relevance_details(self, questions: Sequence[str], answers: Sequence[str],
                          langs: Sequence[str | None] | None = None) -> list[dict[str, Any]]:
        return [v if unscored_of(v) else {"score": float(v)} for v in self.relevance(questions, answers)]

    def behaviours(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[str]:
        """``answer``, ``not_found`` or ``clarify``: a declined text that asks the user something asks to clarify."""
        declined = self.refusals(texts, langs)
        return [("clarify" if "?" in t else "not_found") if d else "answer" for t, d in zip(texts, declined)]

    def answerability(self, questions: Sequence[str], contexts_lists: Sequence[Sequence[str]],
                      langs: Sequence[str | None] | None = None) -> list[Any]:
        """The offline rules (:mod:`ragauge.judges.offline.answerability`): no model, no call."""
        from .offline.answerability import answerability

        lgs = list(langs) if langs is not None else [None] * len(questions)
        return [answerability(q, list(c), lg) for q, c, lg in zip(questions, contexts_lists, lgs)]


def _reply(value: Any, via: str = "") -> Reply:
    failed = unscored_of(value)
    return Reply(None, failed, via) if failed is not None else Reply(value, None, via)


def _by_kind(requests: Sequence[Request]) -> dict[tuple[type, str], list[int]]:
    """Request indexes grouped by kind (type plus variant: a Claims unit, a detailed Relevance)."""
    out: dict[tuple[type, str], list[int]] = {}
    for i, r in enumerate(requests):
        variant = r.unit if isinstance(r, Claims) else ("detailed" if isinstance(r, Relevance) and r.detailed else "")
        out.setdefault((type(r), variant), []).append(i)
    return out


class MethodsJudge(JudgeBase):
    """A judge object that is not a :class:`JudgeBase` (written by hand in a test or a notebook): its own
    ``answer`` when it has one, else requests answered through its batched methods. Its optional methods count as declared capabilities;
    anything else is looked up on the object, so it still works where the object itself is used."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = str(getattr(inner, "name", type(inner).__name__))
        self.capabilities = frozenset(m for m in OPTIONAL if callable(getattr(inner, m, None)))

    def _method(self, name: str) -> Any:
        method = getattr(self.inner, name, None)
        if not callable(method):
            raise ConfigError(f"the judge object {type(self.inner).__name__} has no {name}() method, which a metric "
                              f"of this run needs: give it one, or use a built-in judge ('offline' or 'openai:MODEL@URL')")
        return method

    def answer(self, requests: Sequence[Request]) -> Any:
        """The object's own ``answer`` when its class defines one (it speaks requests), else the batched
        methods' (so a proxy that overrides ``verify`` and forwards the rest is asked through its ``verify``)."""
        if callable(getattr(type(self.inner), "answer", None)):
            return self.inner.answer(requests)
        return super().answer(requests)

    def provenance(self) -> Any:
        """The object's provenance, or ``None`` when it has no ``provenance()`` (its columns carry no stamp)."""
        method = getattr(self.inner, "provenance", None)
        return method() if callable(method) else None

    def usage_report(self) -> dict[str, Any] | None:
        method = getattr(self.inner, "usage_report", None)
        return method() if callable(method) else None

    def no_verdict_error(self) -> Exception | None:
        method = getattr(self.inner, "no_verdict_error", None)
        return method() if callable(method) else None

    def claims(self, texts: Sequence[str], langs: Sequence[str | None]) -> Any:
        return self._method("claims")(texts, langs)

    def verify(self, items: Sequence[tuple[Sequence[Any], Sequence[str], str | None]]) -> Any:
        return self._method("verify")(items)

    def refusals(self, texts: Sequence[str], langs: Sequence[str | None]) -> Any:
        return self._method("refusals")(texts, langs)

    def relevance(self, questions: Sequence[str], answers: Sequence[str]) -> Any:
        return self._method("relevance")(questions, answers)

    def similarity(self, a: Sequence[str], b: Sequence[str]) -> Any:
        return self._method("similarity")(a, b)

    def toxicity(self, texts: Sequence[str], langs: Sequence[str | None]) -> Any:
        return self._method("toxicity")(texts, langs)

    def facts(self, texts: Sequence[str], langs: Sequence[str | None]) -> Any:
        return self._method("facts")(texts, langs) if "facts" in self.capabilities else super().facts(texts, langs)

    def agree(self, items: Sequence[tuple[Sequence[Any], str, str | None, str | None]]) -> Any:
        return self._method("agree")(items) if "agree" in self.capabilities else super().agree(items)

    def relevance_details(self, questions: Sequence[str], answers: Sequence[str],
                          langs: Sequence[str | None] | None = None) -> Any:
        if "relevance_details" in self.capabilities:
            return self._method("relevance_details")(questions, answers, langs)
        return super().relevance_details(questions, answers, langs)

    def behaviours(self, texts: Sequence[str], langs: Sequence[str | None]) -> Any:
        if "behaviours" in self.capabilities:
            return self._method("behaviours")(texts, langs)
        return super().behaviours(texts, langs)

    def answerability(self, questions: Sequence[str], contexts_lists: Sequence[Sequence[str]],
                      langs: Sequence[str | None] | None = None) -> Any:
        if "answerability" in self.capabilities:
            return self._method("answerability")(questions, contexts_lists, langs)
        return super().answerability(questions, contexts_lists, langs)

    def __getattr__(self, name: str) -> Any:  # the object's own extras (plan, budget, close, ...)
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)


def get_judge(judge: Any = None) -> JudgeBase:
    """Resolve ``None``/``"offline"`` to the offline judge, ``"openai:..."`` to the LLM judge, ``"cascade:openai:..."``
    to the cascade judge; pass a :class:`JudgeBase` through unchanged and wrap any other object in
    :class:`MethodsJudge` (an object with only the methods the chosen metrics need is accepted)."""
    if judge is None:
        judge = "offline"
    if isinstance(judge, str):
        from .spec import parse_judge

        choice = parse_judge(judge, option="judge")
        if choice.kind in ("auto", "offline"):
            from .offline.judge import OfflineJudge

            return OfflineJudge.shared()
        if choice.kind == "none":
            raise ConfigError("judge 'none' was chosen, but a judge metric was asked for: leave the judge metrics "
                              "out, or choose 'offline' or 'openai:MODEL@URL'")
        if choice.kind == "cascade":
            from .llm.cascade import CascadeJudge

            return CascadeJudge.from_spec(choice.text)
        from .llm.judge import LLMJudge

        return LLMJudge.from_spec(choice.llm or choice.text)
    return judge if isinstance(judge, JudgeBase) else MethodsJudge(judge)
