"""The LLM judge on a sampled share of traces, within a budget, stored beside the offline scores.

Storage: a suffix on the metric name, ``faithfulness:llm`` beside ``faithfulness`` (the offline judge), in
the same ``scores`` table; the ``judge`` column holds the judge's spec with credentials redacted. So the
offline rows, the alerts and every query that asks for ``faithfulness`` are unchanged, no migration was
needed, and ``/api/traces``, ``/api/summary`` and the request page list both values where present.

Sampling is by trace id (the first 8 hex digits of its SHA-256 below ``share * 2**32``): the same trace is
always in or out of the sample, whichever scorer takes it and however often it is re-scored.

Budget: the judge's :class:`ragauge.judges.llm.budget.Budget` (calls, tokens, USD), which books every paid
call before it starts and never starts one that could pass a limit (see that module). Once it refuses, the
sampled traces that follow are stored unscored with the reason (``LLM budget spent: ...``), never sent.
The budget is per collector process: a restart starts a new one.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any, Sequence

log = logging.getLogger("ragauge.serve")

SUFFIX = ":llm"


def llm_metric(name: str) -> str:
    """``faithfulness`` -> ``faithfulness:llm`` (the stored name of the LLM judge's value)."""
    return name + SUFFIX


def base_metric(name: str) -> tuple[str, bool]:
    """``faithfulness:llm`` -> ``("faithfulness", True)``; a plain name -> ``(name, False)``."""
    return (name[: -len(SUFFIX)], True) if name.endswith(SUFFIX) else (name, False)


def in_sample(trace_id: str, share: float) -> bool:
    """Whether ``trace_id`` is in a ``share`` (0..1) sample; the same answer every time.

    >>> in_sample("t1", 1.0), in_sample("t1", 0.0)
    (True, False)
    """
    if share >= 1.0:
        return True
    digest = int(hashlib.sha256(trace_id.encode("utf-8")).hexdigest()[:8], 16)
    return digest < share * 2 ** 32


class LLMSampler:
    """Scores the sampled records of a batch with ``judge`` on the judge ``metrics`` of the collector."""

    def __init__(self, judge: Any, *, name: str, share: float, metrics: Sequence[str]) -> None:
        from ..metrics.registry import parse_metric

        self.judge = judge
        self.name = name
        self.share = share
        self.metrics = [m for m in metrics if parse_metric(m).judge]
        self.spent: str | None = None  #: why the budget refused, once it did

    def sampled(self, records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        return [r for r in records if in_sample(str(r["id"]), self.share)]

    def rows(self, records: Sequence[dict[str, Any]], now: float) -> list[dict[str, Any]]:
        """Score rows (``metric:llm``) for the sampled ``records``: values, or unscored with the reason."""
        from ..errors import BudgetExceededError
        from .scoring import _jsonable

        chosen = self.sampled(records)
        if not self.metrics:
            return []
        out: list[dict[str, Any]] = []
        for rec in chosen:  # one trace at a time: a budget stop costs only the trace it stops in
            if self.spent is not None:
                out += self._unscored([rec], self.spent, now)
                continue
            from ..engine.evaluate import evaluate

            try:
                results = evaluate([rec], metrics=self.metrics, judge=self.judge, profile=None)
            except BudgetExceededError as exc:
                self.spent = f"LLM budget spent: {exc}"[:2000]
                log.warning("ragauge serve: %s; the sampled traces that follow are not sent to the LLM judge",
                            self.spent)
                out += self._unscored([rec], self.spent, now)
            except Exception as exc:  # noqa: BLE001 - the offline scores stand; say why these are missing
                reason = f"LLM judge failed: {type(exc).__name__}: {exc}"[:2000]
                log.warning("ragauge serve: trace %s: %s", rec["id"], reason)
                out += self._unscored([rec], reason, now)
            else:
                for metric, col in results.columns.items():
                    value = col.values[0]
                    out.append({"trace_id": rec["id"], "metric": llm_metric(metric),
                                "value": None if value is None else float(value), "reason": col.reasons[0],
                                "artifacts": _jsonable(col.artifacts[0]) or None, "judge": self.name,
                                "scored_at": now})
        return out

    def _unscored(self, chosen: Sequence[dict[str, Any]], reason: str, now: float) -> list[dict[str, Any]]:
        return [{"trace_id": r["id"], "metric": llm_metric(m), "value": None, "reason": reason, "artifacts": None,
                 "judge": self.name, "scored_at": now} for r in chosen for m in self.metrics]

    def usage(self) -> dict[str, Any]:
        """What the judge spent so far (calls, tokens, cost) and the share; for ``/api/status``."""
        spend = getattr(getattr(self.judge, "budget", None), "spend", None)
        return {"judge": self.name, "share": self.share, "metrics": [llm_metric(m) for m in self.metrics],
                "spent": spend.to_dict() if spend is not None else None, "budget_stopped": self.spent}
