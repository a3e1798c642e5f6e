"""Test corpora beyond construction: HR policy, bank tariffs, clinic prices, IT SLA (Russian) and HR, SLA
(English), written as .md, .txt, .docx and .pdf by :func:`write_corpus` (no binary file in the repo).

The text is ours, prose-heavy on purpose: durations, deadlines, amounts, percentages with their base,
limits, conditions, who does what, definitions. ``benchmarks/generate_domains.py`` and
``tests/generate/test_domains.py`` generate golden sets from them.
"""

from __future__ import annotations

from pathlib import Path

# name -> [(file name, text)]; a ".docx" or ".pdf" name is written in that format from the text
# (a line starting with "# " or "## " is a heading).
CORPORA: dict[str, list[tuple[str, str]]] = {
    "hr_ru": [
        ("otpusk.md", """# Положение об отпусках

## Ежегодный отпуск

Ежегодный оплачиваемый отпуск составляет 28 календарных дней. Работникам с ненормированным рабочим днём \
предоставляется дополнительный отпуск продолжительностью 3 календарных дня. Заявление на отпуск подаётся \
руководителю не позднее чем за 14 календарных дней до его начала. Отдел кадров оформляет приказ об отпуске \
в течение 3 рабочих дней после согласования заявления.

## Отпускные

Отпускные выплачиваются не позднее чем за 3 календарных дня до начала отпуска. Перенос отпуска на следующий \
год допускается только с письменного согласия работника. Неиспользованный отпуск компенсируется при увольнении \
из расчёта среднего дневного заработка.

## Отпуск без сохранения заработной платы

Отпуск без сохранения заработной платы предоставляется по семейным обстоятельствам на срок до 5 календарных \
дней. Решение о таком отпуске принимает непосредственный руководитель работника.
"""),
        ("komandirovki.docx", """# Положение о командировках

## Суточные

Суточные при командировках по России составляют 700 рублей за каждый день. Суточные при заграничных \
командировках составляют 2 500 рублей за каждый день. Авансовый отчёт сдаётся в бухгалтерию в течение \
3 рабочих дней после возвращения из командировки.

## Проживание

Расходы на проживание возмещаются в пределах 5 000 рублей в сутки. Бронирование гостиницы выполняет \
административный отдел не позднее чем за 5 рабочих дней до поездки. Командировка — это поездка работника \
по распоряжению работодателя для выполнения служебного поручения вне места постоянной работы.
"""),
        ("premii.md", """# Положение о премировании

Квартальная премия выплачивается в размере до 30% должностного оклада. Годовая премия выплачивается \
не позднее 31 марта следующего года. Работнику с дисциплинарным взысканием премия не начисляется. \
Размер премии утверждает генеральный директор по представлению руководителя подразделения.

Компенсация за использование личного автомобиля выплачивается в размере 4 000 рублей в месяц. \
Материальная помощь при рождении ребёнка выплачивается в размере 20 000 рублей.
"""),
    ],
    "bank_ru": [
        ("karty.md", """# Тарифы по дебетовым картам

## Карта «Классик»

Обслуживание карты «Классик» стоит 990 рублей в год. Снятие наличных в банкоматах других банков \
бесплатно до 100 000 рублей в месяц. Свыше этого лимита взимается комиссия 1% от суммы снятия. \
Перевыпуск карты при утере выполняется в течение 5 рабочих дней.

## Карта «Премиум»

Обслуживание карты «Премиум» стоит 4 900 рублей в год. Кешбэк начисляется в размере 3% от суммы покупок \
в ресторанах. Кешбэк зачисляется на счёт не позднее 10 числа следующего месяца.

## Переводы

Комиссия за перевод по номеру телефона составляет 0,5% от суммы перевода, но не менее 30 рублей. \
Перевод по реквизитам исполняется в течение 1 рабочего дня. Лимит переводов через приложение составляет \
300 000 рублей в сутки.
"""),
        ("vklady.txt", """Условия вкладов для физических лиц

Вклад «Надёжный»

Ставка по вкладу «Надёжный» составляет 14% годовых. Минимальная сумма вклада составляет 50 000 рублей. \
Срок вклада составляет 181 день. Проценты выплачиваются ежемесячно на карту клиента.

Досрочное расторжение

При досрочном расторжении вклада проценты начисляются по ставке 0,01% годовых. Заявление о досрочном \
расторжении рассматривается в течение 2 рабочих дней. Банк не передаёт персональные данные клиентов \
третьим лицам без их письменного согласия. Вклад — это денежные средства, размещённые клиентом в банке \
на определённый срок под проценты.
"""),
    ],
    "clinic_ru": [
        ("uslugi.txt", """Прейскурант медицинских услуг клиники

Приём врачей

Первичный приём терапевта стоит 2 200 рублей. Повторный приём терапевта в течение 14 дней стоит 1 500 \
рублей. Консультация кардиолога длится 40 минут. Запись на приём отменяется не позднее чем за 24 часа \
до визита.

Анализы

Общий анализ крови стоит 450 рублей. Результаты общего анализа крови выдаются в течение 1 рабочего дня. \
Биохимический анализ крови выполняется в течение 3 рабочих дней. Забор крови проводится натощак с 8:00 до 11:00.
"""),
        ("pravila.pdf", """# Правила оказания платных услуг

Пенсионерам предоставляется скидка 10% на все приёмы врачей. Скидка не распространяется на анализы. \
Оплата услуг производится до начала приёма наличными или картой. Пациент получает кассовый чек \
после каждой оплаты.

Медицинская карта хранится в регистратуре в течение 5 лет после последнего обращения. Справка для бассейна \
оформляется в день обращения и действует 3 месяца. Клиника не разглашает сведения о пациентах третьим лицам.
"""),
    ],
    "sla_ru": [
        ("sla.md", """# Соглашение об уровне сервиса

## Доступность

Доступность сервиса составляет не менее 99,9% в календарный месяц. Плановые работы проводятся не чаще \
2 раз в месяц. Уведомление о плановых работах направляется клиенту не позднее чем за 3 рабочих дня.

## Инциденты

Инцидент — это незапланированное прерывание или снижение качества сервиса. Время реакции на критический \
инцидент составляет 15 минут. Время восстановления после критического инцидента составляет не более \
4 часов. Дежурный инженер регистрирует обращение в течение 10 минут после его поступления.

## Компенсации

За каждый час простоя сверх нормы клиенту начисляется компенсация 5% от ежемесячной платы. Общая \
компенсация за месяц составляет не более 30% от ежемесячной платы. Заявка на компенсацию подаётся \
в течение 30 календарных дней после инцидента.
"""),
        ("podderzhka.txt", """Регламент технической поддержки

Линия поддержки

Первая линия поддержки работает круглосуточно. Вторая линия поддержки отвечает на обращения в рабочие \
дни с 9:00 до 18:00. Обращение эскалируется на вторую линию через 2 часа без решения. Резервные копии \
хранятся в течение 30 дней. Пароль администратора меняется не реже 1 раза в 90 дней.
"""),
    ],
    "hr_en": [
        ("leave.md", """# Leave Policy

## Annual leave

Employees are entitled to 25 days of paid annual leave per year. Leave requests must be submitted at \
least 14 days before the first day of leave. The line manager approves leave requests within 3 working days. \
Unused leave may be carried over up to 5 days into the next year.

## Sick leave

A sick note is required for absences longer than 3 days. Sick pay is paid at 80% of the base salary for \
up to 20 days a year.
"""),
        ("expenses.txt", """Travel Expenses Policy

Allowances

The daily allowance for domestic trips is $45. The daily allowance for trips abroad is $90. Hotel costs \
are reimbursed up to $180 per night. Expense reports must be submitted within 10 working days after \
the trip. The finance team reimburses approved expenses within 5 working days. A per diem is a fixed \
daily amount paid to cover meals and local transport.
"""),
    ],
    "sla_en": [
        ("sla.md", """# Service Level Agreement

## Availability

Service availability is at least 99.9% per calendar month. Planned maintenance is announced at least \
5 days in advance. Planned maintenance is limited to 8 hours per month.

## Support

The response time for critical incidents is 30 minutes. Critical incidents are resolved within 4 hours. \
Standard requests are answered within 1 business day. An incident is an unplanned interruption of the service.

## Service credits

The customer receives a service credit of 10% of the monthly fee for each hour of downtime beyond \
the target. Service credits are capped at 50% of the monthly fee. Credit requests must be filed within \
30 days of the incident.
"""),
        ("backup.docx", """# Backup and Security Policy

Backups are taken every 24 hours. Backups are kept for 35 days. Administrator passwords are rotated \
every 90 days. Security patches are installed within 7 days of release. Customer data is never shared \
with third parties without written consent.
"""),
    ],
}

