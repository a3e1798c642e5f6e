"""``load()``: the one front door from a file, DataFrame, list of dicts or dataset to validated samples.

The whole input is checked in one pass; the first ``max_errors`` problems (default 20) are raised
together in one :class:`~ragauge.data._collect.InputErrors` (an ``InputError``), so a user fixes a
file once instead of once per line.
"""

from __future__ import annotations

import contextlib
import gc
import os
from pathlib import Path
from collections.abc import Mapping
from typing import Any, Iterable, Iterator

from ragauge.data._collect import DEFAULT_MAX_ERRORS, ErrorCollector, Location
from ragauge.data._fields import KNOWN_NAMES, check_field_map, close_matches
from ragauge.data.jsonl import DEFAULT_MAX_LINE_BYTES, iter_jsonl, read_json
from ragauge.data.schema import Sample
from ragauge.data.tabular import is_dataframe, iter_csv, iter_dataframe, iter_parquet, iter_rows
from ragauge.data.validate import build_sample
from ragauge.errors import ConfigError, InputError

__all__ = ["FORMATS", "load"]

#: format name -> file suffixes (a trailing ``.gz`` is also accepted for text formats)
FORMATS: Mapping[str, tuple[str, ...]] = {
    "jsonl": (".jsonl", ".ndjson"),
    "json": (".json",),
    "csv": (".csv",),
    "tsv": (".tsv",),
    "parquet": (".parquet", ".pq"),
}
_FORMAT_ALIASES = {"ndjson": "jsonl"}


def load(
    source: Any,
    *,
    format: str | None = None,  # noqa: A002 - the natural name for users
    field_map: Mapping[str, str] | None = None,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    max_errors: int = DEFAULT_MAX_ERRORS,
) -> list[Sample]:
    """Load and validate samples from ``source``.

    ``source``: a path (``.jsonl``/``.ndjson``, ``.json``, ``.csv``, ``.tsv``, ``.parquet``; ``.gz``
    for the text ones), a pandas DataFrame, a list of dicts, or a Hugging Face ``datasets.Dataset``
    (anything with ``column_names`` that iterates over dicts, or with ``to_pandas()``).
    ``format`` overrides the file suffix. ``field_map`` renames the user's fields first
    (``{"query": "question"}``). ``max_line_bytes`` bounds one JSONL/CSV line (64 MiB).

    Raises ``InputError`` (every problem up to ``max_errors``, then "and N more"), including for
    duplicate ids across the input and for an input without samples.
    """
    fmap = check_field_map(field_map)
    if max_line_bytes < 1:
        raise ConfigError(f"max_line_bytes must be positive, got {max_line_bytes}")
    if max_errors < 1:
        raise ConfigError(f"max_errors must be at least 1, got {max_errors}")
    errors = ErrorCollector(max_errors)
    label, records = _records(source, format=format, max_line_bytes=max_line_bytes, errors=errors)
    # The JSON readers look for lone surrogates on the raw text; every other source is walked.
    check_text = not (isinstance(source, (str, os.PathLike)) and _file_format(Path(source), format) in ("jsonl", "json"))

    samples: list[Sample] = []
    first_seen: dict[str, Location] = {}
    keys_seen: set[str] = set()
    n_records = 0
    with _gc_paused():
        for loc, record in _guard_io(records, label):
            n_records += 1
            if fmap and isinstance(record, Mapping):
                keys_seen.update(k for k in record if isinstance(k, str))
            sample = build_sample(record, loc, fmap, errors, check_text=check_text)
            if sample is None:
                continue
            other = first_seen.get(sample.id)
            if other is not None:
                errors.add(
                    loc.error(
                        f"duplicate sample id {sample.id!r}, also on {other.describe()}",
                        field="id",
                        hint="Ids must be unique: comparisons pair samples by id",
                    )
                )
                continue
            first_seen[sample.id] = loc
            samples.append(sample)

    if fmap and n_records:
        for theirs in fmap:
            if theirs not in keys_seen:
                errors.add(
                    InputError(
                        f"field_map renames {theirs!r}, but no record has that field; "
                        f"{close_matches(theirs, keys_seen)}fields seen: {', '.join(sorted(keys_seen))}",
                        file=label,
                        field=theirs,
                    )
                )
    errors.raise_if_any(label)
    if not samples:
        raise InputError("no samples", file=label, hint="The input is empty or holds only blank lines")
    if not any(map(_has_content, samples)):
        _refuse_unknown_fields(samples, label)
    return samples


_CONTENT = ("question", "answer", "contexts", "retrieved_ids", "relevant_ids", "reference", "tool_calls")


def _has_content(sample: Sample) -> bool:
    return any(getattr(sample, name) not in (None, ()) for name in _CONTENT)


