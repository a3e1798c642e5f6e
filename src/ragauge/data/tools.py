"""Tool calls of an agent: the schema (``ToolCall``, ``ExpectedTool``) and the checkers that read them.

Three input shapes give ``Sample.tool_calls``:

- ``messages``: OpenAI-style chat messages, unchanged. Assistant messages carry
  ``tool_calls: [{id, type: "function", function: {name, arguments: "<JSON string>"}}]`` (or the legacy
  ``function_call``); a ``tool`` message's ``tool_call_id`` names the call it answers and its ``content``
  is that call's result. The first user message is the question and the last assistant message with
  text is the answer, unless the record gives ``question`` / ``answer`` itself.
- ``tool_calls`` (DeepEval: ``tools_called``): a list of calls, each OpenAI-shaped as above or flat
  ``{name, arguments, result}`` (DeepEval's ``input_parameters`` / ``input`` and ``output`` accepted).
- ``expected_tools``: names (``["search", "book"]``) or objects ``{name, arguments}``; arguments left out
  mean "any arguments". ``tools_ordered`` (DeepEval: ``should_consider_ordering``) asks for the order.

Every problem names the file, line and the exact field (``messages[2].tool_calls[0].function.arguments``).

    >>> from ragauge.data._collect import ErrorCollector, Location
    >>> msgs = [{"role": "user", "content": "Погода в Москве?"},
    ...         {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
    ...          "function": {"name": "weather", "arguments": "{\\"city\\": \\"Москва\\"}"}}]},
    ...         {"role": "tool", "tool_call_id": "c1", "content": "+3, снег"},
    ...         {"role": "assistant", "content": "В Москве +3 и снег."}]
    >>> chat = read_calls(("messages", "messages", msgs), Location(None, 1), ErrorCollector())
    >>> chat.calls[0].name, dict(chat.calls[0].arguments), chat.calls[0].result, chat.answer
    ('weather', {'city': 'Москва'}, '+3, снег', 'В Москве +3 и снег.')
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ragauge.data._collect import ErrorCollector, Location
from ragauge.data._values import as_list, decode_text, type_name

__all__ = ["ChatCalls", "ExpectedTool", "ToolCall", "read_calls", "read_expected", "read_ordered", "tool_call_to_dict"]

#: where a flat call may keep its arguments and its result (ours, then DeepEval's names)
_ARG_KEYS = ("arguments", "input_parameters", "input", "args")
_RESULT_KEYS = ("result", "output", "content")
_CALL_HINT = ('write a call as {"name": "search", "arguments": {"query": "..."}, "result": "..."} or OpenAI\'s '
              '{"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{\\"query\\": \\"...\\"}"}}')


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call the agent made: ``name(arguments) -> result`` (``result`` None when not recorded)."""

    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    result: Any = None
    id: str | None = None


@dataclass(frozen=True, slots=True)
class ExpectedTool:
    """A tool the task needs; ``arguments`` None means any arguments will do."""

    name: str
    arguments: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class ChatCalls:
    """What a record's calls gave: the calls, and from chat messages the question and final answer."""

    calls: tuple[ToolCall, ...]
    question: str | None = None
    answer: str | None = None


def tool_call_to_dict(call: ToolCall | ExpectedTool) -> dict[str, Any] | str:
    """The flat JSON form ``read_calls``/``read_expected`` read back; an expected tool without arguments is its name."""
    if isinstance(call, ExpectedTool):
        return call.name if call.arguments is None else {"name": call.name, "arguments": dict(call.arguments)}
    out: dict[str, Any] = {"name": call.name, "arguments": dict(call.arguments)}
    if call.result is not None:
        out["result"] = call.result
    if call.id is not None:
        out["id"] = call.id
    return out


def read_calls(given: tuple[str, str, Any] | None, loc: Location, errors: ErrorCollector) -> ChatCalls | None:
    """``tool_calls`` / ``tools_called`` (a list of calls) or ``messages`` (chat messages) -> the calls."""
    if given is None:
        return None
    key, name, raw = given
    value = as_list(decode_text(raw))
    if value is None:
        what = "chat messages" if name == "messages" else "tool calls"
        errors.add(loc.error(f"{key} must be a list of {what}, not {type_name(decode_text(raw))}", field=key,
                             value=raw, hint=_CALL_HINT if name != "messages" else
                             'pass OpenAI chat messages: [{"role": "user", "content": "..."}, ...]'))
        return None
    if name == "messages":
        return _read_messages(value, key, loc, errors)
    calls = [_call(item, f"{key}[{i}]", loc, errors) for i, item in enumerate(value)]
    return ChatCalls(tuple(c for c in calls if c is not None))


