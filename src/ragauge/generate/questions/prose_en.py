"""English questions from prose sentences (see :mod:`.prose` for the Russian side and the pipeline).

``SUBJECT AUX|VERB … OPERATOR QUANTITY`` -> ``Q AUX SUBJECT MIDDLE?`` / ``Q do|does SUBJECT VERB MIDDLE?``, Q from
the operator and the quantity: within + days -> "How soon", every -> "How often", for -> "How long", at least
… before -> "How far in advance", up to -> "What is the maximum number of … / the maximum reimbursement …"
(:mod:`.prose_en_limits`), at + % -> "At what rate", by + a date -> "By what date", from + a clock time -> "At what
hours"; a notice period -> "How much notice …". "Expense reports must be submitted within 10 working days after the
trip" -> "How soon must expense reports be submitted?". What a count is of and per what: :mod:`.prose_en_tail`.

The verb may be a plural subject's plain form and the subject may hold a phrase or a relative clause ("Members who
pay for 12 months upfront get 15% off", :mod:`.prose_en_verb`); the sentence is first put in its reader's words
("We hold parcels …" -> "You hold parcels …", "Give us 30 days' notice" -> "I must give you …",
:mod:`.prose_en_voice`). What someone pays, gets or may do, a ceiling said with "at most" or "cannot be longer
than", a window, an age and a condition are asked in :mod:`.prose_en_forms` and :mod:`.prose_en_caps`.
"""

from __future__ import annotations

import re

from ragauge.generate.questions.prose_en_limits import (before_phrase, max_amount, max_number, max_number_frame,
                                                        notice_split, repeats_subject)
from ragauge.generate.questions.prose_en_caps import EN_TIME, MEASURE_NOUNS, cap_question
from ragauge.generate.questions.prose_en_forms import (at_most, charge_rate, cost_to, count_question, discount,
                                                       free_allowance, how_old, money_word, paid_amount,
                                                       what_happens, window)
from ragauge.generate.questions.prose_en_tail import counted_tail, per_tail
from ragauge.generate.questions.prose_en_verb import (PREP, REL, SUBORDINATORS, base_form, do_support, en_plural,
                                                      find_verb, lower_subject, opens_object, subject_head, verb_at)
from ragauge.generate.questions.prose_en_voice import (after_colon, agree_with_i, but_predicate, is_name,
                                                       lead_after_comma, reader_clause)

_CLAUSE = re.compile(r"^\d+(?:\.\d+)+\.?\s+")
_WORD = re.compile(r"\S+")
_EN_AUX = {"is", "are", "must", "will", "shall", "may", "can", "should", "cannot", "can't"}
_NEGATED = {"cannot", "can't"}
_EN_BAD = {"it", "this", "that", "these", "those", "there", "he", "she", "they", "we", "if", "when", "in",
           "on", "at", "for", "after", "before", "and", "but", "or", "which", "each", "every"}
_EN_TIME = EN_TIME


#: "Travellers aged 75 or over must …", "Children under 6 stay free …": an age that qualifies the subject.
_AGED = re.compile(r"^(?P<subj>(?:[A-Z][a-z-]*|[A-Z]{2,})(?: [a-z-]+){0,3}) (?:(?P<aged>aged \d{1,3} (?:or|and) "
                   r"(?:over|older))|(?P<cmp>under|over) \d{1,3}(?: years(?: of age| old)?)?) "
                   r"(?!(?:kg|cm|lbs?|g|m|km|mm|kilograms?|pounds?|metres?|meters?|inches)\b)(?P<verb>[a-z]+) "
                   r"(?P<rest>[^,;]+)$")
_EN_MONTH = re.compile(r"^(?:January|February|March|April|May|June|July|August|September|October|November|"
                       r"December)\b")


def _bad_subject(subject: list[str]) -> bool:
    """A subject no question can be asked of: a pronoun, a conjunction, a preposition ("If", "it", "After that");
    "Each member", "Every booking" are subjects, "Each additional hour" leans on the sentence before."""
    first = subject[0].lower()
    if first in ("each", "every") and len(subject) > 1:
        return not re.fullmatch(r"[a-z-]+", subject[1]) or subject[1] in _LEANING
    return first in _EN_BAD or first in PREP or first in SUBORDINATORS or bool(_PRONOUNS & {w.lower() for w in
                                                                                          subject[1:]})


