"""Agent metrics (DeepEval's): did the agent call the right tools, with the right arguments, and finish the task?

The sample holds the calls the agent made (``tool_calls``: from OpenAI chat ``messages`` or a list,
:mod:`ragauge.data.tools`), the tools the task needs (``expected_tools``), whether their order matters
(``tools_ordered``) and the outcome the task should reach (``expected_outcome``).

- ``tool_correctness`` = share of the expected tools that were called; with ``tools_ordered`` the
  longest common subsequence of expected and called names over the expected count
  (:func:`ragauge.scores.agent.tool_correctness`). ``expected_tools: []`` means "no tool": 1 when none
  was called. Offline, no judge.
- ``argument_correctness``: when the expected tools give ``arguments``, the mean over them of the best
  argument match of a call of that tool (:func:`ragauge.scores.agent.argument_match`; a tool not
  called scores 0). When no expectation gives arguments, the judge checks that each call's argument
  values are supported by the conversation (the question, the retrieved contexts and the results of
  the calls before it): a ``Verify`` request of every value as a claim; a call is correct when all its
  values are supported, and the score is correct calls / calls with values to check (DeepEval's
  ArgumentCorrectness counts correct calls the same way). The artifact's ``mode`` says which.
- ``task_completion``: the share of the claims of ``expected_outcome`` that the final answer states,
  decided by the judge's answer-vs-reference agreement (an ``Agree`` request: the same decision as
  answer correctness; the artifact's ``decision`` says whether the judge agreed or verified). An answer
  that declines scores 0, unless the expected outcome is itself a refusal (then 1).

Unscored, with the reason: no tool calls recorded / no expected_tools (tool and argument
correctness), no calls and no arguments to check, no answer / no expected_outcome (task completion),
or the judge could not judge.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..data.schema import Sample
from ..data.tools import ToolCall
from ..judges.requests import Agree, Claims, Refusal, Request, Verify
from ..scores.agent import argument_match, best_argument_matches, lcs_pairs, match_names, tool_correctness
from ..scores.claims import supported_fraction
from ._judging import languages
from .column import ScoreColumn
from .plan import Plan, together
from .registry import MetricDef
from .spec import MetricSpec

FAMILY = "agent"

DEFINITIONS = [
    MetricDef("tool_correctness", FAMILY, "Share of the expected tools the agent called (with tools_ordered: longest common subsequence / expected), DeepEval's definition.",
              requires=("tool_calls", "expected_tools")),
    MetricDef("argument_correctness", FAMILY, "Arguments of the calls match the expected ones (share of argument names with equal values); without expected arguments, the judge checks each value against the conversation.",
              requires=("tool_calls",), judge="any"),
    MetricDef("task_completion", FAMILY, "Share of the expected outcome's claims that the final answer states (the judge's answer-vs-reference agreement).",
              requires=("answer", "expected_outcome"), judge="any"),
]


def _names(calls: Sequence[Any]) -> list[str]:
    return [c.name for c in calls]


def _tool_correctness(samples: Sequence[Sample]) -> ScoreColumn:
    n = len(samples)
    values: list[float | None] = [None] * n
    reasons: list[str | None] = [None] * n
    arts: list[dict[str, Any] | None] = [None] * n
    for i, s in enumerate(samples):
        if s.tool_calls is None:
            reasons[i] = "no tool calls recorded"
            continue
        if s.expected_tools is None:
            reasons[i] = "no expected_tools"
            continue
        expected, called = _names(s.expected_tools), _names(s.tool_calls)
        values[i] = tool_correctness(expected, called, ordered=s.tools_ordered)
        if s.tools_ordered:
            hit = {e for e, _ in lcs_pairs(expected, called)}
            matched = [j for e, j in lcs_pairs(expected, called)]
        else:
            found = match_names(expected, called)
            hit = {e for e, j in enumerate(found) if j is not None}
            matched = [j for j in found if j is not None]
        arts[i] = {
            "expected": expected, "called": called, "ordered": s.tools_ordered,
            "missing": [name for e, name in enumerate(expected) if e not in hit and name not in called],
            "out_of_order": [name for e, name in enumerate(expected) if e not in hit and name in called],
            "unexpected": [name for j, name in enumerate(called) if j not in set(matched) and name not in expected],
        }
    return ScoreColumn(values, reasons, arts)


def _leaves(value: Any) -> list[str]:
    """The checkable scalar values of an argument (strings, numbers; lists and objects flattened)."""
    if isinstance(value, bool) or value is None:
        return []  # a flag states nothing the conversation could support
    if isinstance(value, (str, int, float)):
        text = str(value).strip()
        return [text] if text else []
    if isinstance(value, dict):
        return [x for v in value.values() for x in _leaves(v)]
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in _leaves(v)]
    return []


class _Value:
    """A claim for the judge's ``verify``: one argument value (``text[start:end] == text``)."""

    __slots__ = ("text", "start", "end")

    def __init__(self, text: str) -> None:
        self.text, self.start, self.end = text, 0, len(text)


