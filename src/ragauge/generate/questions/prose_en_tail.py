"""What an English count or amount is of and per what, read from the words after it.

"25 days of paid annual leave per year" -> (" of paid annual leave", " per year"); "$20 per kg" -> " per kg";
"$1,500 per employee per year" -> " per employee per year"; "$180 a night" -> " a night"; "$10 each month" and
"$10 for every month" -> " per month". Any noun can be the unit of a rate: a word that cannot be one (an article, a pronoun, a
preposition, a verb form, "cent" of "per cent") ends the tail instead.
"""

from __future__ import annotations

import re

#: Words that end a noun phrase after a count ("of paid leave | per year", "of leave | if …").
TAIL_STOP = {"per", "a", "an", "for", "in", "on", "at", "if", "when", "unless", "and", "or", "from", "to", "after",
             "before", "with", "by", "each", "every", "until", "than", "but", "while", "as", "into", "within"}
#: Words after "per"/"a"/"each" that are not a unit: determiners, pronouns, auxiliaries, "per cent", bounds.
_NOT_UNIT = TAIL_STOP | {"the", "this", "that", "these", "those", "my", "your", "his", "her", "its", "our", "their",
                         "any", "some", "such", "other", "another", "no", "all", "one", "it", "you", "we", "they",
                         "is", "are", "was", "were", "be", "been", "may", "must", "can", "will", "shall", "should",
                         "do", "does", "not", "cent", "centum", "maximum", "minimum", "total", "further", "most",
                         "least", "more", "less"}
#: Words that make a two-word unit with the noun after them ("per calendar month", "per working day").
_UNIT_MODIFIERS = {"calendar", "business", "working", "banking", "billing", "school", "academic", "financial",
                   "extra", "additional", "single", "double", "individual", "full", "half"}
_WORD = re.compile(r"[a-z][a-z-]*")


def per_tail(rest: list[str]) -> str:
    """" per kg" from "per kg of excess baggage", " per employee per year", " a month", " per month" from "each
    month" and " per hour" from "for every hour" ("each" reads as "per" in a question); "" when ``rest`` does not start with a rate."""
    out: list[str] = []
    k = 0
    while k + 1 < len(rest) and rest[k].lower() in ("per", "a", "an", "each", "for"):
        lead = 2 if rest[k].lower() == "for" else 1  # "for every hour", "for each day" read as "per hour"
        if lead == 2 and rest[k + 1].lower() not in ("every", "each"):
            break
        unit = _unit(rest[k + lead:k + lead + 2])
        if not unit:
            break
        word = rest[k].lower()
        out.append(("per" if word in ("each", "for") else word) + " " + " ".join(unit))
        k += lead + len(unit)
        if rest[k - 1][-1:] in ".,;:":
            break
    return " " + " ".join(out) if out else ""


def _unit(words: list[str]) -> list[str]:
    """The unit of a rate, one word ("kg", "night") or a modifier and a noun ("calendar month"); [] for a word
    that cannot be one."""
    first = words[0].rstrip(".,;:")
    if not _WORD.fullmatch(first) or first in _NOT_UNIT or first.endswith("ly"):
        return []
    if first in _UNIT_MODIFIERS and first == words[0] and len(words) > 1:
        second = words[1].rstrip(".,;:")
        if _WORD.fullmatch(second) and second not in _NOT_UNIT and not second.endswith(("ly", "ing", "ed")):
            return [first, second]
    return [first]


def counted_tail(rest: list[str]) -> tuple[str, str]:
    """(what a count is of, per what), from the words after its unit: (" of paid annual leave", " per year") from
    "of paid annual leave per year."; ("", " per week") from "per week."; ("", "") when neither follows. A question
    that drops them asks something else ("How many days are employees entitled to?" has two answers when the
    documents also state sick days)."""
    of: list[str] = []
    if rest[:1] and rest[0].lower() == "of":
        taken = ["of"]
        for w in rest[1:7]:
            clean = w.rstrip(".,;:")
            if not re.fullmatch(r"[a-z'-]+", clean.lower()) or clean.lower() in TAIL_STOP:
                break
            taken.append(clean)
            if clean != w:
                break
        if len(taken) > 1:
            of = taken
        if of and rest[len(of) - 1][-1:] in ".,;:":
            return " " + " ".join(of), ""
    return (" " + " ".join(of) if of else ""), per_tail(rest[len(of):])


__all__ = ["TAIL_STOP", "counted_tail", "per_tail"]
