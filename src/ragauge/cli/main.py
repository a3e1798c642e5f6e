"""The ``ragauge`` command: a thin dispatcher over one module per command.

Each command module exposes ``register(subparsers)`` (adds its parser and sets ``func``) and a
``run(args) -> int`` that calls library functions only. Errors derived from ``RagaugeError`` become one
clear message on stderr and their documented exit code; anything else is a bug (exit 70).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Sequence

# Command modules, imported lazily so that `ragauge --help` stays fast.
COMMANDS = ("eval", "compare", "plan", "calibrate", "baseline", "metrics", "profiles", "noise", "trec_eval", "generate", "review", "guard", "rag", "serve")


def build_parser() -> argparse.ArgumentParser:
    from .._version import __version__

    parser = argparse.ArgumentParser(
        prog="ragauge",
        description="Evaluate a RAG system: retrieval metrics exact to trec_eval, judges, gates and reports.",
        epilog="Exit codes: 0 gates passed, 1 a gate failed, 2 usage or input error (or an output file cannot "
        "be written), 3 judge unavailable or no verdict, 4 budget exhausted, 70 internal error, 130 interrupted.",
    )
    parser.add_argument("--version", action="version", version=f"ragauge {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f".{name}", __package__)
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from ..errors import ExitCode, RagaugeError

    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return int(ExitCode.USAGE)
    try:
        return int(args.func(args))
    except RagaugeError as exc:
        print(f"ragauge: error: {exc}", file=sys.stderr)
        return int(exc.exit_code)
    except KeyboardInterrupt:
        print("ragauge: interrupted", file=sys.stderr)
        return int(ExitCode.INTERRUPTED)
    except BrokenPipeError:  # `ragauge ... | head`
        return int(ExitCode.OK)
    except OSError as exc:  # a path that does not exist, no permission, a full disk: the user's to fix
        where = f": {exc.filename}" if getattr(exc, "filename", None) else ""
        print(f"ragauge: error: {exc.strerror or exc}{where}", file=sys.stderr)
        return int(ExitCode.USAGE)
    except Exception as exc:  # a bug in ragauge: one line by default, the traceback on request
        if os.environ.get("RAGAUGE_DEBUG"):
            raise
        print(f"ragauge: internal error: {type(exc).__name__}: {exc}\n"
              "This is a bug in ragauge. Re-run with RAGAUGE_DEBUG=1 for the traceback and report it.",
              file=sys.stderr)
        return int(ExitCode.INTERNAL)


def entry() -> None:  # pragma: no cover - console script shim
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
