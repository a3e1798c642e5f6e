"""Answer vs reference: does each claim of one text agree with another text on the same question?

Answer correctness (:mod:`ragauge.metrics.answer`) counts TP/FP/FN claims the way Ragas does: answer
claims the reference supports, answer claims it does not, reference claims the answer misses. The
verifier head was trained for a *different* situation -- a claim against retrieved contexts that
may or may not be about it -- and on two short texts that answer the same question its probability
is too cautious: a reference that leaves out the subject the question already names ("36 месяцев с
даты подписания акта" for "Какая гарантия на отделку?") makes every answer word about "гарантия"
and "отделка" look unsupported, and "52 рубля 70 копеек" against "52,70 руб." is a surface form, not
a fact. The decision here keeps the verifier's verdict and adds the consistency checks that already
exist, applied to the whole other text and the question:

1. **numbers** (``numbers.compare_quantities`` against the other text; the question may confirm a
   number but never contradict one): a number that conflicts with its same-role counterpart
   ("20 %" vs "30 %", "5 календарных" vs "5 рабочих дней", "м²" vs "м³") -> ``contradicted``;
   a number the other text lacks -> at most ``unsupported``;
2. **polarity and scope** against the other text *and* the question: a negation flip
   ("применяется" vs "не применяется") -> ``contradicted``; a party or quantifier the other text
   lacks and the question does not name either -> not agreed;
3. **content words**: ``coverage`` = share of the claim's content words outside quantities (nouns,
   adjectives, names, Latin words; verbs, modal and adverbial words are left to the embedding,
   because paraphrases change them freely) whose lemma, or 5-letter stem, occurs in the other text
   or in the question;
4. **entities**: names, dates and standards of the claim found in neither text -> not agreed.

A claim *agrees* when nothing in 1, 2 or 4 fires and either every number of it matches and
``coverage >= COVERAGE_MIN``, or it has no number, ``coverage >= COVERAGE_MIN_NO_NUMBERS`` and the
verifier's probability is at least ``P_FLOOR`` (the embedding keeps a veto over texts that share words
but not meaning). It must also be **anchored** in the other text itself: a number matched there, or at
least ``OWN_MIN`` of its content words -- "Almost Sunrise was released earlier" against the reference
"51 Birch Street" only repeats the question's options. An agreed claim is ``supported`` with
probability ``max(p, 0.5 + coverage / 2)``. Otherwise: a missing number is ``unsupported`` (or
``contradicted`` when the other text gives exactly one amount in that unit, with another value: two
answers to one question that each name one price per m² name the same thing); a claim the verifier
supports without an anchor is ``unsupported``; else the verifier's verdict stands. Reasons name "the
other text": the reference for an answer claim, the answer for a reference claim.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ragauge.judges.offline.entities import entity_found, extract_entities
from ragauge.judges.offline.contrasts import contrast_swap, shared_term_words
from ragauge.judges.offline.features import align, word_lemmas
from ragauge.judges.offline.lemmas import analyze, content_lemmas
from ragauge.judges.offline.negation import negation_mismatch, negations
from ragauge.judges.offline.scope import scope_mismatch
from ragauge.judges.offline.numbers import compare_quantities
from ragauge.judges.offline.quantities import detect_lang, extract_quantities
from ragauge.judges.offline.verifier import _negation_reason
from ragauge.judges.types import CONTRADICTED, SUPPORTED, UNSUPPORTED, ClaimVerdict

__all__ = ["COVERAGE_MIN", "COVERAGE_MIN_NO_NUMBERS", "OWN_MIN", "P_FLOOR", "agree_many", "coverage"]

#: Share of a claim's content words the other text (or the question) must cover, claims with numbers.
COVERAGE_MIN = 0.6
#: The same for a claim without numbers: its words are all it has.
COVERAGE_MIN_NO_NUMBERS = 0.8
#: The verifier probability under which word coverage alone never makes a claim without numbers agree.
P_FLOOR = 0.15
#: Share of a claim's content words the other text itself must hold when no number of it matches there.
OWN_MIN = 0.5

# Words that paraphrases change freely: verbs and their forms, predicatives ("можно", "нужно"),
# short adjectives ("должна"), adverbs ("раньше", "примерно"), numerals, interjections.
_FREE_POS = frozenset({"VERB", "INFN", "GRND", "PRTF", "PRTS", "PRED", "ADJS", "ADVB", "NUMR", "COMP", "INTJ"})


def _content(claim: str, lang: str | None) -> list[tuple[str, str]]:
    """(surface, lemma) of the claim's content words outside quantities, free-form words left out."""
    kept = set(word_lemmas(claim, lang))
    out: dict[str, str] = {}
    for t in analyze(claim):
        if t.lemma in kept and t.pos not in _FREE_POS and not t.is_stop and not t.is_number:
            out.setdefault(t.lemma, t.text)
    return [(surface, lemma) for lemma, surface in out.items()]


