"""Answers from an OpenAI-compatible LLM, through ragauge's one HTTP client (``judges.llm.ChatClient``).

The prompt is a versioned data file, ``judges/prompts/rag_answer.{ru,en}.md`` (same format as the
judge prompts: front matter, ``## system``, ``## user``; ``$question`` and ``$contexts`` are filled
in). Contexts are numbered by their chunk ids (``[price-002] text``) so the model can cite them; the
guard's citations still come from retrieval metadata, not from the model's text. The prompt id and
sha256 go into :attr:`LLMGenerator.provenance` (recorded in every sample the pipeline writes).

Configuration is the judge's: an :class:`~ragauge.judges.llm.config.LLMConfig`, a spec string
``"openai:MODEL@URL"``, or ``"openai"`` with the ``RAGAUGE_LLM_*`` environment variables.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from functools import lru_cache
from importlib import resources
from typing import Any, Sequence

from ..errors import ConfigError, JudgeError
from ..guard.result import normalize_chunks
from ..guard.templates import detect_lang

TASK = "rag_answer"


@lru_cache(maxsize=None)
def load_answer_prompt(lang: str) -> Any:
    """The ``rag_answer`` prompt in ``lang`` ("ru"/"en"; anything else -> "en")."""
    from ..judges.llm.prompts import _parse, prompt_lang

    lang = prompt_lang(lang)
    data = resources.files("ragauge.judges").joinpath("prompts", f"{TASK}.{lang}.md").read_bytes()
    return _parse(TASK, lang, data.decode("utf-8"), hashlib.sha256(data).hexdigest())


def format_contexts(contexts: Sequence[Any], *, max_chars: int = 2000) -> str:
    """``[id] text`` blocks, one per context, each cut at ``max_chars``."""
    blocks = []
    for c in normalize_chunks(contexts):
        text = c.text if len(c.text) <= max_chars else c.text[:max_chars] + " …"
        blocks.append(f"[{c.id}] {text}")
    return "\n\n".join(blocks)


def split_citations(text: str, known_ids: Sequence[str]) -> tuple[str, list[str]]:
    """``[id]`` markers of known chunk ids taken out of ``text``: ``(clean text, ids in order)``.

    >>> split_citations("Цена 620 руб. [price-006]. Срок 5 дней [x].", ["price-006"])
    ('Цена 620 руб.. Срок 5 дней [x].', ['price-006'])
    """
    known = set(known_ids)
    found: list[str] = []

    def take(m: re.Match[str]) -> str:
        ids = [i.strip() for i in m.group(1).split(",")]
        if ids and all(i in known for i in ids):
            found.extend(i for i in ids if i not in found)
            return ""
        return m.group(0)

    clean = re.sub(r"\s*\[([^\[\]]+)\]", take, text)
    return clean.strip(), found


def _config(llm: Any) -> Any:
    from ..judges.llm.config import LLMConfig, parse_judge_spec

    if isinstance(llm, LLMConfig):
        return llm
    if isinstance(llm, str):
        if llm == "openai" or llm == "llm":
            return LLMConfig.from_env()
        model, url = parse_judge_spec(llm)
        return LLMConfig.from_env(model=model, base_url=url)
    raise ConfigError(f"llm must be an LLMConfig or a spec string 'openai:MODEL@URL' (got {llm!r})")


class LLMGenerator:
    """``generate(question, contexts) -> str`` with an OpenAI-compatible chat model.

    >>> gen = LLMGenerator("openai:qwen2.5:0.5b@http://127.0.0.1:11434/v1")   # doctest: +SKIP
    >>> gen("Сколько стоит штукатурка?", [{"id": "p6", "text": "..."}])        # doctest: +SKIP
    """

    def __init__(self, llm: Any, *, max_tokens: int = 400, lang: str | None = None) -> None:
        from ..judges.llm.client import ChatClient

        self.config = _config(llm)
        self.max_tokens = max_tokens
        self.lang = lang
        self.client = ChatClient(self.config)

    def provenance(self, lang: str = "ru") -> dict[str, str]:
        prompt = load_answer_prompt(lang)
        return {"generator": "llm", "model": self.config.model, "endpoint": self.config.endpoint,
                "prompt": prompt.id, "prompt_sha256": prompt.sha256}

    async def agenerate(self, question: str, contexts: Sequence[Any]) -> str:
        lang = detect_lang(question, self.lang)
        prompt = load_answer_prompt(lang)
        messages = prompt.render(question=question, contexts=format_contexts(contexts))
        reply = await self.client.chat(messages, schema=None, max_tokens=self.max_tokens)
        text = reply.text.strip()
        if not text:
            raise JudgeError(f"the LLM at {self.config.endpoint} returned an empty answer "
                             f"(finish_reason={reply.finish_reason!r})")
        return text

    def __call__(self, question: str, contexts: Sequence[Any]) -> str:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(self.agenerate(question, contexts))
        raise ConfigError("LLMGenerator was called synchronously inside an event loop; "
                          "use `await generator.agenerate(...)` (or Guard.arun with an async generate)")

    def close(self) -> None:
        self.client.close()


__all__ = ["LLMGenerator", "format_contexts", "load_answer_prompt", "split_citations"]
