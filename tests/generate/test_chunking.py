from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ragauge.errors import ConfigError, InputError
from ragauge.generate import chunk, load_document, load_folder, to_kb_records, write_kb_jsonl
from ragauge.generate.documents import Document, RawBlock, assemble

HEADER = "Работа | Ед. | Цена, руб."


def _doc(raw: list[RawBlock], doc_id: str = "d.txt") -> Document:
    text, blocks = assemble(raw)
    return Document(doc_id, "T", doc_id, "txt", text, blocks, version="2")


def test_offsets_hold_for_every_chunk_of_every_format(corpus: Path) -> None:
    docs, _ = load_folder(corpus)
    by_id = {d.id: d for d in docs}
    chunks = chunk(docs, max_chars=120)
    assert {c.doc_id for c in chunks} == set(by_id)
    for c in chunks:
        doc = by_id[c.doc_id]
        assert c.prefix + doc.text[c.start:c.end] == c.text
        if c.kind != "table":
            assert c.prefix == "" and doc.text[c.start:c.end] == c.text
        assert c.title == doc.title and (c.version, c.date) == (doc.version, doc.date)


@pytest.mark.parametrize("name", ["prices/price-2026.xlsx", "price.csv"])
def test_price_list_header_is_repeated_in_every_chunk(corpus: Path, name: str) -> None:
    (corpus / "price.csv").write_text(
        "Работа;Ед.;Цена, руб.\n" + "".join(f"Позиция номер {i};м²;{100 + i}\n" for i in range(40)),
        encoding="utf-8")
    doc = load_document(corpus / name, root=corpus)
    table_chunks = [c for c in chunk([doc], max_chars=100) if c.kind == "table"]
    assert len(table_chunks) >= 3
    rows_seen = []
    for c in table_chunks:
        lines = c.text.split("\n")
        assert lines[0] == HEADER  # "Штукатурка | м² | 450" keeps its header
        assert all(line.count(" | ") == 2 for line in lines)  # never a cut row
        assert len(c.text) <= 100
        rows_seen.extend(lines[1:])
    (table,) = [b for b in doc.blocks if b.kind == "table"]
    assert rows_seen == [" | ".join(r) for r in table.rows]  # every row exactly once, in order


def test_price_row_keeps_its_header(corpus: Path) -> None:
    doc = load_document(corpus / "prices" / "price-2026.xlsx", root=corpus)
    (hit,) = [c for c in chunk([doc], max_chars=80) if "Штукатурка | м² | 450" in c.text]
    assert hit.text.startswith(HEADER + "\n")


def test_long_table_row_is_never_split() -> None:
    long_row = ("Очень длинное описание работы " * 10, "м²", "450")
    doc = _doc([RawBlock("table", rows=(("Работа", "Ед.", "Цена, руб."), long_row, ("Грунтовка", "м²", "60")))])
    chunks = chunk([doc], max_chars=60)
    assert [c.text.split("\n")[1].split(" | ")[2] for c in chunks] == ["450", "60"]


def test_docx_sections_follow_headings(corpus: Path) -> None:
    doc = load_document(corpus / "contract.docx")
    chunks = chunk([doc])
    sections = [(c.kind, c.section) for c in chunks]
    top = "Договор подряда, Version 2"
    assert sections == [
        ("text", (top, "1. Предмет договора")),
        ("table", (top, "2. Стоимость", "2.1 Основные работы")),
        ("list", (top, "2. Стоимость", "2.1 Основные работы")),
    ]
    assert chunks[1].text.startswith(HEADER + "\nГрунтовка стен | м² | 60")


def test_long_paragraph_splits_at_sentences_with_overlap() -> None:
    sentences = [f"Предложение номер {i} описывает пункт договора подробно." for i in range(12)]
    doc = _doc([RawBlock("heading", "Раздел", level=1), RawBlock("paragraph", " ".join(sentences))])
    chunks = chunk([doc], max_chars=200, overlap_sentences=1)
    assert len(chunks) > 2
    for prev, nxt in zip(chunks, chunks[1:]):
        assert nxt.text.startswith(prev.text.split(". ")[-1])  # last sentence repeated
    for c in chunks:
        assert len(c.text) <= 200 and c.text.endswith(".") and c.section == ("Раздел",)
    no_overlap = chunk([doc], max_chars=200, overlap_sentences=0)
    assert " ".join(c.text for c in no_overlap) == doc.text.split("\n\n")[1]