def _refuse_unknown_fields(samples: list[Sample], label: str) -> None:
    # With `question` optional (issue 13) a file whose columns all have other names would load as
    # samples with nothing to score; say so, with the fields seen, instead of scoring nothing.
    seen = sorted({key for s in samples[:1000] for key in s.metadata})
    hints = "".join(close_matches(name, KNOWN_NAMES) for name in seen)
    raise InputError(
        f"no sample has any of the fields {', '.join(_CONTENT)}; {hints}"
        f"fields seen: {', '.join(seen) or '(none but id)'}",
        file=label,
        hint="Rename your columns, or map them: --field-map query=question "
        "(from Python: load(..., field_map={'query': 'question'}))",
    )


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    # Loading builds millions of small containers that all stay alive; the cyclic GC keeps scanning
    # them (a full pass each time the survivors grow by a quarter) and finds nothing: samples hold
    # no cycles. Pausing it while loading takes ~40% off load() (50k lines: 5.3 s -> 2.9-3.5 s CPU,
    # benchmarks/big_input.py --load-lines 50000). It is restored as it was, whatever happens.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _guard_io(records: Iterator[tuple[Location, Any]], label: str) -> Iterator[tuple[Location, Any]]:
    # A truncated .gz, a disk error...: one clear InputError instead of a traceback.
    try:
        yield from records
    except (OSError, EOFError) as exc:
        raise InputError(f"cannot read the file: {exc}", file=label) from exc


def _records(
    source: Any, *, format: str | None, max_line_bytes: int, errors: ErrorCollector  # noqa: A002
) -> tuple[str, Iterator[tuple[Location, Any]]]:
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        label = str(source)
        _check_readable(path, label)
        fmt = _file_format(path, format)
        if fmt == "jsonl":
            return label, iter_jsonl(path, label=label, max_line_bytes=max_line_bytes, errors=errors)
        if fmt == "json":
            return label, read_json(path, label=label, max_line_bytes=max_line_bytes, errors=errors)
        if fmt in ("csv", "tsv"):
            delimiter = "," if fmt == "csv" else "\t"
            return label, iter_csv(path, label=label, delimiter=delimiter, max_line_bytes=max_line_bytes, errors=errors)
        return label, iter_parquet(path, label=label, errors=errors)
    if format is not None:
        raise ConfigError(f"format={format!r} applies to file paths only, not to a {type(source).__name__}")
    if isinstance(source, bytes):
        raise InputError("got bytes; pass a path, a DataFrame or a list of dicts", value=source[:40])
    if is_dataframe(source):
        return "DataFrame", iter_dataframe(source, label="DataFrame")
    column_names = getattr(source, "column_names", None)
    if column_names is not None and hasattr(source, "__iter__"):
        if isinstance(column_names, Mapping):  # datasets.DatasetDict: {split: columns}
            raise InputError(
                f"got a dataset with several splits ({', '.join(map(str, column_names))})",
                hint="Pick one split, e.g. load(ds['test'])",
            )
        label = type(source).__name__
        return label, iter_rows(source, label=label, clean=True)
    if isinstance(source, Mapping):
        if isinstance(source.get("samples"), list):
            return "records", iter_rows(source["samples"], label="records", clean=False)
        raise InputError(
            "got one mapping, not a list of samples",
            hint="Wrap a single sample in a list: load([record]), or pass {'samples': [...]}",
        )
    if hasattr(source, "to_pandas"):
        label = type(source).__name__
        return label, iter_dataframe(source.to_pandas(), label=label)
    if isinstance(source, Iterable):
        return "records", iter_rows(source, label="records", clean=False)
    raise InputError(
        f"cannot load samples from a {type(source).__name__}",
        hint="Pass a file path, a pandas DataFrame, a list of dicts or a datasets.Dataset",
    )


def _file_format(path: Path, format: str | None) -> str:  # noqa: A002
    if format is not None:
        fmt = _FORMAT_ALIASES.get(format.lower(), format.lower())
        if fmt not in FORMATS:
            raise ConfigError(f"unknown format {format!r}; known formats: {', '.join(FORMATS)}")
        return fmt
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes = suffixes[:-1]
    suffix = suffixes[-1] if suffixes else ""
    for fmt, known in FORMATS.items():
        if suffix in known:
            if fmt == "parquet" and path.suffix.lower() == ".gz":
                break
            return fmt
    known_suffixes = ", ".join(s for group in FORMATS.values() for s in group)
    raise InputError(
        f"cannot tell the format from the suffix {path.suffix or '(none)'!r}",
        file=str(path),
        hint=f"Rename the file with one of the suffixes {known_suffixes} (from Python you may instead "
        "pass load(..., format='jsonl'), or json, csv, tsv, parquet)",
    )


def _check_readable(path: Path, label: str) -> None:
    if not path.exists():
        raise InputError(
            "file not found",
            file=label,
            hint=f"Check the path (relative paths start from {os.getcwd()})",
        )
    if path.is_dir():
        raise InputError("is a directory, not a file", file=label, hint="Pass the data file inside it")
    if not os.access(path, os.R_OK):
        raise InputError("the file is not readable (permission denied)", file=label, hint="Check its permissions")
