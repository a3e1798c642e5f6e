"""Cross-sample metrics on the workers: each noisy variant is scored in one block with its clean sample.

``noise_robustness`` scores a variant (``metadata.noise_of``) against its clean sample, wherever that sample is
in the input; the input's blocks are cut from a byte stream, blind to those links. So the run adds blocks of
its own (:func:`plan_cross_blocks`):

1. *find* -- Ray tasks (a run of consecutive blocks each, in parallel; the driver reads no sample) read the
   input's blocks and return the variants; then, given the ids they name, the clean samples;
2. *group* -- a variant and its clean sample are one group (a variant of a variant joins its parent's group);
3. *pack* -- whole groups, in input order, into blocks of at most ``block_size`` samples (a larger group is a
   block of its own).

The run's actor pool scores these blocks first, with the cross-sample metrics only; :class:`CrossFill` keeps
their values by sample id and puts them into each of the input's blocks as it is handed over (a sample that is
no variant gets :data:`~ragauge.metrics.noise.NOT_A_VARIANT_REASON`, as locally). The metric's own code sees
every variant of a block with its clean sample, or without it when the input has none, exactly as it sees
them over the whole input in a local run: the values, reasons and artifacts are the local engine's.
"""

from __future__ import annotations

import pickle
from typing import Any, Mapping, Sequence

from ..data.schema import Sample
from ..errors import InputError, RagaugeError
from ..metrics.column import ScoreColumn
from ..metrics.spec import MetricSpec
from .io import Block, read_block
from .worker import ScoredBlock

__all__ = ["CROSS_SAMPLE_FAMILIES", "CrossFill", "plan_cross_blocks"]

#: families whose value for a sample depends on other samples of the input (module doc)
CROSS_SAMPLE_FAMILIES = ("noise",)
#: find tasks per scoring worker (each reads a run of consecutive blocks)
TASKS_PER_WORKER = 4

Key = tuple[int, int]  #: a sample's place in the input: (block index, position in the block)


def _parent(sample: Sample) -> str | None:
    parent = sample.metadata.get("noise_of") if sample.metadata else None
    return None if parent is None else str(parent)


def find_members(blocks: Sequence[Block], field_map: Mapping[str, str] | None,
                 wanted: frozenset[str] | None) -> tuple[RagaugeError | None, list[tuple[Key, Sample]]]:
    """The variants of ``blocks`` (``wanted=None``), else their samples with an id in ``wanted`` that are no
    variant; a block's input error comes back as a value (raised on the driver as it is, never retried)."""
    out: list[tuple[Key, Sample]] = []
    try:
        for b in blocks:
            for k, s in enumerate(read_block(b, field_map=field_map)):
                parent = _parent(s)
                if (parent is not None) if wanted is None else (parent is None and s.id in wanted):
                    out.append(((b.index, k), s))
    except RagaugeError as exc:
        return exc, []
    return None, out


def _runs(blocks: Sequence[Block], n: int) -> list[list[Block]]:
    size = -(-len(blocks) // max(1, n))
    return [list(blocks[i:i + size]) for i in range(0, len(blocks), size)]


def _gather(ray: Any, refs: list[Any]) -> list[tuple[Key, Sample]]:
    got: list[tuple[Key, Sample]] = []
    for error, members in ray.get(refs):  # in block order: the first bad block is the one raised
        if error is not None:
            raise error
        got += members
    return got


def plan_cross_blocks(ray: Any, blocks: Sequence[Block], field_map: Mapping[str, str] | None, *,
                      block_size: int, first_index: int, workers: int) -> list[Block]:
    """The blocks of whole variant groups (module doc), indexed from ``first_index``; at least one (an empty
    one when the input has no variant: the column's provenance then still comes from a worker's judge)."""
    find = ray.remote(num_cpus=1)(find_members)
    runs = _runs(blocks, TASKS_PER_WORKER * workers)
    members = _gather(ray, [find.remote(r, field_map, None) for r in runs])
    parents = frozenset(p for _, s in members if (p := _parent(s)) is not None)
    if parents:
        wanted = ray.put(parents)
        members += _gather(ray, [find.remote(r, field_map, wanted) for r in runs])
    members.sort(key=lambda m: m[0])
    label = blocks[0].label if blocks else "samples"
    groups = _groups([s for _, s in members], label)
    out: list[Block] = []
    current: list[int] = []

    def flush() -> None:
        chunk = [members[i][1] for i in sorted(current)]
        out.append(Block(first_index + len(out), "samples", label, first=0, payload=pickle.dumps(chunk, protocol=5)))
        current.clear()

    for group in groups:
        if current and len(current) + len(group) > block_size:
            flush()
        current.extend(group)
    if current or not out:
        flush()
    return out


def _groups(samples: list[Sample], label: str) -> list[list[int]]:
    """Positions of ``samples`` joined by ``noise_of`` links (union-find), each group in order of its first."""
    at: dict[str, int] = {}
    for i, s in enumerate(samples):
        if s.id in at:
            raise InputError(f"duplicate sample id {s.id!r}", file=label, field="id",
                             hint="every sample needs a unique id")
        at[s.id] = i
    root = list(range(len(samples)))

    def find(i: int) -> int:
        while root[i] != i:
            root[i] = root[root[i]]
            i = root[i]
        return i

    for i, s in enumerate(samples):
        parent = _parent(s)
        if parent is not None and parent in at:
            a, b = find(i), find(at[parent])
            root[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for i in range(len(samples)):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


class CrossFill:
    """The cross-sample metrics' values by sample id (from the scored cross blocks), put into each input block;
    the cross blocks' LLM usage, asks and worker time are added to the first input block handed over."""

    def __init__(self, specs: Sequence[MetricSpec], n_blocks: int) -> None:
        self.names = [s.name for s in specs]
        self.left = n_blocks  #: cross blocks not scored yet
        self.by_id: dict[str, dict[str, tuple[Any, Any, Any]]] = {name: {} for name in self.names}
        self.provenance: dict[str, Any] = {}
        self._pending: list[ScoredBlock] = []

    def add(self, scored: ScoredBlock) -> None:
        self.left -= 1
        for name in self.names:
            col = scored.columns[name]
            got = self.by_id[name]
            for k, sid in enumerate(scored.ids):
                got[sid] = (col.values[k], col.reasons[k], col.artifacts[k])
            if self.provenance.get(name) is None:
                self.provenance[name] = col.provenance
        self._pending.append(scored)

    def __call__(self, block: ScoredBlock, specs: Sequence[MetricSpec]) -> ScoredBlock:
        from ..metrics.noise import NOT_A_VARIANT_REASON

        for name in self.names:
            got = self.by_id[name]
            rows = [got.get(sid, (None, NOT_A_VARIANT_REASON, None)) for sid in block.ids]
            block.columns[name] = ScoreColumn([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows],
                                              provenance=self.provenance.get(name))
        block.columns = {s.name: block.columns[s.name] for s in specs}  # the order of the specs, as locally
        for scored in self._pending:  # once, with the first block handed over
            _add_calls(block, scored)
        self._pending = []
        return block


def _add_calls(block: ScoredBlock, cross: ScoredBlock) -> None:
    from ..engine.on_ray import merge_usage

    block.seconds += cross.seconds
    block.cpu_seconds += cross.cpu_seconds
    if cross.usage is not None:
        block.usage = merge_usage(block.usage, cross.usage)
    block.asks = (block.asks[0] + cross.asks[0], block.asks[1] + cross.asks[1])
    if cross.no_verdict is not None and block.no_verdict is None:
        block.no_verdict = cross.no_verdict
