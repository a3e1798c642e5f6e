from __future__ import annotations

from pathlib import Path

import pytest

from ragauge.errors import InputError
from ragauge.generate import find_version, load_document, load_folder


def _by_id(docs):
    return {d.id: d for d in docs}


def test_folder_loads_every_format_and_reports_bad_files(corpus: Path) -> None:
    docs, problems = load_folder(corpus)
    assert sorted(_by_id(docs)) == ["about.html", "bom.csv", "contract.docx", "faq.md", "legacy.txt",
                                    "prices/price-2026.xlsx", "rules.txt", "warranty.pdf"]
    reasons = {Path(p.path).name: p for p in problems}
    assert sorted(reasons) == ["broken.pdf", "empty.txt", "old.doc"]  # .DS_Store is skipped silently
    assert "could not be read" in reasons["broken.pdf"].reason and "replace" in reasons["broken.pdf"].hint
    assert reasons["empty.txt"].reason == "the file is empty"
    assert "unsupported" in reasons["old.doc"].reason and ".docx" in reasons["old.doc"].hint
    assert str(reasons["empty.txt"]).startswith(str(corpus / "empty.txt"))


def test_every_block_offset_matches_the_text(corpus: Path) -> None:
    docs, _ = load_folder(corpus)
    for doc in docs:
        assert doc.blocks, doc.id
        for block in doc.blocks:
            assert doc.text[block.start:block.end] == block.text
            for (start, end), row in zip(block.row_spans, block.rows):
                assert doc.text[start:end] == " | ".join(row)


def test_txt_russian_headings_lists_and_date(corpus: Path) -> None:
    doc = load_document(corpus / "rules.txt", root=corpus)
    assert doc.id == "rules.txt" and doc.format == "txt" and doc.path == str(corpus / "rules.txt")
    assert doc.date == "2026-01-15" and doc.metadata["date_source"] == "text"
    assert doc.metadata["encoding"] == "utf-8"
    kinds = [(b.kind, b.level, b.text) for b in doc.blocks]
    assert ("heading", 1, "1. Общие положения") in kinds
    assert ("list_item", 0, "проверка уровнем") in kinds


def test_cp1251_and_bom_are_detected_and_recorded(corpus: Path) -> None:
    legacy = load_document(corpus / "legacy.txt")
    assert legacy.text == "Гарантия на плитку — 12 месяцев."
    assert legacy.metadata["encoding"] == "cp1251" and "cp1251" in legacy.metadata["encoding_note"]
    bom = load_document(corpus / "bom.csv")
    assert bom.metadata["encoding"] == "utf-8-sig"
    assert bom.blocks[0].header == ("Service", "Unit", "Price")


def test_undecodable_text_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "latin.txt"
    path.write_bytes("Prix: 450 € — très économique, ça coûte peu".encode("cp1252"))
    with pytest.raises(InputError, match="UTF-8"):
        load_document(path)


def test_markdown_headings_tables_and_inline_markup(corpus: Path) -> None:
    doc = load_document(corpus / "faq.md")
    assert doc.title == "FAQ" and doc.version == "3"
    assert [b.text for b in doc.blocks if b.kind == "heading"] == ["FAQ", "Payment"]
    assert "We accept cards and bank transfer." in doc.text
    (table,) = [b for b in doc.blocks if b.kind == "table"]
    assert table.header == ("Service", "Unit", "Price") and table.rows[0] == ("Plastering", "m2", "450")


def test_html_noise_is_removed(corpus: Path) -> None:
    doc = load_document(corpus / "about.html")
    assert doc.title == "О компании"
    for noise in ("tracking", "color:red", "Главная", "Позвоните", "Все права"):
        assert noise not in doc.text
    assert [(b.kind, b.text) for b in doc.blocks] == [
        ("heading", "О компании"), ("paragraph", "ГрадСтрой работает с 2010 года."),
        ("list_item", "Ремонт квартир"), ("list_item", "Отделка офисов")]


