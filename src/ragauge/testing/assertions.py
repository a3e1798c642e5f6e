"""``assert_quality`` and ``assert_sample``: test assertions over the one gate checker.

Both decide through :mod:`ragauge.gates.check` (``check_gates`` / ``check_threshold``), the code behind
``ragauge eval``'s exit code; this module only chooses which thresholds to check and writes the message.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from ..errors import GateFailedError, InputError

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.results import Results
    from ..gates.check import GateResult
    from ..gates.profiles import Profile, Threshold
    from .golden_set import SampleResult

#: How many of the worst samples a failing gate lists.
WORST_N = 3
#: Attribute under which the pytest plugin leaves how a run was evaluated (baseline, margin, profiles).
CONTEXT_ATTR = "_ragauge_testing"


class QualityGateError(GateFailedError, AssertionError):
    """A quality gate failed in a test: an ``AssertionError`` for pytest, a ``GateFailedError`` for ragauge."""

    def __init__(self, message: str, gates: Sequence["GateResult"] = ()) -> None:
        from ..report.escape import terminal_text

        # pytest prints the message to a terminal: no ESC sequence from a question, id or claim reaches it
        super().__init__(terminal_text(message, newlines=True))
        self.gates = list(gates)


def _modes(mode: str | Iterable[str] | None) -> list[str] | None:
    from ..gates.profiles import MODES

    if mode is None:
        return None
    modes = [mode] if isinstance(mode, str) else list(mode)
    for m in modes:
        if m not in MODES:
            raise InputError(f"unknown gate mode {m!r}", field="mode", hint=f"use one of {', '.join(MODES)}")
    return modes


def _profile(results: "Results", profile: "str | Profile | None", user_profiles: Mapping | None) -> "Profile":
    from ..gates.profiles import Profile, resolve_profile

    if isinstance(profile, Profile):
        return profile
    if isinstance(profile, str):
        return resolve_profile(profile, user_profiles=user_profiles)
    if results.profile is None:
        raise InputError("these results were evaluated without a profile, so there is nothing to check",
                         field="profile", hint="pass assert_quality(results, profile='dashboard') or evaluate with one")
    return results.profile


def _select(prof: "Profile", metrics: Iterable[str] | str | None) -> tuple["Threshold", ...]:
    if metrics is None:
        return prof.thresholds
    wanted = [metrics] if isinstance(metrics, str) else list(metrics)
    kept = tuple(th for th in prof.thresholds if any(m in th.metrics for m in wanted))
    missing = [m for m in wanted if not any(m in th.metrics for th in prof.thresholds)]
    if missing:
        have = ", ".join(th.label for th in prof.thresholds)
        raise InputError(f"profile {prof.name!r} has no threshold for {', '.join(missing)}", field="metrics",
                         hint=f"its thresholds: {have}; or pass a profile that gates them")
    return kept


def check_quality(
    results: "Results",
    *,
    profile: "str | Profile | None" = None,
    metrics: Iterable[str] | str | None = None,
    mode: str | Iterable[str] | None = None,
    baseline: Any = None,
    margin: float | None = None,
    allow_intersection: bool | None = None,
    user_profiles: Mapping | None = None,
) -> list["GateResult"]:
    """The gates ``assert_quality`` decides on, checked by :func:`ragauge.gates.check.check_gates`.

    - Nothing overridden: the run's own ``results.gates`` (exactly what ``ragauge eval`` decided).
    - ``profile``/``metrics``/``mode`` given: the thresholds are re-checked on ``results.summary``
      (``mode`` replaces every threshold's mode; a list checks each mode in turn).
    - A baseline (``baseline=``, or ``--ragauge-baseline`` / the marker's ``baseline`` in pytest) with no
      ``mode``: the thresholds in their own modes **plus** a ``non_inferior`` gate for every threshold that
      is not one already, so a regression fails even when the absolute bar still passes.
    """
    from ..gates.check import NO_JUDGE, check_gates

    ctx = getattr(results, CONTEXT_ATTR, None) or {}
    user_profiles = user_profiles if user_profiles is not None else ctx.get("user_profiles")
    margin = margin if margin is not None else ctx.get("margin")
    if allow_intersection is None:
        allow_intersection = bool(ctx.get("allow_intersection", False))
    base_src = baseline if baseline is not None else ctx.get("baseline")
    modes = _modes(mode)
    prof = _profile(results, profile, user_profiles)
    thresholds = _select(prof, metrics)
    if base_src is None and modes is not None and any(m.startswith("non_inferior") for m in modes):
        raise InputError(f"mode {next(m for m in modes if m.startswith('non_inferior'))!r} needs a baseline", field="baseline",
                         hint="pass baseline='ragauge-baseline.json' (or --ragauge-baseline FILE under pytest)")
    untouched = profile is None and metrics is None and modes is None and baseline is None
    if untouched and base_src is None:
        return list(results.gates)
    base_run = None
    if base_src is not None:
        from ..engine.baseline import current_scores, load_baseline

        base_run = load_baseline(base_src, current_scores(results.samples, results.specs, results.columns),
                                 allow_intersection=allow_intersection, seed=results.ci.seed,
                                 n_resamples=results.ci.n_resamples)
    if modes is None:
        sets = [thresholds]
        if base_run is not None:  # the regression guard
            sets.append(tuple(replace(th, mode="non_inferior") for th in thresholds
                              if not th.mode.startswith("non_inferior")))
    else:
        sets = [tuple(replace(th, mode=m) for th in thresholds) for m in modes]
    # judge metrics the run had to leave out (no judge installed) stay failures when re-checked
    left_out = {g.metric for g in results.gates if g.status == "fail" and NO_JUDGE in (g.reason or "")}
    gates: list[GateResult] = []
    for i, ths in enumerate(sets):
        checked = replace(prof, thresholds=ths)  # keeps min_samples / small_sample and the rest
        # "nothing was checked" is decided once, on the first set (the regression set repeats its metrics)
        gates += check_gates(checked, results.summary, baseline=base_run, margin=margin, require_checked=(i == 0),
                             no_judge=left_out)
    return gates


def assert_quality(
    results: "Results",
    *,
    profile: "str | Profile | None" = None,
    metrics: Iterable[str] | str | None = None,
    mode: str | Iterable[str] | None = None,
    baseline: Any = None,
    margin: float | None = None,
) -> list["GateResult"]:
    """Fail (:class:`QualityGateError`, an ``AssertionError``) when a gate of :func:`check_quality` fails.

    The message gives, per failing gate: the metric, its value and 95% CI, the threshold and mode, the
    checker's reason sentence, and the worst samples for that metric with their claim-level reasons.
    Returns the gates when all pass.
    """
    __tracebackhide__ = True
    gates = check_quality(results, profile=profile, metrics=metrics, mode=mode, baseline=baseline, margin=margin)
    failed = [g for g in gates if g.status in ("fail", "unscored")]
    if failed:
        user_profiles = (getattr(results, CONTEXT_ATTR, None) or {}).get("user_profiles")
        checked = _profile(results, profile, user_profiles)  # resolved as check_quality did
        raise QualityGateError(quality_message(results, gates, failed, profile=checked), failed)
    return gates


# --- per sample ------------------------------------------------------------------------------------


def _sample_thresholds(row: "SampleResult", metrics, thresholds, profile) -> tuple[str, list["Threshold"]]:
    from ..gates.profiles import parse_threshold
    from ..metrics.registry import parse_metric

    if thresholds is None:
        prof = _profile(row.results, profile, (getattr(row.results, CONTEXT_ATTR, None) or {}).get("user_profiles"))
        return prof.name, [replace(th, mode="point") for th in _select(prof, metrics)]
    wanted = None if metrics is None else ([metrics] if isinstance(metrics, str) else list(metrics))
    out = []
    for key, raw in thresholds.items():
        if wanted is not None and key not in wanted:
            continue
        if isinstance(raw, (int, float)) and not isinstance(raw, bool):
            raw = f"{'>=' if parse_metric(key).higher_is_better else '<='} {raw}"
        out.append(parse_threshold(key, raw, where="assert_sample(thresholds=...)"))
    if not out:
        raise InputError("no threshold to check", field="thresholds", hint="give thresholds={'metric': '>= 0.8'}")
    return "assert_sample", out


def assert_sample(
    row: "SampleResult",
    *,
    metrics: Iterable[str] | str | None = None,
    thresholds: Mapping[str, Any] | None = None,
    profile: "str | Profile | None" = None,
) -> list["GateResult"]:
    """Fail when one sample's score misses a threshold (``{"faithfulness": ">= 0.8", "hit_rate@5": 1}``; a
    bare number means ``>=``, or ``<=`` for lower-is-better metrics). Without ``thresholds``: the profile's
    thresholds (``metrics`` selects some) in ``point`` mode. Each is decided by
    :func:`ragauge.gates.check.check_threshold` on a one-sample summary.

    A case that declares ``metadata.expected_behaviour`` (as ``ragauge generate`` writes it) is first checked
    for that behaviour (:func:`behaviour_gate`): ``not_found`` passes when the answer declines or asks to
    clarify, ``clarify`` when it asks to clarify, ``refuse_or_caution`` when it declines (or else answers
    within the thresholds), ``answer`` when it answers. A correct refusal has no faithfulness: thresholds whose
    metric has no value for such a sample are not applicable and are left out; the others still decide."""
    __tracebackhide__ = True
    from ..engine.summary import MetricSummary
    from ..gates.check import check_threshold

    name, ths = _sample_thresholds(row, metrics, thresholds, profile)
    summaries: dict[str, MetricSummary] = {}
    res = row.results
    for m, col in res.columns.items():
        value, reason = col.values[row.index], col.reasons[row.index]
        summaries[m] = MetricSummary(res.summary[m].spec, value, None, int(value is not None),
                                     int(value is None), {reason: 1} if reason else {})
    behaviour = behaviour_gate(row.sample)
    declined = behaviour is not None and behaviour.passed and behaviour.value == 0.0
    gates = [check_threshold(th, summaries, profile=f"{name}, sample {row.id}") for th in ths]
    for th, g in zip(ths, gates):
        if g.status == "skipped":
            raise InputError(f"{th.label} was not evaluated in this run, so sample {row.id!r} cannot be checked on it",
                             field="metrics", hint=f"evaluated: {', '.join(res.columns)}")
    if declined:  # the expected refusal: metrics it leaves without a value, or scores 0 by design, do not apply
        gates = [g for g in gates if g.status != "unscored" and g.metric not in _NOT_FOR_A_DECLINE]
    if behaviour is not None:
        gates.insert(0, behaviour)
    failed = [g for g in gates if g.status in ("fail", "unscored")]
    if failed:
        doc = _reason_doc(res, {m: x.to_dict() for m, x in summaries.items()}, {"name": f"{name}, sample {row.id}"})
        lines = [f"ragauge: sample {row.id!r} failed {len(failed)} of {len(gates)} checks",
                 f"  question: {_short(row.sample.question, 160)}"]
        for g in failed:
            lines.append(f"  {_reason(g, doc)}")
            lines += _sample_detail(res, g.metric, row.index, indent="    ")
        raise QualityGateError("\n".join(lines), failed)
    return gates


#: Metrics that score any refusal 0 by design (relevancy: a refusal does not give what was asked): not applicable
#: to a case whose expected behaviour is to decline.
_NOT_FOR_A_DECLINE = frozenset({"answer_relevancy"})
def behaviour_gate(sample: Any) -> "GateResult | None":
    """The check of ``metadata.expected_behaviour`` against what the answer did, or ``None`` when the case
    declares none or has no answer. ``value`` is 1.0 when the system answered, 0.0 when it declined or asked
    to clarify."""
    from ..gates.check import GateResult

    meta = sample.metadata or {}
    expected = meta.get("expected_behaviour")
    if expected is None or sample.answer is None:
        return None
    from ..metrics.behaviour import ACCEPTED, ALIASES

    if isinstance(expected, str):
        expected = ALIASES.get(expected, expected)
    if not isinstance(expected, str) or expected not in ACCEPTED:
        raise InputError(f"sample {sample.id!r}: unknown expected_behaviour {expected!r}",
                         field="metadata.expected_behaviour",
                         hint=f"use one of {', '.join([*ACCEPTED, *ALIASES])}")
    from ..judges.offline.behaviour import answer_behaviour

    did = answer_behaviour(sample.answer)
    ok = did in ACCEPTED[expected]
    words = {"answer": "answered", "not_found": "said it found nothing", "clarify": "asked to clarify"}
    reason = (f"expected behaviour {expected!r}: the system {words[did]}"
              + ("" if ok else f", which is not {' or '.join(repr(a) for a in ACCEPTED[expected])}"))
    return GateResult(metric="expected_behaviour", op="==", threshold=1.0, mode="point",
                      status="pass" if ok else "fail", reason=reason, value=1.0 if did == "answer" else 0.0)


# --- messages --------------------------------------------------------------------------------------


def _short(text: Any, limit: int = 120) -> str:
    s = " ".join(str(text).split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _fmt(results: "Results", metric: str, value: float | None) -> str:
    from ..report.common import fmt_value

    s = results.summary.get(metric)
    return fmt_value(value, s.spec.unit if s else None)


def _reason_doc(results: "Results", summary: Mapping[str, Any], profile: Mapping[str, Any]) -> dict[str, Any]:
    """The parts of a results document a gate's reason is rebuilt from (no samples' scores, no diagnosis),
    in the data's language: the run's ``lang``, else the samples' majority language, as the reports."""
    from ..diagnosis._read import language

    lang = results.lang or language({"samples": [{"language": s.language, "question": s.question}
                                                 for s in results.samples]})
    return {"lang": lang, "profile": dict(profile), "metrics": [s.to_dict() for s in results.specs],
            "summary": dict(summary), "ci": {"level": results.ci.level}}


