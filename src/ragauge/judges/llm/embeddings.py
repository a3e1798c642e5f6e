"""Embeddings from an OpenAI-compatible ``/embeddings`` endpoint, for answer relevancy's cosines.

Off by default (the offline embedder computes the cosines, no call). With ``embeddings_model`` set
(``RAGAUGE_LLM_EMBEDDINGS_MODEL``; served at ``RAGAUGE_LLM_EMBEDDINGS_BASE_URL``, else at the judge's
base URL, with the same key), :meth:`EndpointEmbedder.vectors`:

- sends only texts it has not seen: the reply cache holds one vector per (model, text) (JSON under
  :func:`~.cache.cache_key` of ``kind="embedding"``), so a re-run pays nothing;
- batches the rest, ``embeddings_batch`` texts per request (``{"model", "input": [...]}``), in order by
  ``data[i].index``;
- books every request in the run's :class:`~.budget.Budget` (a call, its prompt tokens, no completion)
  and the usage ledger (prompt id ``embeddings``), so ``--max-calls``/``--max-tokens`` stop it too;
- goes through the chat client's retry loop (429/5xx/timeouts retried, 401/403/404 raise at once).

A reply with the wrong number of vectors, ragged dimensions or non-finite numbers is not used.
"""

from __future__ import annotations

import asyncio
import json
import math
import urllib.parse
from typing import Any, Awaitable, Callable, Sequence

import numpy as np

from ...errors import JudgeError
from .budget import Budget
from .cache import ReplyCache, cache_key
from .client import ChatClient, Usage
from .config import LLMConfig
from .tokens import estimate_tokens
from .usage import UsageLedger

PROMPT_ID = "embeddings"

__all__ = ["PROMPT_ID", "EmbeddingsClient", "EndpointEmbedder", "cosine_rows"]


class EmbeddingsClient(ChatClient):
    """POSTs to ``{base}/embeddings`` with the chat client's limits, retries and error rules."""

    def __init__(self, config: LLMConfig, **kwargs: Any) -> None:
        if not config.embeddings_model:
            raise JudgeError("no embeddings model configured (RAGAUGE_LLM_EMBEDDINGS_MODEL)")
        own = config.with_(model=config.embeddings_model, base_url=config.embeddings_base_url or config.base_url,
                           structured="none", seed=None)
        super().__init__(own, **kwargs)
        url = urllib.parse.urlsplit(own.base_url)
        self._url = urllib.parse.urlunsplit(
            (url.scheme, url.netloc.rpartition("@")[2], url.path.rstrip("/") + "/embeddings", url.query, ""))

    async def embed(self, texts: Sequence[str]) -> tuple[list[list[float]], Usage]:
        """One request: a vector per text, in order, and the usage (estimated when the server gives none)."""
        est = sum(estimate_tokens(t) for t in texts)

        def build() -> tuple[dict[str, Any], str | None]:
            return {"model": self.config.model, "input": list(texts)}, None

        def read(doc: dict[str, Any], mode: str | None, attempts: int) -> tuple[Any, int]:
            vectors = _vectors(doc, len(texts))
            u = doc.get("usage") or {}
            tokens = u.get("prompt_tokens", u.get("total_tokens"))
            usage = Usage(tokens, 0) if isinstance(tokens, int) else Usage(est, 0, estimated=True)
            self.stats.replies += 1
            self.stats.prompt_tokens += usage.prompt_tokens
            return (vectors, usage), usage.total

        try:
            return await self._exchange(build, read, est, what="an embeddings reply")  # type: ignore[no-any-return]
        except JudgeError as exc:
            raise self._failed(exc) from None


def _vectors(doc: dict[str, Any], n: int) -> list[list[float]]:
    data = doc["data"]
    if not isinstance(data, list) or len(data) != n:
        raise ValueError(f"expected {n} embeddings, got {len(data) if isinstance(data, list) else type(data).__name__}")
    ordered = sorted(data, key=lambda d: d.get("index", 0)) if all("index" in d for d in data) else data
    out = [[float(x) for x in d["embedding"]] for d in ordered]
    dims = {len(v) for v in out}
    if len(dims) != 1 or 0 in dims:
        raise ValueError(f"embeddings of different or zero dimensions {sorted(dims)}")
    if not all(math.isfinite(x) for v in out for x in v):
        raise ValueError("an embedding holds NaN or infinity")
    return out


class EndpointEmbedder:
    """Cached, batched, budgeted embeddings for one judge run."""

    def __init__(self, config: LLMConfig, *, cache: ReplyCache, budget: Budget, ledger: UsageLedger,
                 client: EmbeddingsClient | None = None,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.config = config
        self.cache, self.budget, self.ledger = cache, budget, ledger
        self.client = client or EmbeddingsClient(config, sleep=sleep)
        self.model = self.client.config.model

    def _key(self, text: str) -> str:
        return cache_key(kind="embedding", model=self.model, text=text)

    async def vectors(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """``{text: vector}`` for every distinct text: cached ones free, the others in batches."""
        out: dict[str, np.ndarray] = {}
        todo: list[str] = []
        for t in dict.fromkeys(texts):
            hit = self.cache.get(self._key(t))
            if hit is not None:
                out[t] = np.asarray(json.loads(hit.text), dtype=np.float64)
                self.budget.record_cached()
                self.ledger.record(PROMPT_ID, cached=True, prompt_tokens=hit.prompt_tokens)
            else:
                todo.append(t)
        size = self.config.embeddings_batch
        batches = [todo[i:i + size] for i in range(0, len(todo), size)]
        for got in await asyncio.gather(*(self._batch(b) for b in batches)):
            out.update(got)
        return out

    async def _batch(self, texts: list[str]) -> dict[str, np.ndarray]:
        est = sum(estimate_tokens(t) for t in texts)
        held = self.budget.try_reserve(est, 0, completion_cap=0)
        while held is None:  # waiting beside calls in flight, as paid_call does
            await asyncio.sleep(0.02)
            held = self.budget.try_reserve(est, 0, completion_cap=0)
        try:
            vectors, usage = await self.client.embed(texts)
        except BaseException:
            self.budget.release(held)
            raise
        self.budget.record(usage.prompt_tokens, 0, held)
        self.ledger.record(PROMPT_ID, prompt_tokens=usage.prompt_tokens)
        shares = [estimate_tokens(t) for t in texts]
        for t, v, share in zip(texts, vectors, shares):
            self.cache.put(self._key(t), model=self.model, prompt_id=PROMPT_ID, reply=json.dumps(v),
                           prompt_tokens=share, completion_tokens=0)
        return {t: np.asarray(v, dtype=np.float64) for t, v in zip(texts, vectors)}


def cosine_rows(a: Sequence[np.ndarray], b: Sequence[np.ndarray]) -> np.ndarray:
    """Cosine of each pair ``a[i], b[i]``; NaN where a vector is all zeros (no direction: undefined).

    >>> cosine_rows([np.array([1.0, 0.0]), np.array([0.0, 0.0])], [np.array([1.0, 1.0]), np.array([1.0, 0.0])])
    array([0.70710678,        nan])
    """
    x, y = np.vstack(a), np.vstack(b)
    den = np.linalg.norm(x, axis=1) * np.linalg.norm(y, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, (x * y).sum(axis=1) / np.where(den > 0, den, 1.0), np.nan)