def _text(content: Any) -> str | None:
    """A message's text: a string, or OpenAI content parts ``[{"type": "text", "text": ...}]`` joined."""
    if isinstance(content, str):
        return content
    parts = as_list(content)
    if parts is None:
        return None
    texts = [str(p["text"]) for p in parts if isinstance(p, Mapping) and isinstance(p.get("text"), str)]
    return "\n".join(texts) if texts else None


def _read_messages(messages: list[Any], key: str, loc: Location, errors: ErrorCollector) -> ChatCalls | None:
    before = errors.total
    calls: list[dict[str, Any]] = []  # mutable until the results are in
    by_id: dict[str, int] = {}
    question = answer = None
    for i, msg in enumerate(messages):
        where = f"{key}[{i}]"
        if not isinstance(msg, Mapping):
            errors.add(loc.error(f"a chat message must be an object, not {type_name(msg)}", field=where, value=msg,
                                 hint='write {"role": "user", "content": "..."}'))
            continue
        role = msg.get("role")
        if role in ("system", "developer"):
            continue
        if role == "user":
            if question is None:
                question = _text(msg.get("content"))
            continue
        if role == "assistant":
            raw_calls = msg.get("tool_calls")
            if raw_calls is None and isinstance(msg.get("function_call"), Mapping):  # the legacy single call
                raw_calls = [{"type": "function", "function": msg["function_call"]}]
            if raw_calls is not None:
                items = as_list(raw_calls)
                if items is None:
                    errors.add(loc.error(f"tool_calls must be a list, not {type_name(raw_calls)}",
                                         field=f"{where}.tool_calls", value=raw_calls, hint=_CALL_HINT))
                    continue
                for j, item in enumerate(items):
                    call = _call(item, f"{where}.tool_calls[{j}]", loc, errors)
                    if call is None:
                        continue
                    if call.id is not None:
                        if call.id in by_id:
                            errors.add(loc.error(f"tool call id {call.id!r} is used twice", field=f"{where}.tool_calls[{j}].id",
                                                 hint="give each call its own id: tool messages find their call by it"))
                            continue
                        by_id[call.id] = len(calls)
                    calls.append({"name": call.name, "arguments": call.arguments, "result": None, "id": call.id})
            text = _text(msg.get("content"))
            if text and text.strip():
                answer = text  # the last assistant text is the final answer
            continue
        if role in ("tool", "function"):
            _attach_result(msg, calls, by_id, where, loc, errors)
            continue
        errors.add(loc.error(f"unknown chat role {role!r}", field=f"{where}.role", value=role,
                             hint="roles are system, user, assistant and tool (OpenAI chat format)"))
    if errors.total > before:
        return None
    return ChatCalls(tuple(ToolCall(**c) for c in calls), question, answer)


def _attach_result(msg: Mapping[str, Any], calls: list[dict[str, Any]], by_id: dict[str, int], where: str,
                   loc: Location, errors: ErrorCollector) -> None:
    content = msg.get("content")
    result = _text(content) if _text(content) is not None else content
    if msg.get("role") == "function":  # legacy: the result names the function, not a call id
        open_calls = [c for c in calls if c["name"] == msg.get("name") and c["result"] is None]
        if not open_calls:
            errors.add(loc.error(f"a function result for {msg.get('name')!r}, which no earlier message called",
                                 field=f"{where}.name", value=msg.get("name")))
            return
        open_calls[0]["result"] = result
        return
    call_id = msg.get("tool_call_id")
    if not isinstance(call_id, str) or call_id not in by_id:
        known = ", ".join(repr(k) for k in by_id) or "none"
        errors.add(loc.error("a tool message must name the call it answers in tool_call_id",
                             field=f"{where}.tool_call_id", value=call_id,
                             hint=f"use the id of an earlier assistant tool call (ids so far: {known})"))
        return
    calls[by_id[call_id]]["result"] = result


