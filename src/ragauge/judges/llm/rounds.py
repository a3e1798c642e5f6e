"""How the LLM judge answers one round of requests in the fewest calls (``LLMJudge.answer``).

Per sample, whatever metrics asked:

1. **claims**: the sample's answer and its reference (in that order whatever order the metrics were
   named in), when both were asked, in **one** call (``claims_pair.LANG``) when they are in one language;
   any other text (an expected outcome, an answer alone) in its own ``claims.LANG`` call;
2. **verification**: every claim list of the sample checked against the union of its sources in **one**
   call (``verify_multi.LANG``, one finding per source that decides each claim), so "all contexts
   together" (context recall) and "each context alone" (context precision) come from the same findings;
   split into one call per claim list when the estimate exceeds :data:`MERGED_VERIFY_MAX_TOKENS`.

Each call is attributed to the union of the metrics its requests serve (``usage.serving``). Replies go
through the judge's reply cache like every other call.
"""

from __future__ import annotations

import asyncio
from typing import Any, Sequence

from ..requests import Claims, Request
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

#: a verify item: (claims, sources, lang, the metrics it serves)
Item = tuple[Sequence[Any], list[str], str | None, set[str]]
#: what a verify item is known by: (claim texts, claim offsets, sources, lang)
ItemKey = tuple[tuple[str, ...], tuple[Any, ...], tuple[str, ...], str]
#: a sample's texts asked in this order, whatever order the metrics were named in
_ROLE_ORDER = {"answer": 0, "reference": 1}


def item_key(claims: Sequence[Any], sources: Sequence[str], lang: str | None) -> ItemKey:
    from .judge import _claim_text, _lang

    texts = tuple(_claim_text(c) for c in claims)
    spans = tuple((getattr(c, "start", None), getattr(c, "end", None)) for c in claims)
    return texts, spans, tuple(sources), _lang(lang, " ".join(texts))


