"""English table questions: how a row is named, and how each kind of column (:mod:`.table_columns`) is asked.

A row is named as its first column calls it: a name under a column that names a kind of offering gets the kind
("Flex" under "Plan" -> "the Flex plan"), a group of people is asked in the plural ("Postgraduate" under "Reader
category" -> "postgraduates"), any other row takes "the" (:func:`.templates_en._item`'s rules). Each column kind
has its own form:

* price: "How much does the Flex plan cost per month?", with the header's condition ("for 1–3 days");
* count: "How many lessons does the starter plan include?", "What is the maximum number of items for
  postgraduates?";
* measure: "What is the deposit for the Economy class?";
* duration: "How long is the standard loan for undergraduates?", "What is the notice period for …?";
* text: "What access does the Flex plan include?", "What access do undergraduates get?".
"""

from __future__ import annotations

import re

from ragauge.generate.questions.candidate import fmt_number
from ragauge.generate.questions.facts import Fact
from ragauge.generate.questions.table_columns import describe

LANG = "en"
#: Heads of an item column whose rows are names of that kind ("Plan | Flex" -> "the Flex plan").
OFFER_KINDS = {"plan", "package", "tier", "programme", "program", "option", "class", "level", "membership", "pass",
               "tariff", "subscription", "card", "account", "product", "model", "edition", "version", "bundle", "room",
               "suite", "course", "policy", "cover", "deal", "offer"}
_GROUP_HEADS = {"category", "type", "group", "class", "tier", "level", "status", "band"}
_PERSON_WORDS = {"staff", "guest", "guests", "child", "children", "adult", "adults", "person", "people", "member",
                 "user", "customer", "client", "patient", "student", "visitor", "passenger", "employee", "age",
                 "traveller", "traveler", "senior", "faculty", "personnel"}
_PERSON_SUFFIX = re.compile(r"(?:er|or|ist|ant|ent|ee|ian|ate)s?$")
_UNCOUNTABLE = {"staff", "faculty", "personnel", "people", "children", "police", "crew"}
_IRREGULAR = {"child": "children", "person": "people", "man": "men", "woman": "women"}
_PAREN = re.compile(r"\s*\(.*?\)\s*")
_QUALIFIER = re.compile(r"\s*(?:\(.*|\b(?:under|over|aged|from|with|of|up to)\b.*)$", re.IGNORECASE)
_TIME_HEADS = {"period", "term", "time", "duration", "length", "window", "delay", "deadline", "notice", "validity"}


def lower_first(text: str) -> str:
    first = text.split(" ", 1)[0]
    if len(first) > 1 and (first.isupper() or any(c.isupper() for c in first[1:]) or any(c.isdigit() for c in first)):
        return text
    return text[:1].lower() + text[1:]


def unit_phrase(fact: Fact) -> str:
    return f"per {fact.unit}" if fact.unit else ""


def amount(fact: Fact, value: float | None = None) -> str:
    """"$190 per month", "$12 per m2", "25 EUR"."""
    text = fmt_number(value, LANG) if value is not None else fact.value
    if fact.currency in ("$", "£"):  # "$190", "from $500"
        text = re.sub(r"^((?:from|up to)\s+)?", lambda m: (m.group(1) or "") + fact.currency, text, count=1)
    elif fact.currency:
        text = f"{text} {fact.currency}"
    return " ".join(p for p in (text, unit_phrase(fact), fact.extras.get("per", "")) if p)


def _is_person(word: str) -> bool:
    word = word.lower()
    return word in _PERSON_WORDS or word.rstrip("s") in _PERSON_WORDS or bool(_PERSON_SUFFIX.search(word))


def is_people(fact: Fact) -> bool:
    """Rows that are groups of people: the item column is "Reader category" / "Member type" (a group head after a
    person word) or a person word itself ("Member"), and the rows' own heads are person words too ("External
    member", "Academic staff", "Postgraduate"; half of the rows is enough: "Visiting scholar" beside them)."""
    words = re.findall(r"[A-Za-z]+", fact.extras.get("item_header", "").lower())
    if fact.kind != "table" or not words:
        return False
    grouped = len(words) >= 2 and words[-1] in _GROUP_HEADS and _is_person(words[-2])
    if not (grouped or len(words) == 1 and _is_person(words[0]) and words[0] not in _GROUP_HEADS):
        return False
    rows = fact.extras.get("item_rows") or (fact.subject,)
    return 2 * sum(_head_is_person(r) for r in rows) >= len(rows) and bool(re.search("[A-Za-z]", fact.subject))


def _head_is_person(label: str) -> bool:
    words = re.findall(r"[A-Za-z]+", _QUALIFIER.sub("", label))  # "Children under 12": the head is "children"
    return bool(words) and _is_person(words[-1])


def plural(label: str) -> str:
    """"Undergraduate" -> "undergraduates", "External member" -> "external members", "Academic staff" stays."""
    text = lower_first(label.strip())
    m = re.match(r"^(.*?)(\w+)(\s*(?:\(.*\)|(?:under|over|aged|from|with|of)\b.*)?)$", text)
    if not m:
        return text
    head, word, tail = m.groups()
    low = word.lower()
    if low in _UNCOUNTABLE or low.endswith("s") and not low.endswith("ss"):
        return text
    if low in _IRREGULAR:
        word = _IRREGULAR[low]
    elif re.search(r"(?:s|x|z|ch|sh)$", low):
        word += "es"
    elif re.search(r"[^aeiou]y$", low):
        word = word[:-1] + "ies"
    else:
        word += "s"
    return f"{head}{word}{tail}"


