"""The LLM judge: any OpenAI-compatible chat endpoint behind the :class:`ragauge.judges.base.Judge` door.

Modules: ``config`` (LLMConfig, env vars, spec strings), ``client`` (async HTTP, retries, rate
limits, structured output), ``parse`` (strict reply parsing), ``cache`` (SQLite reply cache),
``prompts`` (versioned prompt files), ``budget`` (limits, spend, dry-run plan), ``spans`` (quotes ->
offsets), ``outcome`` (unscored markers), ``judge`` (LLMJudge). Importing this package loads only the
standard library and numpy; see docs/llm-judge.md.
"""

from .budget import Budget, PlannedCalls, Prices, load_prices
from .cache import ReplyCache, cache_key
from .client import ChatClient, JudgeCallError, Usage
from .config import LLMConfig, parse_judge_spec
from .judge import LLMJudge
from .verdicts import LLMClaim, relevancy_from_questions
from .outcome import Unscored, UnscoredList, unscored_of
from .parse import JudgeParseError, parse_reply

__all__ = [
    "Budget", "ChatClient", "JudgeCallError", "JudgeParseError", "LLMClaim", "LLMConfig", "LLMJudge",
    "PlannedCalls", "Prices", "ReplyCache", "Unscored", "UnscoredList", "Usage", "cache_key", "load_prices",
    "parse_judge_spec", "parse_reply", "relevancy_from_questions", "unscored_of",
]
