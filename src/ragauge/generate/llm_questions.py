"""Golden cases written by an LLM (any OpenAI-compatible endpoint), filtered by a critic pass.

    cases, summary = generate_with_llm(chunks, n=100, judge_spec="openai:gpt-4o-mini@https://api.openai.com/v1")

Pipeline (calls go through the LLM judge's own parts: :class:`~ragauge.judges.llm.client.ChatClient`
with its retries and structured-output fallback, the SQLite reply cache, :class:`Budget`, and the
strict :func:`~ragauge.judges.llm.parse.parse_reply`):

1. plan (:func:`~ragauge.generate._llm_questions_plan.plan_groups`): which chunks, which types
   (``simple``, ``reasoning`` from one chunk; ``multi_context`` from two), about 1.5 x ``n`` candidates;
2. one **generation** call per group (prompt ``generate_questions.LANG``) in the corpus language;
3. free **rules**: vague, wrong language, answer leaked into the question, duplicate, a
   multi_context question citing one chunk;
4. one **critic** call per group for the survivors (``critique_question.LANG``): not answerable,
   answer not in the sources, vague, leaks the answer, wrong language, not multi-context;
4a. the offline generator's **checks** on the critic's survivors (:func:`_checked`): the numbers of a simple or
   multi-context answer in its sources, a statement supported by the offline judge; failures under ``rejected["checks"]``;
5. the kept candidates, interleaved across groups, the first ``n`` become :class:`GoldenCase`
   (``generator="llm"``, ``template`` = the generation prompt id, ``extra["llm"]`` = model, endpoint,
   prompt ids and sha256, the critic's reason).

A reply that does not parse is re-asked ``parse_retries`` times (default once) with the validation
error appended -- never the identical request; if it still fails, the group is counted under
``unparseable`` (generation) or ``unjudged`` (critic: its candidates are not kept, because nobody
checked them), with the raw reply in ``summary["failures"]``. Nothing is dropped silently:
``candidates == generated + surplus + rejected by rules, the critic and the checks + unjudged``; the
summary has the offline generator's keys (``requested``, ``generated``, ``by_type``, ``by_slice``,
``by_document``, ``by_language``, ``by_behaviour``, ``dropped`` by reason, ``short_of_target``) plus
the LLM's (calls, tokens, prompts, rejected, unparseable, failures, ...).
A budget (``max_calls`` or a :class:`Budget`) is respected: a group needs two calls, groups that no
longer fit are not started and counted, a budget stop mid-way is reported in ``budget_stopped``.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from functools import lru_cache
from importlib import resources
from typing import Any, Sequence

from ragauge.errors import BudgetExceededError, ConfigError
from ragauge.generate._llm_questions_plan import (LLM_TYPES, Candidate, Group, critique_shape, format_questions,
                                                  format_sources, generation_shape, plan_groups, rule_problem)
from ragauge.generate.case import GoldenCase
from ragauge.generate.questions.mix import mix_report, parse_mix
from ragauge.generate.questions.mix import targets as mix_targets
from ragauge.generate.chunking import Chunk, normalise

GEN_TASK, CRITIC_TASK = "generate_questions", "critique_question"
SCHEMAS: dict[str, dict[str, Any]] = {
    GEN_TASK: {"type": "object", "additionalProperties": False, "required": ["questions"],
               "properties": {"questions": {"type": "array", "items": {
                   "type": "object", "additionalProperties": False,
                   "required": ["type", "question", "answer", "sources", "slices"],
                   "properties": {"type": {"type": "string", "enum": ["simple", "reasoning", "multi_context"]},
                                  "question": {"type": "string"}, "answer": {"type": "string"},
                                  "sources": {"type": "array", "items": {"type": "integer"}},
                                  "slices": {"type": "array", "items": {"type": "string"}}}}}}},
    CRITIC_TASK: {"type": "object", "additionalProperties": False, "required": ["verdicts"],
                  "properties": {"verdicts": {"type": "array", "items": {
                      "type": "object", "additionalProperties": False,
                      "required": ["question", "keep", "problem", "reason"],
                      "properties": {"question": {"type": "integer"}, "keep": {"type": "boolean"},
                                     "problem": {"type": "string"}, "reason": {"type": "string"}}}}}},
}
#: Chunks longer than this make a question "long_section" (the answer has to be found in a long text).
LONG_SECTION_CHARS = 1000
_DEFAULT = object()


@lru_cache(maxsize=None)
def load_generation_prompt(task: str, lang: str) -> Any:
    """``generate_questions`` / ``critique_question`` in ``lang`` (ru/en; others -> en), same file format as the judge's."""
    from ragauge.judges.llm.prompts import _parse, prompt_lang

    if task not in SCHEMAS:
        raise ConfigError(f"unknown generation prompt {task!r}; known: {sorted(SCHEMAS)}")
    lang = prompt_lang(lang)
    data = resources.files("ragauge.judges").joinpath("prompts", f"{task}.{lang}.md").read_bytes()
    return _parse(task, lang, data.decode("utf-8"), hashlib.sha256(data).hexdigest())


