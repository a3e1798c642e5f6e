"""The pipeline contract at run time: a threshold at every stage; below it the next step does not run.

Stages, in order (each appends a :class:`StageRecord`): ``rewrite`` -> ``synonyms`` -> ``retrieve``
(filters go *into* the retriever call) -> ``score_threshold`` (all chunks below -> ``no_answer``, no
generation) -> ``grade`` (the current edition of each document kept, superseded ones left out; context
relevancy and answerability -- the ``support`` gate: does the context state a value of the asked type
about the question's subject -- below the gates -> a clarifying question, no generation) -> ``generate`` -> ``post_check`` (faithfulness: off / flag / block / strip).

The pipeline is written once, as a generator that yields the user calls it needs; :meth:`Guard.run`
drives it synchronously and :meth:`Guard.arun` awaits the calls, so the two cannot drift apart.
"""

from __future__ import annotations

import inspect
import time
from typing import Any, Callable, Generator, Mapping, Sequence

from ..errors import ConfigError
from ..judges.base import get_judge
from ..judges.types import unscored_of
from . import templates
from .callables import RetrieverCall, generate_kwargs, is_async
from .editions import prefer_current
from .grade import grade_answerability, relevancy
from .postcheck import citations, strip_spans
from .result import Chunk, GuardResult, StageRecord, merge_chunks, normalize_chunks
from .synonyms import SynonymDictionary
from .trace import Emitter, Sink, default_sink, resolve_sink

POST_CHECKS = ("off", "flag", "block", "strip")
DEFAULT_GRADE_THRESHOLDS = {"relevancy": 0.7, "support": 0.8}

_Call = tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]
_Pipeline = Generator[_Call, Any, GuardResult]


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000.0


