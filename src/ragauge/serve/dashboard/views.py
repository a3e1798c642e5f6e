"""Turn query results into what the templates show: formatted numbers, texts in the page's language.

Values stay plain strings here; the templates escape every one of them (Jinja2 autoescape).
"""

from __future__ import annotations

import json
import time
from typing import Any, Sequence

from .highlight import answer_segments, claims_of, context_segments
from .i18n import TEXT, Words
from .overview import Agreement, Comparison, Tile

_OPS = {">=": "≥", ">": ">", "<=": "≤", "<": "<"}


def when(ts: float | None) -> str:
    """UTC time of a unix timestamp, to the second."""
    return "" if ts is None else time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(ts))


def num(value: float | None, unit: str | None = None) -> str:
    if value is None:
        return "—"
    return f"{value:.0f} ms" if unit == "ms" else f"{value:.3f}"


def short(text: str | None, limit: int = 160) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def spark(trend: Sequence[float], threshold: float | None) -> tuple[str, float | None]:
    """SVG polyline points of a [0, 1] trend in a 120x32 box, and the threshold's y (or None)."""
    if len(trend) < 2:
        return "", None
    step = 120 / (len(trend) - 1)

    def y(v: float) -> float:
        return round(30 - 28 * min(max(v, 0.0), 1.0), 1)

    points = " ".join(f"{i * step:.1f},{y(v)}" for i, v in enumerate(trend))
    return points, (y(threshold) if threshold is not None and 0 <= threshold <= 1 else None)


def tile_view(tile: Tile, t: Words, trend_width: int) -> dict[str, Any]:
    s = tile.summary
    th = tile.threshold
    status_key = {"pass": "status_pass", "fail": "status_fail", "unsure": "status_unsure", "near": "status_near"}
    ci = (f"{t('ci')} [{num(s.ci.low, tile.unit)}, {num(s.ci.high, tile.unit)}]" if s.ci is not None
          else (t("no_ci") if s.value is not None else ""))
    points, th_y = spark(tile.trend, th.value if th is not None else None)
    return {
        "metric": tile.metric, "label": t.metric(tile.metric), "value": num(s.value, tile.unit), "ci": ci,
        "threshold": (f"{t('threshold')} {_OPS[th.op]} {th.value:g}" + (" ms" if tile.unit == "ms" else ""))
        if th is not None else t("no_threshold"),
        "status": tile.status,
        "status_text": "" if th is None else t(status_key.get(tile.status, "status_none")),
        "n": s.n, "unscored": s.n_unscored, "spark": points, "spark_th": th_y,
        "spark_label": t("trend", w=trend_width),
    }


def comparison_view(c: Comparison, t: Words) -> dict[str, Any]:
    verdicts = {"better": "v_better", "worse": "v_worse", "no detectable difference": "v_same",
                "too few pairs": "v_few"}
    p = c.paired
    if p is None:
        return {"label": t.metric(c.metric), "a": num(c.mean_a), "b": num(c.mean_b), "diff": "—", "ci": "—",
                "p": "—", "verdict": "", "verdict_class": "", "n": 0}
    ci = f"[{p.ci.low:+.3f}, {p.ci.high:+.3f}]" if p.ci is not None else "—"
    shown_p = p.p_adjusted if p.p_adjusted is not None else p.p_value
    return {"label": t.metric(c.metric), "a": num(p.base_value), "b": num(p.new_value),
            "diff": "—" if p.difference is None else f"{p.difference:+.3f}", "ci": ci,
            "p": "—" if shown_p is None else f"{shown_p:.3g}", "verdict": t(verdicts.get(p.verdict, "v_same")),
            "verdict_class": p.verdict if p.verdict in ("better", "worse") else "", "n": p.n}


def agreement_view(a: Agreement, t: Words) -> dict[str, Any]:
    corr = a.spearman
    rho = "—" if corr.estimate is None else f"{corr.estimate:+.2f}"
    if corr.ci is not None:
        rho += f" [{corr.ci.low:+.2f}, {corr.ci.high:+.2f}]"
    th = a.threshold
    cut = "—" if th.threshold is None else f"{th.threshold:.2f} ({th.balanced_accuracy:.2f})"
    return {"label": t.metric(a.metric), "up": f"{num(a.mean_up)} (n = {a.n_up})",
            "down": f"{num(a.mean_down)} (n = {a.n_down})", "rho": rho, "cut": cut}


def behaviour_text(kind: str, t: Words) -> str:
    return t({"not_found": "b_not_found", "clarify": "b_clarify"}.get(kind, "b_answer"))


def feedback_text(items: Sequence[dict[str, Any]]) -> str:
    up = sum(1 for f in items if (f.get("rating") or 0) > 0)
    down = sum(1 for f in items if (f.get("rating") or 0) < 0)
    return " ".join(p for p in (f"▲{up}" if up else "", f"▼{down}" if down else "") if p)


