"""The calibration sheet: judged answers exported for human 1-5 ratings, and read back.

``ragauge calibrate export RESULTS.json --out sheet.xlsx|csv`` writes one row per sampled answer --
``id, metric, question, answer, contexts`` (each context cut to :data:`CONTEXT_CHARS`), the rater's
columns ``human_rating`` (1-5, empty = not rated) and ``comment``, then the judge's ``judge_score`` and
``judge_reasons`` (left out with ``--blind``: a rater who sees the judge's number tends to agree with
it). Answers are sampled stratified by judge score (:func:`ragauge.stats.agreement.stratified_sample`).
Cells are written as the review export writes them (:mod:`ragauge.generate._review_table`): control
characters dropped, formula-looking cells neutralised with a leading ``'`` in CSV and stored as text in
XLSX. Instructions in Russian and English: the ``about`` sheet of the XLSX, or ``<name>.about.txt``
beside a CSV. ``ragauge calibrate RESULTS.json --human sheet.xlsx`` reads the sheet back.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..errors import InputError, MissingDependencyError

RATING = "human_rating"
#: (column, width, filled in by the rater)
COLUMNS: tuple[tuple[str, int, bool], ...] = (
    ("id", 12, False), ("metric", 14, False), ("question", 40, False), ("answer", 60, False),
    ("contexts", 70, False), (RATING, 13, True), ("comment", 30, True),
    ("judge_score", 12, False), ("judge_reasons", 60, False),
)
BLIND_DROP = ("judge_score", "judge_reasons")
CONTEXT_CHARS = 600  #: each context is cut to this many characters (the rater judges the answer, not the corpus)
SCALE = (1, 5)
INSTRUCTIONS = (
    ("en", "Rate each answer in the column human_rating from 1 to 5 for the metric named in the column 'metric' "
           "(faithfulness: is every statement of the answer supported by the contexts?). 1 = not at all, "
           "3 = partly, 5 = fully. Leave the cell empty if you cannot judge. Rate before you read judge_score "
           "and judge_reasons. Do not change id, and do not add or delete rows."),
    ("ru", "Оцените каждый ответ в столбце human_rating от 1 до 5 по метрике из столбца metric "
           "(faithfulness: подтверждается ли каждое утверждение ответа контекстами?). 1 — совсем нет, "
           "3 — частично, 5 — полностью. Если не можете оценить, оставьте ячейку пустой. Ставьте оценку "
           "до того, как прочтёте judge_score и judge_reasons. Не меняйте id, не добавляйте и не удаляйте строки."),
)


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _reasons(artifact: Any, unscored: Any) -> str:
    """The judge's reasons for a score, one line per claim (``+`` supported, ``-`` not, ``x`` contradicted)."""
    if not isinstance(artifact, Mapping):
        return str(unscored or "")
    mark = {"supported": "+", "contradicted": "x"}
    lines = []
    for c in artifact.get("claims") or []:
        if isinstance(c, Mapping):
            reason = f" ({c['reason']})" if c.get("reason") else ""
            lines.append(f"{mark.get(str(c.get('verdict')), '-')} {c.get('text', '')}{reason}")
    if not lines:
        lines = [f"{k}: {v}" for k, v in artifact.items() if isinstance(v, (str, int, float, bool))]
    return "\n".join(lines)


def _contexts(doc: Mapping[str, Any], data: str | None, results: str) -> tuple[dict[str, list[str]], str]:
    """``{id: [context text]}`` from ``data`` (or the data file the run names, if it still exists)."""
    path = data or (doc.get("source") or {}).get("path")
    if not path:
        return {}, "no data file given (--data) and the run names none: the contexts column is empty"
    if not Path(path).is_file():
        if data:
            raise InputError("data file not found", file=data, field="--data",
                             hint="pass the samples file the run was evaluated on")
        return {}, f"the run's data file {path} is not there (pass --data): the contexts column is empty"
    from ..data import load

    return {s.id: [c.text for c in s.contexts] for s in load(path)}, f"contexts from {path}"


