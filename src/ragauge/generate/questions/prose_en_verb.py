"""The subject and the verb of an English policy sentence, and the do-support a question needs.

:func:`find_verb` reads a sentence whose verb is neither an auxiliary nor a form in -s before its first number:
a plural subject's own form ("Members pay $25 an hour", "Private Office contracts need 60 days' notice",
"Articles usually arrive by email within 3 working days"), a subject with a phrase or a relative clause before
its verb ("Students with a valid student card get 20% off", "Members who pay for 12 months upfront get 15%
off": the number of the relative clause is not the one asked). The verb is read back from a number: past the
words of an operator ("up to", "at least", "for") and at most three words of an object, to a word that agrees
with its subject (a plural subject and a plain form, a singular one and a form in -s) and does not follow an
article, a preposition or a relative pronoun ("by email", "a laptop", "who pay").
"""

from __future__ import annotations

import re

REL = {"who", "that", "which", "whose"}
PREP = {"with", "for", "from", "in", "on", "at", "of", "by", "to", "under", "over", "without", "after", "before",
        "during", "within", "between", "into", "through", "via", "per", "except", "aged", "outside", "inside",
        "below", "above", "beyond", "past", "near", "around", "off"}
#: Words that open a subordinate clause, not a subject ("Once your balance drops below $100, …").
SUBORDINATORS = {"if", "when", "once", "unless", "until", "while", "although", "though", "because", "since", "as",
                 "whether", "where", "whenever", "after", "before"}
_DET = {"the", "a", "an", "this", "that", "these", "those", "each", "every", "all", "any", "no", "some", "our",
        "your", "my", "their", "its", "his", "her"}
_PRONOUN_PLURAL = {"you", "i", "we", "they"}
_STOP = PREP | _DET | REL | _PRONOUN_PLURAL | {
    "and", "or", "but", "if", "when", "once", "unless", "not", "is", "are", "was", "were", "be", "been", "must",
    "may", "can", "will", "shall", "should", "cannot", "do", "does", "than", "more", "less", "most", "least", "up",
    "only", "also", "just", "about", "free", "it", "he", "she", "there", "here", "per", "extra", "full"}
#: Words between a verb and its number: an operator ("up to", "at least", "a maximum of") or an article.
_OPERATOR_WORDS = {"up", "to", "at", "least", "most", "for", "within", "every", "no", "not", "more", "than",
                   "less", "fewer", "over", "under", "maximum", "minimum", "of", "a", "an", "the", "by", "from",
                   "until", "after", "only", "just", "about", "around", "approximately", "between", "each"}
_ADVERB = {"usually", "always", "never", "often", "also", "only", "still", "normally", "generally", "typically",
           "automatically", "currently", "sometimes", "then"}


def en_plural(noun: str) -> bool:
    """"requests", "fees" are plural; "bonus", "access", "status", "analysis" are not."""
    low = noun.lower().strip(".,;:")
    if low in ("children", "people", "men", "women", "staff", "police", "cattle", "teeth", "feet"):
        return True
    return low.endswith("s") and not low.endswith(("ss", "us", "is"))


def subject_head(subject: list[str]) -> str:
    """The noun a subject agrees with: "Students" of "Students with a valid student card", "members" of "Members
    who pay …", "contracts" of "Private Office contracts"."""
    words = [w.strip(".,;:") for w in subject]
    cut = next((i for i, w in enumerate(words) if i and (w.lower() in PREP or w.lower() in REL)), len(words))
    kept = [w for w in words[:cut] if w.lower() not in _ADVERB and not w.lower().endswith("ly")]
    return kept[-1] if kept else (words[-1] if words else "")


def plural_subject(subject: list[str]) -> bool:
    """A subject a plain verb form agrees with: a plural head, "you", "I", "we", two nouns with "and"."""
    head = subject_head(subject)
    cut = next((i for i, w in enumerate(subject) if i and (w.lower() in PREP or w.lower() in REL)), len(subject))
    return head.lower() in _PRONOUN_PLURAL or en_plural(head) or "and" in [w.lower() for w in subject[:cut]]


