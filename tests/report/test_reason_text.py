"""Stored reasons (unscored reasons, claim verdict reasons) in the report's language (issue 14).

results.json keeps the English reasons the metrics and judges wrote; a Russian report renders them in
Russian, keeping quoted values as written. The coverage test reads every reason literal of
``src/ragauge/metrics`` (an unscored reason added there without a Russian rendering fails it).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Iterator

import pytest

from ragauge.report.reason_text import reason_text

METRICS = Path(__file__).resolve().parents[2] / "src" / "ragauge" / "metrics"
_LATIN_WORD = re.compile(r"\b[a-z]{3,}\b")
#: names that stay English in a Russian reason: field names and codes a user types
_CODES = {"relevant_ids", "retrieved_ids", "metadata", "noise_of", "expected_behaviour", "expected_outcome",
          "expected_tools", "max_reply_bytes", "ragauge_llm_max_reply_bytes", "latency_ms"}


def _english_left(text: str) -> list[str]:
    """English words outside quoted values and codes."""
    text = re.sub(r"\"[^\"]*\"|'[^']*'", "", text)
    return [w for w in _LATIN_WORD.findall(text) if w not in _CODES and not any(w in c for c in _CODES)]


def _reasonish(name: str) -> bool:
    # reasons / base_reason / prec_reasons, the context metrics' prec_r / rec_r / has_r / gr_r, and
    # diagnostics' per-sample ``base`` list (its comment: "reason for every metric")
    return "reason" in name.lower() or name.endswith("_r") or name in ("why", "base")


def _target_name(node: ast.AST) -> str:
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else ""


def _literals(node: ast.AST | None) -> Iterator[str]:
    """Every text a value expression can evaluate to ("{}" for an f-string hole)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.JoinedStr):
        yield "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    elif isinstance(node, ast.IfExp):
        yield from _literals(node.body)
        yield from _literals(node.orelse)
    elif isinstance(node, ast.BoolOp):
        for v in node.values:
            yield from _literals(v)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        rights = list(_literals(node.right)) or [""]
        for left in _literals(node.left):
            yield from (left + r for r in rights)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        yield from _literals(node.left)
    elif isinstance(node, (ast.List, ast.Tuple)):
        for v in node.elts:
            yield from _literals(v)
    elif isinstance(node, ast.ListComp):
        yield from _literals(node.elt)


def reason_literals(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of every reason a metric module writes: assigned to a reason list, appended to one,
    passed to ``unscore``, returned by a ``*reason*`` function, or stored under a ``"reason"`` key."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    funcs = {id(n): f.name for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and "reason" in f.name
             for n in ast.walk(f) if isinstance(n, ast.Return)}
    for node in ast.walk(tree):
        values: list[ast.AST | None] = []
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Tuple) and isinstance(node.value, ast.Tuple):
                    values += [v for tt, v in zip(t.elts, node.value.elts) if _reasonish(_target_name(tt))]
                elif _reasonish(_target_name(t)):
                    values.append(node.value)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "append" \
                and _reasonish(_target_name(node.func.value)):
            values += node.args
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and "unscore" in node.func.id:
            values += node.args[1:]
        elif isinstance(node, ast.Return) and id(node) in funcs:
            values.append(node.value)
        elif isinstance(node, ast.Dict):
            values += [v for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant) and k.value == "reason"]
        for v in values:
            for text in _literals(v):
                yield getattr(v, "lineno", 0), text


def _all_reasons() -> list[tuple[str, str]]:
    out = []
    for path in sorted(METRICS.glob("*.py")):
        for line, text in reason_literals(path):
            if text:
                out.append((f"{path.name}:{line}", text))
    return out


