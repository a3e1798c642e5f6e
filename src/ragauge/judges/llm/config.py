"""Configuration of the LLM judge: one frozen object for Python, env vars, config files and spec strings.

Env vars (one prefix, read by :meth:`LLMConfig.from_env`)::

    RAGAUGE_LLM_BASE_URL   e.g. http://127.0.0.1:8080/v1   (default https://api.openai.com/v1)
    RAGAUGE_LLM_API_KEY    sent as "Authorization: Bearer ..." (never stored in results or the cache)
    RAGAUGE_LLM_MODEL      e.g. gpt-4o-mini
    RAGAUGE_LLM_HEADERS    extra headers as JSON, e.g. {"X-Tenant": "bank"}
    RAGAUGE_LLM_MAX_REPLY_BYTES  cap on one reply body, bytes (default 1048576; at least 1024)
    RAGAUGE_LLM_TIMEOUT    seconds for one whole HTTP request (default 120; 0 = no deadline)
    RAGAUGE_LLM_MAX_WAIT   seconds one call may wait between its retries in all (default 300)
    RAGAUGE_LLM_EMBEDDINGS_MODEL     embeddings model for answer relevancy's cosines, sent to the
                                     endpoint's /embeddings (default: none = the offline embedder)
    RAGAUGE_LLM_EMBEDDINGS_BASE_URL  where that model is served, if not at RAGAUGE_LLM_BASE_URL

Spec strings (``--judge`` on the command line, ``get_judge("...")`` in Python)::

    openai                               model and URL from the env vars
    openai:MODEL                         URL from RAGAUGE_LLM_BASE_URL (default OpenAI)
    openai:MODEL@URL                     both given; MODEL may contain ':' (ollama "qwen2.5:0.5b")

>>> parse_judge_spec("openai:qwen2.5:0.5b@http://127.0.0.1:11434/v1", env={})
('qwen2.5:0.5b', 'http://127.0.0.1:11434/v1')

Secrets in the URL: a query string (``?api-version=...&api_key=...``) is kept and sent with every
request; ``user:password@`` is sent as HTTP Basic auth (not as part of the URL). Whatever ragauge
writes down or prints (results.json, report.html, error messages) shows only :func:`redact_url`'s
form, where userinfo and every query value are ``***``:

>>> redact_url("https://bob:s3cret@gw.example/v1/?api-version=2024-02&api_key=sk-1")
'https://***@gw.example/v1?api-version=***&api_key=***'
"""

from __future__ import annotations

import json
import os
import re
import urllib.parse
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from ...errors import ConfigError

ENV_PREFIX = "RAGAUGE_LLM_"
DEFAULT_BASE_URL = "https://api.openai.com/v1"
SPEC_PREFIXES = ("openai", "llm")
#: Ways to ask for JSON, strongest first; the client falls back along this list per endpoint.
STRUCTURED_MODES = ("json_schema", "json_object", "none")
#: Default cap on one reply's body (bytes): a chat completion of ``max_tokens`` = 1024 is a few KB.
MAX_REPLY_BYTES = 1 << 20


def redact_url(url: str) -> str:
    """``url`` safe to record: userinfo -> ``***@``, every query value -> ``***`` (a bare query item, which
    may itself be a key, -> ``***``), no fragment; a trailing slash of the path is dropped."""
    try:
        parts = urllib.parse.urlsplit(url)
        host = parts.netloc.rpartition("@")[2]
    except ValueError:
        return "<unparseable URL>"
    netloc = ("***@" if "@" in parts.netloc else "") + host
    path = parts.path
    if "@" in path:  # not a well-formed URL ("https//user:pw@host"): what precedes an '@' may be a password
        path = "***@" + path.rpartition("@")[2]
    items = [q for q in parts.query.split("&") if q]
    query = "&".join(f"{q.partition('=')[0]}=***" if "=" in q else "***" for q in items)
    return urllib.parse.urlunsplit((parts.scheme, netloc, path.rstrip("/"), query, ""))


