"""English sentences that state a ceiling, asked as the maximum they state.

"Pallets must not exceed 1,000 kg" -> "What is the maximum weight of pallets?"; "A single booking cannot be longer
than 4 hours" -> "What is the maximum length of a single booking?"; "Our liability is limited to $100 per parcel"
-> "What is the liability limit per parcel?". ``pre``: the words between the verb and the quantity, lowered.
"""

from __future__ import annotations

import re

from ragauge.generate.questions.prose_en_tail import per_tail
from ragauge.generate.questions.prose_en_verb import en_plural, lower_subject

#: A unit of time after a number ("working days", "hours").
EN_TIME = re.compile(r"^(?:working |business |calendar )?(?:days?|hours?|minutes?|weeks?|months?|years?)\b", re.I)
#: "must not exceed", "may not exceed", "cannot exceed", "is limited to", "are capped at" before the quantity.
_NOT_EXCEED = (["not", "exceed"], ["cannot", "exceed"], ["never", "exceed"])
_LIMITED_TO = (["limited", "to"], ["restricted", "to"])
#: "cannot be longer than", "must be no longer than", "may not be more than" (``pre`` with "not" for "cannot").
_COMPARATIVE = re.compile(r"(?:not be|never be|be no|be not) (longer|heavier|larger|bigger|wider|taller|more) than")
_MEASURE_OF = {"longer": "length", "heavier": "weight", "larger": "size", "bigger": "size", "wider": "width",
               "taller": "height"}
#: Nouns that are a measure themselves: "The declared value may not exceed $5,000" asks "the maximum declared
#: value", not "the maximum amount of the declared value".
MEASURE_NOUNS = {"value", "amount", "sum", "total", "weight", "length", "height", "width", "size", "price", "cost",
                  "fee", "limit", "balance", "duration", "period", "term", "load", "volume", "distance",
                  "compensation", "payment", "deposit", "refund", "discount", "liability", "cover", "coverage"}
_WEIGHT = re.compile(r"^(?:kg|lbs?|g|t|tonnes?|tons?|kilograms?|pounds?|grams?)\b", re.IGNORECASE)
_LENGTH = re.compile(r"^(?:cm|mm|m|km|metres?|meters?|inches|inch|feet|ft|centimet\w+)\b", re.IGNORECASE)


def what_of(unit: str, after: list[str]) -> tuple[str, str] | None:
    """("weight", "What weight") for a quantity of ``unit`` ("kg"), from the words after the number."""
    text = " ".join(after[:2])
    if _WEIGHT.match(text):
        return "weight", "What weight"
    if _LENGTH.match(text):
        return "length", "What length"
    if unit == "$":
        return "amount", "What amount"
    if time := EN_TIME.match(text):
        word = time.group().split()[-1]
        return "duration", f"How many {word if word.endswith('s') else word + 's'}"
    return None


def cap_question(words: list[str], at: int, aux_at: int | None, subject: list[str], pre: list[str], number: str,
                  after: list[str]) -> tuple[str, str, str, str, str] | None:
    """A ceiling: "Pallets must not exceed 1,000 kg" -> "What is the maximum weight of pallets?", "The declared value
    may not exceed $5,000" -> "What is the maximum declared value?", "A single booking cannot be longer than 4 hours"
    -> "What is the maximum length of a single booking?", "Our liability is limited to $100 per parcel
    unless …" -> "To what amount is the liability limited?" (the reference keeps the exception); None for any
    other sentence or a quantity whose kind has no name (a bare count)."""
    unit = "$" if "$" in number or "€" in number else "%" if number.endswith("%") else ""
    plural = "plur" if en_plural(subject[-1]) else "sing"
    subj = user_side(lower_subject(subject))
    comparative = _COMPARATIVE.fullmatch(" ".join(pre))
    if any(pre[len(pre) - len(ws):] == ws for ws in _NOT_EXCEED) and len(pre) <= 3 or comparative:
        bare = re.sub(r"^(?:the|a|an)\s+", "", subj)
        head = bare.split()[-1].lower()
        if head in MEASURE_NOUNS and " of " not in f" {bare} ":
            return f"What is the maximum {bare}?", "limit", " ".join(subject), "", plural
        named = what_of(unit, after)
        if named is None or unit == "%":
            return None
        noun = "length" if named[0] == "duration" else named[0]  # "Stays may not exceed 30 days": length of stays
        if comparative and _MEASURE_OF.get(comparative.group(1), noun) != noun:
            return None  # "cannot be longer than 20 kg": the comparative and the unit disagree
        return f"What is the maximum {noun} of {subj}?", "limit", " ".join(subject), "", plural
    if aux_at is not None and any(pre[-2:] == ws for ws in _LIMITED_TO) and len(pre) == 2:
        # a count of days keeps "How many days is remote work limited to?"; an amount or a weight is named
        named = what_of(unit, after)
        if unit == "$":  # "Our liability is limited to $100 per parcel" -> "What is the liability limit per parcel?"
            bare = re.sub(r"^(?:the|a|an)\s+", "", subj)
            per = per_tail(after)
            limit = f"the {bare} limit" if len(bare.split()) <= 2 and " of " not in f" {bare} " \
                else f"the limit on {subj}"
            return f"What is {limit}{per}?", "limit", " ".join(subject), "", plural
        opening = "To what percentage" if unit == "%" else None if named is None or named[0] == "duration" \
            else "To " + named[1][:1].lower() + named[1][1:]
        if opening is None:
            return None
        return f"{opening} {words[at].lower()} {subj} {pre[0]}?", "limit", " ".join(subject), "", plural
    return None


def user_side(subj: str) -> str:
    """A question is asked by the reader: the writer's "our liability" ("your liability" once the sentence is in the
    reader's words) is "the liability"."""
    return re.sub(r"^(?:our|my|your)\s+", "the ", subj, flags=re.IGNORECASE)


__all__ = ["EN_TIME", "MEASURE_NOUNS", "cap_question", "user_side", "what_of"]
