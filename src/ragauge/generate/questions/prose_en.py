"""English questions from prose sentences (see :mod:`.prose` for the Russian side and the pipeline).

``SUBJECT AUX|VERB-s … OPERATOR QUANTITY`` -> ``Q AUX SUBJECT MIDDLE?`` / ``Q does SUBJECT VERB MIDDLE?``, Q from
the operator and the quantity: within + days -> "How soon", every -> "How often", for -> "How long", at least
… before -> "How far in advance", up to -> "How much at most" / "How many … at most", at + % -> "At what rate",
by + a date -> "By what date", from + a clock time -> "At what hours". "Expense reports must be submitted within
10 working days after the trip" -> "How soon must expense reports be submitted?".
"""

from __future__ import annotations

import re

_CLAUSE = re.compile(r"^\d+(?:\.\d+)+\.?\s+")
_WORD = re.compile(r"\S+")
_EN_AUX = {"is", "are", "must", "will", "shall", "may", "can", "should"}
_EN_BAD = {"it", "this", "that", "these", "those", "there", "he", "she", "they", "we", "if", "when", "in",
           "on", "at", "for", "after", "before", "and", "but", "or", "which", "each", "every"}
_EN_TIME = re.compile(r"^(?:working |business |calendar )?(?:days?|hours?|minutes?|weeks?|months?|years?)\b", re.I)


#: "Travellers aged 75 or over must …", "Children under 6 stay free …": an age that qualifies the subject.
_AGED = re.compile(r"^(?P<subj>(?:[A-Z][a-z-]*|[A-Z]{2,})(?: [a-z-]+){0,3}) (?:(?P<aged>aged \d{1,3} (?:or|and) "
                   r"(?:over|older))|(?P<cmp>under|over) \d{1,3}(?: years(?: of age| old)?)?) "
                   r"(?!(?:kg|cm|lbs?|g|m|km|mm|kilograms?|pounds?|metres?|meters?|inches)\b)(?P<verb>[a-z]+) "
                   r"(?P<rest>[^,;]+)$")
_EN_MONTH = re.compile(r"^(?:January|February|March|April|May|June|July|August|September|October|November|"
                       r"December)\b")


