"""Output files of the generator, the review import, the baseline and the reference-RAG index (issue 14):
a write that fails half-way (a full disk, an unencodable character) leaves the old files byte-identical
and the error names the file; the CLI exits 2, not 70."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import numpy as np
import pytest

from ragauge.cli.main import main
from ragauge.errors import ExitCode, OutputError
from ragauge.generate.case import GoldenCase
from ragauge.generate.kb import write_kb_jsonl
from ragauge.generate.versioning import meta_path, write_golden


def _cases(question: str = "Сколько стоит штукатурка?") -> list[GoldenCase]:
    return [GoldenCase("g-1", question, "450 руб. за м²", ("price#a-0",), "simple", ("numbers",)),
            GoldenCase("g-2", "What is the warranty?", "12 months.", ("w#b-0",), "simple", ("entities",),
                       language="en")]


def _full_disk_on(monkeypatch: pytest.MonkeyPatch, nth: int) -> list[int]:
    """``os.fsync`` raises ENOSPC on its ``nth`` call (files are staged, i.e. fsynced, one after another)."""
    calls = [0]
    real = os.fsync

    def fsync(fd: int) -> None:
        calls[0] += 1
        if calls[0] == nth:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return calls


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_golden_and_sidecar_are_replaced_together_or_not_at_all(tmp_path: Path, monkeypatch) -> None:
    golden = tmp_path / "golden.jsonl"
    write_golden(_cases("Old question?"), golden, now="2026-01-01T00:00:00Z")
    before = _snapshot(tmp_path)
    _full_disk_on(monkeypatch, 2)  # golden.jsonl staged, golden.meta.json fails
    with pytest.raises(OutputError, match="No space left on device") as err:
        write_golden(_cases(), golden, now="2026-02-01T00:00:00Z")
    assert err.value.file == str(meta_path(golden))
    assert _snapshot(tmp_path) == before  # no temporary left behind, the old pair intact
    monkeypatch.undo()
    meta = write_golden(_cases(), golden, now="2026-02-01T00:00:00Z")
    assert meta["sha256"] == json.loads(meta_path(golden).read_text(encoding="utf-8"))["sha256"]


def test_a_lone_surrogate_writes_nothing_and_names_the_file(tmp_path: Path) -> None:
    golden = tmp_path / "golden.jsonl"
    write_golden(_cases(), golden)
    before = _snapshot(tmp_path)
    with pytest.raises(OutputError, match=r"cannot be written as UTF-8 \('\\ud800'") as err:
        write_golden(_cases("Broken \ud800 text?"), golden)
    assert err.value.file == str(golden)
    assert _snapshot(tmp_path) == before


def test_kb_jsonl_is_kept_when_its_write_fails(tmp_path: Path, monkeypatch) -> None:
    from ragauge.generate.chunking import Chunk

    kb = tmp_path / "kb.jsonl"
    kb.write_text('{"id": "old", "text": "old"}\n', encoding="utf-8")
    before = kb.read_bytes()
    chunk = Chunk(id="d#0", doc_id="d", text="Новый текст.", section=(), start=0, end=12, kind="text", ordinal=0,
                  title="T")
    _full_disk_on(monkeypatch, 1)
    with pytest.raises(OutputError) as err:
        write_kb_jsonl([chunk], kb)
    assert err.value.file == str(kb) and kb.read_bytes() == before


def test_review_import_writes_golden_sidecar_and_audit_together(tmp_path: Path, monkeypatch) -> None:
    pytest.importorskip("openpyxl")
    from ragauge.generate.review import audit_path_for, export_review, import_review

    golden = tmp_path / "golden.jsonl"
    write_golden(_cases(), golden)
    sheet = export_review(golden, tmp_path / "review.xlsx")
    out = tmp_path / "golden.v2.jsonl"
    _full_disk_on(monkeypatch, 3)  # golden.v2.jsonl and its sidecar staged, the audit fails
    with pytest.raises(OutputError) as err:
        import_review(sheet, golden, out)
    assert err.value.file == str(audit_path_for(out))
    assert not out.exists() and not meta_path(out).exists() and not audit_path_for(out).exists()
    monkeypatch.undo()
    result = import_review(sheet, golden, out)
    audit = [json.loads(line) for line in result.audit_path.read_text(encoding="utf-8").splitlines()]
    assert {a["golden_version"] for a in audit} == {result.meta["version"]} == {2}


def _docs(folder: Path) -> Path:
    folder.mkdir()
    (folder / "prices.md").write_text(
        "# Прайс-лист\n\nред. от 01.03.2026\n\n| Работа | Ед. | Цена, руб. |\n|---|---|---|\n"
        "| Штукатурка | м² | 450 |\n| Шпаклёвка | м² | 380 |\n| Укладка ламината | м² | 520 |\n\n"
        "Гарантия на работы составляет 12 месяцев с даты подписания акта.\n", encoding="utf-8")
    return folder


def test_generate_cli_on_a_full_disk_exits_2_and_keeps_the_old_run(tmp_path: Path, monkeypatch, capsys) -> None:
    pytest.importorskip("pymorphy3")
    docs = _docs(tmp_path / "docs")
    out_dir = tmp_path / "set"
    out_dir.mkdir()
    for name in ("golden.jsonl", "golden.meta.json", "kb.jsonl"):
        (out_dir / name).write_text(f"old {name}\n", encoding="utf-8")
    before = _snapshot(out_dir)
    _full_disk_on(monkeypatch, 3)  # the golden file and its sidecar staged, kb.jsonl fails
    code = main(["generate", str(docs), "--out", str(out_dir / "golden.jsonl"), "--n", "5", "-q"])
    err = capsys.readouterr().err
    assert code == ExitCode.USAGE == 2
    assert str(out_dir / "kb.jsonl") in err and "No space left on device" in err and "Traceback" not in err
    assert _snapshot(out_dir) == before
    monkeypatch.undo()
    assert main(["generate", str(docs), "--out", str(out_dir / "golden.jsonl"), "--n", "5", "-q"]) == 0
    assert _snapshot(out_dir) != before


def test_baseline_save_on_a_full_disk_exits_2_and_keeps_the_old_baseline(tmp_path: Path, monkeypatch,
                                                                        capsys) -> None:
    rows = [{"id": f"q{i}", "question": "Сколько стоит доставка?", "retrieved_ids": ["a", "b"],
             "relevant_ids": {"a": 1}} for i in range(5)]
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    assert main(["eval", str(data), "--out", str(tmp_path / "run"), "--profile", "none", "--metrics", "mrr@5",
                 "--quiet"]) == 0
    target = tmp_path / "ragauge-baseline.json"
    target.write_text('{"old": "baseline"}\n', encoding="utf-8")
    capsys.readouterr()
    _full_disk_on(monkeypatch, 1)
    assert main(["baseline", "save", str(tmp_path / "run"), "--to", str(target)]) == 2
    err = capsys.readouterr().err
    assert str(target) in err and "No space left on device" in err
    assert target.read_text(encoding="utf-8") == '{"old": "baseline"}\n'
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary left
    monkeypatch.undo()
    assert main(["baseline", "save", str(tmp_path / "run"), "--to", str(target)]) == 0
    assert json.loads(target.read_text(encoding="utf-8"))["samples"]


class _Embedder:
    model_id, dim = "fake-3", 3

    def embed(self, texts):  # noqa: ANN001, ANN201
        return np.array([[len(t), 1.0, 0.0] for t in texts], dtype=np.float32)


def test_index_files_are_replaced_together(tmp_path: Path, monkeypatch) -> None:
    from ragauge.rag.index import HybridIndex

    old = HybridIndex([{"id": "a", "text": "старый текст"}], embedder=_Embedder())
    old.save(tmp_path / "idx")
    before = _snapshot(tmp_path / "idx")
    new = HybridIndex([{"id": "a", "text": "новый текст"}, {"id": "b", "text": "ещё"}], embedder=_Embedder())
    _full_disk_on(monkeypatch, 2)
    with pytest.raises(OutputError) as err:
        new.save(tmp_path / "idx")
    assert err.value.file == str(tmp_path / "idx" / "embeddings.npy")
    assert _snapshot(tmp_path / "idx") == before
    monkeypatch.undo()
    new.save(tmp_path / "idx")
    back = HybridIndex.load(tmp_path / "idx", embedder=_Embedder())
    assert [r["id"] for r in back.records] == ["a", "b"] and back.embeddings.shape == (2, 3)