def _config(judge_spec: Any, overrides: dict[str, Any]) -> Any:
    from ragauge.judges.llm.config import LLMConfig, parse_judge_spec

    if isinstance(judge_spec, LLMConfig):
        return judge_spec.with_(**overrides) if overrides else judge_spec
    if not isinstance(judge_spec, str) or not judge_spec or judge_spec == "offline":
        raise ConfigError(f"LLM generation needs a judge spec 'openai:MODEL@URL' or an LLMConfig (got {judge_spec!r})")
    model, url = parse_judge_spec(judge_spec)
    return LLMConfig.from_env(model=model, base_url=url, **overrides)


def corpus_language(chunks: Sequence[Chunk]) -> str:
    """``ru`` or ``en``: the majority script of the chunks (``en`` for anything else)."""
    from ragauge.judges.offline.text import detect_language

    votes = Counter(detect_language(c.text) for c in chunks)
    votes.pop(None, None)
    lang = votes.most_common(1)[0][0] if votes else "en"
    return lang if lang in ("ru", "en") else "en"


class _Runner:
    """One ask = cache lookup, budget check, the call, strict parsing, one re-ask with the error."""

    def __init__(self, config: Any, cache: Any, budget: Any, client: Any) -> None:
        self.config, self.cache, self.budget, self.client = config, cache, budget, client
        self.reasked = 0
        self.prompts: dict[str, str] = {}

    async def _reply(self, key: str, prompt: Any, messages: list[dict[str, str]], schema: dict[str, Any]) -> str:
        from ragauge.judges.llm.reask import paid_call
        from ragauge.judges.llm.tokens import estimate_tokens

        hit = self.cache.get(key)
        if hit is not None:
            self.budget.record_cached()
            return hit.text
        reply = await paid_call(self.client, self.cache, self.budget, key=key, model=self.config.model,
                                prompt=prompt, messages=messages, schema=schema,
                                est_prompt=sum(estimate_tokens(m["content"]) for m in messages),
                                est_completion=self.config.max_tokens)
        return reply.text

    async def ask(self, task: str, lang: str, values: dict[str, Any], shape: Any) -> tuple[Any, dict | None]:
        """``(parsed, None)``, or ``(None, failure)`` with ``kind`` unparseable/call_failed and the raw reply."""
        from ragauge.judges.llm.cache import cache_key
        from ragauge.judges.llm.reask import ask_parsed, parse_message

        cfg = self.config
        prompt = load_generation_prompt(task, lang)
        self.prompts[prompt.id] = prompt.sha256
        asked = await ask_parsed(
            lambda key, messages: self._reply(key, prompt, messages, SCHEMAS[task]),
            prompt.render(**values),
            key_for=lambda messages: cache_key(
                model=cfg.model, prompt=prompt.id, prompt_sha256=prompt.sha256, messages=messages,
                schema=SCHEMAS[task], temperature=cfg.temperature, seed=cfg.seed, max_tokens=cfg.max_tokens),
            shape=shape, lang=prompt.lang, retries=cfg.parse_retries,
        )
        self.reasked += asked.reasks
        if asked.call_error is not None:
            return None, {"kind": "call_failed", "error": str(asked.call_error), "raw": None}
        if asked.parse_error is not None:
            error = asked.parse_error
            return None, {"kind": "unparseable", "error": parse_message(error), "raw": error.raw[:2000]}
        return asked.value, None


def _run(make: Any) -> Any:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())
    with ThreadPoolExecutor(max_workers=1) as pool:  # called from a running loop (Jupyter): own loop in a thread
        return pool.submit(lambda: asyncio.run(make())).result()


async def _guarded(coro: Any) -> Any:
    """The coroutine's result, or the :class:`BudgetExceededError` it raised (other errors propagate)."""
    try:
        return await coro
    except BudgetExceededError as exc:
        return exc


