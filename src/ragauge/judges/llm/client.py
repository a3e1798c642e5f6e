"""OpenAI-compatible chat completions over HTTP (httpx), async, with retries and hard limits.

The I/O is one coroutine, :meth:`ChatClient._post`, which tests replace or point at a scripted
loopback server. Each request gets a fresh ``httpx.AsyncClient`` (no connection pool bound to an
event loop that the judge closes after each batch; a judge call lasts seconds, the handshake is not
worth pooling). Limits, all in :class:`~.config.LLMConfig` (and settable from the command line's
environment: ``RAGAUGE_LLM_TIMEOUT``, ``RAGAUGE_LLM_MAX_REPLY_BYTES``, ``RAGAUGE_LLM_MAX_WAIT``):

- ``timeout`` (120 s): a deadline for the **whole** request -- connect, send, headers and body -- not
  per socket read (a server trickling one byte a second is cut off at the deadline);
- ``max_reply_bytes`` (1 MiB): the body is streamed and refused past the cap -- counted in *decoded*
  bytes: the client asks for ``Accept-Encoding: identity`` and inflates a gzip/deflate reply itself
  under the cap (:mod:`.bounded`), so a compressed bomb never expands in memory; that call fails at once
  (:class:`ReplyTooLargeError`, not retried: the same request would get the same reply), the item is
  unscored with the reason and nothing is cached;
- ``max_wait`` (300 s): the total one call may wait between its retries, ``Retry-After`` included;
  a wait that would pass it ends the call (:class:`JudgeCallError`) instead of sleeping.

The base URL's query string (``?api-version=...``) is sent with every request; ``user:password@`` in
it is sent as HTTP Basic auth; both are redacted wherever the URL is shown (``config.endpoint``),
httpx's and httpcore's own log lines included (:mod:`.logsafe`, installed with the first client).

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

An endpoint that cannot be reached (every attempt of a call failed to connect, and no call of this
client has ever succeeded) raises :class:`JudgeError` -- the CLI's exit code 3 -- after
:data:`NEVER_REACHED_RETRIES` retries (a few seconds), instead of failing sample after sample. Once
the endpoint has answered, a connection failure is retried like any other. The first failure of
each kind (connection, timeout, HTTP status, over-size reply, ...) is said at once on the
``ragauge.judges.llm`` logger (shown on stderr when logging is not configured), one line, not one per
retry; ``stats.failures`` counts them all.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
import random
import ssl
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Sequence

from ...errors import JudgeError
from .bounded import BodyTooLarge, BodyUnreadable, BoundedBody
from .config import ENV_PREFIX, STRUCTURED_MODES, LLMConfig
from .logsafe import redact_http_logs
from .ratelimit import RateLimiter
from .tokens import estimate_tokens
from .wording import count, resent_note

RETRY_STATUSES = frozenset({408, 409, 425, 429}) | frozenset(range(500, 600))
_FORMAT_REJECT = frozenset({400, 404, 415, 422, 500})

# What each endpoint accepted: (endpoint, model) -> {"mode": ..., "confirmed": bool, "seed": bool}.
_ENDPOINTS: dict[tuple[str, str], dict[str, Any]] = {}
_ENDPOINTS_LOCK = threading.Lock()


#: Where the client says, once per kind, that calls are failing (stderr when logging is not configured).
log = logging.getLogger("ragauge.judges.llm")
#: Retries of a call that cannot connect, while no call of the client has ever been answered.
NEVER_REACHED_RETRIES = 2
#: Seconds allowed to open a connection (within ``timeout``): a host that drops SYNs fails fast.
CONNECT_TIMEOUT = 30.0


class JudgeCallError(JudgeError):
    """A judge call failed after every retry (the sample is reported unscored, not dropped)."""

    billed = False  #: the server may have charged for it (a reply came back but was refused)


class ReplyTooLargeError(JudgeCallError):
    """The reply body passed ``max_reply_bytes``: the call fails at once; the reply is neither parsed nor cached."""

    billed = True


class ReplyUnreadableError(JudgeCallError):
    """The reply came in a content coding that cannot be read (br, zstd, a corrupt gzip): not retried, not cached."""

    billed = True


class _Unreachable(Exception):
    """Internal: the request could not connect (refused, no route, DNS)."""


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
    failures: dict[str, int] = field(default_factory=dict)  #: failed requests by kind ("connect", "HTTP 503", ...)
    failed_calls: int = 0  #: calls that ended in an error (after their retries)
    last_failure: str | None = None  #: the last failed call's message


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
        redact_http_logs()  # httpx logs each request URL at INFO: never with the key in its query string
        self._sleep = sleep
        self._rng = rng or random.Random(0)
        self.limiter = limiter or RateLimiter(requests=config.requests_per_minute, tokens=config.tokens_per_minute)
        self.stats = ClientStats()
        self._loop_sem: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None
        self._noticed: set[str] = set()
        url = urllib.parse.urlsplit(config.base_url)
        self._https = url.scheme == "https"
        host = url.netloc.rpartition("@")[2]
        # userinfo goes out as Basic auth, never in the URL; the query string is kept as given
        self._auth = (urllib.parse.unquote(url.username or ""), urllib.parse.unquote(url.password or "")) \
            if url.username is not None else None
        self._url = urllib.parse.urlunsplit(
            (url.scheme, host, url.path.rstrip("/") + "/chat/completions", url.query, ""))
        self._ssl: ssl.SSLContext | None = None
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
        """Nothing is held between requests (each has its own connection); kept for the judge's door."""

    # --- the one I/O function -----------------------------------------------------------------
    async def _post(self, body: bytes, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        """One POST: ``(status, lower-cased headers, body)``. The whole request must finish within
        ``config.timeout`` (``TimeoutError``); a body over ``config.max_reply_bytes`` raises
        :class:`ReplyTooLargeError`; a failure to connect raises ``_Unreachable``."""
        import httpx

        cfg = self.config
        limit = cfg.timeout or None
        cap = cfg.max_reply_bytes
        if self._https and self._ssl is None:
            self._ssl = httpx.create_ssl_context()
        timeout = httpx.Timeout(limit, connect=min(limit or CONNECT_TIMEOUT, CONNECT_TIMEOUT))
        auth = httpx.BasicAuth(*self._auth) if self._auth is not None else None
        async with asyncio.timeout(limit):
            async with httpx.AsyncClient(timeout=timeout, verify=self._ssl or True, follow_redirects=False) as http:
                try:
                    async with http.stream("POST", self._url, content=body, headers=headers, auth=auth) as resp:
                        declared = resp.headers.get("content-length", "")
                        if declared.isdigit() and int(declared) > cap:
                            raise ReplyTooLargeError(self._too_large(f"announced {int(declared):,} bytes"))
                        try:  # raw bytes, inflated here under the cap (httpx would inflate a whole chunk at once)
                            reply = BoundedBody(resp.headers.get("content-encoding", ""), cap=cap)
                            async for chunk in resp.aiter_raw():
                                reply.feed(chunk)
                            data = reply.finish()
                        except BodyTooLarge as exc:
                            raise ReplyTooLargeError(self._too_large(str(exc))) from None
                        except BodyUnreadable as exc:
                            raise ReplyUnreadableError(f"LLM endpoint {cfg.endpoint}: {exc}; the reply was dropped "
                                                       "and not cached.") from None
                        return resp.status_code, {k.lower(): v for k, v in resp.headers.items()}, data
                except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
                    raise _Unreachable(f"{type(exc).__name__}: {exc}") from exc
                except httpx.TimeoutException as exc:
                    raise TimeoutError(str(exc) or type(exc).__name__) from exc

    def _too_large(self, what: str) -> str:
        cfg = self.config
        return (f"LLM endpoint {cfg.endpoint} sent a reply over max_reply_bytes={cfg.max_reply_bytes:,} ({what}); "
                "it was dropped unread and not cached. A reply that long usually means the server ignores "
                f"max_tokens={cfg.max_tokens}; if the model's replies really are that long, raise the cap: "
                f"{ENV_PREFIX}MAX_REPLY_BYTES={max(cfg.max_reply_bytes * 4, 4 << 20)} (bytes; "
                "LLMConfig(max_reply_bytes=...) in Python).")

    def _notice(self, kind: str, message: str) -> None:
        """Count a failed request; say the first one of each kind at once (one line, not one per retry)."""
        with _ENDPOINTS_LOCK:
            self.stats.failures[kind] = self.stats.failures.get(kind, 0) + 1
            if kind in self._noticed:
                return
            self._noticed.add(kind)
        log.warning("ragauge: LLM judge %s (%s): %s", self.config.endpoint, self.config.model, message)

    def _failed(self, exc: JudgeError) -> JudgeError:
        self.stats.failed_calls += 1
        self.stats.last_failure = str(exc)
        return exc

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
        # identity: a compressed reply could inflate far past max_reply_bytes (it is still read under the cap)
        h = {"Content-Type": "application/json", "Accept": "application/json", "Accept-Encoding": "identity",
             **dict(self.config.headers)}
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
        """One chat completion; retries transient failures; raises :class:`JudgeCallError` when they persist
        (or at once for an over-size reply or a refused request), :class:`JudgeError` when the endpoint
        cannot be reached at all or refuses the configuration."""
        try:
            return await self._chat(messages, schema, schema_name, max_tokens)
        except JudgeError as exc:
            raise self._failed(exc) from None

    async def _chat(self, messages: Sequence[dict[str, str]], schema: dict[str, Any] | None, schema_name: str,
                    max_tokens: int | None) -> ChatReply:
        prompt_estimate = sum(estimate_tokens(m.get("content", "")) for m in messages)

        def build() -> tuple[dict[str, Any], str | None]:
            mode = self.mode
            return self._body(messages, schema, schema_name, max_tokens), (mode if schema is not None else None)

        def read(doc: dict[str, Any], mode: str | None, attempts: int) -> tuple[ChatReply, int]:
            reply = self._read(doc, mode or self.mode, attempts, prompt_estimate)
            with _ENDPOINTS_LOCK:
                if schema is not None and self._caps["mode"] == mode:
                    self._caps["confirmed"] = True
            return reply, reply.usage.total

        reply: ChatReply = await self._exchange(build, read, prompt_estimate + (max_tokens or self.config.max_tokens),
                                                what="a chat completion")
        return reply

    async def _exchange(self, build: Callable[[], tuple[dict[str, Any], str | None]],
                        read: Callable[[dict[str, Any], str | None, int], tuple[Any, int]], estimate: int, *,
                        what: str) -> Any:
        """POST ``build()``'s body until ``read(doc, mode, attempts)`` accepts a 200 reply (returning the
        result and the tokens it cost), with the retry, downgrade and error rules of the module docstring.
        ``build`` returns the body and the structured-output mode it used (``None``: it asked for none)."""
        cfg = self.config
        retries, attempts, unreachable, resent, waited = 0, 0, 0, 0, 0.0
        while True:
            body, mode = build()
            payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
            ticket = await self.limiter.acquire(estimate)
            attempts += 1
            self.stats.requests += 1
            wait: float | None = None
            try:
                async with self._sem():
                    status, headers, data = await self._post(payload, self._headers())
            except ReplyTooLargeError as exc:
                self._notice("reply too large", str(exc))
                raise
            except ReplyUnreadableError as exc:
                self._notice("reply unreadable", str(exc))
                raise
            except _Unreachable as exc:
                unreachable += 1
                problem = f"cannot connect: {exc}"
                self._notice("connect", f"{problem} (retrying)")
            except TimeoutError as exc:
                problem = (f"no complete reply within timeout={cfg.timeout:g} s ({str(exc) or 'whole-request deadline'}; "
                           f"{ENV_PREFIX}TIMEOUT sets it)")
                self._notice("timeout", f"{problem} (retrying)")
            except Exception as exc:  # httpx.TransportError (reset, protocol error), OSError: the transport failed
                problem = f"connection failed: {type(exc).__name__}: {exc}"
                self._notice("connection", f"{problem} (retrying)")
            else:
                text = data.decode("utf-8", errors="replace")
                if status == 200:
                    try:
                        result, tokens = read(json.loads(text), mode, attempts)
                    except (json.JSONDecodeError, KeyError, IndexError, TypeError, AttributeError, ValueError) as exc:
                        problem = f"HTTP 200 with a body that is not {what} ({exc}): {text[:200]!r}"
                        self._notice("bad body", f"{problem} (retrying)")
                    else:
                        self.limiter.settle(ticket, tokens)
                        return result
                elif status in _FORMAT_REJECT and self._downgrade(text, mode, "seed" in body):
                    resent += 1
                    continue  # a different request, not a retry of the same one
                elif status in (401, 403):
                    raise JudgeError(f"LLM endpoint {cfg.endpoint} refused the credentials (HTTP {status}): "
                                     f"{text[:300]}. Check RAGAUGE_LLM_API_KEY.")
                elif status in RETRY_STATUSES:
                    problem = f"HTTP {status}: {text[:200]}"
                    wait = retry_after_seconds(headers.get("retry-after"))
                    self._notice(f"HTTP {status}", f"{problem} (retrying)")
                elif status in (404, 405):
                    raise JudgeError(f"LLM endpoint {cfg.endpoint} answered HTTP {status} for model "
                                     f"{cfg.model!r}: {text[:300]}. Check the model name and base URL.")
                else:  # 400/413/422...: this request is bad (e.g. too long); other items may be fine
                    self._notice(f"HTTP {status}", f"request refused with HTTP {status}: {text[:200]} "
                                                   "(that item is unscored; not retried)")
                    raise JudgeCallError(f"LLM endpoint {cfg.endpoint} refused the request with HTTP {status} "
                                         f"(not retried: the same request would fail again): {text[:300]}")
            retries += 1
            delay = None
            allowed = cfg.max_retries
            if unreachable == attempts and self.stats.replies == 0:
                allowed = min(allowed, NEVER_REACHED_RETRIES)  # never reached: do not wait long to say so
            if retries <= allowed:
                delay = min(wait, cfg.max_retry_after) if wait is not None else self._backoff(retries)
                if waited + delay > cfg.max_wait:
                    problem += (f"; gave up: waiting {delay:g} s more would pass max_wait={cfg.max_wait:g} s "
                                f"({waited:g} s waited already; {ENV_PREFIX}MAX_WAIT sets it)")
                    delay = None
            if delay is None:
                if unreachable == attempts and self.stats.replies == 0:
                    raise JudgeError(
                        f"cannot reach the LLM endpoint {cfg.endpoint}: every one of {attempts} attempts failed to "
                        f"connect ({problem}). Check that the server runs and the URL (--judge openai:MODEL@URL or "
                        "RAGAUGE_LLM_BASE_URL).")
                raise JudgeCallError(f"LLM call to {cfg.endpoint} failed after {count(attempts - resent, 'attempt')}: "
                                     f"{problem}{resent_note(resent, attempts)}")
            self.stats.retries += 1
            waited += delay
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