def _by_expectation(s: Sample) -> tuple[float, dict[str, Any]]:
    wanted = [(e.name, e.arguments) for e in s.expected_tools or () if e.arguments is not None]
    called = [(c.name, c.arguments) for c in s.tool_calls or ()]
    found = best_argument_matches(wanted, called)
    rows = []
    for (name, args), (j, score) in zip(wanted, found):
        got = None if j is None else dict(called[j][1])
        mismatched = [] if got is None else sorted(
            k for k in set(args) | set(got) if k not in args or k not in got or argument_match({k: args[k]}, {k: got[k]}) < 1.0)
        rows.append({"name": name, "expected": dict(args), "given": got, "score": score, "mismatched": mismatched,
                     "reason": "not called" if j is None else None})
    return sum(score for _, score in found) / len(found), {"mode": "expected", "calls": rows}


def _argument_correctness(samples: Sequence[Sample], langs: Sequence[str | None], names: tuple[str, ...]) -> Plan[ScoreColumn]:
    n = len(samples)
    values: list[float | None] = [None] * n
    reasons: list[str | None] = [None] * n
    arts: list[dict[str, Any] | None] = [None] * n
    to_judge: list[tuple[int, int, list[str]]] = []  # (sample, call, values)
    items: list[Request] = []
    for i, s in enumerate(samples):
        if s.tool_calls is None:
            reasons[i] = "no tool calls recorded"
            continue
        if any(e.arguments is not None for e in s.expected_tools or ()):
            values[i], arts[i] = _by_expectation(s)
            continue
        if not s.tool_calls:
            reasons[i] = "no tool calls made and no expected arguments"
            continue
        context = [t for t in (s.question or "",) if t.strip()] + list(s.context_texts)
        for j, call in enumerate(s.tool_calls):
            leaves = _leaves(dict(call.arguments))
            if not leaves:
                continue
            sources = context + [_result_text(c) for c in s.tool_calls[:j] if c.result is not None]
            if not sources:
                continue
            to_judge.append((i, j, leaves))
            items.append(Verify(claims=[_Value(x) for x in leaves], sources=sources, lang=langs[i], sample=s.id,
                                metrics=names))
        if not any(t[0] == i for t in to_judge):
            reasons[i] = ("no question or earlier results to check the arguments against"
                          if any(_leaves(dict(c.arguments)) for c in s.tool_calls) else "no argument values to check")
    verdicts = yield items
    per_sample: dict[int, list[dict[str, Any]]] = {}
    for (i, j, _leaves_), reply in zip(to_judge, verdicts):
        failed, v = reply.unscored, reply.value
        if failed:
            reasons[i], arts[i] = failed.reason, failed.artifact()
            per_sample.pop(i, None)
            continue
        if reasons[i] is not None:
            continue
        made: ToolCall = samples[i].tool_calls[j]  # type: ignore[index]
        per_sample.setdefault(i, []).append({
            "name": made.name, "arguments": dict(made.arguments), "supported": all(x.supported for x in v),
            "values": [x.to_dict() for x in v]})
    for i, rows in per_sample.items():
        values[i] = supported_fraction([r["supported"] for r in rows])
        arts[i] = {"mode": "judge", "calls": rows}
    return ScoreColumn(values, reasons, arts)


