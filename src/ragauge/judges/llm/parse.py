"""Judge reply text -> the expected structure, or :class:`ragauge.errors.JudgeParseError` with the raw text.

Pure functions, no I/O. :func:`parse_reply` finds one JSON value in the reply, repairing only what
cannot change its meaning, then a shape validator (:func:`claims_shape`, :func:`verdicts_shape`,
:func:`questions_shape`) checks it and normalises it. Every repair is named in the result.

Repaired (safe: the repaired text says exactly what the model meant):

- a Markdown code fence around the JSON (```json ... ```) and prose before/after it: the first
  complete JSON object or array in the text is taken (a string-aware bracket scan);
- trailing commas before ``}`` or ``]`` (outside strings);
- a bare top-level array where an object with one list field was asked for (``["a", "b"]`` for
  ``{"claims": [...]}``);
- a reply cut off inside a top-level list (``max_tokens`` reached): the *complete* items are kept,
  the cut one is dropped, and the result says ``truncated: kept N complete items``. Only for lists
  whose items are independent (claims, questions); verdicts must cover every claim, so a cut
  verdict list is an error and is re-asked.

Not repaired (raise): single quotes or Python literals (``{'a': True}``) -- turning quotes around
would also turn apostrophes inside values ("don't", "д'Артаньян") and silently change the text;
unquoted keys; comments; NaN. The runner re-asks once with the error message appended, and small
models usually comply.

>>> parse_reply('Sure! ```json\\n{"claims": ["A.", "B.",]}\\n```', claims_shape).value
['A.', 'B.']
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from ...errors import JudgeParseError
from ..types import LABELS

_FENCE = re.compile(r"```[a-zA-Z0-9_-]*\s*\n?(.*?)(?:```|$)", re.DOTALL)


@dataclass(frozen=True)
class Parsed:
    value: Any
    repairs: tuple[str, ...] = field(default=())


def _strip_trailing_commas(text: str) -> str:
    out, in_str, esc = [], False, False
    i = 0
    while i < len(text):
        ch = text[i]
        if in_str:
            out.append(ch)
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
            out.append(ch)
        elif ch == ",":
            j = i + 1
            while j < len(text) and text[j] in " \t\r\n":
                j += 1
            if j < len(text) and text[j] in "}]":
                i += 1
                continue
            out.append(ch)
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def _scan(text: str, start: int) -> tuple[int | None, list[int]]:
    """From ``text[start]`` (``{`` or ``[``): end index of the balanced value, ``-1`` if the brackets
    do not match, ``None`` if the text ends first (cut off); and the positions just after each complete
    item of the top-level list (the value itself, or the list directly under the top-level object)."""
    stack: list[str] = []
    depth = 1 if text[start] == "[" else 2  # where the items of the top-level list sit
    in_str = esc = False
    item_ends: list[int] = []
    for i in range(start, len(text)):
        ch = text[i]
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
                if len(stack) == depth and stack[-1] == "[":
                    item_ends.append(i + 1)
            continue
        if ch == '"':
            in_str = True
        elif ch in "{[":
            stack.append(ch)
        elif ch in "}]":
            if not stack or (ch == "}") != (stack[-1] == "{"):
                return -1, item_ends
            stack.pop()
            if not stack:
                return i + 1, item_ends
            if len(stack) == depth and stack[-1] == "[":
                item_ends.append(i + 1)
    return None, item_ends


def _loads(text: str, repairs: list[str]) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    fixed = _strip_trailing_commas(text)
    value = json.loads(fixed)  # raises: the caller reports the original
    repairs.append("removed trailing commas")
    return value


def find_json(raw: str, *, allow_truncated: bool = False) -> Parsed:
    """The first JSON object/array in ``raw`` (fences and prose stripped), with the repairs made."""
    repairs: list[str] = []
    text = raw.strip().lstrip("\ufeff")
    fence = _FENCE.search(text)
    if fence and fence.group(1).strip():
        text = fence.group(1).strip()
        repairs.append("removed code fence")
    try:
        return Parsed(json.loads(text), tuple(repairs))
    except json.JSONDecodeError:
        pass
    # Objects first: prose often has "[1]"-style brackets, and every shape asked for is an object.
    starts = [i for i, ch in enumerate(text) if ch == "{"] + [i for i, ch in enumerate(text) if ch == "["]
    if not starts:
        raise JudgeParseError("no JSON object in the reply", raw=raw)
    first_error = "unbalanced brackets"
    cut_at = None
    for s in starts[:20]:
        end, _ = _scan(text, s)
        if end is None:  # runs to the end of the reply: every later bracket is inside this value
            cut_at, first_error = s, "the reply is cut off (unclosed brackets; max_tokens reached?)"
            break
        if end == -1:
            continue
        try:
            value = _loads(text[s:end], repairs)
        except json.JSONDecodeError as exc:
            first_error = f"invalid JSON: {exc.msg} at character {exc.pos}"
            continue
        if s > 0 or end < len(text):
            repairs.append("took the JSON out of surrounding prose")
        return Parsed(value, tuple(repairs))
    if allow_truncated and cut_at is not None:
        s = cut_at
        _, item_ends = _scan(text, s)
        if item_ends:
            head = text[s:item_ends[-1]]
            closing = "]}" if text[s] == "{" else "]"
            try:
                value = _loads(head + closing, repairs)
            except json.JSONDecodeError:
                pass
            else:
                repairs.append(f"truncated: kept {len(item_ends)} complete items")
                return Parsed(value, tuple(repairs))
    if "'" in text and '"' not in text:
        first_error += " (single quotes are not JSON; use double quotes)"
    raise JudgeParseError(f"the reply is not valid JSON: {first_error}", raw=raw)


Shape = Callable[[Any, str], Any]


def parse_reply(raw: str, shape: Shape, *, allow_truncated: bool = False) -> Parsed:
    """:func:`find_json` then ``shape(value, raw)``; raises :class:`JudgeParseError` with ``raw``."""
    found = find_json(raw, allow_truncated=allow_truncated)
    return Parsed(shape(found.value, raw), found.repairs)


def _list_field(value: Any, key: str, raw: str) -> list[Any]:
    if isinstance(value, list):
        return value
    if not isinstance(value, dict):
        raise JudgeParseError(f'expected a JSON object with a list "{key}", got {type(value).__name__}', raw=raw)
    if key not in value:
        raise JudgeParseError(f'the JSON object has no "{key}" field (fields: {sorted(value)})', raw=raw)
    if not isinstance(value[key], list):
        raise JudgeParseError(f'"{key}" must be a list, got {type(value[key]).__name__}', raw=raw)
    return value[key]


def claims_shape(value: Any, raw: str) -> list[str]:
    """``{"claims": ["...", ...]}`` -> non-empty stripped strings (an empty list is a valid answer)."""
    items = _list_field(value, "claims", raw)
    out = []
    for i, item in enumerate(items, 1):
        if not isinstance(item, str):
            raise JudgeParseError(f"claims[{i}] must be a string, got {json.dumps(item, ensure_ascii=False)[:80]}", raw=raw)
        if item.strip():
            out.append(item.strip())
    return out


def questions_shape(value: Any, raw: str) -> tuple[list[str], bool]:
    """``{"questions": [...], "noncommittal": bool}`` -> (questions, noncommittal)."""
    items = _list_field(value, "questions", raw)
    qs = [q.strip() for q in items if isinstance(q, str) and q.strip()]
    if len(qs) != len(items):
        raise JudgeParseError('"questions" must be a list of non-empty strings', raw=raw)
    flag = value.get("noncommittal", False) if isinstance(value, dict) else False
    if isinstance(flag, str) and flag.strip().lower() in ("true", "false"):
        flag = flag.strip().lower() == "true"
    if isinstance(flag, int) and not isinstance(flag, bool) and flag in (0, 1):
        flag = bool(flag)
    if not isinstance(flag, bool):
        raise JudgeParseError(f'"noncommittal" must be true or false, got {flag!r}', raw=raw)
    return qs, flag


@dataclass(frozen=True)
class RawVerdict:
    claim: int  #: 0-based
    label: str
    sources: tuple[int, ...]  #: 0-based indices of the sources cited
    quote: str
    reason: str


def _claim_number(item: dict, pos: int, n_items: int, n_claims: int, raw: str) -> int:
    """The 1-based claim number of ``verdicts[pos]`` (its position when the reply omits it and lists every claim)."""
    c = item.get("claim", pos if n_items == n_claims else None)
    if isinstance(c, str) and c.strip().isdigit():
        c = int(c)
    if not isinstance(c, int) or isinstance(c, bool) or not 1 <= c <= n_claims:
        raise JudgeParseError(f"verdicts[{pos}].claim must be a claim number 1..{n_claims}, got {c!r}", raw=raw)
    return c


def verdicts_shape(n_claims: int, n_sources: int) -> Shape:
    """A validator for ``{"verdicts": [{"claim": 1, "verdict": ..., "sources": [..], "quote", "reason"}]}``
    that must cover claims ``1..n_claims`` exactly once (1-based in the reply, 0-based after)."""

    def shape(value: Any, raw: str) -> list[RawVerdict]:
        items = _list_field(value, "verdicts", raw)
        seen: dict[int, RawVerdict] = {}
        for pos, item in enumerate(items, 1):
            if not isinstance(item, dict):
                raise JudgeParseError(f"verdicts[{pos}] must be an object", raw=raw)
            c = _claim_number(item, pos, len(items), n_claims, raw)
            label = str(item.get("verdict", "")).strip().lower()
            if label not in LABELS:
                raise JudgeParseError(f"verdicts[{pos}].verdict must be one of {list(LABELS)}, "
                                      f"got {item.get('verdict')!r}", raw=raw)
            src = item.get("sources", [])
            if isinstance(src, int) and not isinstance(src, bool):
                src = [src]
            if not isinstance(src, list) or not all(isinstance(s, int) and not isinstance(s, bool) for s in src):
                raise JudgeParseError(f"verdicts[{pos}].sources must be a list of source numbers, got {src!r}", raw=raw)
            bad = [s for s in src if not 1 <= s <= n_sources]
            if bad:
                raise JudgeParseError(f"verdicts[{pos}].sources has numbers outside 1..{n_sources}: {bad}", raw=raw)
            quote, reason = item.get("quote") or "", item.get("reason") or ""
            if not isinstance(quote, str) or not isinstance(reason, str):
                raise JudgeParseError(f"verdicts[{pos}].quote and .reason must be strings", raw=raw)
            seen[c - 1] = RawVerdict(c - 1, label, tuple(sorted({s - 1 for s in src})), quote.strip(), reason.strip())
        missing = [i + 1 for i in range(n_claims) if i not in seen]
        if missing:
            raise JudgeParseError(f"no verdict for claim(s) {missing}; give exactly one verdict for each of the "
                                  f"{n_claims} claims", raw=raw)
        return [seen[i] for i in range(n_claims)]

    return shape


def pair_claims_shape(value: Any, raw: str) -> tuple[list[str], list[str]]:
    """``{"answer_claims": [...], "reference_claims": [...]}`` -> (answer claims, reference claims)."""
    if not isinstance(value, dict):
        raise JudgeParseError(f"expected a JSON object with \"answer_claims\" and \"reference_claims\", "
                              f"got {type(value).__name__}", raw=raw)
    return (claims_shape(_list_field(value, "answer_claims", raw), raw),
            claims_shape(_list_field(value, "reference_claims", raw), raw))


@dataclass(frozen=True)
class RawFindings:
    claim: int  #: 0-based
    findings: tuple[tuple[int, str, str], ...]  #: (0-based source, "supported"/"contradicted", quote)
    reason: str


def findings_shape(n_claims: int, n_sources: int) -> Shape:
    """A validator for ``{"verdicts": [{"claim": 1, "findings": [{"source", "verdict", "quote"}], "reason"}]}``
    covering claims ``1..n_claims`` exactly once. A finding labelled ``unsupported`` says nothing and is dropped."""

    def shape(value: Any, raw: str) -> list[RawFindings]:
        items = _list_field(value, "verdicts", raw)
        seen: dict[int, RawFindings] = {}
        for pos, item in enumerate(items, 1):
            if not isinstance(item, dict):
                raise JudgeParseError(f"verdicts[{pos}] must be an object", raw=raw)
            c = _claim_number(item, pos, len(items), n_claims, raw)
            found = item.get("findings", [])
            if not isinstance(found, list):
                raise JudgeParseError(f"verdicts[{pos}].findings must be a list, got {found!r}", raw=raw)
            out = []
            for f in found:
                if not isinstance(f, dict):
                    raise JudgeParseError(f"verdicts[{pos}].findings must be objects", raw=raw)
                s = f.get("source")
                if isinstance(s, str) and s.strip().isdigit():
                    s = int(s)
                if not isinstance(s, int) or isinstance(s, bool) or not 1 <= s <= n_sources:
                    raise JudgeParseError(f"verdicts[{pos}].findings: source must be a number 1..{n_sources}, got {s!r}",
                                          raw=raw)
                label = str(f.get("verdict", "")).strip().lower()
                if label not in LABELS:
                    raise JudgeParseError(f"verdicts[{pos}].findings: verdict must be \"supported\" or "
                                          f"\"contradicted\", got {f.get('verdict')!r}", raw=raw)
                quote = f.get("quote") or ""
                if not isinstance(quote, str):
                    raise JudgeParseError(f"verdicts[{pos}].findings: quote must be a string", raw=raw)
                if label != "unsupported":
                    out.append((s - 1, label, quote.strip()))
            reason = item.get("reason") or ""
            if not isinstance(reason, str):
                raise JudgeParseError(f"verdicts[{pos}].reason must be a string", raw=raw)
            seen[c - 1] = RawFindings(c - 1, tuple(out), reason.strip())
        missing = [i + 1 for i in range(n_claims) if i not in seen]
        if missing:
            raise JudgeParseError(f"no verdict for claim(s) {missing}; give exactly one entry for each of the "
                                  f"{n_claims} claims", raw=raw)
        return [seen[i] for i in range(n_claims)]

    return shape
