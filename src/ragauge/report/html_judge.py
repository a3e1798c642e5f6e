"""The HTML judge section: which judge produced the judge metrics, and its measured accuracy."""

from __future__ import annotations

from typing import Any, Mapping

from .html_doc import _Doc, _e, _num, _section


def judge_section(doc: _Doc) -> str:
    """Which judge produced the judge metrics, and its measured accuracy per task type (when known)."""
    judges: dict[str, Mapping[str, Any]] = {}
    for name, entry in doc.summary.items():
        j = entry.get("judge") if isinstance(entry, Mapping) else None
        if isinstance(j, Mapping):
            judges.setdefault(f"{j.get('judge')} · {j.get('model')} · {j.get('version')}", j)
    if not judges:
        return ""
    parts = []
    for label, j in judges.items():
        acc = j.get("measured_accuracy")
        body = f"<p><strong>{_e(label)}</strong></p>"
        if isinstance(acc, Mapping) and isinstance(acc.get("by_task"), Mapping):
            rows = "".join(f"<tr><td>{_e(task)}</td><td class=\"num\">{_e(f'{v:.3f}' if _num(v) is not None else v)}</td></tr>"
                           for task, v in acc["by_task"].items())
            body += (f'<table class="compact"><thead><tr><th>task type</th><th>{_e(acc.get("measure", "accuracy"))}</th>'
                     f"</tr></thead><tbody>{rows}</tbody></table>"
                     f'<p class="muted">{_e(acc.get("advice", ""))} Measured by {_e(acc.get("how", ""))}.</p>')
        parts.append(body)
    intro = "The judge behind faithfulness, relevancy, correctness, context and toxicity metrics, and how well it is known to work."
    return _section("judge", "Judge", intro, "".join(parts))