LANGS = {"hr_ru": "ru", "bank_ru": "ru", "clinic_ru": "ru", "sla_ru": "ru", "hr_en": "en", "sla_en": "en"}


def _docx(path: Path, text: str) -> None:
    import docx

    document = docx.Document()
    for block in text.split("\n\n"):
        block = block.strip()
        if block.startswith("## "):
            document.add_heading(block[3:], level=2)
        elif block.startswith("# "):
            document.add_heading(block[2:], level=1)
        elif block:
            document.add_paragraph(block)
    document.save(str(path))


def _pdf(path: Path, text: str) -> None:
    from _pdf import write_pdf

    lines: list[str] = []
    for block in text.split("\n\n"):
        block = block.strip().lstrip("# ")
        words, line = block.split(), ""
        for w in words:
            if len(line) + len(w) + 1 > 90:
                lines.append(line)
                line = w
            else:
                line = f"{line} {w}".strip()
        lines += [line, ""]
    write_pdf(path, [lines])


def write_corpus(name: str, root: Path) -> Path:
    """Write corpus ``name`` into ``root/name`` and return that folder."""
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    for file_name, text in CORPORA[name]:
        path = folder / file_name
        if file_name.endswith(".docx"):
            _docx(path, text)
        elif file_name.endswith(".pdf"):
            _pdf(path, text)
        else:
            path.write_text(text, encoding="utf-8")
    return folder


__all__ = ["CORPORA", "LANGS", "write_corpus"]
