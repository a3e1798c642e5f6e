"""English questions for policy sentences that state what someone pays, gets or may do, asked as a user types them.

Each function takes the parsed sentence (its words, the verb's index ``at``, whether that verb is an auxiliary,
the subject, the words between the verb and the quantity) and returns (question, kind, subject, frame, "sing" or
"plur"), or None when its form does not fit:

* an amount paid: "Members pay $25 an hour for Birch" -> "How much do members pay an hour for Birch?";
* a charge at a rate: "Short loan items are fined at 1 pound for every hour" -> "What is the fine per hour for
  short loan items?";
* a count: "Every member gets 100 pages of printing a month" -> "How many pages of printing does every member
  get a month?";
* a discount: "Students get 20% off the Flex plan" -> "What discount do students get on the Flex plan?";
* a ceiling said with "at most", "no more than", "cannot … more than": "Each booking lasts at most 3 hours" ->
  "How long can each booking last?"; "a group can have no more than 6 hours of bookings per week" -> "How many
  hours of bookings can a group have per week?";
* a window to act in: "You can appeal a charge within 30 days" -> "How long do you have to appeal a charge?";
* an age: "Customers must be at least 21 years old to apply" -> "How old must customers be to apply?";
* a free allowance: "… up to 2 guests a day for free" -> "How many guests can each member bring a day for free?"
  (a count the passage charges for beyond is no maximum);
* the price of an action: "Members can host events in the Loft for a flat fee of $300" -> "How much does it
  cost members to host events in the Loft?";
* a condition: "If you cancel less than 24 hours before the start, the full price is charged" -> "What happens
  if you cancel less than 24 hours before the start?".
"""

from __future__ import annotations

import re

from ragauge.generate.questions.prose_en_limits import NOMINAL
from ragauge.generate.questions.prose_en_tail import TAIL_STOP, counted_tail, per_tail
from ragauge.generate.questions.prose_en_verb import (base_form, do_support, en_plural, lower_subject,
                                                      plural_subject)

Result = tuple[str, str, str, str, str]
_CURRENCY = re.compile(r"^(?:pounds?|dollars?|euros?|cents?|pence|francs?|rupees?|yen)\b", re.IGNORECASE)
_CHARGE_NOUNS = dict(NOMINAL, fined="fine", billed="charge")
#: Verbs whose amount the value templates ask ("An extra bag costs $50": "How much does an extra bag cost?").
_COST = {"cost", "costs"}
_FREE = re.compile(r"\b(?:for free|free of charge|at no (?:extra |additional )?(?:cost|charge)|without charge)\b",
                   re.IGNORECASE)
_PRONOUN = {"their", "its", "his", "her", "them", "they", "it", "theirs"}
_EXTRA = re.compile(r"^(?:at a time|at once|in a row|in one go)\b", re.IGNORECASE)
_CONDITION_OPENERS = {"if", "when", "once"}
_NO_ANTECEDENT = {"it", "they", "this", "that", "these", "those", "he", "she", "there", "such"}


def money_word(words: list[str], at: int) -> bool:
    """"25 pounds", "45 cents": an amount whose currency is a word after the number ("pounds" of a sentence about
    weight is a weight)."""
    return at + 1 < len(words) and bool(_CURRENCY.match(words[at + 1])) and not (
        words[at + 1].lower().startswith("pound") and _WEIGHT.search(" ".join(words)))


_WEIGHT = re.compile(r"\b(?:weigh\w*|heav\w*|kg|lbs?|kilo\w*)\b", re.IGNORECASE)


def _form(subject: list[str]) -> str:
    return "plur" if plural_subject(subject) else "sing"


def _ask(q: str, words: list[str], at: int, aux: bool, subject: list[str], middle: list[str], tail: str = "",
         modal: str = "") -> str:
    """"Q AUX subject middle tail?", "Q do subject VERB middle tail?" or, with ``modal``, "Q can subject VERB
    middle tail?" (a ceiling asked of an active verb: "How long can each booking last?")."""
    subj = lower_subject(subject)
    if aux:
        head = modal or words[at].lower()
        core = [head, subj] + [w for w in middle if w.lower() not in ("not", "never")]
    elif modal:
        core = [modal, subj, base_form(words[at])] + middle
    else:
        core = [do_support(words[at], subject), subj, base_form(words[at])] + middle
    return (" ".join([q] + core) + tail + "?").replace(" ?", "?")


