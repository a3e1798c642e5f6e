"""Blind corpora of the tenth round (issue 19): four domains none of the earlier rounds had, written as the team
of a car repair shop, a hotel, a city parking operator and a SaaS vendor would write them, without looking at the
generator: ``carservice_ru`` (labour rates, parts warranty, diagnostics, booking, cancellation, storage of cars),
``hotel_ru`` (check-in and check-out, early and late fees, room categories, cancellation, pets, breakfast),
``parking_en`` (tariffs per zone, EV charging, permits, penalty charges, appeals) and ``software_en`` (plans,
seats, overage, refunds, data retention, support). Markdown (with tables), DOCX, PDF and plain text.

``benchmarks/generate_domains.py`` measures them with the other corpora.
"""

from __future__ import annotations

from pathlib import Path

from _domain_corpora import write_files

CORPORA: dict[str, list[tuple[str, str]]] = {
    "carservice_ru": [
        ("prais.md", """# Прайс-лист автосервиса «Мотор-Сервис»

Цены действуют с 1 марта 2024 года и указаны с учётом НДС.

## Стоимость нормо-часа

| Вид работ | Нормо-час, руб. |
|---|---|
| Слесарные работы | 2 400 |
| Автоэлектрика и электроника | 2 900 |
| Кузовной ремонт и покраска | 3 200 |
| Ремонт двигателя и АКПП | 3 500 |

Время работ считается по нормативам завода-изготовителя, минимальная оплата — 0,5 нормо-часа. Для автомобилей \
премиум-класса и внедорожников с полной массой свыше 3,5 т к стоимости нормо-часа применяется коэффициент 1,3. \
Срочный ремонт вне очереди выполняется с наценкой 20% к стоимости работ.

## Диагностика

Компьютерная диагностика стоит 1 500 рублей и занимает около 40 минут. Диагностика ходовой части бесплатна, \
если ремонт по её результатам делается у нас; при отказе от ремонта она оплачивается в размере 1 200 рублей. \
Комплексная проверка автомобиля перед покупкой стоит 4 500 рублей. По итогам диагностики выдаётся заключение со \
списком неисправностей и предварительной сметой.

## Запчасти клиента

Мы устанавливаем запчасти, которые привёз клиент, но стоимость работ в этом случае увеличивается на 15%. \
Гарантия на работы с запчастями клиента не предоставляется.
"""),
        ("garantiya.docx", """# Гарантийные обязательства

## Гарантия на работы

На слесарные работы даётся гарантия 6 месяцев или 10 000 км пробега — в зависимости от того, что наступит \
раньше. На кузовной ремонт и покраску гарантия составляет 12 месяцев. На шиномонтаж и балансировку гарантия не \
распространяется, кроме повторной балансировки колеса в течение 14 дней после работ — её мы делаем бесплатно.

## Гарантия на запчасти

На запчасти, купленные у нас, действует гарантия производителя, но не менее 6 месяцев. На аккумуляторы гарантия \
составляет 2 года при условии ежегодной проверки у нас. Расходные материалы (масла, фильтры, тормозные колодки, \
щётки стеклоочистителя) гарантией не покрываются.

## Как обратиться по гарантии

Гарантийная претензия принимается при предъявлении заказ-наряда и кассового чека. Автомобиль нужно предоставить \
на осмотр не позднее 7 дней с момента, когда вы обнаружили неисправность. Решение по претензии принимается в \
течение 10 рабочих дней после осмотра. Гарантия теряется, если тот же узел после нас ремонтировали в другом \
сервисе.
"""),
        ("zapis_i_hranenie.pdf", """# Запись, отмена и хранение автомобилей

## Запись на ремонт

Записаться можно по телефону, на сайте или в мессенджере. Автомобили принимаем ежедневно с 8:00 до 21:00. \
Перед кузовным ремонтом нужен предварительный осмотр: он бесплатный и занимает до 30 минут. Если вы опоздали \
больше чем на 20 минут, мы можем перенести запись на другое время.

## Предоплата и отмена

При заказе запчастей под ваш автомобиль берётся предоплата 50% их стоимости. Оригинальные запчасти под заказ \
поставляются от 3 до 14 дней. Отменить или перенести запись можно бесплатно не позднее чем за 24 часа до \
назначенного времени. Если заказанные запчасти уже пришли, а вы отказались от ремонта, предоплата не \
возвращается, а запчасти отдаются вам.

## Хранение автомобиля

После того как мы сообщили о готовности, автомобиль стоит на нашей территории бесплатно 3 дня. С четвёртого дня \
хранение стоит 500 рублей в сутки. Пока автомобиль ждёт запчасти, он хранится бесплатно, но не дольше 30 дней. \
За личные вещи, оставленные в салоне, сервис ответственности не несёт.
"""),
    ],
    "hotel_ru": [
        ("pravila_prozhivaniya.docx", """# Правила проживания в гостинице «Северная звезда»

## Заезд и выезд

Расчётный час — 12:00 по местному времени. Заселение начинается с 14:00, выехать нужно до 12:00. При заселении \
гость предъявляет паспорт, иностранные граждане — паспорт и миграционную карту. Дети до 14 лет заселяются только \
вместе со взрослыми.

## Ранний заезд и поздний выезд

Ранний заезд с 6:00 до 14:00 оплачивается в размере 50% стоимости номера за сутки. Заезд с 0:00 до 6:00 \
оплачивается как полные сутки. Поздний выезд до 18:00 стоит 50% суточной стоимости номера, после 18:00 — полные \
сутки. Ранний заезд и поздний выезд возможны только при наличии свободных номеров, поэтому их лучше согласовать \
заранее.

## Проживание с животными

Мы принимаем собак и кошек весом до 10 кг. Проживание животного стоит 1 000 рублей в сутки независимо от \
категории номера. Гости с животными размещаются только в номерах «Стандарт» на первом этаже. Оставлять животное \
в номере одного дольше 3 часов нельзя. Если животное повредило имущество, гость возмещает ущерб по прейскуранту.

## Курение и тишина

Курить в номерах запрещено, штраф за курение — 5 000 рублей (это стоимость химчистки номера). Тишину просим \
соблюдать с 23:00 до 7:00.
"""),
        ("nomera_i_ceny.md", """# Номера и цены

Цены указаны за номер в сутки с НДС и действуют с 1 мая по 30 сентября.

| Категория | Площадь, м² | Гостей | Цена, руб./сутки |
|---|---|---|---|
| Стандарт | 18 | 2 | 5 400 |
| Комфорт | 24 | 2 | 6 900 |
| Семейный | 32 | 4 | 8 800 |
| Люкс | 45 | 2 | 13 500 |

С 1 октября по 30 апреля действует скидка 15% от цен в таблице. Дополнительное место (раскладная кровать) стоит \
1 200 рублей в сутки; дети до 6 лет без отдельного места живут бесплатно.

## Завтрак

Завтрак «шведский стол» накрывают в ресторане на первом этаже с 7:00 до 10:30, по выходным — до 11:00. В номерах \
«Стандарт» и «Комфорт» завтрак в цену не входит и стоит 850 рублей с человека, в номерах «Семейный» и «Люкс» он \
включён в стоимость. Детям до 6 лет завтрак бесплатно. Если вы уезжаете раньше 7:00, скажите нам накануне, и мы \
соберём завтрак с собой.
"""),
        ("bronirovanie.txt", """Бронирование и отмена

Гарантия бронирования

Бронь гарантируется предоплатой в размере стоимости первых суток проживания. Негарантированная бронь держится до \
18:00 дня заезда.

Отмена и изменение брони

Бронь можно отменить бесплатно не позднее чем за 48 часов до 14:00 дня заезда. При более поздней отмене или \
неявке удерживается стоимость первых суток. Для групп от 5 номеров бесплатная отмена возможна не позднее чем за \
14 дней до заезда. Предоплата по невозвратному тарифу не возвращается, но даты проживания можно один раз \
изменить не позднее чем за 7 дней до заезда.

Возврат денег

Деньги возвращаются на карту, с которой оплачивалась бронь, в течение 10 рабочих дней с даты отмены.
"""),
    ],
    "parking_en": [
        ("tariffs.md", """# Parking and charging tariffs

CityPark runs on-street parking and public EV chargers on behalf of the city council. The tariffs below apply \
from 1 April 2024.

## On-street parking

| Zone | Hourly rate | Maximum stay | Hours of control |
|---|---|---|---|
| A (city centre) | $4.00 | 2 hours | Mon-Sat, 8am-8pm |
| B (inner ring) | $2.50 | 4 hours | Mon-Sat, 8am-6pm |
| C (outer districts) | $1.20 | no limit | Mon-Fri, 8am-6pm |

You can pay in the CityPark app, by card at the pay station, or by text message; paying by text adds a \
convenience fee of 25 cents per session. The first 15 minutes in Zone C are free. Outside the hours of control \
parking is free in every zone, except in bays marked "No parking at any time". Vehicles displaying a valid \
disabled badge may park free of charge for up to 3 hours in any zone.

## EV charging

Charging costs $0.38 per kWh on our standard 22 kW chargers and $0.55 per kWh on rapid chargers of 50 kW and \
above. An overstay fee of $0.40 per minute is charged if the vehicle stays plugged in more than 10 minutes after \
charging has finished. The zone's parking tariff still applies while you charge, except in Zone C, where you \
can park in a charging bay free for up to 4 hours.
"""),
        ("permits.pdf", """# Parking permits

## Resident permits

Residents of a controlled zone can apply for one permit per vehicle, with a maximum of two permits per household. \
The first permit costs $120 a year and the second $240 a year. Fully electric vehicles get 50% off the first \
permit. Applications must include a proof of address dated within the last 3 months and the vehicle registration \
certificate. We issue permits within 10 working days of receiving a complete application.

## Business and visitor permits

Businesses located in Zone A or Zone B may buy up to three business permits at $600 each per year. Resident \
permit holders can buy visitor vouchers in books of 20 for $30; each voucher is valid for one day. Visitor \
vouchers cannot be used in Zone A.

## Permit refunds

If you return a permit you no longer need, we refund each full month left on it, minus a $15 administration fee. \
There is no refund if less than one full month remains.
"""),
        ("penalties.docx", """# Penalty charges and appeals

## Penalty charges

A penalty charge notice (PCN) is issued for parking without paying, staying longer than the maximum stay, or \
parking outside a marked bay. The charge is $70 for a higher-level contravention, such as parking on double \
yellow lines or in a disabled bay without a badge, and $45 for a lower-level one, such as overstaying a paid \
session. The charge is reduced by 50% if you pay within 14 days of the date of the notice. If it is still unpaid \
after 28 days, we issue a charge certificate and the amount goes up by 50%. A vehicle left in a charging bay \
without charging may get a lower-level penalty charge.

## Appeals

You can challenge a penalty charge online or in writing within 28 days of the date of the notice. If you \
challenge within the 14-day discount period and we reject the challenge, the discount is offered again for a \
further 14 days. We answer informal challenges within 21 days. If we reject your formal representations, you can \
appeal to the independent parking adjudicator within 28 days of our notice of rejection. Appealing to the \
adjudicator is free.

## Towing

Vehicles that cause an obstruction may be removed to the vehicle pound. The release fee is $200, plus $25 for \
each day of storage from the second day. Vehicles not collected within 60 days may be disposed of.
"""),
    ],
    "software_en": [
        ("plans.md", """# Plans and pricing

Taskwise is billed per seat. Prices are in US dollars and do not include sales tax.

| Plan | Per seat per month, billed annually | Per seat per month, billed monthly | Storage per seat | \
API calls per month |
|---|---|---|---|---|
| Starter | $8 | $10 | 5 GB | 10,000 |
| Team | $15 | $18 | 20 GB | 100,000 |
| Business | $27 | $32 | 100 GB | 1,000,000 |
| Enterprise | contact sales | contact sales | unlimited | custom |

The Starter plan is limited to 10 seats. The free trial of the Team plan lasts 14 days and needs no credit card.

## Seats

You can add seats at any time; a seat added mid-cycle is charged pro rata for the rest of the billing period. \
Removed seats are credited at the next renewal, not refunded. Guests with view-only access are free, up to 5 \
guests per paid seat.

## Overage

Storage is pooled across the workspace. Storage above the pooled allowance costs $0.10 per GB per month. API \
calls above the monthly limit are billed at $1 per 10,000 calls; on the Starter plan, calls beyond the limit are \
rejected instead of billed. We email the workspace owner when usage reaches 80% of any limit.
"""),
        ("billing.pdf", """# Billing and refunds

## Billing

Monthly plans are billed on the same day each month, annual plans once a year in advance. Invoices are payable \
within 30 days on the Business and Enterprise plans; Starter and Team are charged to a card automatically. If a \
card payment fails, we retry it three times over 7 days, and the workspace becomes read-only if the payment has \
still not gone through after 14 days.

## Refunds

Annual subscriptions can be cancelled for a full refund within 30 days of the initial purchase. After that, \
annual plans are non-refundable, but you keep access until the end of the paid term. Monthly subscriptions are \
not refunded for partial months. Overage charges are never refunded. Refunds go back to the original payment \
method within 5-10 business days.

## Discounts

Registered non-profit organisations get 30% off the list price of the Team and Business plans. Schools and \
universities get the Business plan at the Team price.
"""),
        ("data_retention.txt", """Data retention

While your subscription is active

We keep your data for as long as your subscription is active. Deleted items stay in the trash for 30 days and \
can be restored by any admin; on the Business and Enterprise plans the trash keeps items for 90 days. Version \
history is kept for 1 year on the Team plan and without limit on Business. Audit logs are kept for 180 days on \
Business and for 2 years on Enterprise.

After cancellation

When a subscription ends, the workspace stays available in read-only mode for 60 days so that you can export \
your data. After 60 days the data is permanently deleted, and backups are purged within a further 30 days. \
Enterprise customers can request a certificate of deletion.
"""),
        ("support.docx", """# Support and uptime

## Support

Starter customers get email support, with a first response within 2 business days. Team customers get email and \
chat support, with a first response within 8 business hours. Business customers get 24/7 support for critical \
issues, with a first response within 1 hour. Enterprise customers also get a named customer success manager.

## Uptime commitment

We commit to 99.9% monthly uptime on the Business and Enterprise plans. If monthly uptime falls below 99.9%, you \
get a service credit of 10% of that month's fee; below 99.0%, the credit is 25%. Credits must be requested within \
30 days of the end of the affected month. Scheduled maintenance announced at least 48 hours in advance does not \
count as downtime.
"""),
    ],
}

LANGS = {"carservice_ru": "ru", "hotel_ru": "ru", "parking_en": "en", "software_en": "en"}


def write_corpus(name: str, root: Path) -> Path:
    """Write corpus ``name`` into ``root/name`` and return that folder."""
    return write_files(CORPORA[name], root / name)


__all__ = ["CORPORA", "LANGS", "write_corpus"]