_PRONOUNS = {"it", "they", "he", "she", "we"}
_LEANING = {"additional", "extra", "further", "subsequent", "other", "following", "next", "remaining", "time",
            "such"}


def _loose_article(middle: list[str], aux: bool) -> bool:
    """An article that does not open the object at the middle's end ("must receive a laptop", "receives a laptop"
    are fine; "a" right after an auxiliary, or with a long phrase after it, is a clause the question would copy)."""
    return any(w.lower() in ("a", "an") and (i == 0 and aux or len(middle) - i - 1 not in (1, 2)) for i, w in
               enumerate(middle))


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


def en_question(sentence: str, passage: str = "") -> tuple[str | None, str, str, str, str]:
    """(question, fact kind, subject, frame, "sing"|"plur"), or (None, drop reason, "", "", ""). The sentence is
    first put in the reader's words (:mod:`.prose_en_voice`); ``passage``, the text around it, tells a free
    allowance from a ceiling (:func:`.prose_en_forms.free_allowance`)."""
    body = re.sub(r"(?<=\d)[ ,](?=\d{3}\b)", "", _CLAUSE.sub("", sentence).rstrip(".!"))
    words, purpose = reader_clause(_WORD.findall(body))
    listed = words
    words = lead_after_comma(but_predicate(after_colon(words)))
    result = _question(words, passage)
    if result[0] is None:
        other = cost_to(words) or what_happens(words)
        result = other if other is not None else result
    question, kind, subject, frame, form = result
    if question is None:
        return result
    if purpose:  # "To cancel, give us …" -> "How much notice must I give you to cancel?"
        question = question[:-1] + " " + purpose + "?"
    if purpose or subject in ("I", "me") or re.search(r"\b(?:I|me|my)\b", frame) \
            or re.search(r"\b(?:we|us|our)\b", body, re.IGNORECASE):
        frame = ""  # a frame another subject fills does not name the reader or the business
    if words and len(subject.split()) == 1 and is_name(words[0], listed, passage):
        # "How many people does Birch seat?", not "birch"
        question = re.sub(rf"\b{re.escape(words[0].lower())}\b", words[0], question, count=1)
    return agree_with_i(question), kind, subject, frame, form