def _call(item: Any, where: str, loc: Location, errors: ErrorCollector) -> ToolCall | None:
    if isinstance(item, str) and item.strip():
        return ToolCall(item.strip())  # DeepEval accepts bare names for calls too
    if not isinstance(item, Mapping):
        errors.add(loc.error(f"a tool call must be an object, not {type_name(item)}", field=where, value=item,
                             hint=_CALL_HINT))
        return None
    call_id = item.get("id")
    if call_id is not None and not isinstance(call_id, str):
        errors.add(loc.error(f"a tool call id must be a string, not {type_name(call_id)}", field=f"{where}.id",
                             value=call_id))
        return None
    if "function" in item:
        fn = item["function"]
        if not isinstance(fn, Mapping):
            errors.add(loc.error(f"function must be an object {{name, arguments}}, not {type_name(fn)}",
                                 field=f"{where}.function", value=fn, hint=_CALL_HINT))
            return None
        name = _name(fn.get("name"), f"{where}.function.name", loc, errors)
        args = _arguments(fn.get("arguments"), f"{where}.function.arguments", loc, errors)
        result = item.get("result", item.get("output"))
    else:
        name = _name(item.get("name"), f"{where}.name", loc, errors)
        arg_key = next((k for k in _ARG_KEYS if k in item), "arguments")
        args = _arguments(item.get(arg_key), f"{where}.{arg_key}", loc, errors)
        result = next((item[k] for k in _RESULT_KEYS if item.get(k) is not None), None)
    if name is None or args is None:
        return None
    return ToolCall(name, args, result, call_id)


def _name(value: Any, where: str, loc: Location, errors: ErrorCollector) -> str | None:
    if isinstance(value, str) and value.strip():
        return value.strip()
    errors.add(loc.error("a tool call needs its tool's name (a non-empty string)", field=where,
                         value=value if value is not None else ..., hint=_CALL_HINT))
    return None


def _arguments(value: Any, where: str, loc: Location, errors: ErrorCollector) -> dict[str, Any] | None:
    """Arguments: an object, or a JSON string of one (OpenAI's wire format); absent or empty means none."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return {}
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError as exc:
            errors.add(loc.error(f"arguments are not valid JSON ({exc.msg} at column {exc.colno})"  # type: ignore[attr-defined]
                                 if hasattr(exc, "msg") else f"arguments are not valid JSON: {exc}",
                                 field=where, value=value,
                                 hint='OpenAI sends arguments as a JSON string of an object, e.g. "{\\"city\\": \\"Москва\\"}"'))
            return None
    if not isinstance(value, Mapping):
        errors.add(loc.error(f"arguments must be an object of named parameters, not {type_name(value)}",
                             field=where, value=value, hint='write e.g. {"city": "Москва", "days": 3}'))
        return None
    return dict(value)


def read_expected(given: tuple[str, str, Any] | None, loc: Location,
                  errors: ErrorCollector) -> tuple[ExpectedTool, ...] | None:
    """``expected_tools``: names or ``{name, arguments}`` objects; ``[]`` means "no tool should be called"."""
    if given is None:
        return None
    key, _, raw = given
    value = decode_text(raw)
    items = [value] if isinstance(value, str) and value.strip() and "," not in value else as_list(value)
    if items is None and isinstance(value, str):  # a CSV cell "search, book"
        items = [part.strip() for part in value.split(",") if part.strip()]
    if items is None:
        errors.add(loc.error(f"expected_tools must be a list of tool names or objects {{name, arguments}}, "
                             f"not {type_name(value)}", field=key, value=value,
                             hint='write e.g. ["search", {"name": "book", "arguments": {"room": 2}}]'))
        return None
    out: list[ExpectedTool] = []
    for i, item in enumerate(items):
        where = f"{key}[{i}]"
        if isinstance(item, str) and item.strip():
            out.append(ExpectedTool(item.strip()))
            continue
        if not isinstance(item, Mapping):
            errors.add(loc.error(f"an expected tool must be a name or an object {{name, arguments}}, not "
                                 f"{type_name(item)}", field=where, value=item))
            continue
        fn: Mapping[str, Any] = item["function"] if isinstance(item.get("function"), Mapping) else item
        name = _name(fn.get("name"), f"{where}.name", loc, errors)
        arg_key = next((k for k in _ARG_KEYS if k in fn), None)
        args = None if arg_key is None else _arguments(fn[arg_key], f"{where}.{arg_key}", loc, errors)
        if name is None or (arg_key is not None and args is None):
            continue
        out.append(ExpectedTool(name, args))
    return tuple(out)


def read_ordered(given: tuple[str, str, Any] | None, loc: Location, errors: ErrorCollector) -> bool:
    """``tools_ordered``: true/false (also "true"/"false", 1/0 from a CSV cell); absent means False."""
    if given is None:
        return False
    key, _, value = given
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "1", "0", "yes", "no"):
        return value.strip().lower() in ("true", "1", "yes")
    errors.add(loc.error(f"tools_ordered must be true or false, not {type_name(value)}", field=key, value=value,
                         hint="true: the expected tools must be called in the order given"))
    return False