def _kind(fact: Fact) -> str | None:
    """The kind a row's bare name belongs to ("plan" for "Flex" under "Plan"), else None."""
    header = fact.extras.get("item_header", "").strip().lower()
    name = _PAREN.sub(" ", fact.subject).strip()
    words = name.split()
    if fact.kind != "table" or not header or len(header.split()) > 2 or header.split()[-1] not in OFFER_KINDS:
        return None
    kind = header.split()[-1]
    if not 1 <= len(words) <= 4 or any(w.lower().rstrip("s") == kind for w in words) or re.search(r"\d", name) \
            or not all(w[:1].isupper() for w in words if w[:1].isalpha()):
        return None
    return kind


def row_name(fact: Fact) -> str:
    """The row as a question names it: "the Flex plan", "postgraduates", else "the superior double" (a cell's bare
    noun phrase takes "the"; one that starts with an article, a number or a name in capitals, a gerund or a plural
    stays as written)."""
    if is_people(fact):
        return plural(fact.subject)
    kind = _kind(fact)
    if kind:
        return f"the {_PAREN.sub(' ', fact.subject).strip()} {kind}"
    item = lower_first(fact.subject)
    first = item.split(" ", 1)[0]
    if (first.lower() in ("a", "an", "the", "any", "each", "every", "all") or first[:1].isdigit() or first != first.lower()
            or first.endswith("ing") or item.endswith("s") and not item.endswith("ss")):  # "plastering": no article
        return item
    return f"the {item}"


def scope(fact: Fact) -> str:
    """" per month for 1–3 days": the per-phrase and condition a price of this column is stated for; ""."""
    cond = fact.extras.get("cond", "")
    if cond and re.match(r"\d", cond):
        cond = f"for {cond}"
    elif cond and not re.match(r"(?:from|up to|over|under|more than|less than|after|before)\s", cond, re.IGNORECASE):
        cond = f"({cond})"
    per = fact.extras.get("per", "") if fact.value_header else ""  # a row with no header keeps its "a month" in the cell
    return "".join(f" {p}" for p in (per, cond) if p)


def _reference(fact: Fact, kind: str) -> str:
    if not fact.extras.get("numeric", True):
        return fact.value
    if kind == "price":
        cond = fact.extras.get("cond", "")
        return amount(fact) + (f" ({cond})" if cond else "")
    return " ".join(p for p in (amount(fact), fact.extras.get("hunit", "")) if p)


def table_value(fact: Fact) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """Questions about one table cell, worded by its column's kind and its row's kind."""
    col = describe(fact)
    item, people, offer = row_name(fact), is_people(fact), _kind(fact) is not None
    ref = _reference(fact, col.kind)
    name = lower_first(col.name.strip())
    many = name.endswith("s") and not name.endswith("ss")
    if col.kind == "price" and not people:
        return [(f"How much does {item} cost{scope(fact)}?", ref, "table_price", ()),
                (f"What is the price of {item}{scope(fact)}?", ref, "table_price_cost_of", ("paraphrase",))]
    if not name:
        return []
    of = "for" if people or offer else "of"
    bound = re.match(r"(max|min)(?:imum|\.)?\s+(\S.*)$", name, re.IGNORECASE)
    if col.kind in ("count", "measure") and bound:  # "Max items" 15 -> "the maximum number of items for …"
        extreme = "maximum" if bound.group(1).lower() == "max" else "minimum"
        rest = bound.group(2)
        if rest.endswith("s") and not rest.endswith("ss") and not fact.extras.get("hunit"):
            return [(f"What is the {extreme} number of {rest} for {item}?", ref, "table_column", ())]
        return [(f"What is the {extreme} {rest} for {item}?", ref, "table_column", ())]
    if col.kind == "price":
        return [(f"What is the {name} for {item}{scope(fact)}?", ref, "table_price", ())]
    head = name.split()[-1].lower()
    if col.kind == "duration" and head not in _TIME_HEADS:
        if many:
            return [(f"For how long do {item} get {name}?", ref, "table_column", ())] if people else \
                [(f"How many {name} does {item} include?", ref, "table_column", ())] if offer else \
                [(f"What are the {name} {of} {item}?", ref, "table_column", ())]
        return [(f"How long is the {name} for {item}?", ref, "table_column", ())]
    if col.kind == "text" or many and col.kind != "count":
        if people:
            return [(f"What {name} do {item} get?", ref, "table_column", ())]
        if offer:
            return [(f"What {name} does {item} include?", ref, "table_column", ())]
        return [(f"What {'are' if many else 'is'} the {name} of {item}?", ref, "table_column", ())]
    if many:
        if people:
            return [(f"How many {name} do {item} get?", ref, "table_column", ())]
        if re.fullmatch(r"\d+", fact.value.strip()) and not fact.extras.get("hunit"):
            # a count of things a row includes: "Visits" 12 -> "How many visits does the monthly pass include?"
            return [(f"How many {name} does {item} include?", ref, "table_column", ())]
        return [(f"What is the number of {name} for {item}?", ref, "table_column", ())]
    if offer and col.kind == "measure" and not fact.currency:  # "50 GB" -> "What storage does the Basic package include?"
        return [(f"What {name} does {item} include?", ref, "table_column", ())]
    return [(f"What is the {name} {of} {item}?", ref, "table_column", ())]


__all__ = ["LANG", "OFFER_KINDS", "amount", "is_people", "lower_first", "plural", "row_name", "scope", "table_value",
           "unit_phrase"]