def test_docx_headings_by_style_table_and_lists(corpus: Path) -> None:
    doc = load_document(corpus / "contract.docx")
    assert doc.title == "Договор подряда" and doc.version == "2"
    headings = [(b.level, b.text) for b in doc.blocks if b.kind == "heading"]
    assert headings == [(0, "Договор подряда, Version 2"), (1, "1. Предмет договора"), (1, "2. Стоимость"),
                        (2, "2.1 Основные работы")]
    (table,) = [b for b in doc.blocks if b.kind == "table"]
    assert table.header == ("Работа", "Ед.", "Цена, руб.") and table.rows[1] == ("Штукатурка", "м²", "450")
    assert [b.text for b in doc.blocks if b.kind == "list_item"] == ["Оплата производится поэтапно.",
                                                                     "Аванс — 30 % от сметы."]


def test_docx_template_stamp_is_not_a_date_but_a_real_modified_date_is(tmp_path: Path) -> None:
    import datetime

    import docx

    blank = tmp_path / "blank.docx"
    document = docx.Document()  # python-docx's template says "modified 2013-12-23 23:15"
    document.add_paragraph("Гарантия на работы составляет 36 месяцев.")
    document.save(blank)
    assert load_document(blank).date is None
    document.core_properties.modified = datetime.datetime(2026, 3, 1, 9, 30)
    dated = tmp_path / "dated.docx"
    document.save(dated)
    doc = load_document(dated)
    assert doc.date == "2026-03-01" and doc.metadata["date_source"] == "metadata"


def test_xlsx_price_list_title_rows_header_and_numbers(corpus: Path) -> None:
    doc = load_document(corpus / "prices" / "price-2026.xlsx", root=corpus)
    assert doc.id == "prices/price-2026.xlsx" and doc.date == "2026-03-01"
    assert doc.title == "Прайс-лист ООО «ГрадСтрой», ред. от 01.03.2026"
    assert doc.metadata["sheets"] == ["Работы"]
    (table,) = [b for b in doc.blocks if b.kind == "table"]
    assert table.header == ("Работа", "Ед.", "Цена, руб.")
    assert ("Демонтаж плитки", "м²", "310") in table.rows  # 310.0 printed as a price, not a float


def test_pdf_russian_and_english_pages(corpus: Path) -> None:
    doc = load_document(corpus / "warranty.pdf")
    assert doc.version == "2" and doc.metadata["pages"] == 2
    assert "24 months from the date of the acceptance certificate." in doc.text  # lines rejoined
    assert doc.blocks[-1].text == "Гарантия на работы — 24 месяца." and doc.blocks[-1].page == 2


def test_pdf_without_text_layer_says_ocr(tmp_path: Path) -> None:
    from _pdf import write_pdf

    path = write_pdf(tmp_path / "scan.pdf", [[]])
    with pytest.raises(InputError, match="no text layer") as info:
        load_document(path)
    assert "ocr" in str(info.value).lower()


def test_load_folder_refuses_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not a folder"):
        load_folder(tmp_path / "nope")


@pytest.mark.parametrize(("head", "version", "date"), [
    ("Прайс-лист\nредакция от 1.9.2025", None, "2025-09-01"),
    ("Договор, версия 1.2", "1.2", None),
    ("Terms of service\nVersion 2, effective 2026-03-01", "2", "2026-03-01"),
    ("Price list v2.1", "2.1", None),
    ("Цены на 2026 год", None, None),
])
def test_find_version(head: str, version: str | None, date: str | None) -> None:
    assert find_version(head) == (version, date)


def test_limits_skip_only_the_files_over_them(corpus: Path) -> None:
    from ragauge.generate import DocumentLimits

    docs, problems = load_folder(corpus, limits=DocumentLimits(max_blocks=8))
    over = {Path(p.path).name: p for p in problems if p.reason.startswith("skipped:")}
    assert sorted(over) == ["contract.docx", "price-2026.xlsx"]  # the two with more than 8 blocks
    assert over["contract.docx"].reason == ("skipped: the DOCX has more than 8 paragraphs and table rows, over the "
                                            "limit of 8 (DocumentLimits.max_blocks)")
    assert all("raise the limit" in p.hint for p in over.values())
    assert sorted(_by_id(docs)) == ["about.html", "bom.csv", "faq.md", "legacy.txt", "rules.txt", "warranty.pdf"]