def _phrase(rest: list[str], limit: int = 5) -> list[str]:
    """Words of a phrase up to the end of its clause ("for Birch," -> ["for", "Birch"])."""
    out = []
    for w in rest[:limit]:
        clean = w.rstrip(".,;:")
        if not clean or clean.lower() in ("and", "or", "but", "if", "when", "once", "unless", "until", "which") \
                or re.search(r"\d", clean):
            break
        out.append(clean)
        if clean != w:
            break
    return out


def paid_amount(words: list[str], at: int, aux: bool, subject: list[str], middle: list[str],
                rest: list[str]) -> Result | None:
    """"Members pay $25 an hour for Birch" -> "How much do members pay an hour for Birch?"; "Guests are charged $10
    per night" -> "How much are guests charged per night?". ``rest``: the words after the amount."""
    if aux:  # "are charged $10", "may claim $500": a participle or a verb after the auxiliary, nothing more
        if not middle or len(middle) > 2 or middle[-1].lower() in ("be", "been") \
                or words[at].lower() in ("is", "are") and len(middle) != 1:
            return None
    elif middle:  # "pay $25": the amount right after the verb
        return None
    if (middle[-1] if aux else words[at]).lower() in _COST:
        return None
    per = per_tail(rest)
    after = rest[len(per.split()):]
    target = _phrase(after) if after and after[0].lower() == "for" else []
    if any(w.lower() in _PRONOUN for w in target):
        target = []
    tail = per + (" " + " ".join(target) if len(target) > 1 else "")
    return _ask("How much", words, at, aux, subject, middle, tail), "amount", " ".join(subject), "", _form(subject)


def charge_rate(words: list[str], at: int, subject: list[str], middle: list[str], rest: list[str]) -> Result | None:
    """"Short loan items are fined at 1 pound for every hour" -> "What is the fine per hour for short loan items?";
    "Mileage is paid at 45 cents per mile" -> "How much is mileage paid per mile?": an amount at a rate."""
    per = per_tail(rest)
    if not per or words[at].lower() not in ("is", "are") or len(middle) != 1:
        return None
    subj = lower_subject(subject)
    noun = _CHARGE_NOUNS.get(middle[0].lower())
    if noun is not None:
        rate = re.sub(r"^ an? ", " per ", per)
        return f"What is the {noun}{rate} for {subj}?", "amount", " ".join(subject), "", _form(subject)
    return _ask("How much", words, at, True, subject, middle, per), "amount", " ".join(subject), "", _form(subject)


_MAGNITUDE = {"hundred", "thousand", "million", "billion", "dozen"}


def counted(rest: list[str]) -> tuple[list[str], int]:
    """(["black-and-white", "pages"], 2) of "black-and-white pages of printing": the plural noun phrase after a
    count and how many words it takes ("2 million books": (["books"], 2)); ([], 0) when none."""
    out: list[str] = []
    for k, w in enumerate(rest[:4]):
        clean = w.strip(".,;:")
        if clean in _MAGNITUDE and not out and k == 0:  # "2 million books": the count is of books
            continue
        if not re.fullmatch(r"[a-z][a-z-]*", clean) or clean in TAIL_STOP or clean in ("the", "of"):
            return [], 0
        out.append(clean)
        if en_plural(clean):
            return out, k + 1
        if clean != w:
            return [], 0
    return [], 0


def count_question(words: list[str], at: int, aux: bool, subject: list[str], middle: list[str],
                   rest: list[str]) -> Result | None:
    """"Every member gets 100 pages of printing a month" -> "How many pages of printing does every member get a
    month?"; "Birch seats 4 people" -> "How many people does Birch seat?". The number follows the verb; "3 times the
    rate" is a multiplier, not a count."""
    things, used = counted(rest)
    if not things or things == ["times"] or (middle if not aux else len(middle) != 1 or middle[0].lower() in (
            "be", "been")) or words[at].lower() in ("is", "are"):
        return None
    of, per = counted_tail(rest[used:])
    q = "How many " + " ".join(things) + of
    return _ask(q, words, at, aux, subject, middle, per), "count", " ".join(subject), "", _form(subject)


