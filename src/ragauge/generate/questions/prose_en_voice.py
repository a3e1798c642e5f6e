"""An English policy sentence put in the words its reader asks with, before a question is formed from it.

* The document's own voice: a user addresses the business as "you", and speaks of himself as "I". A sentence
  with "we/us/our" has "we" -> "you", "our" -> "your", "us" -> "you", and then its "you" is the reader: "you" ->
  "I" (a subject) or "me" (an object), "your" -> "my". "We hold parcels for up to 7 days" -> "You hold parcels
  for up to 7 days"; "we charge you" -> "you charge me". A sentence without "we" keeps its generic "you" ("How
  much notice must you give?" reads as a user's question).
* An instruction to the reader: "To cancel, give us at least 30 days' notice" -> the clause "I must give you at
  least 30 days' notice" and the purpose "to cancel", said at the end of the question; "Please return …" ->
  "I must return …". A purpose before a statement ("To cancel, members must give …") moves to the end as well.
* Clauses that hide the subject's clause: a list after a colon ("We have three rooms: Birch seats 4 people, …"
  -> "Birch seats 4 people, …"); a second predicate after "but" ("Phone booths are free for all members but
  cannot be booked for more than 1 hour" -> "Phone booths cannot be booked for more than 1 hour"); a lead time
  after a comma ("Rooms can be booked online by groups of 3 to 8, up to 7 days in advance" -> "Rooms can be
  booked online up to 7 days in advance": the phrase with another number is left out).
"""

from __future__ import annotations

import re

_FIRST = {"we": "you", "us": "you", "our": "your", "ours": "yours", "ourselves": "yourselves", "we'll": "you'll",
          "we're": "you're", "we've": "you've"}
_SECOND = {"your": "my", "yours": "mine", "yourself": "myself", "you'll": "I'll", "you're": "I'm",
           "you've": "I've"}
#: Words after which "you" is a subject ("if you cancel", "and you pay").
_BEFORE_SUBJECT = {"if", "when", "once", "unless", "until", "before", "after", "and", "or", "but", "that", "so",
                   "because", "while", "as", "where", "whether"}
#: Words an instruction's object starts with ("give us", "return the item", "send your …").
_OBJECT_START = {"us", "you", "me", "it", "them", "your", "my", "our", "the", "a", "an", "all", "any", "this",
                 "these", "those", "each", "every"}
#: A word that cannot open an instruction: determiners, pronouns, prepositions, conjunctions, auxiliaries.
_NOT_IMPERATIVE = {"the", "a", "an", "this", "that", "these", "those", "each", "every", "all", "any", "no", "some",
                   "our", "your", "my", "their", "its", "his", "her", "we", "you", "i", "they", "it", "he", "she",
                   "if", "when", "once", "for", "in", "on", "at", "by", "from", "with", "after", "before", "during",
                   "and", "or", "but", "there", "here", "is", "are", "must", "may", "can", "will", "should",
                   "only", "also", "members", "staff"}
_DETERMINERS = {"the", "a", "an", "this", "that", "these", "those", "our", "your", "my", "their", "its", "each",
                "every", "any", "all", "no"}
#: Operators that open a lead time after a comma ("…, up to 7 days in advance").
_LEAD_OPERATOR = (("up", "to"), ("at", "least"), ("no", "later", "than"), ("no", "less", "than"))
_PREPOSITIONS = {"by", "for", "with", "of", "in", "at", "on", "from", "through", "via", "to", "under", "over"}
#: Words a clause after ", but" opens with ("your borrowing is blocked …", "the fee is …").
_CLAUSE_OPENERS = {"the", "your", "my", "our", "their", "its", "a", "an", "this", "each", "every", "all", "you",
                   "i", "we"}
_AUX = {"is", "are", "must", "will", "shall", "may", "can", "should", "cannot", "can't"}


def _clean(word: str) -> str:
    return word.lower().strip(".,;:!?")


def _punct(word: str) -> str:
    stripped = word.rstrip(".,;:!?")
    return word[len(stripped):]


