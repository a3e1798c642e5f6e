"""Checks the head cannot learn from its features: a superseded edition, an added condition, a table row swap.

Pure functions over the claim, its evidence windows and the sample's contexts; each returns a reason
(a string quoting surface forms) when the claim must not be supported, else None. The verifier applies
them after the head (``verifier._claim_rules``) on every route.

* **Superseded edition** (:func:`superseded_only`): the claim's figures are stated only in a context
  that says it is no longer in force ("утратил силу", "действовал до", "заменён новой редакцией";
  ``answerability.is_superseded``), and either another context is the current edition of the same
  document (the same title words in its first sentence) and does not state them, or no current edition
  was retrieved and the claim does not speak of the past or of an edition ("раньше", "в 2024 году"). "Приём терапевта стоит 2 100
  рублей" from the 2024 price list that the 2025 one replaced is not supported.
* **Added condition** (:func:`added_condition`): a condition clause after the claim's main clause
  ("..., если ...", "при условии ...", "только при ...", "по согласованию с ...", "но только ...", up to
  the end of the clause) whose content words no single sentence of the contexts states together. A condition
  that opens the claim restates a rule and is left to the head; "если бы" is not a condition. "ДМС оформляется после испытательного срока, но только
  сотрудникам, проработавшим больше года" adds a condition the policy does not have.
* **Code swap** (:func:`code_swap`): the claim's figure is stated in a clause about another code of the same
  family and not the claim's own ("Для инцидентов P2 время реакции 15 минут" where "15 минут" is P1's).
* **Table row swap** (:func:`row_swap`): the claim's amount sits in a table row whose item the claim
  does not name, while another row of the same table names the claim's item with another amount:
  "Металлокерамическая коронка стоит 32 000 рублей" where 32 000 is the zirconia crown's price.

    >>> added_condition("Скидка 10% действует только при оплате наличными.",
    ...                 ["Пенсионерам скидка 10% на приёмы врачей по будням."])
    "condition 'только при оплате наличными' not in context"
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragauge.judges.offline.lemmas import content_lemmas
from ragauge.judges.offline.text import split_sentences

__all__ = ["added_condition", "clause_bounds", "code_swap", "row_swap", "superseded_only"]

_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


def _lemma_set(text: str) -> set[str]:
    """Content lemmas of ``text``, a hyphenated word also by its parts ("врача-терапевта": "терапевт")."""
    if "-" in text:
        text = text + " " + text.replace("-", " ")
    return {x.lower().replace("ё", "е") for x in content_lemmas(text, numbers=False) if "-" not in x}


def _stems(lemmas: set[str], n: int = 5) -> set[str]:
    return {x[:n] for x in lemmas}


def _numbers(text: str) -> set[str]:
    """Numbers written in ``text``, thousands joined ("2 100" -> "2100"), decimal commas as points."""
    joined = re.sub(r"(?<=\d)[\s\u00a0\u202f](?=\d{3}\b)", "", text)
    return {m.group(0).replace(",", ".") for m in _NUMBER.finditer(joined)}


# ---------------------------------------------------------------- superseded edition


def _superseded(text: str) -> bool:
    from ragauge.judges.offline.answerability import is_superseded

    return is_superseded(text[:400])


def _title(text: str) -> set[str]:
    first = split_sentences(text[:300])
    return _lemma_set(first[0].text) if first else set()


def _states(text: str, numbers: set[str], stems: set[str]) -> bool:
    """Does one line or sentence of ``text`` hold all ``numbers`` and half the claim's word stems?"""
    for unit in [*text.splitlines(), *(s.text for s in split_sentences(text))]:
        if not numbers <= _numbers(unit):
            continue
        if not stems or len(stems & _stems(_lemma_set(unit))) / len(stems) >= 0.5:
            return True
        if unit.count("|") >= 2:  # a table row states the claim when the claim names its item ("P1 (критический)")
            item = _stems(_lemma_set(re.sub(r"\([^)]*\)", " ", unit.split("|")[0]))) or _stems(_lemma_set(unit.split("|")[0]))
            if item and len(item & stems) / len(item) >= 0.5:
                return True
    return False


