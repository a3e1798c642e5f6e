"""Which judge: the one reader of a judge spec and the one builder, for every front door.

Specs (``--judge`` on ``ragauge eval``/``generate``/``guard``, ``--ragauge-judge`` in pytest, ``judge=`` in
Python)::

    auto                        the offline judge when installed (judge metrics are left out otherwise)
    offline                     the offline judge
    none                        no judge (judge metrics are not computed by default)
    openai[:MODEL][@URL]        an OpenAI-compatible endpoint (model/URL from RAGAUGE_LLM_* when left out)
    cascade:openai:MODEL@URL    the offline verifier first, the claims it is unsure of to the LLM

The options that only make sense for some judges are checked here once: a budget or ``dry_run`` needs an
LLM judge, a cascade band needs a cascade. A spec echoed in an error is redacted (a URL may carry a key).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import ConfigError

PLAIN = ("auto", "offline", "none")
LLM_HEADS = ("openai", "llm")


@dataclass(frozen=True)
class JudgeChoice:
    """A parsed spec: ``kind`` is one of auto, offline, none, llm, cascade; ``llm`` the LLM part."""

    kind: str
    text: str
    llm: str | None = None

    @property
    def shown(self) -> str:
        """The spec as it may be printed (credentials in a URL redacted)."""
        from .llm.config import redact_spec

        return redact_spec(self.text)

    @property
    def uses_llm(self) -> bool:
        return self.kind in ("llm", "cascade")


def parse_judge(text: str | None, *, option: str = "--judge") -> JudgeChoice:
    """``text`` -> :class:`JudgeChoice`; ``None`` is ``auto``. A bad spec is a ``ConfigError`` naming ``option``.

    >>> parse_judge("cascade:openai:m@http://h/v1").llm
    'openai:m@http://h/v1'
    >>> parse_judge(None).kind
    'auto'
    """
    if text is None:
        return JudgeChoice("auto", "auto")
    if not isinstance(text, str):
        raise ConfigError(f"{option} must be a spec string such as 'offline' or 'openai:MODEL@URL', got {type(text).__name__}")
    spec = text.strip()
    head = spec.split(":", 1)[0]
    if spec in PLAIN:
        return JudgeChoice(spec, spec)
    if head in LLM_HEADS:
        return JudgeChoice("llm", spec, spec)
    if head == "cascade":
        rest = spec.partition(":")[2]
        if rest.split(":", 1)[0] in LLM_HEADS:
            return JudgeChoice("cascade", spec, rest)
        raise ConfigError(f"{option} {_shown(spec)!r}: a cascade needs an LLM judge after 'cascade:', "
                          f"e.g. cascade:openai:MODEL@URL{_hint(spec)}")
    raise ConfigError(f"{option} {_shown(spec)!r}: use auto, offline, none, openai:MODEL@URL or "
                      f"cascade:openai:MODEL@URL{_hint(spec)}")


def _shown(spec: str) -> str:
    from .llm.config import redact_spec

    return redact_spec(spec)


def _hint(spec: str) -> str:
    from .llm.config import judge_spec_hint

    return judge_spec_hint(spec)


def make_judge(
    text: str | None,
    *,
    option: str = "--judge",
    max_calls: int | None = None,
    max_tokens: int | None = None,
    max_usd: float | None = None,
    prices: Any = None,
    dry_run: bool = False,
    band: Any = None,
    flags: dict[str, str] | None = None,
) -> Any:
    """What ``evaluate(judge=...)`` takes for a spec and its options: ``None`` (no judge), ``"auto"`` /
    ``"offline"``, or a built LLM / cascade judge with its budget. ``flags`` renames the options in messages
    (pytest's ``--ragauge-max-usd``...); ``band`` is a cascade's ``"lo,hi"`` or ``(lo, hi)``."""
    names = {"budget": "--max-calls/--max-tokens/--max-usd/--prices", "dry_run": "--dry-run",
             "band": "--cascade-band", "max_usd": "--max-usd", "prices": "--prices"} | (flags or {})
    choice = parse_judge(text, option=option)
    budget_given = any(v is not None for v in (max_calls, max_tokens, max_usd, prices))
    if band is not None and choice.kind != "cascade":
        raise ConfigError(f"{names['band']} applies to a cascade judge ({option} cascade:openai:MODEL@URL)")
    if not choice.uses_llm:
        if budget_given or dry_run:
            what = names["budget"] + (f" and {names['dry_run']}" if dry_run else "")
            raise ConfigError(f"{what} apply to an LLM judge ({option} openai:MODEL@URL or cascade:openai:MODEL@URL)")
        return None if choice.kind == "none" else choice.kind
    from .llm.budget_options import budget_from_options
    from .llm.judge import LLMJudge

    assert choice.llm is not None
    budget = budget_from_options(choice.llm, max_calls=max_calls, max_tokens=max_tokens, max_usd=max_usd,
                                 prices=prices, usd_flag=names["max_usd"], prices_flag=names["prices"])
    judge = LLMJudge.from_spec(choice.llm, budget=budget, dry_run=dry_run)
    if choice.kind == "cascade":
        from .llm.cascade import CascadeJudge, parse_band

        return CascadeJudge(judge, band=None if band is None else parse_band(band, where=names["band"]))
    return judge