def coverage(claim: str, known_texts: Sequence[str], lang: str | None = None) -> tuple[float, tuple[str, ...]]:
    """(share of the claim's content words found in ``known_texts``, surface forms of the others).

    Lemmas match exactly or by a shared 5-letter stem ("гарантия"/"гарантийный"). A claim with no
    such words covers 1.0 (its numbers and the embedding decide).

    >>> coverage("Гарантия на отделочные работы — 3 года", ["36 месяцев с даты подписания акта", "Какая гарантия на отделку?"])
    (0.6666666666666667, ('работы',))
    """
    words = _content(claim, lang)
    if not words:
        return 1.0, ()
    known = {lemma for text in known_texts for lemma in content_lemmas(text, numbers=False)}
    aligned = align([lemma for _, lemma in words], known)
    same_term = shared_term_words(claim, known_texts)  # "ежемесячная" against "каждый месяц"
    missing = tuple(surface for (surface, _), lemma in zip(words, aligned)
                    if lemma not in known and surface.lower() not in same_term)
    return 1.0 - len(missing) / len(words), missing


def _anchored(check, own_share: float, has_words: bool) -> bool:
    """Does the claim rest on something the *other text* says, not only on the question's words?

    A number matched in the other text itself (not "elsewhere", in the question) is an anchor; so is
    half of the claim's content words. "Almost Sunrise was released earlier" against the reference
    "51 Birch Street" repeats the question's options: every word is given, none is confirmed."""
    in_other = any(m.outcome == "matched" and "elsewhere" not in m.notes for m in check.items)
    return in_other or (has_words and own_share >= OWN_MIN)


def _sole_counterpart(check, other: str, lang: str | None) -> str | None:
    """The reason of a contradiction for a missing claim number whose unit the other text uses exactly
    once, with another value ("980 руб./м²" against a reference whose one price per m² is "1 150 руб./м²").
    Two answers to one question that name one amount of one unit are naming the same thing; the role test
    of ``compare_quantities`` (shared nearby words) is made for long contexts and misses it in a terse
    reference. Only the label and the reason change: a missing number is already not supported."""
    pool = [q for q in extract_quantities(other, lang if lang in ("ru", "en") else None) if q.kind == "number" and q.unit]
    for m in check.items:
        if m.outcome != "missing" or m.claim.unit is None or m.claim.kind != "number":
            continue
        same = [q for q in pool if q.base_unit == m.claim.base_unit]
        if len(same) == 1 and abs(same[0].base_value - m.claim.base_value) > 1e-9 * max(1.0, abs(same[0].base_value)):
            return f'number "{m.claim.raw}" not in the other text; it says "{same[0].raw}"'
    return None


def _found(ent, texts: Sequence[str], lang: str | None) -> bool:
    return any(entity_found(ent.kind, ent.norm, t, lang=lang) or ent.text.lower() in t.lower() for t in texts)


def _entities(claim: str, other: str, given: Sequence[str], lang: str | None) -> tuple[int, str | None]:
    """(claim entities found in neither text, the reason of a swap or None).

    A name, date or standard of the claim that the other text lacks while it names another of the same
    kind -- and the claim does not name that one too -- is a swap, even when the question names it:
    "Garajonay National Park is larger" against the reference "Doñana National Park" picks the other
    option of the question."""
    missing, swap = 0, None
    other_ents = extract_entities(other, lang)
    for ent in extract_entities(claim, lang):
        if _found(ent, [other], lang):
            continue
        rivals = [e for e in other_ents if (e.kind == ent.kind or {e.kind, ent.kind} <= _NAMES) and not _found(e, [claim], lang)]
        if rivals and swap is None:
            swap = f"'{ent.text}' not in the other text; it says '{rivals[0].text}'"
        missing += not _found(ent, given, lang)
    return missing, swap


_NAMES = frozenset({"PER", "ORG", "NAME", "LOC"})
_EN_COMPARATIVES = frozenset({"later", "earlier", "less", "more", "fewer", "higher", "lower", "longer", "shorter", "than"})


def _negated(text: str) -> bool:
    """Whether ``text`` negates something; a negated comparative is a bound ("не тоньше 40 мм" = "не
    менее 40 мм"), not a negation. A negated claim never agrees, by words alone, with a text that negates
    nothing: "Love Me Not was not released in 2006" against the reference "2006" (whose words the
    negation cannot be matched against)."""
    tokens = analyze(text)
    for n in negations(text):
        nxt = next((t for t in tokens if t.start >= n.end), None)
        if nxt is None or (nxt.pos != "COMP" and nxt.text.lower() not in _EN_COMPARATIVES):
            return True
    return False


