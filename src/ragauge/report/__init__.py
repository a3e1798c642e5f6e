"""Writers for a run's results: JSON (the contract), HTML, Markdown, terminal table."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.results import Results

FILES = {"json": "results.json", "html": "report.html", "markdown": "report.md"}


def render_reports(results: "Results", out_dir: Path, *,
                   formats: Sequence[str] = ("json", "html", "markdown")) -> dict[str, tuple[Path, str]]:
    """Every requested file of a run rendered in memory: ``{format: (path, text)}``; ``results.json`` always.

    Nothing is written, so a failure while rendering (or a text that cannot be encoded) leaves the old
    files as they were."""
    import json

    unknown = [f for f in formats if f not in FILES]
    if unknown:
        raise ValueError(f"unknown report format {unknown[0]!r}; use {', '.join(FILES)}")
    doc = results.to_dict()
    out = {"json": (out_dir / FILES["json"], json.dumps(doc, ensure_ascii=False, indent=2, allow_nan=False) + "\n")}
    if "html" in formats:
        from .html import render_html

        out["html"] = (out_dir / FILES["html"], render_html(doc))
    if "markdown" in formats:
        from .markdown import render_markdown

        out["markdown"] = (out_dir / FILES["markdown"], render_markdown(doc))
    return out


def write_reports(results: "Results", out_dir: Path, *, formats: Sequence[str] = ("json", "html", "markdown")) -> dict[str, Path]:
    """Write ``results.json`` always, plus the requested report formats; return their paths.

    All files are rendered first, then replaced together (:func:`ragauge.files.write_files_atomically`):
    a full disk or an unencodable character raises :class:`~ragauge.errors.OutputError` naming the file
    and leaves the previous run's files whole."""
    from ..files import write_files_atomically

    rendered = render_reports(results, Path(out_dir), formats=formats)
    write_files_atomically({path: text for path, text in rendered.values()})
    return {fmt: path for fmt, (path, _) in rendered.items()}
