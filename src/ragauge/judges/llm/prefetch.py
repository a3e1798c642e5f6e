"""The up-front call plan of the LLM judge (``LLMJudge.prefetch``): the whole five-metric suite per sample
in the fewest calls -- claims of the answer and the reference in one call, every verify item in one
merged call -- answered into the judge's memo so the metrics' later door calls are hits. See
``LLMJudge.prefetch`` for the plan and docs/llm-judge.md, "Call plan"."""

from __future__ import annotations

import asyncio
from typing import Any, Sequence

from ..types import UNSUPPORTED, ClaimVerdict
from .outcome import Unscored, UnscoredList
from .parse import claims_shape, findings_shape, pair_claims_shape
from .prompts import fence, fence_tag
from .tokens import estimate_tokens
from .usage import serving
from .verdicts import offsets, to_verdict, verdict_from_findings

#: Group header of the merged verification prompt (``verify_multi.LANG``).
_GROUP = {"en": "Claims -- check each against sources {nums}:", "ru": "Утверждения -- проверь каждое по источникам {nums}:"}
#: Above this many estimated prompt tokens a sample's merged verification is split, one call per claim list.
MERGED_VERIFY_MAX_TOKENS = 6000


def plan_suite(judge: Any, samples: Sequence[Any], specs: Sequence[Any]) -> None:
    """The body of :meth:`LLMJudge.prefetch` (its docstring has the plan)."""
    from ...metrics._judging import languages
    from .judge import _SENTENCE, _lang, _located

    bases = {getattr(s, "base", str(s)) for s in specs}
    faith = bool(bases & {"faithfulness", "hallucination_rate"})
    ctx = bool(bases & {"context_precision", "context_recall", "context_f1"})
    corr = "answer_correctness" in bases
    names = {k: [s.name for s in specs if getattr(s, "base", None) in v] for k, v in (
        ("faith", {"faithfulness", "hallucination_rate"}), ("corr", {"answer_correctness"}),
        ("ctx", {"context_precision", "context_recall", "context_f1"}))}
    judge._claims_memo, judge._verdicts_memo = {}, {}
    if not (faith or ctx or corr) or not samples:
        return
    langs = languages(samples)
    answers = [s.answer or "" for s in samples]
    refs = [s.reference or "" for s in samples]
    ans_ref = judge.offline.refusals(answers, langs)
    ref_ref = judge.offline.refusals(refs, langs)

    # 1. claims: which texts each metric will ask about (mirrors the metrics' own skip rules)
    need: list[list[str]] = []
    served: list[set[str]] = []  # which metrics each sample's claims call serves (usage attribution)
    for i, s in enumerate(samples):
        a, r = answers[i].strip(), refs[i].strip()
        texts: list[str] = []
        who: set[str] = set()
        uses = {"faith": faith and s.contexts and not ans_ref[i], "corr": corr and r, "ctx": ctx and not r}
        if a and any(uses.values()):
            texts.append(answers[i])
            who.update(n for k, on in uses.items() if on for n in names[k])
        if r and (ctx or (corr and a)):
            texts.append(refs[i])
            who.update(names["ctx"] + (names["corr"] if corr and a else []))
        need.append(texts)
        served.append(who)

    async def claims_of(i: int) -> None:
        with serving(served[i]):
            await claims_in(i)

    async def claims_in(i: int) -> None:
        texts = need[i]
        keys = [(t, _lang(langs[i], t)) for t in texts]
        if len(texts) == 2 and keys[0][1] == keys[1][1] and texts[0] != texts[1]:
            a, r = texts
            ph = ([x for x in _SENTENCE.split(a.strip()) if x], [x for x in _SENTENCE.split(r.strip()) if x])
            got = await judge._ask("claims_pair", keys[0][1], {"answer": a, "reference": r},
                                  shape=pair_claims_shape, allow_truncated=False,
                                  est_completion=estimate_tokens(a) + estimate_tokens(r) + 32, placeholder=ph)
            if isinstance(got, Unscored):
                judge._claims_memo[keys[0]] = judge._claims_memo[keys[1]] = UnscoredList(got)
            else:
                judge._claims_memo[keys[0]] = _located(got[0], a)
                judge._claims_memo[keys[1]] = _located(got[1], r)
            return
        for t, key in zip(texts, keys):
            got = await judge._ask("claims", key[1], {"text": t}, shape=claims_shape, allow_truncated=True,
                                  est_completion=estimate_tokens(t) + 16,
                                  placeholder=[x for x in _SENTENCE.split(t.strip()) if x])
            judge._claims_memo[key] = _located(got, t)

    judge._run(lambda: judge._gather([claims_of(i) for i in range(len(samples)) if need[i]]))

    def got_claims(text: str, lang: str | None) -> list[Any] | None:
        c = judge._claims_memo.get((text, _lang(lang, text)))
        return c if c and not isinstance(c, UnscoredList) else None

    # 2. verify items, per sample, exactly as the metrics will build them
    plans: list[list[tuple[Sequence[Any], list[str], str | None]]] = []
    plan_for: list[set[str]] = []
    for i, s in enumerate(samples):
        a, r, lg, ctx_texts = answers[i].strip(), refs[i].strip(), langs[i], list(s.context_texts)
        items: list[tuple[Sequence[Any], list[str], str | None]] = []
        ca, cr = got_claims(answers[i], lg), got_claims(refs[i], lg)
        who: set[str] = set()
        if faith and a and ctx_texts and not ans_ref[i] and ca:
            items.append((ca, ctx_texts, lg))
            who.update(names["faith"])
        basis_claims, basis_refuses = (cr, ref_ref[i]) if r else (ca, ans_ref[i])
        if ctx and ctx_texts and (r or a) and basis_claims and not basis_refuses:
            items.append((basis_claims, ctx_texts, lg))
            items += [(basis_claims, [t], lg) for t in ctx_texts]
            who.update(names["ctx"])
        if corr and a and r and not ans_ref[i] and not ref_ref[i] and ca and cr:
            items += [(ca, [refs[i]], lg), (cr, [answers[i]], lg)]
            who.update(names["corr"])
        plans.append(items)
        plan_for.append(who)

    async def verify_for(i: int) -> None:
        with serving(plan_for[i]):
            await verify_merged(judge, plans[i])

    judge._run(lambda: judge._gather([verify_for(i) for i in range(len(plans)) if plans[i]]))


