"""OpenAI-compatible chat completions over plain HTTP (standard library only), async, with retries.

Why no httpx/openai SDK: one POST per judge call, seconds long, needs no connection pooling or
HTTP/2; ``http.client`` in a worker thread (one per concurrent request, at most ``concurrency``)
keeps ragauge's dependency list at numpy. The I/O is one function, :meth:`ChatClient._post`, which
tests replace or point at a scripted loopback server.

Per request: ``temperature`` (0), ``seed`` (when the server accepts it), ``max_tokens`` (llama.cpp
ignores ``max_completion_tokens``), and a structured-output hint, strongest first:

1. ``response_format={"type": "json_schema", "json_schema": {"name", "schema", "strict"}}`` (OpenAI);
2. ``response_format={"type": "json_object", "schema": ...}`` (llama.cpp, vLLM: grammar-constrained);
3. none: the schema is written into the system message as plain instructions.

A mode that has not yet worked on an endpoint is dropped for the next one when the server answers
400/404/415/422, or 500 (llama-cpp-python rejects json_schema with a 500); the choice is remembered
per endpoint and model for the life of the process. Once a mode has worked, a 500 is an ordinary
server error and is retried. A ``seed`` the server refuses (4xx naming "seed") is dropped the same way.

Retries: 429, 5xx, timeouts, connection resets and refusals, a 200 whose body is not JSON; up to
``max_retries`` times, waiting ``Retry-After`` (seconds or an HTTP date, capped at
``max_retry_after``) or else ``min(backoff_max, backoff_base * 2**(n-1)) * U(0.5, 1)`` (exponential
backoff with jitter). 401/403/404/405 are configuration errors (key, URL, model name) and raise
:class:`JudgeError` at once; another 4xx (a prompt over the context length, ...) fails that call only
(:class:`JudgeCallError`, not retried), so one oversized sample does not stop the run.
"""

from __future__ import annotations

import asyncio
import email.utils
import http.client
import json
import random
import socket
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Sequence

from ...errors import JudgeError
from .config import STRUCTURED_MODES, LLMConfig
from .ratelimit import RateLimiter
from .tokens import estimate_tokens

RETRY_STATUSES = frozenset({408, 409, 425, 429}) | frozenset(range(500, 600))
_FORMAT_REJECT = frozenset({400, 404, 415, 422, 500})

# What each endpoint accepted: (endpoint, model) -> {"mode": ..., "confirmed": bool, "seed": bool}.
_ENDPOINTS: dict[tuple[str, str], dict[str, Any]] = {}
_ENDPOINTS_LOCK = threading.Lock()


class JudgeCallError(JudgeError):
    """A judge call failed after every retry (the sample is reported unscored, not dropped)."""


