"""English questions from prose sentences (see :mod:`.prose` for the Russian side and the pipeline).

``SUBJECT AUX|VERB-s … OPERATOR QUANTITY`` -> ``Q AUX SUBJECT MIDDLE?`` / ``Q does SUBJECT VERB MIDDLE?``, Q from
the operator and the quantity: within + days -> "How soon", every -> "How often", for -> "How long", at least
… before -> "How far in advance", up to -> "Up to what amount" / "Up to how many …", at + % -> "At what rate",
by + a date -> "By what date", from + a clock time -> "At what hours". "Expense reports must be submitted within
10 working days after the trip" -> "How soon must expense reports be submitted?".
"""

from __future__ import annotations

import re

_CLAUSE = re.compile(r"^\d+(?:\.\d+)+\.?\s+")
_WORD = re.compile(r"\S+")
_EN_AUX = {"is", "are", "must", "will", "shall", "may", "can", "should"}
_EN_BAD = {"it", "this", "that", "these", "those", "there", "he", "she", "they", "we", "you", "if", "when", "in",
           "on", "at", "for", "after", "before", "and", "but", "or", "which", "each", "every"}
_EN_TIME = re.compile(r"^(?:working |business |calendar )?(?:days?|hours?|minutes?|weeks?|months?|years?)\b", re.I)


_EN_MONTH = re.compile(r"^(?:January|February|March|April|May|June|July|August|September|October|November|"
                       r"December)\b")


def _en_plural(noun: str) -> bool:
    """"requests", "fees" are plural; "bonus", "access", "status", "analysis" are not."""
    low = noun.lower()
    return low.endswith("s") and not low.endswith(("ss", "us", "is"))


def _en_counted(rest: list[str]) -> str:
    """"user accounts" from "10 user accounts per …": the plural noun phrase after a count, "" if none."""
    out = []
    for w in rest[:3]:
        clean = w.strip(".,;:")
        if not re.fullmatch(r"[a-z-]+", clean) or clean in ("per", "a", "an", "the", "of", "for", "in", "on"):
            break
        out.append(clean)
        if clean.endswith("s") and not clean.endswith("ss"):
            return " ".join(out)
        if clean != w:
            break
    return ""


def en_question(sentence: str) -> tuple[str | None, str, str, str, str]:
    """(question, fact kind, subject, frame, "sing"|"plur"), or (None, drop reason, "", "", "")."""
    body = re.sub(r"(?<=\d)[ ,](?=\d{3}\b)", "", _CLAUSE.sub("", sentence).rstrip(".!"))
    words = _WORD.findall(body)
    first_num = next((i for i, w in enumerate(words) if re.search(r"\d", w)), None)
    if first_num is None:
        return None, "prose_no_quantity", "", "", ""
    aux_at = next((i for i, w in enumerate(words[:first_num]) if w.lower() in _EN_AUX), None)
    verb_s = None
    if aux_at is None:  # "The line manager approves leave requests within 3 working days"
        verb_s = next((i for i, w in enumerate(words[:first_num]) if i > 0 and re.fullmatch(r"[a-z]{3,}s", w)
                       and not w.endswith("ss") and words[i - 1][:1].isalpha()
                       and words[i - 1].lower() not in ("the", "a", "an", "of", "for")), None)
    at = aux_at if aux_at is not None else verb_s
    if not at:
        return None, "prose_no_verb", "", "", ""
    subject = words[:at]
    if subject[0].lower() in _EN_BAD or any("," in w for w in words[:first_num]) or len(subject) > 8:
        return None, "prose_no_subject", "", "", ""
    number = words[first_num]
    if re.fullmatch(r"\d+(?:st|nd|rd|th)\W*", number, re.IGNORECASE):
        return None, "prose_no_question_form", "", "", ""  # "issued on the 1st day": a date, no template
    pre = [w.lower() for w in words[at + 1:first_num]]
    after = " ".join(words[first_num + 1:first_num + 3])
    unit = "money" if "$" in number or "€" in number else "percent" if number.endswith("%") else \
        "time" if _EN_TIME.match(after) else "clock" if re.fullmatch(r"\d{1,2}:\d\d", number) else \
        "date" if _EN_MONTH.match(after) else "count"
    ops = [("at least", "least"), ("up to", "upto"), ("within", "within"), ("every", "every"), ("for", "for"),
           ("at", "at"), ("capped at", "at"), ("of", "of"), ("by", "by"), ("from", "from")]
    op, op_len = "", 0
    for text, kind in ops:
        ws = text.split()
        if pre[len(pre) - len(ws):] == ws:
            op, op_len = kind, len(ws)
            break
    middle = words[at + 1:first_num - op_len]
    if op and middle and middle[-1].lower() == "for":  # "may work part-time for | up to 6 months"
        middle = middle[:-1]
    if aux_at is not None and words[at].lower() in ("is", "are") and not middle and not op:
        return None, "prose_left_to_value_template", "", "", ""
    if any(w.lower() in ("a", "an", "than", "and", "or") for w in middle) or len(middle) > 5:
        return None, "prose_no_question_form", "", "", ""
    tail_words = " ".join(words[first_num + 1:]).lower()
    if unit == "time":
        unit_word = _EN_TIME.match(after).group().split()[-1]
        unit_word = unit_word if unit_word.endswith("s") else unit_word + "s"
        if op == "within":
            q, kind = "How soon", "deadline"
        elif op == "every":
            q, kind = "How often", "frequency"
        elif op == "for":
            q, kind = "How long", "duration"
        elif op == "least" and ("before" in tail_words or "in advance" in tail_words):
            q, kind = "How far in advance", "deadline"
        elif op == "upto":
            q, kind = f"Up to how many {unit_word}", "limit"
        elif not op:
            q, kind = f"How many {unit_word}", "duration"
        else:
            return None, "prose_no_question_form", "", "", ""
    elif unit in ("money", "percent"):
        if op == "upto":
            q, kind = "Up to what amount", "limit"
        elif op == "at" and unit == "percent":
            q, kind = "At what rate", "percent"
        elif op == "at":
            q, kind = "At what level", "limit"
        else:
            return None, "prose_no_question_form", "", "", ""
    elif unit == "date" and op == "by":  # "The annual bonus is paid by 31 March"
        q, kind = "By what date", "deadline"
    elif unit == "clock" and op == "from":  # "Phone support is available from 9:00 to 18:00"
        q, kind = "At what hours", "time"
    elif unit == "count" and op == "upto" and (things := _en_counted(words[first_num + 1:])):
        q, kind = f"Up to how many {things}", "limit"  # "includes up to 10 user accounts"
    else:
        return None, "prose_no_question_form", "", "", ""
    subj = " ".join(subject)
    subj = subj[:1].lower() + subj[1:] if not re.match(r"^[A-Z]{2,}", subj) else subj
    if aux_at is not None:
        core = [words[at].lower(), subj] + middle
    else:
        verb = words[at]
        base = verb[:-2] if verb.endswith(("ches", "shes", "sses", "xes")) else verb[:-1]
        does = "do" if _en_plural(subject[-1]) else "does"
        core = [does, subj, base] + middle
    plural = _en_plural(subject[-1])
    frame = f"{q} {words[at].lower()} {{subj}} {' '.join(middle)}?" if aux_at is not None and middle else ""
    return " ".join([q] + core) + "?", kind, subj, frame.replace(" ?", "?"), "plur" if plural else "sing"


__all__ = ["en_question"]
