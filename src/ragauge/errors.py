"""One exception root for everything ragauge raises on purpose.

Every message says what was wrong, shows where (file, line, field, value) and names the fix.
The CLI turns these into one clear paragraph and a documented exit code (see ``ExitCode``).
"""

from __future__ import annotations

import enum
from typing import Any


class ExitCode(enum.IntEnum):
    """Process exit codes of the ``ragauge`` command: a stable contract for CI scripts."""

    OK = 0  #: evaluation ran and every gate passed
    GATE_FAILED = 1  #: evaluation ran, at least one gate failed
    USAGE = 2  #: bad command line, unreadable or invalid input, bad config, unknown metric
    JUDGE = 3  #: a judge could not be loaded or reached (missing package, endpoint down)
    BUDGET = 4  #: a cost budget stopped the run before the end
    INTERNAL = 70  #: a bug in ragauge: please report it with the traceback
    INTERRUPTED = 130  #: Ctrl-C


def _shorten(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class RagaugeError(Exception):
    """Root of every error ragauge raises on purpose."""

    exit_code: ExitCode = ExitCode.USAGE


class InputError(RagaugeError, ValueError):
    """A data file, DataFrame or record is not what ragauge expects."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        field: str | None = None,
        value: Any = ...,
        hint: str | None = None,
    ) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.field = field
        self.value = value
        self.hint = hint
        super().__init__(self._render())

    def _render(self) -> str:
        where = []
        if self.file is not None:
            where.append(str(self.file))
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.field is not None:
            where.append(f"field '{self.field}'")
        head = ", ".join(where)
        text = f"{head}: {self.message}" if head else self.message
        if self.value is not ...:
            text += f" (got {_shorten(self.value)})"
        if self.hint:
            text += f". {self.hint}"
        return text


class OutputError(InputError):
    """An output file could not be written (full disk, no permission, unencodable text).

    The old file, if any, is kept as it was (see :mod:`ragauge.files`). Exit code 2, like bad input.
    """


class ConfigError(RagaugeError):
    """A config file, profile or option is invalid."""


class UnknownMetricError(RagaugeError, KeyError):
    """A metric name that is not in the registry."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class MissingDependencyError(RagaugeError, ImportError):
    """An optional package is needed for this feature; the message names the install command."""

    exit_code = ExitCode.JUDGE

    def __init__(self, package: str, *, feature: str, extra: str | None = None) -> None:
        install = f"pip install 'ragauge[{extra}]'" if extra else f"pip install {package}"
        super().__init__(f"{feature} needs the package '{package}', which is not installed. Install it with: {install}")
        self.package = package


class JudgeError(RagaugeError):
    """A judge could not be loaded or reached."""

    exit_code = ExitCode.JUDGE


class JudgeParseError(JudgeError):
    """A judge's reply could not be parsed; the raw reply is kept."""

    def __init__(self, message: str, *, raw: str) -> None:
        super().__init__(f"{message}; raw reply: {_shorten(raw, 300)}")
        self.raw = raw


class BudgetExceededError(RagaugeError):
    """A cost budget (calls, tokens, money) stopped the run."""

    exit_code = ExitCode.BUDGET


class GateFailedError(RagaugeError):
    """At least one quality gate failed (raised by assertion helpers, not by evaluate())."""

    exit_code = ExitCode.GATE_FAILED


__all__ = [
    "BudgetExceededError",
    "ConfigError",
    "ExitCode",
    "GateFailedError",
    "InputError",
    "JudgeError",
    "JudgeParseError",
    "MissingDependencyError",
    "OutputError",
    "RagaugeError",
    "UnknownMetricError",
]
