"""Golden data sets for per-sample tests, and one sample's row of an evaluation.

``golden(path)`` loads (and validates) a data set at collection time and returns one
:class:`GoldenSample` per record, for ``@pytest.mark.parametrize("sample", golden("golden.jsonl"))``.
The samples of one file share a :class:`GoldenSet`, so the plugin evaluates the whole set once and each
test reads its own row (:class:`SampleResult`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:  # pragma: no cover
    from ..data.schema import Sample
    from ..engine.results import Results


@dataclass(frozen=True, eq=False)
class GoldenSet:
    """The validated samples of one golden file (``source`` is its resolved path)."""

    source: str
    samples: tuple["Sample", ...]
    field_map: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, eq=False)
class GoldenSample:
    """One record of a golden set; ``pytest`` shows its ``id`` as the parameter id."""

    golden_set: GoldenSet
    index: int

    @property
    def sample(self) -> "Sample":
        return self.golden_set.samples[self.index]

    @property
    def id(self) -> str:
        return self.sample.id

    @property
    def question(self) -> str:
        return self.sample.question

    def __repr__(self) -> str:
        return f"GoldenSample({self.id!r} of {self.golden_set.source})"


def _resolve(path: str | Path, caller_file: str | None) -> Path:
    p = Path(path)
    if p.is_absolute():
        return p
    if caller_file:
        near = Path(caller_file).resolve().parent / p
        if near.exists():
            return near
    return p.resolve()


def golden(path: str | Path, *, field_map: Mapping[str, str] | None = None) -> list[GoldenSample]:
    """Load the golden data set at ``path`` (relative paths: next to the calling test file, else the
    current folder) and return one :class:`GoldenSample` per record.

    Errors name the file, line and field (:class:`ragauge.errors.InputError`); under pytest they become a
    clean collection error without a traceback.
    """
    from ..data import load
    from ..errors import RagaugeError

    caller = sys._getframe(1).f_globals.get("__file__")
    resolved = _resolve(path, caller)
    try:
        samples = load(resolved, field_map=field_map)
    except RagaugeError as exc:
        fail_cleanly(exc)
        raise
    gset = GoldenSet(str(resolved), tuple(samples), tuple(sorted((field_map or {}).items())))
    return [GoldenSample(gset, i) for i in range(len(samples))]


def fail_cleanly(exc: BaseException) -> None:
    """Under pytest, turn a ragauge error into ``pytest.fail(message, pytrace=False)`` (no traceback)."""
    if "pytest" in sys.modules:
        import pytest

        raise pytest.fail.Exception(f"ragauge: {type(exc).__name__}: {exc}", pytrace=False) from None


@dataclass(frozen=True)
class SampleResult:
    """One sample's scores in a run: ``scores[metric]`` is a float or ``None`` (then ``unscored[metric]``
    says why); ``artifacts[metric]`` holds claim-level verdicts for judge metrics."""

    id: str
    index: int
    sample: "Sample"
    scores: dict[str, float | None]
    unscored: dict[str, str]
    artifacts: dict[str, Any]
    results: "Results"

    def score(self, metric: str) -> float | None:
        from ..errors import InputError

        if metric not in self.scores:
            raise InputError(f"metric {metric!r} was not evaluated for sample {self.id!r}",
                             hint=f"evaluated: {', '.join(self.scores)}")
        return self.scores[metric]


def sample_result(results: "Results", sample: "str | GoldenSample | Sample") -> SampleResult:
    """The row of ``sample`` (an id, a :class:`GoldenSample` or a ``Sample``) in ``results``."""
    from ..errors import InputError

    sid = sample if isinstance(sample, str) else sample.id
    for i, s in enumerate(results.samples):
        if s.id == sid:
            cols = results.columns
            return SampleResult(
                sid, i, s,
                {m: c.values[i] for m, c in cols.items()},
                {m: c.reasons[i] for m, c in cols.items() if c.reasons[i] is not None},  # type: ignore[misc]
                {m: c.artifacts[i] for m, c in cols.items() if c.artifacts and c.artifacts[i]},
                results,
            )
    raise InputError(f"sample {sid!r} is not in these results ({len(results.samples)} samples)", field="id")
