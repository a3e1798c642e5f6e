"""The judge's measured accuracy (results.json ``summary.*.judge.measured_accuracy``) in the report's language.

The offline judge ships its accuracy as English data (``judges/offline/verifier_accuracy.json``: how it
was measured, the measure, a score per task type, advice). A Russian report takes, per field, the
document's own Russian text when it has one (``measure_ru``, ``advice_ru``, ``how_ru``, ``by_task_ru``),
else a rendering from the tables below (the measure and task names by pattern, the advice by exact
match), else the English text as written.

    >>> task_name("short-answer QA (HaluEval, en, held out)", "ru")
    'короткие ответы на вопросы (HaluEval, en, отложенный набор)'
"""

from __future__ import annotations

import re
from typing import Any, Mapping

#: task descriptions (the part before the data set in brackets)
_TASKS = {
    "RAG question answering": "ответы RAG на вопросы",
    "short-answer QA": "короткие ответы на вопросы",
    "summaries": "пересказы",
    "hard summaries": "сложные пересказы",
    "claim vs evidence": "утверждение против цитаты",
    "entailment": "логическое следование",
    "Russian RAG answers": "русские ответы RAG",
    "demo gold labels": "разметка демо-набора",
}
#: words inside the brackets
_QUALIFIERS = {"held out": "отложенный набор", "in-sample": "в обучающей выборке", "dev split": "dev-часть",
               "held-out split": "отложенная часть"}
_TASK_RE = re.compile(r"(?P<what>[^(]+?) \((?P<inside>[^)]*)\)")
_MEASURE_RE = re.compile(r"ROC-AUC of \((?P<what>[^)]*)\) against the (?P<human>human )?hallucination label"
                         r"(?P<scored>, scored samples)?")
_MEASURE_WHAT = {"1 - min claim probability": "1 − наименьшая вероятность утверждения",
                 "1 - faithfulness": "1 − faithfulness"}
_ADVICE = {
    "Reliable on short factual answers and on wrong numbers, units, dates, parties and negations; weak on summaries, "
    "free paraphrase and Russian entailment: for those, use an LLM judge (--judge openai:MODEL@URL) and calibrate it "
    "(ragauge calibrate).":
        "Надёжен на коротких фактических ответах и на ошибках в числах, единицах, датах, сторонах и отрицаниях; "
        "слаб на пересказах, свободном перефразировании и русском логическом следовании: для них возьмите "
        "LLM-судью (--judge openai:MODEL@URL) и откалибруйте его (ragauge calibrate).",
    "Reliable on wrong numbers, units, dates, parties, negations, superseded editions and added conditions; weak on "
    "free paraphrase (it flags many faithful Russian paraphrases), summaries and entailment: for those, use an LLM "
    "judge (--judge openai:MODEL@URL) and calibrate it (ragauge calibrate).":
        "Надёжен на ошибках в числах, единицах, датах, сторонах, отрицаниях, устаревших редакциях и добавленных "
        "условиях; слаб на свободном перефразировании (помечает многие верные русские пересказы), пересказах и "
        "логическом следовании: для них возьмите LLM-судью (--judge openai:MODEL@URL) и откалибруйте его "
        "(ragauge calibrate).",
}
_HOW = {
    "benchmarks/judge_accuracy.py (grouped 5-fold CV on the training dev sets; FaithBench and MTRAG held out); table "
    "in docs/benchmarks.md, section 'Offline judge'":
        "benchmarks/judge_accuracy.py (групповая 5-кратная кросс-валидация на dev-наборах обучения; FaithBench и MTRAG "
        "отложены); таблица — в docs/benchmarks.md, раздел 'Offline judge'",
    "through the product path (ragauge.evaluate, metric faithfulness, judge offline): benchmarks/ru_judge.py (Russian "
    "dev set, dev split), benchmarks/demo_judge.py, benchmarks/judge_accuracy.py --limit 300 (RAGTruth QA, HaluEval, "
    "WiCE, TERRa are training files of the head: partly in-sample); table and caveats in docs/offline-judge.md":
        "через путь продукта (ragauge.evaluate, метрика faithfulness, судья offline): benchmarks/ru_judge.py (русский "
        "dev-набор, dev-часть), benchmarks/demo_judge.py, benchmarks/judge_accuracy.py --limit 300 (RAGTruth QA, "
        "HaluEval, WiCE, TERRa — обучающие файлы головы: частично в обучающей выборке); таблица и оговорки — в "
        "docs/offline-judge.md",
}


def task_name(task: str, lang: str) -> str:
    """A task type of the accuracy table (``"entailment (TERRa, ru)"``) in ``lang``."""
    m = _TASK_RE.fullmatch(task) if lang == "ru" else None
    if m is None or m["what"] not in _TASKS:
        return task
    inside = m["inside"]
    for en in sorted(_QUALIFIERS, key=len, reverse=True):  # "held-out split" before "held out"
        inside = inside.replace(en, _QUALIFIERS[en])
    return f"{_TASKS[m['what']]} ({inside})"


def measure_text(acc: Mapping[str, Any], lang: str) -> str:
    """What the accuracy numbers measure (``ROC-AUC of ...``), in ``lang``."""
    measure = str(acc.get("measure", "accuracy"))
    if lang != "ru":
        return measure
    if isinstance(acc.get("measure_ru"), str):
        return str(acc["measure_ru"])
    if measure == "accuracy":
        return "точность"
    m = _MEASURE_RE.fullmatch(measure)
    if m is None:
        return measure
    what = _MEASURE_WHAT.get(m["what"], m["what"])
    label = "человеческой разметки галлюцинаций" if m["human"] else "разметки галлюцинаций"
    return f"ROC-AUC ({what}) против {label}" + (", по оценённым образцам" if m["scored"] else "")


def advice_text(acc: Mapping[str, Any], lang: str) -> str:
    """When to trust the judge and when to switch to an LLM judge, in ``lang``."""
    advice = str(acc.get("advice") or "")
    if lang != "ru":
        return advice
    if isinstance(acc.get("advice_ru"), str):
        return str(acc["advice_ru"])
    return _ADVICE.get(advice, advice)


def how_text(acc: Mapping[str, Any], lang: str) -> str:
    """How the accuracy was measured (commands and documents, with a sentence around them), in ``lang``."""
    how = str(acc.get("how") or "")
    if lang != "ru":
        return how
    if isinstance(acc.get("how_ru"), str):
        return str(acc["how_ru"])
    return _HOW.get(how, how)


def tasks(acc: Mapping[str, Any], lang: str) -> list[tuple[str, Any]]:
    """``(task name in lang, score)`` rows of the accuracy table."""
    by_task = acc.get("by_task") if isinstance(acc.get("by_task"), Mapping) else {}
    own = acc.get("by_task_ru") if lang == "ru" and isinstance(acc.get("by_task_ru"), Mapping) else {}
    return [(str(own.get(t) or task_name(str(t), lang)), v) for t, v in by_task.items()]
