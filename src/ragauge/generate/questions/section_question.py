"""A question about a whole long section, asked as a user asks about a topic: «Что нужно знать о приёмке работ?»,
"What should I know about overdue fines?".

Such a case tests that a pipeline finds a long passage and answers from all of it, so its reference is the section's
text (its sentences up to :data:`MAX_SENTENCES`), not its first two sentences. The topic is the section's heading,
put into the prepositional case in Russian (pymorphy3, :func:`morph.inflect`); a heading that is not a noun phrase
the question can carry (a number, a question, a colon, more than :data:`MAX_WORDS` words, or «X и Y» where only X
changes case: «классах автомобилей и цены») gives no question. An earlier form, «Что говорится в разделе «X»
документа «Y»?», asked about the document, not about the topic, and no user types it (two reviews, stop 24).
"""

from __future__ import annotations

import re

from ragauge.generate.questions import morph

MAX_WORDS = 5
MAX_SENTENCES = 6
_NUMBERING = re.compile(r"^\s*(?:(?:раздел|section|глава|chapter)\s+)?(?:\d+[.)]?)+\s*", re.I)
_NOT_A_TOPIC = re.compile(r"[?:;!\d\"«»()]")
#: Headings that name a part of a document, not a topic (the vocabulary of document structure, any domain).
_STRUCTURE = re.compile(r"(?i)^(?:общие положения|введение|заключение|приложени\w*|термины и определения|"
                        r"определения|содержание|прочие условия|прочее|general(?: provisions| terms)?|introduction|"
                        r"overview|definitions|appendix|contents|miscellaneous|other terms|faq)$")


def _topic(heading: str) -> str | None:
    topic = _NUMBERING.sub("", heading).strip().rstrip(".")
    if not topic or _NOT_A_TOPIC.search(topic) or len(topic.split()) > MAX_WORDS or _STRUCTURE.match(topic) \
            or topic.split()[0].isupper():
        return None
    return topic


def question(heading: str, lang: str) -> str | None:
    """The question about the section under ``heading``, or None when the heading cannot carry one."""
    topic = _topic(heading)
    if topic is None:
        return None
    if lang == "en":
        words = topic.split()
        first = words[0] if words[0].isupper() and len(words[0]) > 1 else words[0].lower()
        return f"What should I know about {' '.join([first] + words[1:])}?"
    if lang != "ru":
        return None
    phrase = morph.lower_first(topic)
    about = morph.inflect(phrase, "loct")
    if about is None:
        return None
    words, changed = phrase.split(), about.split()
    for k, word in enumerate(words[:-1]):  # «классы автомобилей и цены» -> «классах автомобилей и цены»: no
        if word in ("и", "или") and changed[k + 1] == words[k + 1] and morph.head_lemma(words[k + 1]):
            return None
    preposition = "об" if about[:1].lower() in "аэиоуы" else "о"
    return f"Что нужно знать {preposition} {about}?"


def reference(sentences: list[str]) -> str:
    """The section's text as the answer: its first :data:`MAX_SENTENCES` sentences."""
    return " ".join(s.strip() for s in sentences[:MAX_SENTENCES] if s.strip())


__all__ = ["MAX_SENTENCES", "MAX_WORDS", "question", "reference"]
