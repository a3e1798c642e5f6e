"""Test corpora beyond construction: HR policy, bank tariffs, clinic prices, IT SLA (Russian) and HR, SLA
(English), written as .md, .txt, .docx and .pdf (each format in both languages) by :func:`write_corpus` (no
binary file in the repo).

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
        ("rabochee_vremya.txt", """Положение о рабочем времени и обучении

Рабочее время

Нормальная продолжительность рабочего времени составляет 40 часов в неделю. Обеденный перерыв \
предоставляется продолжительностью 1 час. Ночная работа оплачивается с надбавкой 20% к часовой ставке. \
Работа в выходной день оплачивается в размере двойной дневной ставки.

Испытательный срок

Испытательный срок при приёме на работу составляет 3 месяца. Испытательный срок руководителей \
устанавливается на срок до 6 месяцев. Работник предупреждает работодателя об увольнении не позднее чем \
за 14 календарных дней. Окончательный расчёт выплачивается не позднее дня увольнения.

Обучение

Стоимость внешнего обучения возмещается в пределах 60 000 рублей в год. Заявка на обучение подаётся \
в отдел персонала не позднее чем за 30 календарных дней до начала курса. Наставник — это опытный работник, \
который помогает новому сотруднику освоить обязанности. Доплата за наставничество выплачивается в размере \
5 000 рублей в месяц. Корпоративная медицинская страховка оформляется в течение 1 месяца после приёма на работу.
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

Вклад «Пенсионный»

Ставка по вкладу «Пенсионный» составляет 15% годовых. Пополнение вклада «Пенсионный» допускается \
в течение 90 дней с даты открытия. Неснижаемый остаток по вкладу «Пенсионный» составляет 10 000 рублей. \
Страховое возмещение выплачивается в течение 14 рабочих дней после наступления страхового случая.
"""),
        ("kredity.docx", """# Потребительские кредиты

## Условия кредита

Потребительский кредит выдаётся на срок до 5 лет. Максимальная сумма кредита составляет 3 000 000 рублей. \
Ставка по потребительскому кредиту составляет 19,9% годовых. Решение по заявке принимается в течение \
2 рабочих дней. Кредитные каникулы предоставляются на срок до 6 месяцев.

## Погашение

Ежемесячный платёж списывается со счёта 15 числа каждого месяца. Неустойка за просрочку платежа \
начисляется в размере 0,1% от суммы просроченного долга за каждый день. Досрочное погашение кредита \
выполняется без комиссии. Справка о полном погашении кредита выдаётся в течение 3 рабочих дней.

## Кредитная карта

Льготный период по кредитной карте составляет 120 дней. Кредитный лимит пересматривается не чаще \
1 раза в 6 месяцев. Обязательный платёж составляет 3% от суммы задолженности. Годовое обслуживание \
кредитной карты стоит 1 490 рублей.
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

Диагностика

УЗИ брюшной полости стоит 3 500 рублей. Электрокардиограмма стоит 1 200 рублей. Заключение врача УЗИ \
выдаётся в течение 30 минут после исследования. Результаты МРТ выдаются в течение 2 рабочих дней. \
Подготовка к УЗИ брюшной полости начинается за 3 дня до исследования.
"""),
        ("pravila.pdf", """# Правила оказания платных услуг

Пенсионерам предоставляется скидка 10% на все приёмы врачей. Скидка не распространяется на анализы. \
Оплата услуг производится до начала приёма наличными или картой. Пациент получает кассовый чек \
после каждой оплаты.

Медицинская карта хранится в регистратуре в течение 5 лет после последнего обращения. Справка для бассейна \
оформляется в день обращения и действует 3 месяца. Клиника не разглашает сведения о пациентах третьим лицам.
"""),
        ("stomatologiya.md", """# Стоматологическое отделение

## Лечение

Лечение кариеса стоит 4 500 рублей. Профессиональная чистка зубов стоит 6 000 рублей. Удаление зуба \
стоит 3 200 рублей. Гарантия на пломбу действует 1 год. Гарантия на коронку действует 3 года.

## Запись и оплата

Первичная консультация стоматолога длится 30 минут. Детям до 14 лет предоставляется скидка 15% \
на лечение зубов. Предоплата за протезирование вносится в размере 50% от стоимости работ. \
Коронка изготавливается в течение 10 рабочих дней. Снимок зуба делается в день обращения.

## Вызов врача на дом

