"""The distinguishing qualifier of a question two chunks answer differently: the thing each chunk's section names.

"The daily cash withdrawal limit is $1,000." under "## Classic card" and "… is $3,000." under "## Gold card" give
the same question with two answers. Asked with the card it is about, each has one answer:

* **the section names a thing the chunk talks about** (its words are in the chunk's own text: "The annual fee for
  the Gold card is $120"): English "What is the daily cash withdrawal limit of the Gold card?" ("What is/are X"
  takes "of the …"; any other question "… for the …" at its end); Russian «по» + the heading in the dative,
  «Каков суточный лимит снятия наличных по карте Gold?»;
* **a section that names a topic, not a thing** ("Repayment", «Хранение на складе»): the section is named,
  "… according to “Repayment”?", «… согласно разделу «Хранение на складе»?»;
* **the same section in both** (two documents): the document's title, "according to “Card tariffs”",
  «по документу «Тарифы»».

Names that do not tell the chunks apart give no qualifier: the question stays ambiguous and is dropped.

A question from a section that names a thing (two cards, two deposits, a credit card beside a loan) is asked of
that thing only when a reader needs it (:func:`of_siblings`): its sentence names the kind («Срок вклада …» under
one of two deposits), or another section states the same attribute. A term stated once ("Audit logs are kept for
12 months" under "Premium plan") is the whole service's and is asked as it is.
"""

from __future__ import annotations

import re
from typing import Sequence

from ragauge.generate.chunking import Chunk
from ragauge.generate.questions import morph, scope_attribute, scope_mention, scope_thing
from ragauge.generate.questions.prose_ru_order import after_subject
from ragauge.generate.questions.special import lemmas

#: A heading longer than this many words is a sentence or a title, not the name of a thing.
MAX_NAME_WORDS = 4
_WHAT_IS = re.compile(r"^What (?:is|are) ", re.IGNORECASE)


def _section(chunk: Chunk) -> str:
    return chunk.section[-1].strip() if chunk.section else ""


def _named(words: Sequence[str]) -> bool:
    """A heading or mention that holds a name: a word after the first with a capital ("Gold", "Classic"), a Latin
    word among Cyrillic ones, or a quoted name («Пенсионный»); "Annual leave", «Испытательный срок» name topics."""
    text = " ".join(words)
    cyrillic = bool(re.search(r"[А-Яа-яЁё]", text))
    return bool(re.search(r"[«\"“]", text)) or any(
        w[:1].isupper() or cyrillic and re.fullmatch(r"[A-Za-z][\w-]*", w) for w in words[1:])


def entity_name(chunk: Chunk, lang: str) -> str | None:
    """The thing the chunk's section heading names, as a question attaches it, when the heading holds a name and
    the chunk's text names it too: "the Gold card" (English, as the text spells it mid-sentence), «карте Gold»
    (Russian, dative); None for a heading that names a topic ("Repayment", "Annual leave") or is the title."""
    name = _section(chunk)
    if not name or name == chunk.title.strip() or len(name.split()) > MAX_NAME_WORDS or re.search(r"[.:;?!\d]", name):
        return None
    if lang == "en":
        found = [m for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", chunk.text, re.IGNORECASE)
                 if not re.search(r"(?:^|[.!?]\s+)$", chunk.text[:m.start()])]  # mid-sentence, as a name is written
        if not found or not any(w[:1].isupper() for w in found[0].group().split()):
            return None
        written = found[0].group()
        if re.match(r"(?:the|a|an|our|your)\s", written, re.IGNORECASE):
            return written
        return f"the {written}"
    if not morph.available() or not _named(name.split()):
        return None
    own = set(lemmas(name))
    if not own or not own <= set(lemmas(chunk.text)):
        return None
    return morph.inflect(morph.lower_first(name), "datv")


def with_entity(question: str, entity: str, lang: str) -> str:
    """``question`` asked of ``entity`` (from :func:`entity_name`). Russian: when the question already holds the
    entity's noun («Каков срок вклада?» under «Вклад «Надёжный»»), only the name is added after it («Каков срок
    вклада «Надёжный»?»), else «по» + the entity in the dative, right after the subject
    (:func:`.prose_ru_order.after_subject`: «В какой срок зачисляется кешбэк по карте «Премиум» на счёт?»)."""
    body = question.rstrip("?").rstrip()
    if lang == "en":
        # "What is the annual fee of the Gold card?", but "What is the fee for cash withdrawals at other banks'
        # ATMs for the Classic card?": after a phrase of its own, "of" would attach to its last noun
        of = _WHAT_IS.match(question) and not re.search(r"\s(?:for|at|on|in|with|from|to|over|under)\s", body)
        return f"{body} {'of' if of else 'for'} {entity}?"
    head, _, rest = entity.partition(" ")
    if rest and morph.available() and _named(["", *rest.split()]):
        analyzer = morph._analyzer()
        lemma = analyzer.parse(head.lower())[0].normal_form
        words = body.split(" ")
        for i, w in enumerate(words):
            if re.fullmatch(r"[а-яё]+", w) and analyzer.parse(w)[0].normal_form == lemma:
                return " ".join(words[:i + 1] + [rest] + words[i + 1:]) + "?"
    # right after the subject, before an adverbial of the verb: «… зачисляется кешбэк по карте «Премиум» на счёт?»
    return after_subject(f"{body}?", f"по {entity}")