def discount(words: list[str], at: int, aux: bool, subject: list[str], middle: list[str], num_at: int) -> \
        Result | None:
    """"Students get 20% off the Flex plan only" -> "What discount do students get on the Flex plan?"; a discount
    on what the subject's own thing is ("off the price of their plan") is left out."""
    rest = [w.lower().rstrip(".,;:") for w in words[num_at + 1:num_at + 3]]
    if not words[num_at].endswith("%"):
        return None
    if rest[:1] == ["off"]:
        target_at = num_at + 2
    elif words[num_at - 1].lower() in ("a", "an") and rest[:1] == ["discount"] and rest[1:2] in (["on"], ["off"]):
        target_at = num_at + 3
        middle = middle[:-1]
    else:
        return None
    if aux and len(middle) != 1 or not aux and middle:
        return None
    target = _phrase(words[target_at:], 6)
    while target and target[-1].lower() in ("only", "alone"):
        target = target[:-1]
    on = " on " + " ".join(target) if target and len(target) <= 5 and not _PRONOUN & {
        w.lower() for w in target} else ""
    return _ask("What discount", words, at, aux, subject, middle, on), "percent", " ".join(subject), "", \
        _form(subject)


def at_most(words: list[str], at: int, aux: bool, subject: list[str], middle: list[str], unit: str,
            unit_word: str, rest: list[str], negated: bool) -> Result | None:
    """A ceiling ("at most", "no more than", "cannot … for more than"): "How long can each booking last?",
    "How long can phone booths be booked at a time?", "How many hours of bookings can a group have per week?",
    "How many guests can members bring?". ``rest``: the words after the quantity."""
    modal = "can" if negated or not aux else ""
    if unit == "time":
        of, per = counted_tail(rest[1:])
        if of or per:
            q = f"How many {unit_word}{of}"
            return _ask(q, words, at, aux, subject, middle, per, modal), "limit", " ".join(subject), "", \
                _form(subject)
        extra = _EXTRA.match(" ".join(rest[1:5]).rstrip(".,;:"))
        tail = " " + extra.group() if extra else ""
        return _ask("How long", words, at, aux, subject, middle, tail, modal), "limit", " ".join(subject), "", \
            _form(subject)
    things, used = counted(rest)
    if unit != "count" or not things:
        return None
    per = per_tail(rest[used:])
    return _ask("How many " + " ".join(things), words, at, aux, subject, middle, per, modal), "limit", \
        " ".join(subject), "", _form(subject)


def free_allowance(words: list[str], at: int, aux: bool, subject: list[str], middle: list[str], things: str,
                   per: str, passage: str) -> Result | None:
    """"Each member can bring up to 2 guests a day for free" -> "How many guests can each member bring a day for
    free?"; a count the passage charges for beyond ("Additional guests cost $15") -> "How many guests can …?"
    without "maximum": the count is an allowance, not a ceiling. None for a ceiling."""
    text = " ".join(words)
    free = bool(_FREE.search(text))
    if not free and not charged_beyond(passage, things):
        return None
    tail = per + (" for free" if free else "")
    return _ask("How many " + things, words, at, aux, subject, middle, tail), "count", " ".join(subject), "", \
        _form(subject)


def charged_beyond(passage: str, things: str) -> bool:
    """Whether ``passage`` charges for more of ``things`` than an allowance ("Each request beyond the free
    allowance costs 5 pounds", "Additional guests cost $15")."""
    if not passage or not things:
        return False
    head = things.split()[-1].lower()
    stem = head[:-1] if head.endswith("s") else head
    for sentence in re.split(r"(?<=[.;!?])\s+", passage):
        low = sentence.lower()
        if re.search(rf"\b{re.escape(stem)}s?\b", low) and re.search(
                r"\b(?:beyond|above|over|extra|additional|further|more)\b", low) and re.search(
                r"\b(?:costs?|charged?|fees?|pays?|payable)\b", low):
            return True
    return False


def window(words: list[str], at: int, subject: list[str], middle: list[str]) -> Result | None:
    """"You can appeal a charge within 30 days of the invoice date" -> "How long do you have to appeal a charge?":
    a time one may act in is a window, not a speed."""
    if words[at].lower() not in ("can", "may") or not middle or middle[0].lower() in ("be", "been", "not") \
            or len(middle) > 4 or any(w.lower() in _PRONOUN for w in middle):
        return None
    subj = lower_subject(subject)
    have = "does" if not plural_subject(subject) else "do"
    question = " ".join(["How long", have, subj, "have to"] + middle) + "?"
    return question, "deadline", " ".join(subject), "", _form(subject)