async def _generate(runner: _Runner, group: Group, lang: str, stats: dict[str, Any]) -> list[Candidate] | None:
    ignored: list[str] = []
    values = {"count": len(group.types), "types": ", ".join(group.types), "sources": format_sources(group.chunks)}
    cands, fail = await runner.ask(GEN_TASK, lang, values, generation_shape(group, ignored))
    stats["ignored"].extend(ignored)
    if fail is not None:
        stats["failures"].append({"group": group.index, "task": GEN_TASK, **fail})
        stats[fail["kind"]][GEN_TASK] += 1
        return None
    return cands


async def _critique(runner: _Runner, group: Group, lang: str, cands: list[Candidate], stats: dict[str, Any]
                    ) -> list[tuple[str, str]]:
    """(outcome, detail) per candidate: ("kept", reason), ("critic", problem) or ("unjudged", why)."""
    values = {"sources": format_sources(group.chunks), "questions": format_questions(cands)}
    verdicts, fail = await runner.ask(CRITIC_TASK, lang, values, critique_shape(len(cands)))
    if fail is not None:
        stats["failures"].append({"group": group.index, "task": CRITIC_TASK, **fail})
        stats[fail["kind"]][CRITIC_TASK] += 1
        return [("unjudged", fail["kind"])] * len(cands)
    return [("kept", v.reason) if v.keep else ("critic", v.problem) for v in verdicts]


def _rules(groups: Sequence[Group], generated: Sequence[Any], lang: str) -> tuple[list[tuple], dict[int, list]]:
    """Rule outcomes in plan order (deterministic duplicates), and the survivors per group for the critic."""
    seen: set[str] = set()
    rejected, survivors = [], {}
    for g, cands in zip(groups, generated):
        if not isinstance(cands, list):
            continue
        for pos, c in enumerate(cands):
            problem = rule_problem(c, lang, seen)
            if problem is None and c.type == "multi_context" and len(c.sources) < 2:
                problem = "not_multi_context"
            if problem is None:
                seen.add(normalise(c.question))
                survivors.setdefault(g.index, []).append((pos, c))
            else:
                rejected.append((pos, g, c, "rules", problem))
    return rejected, survivors


def _case(c: Candidate, group: Group, *, lang: str, seed: int, config: Any, prompts: dict[str, str],
          critic_reason: str) -> GoldenCase:
    chunks = [group.chunks[i] for i in c.sources]
    slices = list(c.slices)
    if any(ch.kind == "table" for ch in chunks):
        slices.append("table")
    if any(len(ch.text) > LONG_SECTION_CHARS for ch in chunks):
        slices.append("long_section")
    gen = load_generation_prompt(GEN_TASK, lang)
    digest = hashlib.sha1((normalise(c.question) + "|" + ",".join(ch.id for ch in chunks)).encode()).hexdigest()
    return GoldenCase(
        id=f"llm-{digest[:10]}", question=c.question, reference=c.answer, relevant_ids=tuple(ch.id for ch in chunks),
        type=c.type, slices=tuple(dict.fromkeys(slices)), language=lang,
        source={"chunk_ids": [ch.id for ch in chunks], "doc_ids": [ch.doc_id for ch in chunks],
                "titles": [ch.title for ch in chunks], "versions": [ch.version or ch.date or "" for ch in chunks]},
        generator="llm", template=gen.id, seed=seed,
        extra={"llm": {"model": config.model, "endpoint": config.endpoint, "prompts": dict(sorted(prompts.items())),
                       "critic_reason": critic_reason}})


_JUDGE_USED: dict[str, str] = {}


