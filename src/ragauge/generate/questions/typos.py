"""Controlled typos for "badly formulated" variants: typos, no punctuation, wrong keyboard layout, slang.

Every function is pure and takes a ``random.Random`` made from the generation seed, so the same
question and seed give the same noisy variant. The keyboard map is the standard Russian ЙЦУКЕН over
US QWERTY: a word typed with the wrong layout ("прайс" -> "ghfqc") maps key by key.
"""

from __future__ import annotations

import random
import re

_RU_KEYS = "йцукенгшщзхъфывапролджэячсмитьбюё"
_EN_KEYS = "qwertyuiop[]asdfghjkl;'zxcvbnm,.`"
_EN_SHIFTED = "QWERTYUIOP{}ASDFGHJKL:\"ZXCVBNM<>~"  # the same keys with Shift: capital letters
RU_TO_EN = {**dict(zip(_RU_KEYS, _EN_KEYS)), **dict(zip(_RU_KEYS.upper(), _EN_SHIFTED))}
RU_TO_EN.update({".": "/", ",": "?", "?": "&"})  # punctuation of the Russian layout
EN_TO_RU = {v: k for k, v in RU_TO_EN.items() if k.isalpha()}


def wrong_layout(text: str, *, to: str = "en") -> str:
    """Type ``text`` on the other layout: ``wrong_layout("прайс") == "ghfqc"``; ``to="ru"`` reverses.

    >>> wrong_layout("прайс"), wrong_layout("ghfqc", to="ru")
    ('ghfqc', 'прайс')
    """
    table = RU_TO_EN if to == "en" else EN_TO_RU
    return "".join(table.get(ch, ch) for ch in text)


def strip_punctuation(text: str) -> str:
    """Lower case, no punctuation except inside numbers and hyphenated words; what people type in a hurry."""
    text = re.sub(r"(?<!\d)[.,](?!\d)|[?!;:«»\"()—–]", " ", text.lower())
    return re.sub(r"\s+", " ", text).strip()


def typos(text: str, rng: random.Random, *, n: int = 2) -> str:
    """Swap two adjacent letters, or drop one, in ``n`` words of five letters or more (never in numbers)."""
    words = text.split(" ")
    eligible = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha() and not w.isupper()]
    for i in sorted(rng.sample(eligible, min(n, len(eligible)))):
        w = words[i]
        j = rng.randrange(1, len(w) - 2)
        if rng.random() < 0.5:
            words[i] = w[:j] + w[j + 1] + w[j] + w[j + 2:]
        else:
            words[i] = w[:j] + w[j + 1:]
    return " ".join(words)


_RU_SLANG = [
    (re.compile(r"^Сколько стоит (.+)\?$"), ["почём {0}?", "скока стоит {0}", "сколько щас стоит {0}?"]),
    (re.compile(r"^Сколько стоят (.+)\?$"), ["почём {0}?", "скока стоят {0}", "сколько щас стоят {0}?"]),
    (re.compile(r"^Сколько обойдётся (.+)\?$"), ["скока выйдет {0}?", "во сколько встанет {0}?"]),
    (re.compile(r"^Что дороже: (.+)\?$"), ["а че дороже {0}?"]),
    (re.compile(r"^(?:Каков|Какова|Каково|Каковы) (.+)\?$"), ["подскажите {0}", "{0} сколько?"]),
    (re.compile(r"^Сколько составля(?:ет|ют) (.+)\?$"), ["скока {0}?"]),
]
_EN_SLANG = [
    (re.compile(r"^How much does (.+) cost\?$"), ["how much for {0}?", "whats the price of {0}"]),
    (re.compile(r"^What is the price of (.+)\?$"), ["price of {0}??", "{0} price?"]),
    (re.compile(r"^What (?:is|are) (.+)\?$"), ["whats {0}", "{0}?"]),
    (re.compile(r"^Which costs more: (.+)\?$"), ["whats more expensive {0}"]),
]


def colloquial(text: str, lang: str, rng: random.Random) -> str | None:
    """A spoken-style rewording by pattern ("Сколько стоит X?" -> "почём X?"), None when no pattern fits."""
    for pattern, outs in (_RU_SLANG if lang == "ru" else _EN_SLANG):
        m = pattern.match(text)
        if m:
            return rng.choice(outs).format(m.group(1))
    return None


def layout_variant(text: str, lang: str, rng: random.Random) -> str | None:
    """The message typed on the wrong layout as it really happens: the whole message (the user sent it without
    looking), or its first words up to where the user noticed and switched (a prefix of two words or more).
    Never one word in the middle of a correct sentence: a layout is switched for a message, not for a word.
    Latin words (names such as "Gold") and quoted names are left as written; the rest maps key by key, capitals
    and "?" included ("Сколько" -> "Crjkmrj", "?" -> "&")."""
    if lang != "ru":
        return None
    words = text.split(" ")
    if not words or not re.match(r"[А-Яа-яЁё]", words[0]):
        return None
    k = len(words) if len(words) < 3 or rng.random() < 0.5 else rng.randint(2, len(words) - 1)
    inside = False
    out = []
    for i, w in enumerate(words):
        if "«" in w:
            inside = True
        typed = i < k and not inside and not re.search(r"[A-Za-z]", w)
        out.append(wrong_layout(w) if typed else w)
        if "»" in w:
            inside = False
    return " ".join(out)


KINDS = ("typos", "no_punctuation", "keyboard_layout", "colloquial")


def noisy(text: str, lang: str, kind: str, rng: random.Random) -> str | None:
    """Dispatch by kind; None when the kind does not apply to this question (or changes nothing)."""
    if kind == "typos":
        out = typos(text, rng)
    elif kind == "no_punctuation":
        out = strip_punctuation(text)
    elif kind == "keyboard_layout":
        out = layout_variant(text, lang, rng)
    elif kind == "colloquial":
        out = colloquial(text, lang, rng)
    else:
        raise ValueError(f"unknown kind of badly formed question {kind!r}; known: {', '.join(KINDS)}")
    return out if out and out != text else None


__all__ = ["EN_TO_RU", "KINDS", "RU_TO_EN", "colloquial", "layout_variant", "noisy", "strip_punctuation",
           "typos", "wrong_layout"]
