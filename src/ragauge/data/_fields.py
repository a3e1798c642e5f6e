"""Field names: canonical names, the aliases we accept (Ragas v1/v2, ours), and a user's field_map.

Resolution order for each key of a record: the user's ``field_map`` renames it first; the result is
either a canonical name, an alias of one, or an extra column that goes to ``metadata``.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

from ragauge.data._collect import ErrorCollector, Location
from ragauge.data.schema import AGENT_FIELDS, SAMPLE_FIELDS
from ragauge.errors import ConfigError

CANONICAL = frozenset(SAMPLE_FIELDS + AGENT_FIELDS)

#: alias -> canonical name. Ragas v1 used question/answer/contexts (our names) and
#: ground_truth(s); Ragas v2 (SingleTurnSample) uses user_input/response/retrieved_contexts/reference.
ALIASES: Mapping[str, str] = {
    # Ragas v2
    "user_input": "question",
    "response": "answer",
    "retrieved_contexts": "contexts",
    "retrieved_context_ids": "retrieved_ids",
    "reference_context_ids": "relevant_ids",
    # Ragas v1
    "ground_truth": "reference",
    "ground_truths": "reference",  # a list: the first is the reference (as Ragas 0.1 did)
    # the seed's golden format {question, relevant_doc, retrieved_docs}: one relevant id (a string
    # is that id), and the retrieved documents' ids (or objects {id, text}: those are contexts too)
    "relevant_doc": "relevant_ids",
    "retrieved_docs": "retrieved_ids",
    # agents: OpenAI chat messages carry the tool calls (data/tools.py); DeepEval's names
    "messages": "tool_calls",
    "tools_called": "tool_calls",
    "should_consider_ordering": "tools_ordered",
    # ours
    "tag": "tags",
    "slice": "tags",
    "slices": "tags",
    "latency_s": "latency_ms",  # seconds, converted to ms
    "retrieval_s": "retrieval_ms",
    "ttft_s": "ttft_ms",
}

#: Aliases whose values are in seconds; the canonical field is in milliseconds.
SECONDS_ALIASES = frozenset({"latency_s", "retrieval_s", "ttft_s"})

KNOWN_NAMES = CANONICAL | frozenset(ALIASES)


def close_matches(name: str, names: frozenset[str] | set[str]) -> str:
    found = difflib.get_close_matches(name, sorted(names), n=3)
    return f"did you mean {' or '.join(repr(f) for f in found)}? " if found else ""


def check_field_map(field_map: Mapping[str, str] | None) -> dict[str, str]:
    """Validate a ``{their name: our name}`` map; each target must be a canonical name or an alias."""
    if field_map is None:
        return {}
    if not isinstance(field_map, Mapping):
        raise ConfigError(f"field_map must be a mapping {{their name: our name}}, not {type(field_map).__name__}")
    checked: dict[str, str] = {}
    for theirs, ours in field_map.items():
        if not isinstance(theirs, str) or not isinstance(ours, str):
            raise ConfigError(f"field_map entries must be strings, got {theirs!r}: {ours!r}")
        if ours not in KNOWN_NAMES:
            raise ConfigError(
                f"field_map maps {theirs!r} to {ours!r}, which is not a sample field; "
                f"{close_matches(ours, KNOWN_NAMES)}the fields are: {', '.join(SAMPLE_FIELDS + AGENT_FIELDS)}"
            )
        checked[theirs] = ours
    return checked


def resolve(
    record: Mapping[Any, Any], field_map: Mapping[str, str], loc: Location, errors: ErrorCollector
) -> tuple[dict[str, tuple[str, str, Any]], dict[str, Any]]:
    """Split a record into ``{canonical: (given key, name after field_map, value)}`` and extras.

    A null value counts as absent, so a DataFrame with both a ``question`` and a ``user_input``
    column is fine as long as no row fills both. Two non-null names for one field are an error.
    """
    found: dict[str, tuple[str, str, Any]] = {}
    extras: dict[str, Any] = {}
    for key, value in record.items():
        if not isinstance(key, str):
            errors.add(loc.error("field names must be strings", value=key, hint="Rename the column"))
            continue
        name = field_map.get(key, key)
        target = ALIASES.get(name, name)
        if target not in CANONICAL:
            if value is not None:
                extras[key] = value
            continue
        if value is None:
            continue
        if target in found:
            other = found[target][0]
            errors.add(
                loc.error(
                    f"both {other!r} and {key!r} give the field {target!r}",
                    field=key,
                    hint="Keep only one of them (Ragas names and ours are aliases of the same field)",
                )
            )
            continue
        found[target] = (key, name, value)
    return found, extras
