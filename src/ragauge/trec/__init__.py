"""TREC files and trec_eval's measures: ``evaluate_files(qrels, run, measures=["map", "P.10"])``.

``read_qrels``/``read_run`` (columnar readers), ``join`` (trec_eval's query and duplicate rules),
``parse_measures``/``compute`` (trec_eval ``-m`` syntax and values), ``format_lines`` (its output).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from ..scores._columns import small_pages
from .format import format_lines
from .io import TrecColumns, read_qrels, read_run
from .join import JoinedRun, join
from .measures import MeasureSpec, TrecEvaluation, compute, parse_measures

__all__ = [
    "JoinedRun",
    "MeasureSpec",
    "TrecColumns",
    "TrecEvaluation",
    "compute",
    "evaluate_files",
    "format_lines",
    "join",
    "parse_measures",
    "read_qrels",
    "read_run",
]


def evaluate_files(
    qrels: str | Path,
    run: str | Path,
    *,
    measures: Iterable[str] | None = None,
    rel_level: int = 1,
    complete: bool = False,
    max_docs: int | None = None,
) -> TrecEvaluation:
    """trec_eval over two files: ``trec_eval [-m ...] [-l rel_level] [-c] [-M max_docs] qrels run``."""
    specs = parse_measures(measures)
    with small_pages():  # see ragauge.scores._columns.small_pages: large fresh arrays, built once
        joined = join(read_qrels(qrels), read_run(run), rel_level=rel_level, complete=complete, max_docs=max_docs,
                      gain_depth=_gain_depth(specs))
        return compute(joined, specs)


def _gain_depth(specs) -> int | None:
    """The ranks whose gains the measures read (only ndcg reads gains): None for ``ndcg`` itself."""
    depth = 0
    for spec in specs:
        if spec.name == "ndcg":
            return None
        if spec.name == "ndcg_cut":
            depth = max([depth, *(spec.cutoffs or ())])
    return depth