def by_sample(requests: Sequence[Request]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for i, r in enumerate(requests):
        out.setdefault(r.sample, []).append(i)
    return out


def metrics_of(requests: Sequence[Request]) -> set[str]:
    return {m for r in requests for m in r.metrics}


def answer_claims(judge: Any, requests: Sequence[Claims]) -> dict[tuple[str, str, str], Any]:
    """Claims of every text in ``requests``: ``(sample, text, lang) -> claims`` (located
    :class:`~.verdicts.LLMClaim` objects, ``[]`` for an empty text, or an ``UnscoredList``). Per sample, its
    answer and its reference in one call (the ``claims_pair`` prompt's two slots, in that order) when both
    were asked; every other text in its own call. Kept per sample: a sample's claims never come from
    another sample's call (identical calls still cost one: the judge shares calls in flight and caches
    replies). Each call serves the metrics that asked for its texts."""
    from .judge import _SENTENCE, _lang, _located

    got: dict[tuple[str, str, str], Any] = {}
    plans: list[tuple[str, list[tuple[tuple[str, str], int, set[str]]]]] = []
    for sample, idx in by_sample(requests).items():
        asked: dict[tuple[str, str], tuple[int, set[str]]] = {}
        for i in idx:
            r = requests[i]
            key = (r.text, _lang(r.lang, r.text))
            if not r.text.strip():
                got[(sample, *key)] = []
                continue
            rank, metrics = asked.get(key, (2, set()))
            asked[key] = (min(rank, _ROLE_ORDER.get(r.role, 2)), metrics | set(r.metrics))
        if asked:
            order = sorted(asked, key=lambda k: asked[k][0])  # stable: first asked first within a role
            plans.append((sample, [(k, asked[k][0], asked[k][1]) for k in order]))

    async def one_sample(sample: str, keys: list[tuple[tuple[str, str], int, set[str]]]) -> None:
        pairable = (len(keys) >= 2 and keys[0][1] == _ROLE_ORDER["answer"]
                    and keys[1][1] == _ROLE_ORDER["reference"] and keys[0][0][1] == keys[1][0][1])
        if pairable:
            ((a, lang), _, m_a), ((r, _), _, m_r) = keys[:2]
            with serving(m_a | m_r):
                ph = ([x for x in _SENTENCE.split(a.strip()) if x], [x for x in _SENTENCE.split(r.strip()) if x])
                pair = await judge._ask("claims_pair", lang, {"answer": a, "reference": r},
                                        shape=pair_claims_shape, allow_truncated=False,
                                        est_completion=estimate_tokens(a) + estimate_tokens(r) + 32, placeholder=ph)
            if isinstance(pair, Unscored):
                got[(sample, a, lang)] = got[(sample, r, lang)] = UnscoredList(pair)
            else:
                got[(sample, a, lang)], got[(sample, r, lang)] = _located(pair[0], a), _located(pair[1], r)
            keys = keys[2:]
        for (text, lang), _, metrics in keys:
            with serving(metrics):
                one = await judge._ask("claims", lang, {"text": text}, shape=claims_shape, allow_truncated=True,
                                       est_completion=estimate_tokens(text) + 16,
                                       placeholder=[x for x in _SENTENCE.split(text.strip()) if x])
            got[(sample, text, lang)] = _located(one, text)

    judge._run(lambda: judge._gather([one_sample(sample, keys) for sample, keys in plans]))
    return got


def answer_verify(judge: Any, groups: Sequence[list[Item]]) -> list[dict[ItemKey, Any]]:
    """Each group (one sample's verify items) in one merged call: per group, ``item key -> verdicts`` (or an
    ``UnscoredList``). Kept per group: two samples may hold the same claims against the same sources."""
    got: list[dict[ItemKey, Any]] = [{} for _ in groups]

    async def one(k: int) -> None:
        got[k] = await verify_merged(judge, groups[k])

    judge._run(lambda: judge._gather([one(k) for k in range(len(groups)) if groups[k]]))
    return got


async def verify_merged(judge: Any, items: Sequence[Item]) -> dict[ItemKey, Any]:
    """One ``verify_multi`` call for one sample's items (two when too large): ``item key -> verdicts``. The
    claim lists go into the prompt in a fixed order (by their texts), whatever order the metrics asked in;
    each call serves the metrics of the claim lists it holds."""
    items = sorted(items, key=lambda it: (item_key(it[0], it[1], it[2])[0], tuple(it[1])))
    lists: dict[tuple[str, ...], tuple[Sequence[Any], list[str]]] = {}  # claim texts -> (claims, sources)
    serves: dict[tuple[str, ...], set[str]] = {}
    keys = []
    for claims, sources, lang, metrics in items:
        keys.append(item_key(claims, sources, lang))
        texts = keys[-1][0]
        serves.setdefault(texts, set()).update(metrics)
        _, union = lists.setdefault(texts, (claims, []))
        union += [x for x in sources if x not in union]
    lang = keys[0][3]

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
        with serving(set().union(*(serves[t] for t in part))):
            got = await judge._ask("verify_multi", lang, values, shape=findings_shape(n_claims, len(union)),
                                   allow_truncated=False, est_completion=40 * n_claims + 30 * len(union),
                                   placeholder=None)
        at = 0
        for texts in part:
            results[texts] = got if got is None or isinstance(got, Unscored) else (union, got[at:at + len(texts)])
            at += len(texts)

    await asyncio.gather(*(ask(p) for p in parts))
    out: dict[ItemKey, Any] = {}
    for (claims, sources, _, _), key in zip(items, keys):
        texts = key[0]
        got = results[texts]
        if isinstance(got, Unscored):
            out[key] = UnscoredList(got)
        elif got is None:  # dry run: placeholders, never reported as results
            out[key] = [ClaimVerdict(t, *offsets(c), UNSUPPORTED, 0.0, None, "dry run")
                        for t, c in zip(texts, claims)]
        else:
            union, found = got
            idx, held = [union.index(x) for x in sources], list(sources)
            out[key] = [to_verdict(t, c, verdict_from_findings(f, idx, held), idx, held, full=True)
                        for t, c, f in zip(texts, claims, found)]
    return out


__all__ = ["MERGED_VERIFY_MAX_TOKENS", "answer_claims", "answer_verify", "verify_merged"]