def base_form(verb: str) -> str:
    """"approve" of "approves", "reach" of "reaches", "reply" of "replies"; a plain form ("pay") is its own base."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith(("ches", "shes", "sses", "xes")):
        return verb[:-2]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    return verb[:-1] if verb.endswith("s") and not verb.endswith("ss") else verb


_IRREGULAR = {"has": "have", "does": "do", "goes": "go"}


def do_support(verb: str, subject: list[str]) -> str:
    """"does" for a verb in -s, else "do" ("How much do members pay …?")."""
    return "does" if verb.endswith("s") and not verb.endswith("ss") and not plural_subject(subject) else "do"


def lower_subject(subject: list[str]) -> str:
    """A subject as it stands inside a question: its first letter lowered unless the case is its spelling ("X-ray
    results", "eSIM", "ATM", "I") or it opens a name of capitalised words ("Private Office contracts")."""
    subj = " ".join(subject)
    if re.match(r"^(?:[A-Z]{2,}|I\b|[A-Z]-|\S*\d|[A-Za-z][a-z]*[A-Z])", subj):
        return subj
    if len(subject) > 1 and subject[0].lower() not in _DET and re.match(r"[A-Z][a-z]", subject[1]):
        return subj  # "Private Office contracts", "Main Library staff"
    return subj[:1].lower() + subj[1:]


def verb_at(words: list[str], v: int) -> bool:
    """Whether ``words[v]`` can be the finite verb of the subject ``words[:v]`` (see the module docstring)."""
    cand = words[v]
    if not re.fullmatch(r"[a-z]{2,}", cand) or cand in _STOP or cand in _ADVERB or _not_finite(cand):
        return False
    prev = words[v - 1].lower().strip(".,;:")
    if prev in _DET or prev in PREP or prev in REL or words[v - 1].endswith((",", ";", ":")):
        return False
    subject = words[:v]
    if not re.match(r"[A-Z]", subject[0]) or any(re.search(r"[,;:]", w) for w in subject) or len(subject) > 10:
        return False
    if subject[0].lower() in SUBORDINATORS:
        return False
    if all(w.lower() in _DET or w.lower() in ("most", "many", "both", "few") for w in subject):
        return False  # "All orders ship …": "All" is no subject
    if subject[0].lower() in _PRONOUN_PLURAL and v != 1:
        return False  # "You hold parcels": a pronoun is the whole subject
    rel = next((i for i, w in enumerate(subject) if w.lower() in REL), None)
    if rel is not None and v <= rel + 1:
        return False
    if len(subject) > 1 and subject[1].lower().endswith("ed") and rel is None:
        return False  # "Items placed in the book drop …": a participle's phrase, the verb is further on
    if _plural_modifier(subject):
        return False  # "Outlets accept returns": "Outlets accept" is no noun phrase, "accept" is the verb
    plural = plural_subject(subject)
    return (not plural) if cand.endswith("s") and not cand.endswith("ss") else plural


def _plural_modifier(subject: list[str]) -> bool:
    """A plural word before the head of a noun phrase ("Outlets accept"): a modifier is singular ("parcel
    delivery"), so such a phrase is a subject and its verb; "Postgraduates and staff", "savings accounts",
    "sports centres" are noun phrases."""
    cut = next((i for i, w in enumerate(subject) if i and (w.lower() in PREP or w.lower() in REL)), len(subject))
    phrase = [w.lower().strip(".,;:") for w in subject[:cut]]
    phrase = [w for w in phrase if w not in _ADVERB and not w.endswith("ly")] or phrase
    for i, w in enumerate(phrase[:-1]):
        if phrase[i + 1] in ("and", "or") or i and phrase[i - 1] in ("and", "or"):
            continue
        if en_plural(w) and not w.endswith("ings") and w not in _PLURAL_FORM_MODIFIERS and w not in _STOP:
            return True
    return False


_PLURAL_FORM_MODIFIERS = {"sales", "goods", "sports", "arts", "news", "clothes", "customs", "arrivals",
                          "departures", "savings", "earnings", "women", "men", "children", "staff"}


def _not_finite(word: str) -> bool:
    """An adverb, a participle or an adjective by its ending ("usually", "placed", "booking", "dental",
    "available"); "need", "exceed", "appeal" are verbs."""
    if word.endswith("ed") and not word.endswith("eed") or word.endswith(("ly", "ing")) and len(word) > 4:
        return True
    if word.endswith("al") and not word.endswith("eal"):  # "dental", "annual"; "appeal", "reveal" are verbs
        return len(word) > 4
    return word.endswith(("ic", "ous", "ful", "less", "able", "ible", "ary", "ory")) and len(word) > 4


def opens_object(words: list[str], v: int) -> bool:
    """Whether what follows ``words[v]`` can open the object or quantity of a verb there: a number, an operator, an
    article or a determiner ("need 60 days", "receive a laptop"); not a noun it would modify ("leave requests")."""
    if v + 1 >= len(words):
        return False
    nxt = words[v + 1].lower().strip(".,;:")
    return bool(re.search(r"\d", nxt)) or nxt in _OPERATOR_WORDS or nxt in _DET


def find_verb(words: list[str]) -> tuple[int, int] | None:
    """(index of the verb, index of the number it governs) of a sentence with no auxiliary and no verb in -s
    before its first number; None when no word agrees (see the module docstring)."""
    for n, w in enumerate(words):
        if not re.search(r"\d", w) or n < 2:
            continue
        k = n - 1
        while k > 0 and words[k].lower() in _OPERATOR_WORDS:
            k -= 1
        for v in range(k, max(0, k - 4), -1):
            if verb_at(words, v):
                return v, n
            if words[v].lower() in ("is", "are", "must", "may", "can", "will", "shall", "should"):
                break  # an auxiliary of a clause of its own: this number is not the main verb's
    return None


__all__ = ["PREP", "REL", "SUBORDINATORS", "base_form", "do_support", "en_plural", "find_verb", "lower_subject", "plural_subject",
           "opens_object", "subject_head", "verb_at"]
