"""Fixture documents, built by the tests in tmp_path (no binary files in the repo)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

PRICE_HEADER = ("Работа", "Ед.", "Цена, руб.")
PRICE_ROWS = [
    ("Грунтовка стен", "м²", 60),
    ("Штукатурка", "м²", 450),
    ("Шпаклёвка под покраску", "м²", 380),
    ("Монтаж ГКЛ в один слой", "м²", 1150),
    ("Монтаж ГКЛ в два слоя", "м²", 1480),
    ("Укладка ламината", "м²", 520),
    ("Демонтаж плитки", "м²", 310.0),
    ("Вывоз мусора", "мешок", 120),
]


def write_price_xlsx(path: Path) -> Path:
    from openpyxl import Workbook

    book = Workbook()
    ws = book.active
    ws.title = "Работы"
    ws.append(["Прайс-лист ООО «ГрадСтрой», ред. от 01.03.2026"])
    ws.append([])
    ws.append(list(PRICE_HEADER))
    for row in PRICE_ROWS:
        ws.append(list(row))
    book.save(path)
    return path


def write_docx(path: Path) -> Path:
    import docx

    document = docx.Document()
    document.core_properties.title = "Договор подряда"
    document.add_heading("Договор подряда, Version 2", level=0)
    document.add_heading("1. Предмет договора", level=1)
    document.add_paragraph("Подрядчик выполняет отделочные работы в квартире Заказчика. Срок работ — 30 дней.")
    document.add_heading("2. Стоимость", level=1)
    document.add_heading("2.1 Основные работы", level=2)
    table = document.add_table(rows=1, cols=3)
    for cell, text in zip(table.rows[0].cells, PRICE_HEADER):
        cell.text = text
    for name, unit, price in PRICE_ROWS[:3]:
        cells = table.add_row().cells
        cells[0].text, cells[1].text, cells[2].text = name, unit, str(price)
    document.add_paragraph("Оплата производится поэтапно.", style="List Bullet")
    document.add_paragraph("Аванс — 30 % от сметы.", style="List Bullet")
    document.save(path)
    return path


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A small Russian + English folder with every supported format and a few bad files."""
    from _pdf import write_pdf

    root = tmp_path / "docs"
    (root / "prices").mkdir(parents=True)
    (root / "rules.txt").write_text(
        "Правила приёмки работ\nред. от 15.01.2026\n\n1. Общие положения\n\n"
        "Приёмка выполняется по акту. Замечания фиксируются письменно.\n\n"
        "- осмотр помещения\n- проверка уровнем\n", encoding="utf-8")
    (root / "faq.md").write_text(
        "# FAQ\n\nVersion 3\n\n## Payment\n\nWe accept **cards** and [bank transfer](http://x).\n\n"
        "| Service | Unit | Price |\n|---|---|---|\n| Plastering | m2 | 450 |\n| Painting | m2 | 300 |\n",
        encoding="utf-8")
    (root / "about.html").write_text(
        "<html><head><title>О компании</title><script>var tracking = 1;</script>"
        "<style>body{color:red}</style></head><body><nav><a href='/'>Главная</a> | <a>Цены</a></nav>"
        "<header>Позвоните нам!</header><main><h1>О компании</h1><p>ГрадСтрой работает с 2010 года.</p>"
        "<ul><li>Ремонт квартир</li><li>Отделка офисов</li></ul></main>"
        "<footer>© 2026 Все права защищены</footer></body></html>", encoding="utf-8")
    (root / "legacy.txt").write_bytes("Гарантия на плитку — 12 месяцев.".encode("cp1251"))
    (root / "bom.csv").write_bytes("\ufeffService,Unit,Price\nPainting,m2,300\n".encode("utf-8"))
    write_price_xlsx(root / "prices" / "price-2026.xlsx")
    write_docx(root / "contract.docx")
    write_pdf(root / "warranty.pdf", [["Warranty terms", "Version 2",
                                       "The warranty for plastering and tiling is 24 months from the",
                                       "date of the acceptance certificate.", "It does not cover misuse."],
                                      ["Гарантия на работы — 24 месяца."]])
    (root / "broken.pdf").write_bytes(b"%PDF-1.4\nthis is not really a pdf")
    (root / "empty.txt").write_bytes(b"")
    (root / "old.doc").write_bytes(b"\xd0\xcf\x11\xe0 legacy word")
    (root / ".DS_Store").write_bytes(b"\x00\x01")
    return root