def _reason(g: "GateResult", doc: Mapping[str, Any]) -> str:
    """A gate's reason in the data's language (the checker stores the English sentence); the expected-behaviour
    check has its own sentence, kept as written."""
    if g.metric == "expected_behaviour":
        return g.reason
    from ..report.gate_text import gate_reason

    return gate_reason(g.to_dict(), doc, str(doc["lang"]))


def quality_message(results: "Results", gates: Sequence["GateResult"], failed: Sequence["GateResult"], *,
                    profile: "Profile | None" = None) -> str:
    """The assertion's message; ``profile``: the one the gates were checked on (default: the run's)."""
    counted = [g for g in gates if g.status != "skipped"]
    checked = profile or results.profile
    prof = checked.name if checked else "none"
    doc = _reason_doc(results, {m: x.to_dict() for m, x in results.summary.items()},
                      checked.to_dict() if checked else {"name": prof})
    src = f" from {results.source}" if results.source else ""
    lines = [f"ragauge: {len(failed)} of {len(counted)} gates failed (profile {prof}; "
             f"{len(results.samples)} samples{src})"]
    for g in failed:
        ci = "n too small for a CI"
        if g.ci_low is not None and g.ci_high is not None:
            ci = f"95% CI [{_fmt(results, g.metric, g.ci_low)}, {_fmt(results, g.metric, g.ci_high)}]"
        mode = g.mode.replace("_", "-")
        extra = f", margin {g.margin:g}" if g.margin is not None else ""
        lines += ["", f"FAIL {g.metric} = {_fmt(results, g.metric, g.value)}, {ci}; threshold {g.op} {g.threshold:g} "
                      f"({mode}{extra})", f"  {_reason(g, doc)}"]
        lines += _worst(results, g.metric)
    return "\n".join(lines)


