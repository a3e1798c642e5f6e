"""The HTML samples section: a sortable, filterable table (worst first), each row expanding to the answer
with its judged claims highlighted, the reference, unscored reasons and the artifacts."""

from __future__ import annotations

import json
from typing import Any, Mapping

from .html_doc import _Doc, _e, _num, _section, _str, _table, _timing_groups

_QUESTION_CHARS = 110
_SAMPLE_KEYS = {"id", "tags", "question", "answer", "reference", "scores", "unscored", "artifacts"}
_VERDICT_CLASS = {"supported": "ok", "unsupported": "warn", "contradicted": "bad"}


def _colour(t: float) -> str:
    """Background for a normalised score ``t`` in [0, 1]: soft red -> amber -> green."""
    stops = [(0.0, (246, 211, 211)), (0.5, (252, 236, 196)), (1.0, (206, 234, 214))]
    t = min(max(t, 0.0), 1.0)
    (a, ca), (b, cb) = (stops[0], stops[1]) if t <= 0.5 else (stops[1], stops[2])
    mix = [round(x + (y - x) * (t - a) / (b - a)) for x, y in zip(ca, cb)]
    return "#%02x%02x%02x" % tuple(mix)


def _sample_columns(doc: _Doc) -> list[tuple[str, list[str]]]:
    """(column label, metric names) for every metric with per-sample scores; timing percentiles merge."""
    present = {k for s in doc.samples for k in (s.get("scores") or {})}
    cols: list[tuple[str, list[str]]] = [(m, [m]) for m in doc.metrics if m in present and doc.percentile(m) is None]
    for field, members in _timing_groups(doc).items():
        names = [n for _, n in members if n in present]
        if names:
            cols.append((field, names))
    known = {n for _, names in cols for n in names}
    return cols + [(m, [m]) for m in sorted(present - known - set(doc.metrics))]


def _cell_value(sample: Mapping[str, Any], names: list[str]) -> float | None:
    scores = sample.get("scores") or {}
    return next((v for n in names if (v := _num(scores.get(n))) is not None), None)


def _score_cell(doc: _Doc, sample: Mapping[str, Any], names: list[str]) -> str:
    unscored = sample.get("unscored") or {}
    value = _cell_value(sample, names)
    if value is None:
        reason = next((_str(unscored.get(n)) for n in names if unscored.get(n)), "") or "not scored"
        return f'<td class="score unscored" data-v="" title="{_e(reason)}"><span class="cell">—</span></td>'
    name = names[0]
    style = ""
    if (rng := doc.value_range(name)) is not None and doc.percentile(name) is None:
        t = (value - rng[0]) / (rng[1] - rng[0])
        style = f' style="background:{_colour(t if doc.higher_is_better(name) else 1 - t)}"'
    # The colour sits on an inner block so that an expanded row does not turn into a tall coloured column.
    return f'<td class="score num" data-v="{value!r}"><span class="cell"{style}>{_e(doc.fmt(name, value))}</span></td>'


def _samples(doc: _Doc) -> str:
    if not doc.samples:
        return _section("samples", "Samples", "", '<p class="empty">No samples in this document.</p>')
    cols = _sample_columns(doc)
    col_of = {n: i for i, (_, names) in enumerate(cols) for n in names}
    sort_col = next((col_of[g["metric"]] for g in doc.gates if g.get("metric") in col_of), None)
    samples = list(doc.samples)
    if sort_col is not None:
        names = cols[sort_col][1]
        sign = 1.0 if doc.higher_is_better(names[0]) else -1.0

        def worst_first(sample: Mapping[str, Any]) -> tuple[int, float]:
            v = _cell_value(sample, names)
            return (1, 0.0) if v is None else (0, sign * v)  # unscored last, still listed

        samples.sort(key=worst_first)
    head = ['<th data-type="text"><button type="button">id</button></th>',
            '<th data-type="text"><button type="button">tags</button></th>',
            '<th data-type="text" class="q"><button type="button">question</button></th>']
    for i, (label, _) in enumerate(cols):
        order = ""
        if i == sort_col:
            order = f' aria-sort="{"ascending" if doc.higher_is_better(cols[i][1][0]) else "descending"}"'
        head.append(f'<th data-type="num"{order}><button type="button">{_e(label)}</button></th>')
    rows = [_sample_row(doc, s, cols) for s in samples]
    note = (f"Sorted worst first by <strong>{_e(cols[sort_col][0])}</strong>; " if sort_col is not None else "") + \
        "click a column to sort, a question to see the answer, reference and artifacts. “—” is unscored " \
        "(hover for the reason)."
    tools = ('<div class="table-tools"><input id="sample-filter" type="search" placeholder="Filter samples…" '
             f'aria-label="Filter samples"><span class="muted">{len(samples)} samples</span></div>')
    table = _table("<tr>" + "".join(head) + "</tr>", rows, "samples-table").replace(
        '<table class="samples-table">', '<table class="samples-table" id="samples-table">')
    return _section("samples", "Samples", note, tools + table)


