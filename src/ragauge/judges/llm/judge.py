"""The LLM judge: the :class:`ragauge.judges.base.Judge` door over an OpenAI-compatible endpoint.

Call plan (one call = one chat completion; a cache hit costs none):

- ``claims(texts)``: one call per distinct text (``claims.LANG``). Faithfulness and answer
  correctness ask for the same answer's claims; the second ask is a cache hit.
- ``verify(items)``: items with the same claims are merged into **one** call that checks all the
  claims against the union of their sources (``verify.LANG``); each verdict names the sources that
  decide it. The item with all sources takes the verdict as is; an item with a subset of them (context
  precision asks "does this context *alone* support a claim?") is ``supported``/``contradicted`` only
  if a source it holds was cited, else ``unsupported``. So context recall and the k per-context checks
  of context precision cost one call together, whatever k is.
- ``relevance(questions, answers)``: one call per answer generates ``config.questions`` questions it
  answers and a noncommittal flag (``questions.LANG``); the offline embedder gives cosines;
  :func:`relevancy_from_questions` combines them.
- ``refusals``, ``similarity``, ``toxicity``: delegated to the offline judge (no call); provenance
  says so.
- ``prefetch(samples, specs)`` (called by ``ragauge.evaluate`` first): the whole suite planned per
  sample -- claims of the answer and the reference in one call (``claims_pair.LANG``), every verify item
  in one call (``verify_multi.LANG``, findings per source), questions in one: 3 calls per sample for
  the five metrics whatever k is; the door methods then answer from the memo.

Failures never vanish: a reply that does not parse is re-asked up to ``config.parse_retries`` times
*with the validation error appended* (the identical request would get the identical reply at
temperature 0), then the item is :class:`~.outcome.Unscored` with the raw reply; a call that fails
after the client's retries is Unscored too. A budget stop (:class:`BudgetExceededError`) and
configuration errors (HTTP 401/403/404) raise.

The methods are synchronous like the door; inside, each batch runs on an asyncio loop with the
client's concurrency and rate limits (from a thread when the caller already runs a loop, e.g. Jupyter).
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Awaitable, Callable, Sequence

import numpy as np

from ...errors import BudgetExceededError, JudgeParseError
from ..types import UNSUPPORTED, ClaimVerdict, Provenance
from .budget import Budget, PlannedCalls
from .cache import ReplyCache, cache_key, default_cache_path
from .client import ChatClient, JudgeCallError
from .config import LLMConfig, parse_judge_spec
from .outcome import CALL_FAILED, UNPARSEABLE, Unscored, UnscoredList
from .parse import claims_shape, findings_shape, pair_claims_shape, parse_reply, questions_shape, verdicts_shape
from .prompts import LANGS, TASKS, load_prompt
from .spans import locate
from .tokens import estimate_tokens
from .verdicts import LLMClaim, offsets, relevancy_from_questions, to_verdict, verdict_from_findings

_REASK = {
    "en": "Your reply could not be used: {error}. Reply again with the JSON object only, following the format exactly.",
    "ru": "Ваш ответ не удалось разобрать: {error}. Ответьте ещё раз только JSON-объектом точно в указанном формате.",
}
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
        from ..offline.text import detect_language

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


#: Group header of the merged verification prompt (``verify_multi.LANG``).
_GROUP = {"en": "Claims -- check each against sources {nums}:", "ru": "Утверждения -- проверь каждое по источникам {nums}:"}
#: Above this many estimated prompt tokens a sample's merged verification is split, one call per claim list.
MERGED_VERIFY_MAX_TOKENS = 6000


class LLMJudge:
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
        self._offline = offline
        self._prompts: dict[str, str] = {}
        self._outcomes: dict[str, int] = {}
        self._inflight: dict[str, asyncio.Future] = {}
        self._planned: set[str] = set()
        # Filled by prefetch(): what the metrics will ask, already answered (content-keyed).
        self._claims_memo: dict[tuple[str, str], list[Any]] = {}
        self._verdicts_memo: dict[tuple[tuple[str, ...], tuple[str, ...], str], list[ClaimVerdict]] = {}

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
            "delegated_to_offline": ["refusals", "similarity", "toxicity", "relevance embeddings"],
            "usage": spend,
            "client": {"requests": self.client.stats.requests, "retries": self.client.stats.retries,
                       "downgrades": list(self.client.stats.downgrades)},
            "outcomes": dict(sorted(self._outcomes.items())),
        }
        if self.dry_run:
            details["dry_run"] = self.plan.to_dict()
        return Provenance("llm", self.config.model, prompts_version(), details)

    def usage(self) -> dict[str, Any]:
        """Paid calls, cached replies, prompt/completion tokens and cost (USD, ``None`` without prices)."""
        return self.budget.spend.to_dict()

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
        with ThreadPoolExecutor(max_workers=1) as pool:  # called from inside a running loop
            return pool.submit(lambda: asyncio.run(make())).result()

    @staticmethod
    async def _gather(coros: Sequence[Awaitable[Any]]) -> list[Any]:
        results = await asyncio.gather(*coros, return_exceptions=True)
        for r in results:  # every in-flight call has finished (and is cached) before we stop
            if isinstance(r, BudgetExceededError):
                raise r
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
            if self.dry_run:
                self.plan.add(prompt.id, 0, 0, cached=True)
            return hit.text
        est_prompt = sum(estimate_tokens(m["content"]) for m in messages)
        if self.dry_run:  # a second metric asking the same (claims of one answer) would be a cache hit
            self.plan.add(prompt.id, est_prompt, est_completion, cached=key in self._planned)
            self._planned.add(key)
            return None
        self.budget.reserve(est_prompt, est_completion)
        try:
            reply = await self.client.chat(messages, schema=prompt.schema, schema_name=prompt.task)
        except BaseException:
            self.budget.release()
            raise
        self.cache.put(key, model=self.config.model, prompt_id=prompt.id, reply=reply.text,
                       prompt_tokens=reply.usage.prompt_tokens, completion_tokens=reply.usage.completion_tokens)
        self.budget.record(reply.usage.prompt_tokens, reply.usage.completion_tokens)
        return reply.text

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
        messages = prompt.render(**values)
        error: JudgeParseError | None = None
        for _ in range(cfg.parse_retries + 1):
            key = cache_key(model=cfg.model, prompt=prompt.id, prompt_sha256=prompt.sha256, messages=messages,
                            schema=prompt.schema, temperature=cfg.temperature, seed=cfg.seed,
                            max_tokens=cfg.max_tokens)
            try:
                raw = await self._once(key, prompt, messages, min(est_completion, cfg.max_tokens))
            except JudgeCallError as exc:
                self._count(CALL_FAILED)
                return Unscored(CALL_FAILED, str(exc), None, prompt.id)
            if raw is None:  # dry run
                return placeholder
            try:
                parsed = parse_reply(raw, shape, allow_truncated=allow_truncated)
            except JudgeParseError as exc:
                error = exc
                message = str(exc).partition("; raw reply: ")[0]
                messages = messages + [{"role": "assistant", "content": raw},
                                       {"role": "user", "content": _REASK[lang].format(error=message)}]
                continue
            for r in parsed.repairs:
                self._count("repaired: " + r.split(":")[0])
            if error is not None:
                self._count("re-asked after a parse error")
            return parsed.value
        self._count(UNPARSEABLE)
        assert error is not None
        return Unscored(UNPARSEABLE, str(error).partition("; raw reply: ")[0], error.raw, prompt.id)

    # --- planning the whole suite up front --------------------------------------------------------
    def prefetch(self, samples: Sequence[Any], specs: Sequence[Any]) -> None:
        """Answer up front, in the fewest calls, what the judge metrics in ``specs`` will ask about ``samples``.

        Called once by :func:`ragauge.evaluate` before the metric families run (the optional
        :class:`ragauge.judges.base.Prefetching` door). Per sample, fresh cache:

        1. the answer's and the reference's claims in **one** call (``claims_pair.LANG``), when both are
           needed (answer correctness, or faithfulness + context metrics with a reference); one text alone
           uses ``claims.LANG`` as without prefetch;
        2. **one** verification call (``verify_multi.LANG``) for every verify item the metrics will ask:
           answer claims vs the contexts (faithfulness) and vs the reference (correctness precision),
           reference claims vs the contexts, all together and each alone (context recall and precision),
           and vs the answer (correctness recall). Each claim list is checked against the union of its
           items' sources, with one finding per source that decides it, so "all contexts together" and
           "each context alone" come from the same findings. Split into one call per claim list (2)
           when the estimate exceeds :data:`MERGED_VERIFY_MAX_TOKENS`.

        ``relevance`` stays one call per answer. Results go into an in-memory memo (and every reply into
        the reply cache), so the metrics' later ``claims``/``verify`` calls are hits. Whatever is not
        planned here (a metric this method does not know) goes the ordinary way.
        """
        from ...metrics._judging import languages

        bases = {getattr(s, "base", str(s)) for s in specs}
        faith = bool(bases & {"faithfulness", "hallucination_rate"})
        ctx = bool(bases & {"context_precision", "context_recall", "context_f1"})
        corr = "answer_correctness" in bases
        self._claims_memo, self._verdicts_memo = {}, {}
        if not (faith or ctx or corr) or not samples:
            return
        langs = languages(samples)
        answers = [s.answer or "" for s in samples]
        refs = [s.reference or "" for s in samples]
        ans_ref = self.offline.refusals(answers, langs)
        ref_ref = self.offline.refusals(refs, langs)

        # 1. claims: which texts each metric will ask about (mirrors the metrics' own skip rules)
        need: list[list[str]] = []
        for i, s in enumerate(samples):
            a, r = answers[i].strip(), refs[i].strip()
            texts: list[str] = []
            if a and ((faith and s.contexts and not ans_ref[i]) or (corr and r) or (ctx and not r)):
                texts.append(answers[i])
            if r and (ctx or (corr and a)):
                texts.append(refs[i])
            need.append(texts)

        async def claims_of(i: int) -> None:
            texts = need[i]
            keys = [(t, _lang(langs[i], t)) for t in texts]
            if len(texts) == 2 and keys[0][1] == keys[1][1] and texts[0] != texts[1]:
                a, r = texts
                ph = ([x for x in _SENTENCE.split(a.strip()) if x], [x for x in _SENTENCE.split(r.strip()) if x])
                got = await self._ask("claims_pair", keys[0][1], {"answer": a, "reference": r},
                                      shape=pair_claims_shape, allow_truncated=False,
                                      est_completion=estimate_tokens(a) + estimate_tokens(r) + 32, placeholder=ph)
                if isinstance(got, Unscored):
                    self._claims_memo[keys[0]] = self._claims_memo[keys[1]] = UnscoredList(got)
                else:
                    self._claims_memo[keys[0]] = _located(got[0], a)
                    self._claims_memo[keys[1]] = _located(got[1], r)
                return
            for t, key in zip(texts, keys):
                got = await self._ask("claims", key[1], {"text": t}, shape=claims_shape, allow_truncated=True,
                                      est_completion=estimate_tokens(t) + 16,
                                      placeholder=[x for x in _SENTENCE.split(t.strip()) if x])
                self._claims_memo[key] = _located(got, t)

        self._run(lambda: self._gather([claims_of(i) for i in range(len(samples)) if need[i]]))

        def got_claims(text: str, lang: str | None) -> list[Any] | None:
            c = self._claims_memo.get((text, _lang(lang, text)))
            return c if c and not isinstance(c, UnscoredList) else None

        # 2. verify items, per sample, exactly as the metrics will build them
        plans: list[list[tuple[Sequence[Any], list[str], str | None]]] = []
        for i, s in enumerate(samples):
            a, r, lg, ctx_texts = answers[i].strip(), refs[i].strip(), langs[i], list(s.context_texts)
            items: list[tuple[Sequence[Any], list[str], str | None]] = []
            ca, cr = got_claims(answers[i], lg), got_claims(refs[i], lg)
            if faith and a and ctx_texts and not ans_ref[i] and ca:
                items.append((ca, ctx_texts, lg))
            basis_claims, basis_refuses = (cr, ref_ref[i]) if r else (ca, ans_ref[i])
            if ctx and ctx_texts and (r or a) and basis_claims and not basis_refuses:
                items.append((basis_claims, ctx_texts, lg))
                items += [(basis_claims, [t], lg) for t in ctx_texts]
            if corr and a and r and not ans_ref[i] and not ref_ref[i] and ca and cr:
                items += [(ca, [refs[i]], lg), (cr, [answers[i]], lg)]
            plans.append(items)
        self._run(lambda: self._gather([self._verify_merged(items) for items in plans if items]))

    async def _verify_merged(self, items: Sequence[tuple[Sequence[Any], list[str], str | None]]) -> None:
        """One ``verify_multi`` call for one sample's items (two when too large); fills the verdict memo."""
        lists: dict[tuple[str, ...], tuple[Sequence[Any], list[str]]] = {}  # claim texts -> (claims, sources)
        keys = []
        for claims, sources, lang in items:
            texts = tuple(_claim_text(c) for c in claims)
            keys.append((texts, tuple(sources), _lang(lang, " ".join(texts))))
            _, union = lists.setdefault(texts, (claims, []))
            union += [x for x in sources if x not in union]
        lang = keys[0][2]

        def render(part: list[tuple[str, ...]]) -> tuple[list[str], str, list[tuple[str, ...]]]:
            union: list[str] = []
            for texts in part:
                union += [x for x in lists[texts][1] if x not in union]
            blocks, n = [], 0
            for texts in part:
                nums = ", ".join(str(union.index(x) + 1) for x in lists[texts][1])
                lines = [_GROUP[lang].format(nums=nums)]
                for t in texts:
                    n += 1
                    lines.append(f"[{n}] {t}")
                blocks.append("\n".join(lines))
            return union, "\n\n".join(blocks), part

        whole = list(lists)
        parts = [whole]
        union, claims_block, _ = render(whole)
        sources_block = "\n\n".join(f"[{k}] {x}" for k, x in enumerate(union, 1))
        if len(whole) > 1 and estimate_tokens(sources_block + claims_block) > MERGED_VERIFY_MAX_TOKENS:
            parts = [[t] for t in whole]
        results: dict[tuple[str, ...], Any] = {}  # claim texts -> (union, findings) or Unscored/None

        async def ask(part: list[tuple[str, ...]]) -> None:
            union, claims_block, _ = render(part)
            n_claims = sum(len(t) for t in part)
            values = {"sources": "\n\n".join(f"[{k}] {x}" for k, x in enumerate(union, 1)), "claims": claims_block}
            got = await self._ask("verify_multi", lang, values, shape=findings_shape(n_claims, len(union)),
                                  allow_truncated=False, est_completion=40 * n_claims + 30 * len(union),
                                  placeholder=None)
            at = 0
            for texts in part:
                results[texts] = got if got is None or isinstance(got, Unscored) else (union, got[at:at + len(texts)])
                at += len(texts)

        await asyncio.gather(*(ask(p) for p in parts))
        for (claims, sources, _), key in zip(items, keys):
            texts = key[0]
            got = results[texts]
            if isinstance(got, Unscored):
                self._verdicts_memo[key] = UnscoredList(got)
            elif got is None:  # dry run: placeholders, never reported as results
                self._verdicts_memo[key] = [ClaimVerdict(t, *offsets(c), UNSUPPORTED, 0.0, None, "dry run")
                                            for t, c in zip(texts, claims)]
            else:
                union, found = got
                idx = [union.index(x) for x in sources]
                self._verdicts_memo[key] = [to_verdict(t, c, verdict_from_findings(f, idx), idx, list(sources), full=True)
                                            for t, c, f in zip(texts, claims, found)]

    # --- the door -------------------------------------------------------------------------------
    def claims(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[list[Any]]:
        async def one(text: str, lang: str | None) -> list[Any]:
            if not text.strip():
                return []
            lg = _lang(lang, text)
            memo = self._claims_memo.get((text, lg))
            if memo is not None:
                return memo
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
            memo = self._verdicts_memo.get((texts, tuple(sources), lg))
            if memo is not None:
                out[i] = memo
                continue
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
            values = {"claims": "\n".join(f"[{k}] {t}" for k, t in enumerate(texts, 1)),
                      "sources": "\n\n".join(f"[{k}] {s}" for k, s in enumerate(union, 1))}
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
        if pairs_a:
            cos = np.asarray(self.offline.similarity(pairs_a, pairs_b), dtype=float)
            per: dict[int, list[float]] = {}
            for i, c in zip(owner, cos.tolist()):
                per.setdefault(i, []).append(c)
            for i, cs in per.items():
                out[i] = relevancy_from_questions(cs, False)
        return out

    def refusals(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[bool]:
        return self.offline.refusals(texts, langs)

    def similarity(self, a: Sequence[str], b: Sequence[str]) -> np.ndarray:
        return self.offline.similarity(a, b)

    def toxicity(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[Any]:
        return self.offline.toxicity(texts, langs)


__all__ = ["LLMJudge"]
