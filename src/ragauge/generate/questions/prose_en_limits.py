"""English questions about a ceiling ("up to") and a notice period, worded as a fluent user types them.

* A count: "Unused leave may be carried over up to 5 days" -> "What is the maximum number of days that unused
  leave may be carried over?"; "The Basic plan includes up to 3 mailboxes" -> "What is the maximum number of
  mailboxes the Basic plan includes?" (not "How many days at most may …", which reads stilted).
* An amount: "Hotel costs are reimbursed up to $180 per night" -> "What is the maximum reimbursement for hotel
  costs per night?" (a verb of paying back or charging has a noun of its own); another passive verb: "What is the
  maximum amount of cash that may be withdrawn per day?"; a person paid, or an active verb: "What is the maximum
  amount that employees are reimbursed per year?", "What is the maximum amount the insurer pays per claim?".
* A notice period: "You must give notice within 30 days before the next billing date" -> "How much notice must you
  give before the next billing date?" (not "How soon must you give notice?", which asks how fast).
"""

from __future__ import annotations

import re

#: A passive participle of paying back -> the noun a user asks about ("the maximum reimbursement for X").
NOMINAL = {"reimbursed": "reimbursement", "refunded": "refund", "compensated": "compensation", "covered": "cover",
           "charged": "charge"}
#: A passive participle: "allowed", "withdrawn", "paid".
_PARTICIPLE = re.compile(r"(?:ed|en|wn|paid|lent|spent|sent|kept|held|sold|made|set)$", re.IGNORECASE)
#: Heads of a subject that may be a person: the amount is paid to them, not for them. An agent noun ("trainer",
#: "instructor", "dentist") counts; so does a thing with such an ending ("transfers"), which only costs it the
#: noun form ("the maximum amount that transfers are refunded", grammatical all the same).
_PERSON = re.compile(r"(?:employee|staff|member|customer|client|passenger|patient|student|guest|user|tenant|"
                     r"applicant|resident|participant|volunteer|intern|trainee|people|person|you|we|"
                     r"\w{2,}(?:er|or|ist|ian))s?$", re.IGNORECASE)
#: A subject that starts with one of these needs no "that" before it ("… mailboxes the Basic plan includes").
_DETERMINED = re.compile(r"^(?:the|a|an|our|your|my|their|its|this|these|those|you|we|they)\b", re.IGNORECASE)
#: Words of a notice that go with it: "give written notice", "provide prior notice".
_NOTICE_MODIFIERS = {"written", "prior", "advance", "formal", "advanced"}


def relative(subj: str, verb: str, middle: list[str]) -> str:
    """The clause a "maximum" question ends with: "that unused leave may be carried over", "the Basic plan
    includes" (a subject with a determiner reads clearly without "that")."""
    lead = "" if _DETERMINED.match(subj) else "that "
    return " ".join([lead + subj, verb] + middle)


def max_number(things: str, subj: str, verb: str, middle: list[str], per: str) -> str:
    """"What is the maximum number of days of paid leave that employees may carry over per year?"."""
    return f"What is the maximum number of {things} {relative(subj, verb, middle)}{per}?"


def max_number_frame(things: str, verb: str, middle: list[str], per: str) -> str:
    """:func:`max_number` with ``{subj}`` for the subject (another subject of the documents may fill it)."""
    return f"What is the maximum number of {things} that {{subj}} {' '.join([verb] + middle)}{per}?".replace(" ?",
                                                                                                            "?")