class Guard:
    """Wraps a team's own RAG callables with the contract's gates.

    ``retrieve(query, filters, k)`` returns items (strings, dicts or objects with id/text/score/metadata);
    ``generate(question, contexts)`` gets the original question and the context texts, plus
    ``rewritten=`` when it declares that parameter; ``rewrite(question)`` returns a new query.
    """

    def __init__(
        self,
        retrieve: Callable[..., Any],
        generate: Callable[..., Any],
        *,
        rewrite: Callable[[str], Any] | None = None,
        synonyms: SynonymDictionary | Mapping[str, Sequence[str]] | str | None = None,
        score_threshold: float | None = 0.7,
        grade: bool = True,
        grade_thresholds: Mapping[str, float] | None = None,
        post_check: str = "off",
        judge: Any = "offline",
        lang: str | None = None,
        trace: Sink | str | bool | None = None,
    ) -> None:
        if not callable(generate):
            raise ConfigError(f"generate must be a callable (got {generate!r})")
        if rewrite is not None and not callable(rewrite):
            raise ConfigError(f"rewrite must be a callable or None (got {rewrite!r})")
        if post_check not in POST_CHECKS:
            raise ConfigError(f"post_check={post_check!r}; expected one of {POST_CHECKS}")
        thresholds = dict(DEFAULT_GRADE_THRESHOLDS if grade_thresholds is None else grade_thresholds)
        unknown = set(thresholds) - set(DEFAULT_GRADE_THRESHOLDS)
        if unknown:
            raise ConfigError(f"unknown grade threshold(s) {sorted(unknown)}; expected keys "
                              f"{sorted(DEFAULT_GRADE_THRESHOLDS)}")
        for name, value in [("score_threshold", score_threshold), *thresholds.items()]:
            if value is not None and not isinstance(value, (int, float)):
                raise ConfigError(f"{name} must be a number or None (got {value!r})")
        self.retriever = RetrieverCall.inspect(retrieve)
        self.generate = generate
        self.rewrite = rewrite
        self.synonyms = SynonymDictionary.load(synonyms) if synonyms is not None else None
        self.score_threshold = score_threshold
        self.grade = grade
        self.grade_thresholds = {**DEFAULT_GRADE_THRESHOLDS, **thresholds}
        self.post_check = post_check
        self._judge_spec = judge
        self._judge: Any = None
        self.lang = lang
        self.is_async = any(is_async(f) for f in (retrieve, generate, rewrite))
        self._trace_sink = resolve_sink(trace) if trace is not None else None
        self._trace_default = trace is None  # read the process default at run time, not here

    @property
    def judge(self) -> Any:
        if self._judge is None:  # lazily: a guard with grade=False, post_check="off" never loads models
            self._judge = get_judge(self._judge_spec)
        return self._judge

    # --- front doors ------------------------------------------------------------------------
    def _emitter(self, request_id: str | None, question: str | None = None) -> Emitter | None:
        sink = self._trace_sink if self._trace_sink is not None else (
            default_sink() if self._trace_default else None)
        return None if sink is None else Emitter(sink, request_id=request_id, question=question)

    def thresholds(self, stage: str | None = None) -> dict[str, Any]:
        """The thresholds a stage decides by (all of them for ``stage=None``), as trace events record them."""
        table = {"score_threshold": {"score": self.score_threshold}, "grade": dict(self.grade_thresholds),
                 "post_check": {"mode": self.post_check}}
        if stage is None:
            return {f"{name}.{key}": value for name, values in table.items() for key, value in values.items()}
        return table.get(stage, {})

    def run(self, question: str, *, filters: Any = None, k: int = 5, request_id: str | None = None) -> GuardResult:
        """Guard one question with synchronous callables. ``request_id`` tags the trace events."""
        if self.is_async:
            raise ConfigError("retrieve/generate/rewrite are async; use `await guard.arun(...)`")
        emitter = self._emitter(request_id, question)
        pipeline = self._pipeline(question, filters, k, emitter)
        value: Any = None
        try:
            while True:
                fn, args, kwargs = pipeline.send(value)
                value = fn(*args, **kwargs)
        except StopIteration as stop:
            return stop.value
        except Exception as exc:
            if emitter is not None:
                emitter.error(exc)
            raise

    async def arun(self, question: str, *, filters: Any = None, k: int = 5,
                   request_id: str | None = None) -> GuardResult:
        """Guard one question; async callables are awaited, sync ones called directly."""
        emitter = self._emitter(request_id, question)
        pipeline = self._pipeline(question, filters, k, emitter)
        value: Any = None
        try:
            while True:
                fn, args, kwargs = pipeline.send(value)
                value = fn(*args, **kwargs)
                if inspect.isawaitable(value):
                    value = await value
        except StopIteration as stop:
            return stop.value
        except Exception as exc:
            if emitter is not None:
                emitter.error(exc)
            raise

    # --- the contract -----------------------------------------------------------------------
    def _pipeline(self, question: str, filters: Any, k: int, emitter: Emitter | None) -> _Pipeline:
        if not isinstance(question, str) or not question.strip():
            raise ConfigError(f"question must be a non-empty string (got {question!r})")
        if not isinstance(k, int) or k < 1:
            raise ConfigError(f"k must be a positive integer (got {k!r})")
        total = time.perf_counter()
        lang = templates.detect_lang(question, self.lang)
        stages: list[StageRecord] = []
        user_ms = 0.0

        def add(record: StageRecord) -> None:
            stages.append(record)
            if emitter is not None:
                emitter.stage(record.name, record.decision, record.scores, self.thresholds(record.name),
                              record.reason, record.duration_ms)

        def finish(kind: str, text: str, chunks: Sequence[Chunk], cites: Sequence[dict] = (),
                   unsupported: Sequence[dict] = ()) -> GuardResult:
            timings = {s.name: s.duration_ms for s in stages}
            timings["total"] = _ms(total)
            timings["guard_overhead"] = max(0.0, timings["total"] - user_ms)
            result = GuardResult(kind, text, question, rewritten, tuple(chunks), tuple(cites), tuple(stages),
                                 timings, tuple(unsupported), emitter.request_id if emitter is not None else None)
            if emitter is not None:  # the trace gets the exact question, the kept chunks and the answer shown
                emitter.result(kind, stages[-1].reason, self.thresholds(), timings, result=result)
            return result

        # 1. rewrite: the original question travels with the rewritten one
        t = time.perf_counter()
        rewritten: str | None = None
        if self.rewrite is None:
            add(StageRecord("rewrite", "skipped", reason="no rewrite callable"))
        else:
            rewritten = yield (self.rewrite, (question,), {})
            if not isinstance(rewritten, str) or not rewritten.strip():
                raise ConfigError(f"rewrite returned {rewritten!r}; expected a non-empty string")
            user_ms += _ms(t)
            add(StageRecord("rewrite", "pass" if rewritten != question else "unchanged",
                                      {"rewritten": rewritten}, "original question kept for retrieval and "
                                      "generation", _ms(t)))

        # 2. synonyms, from the user's dictionary only
        t = time.perf_counter()
        query = rewritten or question
        if self.synonyms is None:
            add(StageRecord("synonyms", "skipped", reason="no dictionary"))
        else:
            query, found = self.synonyms.expand(query)
            add(StageRecord(
                "synonyms", "pass" if found else "no_match",
                {"matched": {hit: others for hit, others in found}, "query": query},
                "expanded from the user dictionary" if found else "no dictionary term in the question", _ms(t)))

        # 3. retrieval, filters passed into the call
        t = time.perf_counter()
        queries = [query] + ([question] if question != query and rewritten is not None else [])
        retrieved: list[Chunk] = []
        for q in queries:
            args, kwargs = self.retriever.args(q, filters, k)
            retrieved += normalize_chunks((yield (self.retriever.fn, args, kwargs)))
        user_ms += _ms(t)
        chunks = merge_chunks(retrieved, k)
        add(StageRecord("retrieve", "pass", {"n": len(chunks), "queries": queries,
                                                       "filters": filters}, "", _ms(t)))

        # 4. retrieval score threshold
        t = time.perf_counter()
        scores = [c.score for c in chunks if c.score is not None]
        if not chunks:
            add(StageRecord("score_threshold", "no_answer", {"max_score": None}, "nothing retrieved",
                                      _ms(t)))
            return finish("no_answer", templates.NO_ANSWER[lang], [])
        if self.score_threshold is None or not scores:
            add(StageRecord("score_threshold", "skipped", {"max_score": max(scores, default=None)},
                                      "threshold disabled" if self.score_threshold is None
                                      else "the retriever gave no scores", _ms(t)))
        else:
            kept = [c for c in chunks if c.score is None or c.score >= self.score_threshold]
            detail = {"max_score": max(scores), "threshold": self.score_threshold, "kept": len(kept),
                      "dropped": len(chunks) - len(kept)}
            if not kept:
                add(StageRecord("score_threshold", "no_answer", detail,
                                          f"every chunk scored below {self.score_threshold}", _ms(t)))
                return finish("no_answer", templates.NO_ANSWER[lang], chunks)
            chunks = kept
            add(StageRecord("score_threshold", "pass", detail, "", _ms(t)))
        texts = [c.text for c in chunks]

        # 5. grade before generate: does the context answer *this* question? (answerability, not word coverage)
        t = time.perf_counter()
        # the current edition wins: a superseded chunk is left out while a current one remains
        chunks, stale = prefer_current(chunks, question, drop=True)
        texts = [c.text for c in chunks]
        if not self.grade:
            add(StageRecord("grade", "skipped", {"superseded_dropped": stale}, reason="grade=False"))
        else:
            rel, per_chunk = relevancy(self.judge, question, texts)
            synonyms_of = self.synonyms.covered_lemmas if self.synonyms else None
            ans = grade_answerability(self.judge, question, texts, lang, synonyms_of=synonyms_of)
            detail = {"relevancy": rel, "relevancy_per_chunk": per_chunk, "support": ans.score,
                      "answerability": ans.to_dict(), "missing": list(ans.missing),
                      "superseded_dropped": stale, "thresholds": dict(self.grade_thresholds)}
            failed = [name for name, value in (("relevancy", rel), ("support", ans.score))
                      if value == value and value < self.grade_thresholds[name]]
            if failed:
                reason = ", ".join(f"{n} {detail[n]:.2f} < {self.grade_thresholds[n]}" for n in failed)
                add(StageRecord("grade", "clarify", detail, reason, _ms(t)))
                topics = [str(c.metadata.get("title") or c.text) for c in chunks[:2]]
                return finish("clarifying_question",
                              templates.clarifying_question(topics, ans.missing, lang,
                                                            kinds=ans.weak_kinds), chunks)
            decision = "unscored" if rel != rel else "pass"
            add(StageRecord("grade", decision, detail,
                                      "the judge could not score relevancy" if rel != rel else "", _ms(t)))

        # generation
        t = time.perf_counter()
        answer = yield (self.generate, (question, texts), generate_kwargs(self.generate, rewritten, question))
        user_ms += _ms(t)
        if not isinstance(answer, str):
            raise ConfigError(f"generate returned {type(answer).__name__}; expected a string answer")
        add(StageRecord("generate", "pass", {"chars": len(answer)}, "", _ms(t)))

        # 6. post-check: faithfulness of the answer to the context
        t = time.perf_counter()
        if self.post_check == "off":
            add(StageRecord("post_check", "skipped", reason="post_check='off'"))
            return finish("answer", answer, chunks, citations(chunks))
        claims = self.judge.claims([answer], [lang])[0]
        verdicts = self.judge.verify([(claims, texts, lang)])[0] if claims else []
        problem = unscored_of(claims) or unscored_of(verdicts)
        if problem is not None:
            add(StageRecord("post_check", "unscored", {}, f"{problem.reason}: {problem.error}", _ms(t)))
            return finish("answer", answer, chunks, citations(chunks))
        bad = [v for v in verdicts if not v.supported]
        detail = {"claims": len(verdicts), "unsupported": len(bad),
                  "supported_fraction": (len(verdicts) - len(bad)) / len(verdicts) if verdicts else None}
        unsupported = [v.to_dict() for v in bad]
        cites = citations(chunks, verdicts)
        if not bad:
            add(StageRecord("post_check", "pass", detail, "", _ms(t)))
            return finish("answer", answer, chunks, cites)
        reason = "; ".join(v.reason or v.claim for v in bad)
        if self.post_check == "flag":
            add(StageRecord("post_check", "flag", detail, reason, _ms(t)))
            return finish("answer", templates.flagged_answer(answer, [v.claim for v in bad], lang), chunks,
                          cites, unsupported)
        if self.post_check == "strip":
            stripped = strip_spans(answer, [(v.start, v.end) for v in bad])
            if stripped:
                add(StageRecord("post_check", "strip", detail, reason, _ms(t)))
                return finish("answer", stripped, chunks, cites, unsupported)
            reason = "every claim unsupported, nothing left after stripping: " + reason
        add(StageRecord("post_check", "block", detail, reason, _ms(t)))
        return finish("blocked", templates.BLOCKED[lang], chunks, [], unsupported)
