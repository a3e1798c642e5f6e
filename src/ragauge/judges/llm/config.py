"""Configuration of the LLM judge: one frozen object for Python, env vars, config files and spec strings.

Env vars (one prefix, read by :meth:`LLMConfig.from_env`)::

    RAGAUGE_LLM_BASE_URL   e.g. http://127.0.0.1:8080/v1   (default https://api.openai.com/v1)
    RAGAUGE_LLM_API_KEY    sent as "Authorization: Bearer ..." (never stored in results or the cache)
    RAGAUGE_LLM_MODEL      e.g. gpt-4o-mini
    RAGAUGE_LLM_HEADERS    extra headers as JSON, e.g. {"X-Tenant": "bank"}

Spec strings (``--judge`` on the command line, ``get_judge("...")`` in Python)::

    openai                               model and URL from the env vars
    openai:MODEL                         URL from RAGAUGE_LLM_BASE_URL (default OpenAI)
    openai:MODEL@URL                     both given; MODEL may contain ':' (ollama "qwen2.5:0.5b")

>>> parse_judge_spec("openai:qwen2.5:0.5b@http://127.0.0.1:11434/v1", env={})
('qwen2.5:0.5b', 'http://127.0.0.1:11434/v1')
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from ...errors import ConfigError

ENV_PREFIX = "RAGAUGE_LLM_"
DEFAULT_BASE_URL = "https://api.openai.com/v1"
SPEC_PREFIXES = ("openai", "llm")
#: Ways to ask for JSON, strongest first; the client falls back along this list per endpoint.
STRUCTURED_MODES = ("json_schema", "json_object", "none")


@dataclass(frozen=True)
class LLMConfig:
    """Everything the client and the judge need; validated on construction.

    ``structured``: ``"auto"`` tries :data:`STRUCTURED_MODES` in order and remembers per endpoint what
    the server accepts; a mode name pins it. ``parse_retries``: how many times a reply that does not
    parse is re-asked *with the validation error appended* (never the identical request).
    """

    model: str
    base_url: str = DEFAULT_BASE_URL
    api_key: str | None = field(default=None, repr=False)
    headers: Mapping[str, str] = field(default_factory=dict)
    timeout: float = 120.0
    max_retries: int = 5
    backoff_base: float = 1.0
    backoff_max: float = 60.0
    max_retry_after: float = 300.0
    concurrency: int = 4
    requests_per_minute: float | None = None
    tokens_per_minute: float | None = None
    temperature: float = 0.0
    seed: int | None = 0
    max_tokens: int = 1024
    structured: str = "auto"
    parse_retries: int = 1
    questions: int = 3  #: questions generated per answer for answer relevancy

    def __post_init__(self) -> None:
        if not self.model:
            raise ConfigError(f"LLM judge: no model given; set {ENV_PREFIX}MODEL or use the spec 'openai:MODEL@URL'")
        if not self.base_url.startswith(("http://", "https://")):
            raise ConfigError(f"LLM judge: base URL must start with http:// or https:// (got {self.base_url!r})")
        for name in ("timeout", "backoff_base", "backoff_max", "max_retry_after"):
            if getattr(self, name) < 0:
                raise ConfigError(f"LLM judge: {name} must be >= 0 (got {getattr(self, name)!r})")
        for name in ("max_retries", "parse_retries"):
            if getattr(self, name) < 0:
                raise ConfigError(f"LLM judge: {name} must be >= 0 (got {getattr(self, name)!r})")
        if self.concurrency < 1 or self.max_tokens < 1 or self.questions < 1:
            raise ConfigError("LLM judge: concurrency, max_tokens and questions must be >= 1 "
                              f"(got {self.concurrency}, {self.max_tokens}, {self.questions})")
        if self.structured != "auto" and self.structured not in STRUCTURED_MODES:
            raise ConfigError(f"LLM judge: structured must be 'auto' or one of {STRUCTURED_MODES} (got {self.structured!r})")

    @property
    def endpoint(self) -> str:
        """``base_url`` without a trailing slash: the key under which server capabilities are remembered."""
        return self.base_url.rstrip("/")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> "LLMConfig":
        """Read ``RAGAUGE_LLM_*``; keyword arguments win over the environment."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {
            "model": env.get(ENV_PREFIX + "MODEL", ""),
            "base_url": env.get(ENV_PREFIX + "BASE_URL") or DEFAULT_BASE_URL,
            "api_key": env.get(ENV_PREFIX + "API_KEY") or None,
        }
        raw_headers = env.get(ENV_PREFIX + "HEADERS")
        if raw_headers:
            try:
                headers = json.loads(raw_headers)
            except json.JSONDecodeError as exc:
                raise ConfigError(f"{ENV_PREFIX}HEADERS must be a JSON object of strings: {exc}") from None
            if not isinstance(headers, dict) or not all(isinstance(v, str) for v in headers.values()):
                raise ConfigError(f"{ENV_PREFIX}HEADERS must be a JSON object of strings (got {raw_headers!r})")
            values["headers"] = headers
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def with_(self, **changes: Any) -> "LLMConfig":
        return replace(self, **changes)


def parse_judge_spec(spec: str, *, env: Mapping[str, str] | None = None) -> tuple[str, str]:
    """``"openai:MODEL@URL"`` -> ``(model, base_url)``; missing parts come from the env vars."""
    env = os.environ if env is None else env
    head, sep, rest = spec.partition(":")
    if head not in SPEC_PREFIXES:
        raise ConfigError(f"not an LLM judge spec: {spec!r}; expected 'openai', 'openai:MODEL' or 'openai:MODEL@URL'")
    model, url = rest, ""
    at = rest.rfind("@http")
    if at >= 0:
        model, url = rest[:at], rest[at + 1:]
    model = model or env.get(ENV_PREFIX + "MODEL", "")
    url = url or env.get(ENV_PREFIX + "BASE_URL") or DEFAULT_BASE_URL
    if not model:
        raise ConfigError(f"judge spec {spec!r} names no model and {ENV_PREFIX}MODEL is not set; "
                          "use 'openai:MODEL@URL', e.g. 'openai:gpt-4o-mini@https://api.openai.com/v1'")
    return model, url