def test_sentence_longer_than_the_limit_is_cut_at_spaces() -> None:
    doc = _doc([RawBlock("paragraph", "слово " * 100)])
    chunks = chunk([doc], max_chars=50)
    assert all(len(c.text) <= 50 and not c.text.startswith(" ") for c in chunks)
    assert " ".join(c.text for c in chunks).split() == ["слово"] * 100


def test_small_paragraphs_are_packed_within_a_section() -> None:
    doc = _doc([RawBlock("paragraph", "Первый абзац."), RawBlock("paragraph", "Второй абзац."),
                RawBlock("heading", "Новый раздел", level=1), RawBlock("paragraph", "Третий.")])
    assert [c.text for c in chunk([doc])] == ["Первый абзац.\n\nВторой абзац.", "Третий."]


def test_chunk_ids_are_stable_when_another_document_changes(corpus: Path, tmp_path: Path) -> None:
    docs, _ = load_folder(corpus)
    before = {c.id: c.text for c in chunk(docs, max_chars=150)}
    (corpus / "rules.txt").write_text("Совсем другой текст правил.\n", encoding="utf-8")
    shutil.move(corpus / "faq.md", corpus / "prices" / "faq.md")  # a moved file is a new document
    docs2, _ = load_folder(corpus)
    after = {c.id: c.text for c in chunk(docs2, max_chars=150)}
    unchanged = {k: v for k, v in before.items() if not k.startswith(("rules.txt#", "faq.md#"))}
    assert unchanged and all(after[k] == v for k, v in unchanged.items())
    assert not any(k.startswith("rules.txt#") for k in set(before) & set(after))
    assert chunk(docs, max_chars=150) == chunk(docs, max_chars=150)  # deterministic


def test_duplicate_text_in_one_document_gets_distinct_ids() -> None:
    doc = _doc([RawBlock("heading", "A", level=1), RawBlock("paragraph", "Повтор."),
                RawBlock("heading", "B", level=1), RawBlock("paragraph", "Повтор.")])
    ids = [c.id for c in chunk([doc])]
    assert len(set(ids)) == 2 and ids[0].endswith("-0") and ids[1].endswith("-1")
    assert ids[0].split("#")[0] == "d.txt"


def test_kb_jsonl_has_the_demo_shape(corpus: Path, tmp_path: Path) -> None:
    from ragauge.demo import DEMO_DIR

    demo_keys = set(json.loads((DEMO_DIR / "kb.jsonl").read_text(encoding="utf-8").splitlines()[0]))
    docs, _ = load_folder(corpus)
    out = write_kb_jsonl(chunk(docs), tmp_path / "kb.jsonl")
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert records and all(set(r) == demo_keys for r in records)
    price = next(r for r in records if r["doc_id"] == "prices/price-2026.xlsx" and "Работа" in r["text"])
    assert price["version"] == "2026-03-01" and "Штукатурка | м² | 450" in price["text"]
    contract = next(r for r in records if r["doc_id"] == "contract.docx")
    assert contract["section"] == "Договор подряда, Version 2 > 1. Предмет договора"


def test_duplicate_ids_are_refused() -> None:
    doc = _doc([RawBlock("paragraph", "Текст.")])
    with pytest.raises(InputError, match="duplicate chunk id"):
        to_kb_records(chunk([doc, doc]))


@pytest.mark.parametrize("kwargs", [{"max_chars": 5}, {"max_chars": True}, {"overlap_sentences": -1}])
def test_bad_options_are_config_errors(kwargs: dict) -> None:
    with pytest.raises(ConfigError):
        chunk([], **kwargs)
