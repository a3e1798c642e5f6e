"""The calibration record: which judge (model, prompts hash) was last checked against human ratings.

``ragauge calibrate`` appends one record per run to ``.ragauge/calibration.json`` beside the project's
``ragauge.toml`` (or ``pyproject.toml`` with ``[tool.ragauge]``; else the current folder), or to the
path given with ``--record``. ``ragauge eval`` with an LLM judge calls :func:`calibration_reminder`: a
judge whose model, prompts hash or embeddings model differ from the last calibration -- or that was
never calibrated -- has scores nobody has checked against humans yet, and the run says so.

File (JSON, human-readable, safe to commit)::

    {"schema": "ragauge.calibration/1",
     "records": [{"judge": "llm", "model": "gpt-4o-mini", "version": "prompts-c6fcc66a7c3e",
                  "embeddings_model": null, "metric": "faithfulness", "date": "2025-05-01T10:00:00+00:00",
                  "n": 80, "spearman": 0.81, "kappa": 0.62, "verdict": "calibrated",
                  "judged": "runs/results.json", "human": "sheet.xlsx"}]}

The last record wins. Nothing here sends anything anywhere.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping

from ...errors import InputError

SCHEMA = "ragauge.calibration/1"
FILENAME = Path(".ragauge") / "calibration.json"

__all__ = ["FILENAME", "JudgeFingerprint", "append_record", "calibration_reminder", "default_record_path",
           "fingerprint_of", "last_record", "read_records"]


@dataclass(frozen=True, slots=True)
class JudgeFingerprint:
    """What decides a judge's scores: kind, model, prompts hash (``version``) and embeddings model."""

    judge: str
    model: str
    version: str
    embeddings_model: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"judge": self.judge, "model": self.model, "version": self.version,
                "embeddings_model": self.embeddings_model}

    @classmethod
    def from_mapping(cls, m: Mapping[str, Any]) -> "JudgeFingerprint":
        """From a record or a results.json judge provenance (``summary[metric].judge``)."""
        emb = m.get("embeddings_model")
        if emb is None and isinstance(m.get("embeddings"), Mapping):
            emb = m["embeddings"].get("model")
        return cls(str(m.get("judge") or "?"), str(m.get("model") or "?"), str(m.get("version") or "?"),
                   None if emb is None else str(emb))

    def changes_from(self, old: "JudgeFingerprint") -> list[str]:
        """What differs, in words: ``["model gpt-4o-mini -> gpt-4o", ...]``."""
        out = []
        for name, label in (("judge", "judge"), ("model", "model"), ("version", "prompts"),
                            ("embeddings_model", "embeddings model")):
            a, b = getattr(old, name), getattr(self, name)
            if a != b:
                out.append(f"{label} {a or 'none'} -> {b or 'none'}")
        return out


def fingerprint_of(judge: Any) -> JudgeFingerprint:
    """The fingerprint of a judge object (anything with ``provenance()``; the cascade: its LLM half)."""
    prov = judge.provenance()
    details = dict(getattr(prov, "details", {}) or {})
    if prov.judge == "cascade" and isinstance(details.get("llm"), Mapping):
        return JudgeFingerprint.from_mapping(details["llm"])
    return JudgeFingerprint.from_mapping({"judge": prov.judge, "model": prov.model, "version": prov.version,
                                          **details})


def default_record_path(start: Path | None = None) -> Path:
    """``.ragauge/calibration.json`` in the folder of the project's config file, else in ``start`` (cwd)."""
    from ...config import find_config

    found = find_config(start)
    root = found[0].parent if found else (start or Path.cwd())
    return root / FILENAME


def read_records(path: str | Path) -> list[dict[str, Any]]:
    """The records in ``path`` (``[]`` when the file does not exist); a broken file is an :class:`InputError`."""
    p = Path(path)
    if not p.exists():
        return []
    hint = f"delete {p} (it only holds past calibrations) and run ragauge calibrate again"
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"calibration record is not valid JSON ({exc})", file=str(p), hint=hint) from None
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA or not isinstance(doc.get("records"), list):
        raise InputError(f"not a calibration record (expected schema {SCHEMA!r} and a 'records' list)",
                         file=str(p), hint=hint)
    bad = [k for k, r in enumerate(doc["records"]) if not isinstance(r, dict)]
    if bad:
        raise InputError("a record that is not a JSON object", file=str(p), field=f"records[{bad[0]}]", hint=hint)
    return list(doc["records"])


