"""Golden files on disk: read and write the JSONL, and version it with a sidecar ``*.meta.json``.

Why a sidecar and not a header line: ``ragauge.data.load`` reports every JSONL line that is not a
sample (a header line would be "missing field 'question'"), so a golden file stays a plain list of
samples that ``ragauge eval golden.jsonl`` reads unchanged, and its version lives next to it::

    golden.jsonl       -> golden.meta.json
    golden.v2.jsonl    -> golden.v2.meta.json

The sidecar (``format: "ragauge-golden"``) holds: ``version`` (1 for a generated set, +1 for every
review import), ``sha256`` of the JSONL bytes (so a hand edit after writing is detectable:
:func:`read_version` reports ``modified``), ``created`` (when this version was written),
``generated`` (when version 1 was), ``reviewed`` (when the last review was imported, else ``null``),
``counts`` (cases, by type, by slice, by review status), ``parent`` (version, sha256 and file of the
version it was made from; ``null`` for version 1) and ``history`` (one entry per version, oldest
first). A golden file without a sidecar (written by hand or by an older tool) counts as version 1.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from ragauge.errors import InputError, OutputError
from ragauge.files import write_files_atomically
from ragauge.generate.case import GoldenCase

FORMAT = "ragauge-golden"
FORMAT_VERSION = 1


def utc_now() -> str:
    """The current UTC time as ``2026-11-30T20:15:00Z`` (seconds; what the sidecar stores)."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def meta_path(golden_path: str | Path) -> Path:
    """``golden.jsonl`` -> ``golden.meta.json`` (the last suffix is replaced; none: appended)."""
    p = Path(golden_path)
    stem = p.name[: -len(p.suffix)] if p.suffix else p.name
    return p.with_name(stem + ".meta.json")


def file_sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def read_golden(path: str | Path) -> list[GoldenCase]:
    """Golden cases from a JSONL file (blank lines skipped); every bad line is an :class:`InputError`."""
    from ..data.jsonl import read_json_objects

    path = Path(path)
    cases: list[GoldenCase] = []
    seen: dict[str, int] = {}
    for lineno, row in read_json_objects(path, what="golden file", hint="Pass the golden JSONL written by 'ragauge generate'"):
        if not isinstance(row, dict) or "id" not in row or "question" not in row:
            raise InputError("not a golden case (needs at least 'id' and 'question')", file=str(path),
                             line=lineno, hint="Pass the golden JSONL written by 'ragauge generate'")
        try:
            case = GoldenCase.from_row(row)
        except (ValueError, TypeError) as exc:
            raise InputError(str(exc), file=str(path), line=lineno, field="metadata",
                             hint="Fix the case's type, slices or expected_behaviour") from None
        if case.id in seen:
            raise InputError(f"duplicate id (first on line {seen[case.id]})", file=str(path), line=lineno,
                             field="id", value=case.id, hint="Every case needs its own id")
        seen[case.id] = lineno
        cases.append(case)
    return cases


def counts(cases: Sequence[GoldenCase]) -> dict[str, Any]:
    """How many cases, by type, by slice and by review status (``"not reviewed"`` without a review entry)."""
    status = Counter(str((c.extra.get("review") or {}).get("status", "not reviewed")) for c in cases)
    return {"cases": len(cases),
            "by_type": dict(sorted(Counter(c.type for c in cases).items())),
            "by_slice": dict(sorted(Counter(s for c in cases for s in c.slices).items())),
            "by_review_status": dict(sorted(status.items()))}


@dataclass(frozen=True)
class GoldenVersion:
    """What is known about one golden file's version."""

    path: Path
    version: int
    sha256: str  #: of the file's bytes now
    meta: Mapping[str, Any] | None  #: the sidecar, ``None`` when there is none
    modified: bool  #: the file's bytes differ from the hash its sidecar recorded (edited by hand)