def sheet_rows(doc: Mapping[str, Any], *, metric: str, n: int, seed: int, results: str,
               data: str | None = None) -> tuple[list[dict[str, str]], str]:
    """The sampled rows (as cell texts) and a note on where the contexts came from."""
    from ..stats.agreement import stratified_sample
    from ..stats.runs import run_scores

    run = run_scores(doc, source=results)
    if metric not in run.scores:
        raise InputError(f"metric '{metric}' is not in the judged run", file=results, field="--metric",
                         hint=f"metrics in it: {', '.join(run.scores) or 'none'}")
    if n < 1:
        raise InputError("--n must be at least 1", field="--n", value=n)
    scored = [i for i in run.ids if run.scores[metric][i] is not None]
    if not scored:
        raise InputError(f"no sample has a {metric} score to rate", file=results, field=metric,
                         hint="evaluate with a judge first (ragauge eval --judge ...)")
    bounds = list(run.specs[metric].get("range") or []) + [None, None]
    lo = float(bounds[0]) if bounds[0] is not None else 0.0
    hi = float(bounds[1]) if bounds[1] is not None else 1.0
    picked = stratified_sample([run.scores[metric][i] for i in scored], n, lo=lo, hi=hi if hi > lo else lo + 1,
                               seed=seed)
    contexts, note = _contexts(doc, data, results)
    by_id = {s.get("id"): s for s in doc.get("samples") or [] if isinstance(s, Mapping)}
    rows = []
    for k in picked:
        sid = scored[k]
        s = by_id[sid]
        ctx = contexts.get(sid, [])
        rows.append({
            "id": sid, "metric": metric, "question": str(s.get("question") or ""), "answer": str(s.get("answer") or ""),
            "contexts": "\n\n".join(f"[{j}] {_short(t, CONTEXT_CHARS)}" for j, t in enumerate(ctx, 1)),
            RATING: "", "comment": "", "judge_score": f"{run.scores[metric][sid]:.3f}",
            "judge_reasons": _reasons((s.get("artifacts") or {}).get(metric), (s.get("unscored") or {}).get(metric)),
        })
    return rows, note


def _names(blind: bool) -> list[tuple[str, int, bool]]:
    return [c for c in COLUMNS if not (blind and c[0] in BLIND_DROP)]


def write_sheet(rows: Sequence[Mapping[str, str]], out: str | Path, *, about: Sequence[tuple[str, str]],
                blind: bool = False) -> Path:
    """Write the sheet as .xlsx or .csv (by suffix); returns the path written (the CSV's about file beside)."""
    from ..files import write_text_atomically
    from ..generate._review_table import clean, neutralise

    path = Path(out)
    cols = _names(blind)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        buf = io.StringIO()
        writer = csv.writer(buf, delimiter=";", lineterminator="\r\n")
        writer.writerow([c[0] for c in cols])
        for r in rows:
            writer.writerow([neutralise(clean(r.get(c[0], ""))) for c in cols])
        write_text_atomically(path, buf.getvalue(), encoding="utf-8-sig")
        write_text_atomically(path.with_suffix(".about.txt"), "\n".join(f"{k}: {v}" for k, v in about) + "\n")
        return path
    if suffix != ".xlsx":
        raise InputError(f"unknown sheet type {path.suffix!r}", file=str(path), field="--out",
                         hint="use a .xlsx (Excel, recommended) or .csv file name")
    _write_xlsx(rows, path, cols, about)
    return path


def _write_xlsx(rows: Sequence[Mapping[str, str]], path: Path, cols: Sequence[tuple[str, int, bool]],
                about: Sequence[tuple[str, str]]) -> None:
    try:
        from openpyxl import Workbook
        from openpyxl.styles import Alignment, Font, PatternFill
        from openpyxl.utils import get_column_letter
        from openpyxl.worksheet.datavalidation import DataValidation
    except ImportError:
        raise MissingDependencyError("openpyxl", feature="Calibration sheets in .xlsx", extra="generate") from None
    from ..files import write_bytes_atomically
    from ..generate._review_table import clean

    book = Workbook()
    ws = book.active
    ws.title = "ratings"
    wrap = Alignment(wrap_text=True, vertical="top")
    fill = PatternFill("solid", fgColor="FFF2CC")
    for j, (name, width, editable) in enumerate(cols, 1):
        cell = ws.cell(row=1, column=j, value=name)
        cell.font = Font(bold=True, color="FFFFFF")
        cell.fill = PatternFill("solid", fgColor="C65911" if editable else "305496")
        ws.column_dimensions[get_column_letter(j)].width = width
    for i, r in enumerate(rows, 2):
        for j, (name, _, editable) in enumerate(cols, 1):
            cell = ws.cell(row=i, column=j)
            cell.value = clean(r.get(name, "")) or None
            if cell.value is not None:
                cell.data_type = "s"  # an answer starting with "=" is text, not a formula
            cell.alignment = wrap
            if editable:
                cell.fill = fill
    ws.freeze_panes = "B2"
    last = max(len(rows) + 1, 2)
    col = get_column_letter([c[0] for c in cols].index(RATING) + 1)
    dv = DataValidation(type="whole", operator="between", formula1=str(SCALE[0]), formula2=str(SCALE[1]),
                        allow_blank=True, showErrorMessage=True, errorTitle=RATING,
                        error="a whole number from 1 to 5 (empty = not rated)")
    dv.add(f"{col}2:{col}{last}")
    ws.add_data_validation(dv)
    info = book.create_sheet("about")
    info.column_dimensions["A"].width, info.column_dimensions["B"].width = 18, 110
    for i, (key, value) in enumerate(about, 1):
        info.cell(row=i, column=1, value=key).font = Font(bold=True)
        c = info.cell(row=i, column=2, value=clean(value))
        c.data_type, c.alignment = "s", wrap
    data = io.BytesIO()
    book.save(data)
    write_bytes_atomically(path, data.getvalue())


