"""One ask of an LLM with strict parsing: the reply is parsed, and an unusable one is answered with the
parse error and asked again (up to ``retries`` times). Shared by the LLM judge and the LLM question
generator, which differ only in how a reply is fetched (cache, budget, in-flight sharing) and in what
they make of a failure.

    >>> import asyncio
    >>> replies = iter(['{"x": ', '{"x": 1}'])
    >>> async def reply(key, messages):
    ...     return next(replies)
    >>> asked = asyncio.run(ask_parsed(reply, [{"role": "user", "content": "?"}], key_for=len,
    ...                                shape=lambda value, raw: value["x"], lang="en", retries=1))
    >>> asked.value, asked.reasks
    (1, 1)
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from ...errors import JudgeParseError
from .client import JudgeCallError
from .parse import parse_reply

__all__ = ["REASK", "Asked", "ask_parsed", "paid_call", "parse_message"]

REASK = {
    "en": "Your reply could not be used: {error}. Reply again with the JSON object only, following the format exactly.",
    "ru": "Ваш ответ не удалось разобрать: {error}. Ответьте ещё раз только JSON-объектом точно в указанном формате.",
}

Message = dict[str, str]


@dataclass(frozen=True)
class Asked:
    """What one ask came to: a parsed ``value``, or a call error, or the last parse error, or a dry run."""

    value: Any = None
    call_error: JudgeCallError | None = None
    parse_error: JudgeParseError | None = None
    dry_run: bool = False
    reasks: int = 0  # how many times the model was asked again after an unusable reply
    repairs: tuple[str, ...] = ()  # the parser's safe repairs of the reply that was used


def parse_message(error: JudgeParseError) -> str:
    """The parse error without the raw reply it quotes (what the model is told, what a report shows)."""
    return str(error).partition("; raw reply: ")[0]


async def ask_parsed(
    reply: Callable[[str, list[Message]], Awaitable[str | None]],
    messages: list[Message],
    *,
    key_for: Callable[[list[Message]], str],
    shape: Any,
    lang: str,
    retries: int,
    allow_truncated: bool = False,
    on_usable: Callable[[str], None] | None = None,
    on_unusable: Callable[[str], None] | None = None,
) -> Asked:
    """Ask ``messages`` through ``reply(key_for(messages), messages)`` (None = dry run; it may raise
    JudgeCallError) and parse the reply into ``shape``; each unusable reply is followed by the reply and
    the parse error (``REASK[lang]``) and asked again, ``retries`` times at most.

    ``on_usable(key)`` / ``on_unusable(key)`` are told, per reply, whether it parsed: the judge caches
    a reply only once it parsed, and drops one that did not (so a re-run asks again)."""
    error: JudgeParseError | None = None
    for attempt in range(retries + 1):
        key = key_for(messages)
        try:
            raw = await reply(key, messages)
        except JudgeCallError as exc:
            return Asked(call_error=exc, reasks=attempt)
        if raw is None:
            return Asked(dry_run=True, reasks=attempt)
        try:
            parsed = parse_reply(raw, shape, allow_truncated=allow_truncated)
        except JudgeParseError as exc:
            if on_unusable is not None:
                on_unusable(key)
            error = exc
            messages = messages + [{"role": "assistant", "content": raw},
                                   {"role": "user", "content": REASK[lang].format(error=parse_message(exc))}]
            continue
        if on_usable is not None:
            on_usable(key)
        return Asked(value=parsed.value, reasks=attempt, repairs=tuple(parsed.repairs))
    return Asked(parse_error=error, reasks=retries)


async def paid_call(client: Any, cache: Any, budget: Any, *, key: str, model: str, prompt: Any,
                    messages: list[Message], schema: Any, est_prompt: int, est_completion: int,
                    completion_cap: int | None = None, cache_reply: bool = True) -> Any:
    """One call that is not in the cache: reserve the budget, ask, give the reservation back on failure
    (or book its worst case as spent when the server may have billed the call: an over-size reply; the
    error then carries ``booked = (prompt_tokens, completion_tokens)``), cache the reply (unless
    ``cache_reply`` is false: the caller caches it once it parsed) and book its tokens.
    ``completion_cap``: the request's ``max_tokens`` (default: the client's ``config.max_tokens``, which
    is what it sends), held in full until the call returns. Returns the client's reply (text and usage)."""
    if completion_cap is None:
        completion_cap = getattr(getattr(client, "config", None), "max_tokens", None)
    held = budget.try_reserve(est_prompt, est_completion, completion_cap=completion_cap)
    while held is None:  # calibrating on a first call, or waiting to go alone near a limit
        await asyncio.sleep(0.02)
        held = budget.try_reserve(est_prompt, est_completion, completion_cap=completion_cap)
    try:
        reply = await client.chat(messages, schema=schema, schema_name=prompt.task)
    except BaseException as exc:
        if getattr(exc, "billed", False):
            exc.booked = budget.record_unknown(held)  # type: ignore[attr-defined]
        else:
            budget.release(held)
        raise
    if cache_reply:
            cache.put(key, model=model, prompt_id=prompt.id, reply=reply.text,
                  prompt_tokens=reply.usage.prompt_tokens, completion_tokens=reply.usage.completion_tokens)
    budget.record(reply.usage.prompt_tokens, reply.usage.completion_tokens, held)
    return reply
