"""Agent samples: OpenAI chat messages with tool calls load unchanged; bad calls are named by line and field."""

import json

import pytest

from ragauge.data import load, sample_to_dict, write_jsonl
from ragauge.data.tools import ExpectedTool, ToolCall
from ragauge.errors import InputError


def _call(cid, name, args):
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}


CHAT = [
    {"role": "system", "content": "Ты помощник."},
    {"role": "user", "content": "Запишите меня на замер в Москве на 12 марта."},
    {"role": "assistant", "content": None, "tool_calls": [_call("c1", "check_slots", {"city": "Москва"}),
                                                         _call("c2", "get_price", {"work": "замер"})]},
    {"role": "tool", "tool_call_id": "c2", "content": "бесплатно"},
    {"role": "tool", "tool_call_id": "c1", "content": "{\"slots\": [\"10:00\"]}"},
    {"role": "assistant", "content": "Записал вас на 10:00, замер бесплатный."},
]


def _write(tmp_path, rows, name="agent.jsonl"):
    p = tmp_path / name
    p.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return p


def test_openai_messages_give_calls_results_question_and_answer(tmp_path):
    p = _write(tmp_path, [{"id": "a1", "messages": CHAT, "expected_tools": ["check_slots", {"name": "book", "arguments": {"time": "10:00"}}],
                           "tools_ordered": True, "expected_outcome": "Замер назначен."}])
    (s,) = load(p)
    assert s.question == "Запишите меня на замер в Москве на 12 марта."
    assert s.answer == "Записал вас на 10:00, замер бесплатный."
    # results are matched by tool_call_id, not by position
    assert s.tool_calls == (ToolCall("check_slots", {"city": "Москва"}, '{"slots": ["10:00"]}', "c1"),
                            ToolCall("get_price", {"work": "замер"}, "бесплатно", "c2"))
    assert s.expected_tools == (ExpectedTool("check_slots"), ExpectedTool("book", {"time": "10:00"}))
    assert s.tools_ordered is True and s.expected_outcome == "Замер назначен."
    assert "messages" not in s.metadata


def test_deepeval_flat_calls_and_round_trip(tmp_path):
    rows = [{"id": "d1", "question": "q", "answer": "a",
             "tools_called": [{"name": "search", "input_parameters": {"q": "x"}, "output": "found"}, "calc"],
             "expected_tools": "search", "should_consider_ordering": "false"}]
    (s,) = load(rows)
    assert s.tool_calls == (ToolCall("search", {"q": "x"}, "found"), ToolCall("calc"))
    assert s.expected_tools == (ExpectedTool("search"),) and s.tools_ordered is False
    write_jsonl([s], tmp_path / "out.jsonl")
    (again,) = load(tmp_path / "out.jsonl")
    assert again == s
    assert sample_to_dict(s)["tool_calls"][1] == {"name": "calc", "arguments": {}}


def test_no_calls_made_differs_from_not_recorded():
    a, b = load([{"id": "1", "question": "q", "tool_calls": []}, {"id": "2", "question": "q"}])
    assert a.tool_calls == () and b.tool_calls is None


@pytest.mark.parametrize("bad, field, words", [
    ([{"role": "user", "content": "q"}, {"role": "assistant", "tool_calls": [_call("c1", "s", {}) | {"function": {"name": "s", "arguments": "{city: 1}"}}]}],
     "messages[1].tool_calls[0].function.arguments", "not valid JSON"),
    ([{"role": "assistant", "tool_calls": [_call("c1", "s", {})]}, {"role": "tool", "tool_call_id": "c7", "content": "x"}],
     "messages[1].tool_call_id", "'c1'"),
    ([{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"arguments": "{}"}}]}],
     "messages[0].tool_calls[0].function.name", "name"),
    ([{"role": "assistant", "tool_calls": [{"id": "c1", "function": {"name": "s", "arguments": "[1, 2]"}}]}],
     "messages[0].tool_calls[0].function.arguments", "object of named parameters"),
    ([{"role": "robot", "content": "x"}], "messages[0].role", "unknown chat role"),
    ("hello", "messages", "list of chat messages"),
])
def test_bad_tool_call_input_names_file_line_and_field(tmp_path, bad, field, words):
    p = _write(tmp_path, [{"id": "ok", "question": "q"}, {"id": "bad", "messages": bad}])
    with pytest.raises(InputError) as info:
        load(p)
    err = info.value
    assert (err.file, err.line, err.field) == (str(p), 2, field)
    assert words in str(err)


def test_bad_expected_tools_and_flag(tmp_path):
    p = _write(tmp_path, [{"id": "1", "question": "q", "expected_tools": [{"arguments": {}}]},
                          {"id": "2", "question": "q", "expected_tools": ["s"], "tools_ordered": "maybe"}])
    with pytest.raises(InputError) as info:
        load(p)
    text = str(info.value)
    assert "line 1, field 'expected_tools[0].name'" in text and "line 2, field 'tools_ordered'" in text
