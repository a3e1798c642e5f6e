"""trec_eval's text output: ``measure<padded to 22>\\tquery\\tvalue``, 4 decimals, ``all`` last.

Per-query lines (``-q``) come first, query by query in qid order, measures in trec_eval's order
(``runid`` and ``num_q`` only in the summary); then one ``all`` line per measure. Counts print as
integers, everything else as C ``%6.4f`` (Python's ``format`` rounds the same exact binary value).
"""

from __future__ import annotations

from typing import Iterator

from .measures import _SUMMED, TrecEvaluation

__all__ = ["format_lines"]


def _line(name: str, qid: str, value: float | int | str) -> str:
    if isinstance(value, str):
        text = value
    elif name in _SUMMED or name == "num_q":
        text = str(int(value))
    else:
        text = f"{value:6.4f}"
    return f"{name:<22}\t{qid}\t{text}"


def format_lines(evaluation: TrecEvaluation, *, per_query: bool = False, summary: bool = True) -> Iterator[str]:
    """Lines exactly as trec_eval prints them (without trailing newlines)."""
    names = [line for spec in evaluation.specs for line in spec.line_names() if line not in ("runid", "num_q")]
    if per_query:
        columns = [(name, evaluation.values[name].tolist()) for name in names]
        for row, qid in enumerate(evaluation.query_ids):
            for name, values in columns:
                yield _line(name, qid, values[row])
    if summary:
        for name, value in evaluation.summary().items():
            yield _line(name, "all", value)
