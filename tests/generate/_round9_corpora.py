"""Corpora of the ninth round (issue 19), written blind (without reading the generator): Russian car-rental
terms and travel-insurance rules, an English co-working membership guide and a university library's loan
rules. Each has two to four files in mixed formats (Markdown with a table, plain text, DOCX, PDF) and is
written as a team would write it: prices per class or plan, deposits, limits with their exceptions,
percentages of a named base, deadlines and the documents a claim needs.

``benchmarks/generate_domains.py`` measures them with the other corpora.
"""

from __future__ import annotations

from pathlib import Path

from _domain_corpora import write_files

CORPORA: dict[str, list[tuple[str, str]]] = {
    "carrental_ru": [
        ("tarify_i_usloviya.md", """# Прокат автомобилей: тарифы и условия

## Классы автомобилей и цены

| Класс | Модели | 1–3 суток, за сутки | от 4 суток, за сутки | Залог |
|---|---|---|---|---|
| Эконом | Kia Rio, Hyundai Solaris | 2 900 ₽ | 2 500 ₽ | 15 000 ₽ |
| Комфорт | Toyota Camry, Skoda Superb | 4 800 ₽ | 4 200 ₽ | 30 000 ₽ |
| Кроссовер | Toyota RAV4, Kia Sportage | 6 500 ₽ | 5 700 ₽ | 40 000 ₽ |

Цены указаны с НДС. Сутки аренды — это 24 часа с момента выдачи автомобиля.

## Залог

Залог блокируется на банковской карте арендатора в момент выдачи автомобиля. Карта должна быть оформлена на \
имя основного водителя. Дебетовые карты принимаются только при аренде автомобилей класса «Эконом». \
После возврата автомобиля залог разблокируется в течение 14 календарных дней, если нет повреждений и \
неоплаченных штрафов. Штрафы ГИБДД, пришедшие после возврата, мы удерживаем из залога или выставляем \
арендатору в течение 90 дней с окончания аренды.

## Пробег

В стоимость аренды входит 300 км в сутки. Каждый километр сверх лимита оплачивается по 12 ₽ для классов \
«Эконом» и «Комфорт» и по 18 ₽ для кроссоверов. При аренде на 30 суток и более пробег не ограничен.

## Требования к водителю

Водителю должно быть не меньше 21 года, стаж вождения — не менее 2 лет. Кроссоверы выдаются водителям \
не моложе 25 лет. Если водителю ещё нет 23 лет, к тарифу добавляется 500 ₽ в сутки. Дополнительного водителя \
можно вписать в договор за 300 ₽ в сутки, но не более 3 000 ₽ за весь срок аренды.
"""),
        ("vydacha_i_vozvrat.txt", """Выдача и возврат автомобиля

Офис проката работает ежедневно с 8:00 до 21:00. Выдача или возврат вне рабочего времени стоит 1 500 рублей \
и заказывается не позднее чем за 24 часа. Подача автомобиля по городу стоит 1 000 рублей, в аэропорт — \
2 000 рублей.

Топливо

Автомобиль выдаётся с полным баком и возвращается с полным баком. Если бак заполнен не полностью, мы \
доливаем топливо по цене АЗС и берём сервисный сбор 1 000 рублей. Можно сразу оплатить опцию «Полный бак» \
и вернуть машину с любым уровнем топлива; деньги за неизрасходованный бензин при этом не возвращаются.

Опоздание с возвратом

Опоздание до 59 минут бесплатно. За опоздание от 1 до 3 часов взимается 50% суточного тарифа, а если \
опоздание больше 3 часов — оплачиваются полные сутки. Если автомобиль не возвращён в течение 24 часов после \
окончания договора и арендатор не отвечает на звонки, мы подаём заявление об угоне.

Чистота салона

Автомобиль нужно вернуть в том же состоянии, в каком он был выдан. За химчистку сильно загрязнённого салона \
взимается 3 000 рублей, за курение в салоне — 5 000 рублей.

Отмена бронирования и поездки за пределы региона

Бронирование можно отменить бесплатно не позднее чем за 48 часов до выдачи. При более поздней отмене \
удерживается стоимость одних суток аренды. Поездки за пределы Московской и соседних областей нужно \
согласовать с менеджером заранее, выезд за границу России запрещён.
"""),
        ("strahovanie.docx", """# Страхование и ответственность арендатора

## Что входит в стоимость аренды

Во все тарифы включены ОСАГО и базовое КАСКО с франшизой. Франшиза составляет 30 000 рублей для классов \
«Эконом» и «Комфорт» и 50 000 рублей для кроссоверов. Франшизу арендатор оплачивает сам по каждому \
повреждению, случившемуся по его вине.

## Дополнительные опции

Опция «Полная защита» стоит 900 рублей в сутки и снижает франшизу до нуля. Она не действует, если водитель \
был пьян, не был вписан в договор или ездил по бездорожью на автомобиле, не предназначенном для этого. \
Шины, диски и стёкла покрываются только опцией «Шины и стёкла» за 250 рублей в сутки.

## Если произошло ДТП

При любом ДТП арендатор обязан оформить его через ГИБДД или европротокол и сообщить нам в течение 1 часа. \
Если документы о ДТП не оформлены, арендатор возмещает ущерб полностью, какие бы опции он ни купил. Простой \
автомобиля в ремонте по вине арендатора оплачивается в размере 50% суточного тарифа за каждый день ремонта, \
но не более чем за 10 дней.
"""),
    ],
    "insurance_ru": [
        ("programmy.md", """# Страхование путешественников: программы

## Программы и страховые суммы

| Программа | Страховая сумма | Франшиза | Территория | Цена за день |
|---|---|---|---|---|
| Базовая | 35 000 € | 50 € | страны Шенгенского соглашения | 0,8 € |
| Стандарт | 50 000 € | 30 € | весь мир, кроме США и Канады | 1,5 € |
| Премиум | 100 000 € | нет | весь мир | 3,2 € |

Стоимость полиса оплачивается в рублях по курсу Центрального банка на день оплаты.

## Надбавки и скидки

Для путешественников от 65 до 74 лет стоимость полиса увеличивается в 2 раза, от 75 до 84 лет — в 3 раза. \
Лиц старше 85 лет мы не страхуем. Если в поездке планируются горные лыжи, дайвинг или другой активный \
отдых, к стоимости полиса добавляется 50%. Семьям из трёх и более человек, оформляющим один полис, \
предоставляется скидка 10% от общей стоимости.

## Страхование от невыезда

Опцию «Отмена поездки» можно добавить к любой программе не позднее чем за 14 дней до начала поездки. \
Страховая сумма по опции — до 2 000 € на человека. Мы возмещаем стоимость невозвратных билетов и брони, если \
поездка не состоялась из-за болезни застрахованного, смерти близкого родственника или отказа в визе. \
При отказе в визе возмещается не более 50% стоимости тура.
"""),
        ("pravila.pdf", """# Правила страхования

## Срок действия полиса

Полис начинает действовать с даты начала поездки, указанной в нём, но не ранее следующего дня после оплаты. \
Если полис куплен, когда вы уже за границей, он вступает в силу через 5 дней после оплаты. Годовой полис \
покрывает любое число поездок в течение года, но каждая поездка должна длиться не более 30 дней подряд.

## Франшиза

Франшиза применяется отдельно к каждому страховому случаю. На расходы по медицинской эвакуации и \
возвращению на родину франшиза не распространяется.

## Исключения

Мы не оплачиваем плановое лечение хронических заболеваний. Экстренная помощь при обострении хронического \
заболевания оплачивается, но не более 500 евро за всю поездку. Не покрываются травмы, полученные в состоянии \
алкогольного или наркотического опьянения, и участие в спортивных соревнованиях. Стоматологическая помощь \
оплачивается только для снятия острой боли и не более 150 евро. Расходы, связанные с беременностью, \
покрываются до 24-й недели.
"""),
        ("vyplaty.docx", """# Как получить выплату

## Что делать при страховом случае

Прежде чем обращаться к врачу, позвоните в сервисную компанию по номеру из полиса. Если это невозможно, \
сообщите о случае в течение 48 часов. Если вы оплатили лечение сами, не согласовав его с сервисной компанией, \
мы возместим не более 70% подтверждённых расходов.

## Документы

Для выплаты по медицинским расходам нужны: заявление, копия паспорта и полиса, медицинское заключение с \
диагнозом, оригиналы счетов и чеков, а также посадочные талоны или отметки о пересечении границы. Документы \
на иностранном языке, кроме английского, принимаются с переводом на русский. По опции «Отмена поездки» \
дополнительно нужны справка о болезни или свидетельство о смерти, письмо консульства об отказе в визе и \
подтверждение того, что стоимость билетов и брони не возвращается.

## Сроки

Заявление на выплату нужно подать не позднее 30 дней после возвращения из поездки. Мы принимаем решение в \
течение 15 рабочих дней после получения всех документов. Деньги перечисляются в рублях по курсу ЦБ на дату \
выплаты в течение 10 рабочих дней после решения.
"""),
    ],
    "coworking_en": [
        ("membership.md", """# Membership at Hive Works

## Plans

| Plan | Price per month | Access | Meeting-room credits |
|---|---|---|---|
| Flex | $190 | 10 days a month, any free desk | 2 hours |
| Resident | $340 | unlimited, any free desk | 6 hours |
| Dedicated Desk | $480 | unlimited, your own desk with a locker | 10 hours |
| Private Office (4 people) | $1,900 | unlimited, lockable office | 20 hours |

All prices exclude VAT. Members who pay for 12 months upfront get 15% off the monthly price of their plan. \
Students with a valid student card get 20% off the Flex plan only.

## Opening hours

The space is staffed Monday to Friday from 8:30 am to 6:30 pm. Resident, Dedicated Desk and Private Office \
members have 24/7 access with their key card; Flex members can only come in during staffed hours. We are \
closed on public holidays, except for members with 24/7 access.

## Changing or cancelling your plan

You can upgrade at any time and we charge the difference for the rest of the month. Downgrades take effect \
from the next billing month. To cancel, give us at least 30 days' written notice; Private Office contracts \
need 60 days' notice. Unused Flex days and meeting-room credits do not roll over to the next month.
"""),
        ("meeting_rooms.docx", """# Meeting rooms and events

## Rooms and rates

We have three meeting rooms: Birch seats 4 people, Maple seats 8 and the Loft seats 20. Members pay $25 an \
hour for Birch, $40 an hour for Maple and $90 an hour for the Loft once their included credits are used up. \
Non-members pay double the member rate. Credits cannot be used for the Loft.

## Bookings

Rooms are booked through the member app, up to 4 weeks in advance. A single booking cannot be longer than \
4 hours, except for the Loft, which can be booked for a full day. If you cancel less than 24 hours before the \
start, the full price is charged or the credits are used up.

## Events

Members can host evening events in the Loft after 7 pm for a flat fee of $300. Events must end by 11 pm, and \
a member of our team has to be present for events with more than 40 guests.
"""),
        ("guests_and_house_rules.txt", """Guests

Each member can bring up to 2 guests a day for free. Additional guests cost $15 per person per day. Guests \
must be registered at the front desk and must be accompanied by the member at all times. Guests cannot use \
the space on weekends.

Mail and phone booths

Dedicated Desk and Private Office members can use our address as their business address for $30 a month. We \
hold parcels for up to 7 days. Phone booths are free for all members but cannot be booked for more than 1 \
hour at a time.

Printing and kitchen

Every member gets 100 black-and-white pages of printing a month; after that, printing costs $0.10 per page \
and $0.50 per page in colour. Coffee and tea are free. Please label food you keep in the fridge; unlabelled \
food is thrown away every Friday.
"""),
    ],
    "library_en": [
        ("loans.md", """# Borrowing from the University Library

## Loan periods and limits

| Reader category | Max items | Standard loan | Short loan items |
|---|---|---|---|
| Undergraduate | 15 | 3 weeks | 24 hours |
| Postgraduate | 25 | 6 weeks | 24 hours |
| Academic staff | 50 | 12 weeks | 3 days |
| External member | 5 | 2 weeks | not allowed |

Short loan items are marked with a red label and are kept behind the Help Desk. DVDs can be borrowed for 7 \
days by all readers except external members.

## Renewals

Standard loans renew automatically up to 5 times, unless another reader has requested the item. If an item \
is requested, its loan is cut short: you will get an email and must return it within 7 days. Short loan \
items cannot be renewed.

## Returning items

Items can be returned at any campus library or in the book drop outside the Main Library, which is open 24 \
hours a day. Items placed in the book drop after 9 am are checked in on the next working day.
"""),
        ("fines_and_charges.pdf", """# Fines and Charges

## Overdue fines

Standard loans are not fined when they are late, but your borrowing is blocked once an item is 14 days \
overdue. Short loan items are fined at 1 pound for every hour they are late, up to 20 pounds per item. \
Requested items that are not returned by the new due date are fined at 2 pounds a day.

## Lost and damaged items

If an item is 60 days overdue, we treat it as lost and charge you the replacement cost plus a 15 pound \
processing fee. If you return the item within 6 months, the replacement cost is refunded, but the \
processing fee is not. Damaged items are charged at the full replacement cost.

## Paying and appeals

Fines and charges can be paid online or at the Help Desk. Once you owe more than 25 pounds, you cannot \
borrow or renew until the amount is paid. You can appeal a charge within 30 days of the invoice date by \
filling in the appeals form; appeals are answered within 10 working days.
"""),
        ("services.docx", """# Interlibrary Loans and Study Rooms

## Interlibrary loans

If we do not hold a book or article you need, we can order it from another library. Postgraduates and staff \
can place up to 20 requests per academic year for free. Undergraduates can place up to 5 requests per year, \
and only with their supervisor's approval. Each request beyond the free allowance costs 5 pounds. Articles \
usually arrive by email within 3 working days, and books within 2 weeks. Borrowed books must be used under \
the lending library's conditions, which may mean reading them in the library only.

## Group study rooms

Group study rooms can be booked online by groups of 3 to 8 students, up to 7 days in advance. Each booking \
lasts at most 3 hours, and a group can have no more than 6 hours of bookings per week. If nobody checks in \
within 15 minutes of the start time, the booking is cancelled and the room is released.

## Opening hours

The Main Library is open 24 hours a day during term time. During vacations it is open from 9 am to 8 pm on \
weekdays and from 10 am to 5 pm on Saturdays, and it is closed on Sundays.
"""),
    ],
}

LANGS = {"carrental_ru": "ru", "insurance_ru": "ru", "coworking_en": "en", "library_en": "en"}


def write_corpus(name: str, root: Path) -> Path:
    """Write corpus ``name`` into ``root/name`` and return that folder."""
    return write_files(CORPORA[name], root / name)


__all__ = ["CORPORA", "LANGS", "write_corpus"]