def _question(words: list[str], passage: str) -> tuple[str | None, str, str, str, str]:
    """:func:`en_question` of a sentence in the reader's words."""
    body = " ".join(words)
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
        plural = en_plural(subject[-1])
        if verb.lower() in _EN_AUX:
            core = [verb.lower(), lower_subject(subject)] + rest
        elif re.fullmatch(r"[a-z]{3,}s?", verb):
            base = verb[:-1] if verb.endswith("s") and not verb.endswith("ss") else verb
            core = ["do" if plural or not verb.endswith("s") else "does", lower_subject(subject), base] + rest
        else:
            return None, "prose_no_verb", "", "", ""
        return " ".join([q_age] + core) + "?", "condition", " ".join(subject), "", "plur" if plural else "sing"
    aux_at = next((i for i, w in enumerate(words[:first_num]) if w.lower() in _EN_AUX), None)
    if aux_at and words[aux_at - 1].lower() in REL:  # "Items that are not returned … are fined at …"
        aux_at = next((i for i in range(aux_at + 1, first_num) if words[i].lower() in _EN_AUX), None)
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
        found = find_verb(words)  # a plural subject's plain form ("Members pay", "New employees receive")
        if found is not None and (verb_s is None or words[verb_s - 1].lower() in REL
                                  or found[0] == verb_s + 1 and opens_object(words, found[0])
                                  or found[0] < verb_s and not verb_at(words, verb_s)):
            verb_s, first_num = found
    at = aux_at if aux_at is not None else verb_s
    if not at:
        return None, "prose_no_verb", "", "", ""
    subject = words[:at]
    if _bad_subject(subject) or any("," in w for w in words[:first_num]) \
            or len(subject) > (12 if REL & {w.lower() for w in subject} else 8):
        return None, "prose_no_subject", "", "", ""
    number = words[first_num]
    if re.fullmatch(r"\d+(?:st|nd|rd|th)\W*", number, re.IGNORECASE):
        return None, "prose_no_question_form", "", "", ""  # "issued on the 1st day": a date, no template
    last_num = _range_end(words, first_num)
    q_at = first_num  # where the quantity phrase starts: "from 3 to 5 days" starts at "from"
    if last_num > first_num and words[first_num - 1].lower() in ("from", "between") and first_num - 1 > at:
        q_at -= 1
    pre = [w.lower() for w in words[at + 1:q_at]]
    negated = words[at].lower() in _NEGATED or pre[:1] in (["not"], ["never"])
    cap = cap_question(words, at, aux_at, subject, ["not"] + pre if words[at].lower() in _NEGATED else pre,
                        number, words[last_num + 1:])
    if cap is not None:
        return cap
    when = next((k for k, w in enumerate(pre) if w in ("when", "if", "once")), None)
    if when is not None and aux_at is not None and 0 < when <= 4 and words[at].lower() in ("is", "are"):
        # "Delayed baggage is covered when the delay lasts more than 12 hours" -> "When is delayed baggage covered?"
        middle_when = words[at + 1:at + 1 + when]
        return (" ".join(["When", words[at].lower(), lower_subject(subject)] + middle_when) + "?", "condition",
                " ".join(subject), "", "plur" if en_plural(subject[-1]) else "sing")
    if pre[-4:] == ["up", "to", "the", "age"] or pre[-5:] == ["up", "to", "the", "age", "of"]:
        # "Children are covered up to the age of 18" -> "Up to what age are children covered?"
        cut = 5 if pre[-1] == "of" else 4
        middle_age = words[at + 1:first_num - cut]
        return (_core("Up to what age", words, at, aux_at, subject, middle_age), "condition", " ".join(subject),
                "", "plur" if en_plural(subject[-1]) else "sing")
    after = " ".join(words[last_num + 1:last_num + 3])
    money_after = money_word(words, last_num)  # "25 pounds", "45 cents"
    unit = "money" if re.search(r"[$€£]", number) or money_after else "percent" if number.endswith("%") else \
        "time" if _EN_TIME.match(after) else "clock" if re.fullmatch(r"\d{1,2}:\d\d", number) or re.fullmatch(
            r"\d{1,2}(?::\d\d)?", number) and re.match(r"(?:am|pm|a\.m\.|p\.m\.)(?!\w)", after.lower()) else \
        "date" if _EN_MONTH.match(after) else "count"
    rest = words[last_num + (2 if money_after else 1):]  # the words after the quantity and its currency word
    ops = [("at least", "least"), ("no more than", "most"), ("not more than", "most"), ("at most", "most"),
           ("a maximum of", "most"), ("more than", "more"), ("up to", "upto"), ("until", "until"),
           ("within", "within"), ("every", "every"),
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
    if op == "more" and not negated or negated and op not in ("most", "more"):
        return None, "prose_no_question_form", "", "", ""  # "more than" states no ceiling unless it is denied
    if not op and unit == "percent" and (found_q := discount(words, at, aux_at is not None, subject, middle,
                                                           first_num)) is not None:
        return found_q  # "Students get 20% off the Flex plan" -> "What discount do students get on the Flex plan?"
    of_noun = _of_noun(middle) if op == "of" and unit in ("money", "percent") else None
    if of_noun is not None and aux_at is not None and words[at].lower() not in ("is", "are") and middle \
            and middle[0].lower() not in ("be", "been"):
        return None, "prose_no_question_form", "", "", ""  # "can use the sauna for a fee of $12": :func:`cost_to`
    if of_noun is not None:  # "available for an additional premium of 20%" -> "What is the additional premium for …"
        q_of, middle = of_noun
        kind_of = "amount" if unit == "money" else "percent"
        plural_of = "plur" if en_plural(subject[-1]) else "sing"
        if aux_at is not None:
            return _fee_question(q_of, subject, middle), kind_of, " ".join(subject), "", plural_of
        return _core(q_of, words, at, aux_at, subject, middle), kind_of, " ".join(subject), "", plural_of
    for_cut = bool(op and middle and middle[-1].lower() == "for")
    if for_cut:  # "may work part-time for | up to 6 months"
        middle = middle[:-1]
    if aux_at is not None and words[at].lower() in ("is", "are") and not middle and not op:
        return None, "prose_left_to_value_template", "", "", ""
    if any(w.lower() in ("than", "and", "or") for w in middle) or _loose_article(middle, aux_at is not None) \
            or len(middle) > 5 or middle[-1:] != ["last"] and middle and middle[-1].lower() in (
                "the", "first", "next", "last", "initial", "each", "per") \
            or not negated and {"not", "never"} & {w.lower() for w in middle}:
        return None, "prose_no_question_form", "", "", ""
    tail_words = " ".join(words[last_num + 1:]).lower()
    aux = aux_at is not None
    if unit == "time" and (timed := _EN_TIME.match(after)) is not None:
        unit_word = timed.group().split()[-1]
        unit_word = unit_word if unit_word.endswith("s") else unit_word + "s"
        if op in ("most", "more"):  # "lasts at most 3 hours" -> "How long can each booking last?"
            return at_most(words, at, aux, subject, middle, unit, unit_word, rest, negated) or \
                (None, "prose_no_question_form", "", "", "")
        giving = notice_split(middle, words[last_num + 2:]) if op in ("within", "least", "") \
            and (middle or not aux) else None
        if giving is not None:  # "must give notice within 30 days before …" -> "How much notice must you give …?"
            lead = before_phrase(words[last_num + 2:])
            frame_notice = f"How much notice {words[at].lower()} {{subj}} {' '.join(giving + lead)}?" \
                if aux_at is not None else ""
            return (_core("How much notice", words, at, aux_at, subject, giving + lead), "deadline",
                    " ".join(subject), frame_notice, "plur" if en_plural(subject[-1]) else "sing")
        if op == "within" and aux and (found_q := window(words, at, subject, middle)) is not None:
            return found_q  # "You can appeal a charge within 30 days" -> "How long do you have to appeal a charge?"
        if op == "least" and aux and (found_q := how_old(words, at, subject, middle, rest)) is not None:
            return found_q  # "must be at least 21 years old to apply" -> "How old must customers be to apply?"
        if op == "within":
            q, kind = "How soon", "deadline"
        elif op == "every":
            q, kind = "How often", "frequency"
        elif op == "for":
            q, kind = "How long", "duration"
        elif op in ("least", "upto", "") and re.match(r"\S+ (?:in advance|ahead)\b", tail_words) or \
                op == "least" and ("before" in tail_words or "in advance" in tail_words):
            q, kind = "How far in advance", "deadline"  # "booked up to 4 weeks in advance"
        elif op in ("upto", "") and (before := _before_what(words[last_num + 1:])):
            # a cut-off, not a limit ("up to 12 hours before the visit", "starts 3 days before the test"); "How
            # far in advance" when the event repeats the subject's noun ("… before the class can class bookings")
            q = "How far in advance" if repeats_subject(before, subject) else f"How many {unit_word} before {before}"
            kind = "deadline"
        elif op == "upto":  # "may be carried over up to 5 days" -> "What is the maximum number of days that …"
            if for_cut and _en_participle_like(middle):
                middle = middle + ["for"]  # "granted for up to 5 years" -> "… that personal loans are granted for?"
            of, per = counted_tail(words[last_num + 2:])
            if of or per or aux:
                return _max_count(unit_word + of, per, words, at, aux_at, subject, middle)
            # an active verb lasts: "We hold parcels for up to 7 days" -> "How long do you hold parcels?", "Refunds
            # take up to 10 days" -> "How long do refunds take?" (not "the maximum number of days that you hold …");
            # "up to 60 days after purchase" -> "How long after purchase …"
            since = _before_what(words[last_num + 1:], "after")
            q, kind = "How long after " + since if since else "How long", "duration"
        elif not op:  # "entitled to 25 days of paid annual leave per year": what the days are of, and per what
            q, kind = f"How many {unit_word}{''.join(counted_tail(words[last_num + 2:]))}", "duration"
        else:
            return None, "prose_no_question_form", "", "", ""
    elif unit in ("money", "percent"):
        if op == "cap":  # "Service credits are capped at 50% of the monthly fee": a cap is not a rate
            subj = lower_subject(subject)
            return f"What is the cap on {subj}?", "limit", subj, "", "plur" if en_plural(subject[-1]) else "sing"
        if op in ("most", "more"):
            return None, "prose_no_question_form", "", "", ""
        if not op and unit == "money":  # "Members pay $25 an hour for Birch" -> "How much do members pay …?"
            return paid_amount(words, at, aux, subject, middle, rest) or (None, "prose_no_question_form", "", "", "")
        if op == "at" and unit == "money" and (rate := charge_rate(words, at, subject, middle, rest)) is not None:
            return rate  # "fined at 1 pound for every hour" -> "What is the fine per hour for …?"
        if op == "upto" and unit == "money":
            # "Hotel costs are reimbursed up to $180 per night" -> "What is the maximum reimbursement for hotel
            # costs per night?"; "The insurer pays up to $500 per claim" -> "What is the maximum amount the
            # insurer pays per claim?"
            subj = lower_subject(subject)
            verb = words[at].lower() if aux_at is not None else words[at]
            asked = max_amount(subj, subject_head(subject), verb, middle, per_tail(rest), aux=aux_at is not None)
            if asked is None:
                return None, "prose_no_question_form", "", "", ""
            return asked, "limit", subj, "", "plur" if en_plural(subject[-1]) else "sing"
        if op == "upto":
            q, kind = "Up to what percentage", "limit"
        elif op == "at" and unit == "percent":
            q, kind = "At what rate", "percent"
        elif op == "at" and aux:
            q, kind = "At what level", "limit"
        else:
            return None, "prose_no_question_form", "", "", ""
    elif unit == "date" and op == "by":  # "The annual bonus is paid by 31 March"
        q, kind = "By what date", "deadline"
    elif unit == "clock" and op == "by":  # "Events must end by 11 pm"
        q, kind = "By what time", "time"
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
        # "includes up to 10 user accounts" -> "What is the maximum number of user accounts the plan includes?"; an
        # allowance ("… up to 2 guests a day for free"; more of them charged) is asked as a count
        per = per_tail(words[last_num + 1 + len(things.split()):])
        return free_allowance(words, at, aux, subject, middle, things, per, passage) or \
            _max_count(things, per, words, at, aux_at, subject, middle)
    elif unit == "count" and op in ("most", "more") or unit == "count" and not op:
        # "can have no more than 3 guests" -> "How many guests can …?"; "Every member gets 100 pages of printing a
        # month" -> "How many pages of printing does every member get a month?"
        found_q = at_most(words, at, aux, subject, middle, unit, "", rest, negated) if op else \
            count_question(words, at, aux, subject, middle, rest)
        return found_q or (None, "prose_no_question_form", "", "", "")
    else:
        return None, "prose_no_question_form", "", "", ""
    subj = lower_subject(subject)
    if aux_at is not None:
        core = [words[at].lower(), subj] + middle
    else:
        core = [do_support(words[at], subject), subj, base_form(words[at])] + middle
    plural = en_plural(subject[-1])
    frame = f"{q} {words[at].lower()} {{subj}} {' '.join(middle)}?" if aux_at is not None and middle else ""
    return " ".join([q] + core) + "?", kind, subj, frame.replace(" ?", "?"), "plur" if plural else "sing"


def _max_count(things: str, per: str, words: list[str], at: int, aux_at: int | None, subject: list[str],
               middle: list[str]) -> tuple[str, str, str, str, str]:
    """"What is the maximum number of THINGS that SUBJECT VERB MIDDLE PER?" (a ceiling on a count), with a frame
    when the sentence has an auxiliary and words after it."""
    subj = lower_subject(subject)
    verb = words[at].lower() if aux_at is not None else words[at]
    frame = max_number_frame(things, verb, middle, per) if aux_at is not None and middle else ""
    return (max_number(things, subj, verb, middle, per), "limit", subj, frame,
            "plur" if en_plural(subject[-1]) else "sing")


def _range_end(words: list[str], first: int) -> int:
    """Index of the last number of a range that starts at ``first`` ("3 to 5", "3 and 5" after "between"),
    else ``first``."""
    if first + 2 < len(words) and words[first + 1].lower() in ("to", "and") \
            and re.fullmatch(r"[$€]?\d[\d.,]*%?", words[first + 2].rstrip(",;")) \
            and (words[first + 1].lower() == "to" or first > 0 and words[first - 1].lower() == "between"):
        return first + 2
    return first


def _core(q: str, words: list[str], at: int, aux_at: int | None, subject: list[str], middle: list[str]) -> str:
    """"Q AUX subject middle?" or, with no auxiliary, "Q does subject VERB middle?"."""
    subj = lower_subject(subject)
    if aux_at is not None:
        return " ".join([q, words[at].lower(), subj] + middle) + "?"
    return " ".join([q, do_support(words[at], subject), subj, base_form(words[at])] + middle) + "?"


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
    subj = lower_subject(subject)
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


def _before_what(rest: list[str], word: str = "before") -> str:
    """"arrival" from "hours before arrival": what a cut-off is counted back from ("purchase" of "days after
    purchase" with ``word`` "after"), "" when none."""
    low = [w.lower() for w in rest]
    if len(low) < 3 or low[1] != word:
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
