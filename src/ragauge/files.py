"""Output files that are replaced whole or not at all.

Every file ragauge writes (results, reports, golden sets, baselines, metadata) goes through here: the text
is written to a temporary file in the same folder, flushed and fsynced, then renamed over the target. A
full disk, a kill or an unencodable character leaves the old file as it was, never a half-written one.
A run's several files are replaced together by :func:`write_files_atomically`: all of them are written
to temporaries first and renamed only when every one of them was written.

Errors are :class:`~ragauge.errors.OutputError` naming the file and the cause.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Mapping

from .errors import OutputError

__all__ = ["write_text_atomically", "write_bytes_atomically", "write_files_atomically"]


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. a platform without directory fds
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def _mode_for(target: Path) -> int:
    """The permission bits the new file gets: the old file's, else what ``open()`` would give (0666 less the
    umask). ``mkstemp`` alone makes 0600 files, which a teammate or a web server could no longer read."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _resolve(path: str | os.PathLike[str]) -> Path:
    """The file a path names, through symlinks: writing ``link -> a.txt`` replaces ``a.txt``, not the link."""
    p = Path(path)
    return Path(os.path.realpath(p)) if p.is_symlink() else p


def _stage(target: Path, data: bytes) -> Path:
    """Write ``data`` to a fsynced temporary file beside ``target``; return its path."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise OutputError(f"cannot write here: {exc.strerror or exc}", file=str(target)) from None
    tmp = Path(name)
    try:
        os.fchmod(fd, _mode_for(target))
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise OutputError(f"cannot write the file: {exc.strerror or exc}; the old file is kept as it was",
                          file=str(target)) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def _encode(target: Path, text: str, encoding: str) -> bytes:
    try:
        return text.encode(encoding)
    except UnicodeEncodeError as exc:
        bad = text[exc.start:exc.end]
        raise OutputError(f"text that cannot be written as {encoding} ({bad!r} at character {exc.start}); "
                          "the old file is kept as it was", file=str(target)) from None


def write_bytes_atomically(path: str | os.PathLike[str], data: bytes) -> Path:
    """Replace ``path`` with ``data`` whole or not at all; return the path."""
    write_files_atomically({path: data})
    return Path(path)


def write_text_atomically(path: str | os.PathLike[str], text: str, *, encoding: str = "utf-8") -> Path:
    """Replace ``path`` with ``text`` whole or not at all; return the path."""
    target = Path(path)
    return write_bytes_atomically(target, _encode(target, text, encoding))


def write_files_atomically(files: Mapping[str | os.PathLike[str], str | bytes], *,
                           encoding: str = "utf-8") -> dict[Path, Path]:
    """Replace several files together: all are staged first, then renamed one after another.

    If staging any of them fails, none is replaced and the error names the file. (The renames themselves
    are not one atomic step across files, but a rename does not fail for lack of space.)
    """
    staged: list[tuple[Path, Path]] = []
    try:
        encoded = [(_resolve(p), d if isinstance(d, bytes) else _encode(Path(p), d, encoding)) for p, d in files.items()]
        for target, data in encoded:
            staged.append((_stage(target, data), target))
        for tmp, target in staged:
            try:
                os.replace(tmp, target)
            except OSError as exc:
                raise OutputError(f"cannot replace the file: {exc.strerror or exc}", file=str(target)) from None
        for folder in {t.parent for _, t in staged}:
            _fsync_dir(folder)
    finally:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
    return {Path(p): Path(p) for p in files}
