"""How the LLM judge answers one round of requests in the fewest calls (``LLMJudge.answer``).

Per sample, whatever metrics asked:

1. **claims**: the sample's texts whose claims were asked (an answer and its reference, typically) in
   **one** call (``claims_pair.LANG``) when there are two in one language, else one ``claims.LANG`` call
   per text;
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

#: a verify item: (claims, sources, lang)
Item = tuple[Sequence[Any], list[str], str]
#: what a verify item is known by: (claim texts, sources, lang)
ItemKey = tuple[tuple[str, ...], tuple[str, ...], str]


def item_key(claims: Sequence[Any], sources: Sequence[str], lang: str | None) -> ItemKey:
    from .judge import _claim_text, _lang

    texts = tuple(_claim_text(c) for c in claims)
    return texts, tuple(sources), _lang(lang, " ".join(texts))


def by_sample(requests: Sequence[Request]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for i, r in enumerate(requests):
        out.setdefault(r.sample, []).append(i)
    return out


def metrics_of(requests: Sequence[Request]) -> set[str]:
    return {m for r in requests for m in r.metrics}


def answer_claims(judge: Any, requests: Sequence[Claims]) -> dict[tuple[str, str], Any]:
    """Claims of every text in ``requests``, per sample in one call where it can: ``(text, lang) -> claims``
    (located :class:`~.verdicts.LLMClaim` objects, ``[]`` for an empty text, or an ``UnscoredList``)."""
    from .judge import _SENTENCE, _lang, _located

    got: dict[tuple[str, str], Any] = {}
    plans: list[tuple[list[tuple[str, str]], set[str]]] = []
    for idx in by_sample(requests).values():
        keys: list[tuple[str, str]] = []
        for i in idx:
            text = requests[i].text
            key = (text, _lang(requests[i].lang, text))
            if not text.strip():
                got[key] = []
            elif key not in keys:
                keys.append(key)
        if keys:
            plans.append((keys, metrics_of([requests[i] for i in idx])))

    async def sample(keys: list[tuple[str, str]], metrics: set[str]) -> None:
        with serving(metrics):
            if len(keys) == 2 and keys[0][1] == keys[1][1]:
                (a, lang), (r, _) = keys
                ph = ([x for x in _SENTENCE.split(a.strip()) if x], [x for x in _SENTENCE.split(r.strip()) if x])
                pair = await judge._ask("claims_pair", lang, {"answer": a, "reference": r},
                                        shape=pair_claims_shape, allow_truncated=False,
                                        est_completion=estimate_tokens(a) + estimate_tokens(r) + 32, placeholder=ph)
                if isinstance(pair, Unscored):
                    got[keys[0]] = got[keys[1]] = UnscoredList(pair)
                else:
                    got[keys[0]], got[keys[1]] = _located(pair[0], a), _located(pair[1], r)
                return
            for key in keys:
                if key in got:
                    continue
                text, lang = key
                one = await judge._ask("claims", lang, {"text": text}, shape=claims_shape, allow_truncated=True,
                                       est_completion=estimate_tokens(text) + 16,
                                       placeholder=[x for x in _SENTENCE.split(text.strip()) if x])
                got[key] = _located(one, text)

    judge._run(lambda: judge._gather([sample(keys, metrics) for keys, metrics in plans]))
    return got


def answer_verify(judge: Any, groups: Sequence[tuple[list[Item], set[str]]]) -> dict[ItemKey, Any]:
    """Each group (one sample's verify items and the metrics they serve) in one merged call:
    ``item key -> verdicts`` (or an ``UnscoredList``)."""
    got: dict[ItemKey, Any] = {}

    async def one(items: list[Item], metrics: set[str]) -> None:
        with serving(metrics):
            got.update(await verify_merged(judge, items))

    judge._run(lambda: judge._gather([one(items, metrics) for items, metrics in groups if items]))
    return got


async def verify_merged(judge: Any, items: Sequence[Item]) -> dict[ItemKey, Any]:
    """One ``verify_multi`` call for one sample's items (two when too large): ``item key -> verdicts``."""
    lists: dict[tuple[str, ...], tuple[Sequence[Any], list[str]]] = {}  # claim texts -> (claims, sources)
    keys = []
    for claims, sources, lang in items:
        keys.append(item_key(claims, sources, lang))
        texts = keys[-1][0]
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
    out: dict[ItemKey, Any] = {}
    for (claims, sources, _), key in zip(items, keys):
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
