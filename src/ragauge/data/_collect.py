"""Where a record came from, and how input errors are collected and raised together.

Loaders keep going after a bad record so that a user sees every problem of a file at once; the
first ``max_errors`` are kept and shown, the rest are counted ("and N more").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ragauge.errors import InputError

#: Errors shown in one :class:`InputErrors` before "and N more".
DEFAULT_MAX_ERRORS = 20


@dataclass(frozen=True, slots=True)
class Location:
    """Where a record came from: a file line (1-based), a row (0-based, as ``df.iloc[row]``), or the
    ``item``-th sample (1-based) of a ``.json`` array, as a person counts the objects of a file."""

    source: str | None = None
    line: int | None = None
    row: int | None = None
    item: bool = False  #: ``row`` is an index into a ``.json`` array: shown 1-based as "item N"

    @property
    def file(self) -> str | None:
        # InputError knows files and lines only; a row is shown as part of the "file" text so that
        # messages read "data.parquet, row 3, field 'question': ...".
        if self.row is None:
            return self.source
        where = self._position()
        return f"{self.source}, {where}" if self.source else where

    def _position(self) -> str:
        return f"item {self.row + 1}" if self.item and self.row is not None else f"row {self.row}"

    @property
    def default_id(self) -> str | None:
        """The id a record without one gets: ``line-17`` or ``row-17``; None when there is no position."""
        if self.line is not None:
            return f"line-{self.line}"
        if self.row is not None:
            return f"row-{self.row}"
        return None

    def describe(self) -> str:
        if self.line is not None:
            return f"line {self.line}"
        if self.row is not None:
            return self._position()
        return "another record"

    def error(self, message: str, *, field: str | None = None, value: Any = ..., hint: str | None = None) -> InputError:
        return InputError(message, file=self.file, line=self.line, field=field, value=value, hint=hint)


class InputErrors(InputError):
    """Several input errors found in one pass; ``errors`` holds the first ones, ``total`` counts all.

    The structured attributes (``file``, ``line``, ``field``, ``value``, ``hint``) are the first
    error's, so code that handles a single :class:`InputError` keeps working.
    """

    def __init__(self, errors: list[InputError], *, total: int, source: str | None = None) -> None:
        self.errors = tuple(errors)
        self.total = total
        self.source = source
        first = errors[0]
        super().__init__(
            first.message, file=first.file, line=first.line, field=first.field, value=first.value, hint=first.hint
        )

    def _render(self) -> str:
        where = f" in {self.source}" if self.source else ""
        lines = [f"{self.total} errors{where}:"]
        lines += [f"  {err}" for err in self.errors]
        if self.total > len(self.errors):
            lines.append(f"  and {self.total - len(self.errors)} more")
        return "\n".join(lines)


class ErrorCollector:
    """Keeps the first ``limit`` errors and counts every one."""

    def __init__(self, limit: int = DEFAULT_MAX_ERRORS) -> None:
        if limit < 1:
            raise ValueError(f"max_errors must be at least 1, got {limit}")
        self.limit = limit
        self.errors: list[InputError] = []
        self.total = 0

    def add(self, error: InputError) -> None:
        self.total += 1
        if len(self.errors) < self.limit:
            self.errors.append(error)

    def raise_if_any(self, source: str | None = None) -> None:
        if self.total == 0:
            return
        if self.total == 1:
            raise self.errors[0]
        raise InputErrors(self.errors, total=self.total, source=source)
