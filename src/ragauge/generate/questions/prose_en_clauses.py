"""English sentences that join two clauses, split so that a reference is the clause that answers its question.

"A hot desk costs $20 per hour and the boardroom costs $65 per hour." -> "A hot desk costs $20 per hour" and "the
boardroom costs $65 per hour."; the same at "; " and ", and ". A split needs a clause on both sides: the right
side opens with a subject and a finite verb ("the boardroom costs"), the left side has a finite verb of its own
(and, before a bare "and", a quantity); "Hot desks and meeting rooms cost $20 per hour" and "Bags over 32 kg and
the oversized items are charged at 50%" (one subject of two nouns) stay whole.
Each part is the sentence's own text, so a quote of it is found in the document.
"""

from __future__ import annotations

import re

#: Finite verbs a value clause is built on ("costs", "is", "must", "takes").
_FINITE = (r"is|are|was|were|must|may|can|will|shall|should|costs?|takes?|lasts?|includes?|requires?|applies|"
           r"apply|pays?|gets?|receives?|has|have|charges?|offers?|provides?|starts?|ends?|runs?|opens?|closes?|"
           r"needs?|gives?|holds?|seats?|cannot")
_VERB = re.compile(rf"\b(?:{_FINITE})\b", re.IGNORECASE)
_DETERMINER = r"(?:the|a|an|our|your|its|their|this|that|these|those|each|every|all|any|no)"
#: A clause that opens after "and"/";": a subject of at most six words, then a finite verb before any number.
_CLAUSE_START = re.compile(rf"^(?:{_DETERMINER}\s+)?[A-Za-z][\w'’-]*(?:\s+[A-Za-z][\w'’-]*){{0,5}}?"
                           rf"\s+(?:{_FINITE})\b", re.IGNORECASE)
_DETERMINED_START = re.compile(rf"^{_DETERMINER}\s", re.IGNORECASE)
#: A clause that leans on the one before ("… free for 2 hours and each additional hour costs $3") stays with it.
_LEANS_BACK = re.compile(rf"^{_DETERMINER}\s+(?:additional|extra|further|subsequent|remaining|other|next|following|"
                         r"same|latter|former)\b", re.IGNORECASE)
_JOINS = re.compile(r";\s+|,\s+and\s+|\s+and\s+")


def en_clauses(sentence: str) -> list[str]:
    """The clauses of one English sentence, in order; ``[sentence]`` when it holds one."""
    out: list[str] = []
    start = 0
    for m in _JOINS.finditer(sentence):
        left, right = sentence[start:m.start()], sentence[m.end():]
        bare_and = m.group().strip() == "and"
        if not _CLAUSE_START.match(right) or bare_and and not _DETERMINED_START.match(right) \
                or _LEANS_BACK.match(right):
            continue  # "and the boardroom costs", not "and meeting rooms cost" (one subject of two nouns)
        if not _VERB.search(left) or bare_and and not re.search(r"\d", left):
            continue  # "Bags over 32 kg and the oversized items are charged …": no clause before "and"
        out.append(left.strip().rstrip(",;"))
        start = m.end()
    out.append(sentence[start:].strip())
    return [p for p in out if p]


__all__ = ["en_clauses"]
