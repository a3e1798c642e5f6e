"""Corpora of the fourth round (issue 19): Russian card tariffs, where two cards state the same attribute with
different values (a question must name the card), and Russian delivery terms with ceilings («не должен
превышать», «ограничена суммой»), a surcharge and a range of days, the Russian twins of the English sentences of
``logistics_en`` that gave no question. DOCX and plain text.

``test_round4_domains.py`` checks them, and ``benchmarks/generate_domains.py`` measures them with the other corpora.
"""

from __future__ import annotations

from pathlib import Path

from _domain_corpora import write_files

CORPORA: dict[str, list[tuple[str, str]]] = {
    "tariffs_ru": [
        ("karty.docx", """# Тарифы по банковским картам

## Карта Classic

Годовое обслуживание карты Classic стоит 900 рублей. Суточный лимит снятия наличных составляет 100 000 рублей. \
Снятие наличных в банкоматах других банков облагается комиссией 1% от суммы.

## Карта Gold

Годовое обслуживание карты Gold стоит 3 000 рублей. Суточный лимит снятия наличных составляет 300 000 рублей. \
Кешбэк начисляется в размере 2% от суммы покупок.

## Перевыпуск карты

Перевыпуск карты выполняется в течение 5 рабочих дней. Утерянная карта блокируется в течение 1 часа после \
звонка в банк.
"""),
        ("dostavka.txt", """Условия доставки

Стандартная доставка выполняется от 3 до 5 рабочих дней. За посылки весом более 20 кг взимается доплата \
500 рублей. Вес одного поддона не должен превышать 1 000 кг.

Ответственность перевозчика

Ответственность перевозчика ограничена суммой 5 000 рублей за место, если не оформлено дополнительное \
страхование. Объявленная ценность не может превышать 500 000 рублей. Претензия рассматривается в течение 30 \
календарных дней.
"""),
    ],
}

LANGS = {"tariffs_ru": "ru"}


def write_corpus(name: str, root: Path) -> Path:
    """Write corpus ``name`` into ``root/name`` and return that folder."""
    return write_files(CORPORA[name], root / name)


__all__ = ["CORPORA", "LANGS", "write_corpus"]