def _checked(outcomes: list[tuple], lang: str, verify: bool) -> list[tuple]:
    """The offline generator's checks (:mod:`ragauge.generate.questions.verify`) on the candidates the critic
    kept: every number of a simple or multi-context answer must be in its sources (a reasoning answer may
    compute one; ``reference_number_not_in_chunk``), and an
    answer that is a statement must be supported claim by claim by the offline judge
    (``reference_not_supported_by_judge``; skipped, and ``summary["judge"]`` says so, without its models).
    A failed candidate becomes a ``("checks", reason)`` outcome, counted like the critic's rejections."""
    from ragauge.generate.questions import verify as checks
    from ragauge.generate.questions.candidate import Candidate as Checked

    if not verify:
        _JUDGE_USED["state"] = "off"
        return outcomes
    kept = [i for i, o in enumerate(outcomes) if o[3] == "kept"]
    rows = [Checked(outcomes[i][2].question, outcomes[i][2].answer,
                    tuple(outcomes[i][1].chunks[k] for k in outcomes[i][2].sources), outcomes[i][2].type,
                    tuple(outcomes[i][2].slices), lang, "llm") for i in kept]
    judge = None
    if not rows:
        _JUDGE_USED["state"] = "not run: no candidate reached the checks"
    elif any(checks.is_statement(r.reference) for r in rows):
        from ragauge.generate.questions.generate import _JUDGE_STATE, _judge_factory

        try:
            judge = _judge_factory()()
        except Exception:  # noqa: BLE001 - a missing optional model: numbers only, and the summary says so
            judge = None
        _JUDGE_USED["state"] = "offline" if judge is not None and _JUDGE_STATE.get("ok") else "unavailable"
    else:
        _JUDGE_USED["state"] = "offline (no statement to verify)"
    bad = checks.unsupported(judge, rows) if judge is not None else [False] * len(rows)
    out = list(outcomes)
    for i, row, unsupported in zip(kept, rows, bad):
        # a reasoning answer may hold the numbers it computes; a multi-context one reads them from its sources
        numbers = checks.missing_numbers(replace(row, type="simple")) if row.type != "reasoning" else []
        reason = ("reference_number_not_in_chunk" if numbers else
                  "reference_not_supported_by_judge" if unsupported else None)
        if reason:
            pos, group, cand, _, _ = out[i]
            out[i] = (pos, group, cand, "checks", reason)
    return out


def _counts(cases: Sequence[GoldenCase]) -> dict[str, dict[str, int]]:
    """The same per-type/slice/document/language/behaviour counts as the offline generator's summary."""
    def count(values: Any) -> dict[str, int]:
        return dict(sorted(Counter(values).items()))

    return {"by_type": count(c.type for c in cases), "by_slice": count(s for c in cases for s in c.slices),
            "by_document": count(d for c in cases for d in c.source.get("doc_ids") or ["-"]),
            "by_language": count(c.language for c in cases),
            "by_behaviour": count(c.expected_behaviour for c in cases)}


