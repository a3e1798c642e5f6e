"""Grade before generate: does the retrieved context answer the question? Pure-ish scoring.

* ``support`` (the guard's gate) = :func:`grade_answerability`: the judge's answerability -- per question
  part, a context sentence stating a value of the asked type (a price, a duration, ...) about the
  part's subject (:mod:`ragauge.judges.offline.answerability`). A judge without an ``answerability``
  method (an LLM judge) gets the offline rules.
* ``relevancy`` = max over chunks of ``judge.relevance(question, chunk)`` -- the judge's calibrated
  P(the chunk addresses the question).
* :func:`coverage` (the gate before answerability; kept for reports and comparisons) = the share of the question's content lemmas (question words such
  as "какой", "сколько", "how" left out) found among the context's lemmas, a lemma counting as found
  when it or one of its dictionary synonyms occurs::

      support = |{l in Q : syn(l) & C}| / |Q|          (1.0 when Q is empty)

  Lexical on purpose: an answer can only be faithful to words the context contains.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ..judges.offline.answerability import Answerability, answerability
from ..judges.offline.lemmas import content_lemmas

QUESTION_WORDS = frozenset({
    "какой", "каков", "каковой", "какова", "каково", "каковы", "скока", "скоко", "скок", "сколько", "где", "когда", "кто", "что", "почему", "зачем", "как", "ли", "можно",
    "нужно", "чей", "который", "what", "which", "how", "where", "when", "who", "why", "much", "many",
    "whose", "can", "could", "do", "does", "is", "are",
})


@dataclass(frozen=True, slots=True)
class Coverage:
    support: float
    found: tuple[str, ...]  #: question words whose lemma the context has
    missing: tuple[str, ...]  #: question words whose lemma it lacks


def _question_words(question: str) -> list[tuple[str, str]]:
    """``(word as written, lemma)`` for the question's content words, first occurrence of each lemma."""
    seen: set[str] = set()
    out = []
    for word in question.replace("?", " ").split():
        word = word.strip(".,!;:«»\"'()")
        lemmas = content_lemmas(word) if word else []
        if len(lemmas) != 1 or lemmas[0] in QUESTION_WORDS or lemmas[0] in seen:
            continue
        seen.add(lemmas[0])
        out.append((word, lemmas[0]))
    return out


def coverage(question: str, contexts: Sequence[str], *,
             synonyms_of: Callable[[str], set[str]] = lambda lemma: {lemma}) -> Coverage:
    """Support potential of ``contexts`` for ``question`` (formula in the module doc)."""
    context_lemmas: set[str] = set()
    for text in contexts:
        context_lemmas.update(content_lemmas(text))
    words = _question_words(question)
    if not words:
        return Coverage(1.0, (), ())
    found = [w for w, lem in words if synonyms_of(lem) & context_lemmas]
    missing = [w for w, lem in words if not (synonyms_of(lem) & context_lemmas)]
    return Coverage(len(found) / len(words), tuple(found), tuple(missing))


def relevancy(judge: Any, question: str, contexts: Sequence[str]) -> tuple[float, list[float]]:
    """Max and per-chunk ``judge.relevance`` of each context to the question (0.0 with no context)."""
    if not contexts:
        return 0.0, []
    values = judge.relevance([question] * len(contexts), list(contexts))
    per = [float(v) if isinstance(v, (int, float)) else float("nan") for v in values]
    scored = [v for v in per if v == v]
    return (max(scored) if scored else float("nan")), per


def grade_answerability(judge: Any, question: str, contexts: Sequence[str], lang: str | None = None, *,
                        synonyms_of: Callable[[str], set[str]] | None = None) -> Answerability:
    """P(the contexts answer the question) with what is missing: ``judge.answerability`` when the judge
    has it and no synonym dictionary is used, else the offline rules (with the dictionary's synonyms)."""
    method = getattr(judge, "answerability", None)
    if synonyms_of is None and callable(method):
        return method([question], [list(contexts)], [lang])[0]
    return answerability(question, contexts, lang, synonyms_of=synonyms_of or (lambda lemma: {lemma}))