def read_version(golden_path: str | Path) -> GoldenVersion:
    """The version of ``golden_path`` from its sidecar (version 1 when there is none)."""
    path = Path(golden_path)
    sha = file_sha256(path)
    mp = meta_path(path)
    if not mp.exists():
        return GoldenVersion(path, 1, sha, None, False)
    try:
        meta = json.loads(mp.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"version sidecar is not valid JSON ({exc})", file=str(mp),
                         hint="Delete it to treat the golden file as version 1, or restore it") from None
    version = meta.get("version") if isinstance(meta, dict) else None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT or not isinstance(version, int) or version < 1:
        raise InputError("not a ragauge golden sidecar (needs format 'ragauge-golden' and an integer version >= 1)",
                         file=str(mp), hint="Delete it to treat the golden file as version 1, or restore it")
    return GoldenVersion(path, version, sha, meta, meta.get("sha256") != sha)


def write_golden(cases: Iterable[GoldenCase], path: str | Path, *, parent: GoldenVersion | None = None,
                 event: str = "generated", details: Mapping[str, Any] | None = None,
                 now: str | None = None, also: Mapping[str | Path, str | bytes] | None = None) -> dict[str, Any]:
    """Write ``cases`` as UTF-8 JSONL and its sidecar; return the sidecar's content.

    ``parent``: the version this one is made from (``None``: a new set, version 1). ``event``:
    ``"generated"`` or ``"reviewed"`` (sets the ``reviewed`` time). ``details`` go into the new
    history entry (e.g. the review file and its counts). ``now``: the timestamp to record (tests).
    ``also``: other files of the same run (the knowledge base, the review audit), path -> content.

    The files are replaced together or not at all (:func:`ragauge.files.write_files_atomically`): a
    full disk raises :class:`~ragauge.errors.OutputError` naming the file and leaves the old golden
    file, its sidecar and the other files as they were, so the sidecar never describes another file.
    """
    path = Path(path)
    cases = list(cases)
    ids = [c.id for c in cases]
    if len(set(ids)) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise InputError("duplicate case id", field="id", value=dup, hint="Every case needs its own id")
    now = now or utc_now()
    text = "".join(json.dumps(c.to_row(), ensure_ascii=False) + "\n" for c in cases)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate (e.g. from a broken PDF text layer)
        raise OutputError(f"a case holds text that cannot be written as UTF-8 ({text[exc.start:exc.end]!r} at "
                          f"character {exc.start}); nothing was written, the old files are kept as they were",
                          file=str(path), hint="Fix or remove the document the text came from") from None
    sha = hashlib.sha256(data).hexdigest()
    old = dict(parent.meta) if parent is not None and parent.meta is not None else {}
    history = list(old.get("history") or [])
    if parent is not None and not history:  # a parent without a sidecar: record it as version 1
        history.append({"version": parent.version, "sha256": parent.sha256, "file": parent.path.name,
                        "event": "unversioned", "at": None})
    version = parent.version + 1 if parent is not None else 1
    entry: dict[str, Any] = {"version": version, "sha256": sha, "file": path.name, "event": event, "at": now}
    if parent is not None and parent.modified:
        entry["parent_modified"] = "the parent file was edited after its sidecar was written"
    entry.update(details or {})
    history.append(entry)
    meta = {
        "format": FORMAT, "format_version": FORMAT_VERSION, "version": version, "sha256": sha, "file": path.name,
        "created": now, "generated": old.get("generated") if parent is not None else now,
        "reviewed": now if event == "reviewed" else old.get("reviewed"),
        "counts": counts(cases),
        "parent": None if parent is None else {"version": parent.version, "sha256": parent.sha256,
                                               "file": parent.path.name},
        "history": history,
    }
    files: dict[str | Path, str | bytes] = {path: data,
                                            meta_path(path): json.dumps(meta, ensure_ascii=False, indent=2) + "\n"}
    files.update(also or {})
    write_files_atomically(files)
    return meta


__all__ = ["GoldenVersion", "counts", "file_sha256", "meta_path", "read_golden", "read_version", "utc_now",
           "write_golden"]