def _decide(v: ClaimVerdict, other: str, question: str | None, lang: str | None) -> ClaimVerdict:
    """One claim's verdict against ``other`` (module doc): the verifier's ``v`` refined."""
    given = [question] if question else []
    # one language for both texts: a bare "8,711" reference is read as the English answer reads it
    check = compare_quantities(v.claim, [other], lang=lang, evidence_lang=lang or detect_lang(v.claim), background=given)
    window = v.evidence.text if v.evidence is not None else other
    # A conflict counts when both numbers carry a unit or neither does: "20 мм" against a bare "620"
    # is a number the other text lacks, not a contradiction.
    conflicts = [m for m in check.items if m.outcome == "mismatched" and (m.claim.unit is None) == (m.evidence.unit is None)]
    if conflicts:
        return replace(v, label=CONTRADICTED, probability=min(v.probability, 0.25), reason=conflicts[0].reason)
    if negation_mismatch(v.claim, window) and negation_mismatch(v.claim, other):
        return replace(v, label=CONTRADICTED, probability=min(v.probability, 0.25),
                       reason=_negation_reason(v.claim, window))
    scope_ok = scope_mismatch(v.claim, "\n".join([other, *given])) == 0
    ents_missing, swap = _entities(v.claim, other, given, lang)
    if swap is None and (rival := contrast_swap(v.claim, other, given)) is not None:
        swap = f"'{rival[0]}' not in the other text; it says '{rival[1]}'"
    if swap is not None:
        return replace(v, label=CONTRADICTED, probability=min(v.probability, 0.25), reason=swap)
    same_polarity = not _negated(v.claim) or _negated(other)  # (the other direction is the other side's claim)
    share, missing_words = coverage(v.claim, [other, *given], lang)
    own_share, _ = coverage(v.claim, [other], lang)
    anchored = _anchored(check, own_share, bool(_content(v.claim, lang)))
    if check.status == "consistent":
        agrees = share >= COVERAGE_MIN
    else:
        agrees = check.status == "no_numbers" and share >= COVERAGE_MIN_NO_NUMBERS and v.probability >= P_FLOOR
    if agrees and anchored and scope_ok and same_polarity and not ents_missing:
        what = check.reason if check.status == "consistent" else "no numbers to compare"
        reason = f"agrees with the other text: {what}; content words covered {share:.0%}"
        return replace(v, label=SUPPORTED, probability=max(v.probability, 0.5 + share / 2), reason=reason)
    if check.status not in ("consistent", "no_numbers"):
        sole = _sole_counterpart(check, other, lang)
        if sole is not None:  # the only price per m² the reference gives is another one
            return replace(v, label=CONTRADICTED, probability=min(v.probability, 0.25), reason=sole)
        reason = "; ".join(m.reason for m in check.items if m.outcome != "matched")
        return replace(v, label=UNSUPPORTED, probability=min(v.probability, 0.45), reason=reason)
    if v.label == SUPPORTED and not anchored:
        return replace(v, label=UNSUPPORTED, probability=min(v.probability, 0.45),
                       reason="nothing of it is in the other text beyond the question's words")
    if v.label != SUPPORTED and missing_words and not v.reason.startswith(("number", "'", '"', "negation", "date")):
        return replace(v, reason="content words not in the other text or the question: " + ", ".join(missing_words[:5]))
    return v


def agree_many(
    items: Sequence[tuple[Sequence[object], str, str | None, str | None]], *, verifier: object
) -> list[list[ClaimVerdict]]:
    """One verdict per claim for each ``(claims, other_text, question, lang)`` item (module doc).

    ``verifier`` is a :class:`ragauge.judges.offline.verifier.Verifier`; its verdicts (evidence,
    probability, reason) are computed for the whole batch at once and then refined per claim.
    """
    base = verifier.verify_many([(list(claims), [other], lang) for claims, other, _, lang in items])
    out = []
    for verdicts, (_, other, question, lang) in zip(base, items):
        decided = (_decide(v, other, question, lang) for v in verdicts)
        out.append([replace(v, reason=_other_text(v.reason)) for v in decided])
    return out


def _other_text(reason: str) -> str:
    """The verifier's and the number check's wording ("not in context") for a claim checked against the
    other answer."""
    for old, new in (("supported by context 1", "supported by the other text"), ("not in context", "not in the other text"),
                     ("context says", "the other text says"), ("vs context", "vs the other text"),
                     ("match the context", "match the other text"), ("matches the context", "matches the other text"),
                     ("the context does not", "the other text does not"), ("in the contexts", "in the other text"),
                     ("closest context passage", "closest passage of the other text")):
        reason = reason.replace(old, new)
    return reason