def about_lines(*, results: str, metric: str, n: int, seed: int, note: str, blind: bool) -> list[tuple[str, str]]:
    return [("exported from", results), ("metric", metric),
            ("sample", f"{n} answers, stratified by judge score (seed {seed})"), ("contexts", note),
            ("judge columns", "left out (--blind)" if blind else "judge_score, judge_reasons: read them after rating"),
            *[(f"instructions ({lang})", text) for lang, text in INSTRUCTIONS],
            ("read back", f"ragauge calibrate {results} --human THIS_FILE --metric {metric}")]


# --- reading ------------------------------------------------------------------------------------------
def read_rows(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """``(row number, {column: cell text})`` of a CSV (any of ``; , tab``; UTF-8/UTF-16/cp1251) or XLSX
    (sheet ``ratings``, else the first), formula quotes undone; blank rows skipped; header = row 1."""
    if path.suffix.lower() == ".xlsx":
        records = _xlsx_records(path)
    else:
        from ..data._delimiter import detect_delimiter
        from ..generate._encoding import decode_bytes
        from ..generate._review_table import clean, unquote

        text, _ = decode_bytes(path.read_bytes(), file=str(path))
        first = text.split("\n", 1)[0]
        delim = "\t" if path.suffix.lower() == ".tsv" else detect_delimiter(first, default=",",
                                                                            candidates=(",", ";", "\t"))
        records = [[unquote(clean(c)) for c in rec] for rec in csv.reader(io.StringIO(text, newline=""),
                                                                           delimiter=delim)]
    if not records:
        return []
    header = [h.strip() for h in records[0]]
    out = []
    for k, cells in enumerate(records[1:], 2):
        if any(str(c).strip() for c in cells):
            out.append((k, {h: cells[j] if j < len(cells) else "" for j, h in enumerate(header) if h}))
    return out


def _xlsx_records(path: Path) -> list[list[str]]:
    try:
        from openpyxl import load_workbook
    except ImportError:
        raise MissingDependencyError("openpyxl", feature="Reading .xlsx ratings", extra="generate") from None
    from ..generate._review_table import _cell_text

    try:
        book = load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # zipfile / KeyError / InvalidFileException for a broken file
        raise InputError(f"cannot read the workbook ({type(exc).__name__}: {exc})", file=str(path),
                         hint="save it again from Excel as .xlsx") from None
    try:
        ws = book["ratings"] if "ratings" in book.sheetnames else book.worksheets[0]
        return [[_cell_text(v) for v in r] for r in ws.iter_rows(values_only=True)]
    finally:
        book.close()


def check_sheet(rows: Sequence[tuple[int, Mapping[str, Any]]], *, file: str, metric: str) -> None:
    """A calibration sheet's own rules: its ``metric`` column names the metric being calibrated, and every
    ``human_rating`` is empty or a number from 1 to 5."""
    for line, row in rows:
        named = str(row.get("metric") or "").strip()
        if named and named != metric:
            raise InputError(f"the sheet rates '{named}', not '{metric}'", file=file, line=line, field="metric",
                             hint=f"run with --metric {named}")
        raw = str(row.get(RATING) or "").strip()
        if not raw:
            continue
        try:
            value = float(raw.replace(",", "."))
        except ValueError:
            raise InputError("a rating that is not a number", file=file, line=line, field=RATING, value=raw,
                             hint="write a whole number from 1 to 5, or leave the cell empty") from None
        if not SCALE[0] <= value <= SCALE[1]:
            raise InputError("a rating outside 1-5", file=file, line=line, field=RATING, value=raw,
                             hint="ratings are 1 (not at all) to 5 (fully); leave the cell empty if unsure")


def export(results: str, out: str, *, metric: str, n: int, seed: int, data: str | None, blind: bool) -> str:
    """Read ``results``, sample, write the sheet; returns a one-line summary."""
    from .compare import load_results

    doc = load_results(results)
    rows, note = sheet_rows(doc, metric=metric, n=n, seed=seed, results=results, data=data)
    about = about_lines(results=results, metric=metric, n=len(rows), seed=seed, note=note, blind=blind)
    path = write_sheet(rows, out, about=about, blind=blind)
    extra = f" (instructions in {path.with_suffix('.about.txt').name})" if path.suffix.lower() == ".csv" else ""
    return (f"wrote {len(rows)} answers to rate ({metric}, stratified by judge score) to {path}{extra}; {note}. "
            f"Read back with: ragauge calibrate {results} --human {path} --metric {metric}")


__all__ = ["COLUMNS", "RATING", "check_sheet", "export", "read_rows", "sheet_rows", "write_sheet"]