def superseded_only(claim: str, evidence_context: int, contexts: Sequence[str],
                    numbers: set[str] | None = None) -> str | None:
    """A reason when the claim's figures (``numbers``: the evidence's figures the claim matched, default
    the claim's digits) come from a superseded context that a current one replaces and does not repeat."""
    if not 0 <= evidence_context < len(contexts):
        return None
    old = contexts[evidence_context]
    if not _superseded(old):
        return None
    numbers = {n for n in (numbers if numbers is not None else _numbers(claim)) if not re.fullmatch(r"20\d\d", n)}
    stems = _stems(_lemma_set(claim))
    if not numbers or not _states(old, numbers, stems):
        return None
    title = _title(old) - {"действовать", "утратить", "сила", "заменить", "редакция"}
    for k, text in enumerate(contexts):
        if k == evidence_context or _superseded(text):
            continue
        other = _title(text)
        if title and len(title & other) / len(title) >= 0.5:
            if _states(text, numbers, stems):
                return None  # the current edition says the same
            return (f"stated only in a superseded edition (context {evidence_context + 1}); "
                    f"the current one (context {k + 1}) does not say it")
    from ragauge.judges.offline.answerability import asks_past

    if asks_past(claim) or re.search(r"\b(?:19|20)\d\d\b|редакц|верси|прежн|стар", claim, re.I):
        return None  # the claim itself speaks of the old edition ("по прайсу 2024 года", "раньше")
    return f"stated only in context {evidence_context + 1}, which says it is no longer in force"


# ---------------------------------------------------------------- added condition

_CONDITION = re.compile(
    r"(?:,?\s*(?:но|а|и)\s+)?(?<!\w)(?:при\s+условии(?:,?\s+что)?|если(?!\s+бы)|(?<=но\s)только|(?<=а\s)только|"
    r"только\s+(?:если|при|для|после|в\s+случае)|лишь\s+(?:если|при|для|после)|по\s+согласованию\s+с|при\s+наличии|"
    r"provided\s+that|only\s+(?:if|for|after|when)|as\s+long\s+as)\b"
    r"(?:(?!,\s*(?:так\s+что|поэтому|то|а|но|и|однако|so|but|and)\b)[^.;!?:—])*", re.I)
CONDITION_RECALL = 0.6  # share of the condition's content words one context sentence must state


def added_condition(claim: str, contexts: Sequence[str]) -> str | None:
    """A reason when a condition clause of ``claim`` is stated by no single sentence of ``contexts``."""
    for m in _CONDITION.finditer(claim):
        if not claim[: m.start()].strip(" ,"):
            continue  # a condition that opens the claim restates the rule ("Если заявка не решена за 3 часа, ...")
        words = _lemma_set(m.group(0)) - {"только", "лишь", "условие", "наличие", "согласование", "если", "only"}
        stems = _stems(words)
        if len(words) == 1:
            # one word ("при наличии чека"): a condition only when no context has that word at all
            if not any(stems & _stems(_lemma_set(text)) for text in contexts):
                return f"condition '{m.group(0).strip(' ,')}' not in context"
            continue
        if not words:
            continue
        best = 0.0
        for text in contexts:
            for s in split_sentences(text):
                found = stems & _stems(_lemma_set(s.text))
                best = max(best, len(found) / len(stems))
                if best >= CONDITION_RECALL:
                    break
            if best >= CONDITION_RECALL:
                break
        if best < CONDITION_RECALL:
            return f"condition '{m.group(0).strip(' ,')}' not in context"
    return None


# ---------------------------------------------------------------- table row swap


def _rows(contexts: Sequence[str]) -> list[tuple[int, list[str]]]:
    """(table id, cells) of every table row with a number; a table is a run of "|" lines."""
    out, table = [], 0
    for text in contexts:
        inside = False
        for line in text.splitlines():
            if line.count("|") >= 2:
                inside = True
                cells = [c.strip() for c in line.split("|")]
                if any(ch.isdigit() for c in cells[1:] for ch in c):
                    out.append((table, cells))
            elif inside:
                inside, table = False, table + 1
        table += 1
    return out