def _en_plural(noun: str) -> bool:
    """"requests", "fees" are plural; "bonus", "access", "status", "analysis" are not."""
    low = noun.lower()
    if low in ("children", "people", "men", "women", "staff", "police", "cattle", "teeth", "feet"):
        return True
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
    aged = _AGED.match(body)
    if aged:  # "Travellers aged 75 or over must complete …" -> "From what age must travellers complete …?"
        subject = aged.group("subj").split()
        if subject[0].lower() in _EN_BAD or len(subject) > 5:
            return None, "prose_no_subject", "", "", ""
        q_age = "From what age" if aged.group("aged") else f"{aged.group('cmp').capitalize()} what age"
        verb, rest = aged.group("verb"), aged.group("rest").rstrip(",").split()
        plural = _en_plural(subject[-1])
        if verb.lower() in _EN_AUX:
            core = [verb.lower(), _lower_subject(subject)] + rest
        elif re.fullmatch(r"[a-z]{3,}s?", verb):
            base = verb[:-1] if verb.endswith("s") and not verb.endswith("ss") else verb
            core = ["do" if plural or not verb.endswith("s") else "does", _lower_subject(subject), base] + rest
        else:
            return None, "prose_no_verb", "", "", ""
        return " ".join([q_age] + core) + "?", "condition", " ".join(subject), "", "plur" if plural else "sing"
    aux_at = next((i for i, w in enumerate(words[:first_num]) if w.lower() in _EN_AUX), None)
    has_verb = any(i > 0 and re.fullmatch(r"[a-z]{3,}s", w) and not w.endswith("ss") for i, w in
                   enumerate(words[:first_num]))
    if aux_at is None and not has_verb:  # "Pets up to 10 kg are allowed for a fee of $25": a number in the subject
        later = next((i for i, w in enumerate(words[:9]) if i > first_num and w.lower() in _EN_AUX
                      and not {"and", "or"} & {x.lower() for x in words[:i]}), None)
        after_aux = next((i for i, w in enumerate(words) if later is not None and i > later
                          and re.search(r"\d", w)), None)
        if later is not None and after_aux is not None:
            aux_at, first_num = later, after_aux
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
    last_num = _range_end(words, first_num)
    q_at = first_num  # where the quantity phrase starts: "from 3 to 5 days" starts at "from"
    if last_num > first_num and words[first_num - 1].lower() in ("from", "between") and first_num - 1 > at:
        q_at -= 1
    pre = [w.lower() for w in words[at + 1:q_at]]
    cap = _cap_question(words, at, aux_at, subject, pre, number, words[last_num + 1:])
    if cap is not None:
        return cap
    when = next((k for k, w in enumerate(pre) if w in ("when", "if")), None)
    if when is not None and aux_at is not None and 0 < when <= 4 and words[at].lower() in ("is", "are"):
        # "Delayed baggage is covered when the delay lasts more than 12 hours" -> "When is delayed baggage covered?"
        middle_when = words[at + 1:at + 1 + when]
        return (" ".join(["When", words[at].lower(), _lower_subject(subject)] + middle_when) + "?", "condition",
                " ".join(subject), "", "plur" if _en_plural(subject[-1]) else "sing")
    if pre[-4:] == ["up", "to", "the", "age"] or pre[-5:] == ["up", "to", "the", "age", "of"]:
        # "Children are covered up to the age of 18" -> "Up to what age are children covered?"
        cut = 5 if pre[-1] == "of" else 4
        middle_age = words[at + 1:first_num - cut]
        return (_core("Up to what age", words, at, aux_at, subject, middle_age), "condition", " ".join(subject),
                "", "plur" if _en_plural(subject[-1]) else "sing")
    after = " ".join(words[last_num + 1:last_num + 3])
    unit = "money" if "$" in number or "€" in number else "percent" if number.endswith("%") else \
        "time" if _EN_TIME.match(after) else "clock" if re.fullmatch(r"\d{1,2}:\d\d", number) else \
        "date" if _EN_MONTH.match(after) else "count"
    ops = [("at least", "least"), ("up to", "upto"), ("until", "until"), ("within", "within"), ("every", "every"),
           ("for the first", "for"), ("for the next", "for"), ("for the initial", "for"), ("for", "for"),
           ("capped at", "cap"), ("at", "at"), ("of", "of"), ("by", "by"), ("from", "from")]
    op, op_len = "", 0
    for text, kind in ops:
        ws = text.split()
        if pre[len(pre) - len(ws):] == ws:
            op, op_len = kind, len(ws)
            break
    middle = words[at + 1:q_at - op_len]
    if q_at < first_num and aux_at is not None and not op:  # "are processed between 5 and 10 days": a deadline
        op = "within"
    of_noun = _of_noun(middle) if op == "of" and unit in ("money", "percent") else None
    if of_noun is not None:  # "available for an additional premium of 20%" -> "What is the additional premium for …"
        q_of, middle = of_noun
        kind_of = "amount" if unit == "money" else "percent"
        plural_of = "plur" if _en_plural(subject[-1]) else "sing"
        if aux_at is not None:
            return _fee_question(q_of, subject, middle), kind_of, " ".join(subject), "", plural_of
        return _core(q_of, words, at, aux_at, subject, middle), kind_of, " ".join(subject), "", plural_of
    for_cut = bool(op and middle and middle[-1].lower() == "for")
    if for_cut:  # "may work part-time for | up to 6 months"
        middle = middle[:-1]
    if aux_at is not None and words[at].lower() in ("is", "are") and not middle and not op:
        return None, "prose_left_to_value_template", "", "", ""
    if any(w.lower() in ("a", "an", "than", "and", "or") for w in middle) or len(middle) > 5 \
            or middle and middle[-1].lower() in ("the", "first", "next", "last", "initial", "each", "per"):
        return None, "prose_no_question_form", "", "", ""
    tail_words = " ".join(words[last_num + 1:]).lower()
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
        elif op == "upto" and (before := _before_what(words[last_num + 1:])):
            q, kind = f"How many {unit_word} before {before}", "deadline"  # a cut-off, not a limit
        elif op == "upto":  # "may be carried over up to 5 days" -> "How many days at most may … be carried over?"
            q, kind = f"How many {unit_word}{_counted_tail(words[last_num + 2:])} at most", "limit"
            if for_cut and _en_participle_like(middle):
                middle = middle + ["for"]  # "granted for up to 5 years" -> "… are personal loans granted for?"
        elif not op and (before := _before_what(words[last_num + 1:])):
            q, kind = f"How many {unit_word} before {before}", "deadline"  # "starts 3 days before the test"
        elif not op:  # "entitled to 25 days of paid annual leave per year": what the days are of, and per what
            q, kind = f"How many {unit_word}{_counted_tail(words[last_num + 2:])}", "duration"
        else:
            return None, "prose_no_question_form", "", "", ""
    elif unit in ("money", "percent"):
        if op == "cap":  # "Service credits are capped at 50% of the monthly fee": a cap is not a rate
            subj = _lower_subject(subject)
            return f"What is the cap on {subj}?", "limit", subj, "", "plur" if _en_plural(subject[-1]) else "sing"
        if op == "upto" and unit == "money" and aux_at is not None:
            # "Hotel costs are reimbursed up to $180 per night" -> "How much at most are hotel costs reimbursed
            # per night?", as "How many days at most …"; not "Up to what amount are hotel costs reimbursed?"
            subj = _lower_subject(subject)
            per = _counted_tail(words[last_num + 1:])
            per = per if per.startswith((" per ", " a ")) else ""
            return (" ".join(["How much at most", words[at].lower(), subj] + middle) + per + "?", "limit", subj,
                    "", "plur" if _en_plural(subject[-1]) else "sing")
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
    elif unit == "clock" and op == "from" and re.match(r"^(?:am|pm|a\.m\.|p\.m\.)?\s*(?:to|until|till)\b|^[–-]",
                                                       " ".join(words[first_num + 1:first_num + 3]).lower()):
        q, kind = "When", "time"  # "Phone support is available from 9:00 to 18:00"
    elif unit == "clock" and op in ("from", "at", "until"):  # a start ("from 9:00 am"), a moment, an end
        q, kind = {"from": "From what time", "at": "At what time", "until": "Until what time"}[op], "time"
    elif unit == "count" and op == "upto" and re.match(r"^(?:kg|lbs?|g|cm|m|km|kilograms?|pounds?|centimet\w+)\b",
                                                      after.lower()):  # "accepted up to 23 kg each"
        q, kind = ("Up to what weight" if re.match(r"^(?:kg|lb|g\b|kilo|pound)", after.lower())
                   else "Up to what length"), "limit"
    elif unit == "count" and op == "upto" and (things := _en_counted(words[last_num + 1:])):
        q, kind = f"How many {things} at most", "limit"  # "includes up to 10 user accounts"
    else:
        return None, "prose_no_question_form", "", "", ""
    subj = _lower_subject(subject)
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