def _sample_row(doc: _Doc, s: Mapping[str, Any], cols: list[tuple[str, list[str]]]) -> str:
    question = _str(s.get("question"))
    short = question if len(question) <= _QUESTION_CHARS else question[: _QUESTION_CHARS - 1].rstrip() + "…"
    tags = s.get("tags") or []
    tag_html = "".join(f'<span class="tag">{_e(t)}</span>' for t in tags) if isinstance(tags, list) else _e(tags)
    details = [f'<div class="full-q"><h4>Question</h4><p>{_e(question)}</p></div>'] if short != question else []
    for key in ("answer", "reference"):
        if s.get(key) is not None:
            body = _highlighted(_str(s.get(key)), s.get("artifacts")) if key == "answer" else _e(s.get(key))
            details.append(f'<div><h4>{key.capitalize()}</h4><p class="prose">{body}</p></div>')
    unscored = s.get("unscored") or {}
    if unscored:
        items = "".join(f"<li><code>{_e(k)}</code>: {_e(v)}</li>" for k, v in unscored.items())
        details.append(f'<div><h4>Unscored</h4><ul class="plain">{items}</ul></div>')
    artifacts = s.get("artifacts") or {}
    if artifacts:
        details.append(f"<div><h4>Artifacts</h4>{_artifacts(artifacts)}</div>")
    extra = {k: v for k, v in s.items() if k not in _SAMPLE_KEYS}
    if extra:
        details.append(f"<div><h4>Other fields</h4>{_json(extra)}</div>")
    cells = "".join(_score_cell(doc, s, names) for _, names in cols)
    return (
        f'<tr><td class="id" data-v="{_e(s.get("id"))}"><code>{_e(s.get("id"))}</code></td>'
        f'<td data-v="{_e(" ".join(map(str, tags)) if isinstance(tags, list) else tags)}">{tag_html}</td>'
        f'<td class="q" data-v="{_e(question)}"><details><summary title="{_e(question)}">{_e(short)}</summary>'
        f'<div class="sample-detail">{"".join(details)}</div></details></td>{cells}</tr>'
    )


def _answer_claims(artifacts: Any) -> list[Mapping[str, Any]]:
    """Claims with offsets into the answer: the faithfulness artifact's, if any."""
    if not isinstance(artifacts, Mapping):
        return []
    art = artifacts.get("faithfulness")
    claims = art.get("claims") if isinstance(art, Mapping) else None
    if not isinstance(claims, list):
        return []
    return [c for c in claims if isinstance(c, Mapping) and isinstance(c.get("start"), int)
            and isinstance(c.get("end"), int)]


def _highlighted(answer: str, artifacts: Any) -> str:
    """The answer with each judged claim marked: unsupported/contradicted spans highlighted, reason on hover."""
    marks = sorted(_answer_claims(artifacts), key=lambda c: c["start"])
    out, pos = [], 0
    for c in marks:
        start, end = c["start"], c["end"]
        if start < pos or end > len(answer) or start >= end:
            continue  # overlapping or out of range: leave the text plain
        verdict = _str(c.get("verdict")).lower()
        cls = _VERDICT_CLASS.get(verdict, "other")
        out.append(_e(answer[pos:start]))
        out.append(f'<mark class="span-{cls}" title="{_e(verdict)}: {_e(c.get("reason"))}">{_e(answer[start:end])}</mark>')
        pos = end
    out.append(_e(answer[pos:]))
    return "".join(out)


def _json(value: Any) -> str:
    return f'<pre class="json">{_e(json.dumps(value, ensure_ascii=False, indent=2, default=str))}</pre>'


def _is_claims(value: Any) -> bool:
    claims = value.get("claims") if isinstance(value, Mapping) else None
    return isinstance(claims, list) and all(isinstance(c, Mapping) for c in claims)


def _claims(value: Mapping[str, Any]) -> str:
    claims = value["claims"]
    counts: dict[str, int] = {}
    items = []
    for c in claims:
        verdict = _str(c.get("verdict")).lower() or "unknown"
        counts[verdict] = counts.get(verdict, 0) + 1
        reason = f'<div class="claim-reason">{_e(c.get("reason"))}</div>' if c.get("reason") else ""
        items.append(f'<li class="claim claim-{_VERDICT_CLASS.get(verdict, "other")}"><span class="verdict-tag">'
                     f'{_e(verdict)}</span> {_e(c.get("text"))}{reason}</li>')
    tally = ", ".join(f"{n} {_e(v)}" for v, n in counts.items())
    rest = {k: v for k, v in value.items() if k != "claims"}
    return (f'<p class="muted">{len(claims)} claims: {tally}</p><ul class="claims">{"".join(items)}</ul>'
            + (_json(rest) if rest else ""))


def _artifacts(artifacts: Any) -> str:
    if _is_claims(artifacts):
        return _claims(artifacts)
    if not isinstance(artifacts, Mapping):
        return _json(artifacts)
    parts = []
    for key, value in artifacts.items():
        body = _claims(value) if _is_claims(value) else _json(value)
        parts.append(f'<div class="artifact"><div class="artifact-key"><code>{_e(key)}</code></div>{body}</div>')
    return "".join(parts)
