"""``evaluate(..., engine="ray")``: the same evaluation with the per-sample scoring on Ray (``ragauge.scale``).

The driver plans blocks without loading a file input; the actors score each block with the local engine's
own code, so every value equals a local run's. Summaries, CIs, gates and slices are then computed here once,
from the same columns. With a file input the driver keeps only ids and tags per sample (memory stays flat as
the input grows): results.json then carries each sample's id, tags, scores and artifacts, and its texts stay
in the input file. With ``shards`` the per-sample rows live in the shards only and the driver keeps ~12
bytes a sample a metric (``scale.shards_run``). Default metrics (no ``metrics`` given) are chosen from the
first 1,000 records, and so is the report's language (without ``lang``) when the texts stay in the input.

What the local engine reads off its samples and its judge, the workers send with each block and
:class:`_RunNotes` adds up: the golden-set review counts (``Results.golden_review``) and, for an LLM judge,
its usage (``Results.usage``: the local judge's ``usage_report()`` shape -- total, by_metric, shared,
by_prompt -- with the run-wide limiter's report under ``limiter``) and its asks: a judge that was asked
and gave no usable reply at all raises its :class:`~ragauge.errors.JudgeError` (exit 3) with the finished
results attached, as locally.
"""

from __future__ import annotations

import os
from typing import Any, Callable

from ..data.schema import Sample
from .config import EvalConfig
from .results import Results

PROBE = 1000
_COUNTS = ("calls", "cached", "prompt_tokens", "completion_tokens", "tokens", "cached_tokens")


def _add_counter(a: dict[str, Any] | None, b: dict[str, Any]) -> dict[str, Any]:
    if a is None:
        return dict(b)
    out = dict(a)
    for k in _COUNTS:
        if k in b:
            out[k] = out.get(k, 0) + b[k]
    if "cost_usd" in b or "cost_usd" in a:
        x, y = a.get("cost_usd"), b.get("cost_usd")
        out["cost_usd"] = None if x is None or y is None else round(x + y, 6)
    return out


def merge_usage(a: dict[str, Any] | None, b: dict[str, Any]) -> dict[str, Any]:
    """Two ``usage_report()`` dicts of one judge (two blocks' calls) as one: every counter of ``total``,
    ``by_metric``, ``shared`` and ``by_prompt`` added; the rest (judge, model, endpoint, ...) from ``a``.

    >>> c = {"calls": 1, "cached": 0, "prompt_tokens": 9, "completion_tokens": 1, "tokens": 10,
    ...      "cached_tokens": 0, "cost_usd": None}
    >>> m = merge_usage({"model": "m", "total": c, "by_metric": {"f": c}}, {"model": "m", "total": c, "by_metric": {}})
    >>> m["total"]["calls"], m["total"]["tokens"], m["by_metric"]["f"]["calls"]
    (2, 20, 1)
    """
    if a is None:
        return {k: (dict(v) if isinstance(v, dict) else v) for k, v in b.items()}
    out = dict(a)
    out["total"] = _add_counter(a.get("total"), b.get("total") or {})
    for part in ("by_metric", "shared", "by_prompt"):
        mine = dict(a.get(part) or {})
        for name, c in (b.get(part) or {}).items():
            mine[name] = _add_counter(mine.get(name), c)
        out[part] = mine
    return out


class _RunNotes:
    """A sink of the run: what the blocks bring back beside their columns, added up in input order
    (``scale.worker.ScoredBlock``: ``golden``, ``usage``, ``asks``, ``no_verdict``)."""

    def __init__(self) -> None:
        self.generated = 0
        self.unreviewed = 0
        self.ids: list[str] = []
        self.usage: dict[str, Any] | None = None
        self.asks = 0
        self.answered = 0
        self.no_verdict: str | None = None

    def __call__(self, block: Any) -> None:
        from .golden_review import MAX_IDS

        golden = getattr(block, "golden", None)
        if golden:
            self.generated += golden["generated"]
            self.unreviewed += golden["unreviewed"]
            self.ids += golden["ids"][:max(0, MAX_IDS - len(self.ids))]
        usage = getattr(block, "usage", None)
        if usage is not None:
            self.usage = merge_usage(self.usage, usage)
        asks, answered = getattr(block, "asks", (0, 0))
        self.asks += asks
        self.answered += answered
        if getattr(block, "no_verdict", None):
            self.no_verdict = block.no_verdict

    def golden_review(self) -> dict[str, Any] | None:
        """As :func:`engine.golden_review.golden_review` over the whole input."""
        if not self.generated:
            return None
        return {"generated": self.generated, "unreviewed": self.unreviewed,
                "share": round(self.unreviewed / self.generated, 4), "ids": list(self.ids)}

    def usage_report(self, limiter: dict[str, Any] | None) -> dict[str, Any] | None:
        """results.json ``usage`` (``None`` without an LLM judge): the judge's report over every block, the
        limiter's own report (spend, requests, most in flight) under ``limiter``."""
        if limiter is None and self.usage is None:
            return None
        if self.usage is None:  # the judge was built but made no call in a worker: the limiter's spend only
            spend = dict((limiter or {}).get("spend") or {})
            spend.pop("by_prompt", None)
            spend.setdefault("tokens", spend.get("prompt_tokens", 0) + spend.get("completion_tokens", 0))
            return {"judge": "llm", "total": spend, "by_metric": {}, "shared": {}, "limiter": limiter}
        return {**self.usage, "limiter": limiter} if limiter is not None else dict(self.usage)

    def raise_if_no_verdict(self, results: Results) -> None:
        """The local engine's ``_raise_if_no_verdict``, over the blocks: asked, and no usable reply at all."""
        if self.asks == 0 or self.answered > 0 or self.no_verdict is None:
            return
        from ..errors import JudgeError

        error = JudgeError(f"{self.no_verdict} (Ray: {self.asks} asks over all workers, none answered usably)")
        error.results = results  # type: ignore[attr-defined]
        raise error