def test_the_reason_collector_finds_the_known_reasons():
    texts = {t for _, t in _all_reasons()}
    # one of each way a metric writes a reason (a broken collector would make the coverage test vacuous)
    for known in ("no relevant_ids", "no question", "refusal: the answer declines to answer", "no claims to check",
                  "the {} has no claims (it declines to answer)", "no claims in the answer (it declines to answer)",
                  "{} not measured", "the reference declines to answer", "not scorable", "both decline to answer"):
        assert known in texts, known
    assert len(texts) >= 40


@pytest.mark.parametrize("where,text", _all_reasons())
def test_every_metric_reason_has_a_russian_rendering(where, text):
    sample = text.replace("{}", "7")  # an f-string hole filled with a value
    ru = reason_text(sample, "ru")
    assert ru != sample and re.search("[а-яё]", ru), f"{where}: {text!r} has no Russian rendering"
    assert _english_left(ru) == [], f"{where}: {text!r} -> {ru!r}"


@pytest.mark.parametrize("en,ru", [
    # unscored reasons as the summary and the samples show them
    ("no relevant_ids", "нет relevant_ids"),
    ("the reference has no claims (it declines to answer)", "в эталоне нет утверждений (это отказ отвечать)"),
    ("judge call failed", "вызов судьи не удался"),
    ("clean sample's correctness unscored: no reference", "корректность чистого образца не оценена: нет эталона"),
    ("latency_ms not measured", "latency_ms не измерено"),
    # the offline verifier's claim reasons: quoted values as written, decimals with a comma
    ("supported by context 2; all 2 numbers match the context", "подтверждено контекстом 2; все числа совпадают с контекстом (2)"),
    ("supported by context 1; the number matches the context", "подтверждено контекстом 1; число совпадает с контекстом"),
    ('number "20%" not in context; context says "30%"', 'числа "20%" нет в контексте; в контексте: "30%"'),
    ("the closest context passage does not state it (similarity 0.65, P=0.54)",
     "ближайший фрагмент контекста этого не говорит (сходство 0,65, P=0,54)"),
    ("'Stonebridge Ltd' not in context; context says 'BuildRight Ltd'",
     "'Stonebridge Ltd' нет в контексте; в контексте: 'BuildRight Ltd'"),
    ('"3 дня" vs the other text "48 часов": unit differs (day vs hour)',
     '"3 дня" против "48 часов" в другом тексте: другая единица (дни, а не часы)'),
    ("agrees with the other text: no numbers to compare; content words covered 100%",
     "согласуется с другим текстом: чисел для сравнения нет; значимые слова покрыты на 100%"),
    ("negation differs: claim says 'не входят', the context does not negate it",
     "отрицание расходится: в утверждении 'не входят', а контекст этого не отрицает"),
    ("stated only in a superseded edition (context 2); the current one (context 3) does not say it",
     "сказано только в устаревшей редакции (контекст 2); в текущей (контекст 3) этого нет"),
    ('number "1" not in context; number "2" not in context; number "3" not in context (+1 more)',
     'числа "1" нет в контексте; числа "2" нет в контексте; числа "3" нет в контексте (и ещё 1)'),
    ("supported by context 1 (similarity 0.81) [LLM failed: judge call failed]",
     "подтверждено контекстом 1 (сходство 0,81) [LLM не справилась: вызов судьи не удался]"),
])
def test_reasons_read_in_russian(en, ru):
    assert reason_text(en, "ru") == ru
    assert reason_text(en, "en") == en  # the English report and results.json keep the stored text


def test_a_quoted_value_with_a_separator_stays_whole():
    text = "'a; b' not in context; context says 'c'"
    assert reason_text(text, "ru") == "'a; b' нет в контексте; в контексте: 'c'"


def test_unknown_text_stays_as_written_and_unmarked():
    # an LLM judge's own words (any language), a reason newer than the tables
    assert reason_text("The context never mentions a discount.", "ru") == "The context never mentions a discount."
    mixed = "supported by context 3; something new happened"
    assert reason_text(mixed, "ru") == "подтверждено контекстом 3; something new happened"
    assert reason_text(None, "ru") == "" and reason_text("", "ru") == ""
