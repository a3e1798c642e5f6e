"""Kind swap: the claim's figure is stated for another kind of the same thing.

"Годовая премия выплачивается в размере до 30% оклада" against "Квартальная премия выплачивается в размере
до 30% оклада. Годовая премия выплачивается не позднее 31 марта.": the figure "30%" matches, and the window
that holds it names "годовая премия" too, so the head reads the claim as supported. But the clause that states
"30%" is about "квартальная премия", and the contexts give "годовая премия" a figure of its own in another
sentence: they hold two kinds of премия, and the claim took one kind's figure for the other.

A kind is a noun with the adjectives right before it (Russian: pymorphy3's ADJF/PRTF; English: the content word
before it). The rule fires for a figure of the claim when, in the clause of the evidence that states it:

* the nearest occurrence of a noun H of the claim (before the figure, else after it) carries a modifier R that
  the claim does not use, and lacks the claim's own modifier M of H (M appears nowhere in the clause);
* some other sentence of the contexts states "M H" with a number, and without R: the contexts themselves tell
  the two kinds apart and give each its figure.

A claim that renames a thing the contexts name once ("ежегодный отпуск" for "оплачиваемый отпуск … в год")
is left to the head: the second condition fails, since no sentence gives "ежегодный отпуск" a figure of its own.

    >>> kind_swap("Годовая премия выплачивается в размере до 30% оклада.",
    ...           [("Квартальная премия выплачивается в размере до 30% оклада.", 45, 48, "30%")],
    ...           ["Квартальная премия выплачивается в размере до 30% оклада. "
    ...            "Годовая премия выплачивается не позднее 31 марта."])
    "the figure '30%' is the one of 'квартальная премия' in the context, not of 'годовая премия'"
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragauge.judges.offline.claim_rules import clause_bounds
from ragauge.judges.offline.lemmas import Token, analyze
from ragauge.judges.offline.text import split_sentences

__all__ = ["kind_swap"]

_RU_MODIFIER_POS = frozenset({"ADJF", "PRTF"})


def _is_ru(t: Token) -> bool:
    return t.pos is not None


def _is_noun(t: Token) -> bool:
    if t.is_number or t.is_stop:
        return False
    return t.pos == "NOUN" if _is_ru(t) else t.text.isascii() and t.text.isalpha()


def _modifiers(tokens: Sequence[Token], i: int) -> tuple[frozenset[str], str]:
    """The modifiers of the noun ``tokens[i]`` (lemmas) and the kind as written ("квартальная премия")."""
    head = tokens[i]
    mods: list[Token] = []
    j = i - 1
    while j >= 0:
        t = tokens[j]
        if t.is_number or t.is_stop:
            break
        if _is_ru(head):
            if t.pos not in _RU_MODIFIER_POS:
                break
        elif not (t.text.isascii() and t.text.isalpha()) or mods:  # English: one word before the noun
            break
        mods.insert(0, t)
        j -= 1
    written = " ".join(t.text for t in [*mods, head])
    return frozenset(t.lemma for t in mods), written


_NAME_AFTER = re.compile(r"\s*[«\"“„]([^»\"”“]{1,40})[»\"”“]")


def _kinds(text: str) -> list[tuple[int, str, frozenset[str], str]]:
    """(offset, head lemma, modifier lemmas, as written) of every noun of ``text`` that has a modifier; a name
    in quotes right after the noun is one too ("карта «Премиум»": "премиум")."""
    tokens = analyze(text)
    out = []
    for i, t in enumerate(tokens):
        if _is_noun(t):
            mods, written = _modifiers(tokens, i)
            name = _NAME_AFTER.match(text, t.end)
            if name:
                mods = mods | {"«" + name.group(1).strip().lower().replace("ё", "е") + "»"}
                written = f"{written} {name.group(0).strip()}"
            if mods:
                out.append((t.start, t.lemma, mods, written))
    return out


def _low(written: str) -> str:
    return written[:1].lower() + written[1:]


def _has_number(text: str) -> bool:
    return any(t.is_number for t in analyze(text))


def _states_own(kind_head: str, mod: str, rival: frozenset[str], contexts: Sequence[str], clause: str) -> bool:
    """Some sentence of ``contexts`` other than ``clause`` names "``mod`` ``kind_head``" (without the rival
    modifiers) and states a number."""
    for text in contexts:
        for s in split_sentences(text):
            if clause.strip() and clause.strip() in s.text or not _has_number(s.text):
                continue
            for _, head, mods, _w in _kinds(s.text):
                if head == kind_head and mod in mods and not mods & rival:
                    return True
    return False


def kind_swap(claim: str, matched: Sequence[tuple[str, int, int, str]], contexts: Sequence[str]) -> str | None:
    """A reason when a figure of ``claim`` is stated for another kind of the same thing (module doc);
    ``matched`` holds, per matched figure, ``(evidence text, start, end, surface)`` of its counterpart."""
    own = _kinds(claim)
    if not own:
        return None
    claim_lemmas = {t.lemma for t in analyze(claim)} | {m for k in own for m in k[2]}
    for text, start, end, surface in matched:
        left, right = clause_bounds(text, start, end)
        clause = text[left:right]
        kinds = _kinds(clause)
        clause_lemmas = {t.lemma for t in analyze(clause)} | {m for k in kinds for m in k[2]}
        for _, head, mods, written in own:
            missing = mods - clause_lemmas
            if not missing:
                continue
            before = [k for k in kinds if k[1] == head and left + k[0] < start]
            after = [k for k in kinds if k[1] == head and left + k[0] >= end]
            near = before[-1] if before else after[0] if after else None
            if near is None:
                continue
            rival = near[2] - claim_lemmas
            if not rival:
                continue
            if any(_states_own(head, m, rival, contexts, clause) for m in missing):
                return (f"the figure '{surface}' is the one of '{_low(near[3])}' in the context, "
                        f"not of '{_low(written)}'")
    return None