def _worst(results: "Results", metric: str) -> list[str]:
    col = results.columns.get(metric)
    if col is None:
        return []
    spec = results.summary[metric].spec
    scored = [i for i, v in enumerate(col.values) if v is not None]
    scored.sort(key=lambda i: col.values[i], reverse=not spec.higher_is_better)  # type: ignore[arg-type,return-value]
    pick = scored[:WORST_N] or [i for i, r in enumerate(col.reasons) if r][:WORST_N]
    if not pick:
        return []
    out = [f"  worst samples for {metric}:"]
    for i in pick:
        s = results.samples[i]
        v = col.values[i]
        shown = _fmt(results, metric, v) if v is not None else f"unscored ({col.reasons[i]})"
        out.append(f"    - {s.id}: {metric} = {shown}; question: {_short(s.question, 100)}")
        out += _sample_detail(results, metric, i, indent="        ")
    return out


def _sample_detail(results: "Results", metric: str, i: int, *, indent: str) -> list[str]:
    """Claim-level reasons (judge metrics) or the ranking (id-based metrics) behind one sample's score."""
    col = results.columns.get(metric)
    s = results.samples[i]
    art = col.artifacts[i] if col is not None and col.artifacts else None
    claims = art.get("claims") if isinstance(art, Mapping) else None
    out: list[str] = []
    if isinstance(claims, list):
        for c in claims:
            if isinstance(c, Mapping) and str(c.get("verdict", "")).lower() != "supported":
                why = f" — {c['reason']}" if c.get("reason") else ""
                out.append(f"{indent}{c.get('verdict')}: \"{_short(c.get('text', ''), 140)}\"{why}")
        return out
    spec = results.summary[metric].spec if metric in results.summary else None
    if spec is not None and "retrieved_ids" in spec.requires and s.ranking is not None:
        relevant = [d for d, g in (s.relevant_ids or {}).items() if g >= 1]
        shown = ", ".join(s.ranking[:10]) or "(none)"
        out.append(f"{indent}retrieved: {shown}; relevant: {', '.join(relevant) or '(none)'}")
    return out