def how_old(words: list[str], at: int, subject: list[str], middle: list[str], rest: list[str]) -> Result | None:
    """"Customers must be at least 21 years old to apply" -> "How old must customers be to apply?"."""
    low = [w.lower().rstrip(".,;:") for w in rest[:3]]
    if middle != ["be"] or low[:1] != ["years"] or low[1:2] != ["old"] and low[1:3] != ["of", "age"]:
        return None
    after = rest[2 if low[1] == "old" else 3:]
    purpose = _phrase(after) if after and after[0].lower() == "to" else []
    return _ask("How old", words, at, True, subject, middle, " " + " ".join(purpose) if purpose else ""), \
        "condition", " ".join(subject), "", _form(subject)


def cost_to(words: list[str]) -> Result | None:
    """"Members can host evening events in the Loft after 7 pm for a flat fee of $300" -> "How much does it cost
    members to host evening events in the Loft after 7 pm?": the price of what the subject may do."""
    aux = next((i for i, w in enumerate(words[:9]) if w.lower() in ("can", "may")), None)
    if aux is None or aux == 0 or not re.match(r"[A-Z]", words[0]) or words[0].lower() in _NO_ANTECEDENT | {
            "if", "when", "once", "after", "before", "for", "in", "on", "at"}:
        return None
    subject = words[:aux]
    if any(re.search(r"[,;:\d]", w) for w in subject):
        return None
    for k in range(len(words) - 1, aux + 1, -1):
        if not (re.search(r"[$€£]\d", words[k]) or re.fullmatch(r"\d[\d.,]*", words[k]) and money_word(words, k)):
            continue
        before = [w.lower() for w in words[aux + 1:k]]
        fee = re.search(r"(?:^| )for(?: an?(?: [a-z-]+)?? (?:fee|charge|price|rate|cost) of)?$", " ".join(before))
        if fee is None:
            return None
        action = words[aux + 1:aux + 1 + len(" ".join(before)[:fee.start()].split())]
        if not action or len(action) > 10 or any(re.search(r"[,;:]", w) for w in action) \
                or action[0].lower() in ("be", "not", "also", "only") or action[0].endswith("s"):
            return None
        done = _their_to_a(action)
        if done is None:
            return None
        rest = words[k + (2 if money_word(words, k) else 1):]
        subj = lower_subject(subject)
        subj = "me" if subj == "I" else subj
        question = " ".join(["How much does it cost", subj, "to"] + done) + per_tail(rest) + "?"
        return question, "amount", " ".join(subject), "", _form(subject)
    return None


def _their_to_a(words: list[str]) -> list[str] | None:
    """"as their business address" -> "as a business address" (the possessive's owner is the question's subject);
    None when a pronoun cannot be replaced."""
    out = []
    for i, w in enumerate(words):
        low = w.lower()
        if low == "their" and i + 1 < len(words) and words[i + 1].lower() != "own" \
                and not en_plural(words[i + 1]):
            out.append("an" if words[i + 1][:1].lower() in "aeiou" else "a")
        elif low in _PRONOUN:
            return None
        else:
            out.append(w)
    return out


def what_happens(words: list[str]) -> Result | None:
    """"If an item is 60 days overdue, we treat it as lost …" -> "What happens if an item is 60 days overdue?": a
    condition with a number, what follows it the answer."""
    if len(words) < 6 or words[0].lower() not in _CONDITION_OPENERS:
        return None
    comma = next((i for i, w in enumerate(words[:16]) if w.endswith(",")), None)
    if comma is None or comma < 2 or len(words) - comma - 1 < 3:
        return None
    clause = words[1:comma + 1]
    clause[-1] = clause[-1].rstrip(",")
    if clause[0].lower() in _NO_ANTECEDENT or not any(re.search(r"\d", w) for w in clause) \
            or any(w.lower() in _PRONOUN for w in clause) or any(re.search(r"[;:]", w) for w in clause):
        return None
    first = clause[0] if re.match(r"^(?:I|[A-Z]{2,}|[A-Z][a-z]+ [A-Z])", " ".join(clause[:2])) \
        else clause[0][:1].lower() + clause[0][1:]
    question = " ".join(["What happens", words[0].lower(), first] + clause[1:]) + "?"
    return question, "condition", "", "", ""


__all__ = ["at_most", "charge_rate", "charged_beyond", "cost_to", "count_question", "counted", "discount",
           "free_allowance", "how_old", "money_word", "paid_amount", "what_happens", "window"]