Вызов терапевта на дом стоит 5 500 рублей. Вызов врача на дом принимается с 8:00 до 14:00. \
Результаты анализов отправляются на электронную почту в течение 2 рабочих дней. Листок \
нетрудоспособности оформляется на срок до 15 дней.
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

Тарифы поддержки

Базовый тариф поддержки стоит 25 000 рублей в месяц. Расширенный тариф поддержки стоит 60 000 рублей \
в месяц. Дополнительный час работы инженера стоит 3 000 рублей. Выезд инженера на площадку клиента \
организуется в течение 1 рабочего дня. Счёт за поддержку выставляется не позднее 5 числа месяца.
"""),
        ("incidenty.docx", """# Регламент управления изменениями

## Изменения

Стандартное изменение согласуется в течение 2 рабочих дней. Срочное изменение согласуется в течение \
4 часов. Окно изменений длится 3 часа. Плановые изменения проводятся с 22:00 до 6:00. Откат изменения \
выполняется не позднее чем через 30 минут после сбоя.

## Отчётность

Отчёт о доступности сервиса направляется клиенту не позднее 5 числа следующего месяца. Разбор \
критического инцидента проводится в течение 5 рабочих дней. Журналы событий хранятся в течение \
12 месяцев. Ежеквартальная встреча с клиентом длится 1 час. Лицензия на мониторинг стоит 12 000 рублей \
в месяц. Проверка восстановления из резервной копии проводится не реже 1 раза в квартал.
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

## Parental leave

Maternity leave lasts 26 weeks. Paternity leave lasts 2 weeks. Parental leave requests must be submitted \
at least 8 weeks before the expected date. Parental pay is paid at 90% of the base salary for the first \
6 weeks. Employees returning from parental leave may work part-time for up to 6 months.
"""),
        ("expenses.txt", """Travel Expenses Policy

Allowances

The daily allowance for domestic trips is $45. The daily allowance for trips abroad is $90. Hotel costs \
are reimbursed up to $180 per night. Expense reports must be submitted within 10 working days after \
the trip. The finance team reimburses approved expenses within 5 working days. A per diem is a fixed \
daily amount paid to cover meals and local transport.

Transport

Taxi fares are reimbursed up to $60 per trip. Economy class flights must be booked at least 21 days before \
departure. Mileage for private cars is paid at 45 cents per mile.
"""),
        ("onboarding.pdf", """# Onboarding and Training Policy

## Probation

The probation period is 3 months. Probation reviews are held within 10 working days after the end \
of probation. New employees receive a laptop within 2 days of their start date. Notice must be given \
at least 30 days before the last working day.

## Training

The training budget is $1,500 per employee per year. Training requests must be approved within 5 working \
days. Course fees are reimbursed up to $800 per course. Mentoring sessions are held every 2 weeks. \
Overtime is paid at 150% of the hourly rate. The annual bonus is paid by 31 March of the following year. \
Remote work is limited to 3 days per week. A mentor is an experienced employee who guides a new colleague.
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

## Access and recovery

Access reviews are performed every 6 months. Disaster recovery tests are run every 12 months. The recovery \
time objective is 4 hours. The recovery point objective is 1 hour. Deleted data is purged within 30 days.
"""),
        ("support.txt", """Support Plans

Standard plan

The Standard plan costs $300 per month. Support tickets are answered within 8 business hours. Phone \
support is available from 9:00 to 18:00 on working days. The Standard plan includes up to 10 user accounts.

Premium plan

The Premium plan costs $1,200 per month. Premium tickets are answered within 1 hour. Quarterly service \
reviews are held every 3 months. Extra user accounts cost $15 per month each. Invoices are issued on the \
1st day of each month. Invoices must be paid within 30 days. Late payments are charged at 1.5% per month. \
Data export requests are completed within 5 business days. Audit logs are kept for 12 months.
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
    return write_files(CORPORA[name], root / name)


def write_files(files: list[tuple[str, str]], folder: Path) -> Path:
    """Write ``(file name, text)`` pairs into ``folder`` (.docx and .pdf as real documents) and return it:
    the one writer of every test corpus module."""
    folder.mkdir(parents=True, exist_ok=True)
    for file_name, text in files:
        path = folder / file_name
        if file_name.endswith(".docx"):
            _docx(path, text)
        elif file_name.endswith(".pdf"):
            _pdf(path, text)
        else:
            path.write_text(text, encoding="utf-8")
    return folder


__all__ = ["CORPORA", "LANGS", "write_corpus"]