def user_voice(words: list[str], *, reader_is_i: bool = False) -> list[str]:
    """``words`` with the document's "we" made the reader's "you" and its "you" the reader's "I" (see the module
    docstring); unchanged when no word is in the first person, unless the reader already speaks as "I"
    (``reader_is_i``: an instruction made "I must …", where "your application" is "my application")."""
    if not reader_is_i and not any(_clean(w) in _FIRST for w in words):
        return list(words)
    out: list[str] = []
    for i, w in enumerate(words):
        low, tail = _clean(w), _punct(w)
        prev = _clean(words[i - 1]) if i else ""
        if low in _FIRST:
            new = _FIRST[low]
        elif low == "you":
            subject = i == 0 or prev in _BEFORE_SUBJECT or words[i - 1].endswith((",", ";", ":"))
            new = "I" if subject else "me"
        elif low in _SECOND:
            new = _SECOND[low]
        else:
            out.append(w)
            continue
        if new not in ("I", "I'll", "I'm", "I've") and w[:1].isupper():
            new = new[:1].upper() + new[1:]
        out.append(new + tail)
    for i in range(len(out) - 1):  # "I are" -> "I am", "I were" -> "I was"
        if out[i] == "I":
            out[i + 1] = {"are": "am", "were": "was"}.get(out[i + 1], out[i + 1])
    return out


def _imperative(words: list[str], *, marked: bool) -> bool:
    """Whether ``words`` open with an instruction: a verb and its object ("give us", "return the item"); after
    "Please" or a purpose any verb-like first word counts (``marked``)."""
    if len(words) < 2:
        return False
    first = _clean(words[0])
    if not re.fullmatch(r"[a-z]{2,}", first) or first in _NOT_IMPERATIVE or first.endswith(("ed", "ing", "ly")):
        return False
    if first.endswith("s") and not first.endswith("ss"):
        return False  # "Refunds take …", "Members pay …": a plural subject, not an instruction
    return _clean(words[1]) in _OBJECT_START or marked and bool(re.fullmatch(r"[a-z]+", _clean(words[1])))


def reader_clause(words: list[str]) -> tuple[list[str], str]:
    """(the clause a question is asked from, a purpose to say at its end), both in the reader's words
    (:func:`user_voice`): "To cancel, give us …" -> (["I", "must", "give", "you", …], "to cancel"); "Please send
    your form within 5 days" -> (["I", "must", "send", "my", "form", …], ""); any other sentence -> (its words,
    "")."""
    purpose: list[str] = []
    marked = False
    if words and words[0].lower() == "to":
        end = next((i for i, w in enumerate(words[:7]) if w.endswith(",")), None)
        if end is not None and end >= 1 and re.fullmatch(r"[a-z]+", _clean(words[1])):
            purpose = [w.lower() for w in words[:end + 1]]
            purpose[-1] = purpose[-1].rstrip(",")
            words = words[end + 1:]
            marked = True
    if words and words[0].lower() == "please":
        words = words[1:]
        marked = True
    imperative = bool(words) and _imperative(words, marked=marked)
    if imperative:
        words = ["I", "must", words[0].lower()] + words[1:]
    elif purpose and words:
        words = [words[0][:1].upper() + words[0][1:]] + words[1:]
    both = user_voice(purpose + words, reader_is_i=imperative)
    return both[len(purpose):], " ".join(both[:len(purpose)])


def after_colon(words: list[str]) -> list[str]:
    """The clause after a colon when the quantity is after it ("We have three rooms: Birch seats 4 people")."""
    colon = next((i for i, w in enumerate(words) if w.endswith(":")), None)
    if colon is None or colon + 2 >= len(words):
        return words
    if any(re.search(r"\d", w) for w in words[:colon + 1]) or not re.search(r"\d", " ".join(words[colon + 1:])):
        return words
    rest = words[colon + 1:]
    return [rest[0][:1].upper() + rest[0][1:]] + rest[1:]


