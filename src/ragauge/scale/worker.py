"""The Ray actor that scores blocks: builds its judge once, then reads and scores one block per call.

Scoring a block is exactly the local engine's step (``engine.scoring.score_columns``: the formulas, then
every judge metric's requests answered round by round) over the block's samples, so a sample's values,
reasons and artifacts do not depend on which engine or worker scored it (every family the workers get
scores a sample from that sample alone; ``noise_robustness``, which joins a variant to its clean sample, is
scored on blocks of whole variant groups that the run adds after the input's blocks: :mod:`.cross`;
``tests/scale/test_equality.py`` holds it to that).

An error ragauge raises on purpose (bad input, budget exceeded, judge unreachable) comes back to the
driver as the block's result and is raised there as it is; it is not retried (the same block would fail
again). A worker process that dies is restarted by Ray and its block is run again (Ray Data's actor pool
retries tasks of a dead actor); the driver keeps one result per block.

Beside the columns, a block brings back what the driver needs to say about the run as the local engine
does: the golden-set review counts of its samples (``golden``), and for an LLM judge the block's usage
(``usage``: the judge's ``usage_report()`` over this block's calls only), its asks and usable replies
(``asks``) and, while this worker's judge has produced no verdict at all, the judge's no-verdict message
(``no_verdict``). ``engine.on_ray`` adds them up (a run with asks and no usable reply exits 3 there).
"""

from __future__ import annotations

import os
import pickle
import socket
import time
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..errors import RagaugeError
from ..metrics.column import ScoreColumn
from ..metrics.spec import MetricSpec
from .io import Block, read_block
from .judge_spec import JudgeSpec

__all__ = ["BlockScorer", "ScoredBlock", "score_block"]


@dataclass
class ScoredBlock:
    """One block's result: its samples' ids and tags, one column per metric, and who scored it."""

    index: int
    ids: list[str]
    tags: list[tuple[str, ...]]
    columns: dict[str, ScoreColumn]
    worker: str = ""  #: host:pid
    seconds: float = 0.0  #: read + score time in the worker
    cpu_seconds: float = 0.0  #: the worker process's CPU time for it (load on the machine does not inflate it)
    error: BaseException | None = field(default=None, repr=False)
    golden: dict[str, Any] | None = None  #: ``engine.golden_review`` of the block's samples
    usage: dict[str, Any] | None = None  #: an LLM judge's usage report for this block's calls
    asks: tuple[int, int] = (0, 0)  #: an LLM judge's (asks sent, asks answered usably) for this block
    no_verdict: str | None = None  #: the worker judge's no-verdict message (no usable reply yet), else None


def score_block(block: Block, specs: Sequence[MetricSpec], judge: Any, *,
                field_map: Mapping[str, str] | None = None) -> ScoredBlock:
    """Read and score one block in this process (what a worker does; also the unit tests' door)."""
    from ..engine.golden_review import golden_review
    from ..engine.scoring import score_columns  # the local engine's own step: one home for scoring

    t0, c0 = time.perf_counter(), time.process_time()
    samples = read_block(block, field_map=field_map)
    llm = _llm_judge(judge)
    if llm is not None:  # this block's calls on a ledger of their own (the judge lives across blocks)
        from ..judges.llm.usage import UsageLedger

        llm.ledger = UsageLedger(llm.budget.prices)
        if getattr(llm, "_embedder", None) is not None:  # made once with the first block's ledger: re-point it
            llm._embedder.ledger = llm.ledger
        asks0, answered0 = llm.asks, llm.answered
    columns = score_columns(specs, samples, judge)
    out = ScoredBlock(block.index, [s.id for s in samples], [tuple(s.tags) for s in samples], columns,
                      f"{socket.gethostname()}:{os.getpid()}", time.perf_counter() - t0, time.process_time() - c0,
                      golden=golden_review(samples))
    if llm is not None:
        out.usage = llm.usage_report()
        out.asks = (llm.asks - asks0, llm.answered - answered0)
        err = llm.no_verdict_error()
        out.no_verdict = None if err is None else str(err)
    return out


def _llm_judge(judge: Any) -> Any:
    """The worker's LLM judge (``JudgeSpec.build`` makes one for ``kind="llm"``), else ``None``."""
    if judge is None:
        return None
    from ..judges.llm.judge import LLMJudge

    return judge if isinstance(judge, LLMJudge) else None


class BlockScorer:
    """``map_batches`` callable class: one instance per actor, the judge built in ``__init__``. A block whose
    index is ``cross_from`` or more is a block of variant groups (:mod:`.cross`): scored with ``cross_specs``."""

    def __init__(self, specs: list[MetricSpec], judge_spec: JudgeSpec, limiter: Any = None,
                 field_map: Mapping[str, str] | None = None, cross_specs: Sequence[MetricSpec] = (),
                 cross_from: int | None = None) -> None:
        self.specs = specs
        self.cross_specs = list(cross_specs)
        self.cross_from = cross_from
        self.field_map = dict(field_map) if field_map else None
        self.judge = judge_spec.build(limiter) if any(s.judge for s in [*specs, *self.cross_specs]) else None

    def __call__(self, batch: Mapping[str, Any]) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {"index": [], "result": []}
        for raw in batch["block"]:
            block: Block = pickle.loads(raw)
            cross = self.cross_from is not None and block.index >= self.cross_from
            try:
                scored = score_block(block, self.cross_specs if cross else self.specs, self.judge,
                                     field_map=self.field_map)
                if cross:  # the input's blocks count each sample once (golden review)
                    scored.golden = None
            except RagaugeError as exc:  # the user's problem: said once on the driver, never retried
                scored = ScoredBlock(block.index, [], [], {}, error=exc)
            out["index"].append(block.index)
            out["result"].append(pickle.dumps(scored, protocol=5))
        return out