def _values(text: str) -> set[float]:
    """Amounts of ``text`` as written in words or digits ("45 тысяч" -> 45000.0), dates left out."""
    from ragauge.judges.offline.quantities import extract_quantities

    out: set[float] = set()
    for q in extract_quantities(text, None):
        if q.kind in ("number", "range"):
            out.add(round(float(q.value), 4))
            if q.high is not None:
                out.add(round(float(q.high), 4))
    return out


def row_swap(claim: str, contexts: Sequence[str]) -> str | None:
    """A reason when the claim's amount belongs to another item's row (module doc)."""
    if "|" not in "".join(contexts):
        return None
    numbers = {v for v in _values(claim) if v >= 10}
    if not numbers:
        return None
    claim_stems = _stems(_lemma_set(claim))
    if not claim_stems:
        return None
    rows = _rows(contexts)

    def cover(cells: list[str]) -> float:
        item = _stems(_lemma_set(re.sub(r"\([^)]*\)", " ", cells[0])))  # "(до 50 рабочих мест)": details
        return len(item & claim_stems) / len(item) if item else 0.0

    def amounts(cells: list[str]) -> set[float]:
        return _values(" | ".join(cells[1:]))

    holders = [(t, cells) for t, cells in rows if numbers & amounts(cells)]
    if not holders or any(cover(cells) >= 0.75 for _, cells in holders):
        return None
    for t, cells in holders:
        own = cover(cells)
        rivals = [c for tt, c in rows if tt == t and c is not cells and cover(c) >= 0.75 and cover(c) >= own + 0.25
                  and not numbers & amounts(c)]
        if rivals:
            rival = rivals[0]
            return f"the amount is the one of '{cells[0]}'; context gives '{rival[0]}' {rival[-1]}"
    return None


# ---------------------------------------------------------------- code swap

_CLAUSE_END = re.compile(r"(?<!\d)[.;!?](?!\d)|\n")


def clause_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """``(left, right)`` of the clause of ``text`` around ``text[start:end]``: cut at sentence ends, semicolons
    and line breaks, not at a decimal point ("2.5").

    >>> text = "P1: 1.5 часа; P2: 4 часа."
    >>> text[slice(*clause_bounds(text, 18, 19))]
    ' P2: 4 часа'
    """
    left = max((m.end() for m in _CLAUSE_END.finditer(text, 0, start)), default=0)
    right = next((m.start() for m in _CLAUSE_END.finditer(text, end)), len(text))
    return left, right


def code_swap(claim: str, matched: Sequence[tuple[str, int, int, str]]) -> str | None:
    """A reason when a figure of the claim is matched only in a clause that names another code of the same
    family ("P1", "КС-3", "тариф Т-2") and none of the claim's: ``matched`` holds, per matched figure,
    ``(evidence text, start, end, surface)`` of its counterpart.

    >>> code_swap("Для P2 время реакции 15 минут", [("P1: реакция 15 минут. P2: реакция 1 час.", 12, 20, "15 минут")])
    "the figure '15 минут' is the one of 'P1' in the context, not of 'P2'"
    """
    from ragauge.judges.offline.quantities import extract_quantities

    codes = [q for q in extract_quantities(claim, None) if q.kind == "grade"]
    if not codes:
        return None
    families = {q.unit for q in codes}
    own = {(q.unit, q.value) for q in codes}
    for text, start, end, surface in matched:
        left, right = clause_bounds(text, start, end)
        clause = text[left:right]
        there = [q for q in extract_quantities(clause, None) if q.kind == "grade" and q.unit in families]
        if there and not any((q.unit, q.value) in own for q in there):
            mine = next(q for q in codes if q.unit == there[0].unit)
            return f"the figure '{surface}' is the one of '{there[0].raw}' in the context, not of '{mine.raw}'"
    return None
