"""Language detection, sentence splitting and windows (Russian and English construction texts)."""

import pytest

from ragauge.judges.offline.text import Span, detect_language, split_sentences, windows


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Гарантия на кровлю 5 лет.", "ru"),
        ("Монтаж металлочерепицы Grand Line, класс защиты IP65, кабель ВВГнг 3x2.5.", "ru"),
        ("The contractor provides a 5-year warranty.", "en"),
        ("Гарантія на покрівлю 5 років.", "uk"),
        ("保修期为五年", "zh"),
        ("1 150 ₽ / 300 $", None),
        ("", None),
    ],
)
def test_detect_language(text, lang):
    assert detect_language(text) == lang


def _check_offsets(text, spans):
    for span in spans:
        assert text[span.start : span.end] == span.text
        assert span.text == span.text.strip()


def test_russian_abbreviations_stay_inside_sentences():
    text = (
        "Стоимость монтажа 1 150 руб. за м² с учётом материалов. Срок — от 3 до 5 дней, т.е. не более недели. "
        "Согласно п. 4.2 договора оплата производится в течение 10 дней. Толщина утеплителя 0,5 м."
    )
    spans = split_sentences(text, "ru")
    assert [s.text for s in spans] == [
        "Стоимость монтажа 1 150 руб. за м² с учётом материалов.",
        "Срок — от 3 до 5 дней, т.е. не более недели.",
        "Согласно п. 4.2 договора оплата производится в течение 10 дней.",
        "Толщина утеплителя 0,5 м.",
    ]
    _check_offsets(text, spans)


def test_english_abbreviations_numbers_and_decimals():
    text = (
        "Dr. Smith signed contract No. 5 on Monday. The price is 4.5 USD per sq. ft., e.g. for shingles. "
        "It includes bricks, tiles, etc. The delivery takes 3 days! Is that fast? Yes."
    )
    spans = split_sentences(text, "en")
    assert [s.text for s in spans] == [
        "Dr. Smith signed contract No. 5 on Monday.",
        "The price is 4.5 USD per sq. ft., e.g. for shingles.",
        "It includes bricks, tiles, etc.",
        "The delivery takes 3 days!",
        "Is that fast?",
        "Yes.",
    ]
    _check_offsets(text, spans)


def test_lines_lists_and_hard_wraps():
    text = (
        "Prices:\n- Roofing: 1,150 RUB per m2\n- Demolition: 300 RUB\n"
        "The contractor shall pay a penalty of 0.1%\nper day of delay.\n\nPayment within 10 days"
    )
    spans = split_sentences(text, "en")
    assert [s.text for s in spans] == [
        "Prices:",
        "- Roofing: 1,150 RUB per m2",
        "- Demolition: 300 RUB",
        "The contractor shall pay a penalty of 0.1%\nper day of delay.",
        "Payment within 10 days",
    ]
    _check_offsets(text, spans)


def test_russian_numbered_list_and_detected_language():
    text = "Этапы работ:\n1. Демонтаж старой кровли\n2. Монтаж по п. 3.1 СП 17.13330\n\n  "
    spans = split_sentences(text)  # language detected
    assert [s.text for s in spans] == ["Этапы работ:", "1. Демонтаж старой кровли", "2. Монтаж по п. 3.1 СП 17.13330"]
    _check_offsets(text, spans)


def test_blank_text_has_no_sentences():
    assert split_sentences("", "ru") == []
    assert split_sentences("  \n\n ", "en") == []


def test_windows_keep_source_text_and_offsets():
    text = "Гарантия 5 лет.  Оплата за 10 дней. Аванс 30%."
    sentences = split_sentences(text, "ru")
    pairs = windows(sentences, 2, source=text)
    assert pairs == [Span("Гарантия 5 лет.  Оплата за 10 дней.", 0, 35), Span("Оплата за 10 дней. Аванс 30%.", 17, 46)]
    for w in pairs:
        assert text[w.start : w.end] == w.text
    assert windows(sentences, 1) == sentences
    assert [w.text for w in windows(sentences, 3, source=text)] == [text]
    assert windows(sentences, 4) == []
    assert windows(sentences, 2)[0].text == "Гарантия 5 лет. Оплата за 10 дней."  # joined without source


def test_windows_reject_bad_size():
    with pytest.raises(ValueError, match="size"):
        windows([], 0)