def last_record(path: str | Path, *, judge: str | None = None) -> dict[str, Any] | None:
    """The newest record (of judge kind ``judge``, e.g. ``"llm"``, when given), or ``None``."""
    records = [r for r in read_records(path) if judge is None or r.get("judge") == judge]
    return records[-1] if records else None


def append_record(path: str | Path, fingerprint: JudgeFingerprint, *, metric: str, figures: Mapping[str, Any],
                  sources: Mapping[str, str] | None = None, now: datetime | None = None) -> dict[str, Any]:
    """Add one record (fingerprint, metric, date, agreement ``figures``) to ``path``; returns it."""
    from ...files import write_text_atomically

    p = Path(path)
    records = read_records(p)
    record = {**fingerprint.to_dict(), "metric": metric,
              "date": (now or datetime.now(timezone.utc)).isoformat(timespec="seconds"),
              **dict(figures), **dict(sources or {})}
    records.append(record)
    p.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomically(p, json.dumps({"schema": SCHEMA, "records": records}, ensure_ascii=False, indent=1) + "\n")
    return record


_TEXT = {
    "en": {"never": "the LLM judge ({fp}) has never been calibrated against human ratings ({path} has no record): "
                    "its scores are unchecked. Export a sheet with 'ragauge calibrate export RESULTS.json --out "
                    "sheet.xlsx', have people rate it, then run 'ragauge calibrate RESULTS.json --human sheet.xlsx'.",
           "changed": "the LLM judge changed since its last calibration on {date} ({changes}): the agreement measured "
                      "then ({figures}) may no longer hold. Calibrate again: 'ragauge calibrate export RESULTS.json "
                      "--out sheet.xlsx', rate, 'ragauge calibrate RESULTS.json --human sheet.xlsx'.",
           "unreadable": "cannot tell whether the LLM judge was calibrated: {error}"},
    "ru": {"never": "LLM-судья ({fp}) ещё ни разу не сверялся с оценками людей (в {path} нет записи): его оценкам "
                    "пока нельзя доверять. Выгрузите лист: 'ragauge calibrate export RESULTS.json --out sheet.xlsx', "
                    "дайте людям оценить ответы и запустите 'ragauge calibrate RESULTS.json --human sheet.xlsx'.",
           "changed": "LLM-судья изменился после калибровки {date} ({changes}): согласие, измеренное тогда "
                      "({figures}), может больше не выполняться. Откалибруйте заново: 'ragauge calibrate export "
                      "RESULTS.json --out sheet.xlsx', оценки людей, 'ragauge calibrate RESULTS.json --human sheet.xlsx'.",
           "unreadable": "не удалось понять, калибровался ли LLM-судья: {error}"},
}


def _figures(record: Mapping[str, Any]) -> str:
    parts = [f"{record.get('metric', '?')}"]
    if isinstance(record.get("spearman"), (int, float)):
        parts.append(f"Spearman {record['spearman']:.2f}")
    if record.get("verdict"):
        parts.append(str(record["verdict"]))
    return ", ".join(parts)


def calibration_reminder(judge: Any, *, path: str | Path | None = None, lang: str = "en") -> str | None:
    """The reminder to print for ``judge`` (an LLM or cascade judge), or ``None`` when its model, prompts
    hash and embeddings model equal the last calibration record's. ``path``: the record file (default
    :func:`default_record_path`); ``lang``: ``"en"`` or ``"ru"``. Never raises on a broken record file:
    the reminder then says it cannot be read."""
    text = _TEXT["ru" if lang == "ru" else "en"]
    where = Path(path) if path is not None else default_record_path()
    fp = fingerprint_of(judge)
    try:
        last = last_record(where, judge=fp.judge)
    except InputError as exc:
        return text["unreadable"].format(error=exc)
    if last is None:
        return text["never"].format(fp=f"{fp.model}, {fp.version}", path=where)
    changes = fp.changes_from(JudgeFingerprint.from_mapping(last))
    if not changes:
        return None
    return text["changed"].format(date=str(last.get("date", "?"))[:10], changes="; ".join(changes),
                                  figures=_figures(last))
