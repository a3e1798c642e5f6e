"""A section heading that names a thing without a proper name: "Credit card", «Кредитная карта».

Such a heading names a thing (not a topic such as «Погашение», «Анализы» or "Annual leave") when the section's
own text attaches terms to it as a tariff attaches them to a product: Russian «Льготный период по кредитной
карте» («по» and the heading in the dative; a genitive, «продолжительность рабочего времени», «результаты
анализа», is as often a topic's), English "the annual fee for the credit card", "the rate on the credit card"
("for the" or "on the" right before it: "for a fee" is an idiom, "of the" a topic's as often). A heading of
words that only name a kind of value ("Fees", «Тарифы») names no thing. The heading is then attached to a
question as :func:`.qualifier.with_entity` attaches a named thing.
"""

from __future__ import annotations

import re

from ragauge.generate.chunking import Chunk
from ragauge.generate.questions import morph
from ragauge.generate.questions.special import lemmas

_TOKEN = re.compile(r"[^\W\d_][\w'-]*")
_EN_OWNER = {"for", "on"}


def _window(tokens: list[str], heading: list[str]) -> list[int]:
    """Start indexes of ``tokens`` where the heading's words stand, word for word by lemma."""
    want = [lemmas(w) for w in heading]
    got = [lemmas(t) for t in tokens]
    n = len(want)
    return [i for i in range(len(tokens) - n + 1) if all(got[i + k] == want[k] for k in range(n))]


def _ru_owner(tokens: list[str], start: int, heading: list[str]) -> bool:
    analyzer = morph._analyzer()
    noun_at = next((k for k, w in enumerate(heading) if analyzer.parse(w.lower())[0].tag.POS == "NOUN"), None)
    if noun_at is None:
        return False
    word = tokens[start + noun_at].lower()
    lemma = analyzer.parse(heading[noun_at].lower())[0].normal_form
    cases = {p.tag.case for p in analyzer.parse(word) if p.normal_form == lemma and p.tag.POS == "NOUN"}
    return start > 0 and tokens[start - 1].lower() == "по" and "datv" in cases


def thing_name(chunk: Chunk, lang: str) -> str | None:
    """The thing ``chunk``'s heading names, as a question attaches it («кредитной карте», "the credit card"),
    when the heading has no proper name and the chunk's text uses it as an owner (module docstring); None for a
    topic heading, the title, or a heading longer than a name."""
    from ragauge.generate.questions.qualifier import MAX_NAME_WORDS
    from ragauge.generate.questions.scope_attribute import VALUE_NOUNS

    name = chunk.section[-1].strip() if chunk.section else ""
    heading = _TOKEN.findall(name)
    if (not heading or name == chunk.title.strip() or len(name.split()) > MAX_NAME_WORDS
            or re.search(r"[.:;?!\d«»\"“”]", name) or set(lemmas(name)) <= set(lemmas(VALUE_NOUNS))):
        return None
    tokens = _TOKEN.findall(chunk.text)
    if lang == "en":
        for i in _window(tokens, heading):
            if i > 1 and tokens[i - 1].lower() == "the" and tokens[i - 2].lower() in _EN_OWNER:
                return "the " + " ".join(tokens[i:i + len(heading)])
        return None
    if not morph.available():
        return None
    if any(_ru_owner(tokens, i, heading) for i in _window(tokens, heading)):
        return morph.inflect(morph.lower_first(name), "datv")
    return None


__all__ = ["thing_name"]