async def verify_merged(judge: Any, items: Sequence[tuple[Sequence[Any], list[str], str | None]]) -> None:
    """One ``verify_multi`` call for one sample's items (two when too large); fills the judge's verdict memo."""
    from .judge import _claim_text, _lang

    lists: dict[tuple[str, ...], tuple[Sequence[Any], list[str]]] = {}  # claim texts -> (claims, sources)
    keys = []
    for claims, sources, lang in items:
        texts = tuple(_claim_text(c) for c in claims)
        keys.append((texts, tuple(sources), _lang(lang, " ".join(texts))))
        _, union = lists.setdefault(texts, (claims, []))
        union += [x for x in sources if x not in union]
    lang = keys[0][2]

    def render(part: list[tuple[str, ...]]) -> tuple[list[str], str, str, str]:
        """``(union, sources block, claims block, tag)`` for the claim lists in ``part``."""
        union: list[str] = []
        for texts in part:
            union += [x for x in lists[texts][1] if x not in union]
        tag = fence_tag(*union, *(t for texts in part for t in texts))
        blocks, n = [], 0
        for texts in part:
            nums = ", ".join(str(union.index(x) + 1) for x in lists[texts][1])
            lines = [_GROUP[lang].format(nums=nums)]
            for t in texts:
                n += 1
                lines.append(fence("claim", t, tag, n=n))
            blocks.append("\n".join(lines))
        sources = "\n".join(fence("source", x, tag, n=k) for k, x in enumerate(union, 1))
        return union, sources, "\n\n".join(blocks), tag

    whole = list(lists)
    parts = [whole]
    union, sources_block, claims_block, _ = render(whole)
    if len(whole) > 1 and estimate_tokens(sources_block + claims_block) > MERGED_VERIFY_MAX_TOKENS:
        parts = [[t] for t in whole]
    results: dict[tuple[str, ...], Any] = {}  # claim texts -> (union, findings) or Unscored/None

    async def ask(part: list[tuple[str, ...]]) -> None:
        union, sources_block, claims_block, tag = render(part)
        n_claims = sum(len(t) for t in part)
        values = {"sources": sources_block, "claims": claims_block, "tag": tag}
        got = await judge._ask("verify_multi", lang, values, shape=findings_shape(n_claims, len(union)),
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
            judge._verdicts_memo[key] = UnscoredList(got)
        elif got is None:  # dry run: placeholders, never reported as results
            judge._verdicts_memo[key] = [ClaimVerdict(t, *offsets(c), UNSUPPORTED, 0.0, None, "dry run")
                                        for t, c in zip(texts, claims)]
        else:
            union, found = got
            idx, held = [union.index(x) for x in sources], list(sources)
            judge._verdicts_memo[key] = [to_verdict(t, c, verdict_from_findings(f, idx, held), idx, held, full=True)
                                        for t, c, f in zip(texts, claims, found)]


__all__ = ["MERGED_VERIFY_MAX_TOKENS", "plan_suite", "verify_merged"]