@dataclass(frozen=True, slots=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated: bool = False  #: the server reported no usage; counts are :func:`estimate_tokens`

    @property
    def total(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def to_dict(self) -> dict[str, Any]:
        return {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "estimated": self.estimated}


@dataclass(frozen=True, slots=True)
class ChatReply:
    text: str
    usage: Usage
    mode: str  #: structured-output mode that produced it
    attempts: int  #: HTTP requests sent for it (1 = no retry)
    finish_reason: str | None = None


@dataclass
class ClientStats:
    requests: int = 0  #: HTTP requests sent, retries included
    replies: int = 0  #: successful chat completions
    retries: int = 0
    downgrades: list[str] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0


def retry_after_seconds(value: str | None, *, now: float | None = None) -> float | None:
    """``Retry-After`` as seconds: an integer/float, or an HTTP date; ``None`` if absent or unreadable.

    >>> retry_after_seconds("3")
    3.0
    """
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when - (time.time() if now is None else now))


def _plain_instructions(schema: dict[str, Any]) -> str:
    return ("\n\nReply with one JSON object only, no prose and no code fence, matching this JSON schema:\n"
            + json.dumps(schema, ensure_ascii=False))


class ChatClient:
    """Async chat completions against one OpenAI-compatible endpoint.

    >>> client = ChatClient(LLMConfig(model="m", base_url="http://127.0.0.1:8080/v1"))  # doctest: +SKIP
    >>> asyncio.run(client.chat([{"role": "user", "content": "hi"}], schema={...}))   # doctest: +SKIP
    """

    def __init__(
        self,
        config: LLMConfig,
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        rng: random.Random | None = None,
        limiter: RateLimiter | None = None,
    ) -> None:
        self.config = config
        self._sleep = sleep
        self._rng = rng or random.Random(0)
        self.limiter = limiter or RateLimiter(requests=config.requests_per_minute, tokens=config.tokens_per_minute)
        self.stats = ClientStats()
        self._pool = ThreadPoolExecutor(max_workers=config.concurrency, thread_name_prefix="ragauge-llm")
        self._loop_sem: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None
        url = urllib.parse.urlsplit(config.endpoint)
        self._https = url.scheme == "https"
        self._host = url.hostname or ""
        self._port = url.port
        self._path = (url.path or "") + "/chat/completions"
        if config.structured != "auto":  # a pinned mode is this client's own: never the endpoint's memory
            self._caps = {"mode": config.structured, "confirmed": True, "seed": config.seed is not None}
        else:
            with _ENDPOINTS_LOCK:
                self._caps = _ENDPOINTS.setdefault(
                    (config.endpoint, config.model),
                    {"mode": STRUCTURED_MODES[0], "confirmed": False, "seed": config.seed is not None},
                )

    @property
    def mode(self) -> str:
        return self._caps["mode"]

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    # --- the one I/O function -----------------------------------------------------------------
    def _post(self, body: bytes, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        cls = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
        conn = cls(self._host, self._port, timeout=self.config.timeout or None)
        try:
            conn.request("POST", self._path, body=body, headers=headers)
            resp = conn.getresponse()
            data = resp.read()
            return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data
        finally:
            conn.close()

    # --- request building -----------------------------------------------------------------------
    def _body(self, messages: Sequence[dict[str, str]], schema: dict[str, Any] | None, name: str,
              max_tokens: int | None) -> dict[str, Any]:
        cfg, mode = self.config, self.mode
        msgs = [dict(m) for m in messages]
        body: dict[str, Any] = {"model": cfg.model, "temperature": cfg.temperature,
                                "max_tokens": max_tokens or cfg.max_tokens}
        if self._caps["seed"] and cfg.seed is not None:
            body["seed"] = cfg.seed
        if schema is not None:
            if mode == "json_schema":
                body["response_format"] = {"type": "json_schema",
                                           "json_schema": {"name": name, "schema": schema, "strict": True}}
            elif mode == "json_object":
                body["response_format"] = {"type": "json_object", "schema": schema}
            else:
                i = next((k for k, m in enumerate(msgs) if m.get("role") == "system"), None)
                if i is None:
                    msgs.insert(0, {"role": "system", "content": _plain_instructions(schema).strip()})
                else:
                    msgs[i]["content"] = msgs[i]["content"] + _plain_instructions(schema)
        body["messages"] = msgs
        return body

    def _headers(self) -> dict[str, str]:
        h = {"Content-Type": "application/json", "Accept": "application/json", **dict(self.config.headers)}
        if self.config.api_key:
            h["Authorization"] = f"Bearer {self.config.api_key}"
        return h

    def _sem(self) -> asyncio.Semaphore:
        # one semaphore per event loop (the judge runs each batch in a fresh loop); keyed by the loop
        # object itself, not its id, which a new loop could reuse
        loop = asyncio.get_running_loop()
        if self._loop_sem is None or self._loop_sem[0] is not loop:
            self._loop_sem = (loop, asyncio.Semaphore(self.config.concurrency))
        return self._loop_sem[1]

    def _backoff(self, retry: int) -> float:
        cfg = self.config
        return min(cfg.backoff_max, cfg.backoff_base * 2 ** (retry - 1)) * (0.5 + 0.5 * self._rng.random())

    def _downgrade(self, why: str, mode: str | None, had_seed: bool) -> bool:
        """Drop the rejected feature (``mode``: the structured mode the request used, ``None`` if it
        asked for no format) for this endpoint; ``False`` if nothing is left to drop. Concurrent
        requests sent with the same rejected mode drop it once, not once each."""
        low = why.lower()
        with _ENDPOINTS_LOCK:
            if had_seed and "seed" in low and "schema" not in low:
                if self._caps["seed"]:
                    self._caps["seed"] = False
                    self.stats.downgrades.append("seed")
                return True
            if mode is not None and mode != "none" and self._caps["mode"] != mode:
                return True  # another request already dropped it: resend with the current mode
            if mode is not None and not self._caps["confirmed"] and self.config.structured == "auto":
                idx = STRUCTURED_MODES.index(self._caps["mode"])
                if idx + 1 < len(STRUCTURED_MODES):
                    self._caps["mode"] = STRUCTURED_MODES[idx + 1]
                    self.stats.downgrades.append(f"{STRUCTURED_MODES[idx]}->{self._caps['mode']}")
                    return True
        return False

    # --- the call -------------------------------------------------------------------------------
    async def chat(self, messages: Sequence[dict[str, str]], *, schema: dict[str, Any] | None = None,
                   schema_name: str = "reply", max_tokens: int | None = None) -> ChatReply:
        """One chat completion; retries transient failures; raises :class:`JudgeCallError` when they persist."""
        cfg = self.config
        loop = asyncio.get_running_loop()
        retries, attempts = 0, 0
        prompt_estimate = sum(estimate_tokens(m.get("content", "")) for m in messages)
        estimate = prompt_estimate + (max_tokens or cfg.max_tokens)
        while True:
            mode = self.mode
            body = self._body(messages, schema, schema_name, max_tokens)
            payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
            ticket = await self.limiter.acquire(estimate)
            attempts += 1
            self.stats.requests += 1
            wait: float | None = None
            try:
                async with self._sem():
                    status, headers, data = await loop.run_in_executor(self._pool, self._post, payload, self._headers())
            except (TimeoutError, socket.timeout) as exc:
                problem = f"timed out after {cfg.timeout:g} s ({exc or 'no reply'})"
            except (ConnectionError, http.client.HTTPException, OSError) as exc:
                problem = f"connection failed: {type(exc).__name__}: {exc}"
            else:
                text = data.decode("utf-8", errors="replace")
                if status == 200:
                    try:
                        reply = self._read(json.loads(text), mode, attempts, prompt_estimate)
                    except (json.JSONDecodeError, KeyError, IndexError, TypeError, AttributeError) as exc:
                        problem = f"HTTP 200 with a body that is not a chat completion ({exc}): {text[:200]!r}"
                    else:
                        self.limiter.settle(ticket, reply.usage.total)
                        with _ENDPOINTS_LOCK:
                            if schema is not None and self._caps["mode"] == mode:
                                self._caps["confirmed"] = True
                        return reply
                elif status in _FORMAT_REJECT and self._downgrade(
                        text, mode if schema is not None else None, "seed" in body):
                    continue  # a different request, not a retry of the same one
                elif status in (401, 403):
                    raise JudgeError(f"LLM endpoint {cfg.endpoint} refused the credentials (HTTP {status}): "
                                     f"{text[:300]}. Check RAGAUGE_LLM_API_KEY.")
                elif status in RETRY_STATUSES:
                    problem = f"HTTP {status}: {text[:200]}"
                    wait = retry_after_seconds(headers.get("retry-after"))
                elif status in (404, 405):
                    raise JudgeError(f"LLM endpoint {cfg.endpoint} answered HTTP {status} for model "
                                     f"{cfg.model!r}: {text[:300]}. Check the model name and base URL.")
                else:  # 400/413/422...: this request is bad (e.g. too long); other items may be fine
                    raise JudgeCallError(f"LLM endpoint {cfg.endpoint} refused the request with HTTP {status} "
                                         f"(not retried: the same request would fail again): {text[:300]}")
            retries += 1
            if retries > cfg.max_retries:
                raise JudgeCallError(f"LLM call to {cfg.endpoint} failed after {attempts} attempts: {problem}")
            self.stats.retries += 1
            delay = min(wait, cfg.max_retry_after) if wait is not None else self._backoff(retries)
            await self._sleep(delay)

    def _read(self, doc: dict[str, Any], mode: str, attempts: int, prompt_estimate: int) -> ChatReply:
        choice = doc["choices"][0]
        msg = choice["message"]
        text = msg.get("content")
        if text is None and msg.get("tool_calls"):
            text = msg["tool_calls"][0]["function"]["arguments"]
        if not isinstance(text, str):
            raise TypeError("message.content is not a string")
        u = doc.get("usage") or {}
        if isinstance(u.get("prompt_tokens"), int) and isinstance(u.get("completion_tokens"), int):
            usage = Usage(u["prompt_tokens"], u["completion_tokens"])
        else:
            usage = Usage(prompt_estimate, estimate_tokens(text), estimated=True)
        self.stats.replies += 1
        self.stats.prompt_tokens += usage.prompt_tokens
        self.stats.completion_tokens += usage.completion_tokens
        return ChatReply(text, usage, mode, attempts, choice.get("finish_reason"))