def _range_end(words: list[str], first: int) -> int:
    """Index of the last number of a range that starts at ``first`` ("3 to 5", "3 and 5" after "between"),
    else ``first``."""
    if first + 2 < len(words) and words[first + 1].lower() in ("to", "and") \
            and re.fullmatch(r"[$€]?\d[\d.,]*%?", words[first + 2].rstrip(",;")) \
            and (words[first + 1].lower() == "to" or first > 0 and words[first - 1].lower() == "between"):
        return first + 2
    return first


#: "must not exceed", "may not exceed", "cannot exceed", "is limited to", "are capped at" before the quantity.
_NOT_EXCEED = (["not", "exceed"], ["cannot", "exceed"], ["never", "exceed"])
_LIMITED_TO = (["limited", "to"], ["restricted", "to"])
#: Nouns that are a measure themselves: "The declared value may not exceed $5,000" asks "the maximum declared
#: value", not "the maximum amount of the declared value".
MEASURE_NOUNS = {"value", "amount", "sum", "total", "weight", "length", "height", "width", "size", "price", "cost",
                  "fee", "limit", "balance", "duration", "period", "term", "load", "volume", "distance",
                  "compensation", "payment", "deposit", "refund", "discount", "liability", "cover", "coverage"}
_WEIGHT = re.compile(r"^(?:kg|lbs?|g|t|tonnes?|tons?|kilograms?|pounds?|grams?)\b", re.IGNORECASE)
_LENGTH = re.compile(r"^(?:cm|mm|m|km|metres?|meters?|inches|inch|feet|ft|centimet\w+)\b", re.IGNORECASE)


def _what_of(unit: str, after: list[str]) -> tuple[str, str] | None:
    """("weight", "What weight") for a quantity of ``unit`` ("kg"), from the words after the number."""
    text = " ".join(after[:2])
    if _WEIGHT.match(text):
        return "weight", "What weight"
    if _LENGTH.match(text):
        return "length", "What length"
    if unit == "$":
        return "amount", "What amount"
    if _EN_TIME.match(text):
        word = _EN_TIME.match(text).group().split()[-1]
        return "duration", f"How many {word if word.endswith('s') else word + 's'}"
    return None