def with_source(question: str, name: str, lang: str, *, section: bool) -> str:
    """``question`` with the section (or, ``section=False``, the document) it is answered by."""
    body = question.rstrip("?").rstrip()
    if lang == "en":
        return f"{body} according to “{name}”?"
    return f"{body} согласно разделу «{name}»?" if section else f"{body} по документу «{name}»?"


def distinguished(questions: Sequence[str], chunks: Sequence[Chunk], langs: Sequence[str]) -> list[str] | None:
    """The same question from ``chunks`` (one each) with different answers, each asked with what tells its chunk
    apart (see the module docstring); None when their sections and titles do not."""
    if len(chunks) < 2:
        return list(questions)
    entities = [entity_name(c, lang) for c, lang in zip(chunks, langs)]
    if all(entities) and len({e.casefold() for e in entities if e}) == len(entities):
        return [with_entity(q, e, lang) for q, e, lang in zip(questions, entities, langs) if e]
    sections = [_section(c) for c in chunks]
    if all(sections) and len(set(sections)) == len(sections):
        return [with_source(q, s, lang, section=True) for q, s, lang in zip(questions, sections, langs)]
    titles = [c.title.strip() for c in chunks]
    if all(titles) and len(set(titles)) == len(titles):
        return [with_source(q, t, lang, section=False) for q, t, lang in zip(questions, titles, langs)]
    return None


def of_siblings(questions: Sequence[tuple[str, Chunk, str]], chunks: Sequence[Chunk]) -> list[str]:
    """Each (question, chunk, lang) asked of the thing its section names (a named one, :func:`entity_name`, or
    one without a name that the section's text owns, :func:`.scope_thing.thing_name`) only when a reader needs
    it to know which thing is meant:

    * **the sentence names the kind** its section's thing shares with another named thing of the document
      («Срок вклада составляет 181 день» under «Вклад «Надёжный»» beside «Вклад «Пенсионный»»: which deposit?);
    * **another section of the document states the same attribute** (:mod:`.scope_attribute`): "Support tickets
      are answered within 8 business hours" under "Standard plan" beside "Premium tickets are answered within 1
      hour"; «Обязательный платёж составляет 3%» under «Кредитная карта» beside the loan's «Ежемесячный платёж».

    A term stated once, without the kind ("Audit logs are kept for 12 months" under "Premium plan"), is the whole
    service's and stays general, as does a question that already names its thing and any question from other
    sections. Any question whose sentence calls a thing the chunk names by its kind only («Страховая сумма по
    опции» after «Опцию «Отмена поездки»») gets that name (:mod:`.scope_mention`)."""
    names: dict[tuple[str, str], str | None] = {}

    def name(c: Chunk, lang: str) -> str | None:
        if (c.id, lang) not in names:
            names[c.id, lang] = entity_name(c, lang)
        return names[c.id, lang]

    things: dict[tuple[str, str], str | None] = {}

    def thing(c: Chunk, lang: str) -> str | None:
        if (c.id, lang) not in things:
            things[c.id, lang] = name(c, lang) or scope_thing.thing_name(c, lang)
        return things[c.id, lang]

    out = []
    for question, chunk, lang in questions:
        heading = _section(chunk)
        sentence = scope_attribute.source_sentence(question, chunk)
        mentioned = scope_mention.named(question, sentence, chunk, lang) if sentence else question
        own = thing(chunk, lang) if mentioned == question else None
        if not own or sentence is None:
            out.append(mentioned)
            continue
        words = set(lemmas(heading))
        kind = set()
        if name(chunk, lang):
            for c in chunks:
                if c.doc_id == chunk.doc_id and _section(c) != heading and name(c, lang) is not None:
                    kind |= words & set(lemmas(_section(c)))
        if (words - kind or words) <= set(lemmas(question)):
            out.append(question)
        elif kind & set(lemmas(sentence)) or scope_attribute.stated_elsewhere(question, sentence, chunk, chunks, lang):
            out.append(with_entity(question, own, lang))
        else:
            out.append(question)
    return out


__all__ = ["MAX_NAME_WORDS", "distinguished", "entity_name", "of_siblings", "with_entity", "with_source"]