def generate_with_llm(chunks: Sequence[Chunk], *, n: int, judge_spec: Any, seed: int = 0, lang: str | None = None,
                      config: dict[str, Any] | None = None, cache: Any = _DEFAULT, budget: Any = None,
                      max_calls: int | None = None, client: Any = None, overgenerate: float = 1.5,
                      verify: bool = True, mix: Any = None) -> tuple[list[GoldenCase], dict[str, Any]]:
    """``n`` golden cases from ``chunks`` through the LLM named by ``judge_spec``, and a summary (see the module).

    ``mix``: shares of simple / reasoning / multi_context (:mod:`ragauge.generate.questions.mix`); the
    calls are planned by it and each type keeps at most its share of ``n`` (``summary["mix"]``).

    ``config``: LLMConfig overrides (``max_tokens``, ``timeout``, ...). ``cache``: default the judge's
    reply cache file; ``None`` in memory; a path. ``budget`` / ``max_calls``: spending limits.
    ``verify``: the offline generator's reference checks on the critic's survivors (:func:`_checked`).
    """
    from ragauge.judges.llm.budget import Budget
    from ragauge.judges.llm.cache import ReplyCache, default_cache_path
    from ragauge.judges.llm.client import ChatClient

    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ConfigError(f"n must be a positive integer (got {n!r})")
    shares = parse_mix(mix, allowed=LLM_TYPES) if mix is not None else None
    wanted = mix_targets(shares, n) if shares else None
    cfg = _config(judge_spec, dict(config or {}))
    lang = lang if lang in ("ru", "en") else corpus_language(chunks)
    budget = budget or Budget(max_calls=max_calls)
    own_cache = cache is _DEFAULT or cache is None or isinstance(cache, str)
    cache = ReplyCache(default_cache_path() if cache is _DEFAULT else cache) if own_cache else cache
    own_client = client is None
    client = client or ChatClient(cfg)
    runner = _Runner(cfg, cache, budget, client)
    groups = plan_groups(chunks, n, seed=seed, overgenerate=overgenerate, mix=shares)
    fits = len(groups)
    if budget.max_calls is not None:  # a group costs two calls (generation + critic); start only what fits
        fits = min(fits, max(0, (budget.max_calls - budget.spend.calls) // 2))
    stats: dict[str, Any] = {"failures": [], "ignored": [], "unparseable": Counter(), "call_failed": Counter()}
    started = groups[:fits]
    budget_stopped = None
    try:
        async def gen_all() -> list[Any]:
            return await asyncio.gather(*(_guarded(_generate(runner, g, lang, stats)) for g in started))

        generated = _run(gen_all)
        outcomes, survivors = _rules(started, generated, lang)
        judged = [g for g in started if g.index in survivors]

        async def critique_all() -> list[Any]:
            return await asyncio.gather(*(_guarded(_critique(runner, g, lang, [c for _, c in survivors[g.index]],
                                                             stats)) for g in judged))

        for g, verdicts in zip(judged, _run(critique_all)):
            if isinstance(verdicts, BudgetExceededError):
                budget_stopped = str(verdicts)
                verdicts = [("unjudged", "budget")] * len(survivors[g.index])
            outcomes.extend((pos, g, c, kind, detail) for (pos, c), (kind, detail) in zip(survivors[g.index], verdicts))
    finally:
        if own_client:
            client.close()
        if own_cache:
            cache.close()
    outcomes = _checked(outcomes, lang, verify)
    stopped = [r for r in generated if isinstance(r, BudgetExceededError)]
    if stopped:
        budget_stopped = str(stopped[0])
    rank = list(range(len(groups)))
    random.Random(seed).shuffle(rank)
    outcomes.sort(key=lambda o: (o[0], rank[o[1].index]))  # interleave: each group's first question, then second...
    kept = [o for o in outcomes if o[3] == "kept"]
    chosen = kept[:n] if wanted is None else _within_mix(kept, wanted)
    cases: list[GoldenCase] = []
    used: set[str] = set()
    for _, g, c, _, reason in chosen:
        case = _case(c, g, lang=lang, seed=seed, config=cfg, prompts=runner.prompts, critic_reason=reason)
        if case.id in used:
            case = replace(case, id=f"{case.id}-{len(used)}")
        used.add(case.id)
        cases.append(case)
    spend = budget.spend.to_dict()
    dropped = Counter(f"{o[3]}: {o[4]}" for o in outcomes if o[3] != "kept")
    if len(kept) > len(chosen):
        dropped["surplus"] = len(kept) - len(chosen)
    summary = {
        "generator": "llm", "requested": n, "generated": len(cases), "seed": seed, "candidates": len(outcomes),
        **_counts(cases), "dropped": dict(sorted(dropped.items())), "short_of_target": max(0, n - len(cases)),
        "model": cfg.model, "endpoint": cfg.endpoint, "language": lang, "prompts": dict(sorted(runner.prompts.items())),
        "structured_output": client.mode, "surplus": max(0, len(kept) - len(chosen)),
        "rejected": {"rules": dict(Counter(o[4] for o in outcomes if o[3] == "rules")),
                     "critic": dict(Counter(o[4] for o in outcomes if o[3] == "critic")),
                     "checks": dict(Counter(o[4] for o in outcomes if o[3] == "checks"))},
        "rejected_cases": [{"question": o[2].question, "answer": o[2].answer, "by": o[3], "problem": o[4]}
                           for o in outcomes if o[3] in ("rules", "critic", "checks")],
        "judge": _JUDGE_USED.get("state", "off"),
        "unjudged": sum(1 for o in outcomes if o[3] == "unjudged"),
        "groups": {"planned": len(groups), "started": len(started), "not_started_budget": len(groups) - len(started),
                   "critiqued": len(judged),
                   "generation_stopped_budget": len(stopped)},
        "unparseable": dict(stats["unparseable"]), "call_failed": dict(stats["call_failed"]),
        "reasked": runner.reasked, "ignored": dict(Counter(stats["ignored"])), "failures": stats["failures"],
        "calls": spend["calls"], "cached": spend["cached"], "prompt_tokens": spend["prompt_tokens"],
        "completion_tokens": spend["completion_tokens"], "budget_stopped": budget_stopped,
    }
    if shares and wanted is not None:
        available = dict(Counter(o[2].type for o in kept))
        summary["mix"] = mix_report(cases, shares, wanted, available)
        if summary["short_of_target"]:
            summary["short_reason"] = "the mix could not be met: " + "; ".join(summary["mix"]["short"])
    return cases, summary


def _within_mix(kept: Sequence[tuple], wanted: dict[str, int]) -> list[tuple]:
    """The kept outcomes in order, each type up to its target (no type fills another's share)."""
    taken: Counter = Counter()
    out = []
    for o in kept:
        if taken[o[2].type] < wanted.get(o[2].type, 0):
            taken[o[2].type] += 1
            out.append(o)
    return out


__all__ = ["corpus_language", "generate_with_llm", "load_generation_prompt"]