def _cap_question(words: list[str], at: int, aux_at: int | None, subject: list[str], pre: list[str], number: str,
                  after: list[str]) -> tuple[str, str, str, str, str] | None:
    """A ceiling: "Pallets must not exceed 1,000 kg" -> "What is the maximum weight of pallets?", "The declared value
    may not exceed $5,000" -> "What is the maximum declared value?", "Our liability is limited to $100 per parcel
    unless …" -> "To what amount is the liability limited?" (the reference keeps the exception); None for any
    other sentence or a quantity whose kind has no name (a bare count)."""
    unit = "$" if "$" in number or "€" in number else "%" if number.endswith("%") else ""
    plural = "plur" if _en_plural(subject[-1]) else "sing"
    subj = _user_side(_lower_subject(subject))
    if any(pre[len(pre) - len(ws):] == ws for ws in _NOT_EXCEED) and len(pre) <= 3:
        bare = re.sub(r"^(?:the|a|an)\s+", "", subj)
        head = bare.split()[-1].lower()
        if head in MEASURE_NOUNS and " of " not in f" {bare} ":
            return f"What is the maximum {bare}?", "limit", " ".join(subject), "", plural
        named = _what_of(unit, after)
        if named is None or unit == "%":
            return None
        noun = "length" if named[0] == "duration" else named[0]  # "Stays may not exceed 30 days": length of stays
        return f"What is the maximum {noun} of {subj}?", "limit", " ".join(subject), "", plural
    if aux_at is not None and any(pre[-2:] == ws for ws in _LIMITED_TO) and len(pre) == 2:
        # a count of days keeps "How many days is remote work limited to?"; an amount or a weight is named
        named = _what_of(unit, after)
        if unit == "$":  # "Our liability is limited to $100 per parcel" -> "What is the liability limit per parcel?"
            bare = re.sub(r"^(?:the|a|an)\s+", "", subj)
            per = _counted_tail(after) if after and after[0].lower() in ("per", "a") else ""
            limit = f"the {bare} limit" if len(bare.split()) <= 2 and " of " not in f" {bare} " \
                else f"the limit on {subj}"
            return f"What is {limit}{per}?", "limit", " ".join(subject), "", plural
        opening = "To what percentage" if unit == "%" else None if named is None or named[0] == "duration" \
            else "To " + named[1][:1].lower() + named[1][1:]
        if opening is None:
            return None
        return f"{opening} {words[at].lower()} {subj} {pre[0]}?", "limit", " ".join(subject), "", plural
    return None


def _user_side(subj: str) -> str:
    """A question is asked by the reader: the writer's "our liability" is "the liability"."""
    return re.sub(r"^(?:our|my)\s+", "the ", subj, flags=re.IGNORECASE)


def _lower_subject(subject: list[str]) -> str:
    subj = " ".join(subject)
    # "X-ray results", "eSIM", "ATM": a word whose case is its spelling keeps it
    return subj[:1].lower() + subj[1:] if not re.match(r"^(?:[A-Z]{2,}|I\b|[A-Z]-|\S*\d|[A-Za-z][a-z]*[A-Z])", subj) \
        else subj


def _core(q: str, words: list[str], at: int, aux_at: int | None, subject: list[str], middle: list[str]) -> str:
    """"Q AUX subject middle?" or, with no auxiliary, "Q does subject VERB middle?"."""
    subj = _lower_subject(subject)
    if aux_at is not None:
        return " ".join([q, words[at].lower(), subj] + middle) + "?"
    verb = words[at]
    base = verb[:-2] if verb.endswith(("ches", "shes", "sses", "xes")) else verb[:-1]
    return " ".join([q, "do" if _en_plural(subject[-1]) else "does", subj, base] + middle) + "?"


