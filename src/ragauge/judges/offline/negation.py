"""Negation cues of a text and whether a claim and its evidence disagree on them ("не более" is a bound, not a
negation; a negated modal passes the negation on)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ragauge.judges.offline.lemmas import Token, _analyze

# ---------------------------------------------------------------- negation

_RU_CUES = frozenset({"не", "нет", "ни", "без", "никогда", "нельзя", "ничто", "нигде", "никакой", "отсутствовать", "невозможно"})
_EN_CUES = frozenset({"not", "no", "never", "without", "none", "nothing", "nobody", "neither", "nor", "nowhere", "cannot"})
# "не более 5 дней", "no later than": bounds on a quantity, not negations (numbers.py reads them).
_BOUND_WORDS = frozenset(
    "более менее больше меньше позднее позже ранее раньше свыше выше ниже more less later earlier fewer greater sooner".split()
)
_CLAUSE_END = re.compile(r"[.!?;:]")
# A negated modal passes the negation to the next content word: "не может расторгнуть".
_MODALS = frozenset({"мочь", "должный", "должен", "являться", "стать", "следовать", "вправе", "обязанный", "обязан"})


@dataclass(frozen=True, slots=True)
class Negation:
    """A negation cue at ``start:end`` and the lemmas of the words it negates (may be empty)."""

    cue: str
    heads: tuple[str, ...]
    start: int
    end: int


def _is_cue(token: Token) -> bool:
    lower = token.text.lower()
    if token.is_number:
        return False
    return (
        lower in _RU_CUES
        or token.lemma in _RU_CUES
        or lower in _EN_CUES
        or lower.endswith(("n't", "n’t"))
    )


_REPLY_AFTER = re.compile(r"\s*[,.!—–-]")
# A yes/no reply word as a whole word (not "No-one", "нетто"), then the punctuation after it.
_REPLY_WORD = re.compile(r"\s*(?:да|нет|yes|no)(?![-'’]?[^\W_])" + _REPLY_AFTER.pattern, re.IGNORECASE)


def reply_word(text: str, start: int = 0) -> re.Match[str] | None:
    """The yes/no reply word at ``text[start:]`` with the punctuation after it ("Нет, …", "Да — …", "No! …"),
    else None; leading white space is skipped.

    >>> reply_word("Нет, скидки не суммируются").group(0)
    'Нет,'
    >>> reply_word("No-one may cancel the order") is None
    True
    """
    return _REPLY_WORD.match(text, start)


def _is_reply(text: str, tokens: Sequence[Token], i: int) -> bool:
    """"Нет, …" / "No, …" opening a clause answers a yes/no question; it negates none of the words after it
    ("Нет, через приложение перевод бесплатный": the transfer is free, not "not through the app")."""
    token = tokens[i]
    if reply_word(text, token.start) is None:
        return False
    return i == 0 or bool(_CLAUSE_END.search(text, tokens[i - 1].end, token.start))


def negations(text: str, lang: str | None = None) -> list[Negation]:
    """Negation cues of ``text`` with their heads: the next content word (two when the first is a
    modal, "не может расторгнуть"), else the previous content word ("Гарантии нет").

    Quantity bounds ("не более", "не позднее", "no later than") are not negations.

    >>> [(n.cue, n.heads) for n in negations("Заказчик не может расторгнуть договор")]
    [('не', ('мочь', 'расторгнуть'))]
    """
    tokens = _analyze(text)
    out = []
    for i, token in enumerate(tokens):
        if not _is_cue(token) or _is_reply(text, tokens, i):
            continue
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if nxt is not None and nxt.text.lower() in _BOUND_WORDS:
            continue
        heads: list[str] = []
        prev_end = token.end
        # "Скидки нет, но …": a "нет" that ends its clause negates the word before it
        ahead = [] if token.text.lower() == "нет" and _REPLY_AFTER.match(text, token.end) else tokens[i + 1 : i + 5]
        for other in ahead:
            if _CLAUSE_END.search(text, prev_end, other.start):
                break  # "Гарантии нет. Цена ..." : the head is not in the next sentence
            prev_end = other.end
            if other.is_stop or _is_cue(other):
                continue
            heads.append(other.lemma)
            if other.lemma not in _MODALS:
                break
        if not heads:
            next_start = token.start
            for other in reversed(tokens[max(0, i - 3) : i]):
                if _CLAUSE_END.search(text, other.end, next_start):
                    break
                next_start = other.start
                if not other.is_stop and not _is_cue(other):
                    heads.append(other.lemma)
                    break
        out.append(Negation(token.text.lower(), tuple(heads), token.start, token.end))
    return out


def negation_mismatch(claim: str, evidence: str, *, lang: str | None = None) -> int:
    """How many negated words are negated on one side and asserted on the other.

    A head negated in the claim counts when the evidence has it un-negated, and vice versa.
    Modal heads ("мочь") are skipped when a main verb follows. 0 means no polarity conflict seen.

    >>> negation_mismatch("Заказчик не может расторгнуть договор", "Заказчик вправе расторгнуть договор")
    1
    """
    return len(_mismatched_heads(claim, evidence))


def _mismatched_heads(claim: str, evidence: str) -> set[str]:
    def sides(text: str) -> tuple[set[str], set[str]]:
        negated = set()
        for neg in negations(text):
            heads = [h for h in neg.heads if h not in _MODALS] or list(neg.heads)
            negated.update(heads)
        lemmas = {t.lemma for t in _analyze(text) if not t.is_stop}
        return negated, lemmas

    claim_neg, claim_lemmas = sides(claim)
    evid_neg, evid_lemmas = sides(evidence)
    return {h for h in claim_neg if h in evid_lemmas and h not in evid_neg} | {
        h for h in evid_neg if h in claim_lemmas and h not in claim_neg
    }


__all__ = ["Negation", "negation_mismatch", "negations", "reply_word"]
