"""A small Russian + English corpus for the question-generation tests, written into a folder.

Two editions of a Russian price list (XLSX of 01.03.2026 and Markdown of 01.09.2025), a DOCX contract
with numbered clauses, a Russian TXT with definitions, a long section and personal-data terms, an
English Markdown FAQ with a price table, a PDF warranty (English page + Russian page), a CSV.
"""

from __future__ import annotations

from pathlib import Path

PRICES_2026 = [("Грунтовка стен", "м²", 60), ("Штукатурка", "м²", 450), ("Монтаж ГКЛ в один слой", "м²", 1150),
               ("Монтаж ГКЛ в два слоя", "м²", 1480), ("Укладка ламината", "м²", 520), ("Вывоз мусора", "мешок", 120)]
PRICES_2025 = [("Грунтовка стен", "м²", 55), ("Штукатурка", "м²", 400), ("Монтаж ГКЛ в один слой", "м²", 980),
               ("Монтаж ГКЛ в два слоя", "м²", 1290), ("Укладка ламината", "м²", 480), ("Вывоз мусора", "мешок", 110)]
EN_PRICES = [("Plastering", "m2", 12), ("Painting", "m2", 8), ("Tiling", "m2", 25), ("Drywall installation", "m2", 18)]

TERMS = """Условия выполнения работ

1. Термины

Скрытые работы — это работы, результат которых закрывается последующими работами и не доступен для осмотра.

Смета — это документ с перечнем работ, объёмами и ценами.

2. Гарантия

2.1. Гарантийный срок на отделочные работы составляет 24 месяца.
2.2. Минимальная сумма заказа — 15 000 руб.
2.3. Выезд замерщика за МКАД — 1 500 руб.

3. Приёмка работ

Подрядчик письменно уведомляет Заказчика о готовности работ. Заказчик в течение пяти рабочих дней осматривает \
результат и подписывает акт либо направляет мотивированный отказ с перечнем недостатков. Если в этот срок \
Заказчик не подписал акт и не направил отказ, работы считаются принятыми. Недостатки, указанные в отказе, \
Подрядчик устраняет за свой счёт в согласованный срок. Скрытые работы предъявляются Заказчику до их закрытия, \
о готовности скрытых работ Подрядчик уведомляет заранее. Акт освидетельствования скрытых работ подписывается в \
день осмотра.

4. Персональные данные

Подрядчик обрабатывает персональные данные Заказчика (ФИО, паспортные данные, телефон) только для исполнения \
договора. Расчёт наличными с рабочими не допускается. Цены указаны с учётом НДС.
"""

FAQ = """# Service FAQ

Version 3

## Payment

The minimum order is $500. Delivery within the city costs $40.

The warranty for plastering and tiling is 24 months from the date of the acceptance certificate.

A punch list is a list of defects the customer records at acceptance.

## Prices

| Service | Unit | Price, $ |
|---|---|---|
""" + "".join(f"| {a} | {b} | {c} |\n" for a, b, c in EN_PRICES)


def write_corpus(root: Path) -> Path:
    """Write every file (XLSX/DOCX/PDF need openpyxl, python-docx; the caller skips without them)."""
    import docx
    from openpyxl import Workbook

    from _pdf import write_pdf

    root.mkdir(parents=True, exist_ok=True)
    book = Workbook()
    ws = book.active
    ws.title = "Работы"
    ws.append(["Прайс-лист ООО «ГрадСтрой», ред. от 01.03.2026"])
    ws.append([])
    ws.append(["Работа", "Ед.", "Цена, руб."])
    for row in PRICES_2026:
        ws.append(list(row))
    book.save(root / "price-2026.xlsx")
    (root / "price-2025.md").write_text(
        "# Прайс-лист ООО «ГрадСтрой», ред. от 01.09.2025\n\n| Работа | Ед. | Цена, руб. |\n|---|---|---|\n"
        + "".join(f"| {a} | {b} | {c} |\n" for a, b, c in PRICES_2025), encoding="utf-8")
    document = docx.Document()
    document.core_properties.title = "Договор подряда"
    document.add_heading("Договор подряда", level=0)
    document.add_heading("1. Предмет договора", level=1)
    document.add_paragraph("1.1. Подрядчик выполняет отделочные работы в квартире Заказчика.")
    document.add_paragraph("1.2. Срок выполнения работ — 30 календарных дней.")
    document.add_heading("2. Оплата", level=1)
    document.add_paragraph("2.1. Аванс составляет 30 % от сметы.")
    document.add_paragraph("2.2. Неустойка за просрочку — 0,1 % от цены договора за каждый день.")
    document.add_paragraph("2.3. Работы выполняются по СП 71.13330 с учётом требований ГОСТ 31357-2007.")
    document.save(root / "contract.docx")
    (root / "terms.txt").write_text(TERMS, encoding="utf-8")
    (root / "faq.md").write_text(FAQ, encoding="utf-8")
    write_pdf(root / "warranty.pdf", [["Warranty terms", "Version 2",
                                       "The warranty for roofing is 60 months from the acceptance date."],
                                      ["Гарантия на кровельные работы — 60 месяцев."]])
    (root / "materials.csv").write_text("Материал,Ед.,Цена\nЦемент М500,мешок,590\nПескобетон М300,мешок,310\n",
                                        encoding="utf-8")
    (root / "broken.pdf").write_bytes(b"%PDF-1.4\nnot really a pdf")
    return root