def list_row(r: dict[str, Any], t: Words, faith_below: float, href: str) -> dict[str, Any]:
    f = r["scores"].get("faithfulness")
    fv = f["value"] if f is not None else None
    faith = num(fv) if f is not None else ("…" if r["state"] in ("pending", "claimed") else "—")
    return {"id": r["id"], "time": when(r["received_at"]), "app": r["app"], "version": r["version"],
            "question": short(r["question"], 140), "answer": short(r["answer"], 180), "faith": faith,
            "faith_class": "low" if fv is not None and fv < faith_below else "",
            "latency": num(r["latency_ms"], "ms"), "behaviour": behaviour_text(r["behaviour"], t),
            "feedback": feedback_text(r["feedback"]), "href": href}


def _plain(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)


def request_view(item: dict[str, Any], t: Words) -> dict[str, Any]:
    """Everything the request page shows."""
    row, record = item["row"], item["record"]
    claims = claims_of((item["scores"].get("faithfulness") or {}).get("artifacts"))
    contexts = record.get("contexts") or []
    labels = {"supported": t("supported"), "unsupported": t("unsupported"), "contradicted": t("contradicted")}
    claim_rows = []
    for c in claims:
        ev = c.get("evidence") if isinstance(c.get("evidence"), dict) else None
        source = ev.get("source") if ev is not None and isinstance(ev.get("source"), int) \
            and 0 <= ev["source"] < len(contexts) else None
        verdict = str(c.get("verdict") or "")
        prob = c.get("probability")
        claim_rows.append({"text": str(c.get("text") or ""), "verdict": verdict,
                           "verdict_text": labels.get(verdict, verdict), "supported": verdict == "supported",
                           "probability": f"{prob:.2f}" if isinstance(prob, (int, float)) else "—",
                           "source": source, "quote": short(ev.get("text") if ev else "", 300),
                           "reason": str(c.get("reason") or "")})
    chunks = [{"id": c.get("id"), "score": f"{c['score']:.3f}" if isinstance(c.get("score"), (int, float)) else None,
               "metadata": [(str(k), _plain(v)) for k, v in sorted((c.get("metadata") or {}).items())],
               "segments": context_segments(str(c.get("text") or ""), i, claims)}
              for i, c in enumerate(contexts)]
    guards = [{"name": s.get("name") or s.get("kind"), "decision": _plain(s.get("decision")) if s.get("decision") else "",
               "reason": s.get("reason") or "", "duration": num(s.get("duration_ms"), "ms")}
              for s in item["spans"] if s.get("kind") == "guard"]
    spans = [{"kind": s.get("kind"), "name": "" if s.get("name") == s.get("kind") else (s.get("name") or ""), "duration": num(s.get("duration_ms"), "ms"),
              "details": _span_details(s)} for s in item["spans"]]
    scores = [{"metric": m, "value": num(v["value"]), "reason": v["reason"]} for m, v in sorted(item["scores"].items())]
    return {
        "r": {"id": row.id, "app": row.app_name, "version": row.app_version, "time": when(row.received_at),
              "latency": num(row.duration_ms, "ms"), "behaviour": behaviour_text(item["behaviour"], t),
              "state": t(f"state_{item['state']}") if f"state_{item['state']}" in TEXT else item["state"],
              "error": item["error"], "question": row.question or ""},
        "answer": answer_segments(row.answer or "", claims), "claims": claim_rows, "chunks": chunks,
        "guards": guards, "spans": spans, "scores": scores,
        "feedback": [{"rating": f.get("rating") or 0, "comment": f.get("comment"), "time": when(f.get("created_at"))}
                     for f in item["feedback"]],
    }


def _span_details(s: dict[str, Any]) -> str:
    parts = []
    for key in ("query", "rewritten", "model", "ttft_ms", "tokens", "filters", "error"):
        if s.get(key) not in (None, {}, []):
            parts.append(f"{key}: {_plain(s[key])}")
    if s.get("kind") == "retrieval":
        parts.append(f"chunks: {len(s.get('chunks') or [])}")
    return short("; ".join(parts), 400)


def run_rows(result: Any, t: Words) -> list[dict[str, Any]]:
    """The rows of a two-run comparison (``ragauge compare``'s numbers)."""
    verdicts = {"better": "v_better", "worse": "v_worse", "no detectable difference": "v_same",
                "too few pairs": "v_few"}
    out = []
    for m in result.metrics:
        ci = f"[{m.ci.low:+.3f}, {m.ci.high:+.3f}]" if m.ci is not None else "—"
        out.append({"label": t.metric(m.metric), "a": num(m.base_value), "b": num(m.new_value),
                    "diff": "—" if m.difference is None else f"{m.difference:+.3f}", "ci": ci,
                    "p": "—" if m.p_adjusted is None else f"{m.p_adjusted:.3g}",
                    "verdict": t(verdicts[m.verdict]) if m.verdict in verdicts else m.verdict,
                    "verdict_class": m.verdict if m.verdict in ("better", "worse") else "", "n": m.n})
    return out
