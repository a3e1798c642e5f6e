"""Corpora of the third round (issue 19): logistics in Russian and English, bank tariffs and a clinic's price
list in English; Markdown, plain text, DOCX and PDF. Written the way such documents are: two products with the
same attribute and different values (a question must name which), percentages beside prices, durations,
deadlines and limits in plain prose, price tables.

``test_round3_domains.py`` checks the sentence forms that were asked badly on them, and
``benchmarks/generate_domains.py`` measures them with the other corpora.
"""

from __future__ import annotations

from pathlib import Path

from _domain_corpora import write_files

CORPORA: dict[str, list[tuple[str, str]]] = {
    "logistics_ru": [
        ("tarify.md", """# Тарифы на доставку грузов

## Доставка по городу

| Услуга | Ед. изм. | Цена, руб. |
|---|---|---|
| Доставка посылки до 5 кг | отправление | 350 |
| Доставка груза до 30 кг | отправление | 900 |
| Погрузочно-разгрузочные работы | час | 1 200 |
| Упаковка в стрейч-плёнку | место | 150 |

## Экспресс-доставка

Экспресс-доставка по городу выполняется в течение 4 часов с момента приёма заказа. Стоимость \
экспресс-доставки увеличивается на 50% к базовому тарифу. Заказ на экспресс-доставку принимается до 16:00.
"""),
        ("pravila.pdf", """# Правила перевозки грузов

## Приём груза

Груз принимается к перевозке при наличии накладной. Максимальный вес одного места составляет 150 кг. \
Габариты одного места не должны превышать 2 метров по длине.

## Хранение на складе

Бесплатное хранение груза на складе предоставляется в течение 3 календарных дней. За каждый последующий \
день хранения взимается плата 200 рублей за место. Невостребованный груз хранится не более 30 календарных \
дней.

## Страхование

Страхование груза оформляется по желанию отправителя. Страховой сбор составляет 1% от объявленной \
ценности груза. Объявленная ценность не может превышать 500 000 рублей.
"""),
        ("pretenzii.txt", """Порядок рассмотрения претензий

Претензия о повреждении груза подаётся в течение 10 календарных дней после получения груза. Претензия \
рассматривается в течение 30 календарных дней с даты её получения. Компенсация за утрату груза выплачивается \
в пределах объявленной ценности. Компенсация выплачивается в течение 10 рабочих дней после признания \
претензии.

Отслеживание груза

Статус груза обновляется в личном кабинете каждые 2 часа. Уведомление о доставке направляется получателю по \
SMS не позднее чем за 1 час до прибытия курьера.
"""),
    ],
    "logistics_en": [
        ("rates.txt", """Shipping rates

Standard delivery takes 3 to 5 working days. Express delivery takes 1 working day and costs $25 per parcel. \
Parcels over 20 kg are charged a surcharge of $15. Fuel surcharge is 12% of the shipping fee.

Pallet shipping

A standard pallet costs $180 per shipment. Pallets must not exceed 1,000 kg. Pallets are collected within 2 \
working days after booking.
"""),
        ("claims.docx", """# Claims and liability

## Damaged goods

Claims for damaged goods must be filed within 7 days of delivery. Claims are reviewed within 21 days. \
Compensation is paid within 10 working days after the claim is approved.

## Liability

Our liability is limited to $100 per parcel unless extra cover is purchased. Extra cover costs 2% of the \
declared value. The declared value may not exceed $5,000.

## Storage

Undelivered parcels are held at the depot for 14 days. Storage is free for the first 5 days. After that, \
storage is charged at $3 per day.
"""),
    ],
    "bank_en": [
        ("cards.md", """# Card tariffs

## Classic card

The annual fee for the Classic card is $30. Cash withdrawals at other banks' ATMs are charged a fee of 1.5% \
of the amount. The daily cash withdrawal limit is $1,000.

## Gold card

The annual fee for the Gold card is $120. Cash withdrawals at other banks' ATMs are free of charge. The daily \
cash withdrawal limit is $3,000. Cashback is paid at 2% of card purchases.

## Card replacement

A replacement card is issued within 5 working days. A lost card must be reported within 24 hours.
"""),
        ("loans.pdf", """# Personal loans

## Terms

Personal loans are granted for up to 5 years. The interest rate on personal loans is 11.9% per year. The \
minimum loan amount is $2,000.

## Repayment

Monthly payments are debited on the 15th day of each month. A late payment fee of $35 is charged for each \
missed payment. Early repayment is allowed at any time without a fee.

## Applications

Loan applications are reviewed within 2 working days. Customers must be at least 21 years old to apply.
"""),
    ],
    "clinic_en": [
        ("prices.txt", """Price list

General practitioner visit | $80
Specialist consultation | $120
Blood test | $35
Chest X-ray | $90

Appointments

Appointments can be cancelled free of charge up to 24 hours before the visit. A missed appointment is \
charged at 50% of the visit price. The clinic is open from 8:00 to 20:00 on weekdays.
"""),
        ("services.docx", """# Patient services

## Test results

Blood test results are ready within 2 working days. X-ray results are ready within 1 hour. Results are sent \
to the patient's e-mail within 24 hours after they are ready.

## Discounts

Patients aged 65 or over receive a discount of 10% on all visits. Children under 12 receive a discount of 15% \
on specialist consultations.

## Medical records

Medical records are kept for 10 years. A copy of the medical record is issued within 5 working days of the \
request. A sick note is a document that confirms a patient's temporary inability to work.
"""),
    ],
}

LANGS = {"logistics_ru": "ru", "logistics_en": "en", "bank_en": "en", "clinic_en": "en"}


def write_corpus(name: str, root: Path) -> Path:
    """Write corpus ``name`` into ``root/name`` and return that folder."""
    return write_files(CORPORA[name], root / name)


__all__ = ["CORPORA", "LANGS", "write_corpus"]
