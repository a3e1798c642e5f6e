"""Samples -> canonical dicts and JSONL files that :func:`ragauge.data.load` reads back unchanged."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterable

from ragauge.data.schema import AGENT_FIELDS, SAMPLE_FIELDS, Context, Sample
from ragauge.data.tools import tool_call_to_dict
from ragauge.errors import InputError

__all__ = ["sample_to_dict", "write_jsonl"]

# Fields whose empty value equals "absent" on load; omitted when empty to keep files small.
# retrieved_ids=() and relevant_ids={} are NOT among them: they differ from "not given".
# tools_ordered=False is the default; tool_calls=() ("no call made") is kept: it differs from None.
_OMIT_WHEN_EMPTY = frozenset({"contexts", "tags", "metadata", "tools_ordered"})


def _context_to_json(ctx: Context) -> str | dict[str, Any]:
    if ctx.id is None and ctx.score is None and not ctx.metadata:
        return ctx.text
    out: dict[str, Any] = {"text": ctx.text}
    if ctx.id is not None:
        out["id"] = ctx.id
    if ctx.score is not None:
        out["score"] = ctx.score
    if ctx.metadata:
        out["metadata"] = dict(ctx.metadata)
    return out


def sample_to_dict(sample: Sample) -> dict[str, Any]:
    """A JSON-ready dict with canonical field names, in schema order; None fields are omitted.

    Contexts without id/score/metadata are written as plain strings.

    >>> sample_to_dict(Sample(id="q1", question="Why?", tags=("a",)))
    {'id': 'q1', 'question': 'Why?', 'tags': ['a']}
    """
    out: dict[str, Any] = {}
    for name in SAMPLE_FIELDS + AGENT_FIELDS:
        value = getattr(sample, name)
        if value is None or (name in _OMIT_WHEN_EMPTY and not value):
            continue
        if name == "contexts":
            value = [_context_to_json(c) for c in value]
        elif name in ("tool_calls", "expected_tools"):
            value = [tool_call_to_dict(c) for c in value]
        elif isinstance(value, tuple):
            value = list(value)
        elif name in ("relevant_ids", "metadata"):
            value = dict(value)
        out[name] = value
    return out


def write_jsonl(samples: Iterable[Sample], path: str | os.PathLike[str]) -> None:
    """Write one canonical JSON object per line (UTF-8); the file is replaced atomically.

    Raises ``InputError`` for a sample whose metadata is not JSON (an object, NaN, infinity).
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)  # like `--out DIR` everywhere else
    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
            for sample in samples:
                try:
                    line = json.dumps(sample_to_dict(sample), ensure_ascii=False, allow_nan=False)
                except (TypeError, ValueError) as exc:
                    raise InputError(
                        f"sample {sample.id!r} cannot be written as JSON: {exc}",
                        file=str(target),
                        field="metadata",
                        hint="Metadata values must be JSON: strings, finite numbers, booleans, lists, objects",
                    ) from exc
                fh.write(line)
                fh.write("\n")
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()
