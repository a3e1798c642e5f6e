"""Corpora in domains the generator's rules were not written on (issue 19, second round): a university's
scholarship rules and a utility company's tariffs (Russian), a gym's membership terms and an airline's
baggage rules (English); Markdown, plain text, DOCX and PDF (the PDF with a heading the loader keeps as text).

Each sentence form here is one the first round asked nothing about or asked badly; the tests in
``test_unseen_domains.py`` name the form they check.
"""

from __future__ import annotations

from pathlib import Path

from _domain_corpora import write_files

CORPORA: dict[str, list[tuple[str, str]]] = {
    "scholarship_ru": [
        ("polozhenie.md", """# Положение о стипендиях университета

## Выплата

Материальная помощь выплачивается единовременно или в рассрочку на 3 платежа. Студентам со стажем \
работы менее 1 года применяется понижающий коэффициент 0,8. Студентам старше 25 лет общежитие \
предоставляется только по решению ректора.

## Обжалование

В течение 10 календарных дней с даты приказа студент может обжаловать решение комиссии. При отчислении \
возвращается часть оплаты за вычетом расходов университета в размере 15%.

## Общежитие

Место в общежитии предоставляется студентам с 2 курса. Многодетным семьям предоставляется скидка 20% на \
проживание. На программу принимаются слушатели, достигшие возраста 18 лет на дату подачи заявления. \
Справка о доходах оформляется в день обращения и действует 6 месяцев. Стипендия сохраняется только при \
отсутствии академической задолженности.

## Персональные данные

Университет не передаёт персональные данные студентов третьим лицам без их письменного согласия.
"""),
        ("tarify.docx", """# Стипендии и выплаты

## Размеры

Академическая стипендия — это ежемесячная выплата студентам, которые учатся без троек. Размер \
академической стипендии составляет 3 500 рублей в месяц. Повышенная стипендия назначается на 6 месяцев.
"""),
    ],
    "utility_ru": [
        ("tarify.txt", """Тарифы водоканала

Услуги

Вызов мастера | Ед. изм. | Цена, руб.
Замена счётчика | операция | 1 200
Опломбирование счётчика | услуга | 600
Поверка счётчика | услуга | 900

Абонентские пакеты

Пакет «Базовый» | 250 руб. в месяц | 1 выезд в квартал
Пакет «Комфорт» | 450 руб. в месяц | 3 выезда в квартал

Оплата

Оплата вносится до 15 числа следующего месяца. За каждые последующие сутки просрочки начисляется пеня \
0,1%. Если абонент не передал показания более 3 месяцев, начисление производится по нормативу.
"""),
    ],
    "gym_en": [
        ("membership.md", """# Membership Terms — Harbour Fitness

## Notice and freezing

You must give notice within 30 days before the next billing date. Freezing is allowed when the absence \
lasts more than 14 days. Class bookings can be cancelled free of charge up to 12 hours before the class.

## Age and fees

Members aged 65 or over pay a reduced fee of $20 per month. Juniors are eligible up to the age of 17. \
Personal training is available for an additional fee of 15%. A guest visit is any single visit by a \
person who is not a member.

## Opening hours

The pool is open from 6:00 to 22:00. Early access is available from 5:00 for Premium members. Access is \
by the member card.
"""),
        ("prices.md", """# Price list

| Pass | Visits | Price, $ |
|---|---|---|
| Monthly pass | 12 | 60 |
| Quarterly pass | 40 | 160 |
| Annual pass | 200 | 540 |
"""),
        ("privacy.pdf", """# Privacy and Data

Lockers are emptied every 24 hours. Data protection

We never share member data with third parties without consent.
"""),
    ],
    "baggage_en": [
        ("baggage.txt", """Baggage Rules

Checked baggage

Checked bags are accepted up to 23 kg each. Passengers aged 75 or over may check one extra bag free of \
charge. Lost bags must be reported within 7 days of the flight. Bags are delivered from 8:00 to 20:00.

Fees

An extra bag costs $50 per flight. Pets up to 8 kg are carried in the cabin for a fee of $40. Bags over \
32 kg are charged at 50% of the fare. Sports equipment is carried for an additional fee of 30%. Oversized \
items are accepted when the total length is more than 158 cm.
"""),
    ],
}

LANGS = {"scholarship_ru": "ru", "utility_ru": "ru", "gym_en": "en", "baggage_en": "en"}


def write_corpus(name: str, root: Path) -> Path:
    """Write corpus ``name`` into ``root/name`` and return that folder."""
    return write_files(CORPORA[name], root / name)


__all__ = ["CORPORA", "LANGS", "write_corpus"]