@dataclass(frozen=True)
class LLMConfig:
    """Everything the client and the judge need; validated on construction.

    ``structured``: ``"auto"`` tries :data:`STRUCTURED_MODES` in order and remembers per endpoint what
    the server accepts; a mode name pins it. ``parse_retries``: how many times a reply that does not
    parse is re-asked *with the validation error appended* (never the identical request).
    """

    model: str
    base_url: str = field(default=DEFAULT_BASE_URL, repr=False)  #: may hold secrets: see :attr:`endpoint`
    api_key: str | None = field(default=None, repr=False)
    headers: Mapping[str, str] = field(default_factory=dict)
    timeout: float = 120.0  #: seconds for one whole HTTP request (connect, send, headers, body); 0 = none
    max_retries: int = 5
    backoff_base: float = 1.0
    backoff_max: float = 60.0
    max_retry_after: float = 300.0
    max_wait: float = 300.0  #: seconds one call may spend waiting between its retries, Retry-After included
    max_reply_bytes: int = MAX_REPLY_BYTES  #: a longer reply body is refused (that call is unscored, not cached)
    concurrency: int = 4
    requests_per_minute: float | None = None
    tokens_per_minute: float | None = None
    temperature: float = 0.0
    seed: int | None = 0
    max_tokens: int = 1024
    structured: str = "auto"
    parse_retries: int = 1
    questions: int = 3  #: questions generated per answer for answer relevancy
    #: embeddings model for answer relevancy's cosines (OpenAI-compatible ``/embeddings``); ``None``: offline
    embeddings_model: str | None = None
    #: where the embeddings model is served (``None``: ``base_url``); may hold secrets like ``base_url``
    embeddings_base_url: str | None = field(default=None, repr=False)
    embeddings_batch: int = 64  #: texts per ``/embeddings`` request

    def __post_init__(self) -> None:
        if not self.model:
            raise ConfigError(f"LLM judge: no model given; set {ENV_PREFIX}MODEL or use the spec 'openai:MODEL@URL'")
        if not self.base_url.startswith(("http://", "https://")):
            raise ConfigError(f"LLM judge: base URL must start with http:// or https:// (got {redact_url(self.base_url)!r})")
        if self.max_reply_bytes < 1024:
            raise ConfigError(f"LLM judge: max_reply_bytes must be >= 1024 (got {self.max_reply_bytes!r})")
        user = urllib.parse.urlsplit(self.base_url).username
        if user is not None and self.api_key:
            raise ConfigError(f"LLM judge: the base URL {redact_url(self.base_url)} carries user:password@ (sent as "
                              "HTTP Basic auth) and an API key is set (sent as a Bearer token): both would be the "
                              "Authorization header. Drop one (unset RAGAUGE_LLM_API_KEY, or the userinfo).")
        for name in ("timeout", "backoff_base", "backoff_max", "max_retry_after", "max_wait"):
            if getattr(self, name) < 0:
                raise ConfigError(f"LLM judge: {name} must be >= 0 (got {getattr(self, name)!r})")
        for name in ("max_retries", "parse_retries"):
            if getattr(self, name) < 0:
                raise ConfigError(f"LLM judge: {name} must be >= 0 (got {getattr(self, name)!r})")
        if self.concurrency < 1 or self.max_tokens < 1 or self.questions < 1:
            raise ConfigError("LLM judge: concurrency, max_tokens and questions must be >= 1 "
                              f"(got {self.concurrency}, {self.max_tokens}, {self.questions})")
        if self.embeddings_base_url is not None and not self.embeddings_base_url.startswith(("http://", "https://")):
            raise ConfigError("LLM judge: embeddings base URL must start with http:// or https:// (got "
                              f"{redact_url(self.embeddings_base_url)!r}; {ENV_PREFIX}EMBEDDINGS_BASE_URL)")
        if self.embeddings_model is not None and not self.embeddings_model.strip():
            raise ConfigError(f"LLM judge: embeddings model is empty; unset {ENV_PREFIX}EMBEDDINGS_MODEL or name a model")
        if self.embeddings_batch < 1:
            raise ConfigError(f"LLM judge: embeddings_batch must be >= 1 (got {self.embeddings_batch!r})")
        if self.structured != "auto" and self.structured not in STRUCTURED_MODES:
            raise ConfigError(f"LLM judge: structured must be 'auto' or one of {STRUCTURED_MODES} (got {self.structured!r})")

    @property
    def embeddings_endpoint(self) -> str | None:
        """Where embeddings are asked for, redacted; ``None`` without an embeddings model."""
        if self.embeddings_model is None:
            return None
        return redact_url(self.embeddings_base_url or self.base_url)

    @property
    def endpoint(self) -> str:
        """``base_url`` as it may be recorded and printed (:func:`redact_url`: no userinfo, no query values,
        no trailing slash); also the key under which server capabilities are remembered."""
        return redact_url(self.base_url)

    def __repr__(self) -> str:
        return (f"LLMConfig(model={self.model!r}, endpoint={self.endpoint!r}, concurrency={self.concurrency}, "
                f"timeout={self.timeout}, max_retries={self.max_retries}, structured={self.structured!r})")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> "LLMConfig":
        """Read ``RAGAUGE_LLM_*``; keyword arguments win over the environment."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {
            "model": env.get(ENV_PREFIX + "MODEL", ""),
            "base_url": env.get(ENV_PREFIX + "BASE_URL") or DEFAULT_BASE_URL,
            "api_key": env.get(ENV_PREFIX + "API_KEY") or None,
            "embeddings_model": env.get(ENV_PREFIX + "EMBEDDINGS_MODEL") or None,
            "embeddings_base_url": env.get(ENV_PREFIX + "EMBEDDINGS_BASE_URL") or None,
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
        for name, kind in _NUMERIC_ENV.items():
            raw = env.get(ENV_PREFIX + name.upper())
            if raw is not None and raw.strip():
                values[name] = _env_number(name, raw, kind)
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def with_(self, **changes: Any) -> "LLMConfig":
        return replace(self, **changes)


#: Numeric settings read from ``RAGAUGE_LLM_<NAME>``: field -> (type, smallest value, unit, example).
_NUMERIC_ENV: dict[str, tuple[type, float, str, str]] = {
    "max_reply_bytes": (int, 1024, "bytes", "4194304"),
    "timeout": (float, 0, "seconds (0 = no deadline)", "300"),
    "max_wait": (float, 0, "seconds", "600"),
}


def _env_number(name: str, raw: str, kind: tuple[type, float, str, str]) -> int | float:
    """``RAGAUGE_LLM_<NAME>``'s value as the field's type, or a :class:`ConfigError` naming the variable.

    >>> _env_number("timeout", " 30 ", _NUMERIC_ENV["timeout"])
    30.0
    >>> _env_number("max_reply_bytes", "1MB", _NUMERIC_ENV["max_reply_bytes"])
    Traceback (most recent call last):
    ...
    ragauge.errors.ConfigError: RAGAUGE_LLM_MAX_REPLY_BYTES must be a whole number of bytes >= 1024, got '1MB'; e.g. RAGAUGE_LLM_MAX_REPLY_BYTES=4194304
    """
    typ, least, unit, example = kind
    var = ENV_PREFIX + name.upper()
    whole = "a whole number of " if typ is int else "a number of "
    problem = f"{var} must be {whole}{unit} >= {least:g}, got {raw!r}; e.g. {var}={example}"
    try:
        value = typ(raw.strip())
    except ValueError:
        raise ConfigError(problem) from None
    if value != value or value in (float("inf"), float("-inf")) or value < least:  # NaN, inf, too small
        raise ConfigError(problem)
    return value


def parse_judge_spec(spec: str, *, env: Mapping[str, str] | None = None) -> tuple[str, str]:
    """``"openai:MODEL@URL"`` -> ``(model, base_url)``; missing parts come from the env vars.

    A URL part that is not http(s) (``@htps://...``, ``@ftp://...``) is refused rather than read as part of
    the model's name (which would be sent to the default endpoint and recorded with whatever key it holds)."""
    env = os.environ if env is None else env
    head, sep, rest = spec.partition(":")
    if head not in SPEC_PREFIXES:
        raise ConfigError(f"not an LLM judge spec: {redact_spec(spec)!r}; expected 'openai', 'openai:MODEL' or "
                          f"'openai:MODEL@URL'{_hint(spec)}")
    model, url = rest, ""
    at = rest.lower().rfind("@http")
    if at >= 0:
        model, url = rest[:at], rest[at + 1:]
        scheme, slashes, after = url.partition("://")
        if not slashes or scheme.lower() not in ("http", "https"):  # "@https//...", "@htp://..."
            raise _not_a_url(spec)
        url = scheme.lower() + slashes + after  # "HTTPS://..." is https
    if "://" in model or ("@" in model and not _MODEL_AT.fullmatch(model)):  # "@htps://...", "@ftp://..."
        raise _not_a_url(spec)
    model = model or env.get(ENV_PREFIX + "MODEL", "")
    url = url or env.get(ENV_PREFIX + "BASE_URL") or DEFAULT_BASE_URL
    if not model:
        raise ConfigError(f"judge spec {redact_spec(spec)!r} names no model and {ENV_PREFIX}MODEL is not set; "
                          "use 'openai:MODEL@URL', e.g. 'openai:gpt-4o-mini@https://api.openai.com/v1'")
    return model, url


def _not_a_url(spec: str) -> ConfigError:
    return ConfigError(f"judge spec {redact_spec(spec)!r}: the part after '@' must be an http:// or https:// URL, "
                       "e.g. 'openai:gpt-4o-mini@https://api.openai.com/v1'")


#: A model name may hold one '@' before a plain version tag ("org/model@2024-08"): nothing URL-like after it.
_MODEL_AT = re.compile(r"[^@/:?]+(?:/[^@/:?]+)*@[\w.\-]+")
#: A URL anywhere in a spec: scheme, then everything up to white space.
_SPEC_URL = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*://\S*")
#: What ``--judge`` accepts before its first ':' (see ``ragauge eval --help``).
JUDGE_KINDS = ("auto", "offline", "none", "openai", "llm", "cascade")


def redact_spec(spec: str) -> str:
    """A judge spec as it may be shown: every URL in it through :func:`redact_url`; when it holds no URL but
    an '@' (a mistyped URL, which may still carry a key), everything after the first '@' is ``***``.

    >>> redact_spec("opanai:m@https://bob:pw@gw.example/v1?api_key=sk-1")
    'opanai:m@https://***@gw.example/v1?api_key=***'
    >>> redact_spec("openai:m@htps//bob:pw@gw.example/v1?api_key=sk-1")
    'openai:m@***'
    """
    out = _SPEC_URL.sub(lambda m: redact_url(m.group()), spec)
    if out == spec and "@" in spec and not _MODEL_AT.fullmatch(spec.partition(":")[2]):
        out = spec.partition("@")[0] + "@***"
    return out


def suggest_judge_spec(spec: str) -> str | None:
    """The spec with a mistyped kind corrected (``opanai:...`` -> ``openai:...``, ``cascde:openai:...``),
    redacted (:func:`redact_spec`); ``None`` when nothing close is known.

    >>> suggest_judge_spec("opanai:m@https://gw.example/v1?key=sk-1")
    'openai:m@https://gw.example/v1?key=***'
    """
    head, sep, rest = spec.partition(":")
    kind = _close(head, JUDGE_KINDS)
    if kind in ("auto", "offline", "none"):
        return kind if not sep else None
    if kind == "cascade":
        inner_head, inner_sep, inner_rest = rest.partition(":")
        inner = _close(inner_head, SPEC_PREFIXES)
        if inner is None:
            return None
        fixed = f"cascade:{inner}{inner_sep}{inner_rest}"
    elif kind is not None and sep:
        fixed = kind + sep + rest
    elif kind is not None:
        fixed = kind
    else:
        return None
    return None if fixed == spec else redact_spec(fixed)


def _close(word: str, options: tuple[str, ...]) -> str | None:
    import difflib

    low = word.strip().lower()
    if low in options:
        return low
    found = difflib.get_close_matches(low, options, n=1, cutoff=0.6)
    return found[0] if found else None


def _hint(spec: str) -> str:
    fix = suggest_judge_spec(spec)
    return f"; did you mean {fix!r}?" if fix else ""


def judge_spec_hint(spec: str) -> str:
    """``"; did you mean '...'?"`` for a mistyped ``--judge`` spec (redacted), or ``""``."""
    return _hint(spec)