def _result_text(call: ToolCall) -> str:
    import json

    return call.result if isinstance(call.result, str) else json.dumps(call.result, ensure_ascii=False)


def _task_completion(samples: Sequence[Sample], langs: Sequence[str | None], names: tuple[str, ...]) -> Plan[ScoreColumn]:
    n = len(samples)
    values: list[float | None] = [None] * n
    reasons: list[str | None] = [None] * n
    arts: list[dict[str, Any] | None] = [None] * n
    for i, s in enumerate(samples):
        if not (s.answer or "").strip():
            reasons[i] = "no answer"
        elif not (s.expected_outcome or "").strip():
            reasons[i] = "no expected_outcome"
    todo = [i for i in range(n) if reasons[i] is None]
    ans = [samples[i].answer or "" for i in todo]
    out = [samples[i].expected_outcome or "" for i in todo]
    lg = [langs[i] for i in todo]
    ids = [samples[i].id for i in todo]
    declined = yield ([Refusal(text=t, lang=x, sample=d, metrics=names) for t, x, d in zip(ans, lg, ids)]
                      + [Refusal(text=t, lang=x, sample=d, metrics=names) for t, x, d in zip(out, lg, ids)])
    ans_refuse = [bool(r.value) for r in declined[:len(todo)]]
    out_refuse = [bool(r.value) for r in declined[len(todo):]]
    asked = [k for k in range(len(todo)) if not ans_refuse[k] and not out_refuse[k]]
    # the outcome's facts, as answer correctness counts them (metrics/answer.py)
    out_claims = dict(zip(asked, (yield [Claims(text=out[k], lang=lg[k], unit="facts", sample=ids[k], metrics=names)
                                         for k in asked])))
    pairs = []
    for k, i in enumerate(todo):
        if ans_refuse[k] or out_refuse[k]:
            values[i] = 1.0 if ans_refuse[k] and out_refuse[k] else 0.0
            arts[i] = {"refusal": bool(ans_refuse[k]), "outcome_refusal": bool(out_refuse[k])}
        elif (failed := out_claims[k].unscored) is not None:
            reasons[i], arts[i] = failed.reason, failed.artifact()
        elif not out_claims[k].value:
            reasons[i] = "no claims in the expected_outcome"
        else:
            pairs.append(k)
    verdicts = yield [Agree(claims=out_claims[k].value, other=ans[k], question=samples[todo[k]].question or "",
                            lang=lg[k], sample=ids[k], metrics=names) for k in pairs]
    for k, reply in zip(pairs, verdicts):
        i = todo[k]
        if reply.unscored:
            reasons[i], arts[i] = reply.unscored.reason, reply.unscored.artifact()
            continue
        v = reply.value
        values[i] = supported_fraction([x.supported for x in v])
        arts[i] = {"outcome_claims": [x.to_dict() for x in v], "decision": reply.via,
                   "missing": [x.claim for x in v if not x.supported]}
    return ScoreColumn(values, reasons, arts)


def compute(specs: Sequence[MetricSpec], samples: Sequence[Sample]) -> Plan[dict[str, ScoreColumn]]:
    """``tool_correctness`` needs no judge; the other two ask it (a run without a judge fails when they do)."""
    langs = languages(samples) if any(s.judge for s in specs) else []
    plans: list[Plan[ScoreColumn]] = []
    for spec in specs:
        if spec.base == "argument_correctness":
            plans.append(_argument_correctness(samples, langs, (spec.name,)))
        elif spec.base == "task_completion":
            plans.append(_task_completion(samples, langs, (spec.name,)))
    judged = iter((yield from together(plans)))
    return {spec.name: _tool_correctness(samples) if spec.base == "tool_correctness" else next(judged)
            for spec in specs}
