"""The LLM judge: the :class:`ragauge.judges.base.Judge` door over an OpenAI-compatible endpoint.

Call plan of the batched methods (one call = one chat completion; a cache hit costs none):

- ``claims(texts)``: one call per distinct text (``claims.LANG``). Faithfulness and answer
  correctness ask for the same answer's claims; the second ask is a cache hit.
- ``verify(items)``: items with the same claims are merged into **one** call that checks all the
  claims against the union of their sources (``verify.LANG``); each verdict names the sources that
  decide it. The item with all sources takes the verdict as is; an item with a subset of them (context
  precision asks "does this context *alone* support a claim?") is ``supported``/``contradicted`` only
  if a source it holds was cited, else ``unsupported``. So context recall and the k per-context checks
  of context precision cost one call together, whatever k is.
- ``relevance(questions, answers)``: one call per answer generates ``config.questions`` questions it
  answers and a noncommittal flag (``questions.LANG``); the offline embedder gives cosines, or, with
  ``config.embeddings_model``, the endpoint's ``/embeddings`` (cached per text, batched, budgeted:
  ``embeddings.py``);
  :func:`relevancy_from_questions` combines them.
- ``refusals``, ``similarity``, ``toxicity``: delegated to the offline judge (no call); provenance
  says so.
- ``answer(requests)`` (what :func:`ragauge.evaluate` calls, one round of every metric's requests at a
  time): per sample, claims of the answer and the reference in one call (``claims_pair.LANG``), every
  claim list checked in one call (``verify_multi.LANG``, findings per source), questions in one: 3 calls
  per sample for the five metrics whatever k is (``rounds.py``). Every reply is recorded per metric in
  ``self.ledger`` (``usage.py``), attributed to the metrics of the requests it served.

Failures never vanish: a reply that does not parse is re-asked up to ``config.parse_retries`` times
*with the validation error appended* (the identical request would get the identical reply at
temperature 0), then the item is :class:`~.outcome.Unscored` with the raw reply; a call that fails
after the client's retries is Unscored too (a reply over ``max_reply_bytes`` with a reason naming the
cap). Only replies that parsed are cached: after the server or model is fixed, a re-run asks again. A budget stop (:class:`BudgetExceededError`) and
configuration errors (HTTP 401/403/404) raise.

The methods are synchronous like the door; inside, each batch runs on an asyncio loop with the
client's concurrency and rate limits (from a thread when the caller already runs a loop, e.g. Jupyter).
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Awaitable, Callable, Sequence

import numpy as np

from ...errors import BudgetExceededError, JudgeError
from ..base import JudgeBase, _reply
from ..requests import Agree, Claims, Relevance, Reply, Request, Verify
from ..types import UNSUPPORTED, ClaimVerdict, Provenance
from .budget import Budget, PlannedCalls
from .cache import ReplyCache, cache_key, default_cache_path
from .client import ChatClient, JudgeCallError, ReplyTooLargeError
from .config import LLMConfig, parse_judge_spec
from .logsafe import brief
from .outcome import CALL_FAILED, UNPARSEABLE, Unscored, UnscoredList, too_large_reason
from .parse import claims_shape, questions_shape, verdicts_shape
from .prompts import LANGS, TASKS, fence, fence_tag, load_prompt
from .reask import ask_parsed, paid_call, parse_message
from .spans import locate
from .tokens import estimate_tokens
from .usage import UsageLedger, serving
from .verdicts import LLMClaim, offsets, relevancy_from_questions, to_verdict

_SENTENCE = re.compile(r"(?<=[.!?…])\s+")
_DEFAULT = object()


def prompts_version() -> str:
    """A short hash of every shipped prompt file: changes when any prompt changes."""
    h = hashlib.sha256()
    for task in TASKS:
        for lang in LANGS:
            h.update(load_prompt(task, lang).sha256.encode())
    return "prompts-" + h.hexdigest()[:12]


def _lang(lang: str | None, text: str = "") -> str:
    if lang is None and text:
        from ...lang import detect_language

        lang = detect_language(text)
    return lang if lang in LANGS else "en"


def _claim_text(c: Any) -> str:
    return c if isinstance(c, str) else str(getattr(c, "text", c))


def _located(got: Any, text: str) -> list[Any]:
    """Claims as parsed (or an Unscored) -> :class:`LLMClaim` located in ``text`` (or an UnscoredList)."""
    if isinstance(got, Unscored):
        return UnscoredList(got)
    out = []
    for c in got:
        hit = locate(c, text, min_ratio=0.6)
        out.append(LLMClaim(c, hit[0], hit[1]) if hit else LLMClaim(c, 0, 0))
    return out




class LLMJudge(JudgeBase):
    name = "llm"

    def __init__(
        self,
        config: LLMConfig,
        *,
        cache: ReplyCache | str | None | object = _DEFAULT,
        budget: Budget | None = None,
        offline: Any = None,
        dry_run: bool = False,
        client: ChatClient | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.config = config
        if cache is _DEFAULT:
            cache = ReplyCache(default_cache_path())
        elif cache is None or isinstance(cache, str):
            cache = ReplyCache(cache)  # None: in memory (still shared between metrics of this run)
        self.cache: ReplyCache = cache  # type: ignore[assignment]
        self.budget = budget or Budget()
        self.client = client or ChatClient(config, sleep=sleep)
        self.dry_run = dry_run
        self.plan = PlannedCalls(prices=self.budget.prices)
        self.ledger = UsageLedger(self.budget.prices)  # per metric / per prompt; see usage.py
        self._offline = offline
        self._sleep = sleep
        self._embedder: Any = None  #: EndpointEmbedder, made on first use (config.embeddings_model)
        self._prompts: dict[str, str] = {}
        self._outcomes: dict[str, int] = {}
        self.asks = 0  #: asks sent through the judge (cache hits included; dry runs not)
        self.answered = 0  #: asks that got a usable (parsed) reply, from the endpoint or the cache
        self._inflight: dict[str, asyncio.Future] = {}
        self._fresh: dict[str, tuple[str, Any]] = {}  # paid replies not yet parsed: key -> (prompt id, reply)
        self._last_problem: tuple[str, str] | None = None  # (kind, message) of the last ask that failed
        self._planned: set[str] = set()

    @classmethod
    def from_spec(cls, spec: str, **kwargs: Any) -> "LLMJudge":
        """``LLMJudge.from_spec("openai:MODEL@URL")``; other settings from ``RAGAUGE_LLM_*`` and ``kwargs``
        (``config=`` overrides as a dict, plus this class's keyword arguments)."""
        model, url = parse_judge_spec(spec)
        overrides = kwargs.pop("config", {}) or {}
        return cls(LLMConfig.from_env(model=model, base_url=url, **overrides), **kwargs)

    # --- delegate -----------------------------------------------------------------------------
    @property
    def offline(self) -> Any:
        if self._offline is None:
            from ..offline.judge import OfflineJudge

            self._offline = OfflineJudge.shared()
        return self._offline

    def provenance(self) -> Provenance:
        spend = self.budget.spend.to_dict()
        details: dict[str, Any] = {
            "endpoint": self.config.endpoint,
            "prompts": dict(sorted(self._prompts.items())),
            "structured_output": self.client.mode,
            "delegated_to_offline": ["refusals", "similarity", "toxicity"]
            + ([] if self.config.embeddings_model else ["relevance embeddings"]),
            "usage": spend,
            "client": {"requests": self.client.stats.requests, "retries": self.client.stats.retries,
                       "downgrades": list(self.client.stats.downgrades),
                       "failed_requests": dict(sorted(self.client.stats.failures.items()))},
            "asks": {"sent": self.asks, "answered": self.answered},
            "outcomes": dict(sorted(self._outcomes.items())),
        }
        if self.config.embeddings_model:
            details["embeddings"] = {"model": self.config.embeddings_model,
                                     "endpoint": self.config.embeddings_endpoint}
        if self.dry_run:
            details["dry_run"] = self.plan.to_dict()
        return Provenance("llm", self.config.model, prompts_version(), details)

    def no_verdict_error(self) -> JudgeError | None:
        """A :class:`JudgeError` (exit code 3) when the judge was asked and **no** ask got a usable reply
        (every call failed or every reply was unparseable), else ``None``. For the engine/CLI to call after
        the run: a judge that produced nothing must not pass for a run whose samples are merely unscored.
        The message names the last problem (the parse error with the start of the reply, redacted, or
        the failed call) and what to check for that kind of failure."""
        if self.dry_run or self.asks == 0 or self.answered > 0:
            return None
        st = self.client.stats
        kinds = ", ".join(f"{k} x{n}" for k, n in sorted(st.failures.items())) or "no failed request"
        outcomes = ", ".join(f"{k}: {n}" for k, n in sorted(self._outcomes.items()))
        kind, last = self._last_problem or (CALL_FAILED, st.last_failure or "no reply")
        if kind == UNPARSEABLE:
            check = (f"The endpoint answers, but not with the JSON the judge asks for: check that {self.config.model!r} "
                     "is an instruction-following chat model that can reply in JSON (a base model or a too small "
                     "one cannot), and that the server applies the chat template. The raw replies are in "
                     "results.json (raw_reply of each unscored sample); only parsed replies are cached, so a "
                     "re-run asks again. Or run with --judge offline.")
        else:
            check = "Check the endpoint, model and key, or run with --judge offline."
        return JudgeError(
            f"the LLM judge {self.config.endpoint} (model {self.config.model!r}) produced no verdict: all {self.asks} "
            f"asks failed ({outcomes}; failed requests: {kinds}). Last error: {last}. {check}")

    def usage(self) -> dict[str, Any]:
        """Paid calls, cached replies, prompt/completion tokens and cost (USD, ``None`` without prices)."""
        return self.budget.spend.to_dict()

    def usage_report(self) -> dict[str, Any]:
        """The run's usage for results.json (``usage``): totals, per metric, shared, per prompt."""
        return {"judge": self.name, "model": self.config.model, "endpoint": self.config.endpoint,
                "priced": self.budget.prices is not None, "dry_run": self.dry_run, **self.ledger.to_dict()}

    def serving(self, metrics: Sequence[str]) -> Any:
        """Context manager: calls made inside serve ``metrics`` (for direct calls of the batched methods;
        :meth:`answer` attributes each call to the metrics of its requests)."""
        return serving(metrics)

    def close(self) -> None:
        self.client.close()
        self.cache.close()

    # --- running batches ------------------------------------------------------------------------
    def _run(self, make: Callable[[], Awaitable[Any]]) -> Any:
        self._inflight = {}
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(make())
        ctx = contextvars.copy_context()  # keeps usage attribution (usage.serving) in the worker thread
        with ThreadPoolExecutor(max_workers=1) as pool:  # called from inside a running loop
            return pool.submit(ctx.run, lambda: asyncio.run(make())).result()

    async def _gather(self, coros: Sequence[Awaitable[Any]]) -> list[Any]:
        results = await asyncio.gather(*coros, return_exceptions=True)
        for r in results:  # every in-flight call has finished (and is cached) before we stop
            if isinstance(r, BudgetExceededError):
                raise self.budget.final_error(r) from None
        for r in results:
            if isinstance(r, BaseException):
                raise r
        return list(results)

    def _count(self, what: str) -> None:
        self._outcomes[what] = self._outcomes.get(what, 0) + 1

    async def _reply(self, key: str, prompt: Any, messages: list[dict[str, str]], est_completion: int) -> str | None:
        hit = self.cache.get(key)
        if hit is not None:
            self.budget.record_cached()
            self.ledger.record(prompt.id, cached=True, prompt_tokens=hit.prompt_tokens,
                               completion_tokens=hit.completion_tokens)
            if self.dry_run:
                self.plan.add(prompt.id, 0, 0, cached=True)
            return hit.text
        est_prompt = sum(estimate_tokens(m["content"]) for m in messages)
        if self.dry_run:  # a second metric asking the same (claims of one answer) would be a cache hit
            self.plan.add(prompt.id, est_prompt, est_completion, cached=key in self._planned)
            self._planned.add(key)
            return None
        try:
            reply = await paid_call(self.client, self.cache, self.budget, key=key, model=self.config.model,
                                    prompt=prompt, messages=messages, schema=prompt.schema, est_prompt=est_prompt,
                                    est_completion=est_completion, cache_reply=False)
        except JudgeCallError as exc:
            booked = getattr(exc, "booked", None)
            if booked is not None:  # refused after the server may have billed it (over-size): count it
                self.ledger.record(prompt.id, prompt_tokens=booked[0], completion_tokens=booked[1])
            raise
        self.ledger.record(prompt.id, prompt_tokens=reply.usage.prompt_tokens,
                           completion_tokens=reply.usage.completion_tokens)
        self._fresh[key] = (prompt.id, reply)  # cached by _keep once it parsed, never before
        return reply.text

    def _keep(self, key: str) -> None:
        """The reply under ``key`` parsed: cache it (if it was paid for in this run)."""
        fresh = self._fresh.pop(key, None)
        if fresh is not None:
            prompt_id, reply = fresh
            self.cache.put(key, model=self.config.model, prompt_id=prompt_id, reply=reply.text,
                           prompt_tokens=reply.usage.prompt_tokens, completion_tokens=reply.usage.completion_tokens)

    def _drop(self, key: str) -> None:
        """The reply under ``key`` did not parse: never cache it, and remove it if an old cache holds it."""
        self._fresh.pop(key, None)
        self.cache.discard(key)

    async def _once(self, key: str, prompt: Any, messages: list[dict[str, str]], est: int) -> str | None:
        """One reply per key per batch: identical asks in one batch share one call."""
        if key not in self._inflight:
            self._inflight[key] = asyncio.ensure_future(self._reply(key, prompt, messages, est))
        return await asyncio.shield(self._inflight[key])

    async def _ask(self, task: str, lang: str, values: dict[str, Any], *, shape: Any, allow_truncated: bool,
                   est_completion: int, placeholder: Any) -> Any:
        cfg = self.config
        prompt = load_prompt(task, lang)
        self._prompts[prompt.id] = prompt.sha256
        est = min(est_completion, cfg.max_tokens)
        asked = await ask_parsed(
            lambda key, messages: self._once(key, prompt, messages, est),
            prompt.render(**values),
            key_for=lambda messages: cache_key(
                model=cfg.model, prompt=prompt.id, prompt_sha256=prompt.sha256, messages=messages,
                schema=prompt.schema, temperature=cfg.temperature, seed=cfg.seed, max_tokens=cfg.max_tokens),
            shape=shape, lang=lang, retries=cfg.parse_retries, allow_truncated=allow_truncated,
            on_usable=self._keep, on_unusable=self._drop,
        )
        if not asked.dry_run:
            self.asks += 1
        if asked.call_error is not None:
            reason = CALL_FAILED
            if isinstance(asked.call_error, ReplyTooLargeError):
                reason = too_large_reason(cfg.max_reply_bytes)
            self._count(reason)
            self._last_problem = (CALL_FAILED, str(asked.call_error))
            return Unscored(reason, str(asked.call_error), None, prompt.id)
        if asked.dry_run:
            return placeholder
        if asked.parse_error is not None:
            self._count(UNPARSEABLE)
            err = asked.parse_error
            said = brief(err.raw, 80)
            self._last_problem = (UNPARSEABLE, f"the reply could not be parsed ({parse_message(err)}); "
                                               f"{'it began' if said.endswith('...') else 'it was'} {said!r}")
            return Unscored(UNPARSEABLE, parse_message(err), err.raw, prompt.id)
        for r in asked.repairs:
            self._count("repaired: " + r.split(":")[0])
        if asked.reasks:
            self._count("re-asked after a parse error")
        self.answered += 1
        return asked.value

    # --- requests: one round in the fewest calls ----------------------------------------------------
    def answer(self, requests: Sequence[Request]) -> list[Reply]:
        """One round of the metrics' requests, per sample in the fewest calls (``rounds.py``):

        1. ``Claims``: a sample's texts in **one** call (``claims_pair.LANG``) when there are two in one
           language (an answer and its reference), else ``claims.LANG`` per text; finer units (facts) are
           the same claims (the reply's ``via`` says ``claims``);
        2. ``Verify`` and ``Agree`` (checked against the other text as the only source): every claim list
           of a sample against the union of its sources in **one** call (``verify_multi.LANG``);
        3. ``Relevance``: one ``questions.LANG`` call per text, as :meth:`relevance`;
        4. the rest (refusals, behaviours, similarity, toxicity, answerability) without a call, from the
           offline judge's models and rules (provenance says so).

        Every call is attributed to the metrics of the requests it serves (``usage.py``): 3 calls per
        sample for faithfulness, answer correctness, relevancy and the context metrics, whatever k is.
        """
        from .rounds import answer_claims, answer_verify, item_key, metrics_of

        out: list[Reply | None] = [None] * len(requests)
        claims = [(i, r) for i, r in enumerate(requests) if isinstance(r, Claims)]
        if claims:
            got = answer_claims(self, [r for _, r in claims])
            for i, r in claims:
                out[i] = _reply(got[(r.sample, r.text, _lang(r.lang, r.text))], "claims")
        checks: list[tuple[int, Any, list[str], str | None, str]] = []  # (request, claims, sources, lang, via)
        for i, r in enumerate(requests):
            if isinstance(r, Verify):
                checks.append((i, r.claims, list(r.sources), r.lang, ""))
            elif isinstance(r, Agree):
                checks.append((i, r.claims, [r.other], r.lang, "verify"))
        groups: dict[str, list[Any]] = {}  # sample -> its verify items
        for i, c, sources, lang, via in checks:
            if not c:
                out[i] = Reply([], None, via)
            elif not sources:
                out[i] = Reply([ClaimVerdict(t, *offsets(x), UNSUPPORTED, 0.0, None, "no sources to check against")
                                for t, x in zip((_claim_text(x) for x in c), c)], None, via)
            else:
                groups.setdefault(requests[i].sample, []).append((c, sources, lang, set(requests[i].metrics)))
        if groups:
            order = list(groups)
            verdicts = dict(zip(order, answer_verify(self, [groups[k] for k in order])))
            for i, c, sources, lang, via in checks:
                if out[i] is None:
                    out[i] = _reply(verdicts[requests[i].sample][item_key(c, sources, lang)], via)
        relevance = [i for i, r in enumerate(requests) if isinstance(r, Relevance)]
        by_metrics: dict[tuple[str, ...], list[int]] = {}
        for i in relevance:
            by_metrics.setdefault(tuple(sorted(metrics_of([requests[i]]))), []).append(i)
        for metrics, idx in by_metrics.items():
            with serving(metrics):
                for i, reply in zip(idx, super().answer([requests[i] for i in idx])):
                    out[i] = reply
        rest = [i for i, r in enumerate(out) if r is None]
        for i, reply in zip(rest, super().answer([requests[i] for i in rest])):
            out[i] = reply
        return out  # type: ignore[return-value]

    # --- the door -------------------------------------------------------------------------------
    def claims(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[list[Any]]:
        async def one(text: str, lang: str | None) -> list[Any]:
            if not text.strip():
                return []
            lg = _lang(lang, text)
            placeholder = [s for s in _SENTENCE.split(text.strip()) if s]
            got = await self._ask("claims", lg, {"text": text}, shape=claims_shape, allow_truncated=True,
                                  est_completion=estimate_tokens(text) + 16, placeholder=placeholder)
            return _located(got, text)

        return self._run(lambda: self._gather([one(t, lg) for t, lg in zip(texts, langs)]))

    def verify(self, items: Sequence[tuple[Sequence[Any], Sequence[str], str | None]]) -> list[list[ClaimVerdict]]:
        groups: dict[tuple[tuple[str, ...], str], list[int]] = {}
        out: list[list[ClaimVerdict]] = [[] for _ in items]
        for i, (claims, sources, lang) in enumerate(items):
            texts = tuple(_claim_text(c) for c in claims)
            lg = _lang(lang, " ".join(texts))
            groups.setdefault((texts, lg), []).append(i)

        async def group(texts: tuple[str, ...], lang: str, members: list[int]) -> None:
            union: list[str] = []
            for i in members:
                for s in items[i][1]:
                    if s not in union:
                        union.append(s)
            if not texts:
                return
            if not union:
                for i in members:
                    out[i] = [ClaimVerdict(t, *offsets(c), UNSUPPORTED, 0.0, None, "no sources to check against")
                              for t, c in zip(texts, items[i][0])]
                return
            tag = fence_tag(*texts, *union)
            values = {"claims": "\n".join(fence("claim", t, tag, n=k) for k, t in enumerate(texts, 1)),
                      "sources": "\n".join(fence("source", s, tag, n=k) for k, s in enumerate(union, 1)), "tag": tag}
            got = await self._ask("verify", lang, values, shape=verdicts_shape(len(texts), len(union)),
                                  allow_truncated=False, est_completion=60 * len(texts), placeholder=None)
            for i in members:
                claims, sources = items[i][0], list(items[i][1])
                if isinstance(got, Unscored):
                    out[i] = UnscoredList(got)
                elif got is None:  # dry run: placeholders, never reported as results
                    out[i] = [ClaimVerdict(t, *offsets(c), UNSUPPORTED, 0.0, None, "dry run")
                              for t, c in zip(texts, claims)]
                else:
                    idx = [union.index(s) for s in sources]
                    out[i] = [to_verdict(t, c, v, idx, sources, full=len(set(idx)) == len(union))
                              for t, c, v in zip(texts, claims, got)]

        self._run(lambda: self._gather([group(t, lg, m) for (t, lg), m in groups.items()]))
        return out

    def relevance(self, questions: Sequence[str], answers: Sequence[str]) -> list[Any]:
        n = self.config.questions

        async def one(answer: str) -> Any:
            lg = _lang(None, answer)
            return await self._ask("questions", lg, {"text": answer, "n": n}, shape=questions_shape,
                                   allow_truncated=True, est_completion=25 * n, placeholder=([], False))

        generated = self._run(lambda: self._gather([one(a) for a in answers]))
        out: list[Any] = [None] * len(answers)
        pairs_a, pairs_b, owner = [], [], []
        for i, g in enumerate(generated):
            if isinstance(g, Unscored):
                out[i] = g
                continue
            qs, noncommittal = g
            if self.dry_run:
                out[i] = 0.0
            elif noncommittal:
                out[i] = 0.0
            elif not qs:
                out[i] = Unscored(UNPARSEABLE, "the judge generated no questions", None, f"questions.{_lang(None, answers[i])}")
            else:
                for q in qs:
                    pairs_a.append(questions[i])
                    pairs_b.append(q)
                    owner.append(i)
        if self.dry_run and self.config.embeddings_model:
            self._plan_embeddings(questions, answers)
        if pairs_a:
            if self.config.embeddings_model:
                cos = self._run(lambda: self._endpoint_cosines(pairs_a, pairs_b))
            else:
                cos = np.asarray(self.offline.similarity(pairs_a, pairs_b), dtype=float).tolist()
            per: dict[int, list[Any]] = {}
            for i, c in zip(owner, cos):
                per.setdefault(i, []).append(c)
            for i, cs in per.items():
                if isinstance(cs[0], Unscored):
                    out[i] = cs[0]
                elif any(c != c for c in cs):  # NaN: a zero vector has no direction
                    out[i] = Unscored(UNPARSEABLE, "the embeddings endpoint returned an all-zero vector", None,
                                      "embeddings")
                else:
                    out[i] = relevancy_from_questions(cs, False)
        return out

    # --- embeddings from the endpoint (config.embeddings_model) ---------------------------------
    @property
    def embedder(self) -> Any:
        if self._embedder is None:
            from .embeddings import EndpointEmbedder

            self._embedder = EndpointEmbedder(self.config, cache=self.cache, budget=self.budget, ledger=self.ledger,
                                              sleep=self._sleep)
        return self._embedder

    async def _endpoint_cosines(self, a: list[str], b: list[str]) -> list[Any]:
        """Cosines of the pairs from the embeddings endpoint; a failed request leaves its pairs Unscored."""
        from .embeddings import cosine_rows

        try:
            vecs = await self.embedder.vectors(a + b)
        except JudgeCallError as exc:
            self._count(CALL_FAILED)
            self._last_problem = (CALL_FAILED, str(exc))
            return [Unscored(CALL_FAILED, str(exc), None, "embeddings")] * len(a)
        return cosine_rows([vecs[t] for t in a], [vecs[t] for t in b]).tolist()

    def _plan_embeddings(self, questions: Sequence[str], answers: Sequence[str]) -> None:
        """Dry run: the embeddings requests relevancy would send (the question plus ``config.questions``
        generated ones per answer, each about as long as the question)."""
        n, size = self.config.questions, self.config.embeddings_batch
        texts = [q for q, _ in zip(questions, answers)]
        total = len(texts) * (1 + n)
        tokens = sum(estimate_tokens(q) for q in texts) * (1 + n)
        for k in range(0, total, size):
            share = tokens * min(size, total - k) // max(1, total)
            self.plan.add("embeddings", share, 0, cached=False)

    def refusals(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[bool]:
        return self.offline.refusals(texts, langs)

    def similarity(self, a: Sequence[str], b: Sequence[str]) -> np.ndarray:
        return self.offline.similarity(a, b)

    def toxicity(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[Any]:
        return self.offline.toxicity(texts, langs)


__all__ = ["LLMJudge"]