def max_amount(subj: str, subject_head: str, verb: str, middle: list[str], per: str, *, aux: bool) -> str | None:
    """"What is the maximum reimbursement for hotel costs per night?", "What is the maximum amount that
    employees are reimbursed per year?", "What is the maximum amount of travel costs that staff may claim?" (an
    active verb's object); None when the verb says nothing ("Deposits are up to $10,000": the value template
    asks it). ``aux``: ``verb`` is an auxiliary ("are", "may"), else the sentence's own verb ("pays")."""
    done = [w for w in middle if w.lower() not in ("be", "been")]
    if aux and not done:
        return None
    active = not aux or middle[0].lower() not in ("be", "been") and not (
        verb.lower() in ("is", "are") and _PARTICIPLE.search(middle[0]))
    if active:  # "The insurer pays up to $5,000" / "Staff may claim travel costs up to $500"
        obj = middle[1:] if aux else middle
        if obj and all(re.fullmatch(r"[a-z-]+", w) for w in obj) and obj[0].lower() not in _NOT_OBJECT:
            head = f"{verb} {middle[0]}" if aux else verb
            return f"What is the maximum amount of {' '.join(obj)} {relative(subj, head, [])}{per}?"
        return f"What is the maximum amount {relative(subj, verb, middle)}{per}?"
    if _PERSON.search(subject_head) or len(done) > 1 or not _PARTICIPLE.search(done[0]) \
            or re.match(r"(?:a|an)\s", subj, re.IGNORECASE):  # not "the maximum amount of a trainer paid"
        return f"What is the maximum amount {relative(subj, verb, middle)}{per}?"
    if done[0].lower() in NOMINAL:
        return f"What is the maximum {NOMINAL[done[0].lower()]} for {subj}{per}?"
    if verb in ("is", "are"):  # "Refunds are paid up to $300" -> "… the maximum amount of refunds paid?"
        return f"What is the maximum amount of {subj} {done[0]}{per}?"
    return f"What is the maximum amount of {subj} that {' '.join([verb] + middle)}{per}?"


#: Words after an active verb that start no object ("claim for training", "pay back"): the clause stays whole.
_NOT_OBJECT = {"for", "in", "on", "at", "to", "from", "with", "by", "per", "of", "back", "off", "out", "up", "over",
               "into", "towards", "toward", "about", "the", "a", "an", "each", "every", "only", "also"}


def notice_split(middle: list[str], after_unit: list[str]) -> list[str] | None:
    """The verb of giving a notice without the notice ("give" of "give written notice"), when the quantity is the
    notice's length: a notice after the verb ("must give notice within 30 days") or after the unit ("must give
    30 days' written notice", "30 days of notice"; [] when nothing stands between the verb and the quantity);
    None otherwise."""
    low = [w.lower() for w in middle]
    if low and low[-1] == "notice":
        k = len(low) - 1
        while k > 0 and low[k - 1] in _NOTICE_MODIFIERS:
            k -= 1
        return middle[:k] if k > 0 else None
    nxt = [w.lower().rstrip(".,;:") for w in after_unit[:3]]
    while nxt and nxt[0] in _NOTICE_MODIFIERS:  # "30 days' written notice"
        nxt = nxt[1:]
    if nxt[:1] == ["notice"] or nxt[:2] == ["of", "notice"]:
        return middle  # [] when the verb itself takes the notice ("Office contracts need 60 days' notice")
    return None


def before_phrase(rest: list[str], limit: int = 6) -> list[str]:
    """["before", "the", "next", "billing", "date"] from "before the next billing date.": the event a lead time
    is counted back from, to the end of its clause; [] when none follows."""
    low = [w.lower() for w in rest]
    at = next((i for i, w in enumerate(low[:3]) if w == "before"), None)
    if at is None:
        return []
    out = ["before"]
    for w in rest[at + 1:at + 1 + limit]:
        clean = w.rstrip(".,;:")
        if not re.fullmatch(r"[A-Za-z'-]+", clean) or clean.lower() in ("and", "or", "if", "when", "unless", "but"):
            break
        out.append(clean)
        if clean != w:
            break
    return out if len(out) > 1 else []


def repeats_subject(before: str, subject: list[str]) -> bool:
    """The event a cut-off is counted from repeats a word of the subject ("… before the class" of "class
    bookings"): "How many hours before the class can class bookings …" says the noun twice."""
    words = before.lower().split()
    return bool(words) and words[-1] in {w.lower() for w in subject}


__all__ = ["NOMINAL", "before_phrase", "max_amount", "max_number", "max_number_frame", "notice_split", "relative",
           "repeats_subject"]
