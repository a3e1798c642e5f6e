"""Which language a text is in: the one detector (by script, no model) for judges, metrics, guard and reports.

:func:`detect_language` gives an ISO 639-1 code or ``None``; :func:`ru_or_en` narrows it to the two
languages ragauge writes its own texts in (templates, reports), honouring a declared language first.
"""

from __future__ import annotations

# (first, last code point, ISO 639-1 code) for scripts that name their language well enough.
_SCRIPTS = (
    (0x0370, 0x03FF, "el"),
    (0x0530, 0x058F, "hy"),
    (0x0590, 0x05FF, "he"),
    (0x0600, 0x06FF, "ar"),
    (0x0900, 0x097F, "hi"),
    (0x0E00, 0x0E7F, "th"),
    (0x10A0, 0x10FF, "ka"),
    (0x3040, 0x30FF, "ja"),  # hiragana, katakana
    (0x4E00, 0x9FFF, "zh"),
    (0xAC00, 0xD7AF, "ko"),
)
_UK_ONLY = frozenset("іїєґІЇЄҐ")
_RU_ONLY = frozenset("ыэъЫЭЪ")


def detect_language(text: str) -> str | None:
    """Guess the language from the script of the letters: cheap, no model.

    Counts Cyrillic and Latin letters (other scripts by Unicode block). Cyrillic wins when it is at
    least 40% of the Cyrillic + Latin letters (Russian technical text is full of Latin brand names
    and units: "Knauf", "IP65", "kW"); it is ``"uk"`` when Ukrainian-only letters (і ї є ґ) appear
    and Russian-only ones (ы э ъ) do not, else ``"ru"``. Latin script is reported as ``"en"``:
    the judge does not tell English from other Latin-script languages. Japanese kana beats Han.
    Returns ``None`` when the text has no letters ("", "1 150 ₽").

    >>> detect_language("Гарантия на кровлю 5 лет, материалы Knauf.")
    'ru'
    >>> detect_language("The warranty is 5 years.")
    'en'
    """
    cyr = lat = 0
    others: dict[str, int] = {}
    uk = ru = False
    for ch in text:
        if not ch.isalpha():
            continue
        code = ord(ch)
        if 0x0400 <= code <= 0x04FF:
            cyr += 1
            if ch in _UK_ONLY:
                uk = True
            elif ch in _RU_ONLY:
                ru = True
        elif code < 0x0250:
            lat += 1
        else:
            for first, last, lang in _SCRIPTS:
                if first <= code <= last:
                    others[lang] = others.get(lang, 0) + 1
                    break
    if cyr + lat == 0 and not others:
        return None
    if others:
        best = max(others, key=others.__getitem__)
        if "ja" in others and best == "zh":
            best = "ja"
        if others[best] > cyr + lat:
            return best
    if cyr and cyr >= 0.4 * (cyr + lat):
        return "uk" if uk and not ru else "ru"
    return "en" if lat else None


def is_cyrillic_language(lang: str | None) -> bool:
    """True for the languages whose sentences go to razdel."""
    return lang in ("ru", "uk", "be", "bg", "sr", "mk", "kk")


def ru_or_en(text: str, declared: str | None = None) -> str:
    """``"ru"`` or ``"en"``: the ``declared`` language when given ("ru-RU" counts as "ru"), else the detected
    one; Cyrillic-script languages read as "ru", everything else (and no letters) as "en".

    >>> ru_or_en("Сколько стоит?"), ru_or_en("How much?"), ru_or_en("Цена?", "en-US"), ru_or_en("1 150 ₽")
    ('ru', 'en', 'en', 'en')
    """
    if declared:
        return "ru" if declared.lower().startswith("ru") else "en"
    return "ru" if is_cyrillic_language(detect_language(text)) else "en"
