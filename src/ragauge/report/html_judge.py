"""The HTML judge section: which judge produced the judge metrics, and its measured accuracy."""

from __future__ import annotations

from typing import Any, Mapping

from .common import usage_rows
from .html_doc import _Doc, _e, _num, _section
from . import judge_text
from .messages import local_num, msg


def judge_section(doc: _Doc) -> str:
    """Which judge produced the judge metrics, and its measured accuracy per task type (when known)."""
    judges: dict[str, Mapping[str, Any]] = {}
    for name, entry in doc.summary.items():
        j = entry.get("judge") if isinstance(entry, Mapping) else None
        if isinstance(j, Mapping):
            judges.setdefault(f"{j.get('judge')} · {j.get('model')} · {j.get('version')}", j)
    spend = usage_rows(doc.r, lang=doc.lang)
    if not judges and not spend:
        return ""
    parts = []
    for label, j in judges.items():
        acc = j.get("measured_accuracy")
        body = f"<p><strong>{_e(label)}</strong></p>"
        if isinstance(acc, Mapping) and isinstance(acc.get("by_task"), Mapping):
            rows = "".join(f"<tr><td>{_e(task)}</td><td class=\"num\">"
                           f"{_e(local_num(v, doc.lang) if _num(v) is not None else v)}</td></tr>"
                           for task, v in judge_text.tasks(acc, doc.lang))
            how = judge_text.how_text(acc, doc.lang)
            how = f' {_e(msg(doc.lang, "j_measured_by", how=how))}' if how else ""
            body += (f'<table class="compact"><thead><tr><th>{msg(doc.lang, "j_task")}</th>'
                     f'<th>{_e(judge_text.measure_text(acc, doc.lang))}</th></tr></thead><tbody>{rows}</tbody></table>'
                     f'<p class="muted">{_e(judge_text.advice_text(acc, doc.lang))}{how}</p>')
        parts.append(body)
    if spend:
        esc = (doc.r.get("usage") or {}).get("escalation") or {}
        rows = "".join(f"<tr><td>{_e(w)}</td><td class=\"num\">{c}</td><td class=\"num\">{h}</td>"
                       f"<td class=\"num\">{t:,}</td><td class=\"num\">{'—' if usd is None else f'${usd:.4f}'}</td></tr>"
                       for w, c, h, t, usd in spend)
        note = (f'<p class="muted">{_e(msg(doc.lang, "j_cascade", k=esc.get("escalated"), n=esc.get("claims")))}</p>'
                if esc else "")
        heads = "".join(f"<th>{msg(doc.lang, k)}</th>" for k in ("h_what", "h_calls", "h_cached", "h_tokens", "h_cost"))
        parts.append(f'<p><strong>{msg(doc.lang, "judge_spend")}</strong> {msg(doc.lang, "judge_spend_note")}</p>'
                     f'<table class="compact"><thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>{note}')
    return _section("judge", msg(doc.lang, "sec_judge"), msg(doc.lang, "judge_intro"), "".join(parts))