def _counted_tail(rest: list[str]) -> str:
    """What a count is of and per what, from the words after its unit: " of paid annual leave per year" from "of
    paid annual leave per year.", " per week" from "per week." ("How many days per week is remote work limited
    to?"); "" when neither follows. A question that drops them asks something else ("How many days are
    employees entitled to?" has two answers when the documents also state sick days)."""
    low = [w.lower() for w in rest]
    out: list[str] = []
    k = 0
    if low[:1] == ["of"]:
        taken = ["of"]
        for w in rest[1:7]:
            clean = w.rstrip(".,;:")
            if not re.fullmatch(r"[a-z'-]+", clean.lower()) or clean.lower() in _TAIL_STOP:
                break
            taken.append(clean)
            if clean != w:
                break
        if len(taken) > 1:
            out, k = taken, len(taken)
        if k and rest[k - 1][-1:] in ".,;:":
            return " " + " ".join(out)
    if k + 1 < len(rest) and low[k] in ("per", "a") and re.fullmatch(r"[a-z]+[.,;:]?", low[k + 1]) \
            and low[k + 1].rstrip(".,;:") in _PER_UNITS:
        out += [low[k], low[k + 1].rstrip(".,;:")]
    return " " + " ".join(out) if out else ""


_TAIL_STOP = {"per", "a", "an", "for", "in", "on", "at", "if", "when", "unless", "and", "or", "from", "to", "after",
              "before", "with", "by", "each", "every", "until"}
_PER_UNITS = {"day", "week", "month", "year", "quarter", "trip", "night", "visit", "parcel", "person", "employee",
              "order", "shipment", "flight", "item", "user", "session", "hour", "booking", "claim", "incident",
              "passenger", "member", "customer", "account", "card", "loan", "transaction", "request"}


def _en_participle_like(middle: list[str]) -> bool:
    """A passive participle alone ("granted", "held", "kept"): "… granted for" keeps its "for" in the question."""
    return len(middle) == 1 and (middle[0].lower().endswith("ed") or middle[0].lower() in _IRREGULAR_PARTICIPLES)


_IRREGULAR_PARTICIPLES = {"held", "kept", "given", "paid", "made", "sent", "taken", "done", "shown", "sold", "built",
                          "lent", "spent", "set", "put", "run", "won", "hired", "leased", "let"}


def _fee_question(q_of: str, subject: list[str], middle: list[str]) -> str:
    """"What is the additional fee for sports equipment?" for "Sports equipment is carried for an additional fee
    of 30%", "What is the surcharge for parcels over 20 kg?" for "Parcels over 20 kg are charged a surcharge of
    $15", "What is the fee for pets up to 8 kg carried in the cabin?" for "Pets up to 8 kg are carried in the
    cabin for a fee of $40": the fee of the thing, as a customer asks it. What the thing undergoes is kept only
    when it says more than the verb of paying ("carried in the cabin", not "carried", "charged" or
    "available")."""
    noun = q_of.split(" what ", 1)[1] if " what " in q_of else q_of.split(" ", 1)[1]
    subj = _lower_subject(subject)
    rest = [w for w in middle if w.lower() not in _GIVEN]
    keep = rest if len(rest) >= 2 else []
    return " ".join(["What is the", noun, "for", subj] + keep) + "?"


def _of_noun(middle: list[str]) -> tuple[str, list[str]] | None:
    """("For what additional premium", middle before it) when the middle ends "for an additional premium"."""
    low = [w.lower() for w in middle]
    for k in range(len(low) - 1, -1, -1):
        if k + 1 < len(low) and low[k + 1] in ("a", "an", "the") and (
                low[k] in ("for", "at", "with") or low[k] in _GIVEN):
            noun = middle[k + 2:]
            if not (1 <= len(noun) <= 3 and all(re.fullmatch(r"[a-z-]+", w) for w in noun)):
                return None
            if low[k] in _GIVEN:  # "are charged a surcharge of $15" -> "What surcharge are … charged?"
                return f"What {' '.join(noun)}", middle[:k + 1]
            return f"{middle[k].capitalize()} what {' '.join(noun)}", middle[:k]
    return None


#: Verbs whose passive takes the amount's noun as an object: "charged a fee of", "paid a bonus of".
_GIVEN = {"charged", "paid", "given", "granted", "offered", "awarded", "billed", "refunded", "reimbursed"}


def _before_what(rest: list[str]) -> str:
    """"arrival" from "hours before arrival": what a cut-off is counted back from, "" when none."""
    low = [w.lower() for w in rest]
    if len(low) < 3 or low[1] != "before":
        return ""
    out = []
    for w in rest[2:5]:
        clean = w.rstrip(".,;")
        if not re.fullmatch(r"[a-z'-]+", clean.lower()) or clean.lower() in ("and", "or", "if", "when", "unless"):
            break
        out.append(clean)
        if clean != w:
            break
    return " ".join(out)


__all__ = ["MEASURE_NOUNS", "en_question"]
