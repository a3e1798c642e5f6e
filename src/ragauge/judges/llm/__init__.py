"""The LLM judge: any OpenAI-compatible chat endpoint behind the :class:`ragauge.judges.base.Judge` door.

Modules: ``config`` (LLMConfig, env vars, spec strings), ``client`` (async HTTP, retries, rate
limits, structured output), ``parse`` (strict reply parsing), ``cache`` (SQLite reply cache),
``prompts`` (versioned prompt files), ``budget`` (limits, spend, dry-run plan), ``spans`` (quotes ->
offsets), ``outcome`` (unscored markers), ``judge`` (LLMJudge), ``rounds`` (a round of requests in the fewest calls),
``usage`` (calls/tokens/cost per metric), ``cascade`` (CascadeJudge: offline verifier first, uncertain
claims to the LLM). Importing this package loads only the standard library and numpy; see docs/llm-judge.md.
"""

from .budget import Budget, PlannedCalls, Prices, load_prices
from .cache import ReplyCache, cache_key
from .cascade import CascadeJudge, CascadeVerdict, parse_band
from .client import ChatClient, JudgeCallError, Usage
from .config import LLMConfig, parse_judge_spec
from .judge import LLMJudge
from .verdicts import LLMClaim, relevancy_from_questions
from .outcome import Unscored, UnscoredList, unscored_of
from .parse import JudgeParseError, parse_reply
from .usage import UsageLedger, serving

__all__ = [
    "Budget", "CascadeJudge", "CascadeVerdict", "ChatClient", "JudgeCallError", "JudgeParseError", "LLMClaim", "LLMConfig", "LLMJudge",
    "PlannedCalls", "Prices", "ReplyCache", "Unscored", "UnscoredList", "Usage", "cache_key", "load_prices",
    "UsageLedger", "parse_band", "parse_judge_spec", "parse_reply", "relevancy_from_questions", "serving",
    "unscored_of",
]
