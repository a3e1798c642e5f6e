"""Writers for a run's results: JSON (the contract), HTML, Markdown, terminal table."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.results import Results

FILES = {"json": "results.json", "html": "report.html", "markdown": "report.md"}


def write_reports(results: "Results", out_dir: Path, *, formats: Sequence[str] = ("json", "html", "markdown")) -> dict[str, Path]:
    """Write ``results.json`` always, plus the requested report formats; return their paths."""
    from ..errors import InputError

    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create the output folder: {exc.strerror}", file=str(out_dir),
                         hint="choose another --out folder") from None
    doc = results.to_dict()
    written: dict[str, Path] = {}
    import json

    path = out_dir / FILES["json"]
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=2, allow_nan=False) + "\n", encoding="utf-8")
    written["json"] = path
    for fmt in formats:
        if fmt == "json":
            continue
        if fmt == "html":
            from .html import render_html

            text = render_html(doc)
        elif fmt == "markdown":
            from .markdown import render_markdown

            text = render_markdown(doc)
        else:
            raise ValueError(f"unknown report format {fmt!r}")
        p = out_dir / FILES[fmt]
        p.write_text(text, encoding="utf-8")
        written[fmt] = p
    return written
