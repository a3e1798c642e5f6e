"""The HTML samples section: sortable, filterable tables (worst first), each row expanding to the answer
with its judged claims highlighted, the reference, unscored reasons and the artifacts.

Bounded, whatever the size of the data (results.json keeps everything): samples that miss a gate come
first, open; the samples that pass every gate sit in a collapsed ``<details>``; at most
:data:`MAX_ROWS` rows are shown and at most :data:`MAX_CHARS` characters of any one text (question,
answer, reference, reason, artifact) per sample. The metric columns are grouped (retrieval, context,
generation, operational) and one group is shown at a time (a CSS-only switch; "all" shows every column).
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from . import html_sample_detail as detail
from .html_doc import _Doc, _e, _num, _passes, _section, _str, _table, _timing_groups
from .messages import msg, plural
from .reason_text import reason_text, reasons_in, verdict_word
from .run_notes import shards_note

_QUESTION_CHARS = 110
MAX_CHARS = 2_000  #: characters of one text field per sample shown in the HTML
MAX_ROWS = 500  #: samples shown in the HTML (failing ones first)
MAX_CLAIMS = 100  #: claims listed per artifact (all are counted)
_SAMPLE_KEYS = {"id", "tags", "question", "answer", "reference", "scores", "unscored", "artifacts"}
_VERDICT_CLASS = {"supported": "ok", "unsupported": "warn", "contradicted": "bad"}
#: metric family (results.json ``metrics[].family``) -> column group of the samples table
_GROUP_OF_FAMILY = {"ranking": "retrieval", "context_ids": "context", "context_judge": "context",
                    "faithfulness": "generation", "answer": "generation", "noise": "generation",
                    "toxicity": "generation", "operational": "operational"}
GROUPS = ("retrieval", "context", "generation", "operational", "other")


def _colour(t: float) -> str:
    """Background for a normalised score ``t`` in [0, 1]: soft red -> amber -> green."""
    stops = [(0.0, (246, 211, 211)), (0.5, (252, 236, 196)), (1.0, (206, 234, 214))]
    t = min(max(t, 0.0), 1.0)
    (a, ca), (b, cb) = (stops[0], stops[1]) if t <= 0.5 else (stops[1], stops[2])
    mix = [round(x + (y - x) * (t - a) / (b - a)) for x, y in zip(ca, cb)]
    return "#%02x%02x%02x" % tuple(mix)


#: Ids and tags are names, not texts: shown up to this many characters, and at most MAX_TAGS tags a sample.
MAX_ID_CHARS = 200
MAX_TAGS = 20


def capped(text: str, lang: str = "en", limit: int = MAX_CHARS) -> tuple[str, str]:
    """``(shown text, note)``: at most ``limit`` characters, and "… (N more characters in results.json)"
    when some were cut (the note is already HTML-escaped, the text is not)."""
    if len(text) <= limit:
        return text, ""
    more = len(text) - limit
    return text[:limit], f'<span class="cut">{_e(msg(lang, "s_more_chars", chars=plural(lang, more, "more characters")))}</span>'


def _group(doc: _Doc, name: str) -> str:
    family = _str(doc.specs.get(name, {}).get("family"))
    if family in _GROUP_OF_FAMILY:
        return _GROUP_OF_FAMILY[family]
    return "operational" if doc.percentile(name) is not None or doc.stored_unit(name) == "ms" else "other"


def _sample_columns(doc: _Doc) -> list[tuple[str, list[str]]]:
    """(column label, metric names) for every metric with per-sample scores, by group; timing percentiles merge."""
    present = {k for s in doc.samples for k in (s.get("scores") or {})}
    cols: list[tuple[str, list[str]]] = [(m, [m]) for m in doc.metrics if m in present and doc.percentile(m) is None]
    for field, members in _timing_groups(doc).items():
        names = [n for _, n in members if n in present]
        if names:
            cols.append((field, names))
    known = {n for _, names in cols for n in names}
    cols += [(m, [m]) for m in sorted(present - known - set(doc.metrics))]
    return sorted(cols, key=lambda c: GROUPS.index(_group(doc, c[1][0])))  # stable: the order within a group stays


def _cell_value(sample: Mapping[str, Any], names: list[str]) -> float | None:
    scores = sample.get("scores") or {}
    return next((v for n in names if (v := _num(scores.get(n))) is not None), None)


def _score_cell(doc: _Doc, sample: Mapping[str, Any], names: list[str], group: str) -> str:
    unscored = sample.get("unscored") or {}
    value = _cell_value(sample, names)
    if value is None:
        reason = next((reason_text(_str(unscored.get(n)), doc.lang) for n in names if unscored.get(n)), "") \
            or msg(doc.lang, "b_not_scored")
        return (f'<td class="score unscored sg grp-{group}" data-v="" title="{_e(capped(reason, limit=300)[0])}">'
                f'<span class="cell">—</span></td>')
    name = names[0]
    style = ""
    if (rng := doc.value_range(name)) is not None and doc.percentile(name) is None:
        t = (value - rng[0]) / (rng[1] - rng[0])
        style = f' style="background:{_colour(t if doc.higher_is_better(name) else 1 - t)}"'
    # The colour sits on an inner block so that an expanded row does not turn into a tall coloured column.
    return (f'<td class="score num sg grp-{group}" data-v="{value!r}"><span class="cell"{style}>'
            f'{_e(doc.fmt(name, value))}</span></td>')


def _misses_a_gate(doc: _Doc, sample: Mapping[str, Any]) -> bool:
    """True when the sample is below the bar of a checked gate, or unscored on a gated metric that others
    were scored on (a metric unscored everywhere says nothing about this sample)."""
    scores = sample.get("scores") or {}
    for g in doc.gates:
        name, threshold = _str(g.get("metric")), _num(g.get("threshold"))
        if g.get("status") == "skipped" or threshold is None or name not in scores:
            continue
        value = _num(scores.get(name))
        if value is None:
            if (doc.summary.get(name) or {}).get("n"):
                return True
        elif not _passes(value, _str(g.get("op")), threshold):
            return True
    return False


def _group_switch(doc: _Doc, groups: list[str], default: str) -> str:
    """Radio buttons that show one column group at a time (CSS only: ``#sg-X:checked ~ * .sg:not(.grp-X)``)."""
    lang = doc.lang
    items = [("all", msg(lang, "s_all"))] + [(g, msg(lang, f"g_{g}")) for g in groups]
    return "".join(
        f'<input type="radio" name="sample-group" id="sg-{g}" class="sg-radio"{" checked" if g == default else ""}>'
        f'<label for="sg-{g}" class="sg-label">{_e(label)}</label>' for g, label in items)


def _samples(doc: _Doc) -> str:
    lang = doc.lang
    title = msg(lang, "nav_samples")
    if not doc.samples:
        where = shards_note(doc.r, lang, text=_e, code=lambda c: f"<code>{_e(c)}</code>")
        if where is not None:  # a --shards run: the rows are in its shards
            return _section("samples", title, "", "".join(f'<p class="empty">{t}</p>' for t in where))
        return _section("samples", title, "", f'<p class="empty">{msg(lang, "s_empty")}</p>')
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
    groups = [g for g in GROUPS if any(_group(doc, names[0]) == g for _, names in cols)]
    col_groups = [_group(doc, names[0]) for _, names in cols]
    default = col_groups[sort_col] if sort_col is not None and len(cols) > 6 else "all"
    head = ['<th data-type="text"><button type="button">id</button></th>',
            f'<th data-type="text"><button type="button">{msg(lang, "s_h_tags")}</button></th>',
            f'<th data-type="text" class="q"><button type="button">{msg(lang, "s_h_question")}</button></th>']
    for i, (label, _) in enumerate(cols):
        order = ""
        if i == sort_col:
            order = f' aria-sort="{"ascending" if doc.higher_is_better(cols[i][1][0]) else "descending"}"'
        head.append(f'<th data-type="num" class="sg grp-{col_groups[i]}"{order}><button type="button">{_e(label)}'
                    f'</button></th>')
    head_html = "<tr>" + "".join(head) + "</tr>"
    shown, hidden = samples[:MAX_ROWS], len(samples) - min(len(samples), MAX_ROWS)
    gated = any(g.get("status") != "skipped" for g in doc.gates)
    failing = [s for s in shown if _misses_a_gate(doc, s)] if gated else shown
    passing = [s for s in shown if not _misses_a_gate(doc, s)] if gated else []

    def table(rows: list[Mapping[str, Any]], table_id: str) -> str:
        body = [_sample_row(doc, s, cols, col_groups) for s in rows]
        return _table(head_html, body, "samples-table").replace(
            '<table class="samples-table">', f'<table class="samples-table" id="{table_id}">')

    note = (msg(lang, "s_sorted", metric=_e(cols[sort_col][0])) if sort_col is not None else "") + msg(lang, "s_note")
    tools = (f'<div class="table-tools"><input id="sample-filter" type="search" placeholder="{_e(msg(lang, "s_filter"))}" '
             f'aria-label="{_e(msg(lang, "s_filter"))}"><span class="muted">{_e(plural(lang, len(samples), "samples"))}'
             f'</span></div>')
    parts = [tools, '<div class="samples-box">', _group_switch(doc, groups, default) if len(groups) > 1 else ""]
    if gated:
        parts.append(f'<p class="sub-head">{_e(msg(lang, "s_failing", samples=plural(lang, len(failing), "samples")))}</p>')
    if failing or not passing:
        parts.append(table(failing, "samples-table"))
    if passing:
        parts.append(f'<details class="passing"><summary>{_e(msg(lang, "s_passing", samples=plural(lang, len(passing), "samples")))}'
                     f'</summary>{table(passing, "samples-table-passing")}</details>')
    parts.append("</div>")
    if hidden:
        parts.append(f'<p class="muted cut-rows">{_e(msg(lang, "s_more_rows", samples=plural(lang, hidden, "more samples")))}</p>')
    return _section("samples", title, note, "".join(parts))


def _sample_row(doc: _Doc, s: Mapping[str, Any], cols: list[tuple[str, list[str]]], col_groups: list[str]) -> str:
    lang = doc.lang
    question, q_cut = capped(_str(s.get("question")), lang)
    short = question if len(question) <= _QUESTION_CHARS else question[: _QUESTION_CHARS - 1].rstrip() + "…"
    tags = s.get("tags") or []
    if isinstance(tags, list):  # at most MAX_TAGS tags of MAX_ID_CHARS each: a huge tag list stays in results.json
        shown_tags = [capped(_str(t), lang, MAX_ID_CHARS)[0] for t in tags[:MAX_TAGS]]
        more_tags = f'<span class="cut">+{len(tags) - MAX_TAGS}</span>' if len(tags) > MAX_TAGS else ""
        tag_html = "".join(f'<span class="tag">{_e(t)}</span>' for t in shown_tags) + more_tags
    else:
        tag_html = _e(capped(_str(tags), lang, MAX_ID_CHARS)[0])
    tag_html += detail.class_badges(s, lang)
    details = ([f'<div class="full-q"><h4>{msg(lang, "q_question")}</h4><p>{_e(question)}{q_cut}</p></div>']
               if short != question or q_cut else [])
    for key in ("answer", "reference"):
        if s.get(key) is not None:
            text, cut = capped(_str(s.get(key)), lang)
            body = _highlighted(text, s.get("artifacts"), lang) if key == "answer" else _e(text)
            details.append(f'<div><h4>{msg(lang, "q_" + key)}</h4><p class="prose">{body}{cut}</p></div>')
    details += [b for b in (detail.taxonomy_block(s, lang), detail.diagnostics_block(doc, s), detail.agent_block(s, lang)) if b]
    unscored = s.get("unscored") or {}
    if unscored:
        items = "".join(f"<li><code>{_e(k)}</code>: {_e(capped(reason_text(_str(v), lang), lang)[0])}</li>"
                        for k, v in unscored.items())
        details.append(f'<div><h4>{msg(lang, "q_unscored")}</h4><ul class="plain">{items}</ul></div>')
    artifacts = s.get("artifacts") or {}
    if isinstance(artifacts, Mapping):  # shown above in their own blocks
        artifacts = {k: v for k, v in artifacts.items() if k not in detail.SHOWN_KEYS}
    if artifacts:
        details.append(f'<div><h4>{msg(lang, "q_artifacts")}</h4>{_artifacts(artifacts, lang)}</div>')
    extra = {k: v for k, v in s.items() if k not in _SAMPLE_KEYS}
    if extra:
        details.append(f'<div><h4>{msg(lang, "q_other")}</h4>{_json(extra, lang)}</div>')
    cells = "".join(_score_cell(doc, s, names, g) for (_, names), g in zip(cols, col_groups))
    tag_text = " ".join(shown_tags) if isinstance(tags, list) else _str(tags)
    sid, sid_cut = capped(_str(s.get("id")), lang, MAX_ID_CHARS)
    return (
        f'<tr><td class="id" data-v="{_e(sid)}"><code>{_e(sid)}</code>{sid_cut}</td>'
        f'<td data-v="{_e(capped(tag_text, lang)[0])}">{tag_html}</td>'
        f'<td class="q" data-v="{_e(question[:300])}"><details><summary title="{_e(question[:300])}">{_e(short)}</summary>'
        f'<div class="sample-detail">{"".join(details)}</div></details></td>{cells}</tr>'
    )


def _answer_claims(artifacts: Any) -> list[Mapping[str, Any]]:
    """Claims with offsets into the answer: the faithfulness artifact's, else the taxonomy's."""
    if not isinstance(artifacts, Mapping):
        return []
    for key in ("faithfulness", detail.TAXONOMY):
        art = artifacts.get(key)
        claims = art.get("claims") if isinstance(art, Mapping) else None
        if isinstance(claims, list):
            return [c for c in claims if isinstance(c, Mapping) and isinstance(c.get("start"), int)
                    and isinstance(c.get("end"), int)]
    return []


def _highlighted(answer: str, artifacts: Any, lang: str = "en") -> str:
    """The answer with each judged claim marked: unsupported/contradicted spans highlighted, reason on hover,
    and the hallucination class (when the taxonomy ran) written after the claim."""
    classes = detail.claim_classes({"artifacts": artifacts})
    marks = sorted(_answer_claims(artifacts), key=lambda c: c["start"])
    out, pos = [], 0
    for c in marks:
        start, end = c["start"], c["end"]
        if start < pos or end > len(answer) or start >= end:
            continue  # overlapping or out of range: leave the text plain
        verdict = _str(c.get("verdict")).lower()
        cls = _VERDICT_CLASS.get(verdict, "other")
        out.append(_e(answer[pos:start]))
        hc = classes.get((start, end))
        label = detail.class_label(hc, lang) if hc else ""
        out.append(f'<mark class="span-{cls}" title="{_e(verdict_word(verdict, lang))}: {_e(reason_text(c.get("reason"), lang))}">{_e(answer[start:end])}</mark>{label}')
        pos = end
    out.append(_e(answer[pos:]))
    return "".join(out)


def _json(value: Any, lang: str = "en") -> str:
    text, cut = capped(json.dumps(value, ensure_ascii=False, indent=2, default=str), lang)
    return f'<pre class="json">{_e(text)}</pre>{cut}'


def _is_claims(value: Any) -> bool:
    claims = value.get("claims") if isinstance(value, Mapping) else None
    return isinstance(claims, list) and all(isinstance(c, Mapping) for c in claims)


def _claims(value: Mapping[str, Any], lang: str = "en") -> str:
    claims = value["claims"]
    counts: dict[str, int] = {}
    items = []
    for i, c in enumerate(claims):
        verdict = _str(c.get("verdict")).lower() or "unknown"
        counts[verdict] = counts.get(verdict, 0) + 1
        if i >= MAX_CLAIMS:
            continue  # counted in the tally, not listed
        shown = reason_text(_str(c.get("reason")), lang)
        reason = f'<div class="claim-reason">{_e(capped(shown, lang)[0])}</div>' if c.get("reason") else ""
        items.append(f'<li class="claim claim-{_VERDICT_CLASS.get(verdict, "other")}"><span class="verdict-tag">'
                     f'{_e(verdict_word(verdict, lang))}</span> {_e(capped(_str(c.get("text")), lang)[0])}'
                     f'{detail.class_label(_str(c["class"]), lang) if c.get("class") else ""}{reason}</li>')
    if len(claims) > MAX_CLAIMS:
        items.append(f'<li class="muted">{_e(msg(lang, "s_more_claims", claims=plural(lang, len(claims) - MAX_CLAIMS, "claims")))}</li>')
    tally = ", ".join(f"{n} {_e(verdict_word(v, lang))}" for v, n in counts.items())
    rest = {k: v for k, v in value.items() if k != "claims"}
    return (f'<p class="muted">{_e(plural(lang, len(claims), "claims"))}: {tally}</p><ul class="claims">{"".join(items)}</ul>'
            + (_json(rest, lang) if rest else ""))


def _artifacts(artifacts: Any, lang: str = "en") -> str:
    if _is_claims(artifacts):
        return _claims(artifacts, lang)
    if not isinstance(artifacts, Mapping):
        return _json(artifacts, lang)
    parts = []
    for key, value in artifacts.items():
        body = _claims(value, lang) if _is_claims(value) else _json(reasons_in(value, lang), lang)
        parts.append(f'<div class="artifact"><div class="artifact-key"><code>{_e(key)}</code></div>{body}</div>')
    return "".join(parts)