def but_predicate(words: list[str]) -> list[str]:
    """"Phone booths are free for all members but cannot be booked for more than 1 hour" -> "Phone booths cannot be
    booked for more than 1 hour": the second predicate with the subject of the first, when the quantity is in it
    and the first has none; "Loans are not fined when late, but your borrowing is blocked once an item is 14 days
    overdue" -> the clause after "but" (a reference keeps the whole sentence)."""
    but = next((i for i, w in enumerate(words) if w.lower() == "but"), None)
    if but is None or but + 2 >= len(words) or any(re.search(r"\d", w) for w in words[:but]):
        return words
    if words[but - 1].endswith(",") and _clean(words[but + 1]) in _CLAUSE_OPENERS:
        return [words[but + 1][:1].upper() + words[but + 1][1:]] + words[but + 2:]
    if _clean(words[but + 1]) not in _AUX:
        return words
    first_aux = next((i for i, w in enumerate(words[:but]) if _clean(w) in _AUX), None)
    if first_aux is None or first_aux == 0 or any(re.search(r"\d", w) for w in words[:but]) \
            or any("," in w for w in words[:first_aux]):
        return words
    return words[:first_aux] + words[but + 1:]


def lead_after_comma(words: list[str]) -> list[str]:
    """"Rooms can be booked online by groups of 3 to 8, up to 7 days in advance" -> "Rooms can be booked online up
    to 7 days in advance": a lead time after the last comma joined to its clause, the phrase of the clause that
    holds another number (from its preposition) left out."""
    comma = next((i for i in range(len(words) - 1, -1, -1) if words[i].endswith(",")), None)
    if comma is None:
        return words
    tail = [w.lower() for w in words[comma + 1:]]
    if not any(tuple(tail[:len(op)]) == op for op in _LEAD_OPERATOR):
        return words
    text = " ".join(tail)
    if not re.search(r"\d", text) or not re.search(r"\b(?:in advance|ahead|before)\b", text):
        return words
    head = words[:comma + 1]
    head[-1] = head[-1].rstrip(",")
    number = next((i for i, w in enumerate(head) if re.search(r"\d", w)), None)
    if number is not None:
        aux = next((i for i, w in enumerate(head[:number]) if _clean(w) in _AUX), None)
        cut = None if aux is None else next((k for k in range(aux + 2, number) if _clean(head[k]) in _PREPOSITIONS),
                                            None)
        if cut is None:
            return words
        head = head[:cut]
    return head + words[comma + 1:]


def is_name(word: str, words: list[str], passage: str = "") -> bool:
    """Whether a capitalised ``word`` that opens a clause is a name, not a capitalised common noun: it is written
    with a capital inside a sentence of ``passage``, or it opens a list after a colon whose other items are
    capitalised ("rooms: Birch seats 4 people, Maple seats 8")."""
    if not re.fullmatch(r"[A-Z][a-z]+", word):
        return False
    for m in re.finditer(rf"\b([a-z]+)[,;]? +{word}\b", passage):  # "… an hour for Birch": a capital inside a
        if m.group(1) not in _DETERMINERS:                          # sentence, not "the Premium plan"
            return True
    colon = next((i for i, w in enumerate(words) if w.endswith(":")), None)
    if colon is None or colon + 1 >= len(words) or words[colon + 1] != word:
        return False
    return any(re.fullmatch(r"[A-Z][a-z]+", w) and not words[i - 1].endswith((".", ":")) and w != "I"
               for i, w in enumerate(words[colon + 2:], colon + 2))


def agree_with_i(question: str) -> str:
    """"How much are I charged?" -> "How much am I charged?", "does I" -> "do I", "has I" -> "have I"."""
    question = re.sub(r"\b(?:is|are) I\b", "am I", question)
    question = re.sub(r"\bdoes I\b", "do I", question)
    return re.sub(r"\bhas I\b", "have I", question)


__all__ = ["after_colon", "agree_with_i", "but_predicate", "is_name", "lead_after_comma", "reader_clause",
           "user_voice"]