def _probe(data: Any, cfg: EvalConfig) -> list[Sample]:
    """The first block of a file, read and validated exactly as a worker reads it (errors name the file and the
    line): enough to choose default metrics by the fields present. Planning the blocks also refuses what Ray
    cannot cut (gzip, unknown formats) with the fix."""
    from ..scale.io import plan_blocks, read_block

    first = next(iter(plan_blocks(data, block_size=PROBE)), None)
    return [] if first is None else read_block(first, field_map=dict(cfg.field_map) if cfg.field_map else None)


def _probe_language(probe: list[Sample]) -> str:
    """The majority language of the first records (a shards run keeps no texts to ask later)."""
    from ..diagnosis._read import language

    return language({"samples": [{"language": s.language, "question": s.question} for s in probe]})


def evaluate_on_ray(data: Any, cfg: EvalConfig, progress: Callable[[str, int, int], None] | None, *,
                    shards: str | os.PathLike[str] | None = None, to_store: bool = False) -> Results:
    """``shards``: a new or empty folder; every block's per-sample values, reasons and artifacts are written
    there as Parquet as it arrives, and the driver keeps compact arrays only (``scale.shards_run``): the
    ``Results`` has no samples and names the shards (results.json ``samples_in: "shards"``).
    ``to_store``: with a :class:`~ragauge.scale.store.StoreSource`, each block's scores are written back to
    that database as they arrive, the way the collector's background scorer writes its own."""
    from ..scale.judge_spec import JudgeSpec
    from ..scale.ray_engine import score_run
    from ..scale.store import StoreSource
    from .evaluate import _decide, _profile, _specs, judge_metrics_left_out

    in_memory = not isinstance(data, (str, os.PathLike, StoreSource))
    source = None if in_memory else data.label if isinstance(data, StoreSource) else os.fspath(data)
    if to_store and not isinstance(data, StoreSource):
        from ..errors import ConfigError

        raise ConfigError("writing scores to the store needs the store as the input (its trace ids): "
                          "ragauge eval sqlite:///ragauge.db --since ... --to-store")
    if in_memory and not (isinstance(data, (list, tuple)) and all(isinstance(s, Sample) for s in data)):
        from ..data import load  # dicts, a DataFrame, a dataset: in memory already, validated here as locally

        data = load(data, field_map=dict(cfg.field_map) if cfg.field_map else None)
    probe = list(data[:PROBE]) if in_memory else _probe(data, cfg)
    prof = _profile(cfg)
    specs = _specs(cfg, prof, probe)
    judge_spec: Any = cfg.judge
    if judge_spec in (None, "auto", "none"):
        judge_spec = "offline" if any(s.judge for s in specs) and judge_spec != "none" else None
    # refused here, before any work (a cascade, a judge wrapping an LLM judge, one that does not pickle)
    judge_spec = JudgeSpec.of(judge_spec) if any(s.judge for s in specs) else None
    notes = _RunNotes()
    sinks: list[Callable[[Any], Any]] = []
    if to_store:  # an LLM judge is refused here (judge_label), so no write waits on a judge's first answer
        from ..scale.store import judge_label, write_scores

        label, url = judge_label(cfg.judge), data.url  # from the setting, as the local engine labels it
        sinks.append(lambda block: write_scores(url, block.ids, block.columns, judge=label))
    sinks.append(notes)
    no_judge = judge_metrics_left_out(cfg, prof, probe, specs)
    lang = cfg.lang or (None if in_memory else _probe_language(probe))  # in memory: the samples have their texts
    if shards is not None:  # the per-sample rows go to the shards only; the driver keeps compact arrays
        from ..scale.shards_run import evaluate_into_shards

        results = evaluate_into_shards(data, cfg, specs, judge_spec, shards=shards, prof=prof, source=source,
                                       no_judge=no_judge, lang=cfg.lang or _probe_language(probe),
                                       extra_sinks=sinks, progress=progress)
        limiter = results.usage
    else:
        run = score_run(specs, data, judge_spec, address=cfg.ray_address, workers=cfg.workers, batch_size=cfg.batch_size,
                        field_map=dict(cfg.field_map) if cfg.field_map else None, progress=progress, sinks=sinks)
        if in_memory and all(isinstance(s, Sample) for s in data):
            samples: list[Sample] = list(data)
        else:  # the texts stay in the input: ids and tags are what summaries, slices and pairing need
            samples = [Sample(id=i, tags=t) for i, t in zip(run.ids, run.tags)]
        results = _decide(samples, specs, run.columns, prof, cfg, None, source, no_judge=no_judge)
        results.lang = lang
        limiter = run.llm or None
    if not in_memory or results.golden_review is None:
        results.golden_review = notes.golden_review()
    results.usage = notes.usage_report(limiter)
    notes.raise_if_no_verdict(results)
    return results
