"""What the driver keeps of a run whose per-sample rows go to Parquet shards: compact arrays, no ``Sample``.

A ``--shards`` run writes every sample's id, tags, values, reasons and artifacts away as its block arrives;
the summaries, CIs, gates and slices need only, per metric, the values and the unscored reasons, and per
tag the positions of its samples. :class:`CompactRun` keeps exactly those:

- per metric a :class:`CompactColumn`: the values as float64 (NaN where unscored) and each sample's reason
  as a 4-byte code into the run's distinct reasons -- 12 bytes a sample a metric;
- per tag the positions of its samples (4 bytes a sample a tag);
- per sample a 64-bit hash of its id (8 bytes), so a duplicate id over the whole input is still refused
  (the ids themselves are in the shards; a hash match is confirmed there before it is reported).

So 100k samples with 3 metrics and one tag each cost ~5 MB, against ~60 MB as ``Sample`` objects and
Python lists. A ``CompactColumn`` answers what ``engine.summary.summarise`` and the slice checks ask of a
``ScoreColumn`` (``scored``, ``unscored_counts``, ``take``, ``values``, ``provenance``, ``len``); it keeps
no artifacts (those are in the shards).
"""

from __future__ import annotations

from array import array
from typing import Any, Iterable, Iterator, Sequence

import numpy as np

from ..metrics.column import ScoreColumn

__all__ = ["CompactColumn", "CompactRun", "NullableValues"]



class NullableValues(Sequence[Any]):
    """A read-only view of a float array as ``float | None`` (NaN read as ``None``): the per-sample values as
    ``ScoreColumn.values`` gives them, without a Python object per sample held anywhere."""

    __slots__ = ("_a",)

    def __init__(self, values: np.ndarray) -> None:
        self._a = values

    def __len__(self) -> int:
        return int(self._a.size)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [None if v != v else v for v in self._a[i].tolist()]
        v = float(self._a[i])
        return None if v != v else v

    def __iter__(self) -> Iterator[float | None]:
        for start in range(0, self._a.size, 65536):  # a chunk of Python floats at a time
            for v in self._a[start:start + 65536].tolist():
                yield None if v != v else v


class CompactColumn:
    """One metric over a run: ``values`` float64 (NaN = unscored), ``codes`` uint32 into ``reasons_table``
    (code 0 = scored), and the judge's ``provenance``. Build it with :meth:`extend`, then :meth:`freeze`."""

    __slots__ = ("_values", "_codes", "_frozen", "reasons_table", "_code_of", "provenance")

    def __init__(self, provenance: dict[str, Any] | None = None) -> None:
        self._values: Any = array("d")
        self._codes: Any = array("I")
        self._frozen = False
        self.reasons_table: list[str | None] = [None]
        self._code_of: dict[str, int] = {}
        self.provenance = provenance

    @classmethod
    def of(cls, values: np.ndarray, codes: np.ndarray, reasons_table: list[str | None],
           provenance: dict[str, Any] | None) -> "CompactColumn":
        col = cls(provenance)
        col._values, col._codes, col._frozen = values, codes, True
        col.reasons_table = reasons_table
        return col

    def extend(self, part: ScoreColumn) -> None:
        """Append a block's column (its artifacts are not kept)."""
        if self._frozen:
            raise RuntimeError("a frozen CompactColumn cannot grow")
        nan = float("nan")
        self._values.extend(nan if v is None else v for v in part.values)
        codes = []
        for r in part.reasons:
            if r is None:
                codes.append(0)
                continue
            code = self._code_of.get(r)
            if code is None:
                code = self._code_of[r] = len(self.reasons_table)
                self.reasons_table.append(r)
            codes.append(code)
        self._codes.extend(codes)
        if self.provenance is None:
            self.provenance = part.provenance

    def freeze(self) -> "CompactColumn":
        """Turn the growing arrays into numpy arrays (no copy kept of the old ones)."""
        if not self._frozen:
            self._values = np.array(self._values, dtype=np.float64)
            self._codes = np.array(self._codes, dtype=np.uint32)
            self._frozen = True
            self._code_of = {}
        return self

    # --- what summarise, the slices and the slice checks read --------------------------------------------
    def __len__(self) -> int:
        return len(self._values)

    @property
    def values(self) -> NullableValues:
        return NullableValues(self.freeze()._values)

    @property
    def reasons(self) -> list[str | None]:
        table = self.reasons_table
        return [table[c] for c in self.freeze()._codes.tolist()]

    def array(self) -> np.ndarray:
        """The values as float64, NaN where unscored (no copy)."""
        return self.freeze()._values  # type: ignore[no-any-return]

    def scored(self) -> np.ndarray:
        v = self.freeze()._values
        return v[self._codes == 0]  # type: ignore[no-any-return]

    def unscored_counts(self) -> dict[str, int]:
        codes = self.freeze()._codes
        counts = np.bincount(codes, minlength=len(self.reasons_table)) if codes.size else np.zeros(1, np.int64)
        out = {self.reasons_table[c]: int(k) for c, k in enumerate(counts.tolist()) if c and k}
        return dict(sorted(out.items(), key=lambda kv: (-kv[1], str(kv[0]))))  # type: ignore[misc]

    def take(self, indices: Iterable[int]) -> "CompactColumn":
        self.freeze()
        idx = np.asarray(indices if isinstance(indices, np.ndarray) else list(indices), dtype=np.int64)
        return CompactColumn.of(self._values[idx], self._codes[idx], self.reasons_table, self.provenance)


class CompactRun:
    """The driver's side of a ``--shards`` run: a sink of ``score_run``'s blocks (call it with each block in
    input order) keeping :class:`CompactColumn` per metric and tag positions (repeated ids are refused before it,
    block by block, by ``shards_run.UniqueIds``)."""

    def __init__(self, metrics: Sequence[str]) -> None:
        self.columns: dict[str, CompactColumn] = {m: CompactColumn() for m in metrics}
        self._tags: dict[str, Any] = {}
        self.n = 0
        self.blocks = 0

    def __call__(self, block: Any) -> None:
        start = self.n
        for k, tags in enumerate(block.tags):
            for t in dict.fromkeys(tags):
                pos = self._tags.get(t)
                if pos is None:
                    pos = self._tags[t] = array("i")
                pos.append(start + k)
        for name, col in self.columns.items():
            col.extend(block.columns[name])
        self.n += len(block.ids)
        self.blocks += 1

    def tag_index(self) -> dict[str, np.ndarray]:
        """Tag -> positions of its samples, tags sorted (what ``engine.evaluate._tag_index`` gives)."""
        return {t: np.array(self._tags[t], dtype=np.int64) for t in sorted(self._tags)}

    def freeze(self) -> "CompactRun":
        for col in self.columns.values():
            col.freeze()
        return self

    def nbytes(self) -> int:
        """Bytes of the arrays kept (for the docs' per-sample figure)."""
        total = sum(a.itemsize * len(a) for a in self._tags.values())
        for col in self.columns.values():
            for a in (col._values, col._codes):
                total += a.nbytes if isinstance(a, np.ndarray) else a.itemsize * len(a)
        return total

