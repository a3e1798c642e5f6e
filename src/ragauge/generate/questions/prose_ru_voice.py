"""A Russian sentence in the document's voice, rewritten in the voice of the reader who asks about it.

A company's rules speak as «мы» to the reader as «вы» and give orders («Сообщите …»); a person asking the company
speaks as «я» to it as «вы». Before a question is formed (:mod:`.prose`), :func:`as_asked` rewrites the sentence:

* the reader's «вы» -> «я» («вас» -> «меня», «ваш» -> «мой» in its case, a verb of «вы» in the first person
  singular, a past plural in the masculine: «если вы оплатили лечение сами» -> «если я оплатил лечение сам»);
* the company's «мы» -> «вы» («нам» -> «вам», «наш» -> «ваш», a verb in the first person plural in the second:
  «Мы принимаем решение …» -> «Вы принимаете решение …»);
* an order to the reader -> «нужно» + its infinitive («Сообщите о случае в течение 48 часов» -> «Нужно сообщить о
  случае в течение 48 часов»);
* an object before «мы» goes after the verb («Лиц старше 85 лет мы не страхуем» -> «Вы не страхуете лиц старше 85
  лет»); a participle clause after an object that has modifiers of its own is left out («Штрафы ГИБДД, пришедшие
  после возврата, мы удерживаем …» -> «Вы удерживаете штрафы ГИБДД …»).

A sentence with none of these is returned as it is; the reference stays the document's sentence.
"""

from __future__ import annotations

import re
from typing import Any

from ragauge.generate.questions import morph

_WE = {"мы": "вы", "нас": "вас", "нам": "вам", "нами": "вами"}
_YOU = {"вы": "я", "вас": "меня", "вам": "мне", "вами": "мной"}
_WORD = re.compile(r"^(?P<pre>[«(\"]*)(?P<word>[А-Яа-яЁё-]+)(?P<post>[,.;:»)\"]*)$")


def _parses(word: str) -> list[Any]:
    analyzer = morph._analyzer()
    return list(analyzer.parse(word.lower())) if analyzer is not None else []


def _cased(original: str, word: str) -> str:
    return word[:1].upper() + word[1:] if original[:1].isupper() else word


def _inflected(word: str, want: set[str], keep: tuple[str, ...] = ()) -> str | None:
    """``word``'s verb or pronoun parse (the first with every grammeme of ``keep``) inflected to ``want``."""
    for p in _parses(word):
        if p.tag.POS in ("VERB", "ADJF", "ADJS", "PRTS") and all(g in p.tag for g in keep):
            form = p.inflect(want)
            return form.word if form is not None else None
    return None


def _possessive(word: str, owner: str) -> str | None:
    """«нашего» -> «вашего» (owner «ваш»), «вашу» -> «мою» (owner «мой»): the same case, gender and number."""
    parse = next((p for p in _parses(word) if p.normal_form in ("наш", "ваш")), None)
    if parse is None:
        return None
    target = next((p for p in _parses(owner) if p.normal_form == owner), None)
    grammemes = {g for g in (parse.tag.case, parse.tag.number, parse.tag.gender, parse.tag.animacy) if g}
    form = target.inflect(grammemes) if target is not None else None
    return form.word if form is not None else None


def _clause_end(words: list[str], start: int) -> int:
    return next((k + 1 for k in range(start, len(words)) if words[k].endswith((",", ";"))), len(words))


def _reader_to_first_person(words: list[str]) -> list[str] | None:
    out = list(words)
    for i, raw in enumerate(words):
        m = _WORD.match(raw)
        low = m.group("word").lower() if m else ""
        if low in _YOU:
            out[i] = m.group("pre") + _cased(m.group("word"), _YOU[low]) + m.group("post")
            for k in range(i + 1, _clause_end(words, i) if low == "вы" else i + 1):
                # the verb, short adjective and «сами» of «вы» as a subject agree with «я»
                mk = _WORD.match(words[k])
                if mk is None:
                    continue
                parses = _parses(mk.group("word"))
                top = parses[0] if parses else None
                if top is None:
                    continue
                new = None
                if top.tag.POS == "VERB" and "2per" in top.tag and "plur" in top.tag:
                    new = _inflected(mk.group("word"), {"1per", "sing"}, ("2per",))
                elif top.tag.POS == "VERB" and "past" in top.tag and "plur" in top.tag:
                    new = _inflected(mk.group("word"), {"masc", "sing"}, ("past",))
                elif top.tag.POS in ("ADJS", "PRTS") and "plur" in top.tag or top.normal_form == "сам" \
                        and "plur" in top.tag:
                    new = _inflected(mk.group("word"), {"masc", "sing"} | ({"nomn"} if top.normal_form == "сам"
                                                                           else set()))
                if new is None:
                    continue
                out[k] = mk.group("pre") + _cased(mk.group("word"), new) + mk.group("post")
        elif low.startswith("ваш"):
            new = _possessive(low, "мой")
            if new is None:
                return None
            out[i] = m.group("pre") + _cased(m.group("word"), new) + m.group("post")
    return out


def _we_to_you(words: list[str]) -> list[str] | None:
    out = list(words)
    for i, raw in enumerate(words):
        m = _WORD.match(raw)
        low = m.group("word").lower() if m else ""
        if low in _WE:
            out[i] = m.group("pre") + _cased(m.group("word"), _WE[low]) + m.group("post")
        elif low.startswith("наш"):
            new = _possessive(low, "ваш")
            if new is None:
                return None
            out[i] = m.group("pre") + _cased(m.group("word"), new) + m.group("post")
        elif m is not None:
            top = _parses(low)[0] if _parses(low) else None
            if top is not None and top.tag.POS == "VERB" and "1per" in top.tag and "plur" in top.tag:
                new = _inflected(low, {"2per", "plur"}, ("1per",))
                if new is None:
                    return None
                out[i] = m.group("pre") + _cased(m.group("word"), new) + m.group("post")
    return out


def _imperative(words: list[str]) -> list[str]:
    """Each order to the reader («сообщите», «обратитесь») as «нужно» + its infinitive; a negated one stays."""
    out: list[str] = []
    for i, raw in enumerate(words):
        m = _WORD.match(raw)
        parses = _parses(m.group("word")) if m else []
        order = next((p for p in parses if p.tag.POS == "VERB" and "impr" in p.tag and "plur" in p.tag), None)
        if order is None or parses[0].tag.POS != "VERB" or i and words[i - 1].lower() == "не":
            out.append(raw)
            continue
        out += [m.group("pre") + _cased(m.group("word"), "нужно"), order.normal_form + m.group("post")]
    return out


def _object_after_verb(words: list[str]) -> list[str]:
    """«Штрафы ГИБДД, пришедшие после возврата, вы удерживаете …» -> «Вы удерживаете штрафы ГИБДД …»."""
    at = next((i for i, w in enumerate(words) if w.lower() == "вы"), None)
    if not at or at + 1 >= len(words):
        return words
    verb = at + 1 + (words[at + 1].lower() == "не")
    parses = _parses(words[verb].strip(",.;:")) if verb < len(words) else []
    if not parses or parses[0].tag.POS != "VERB" or "tran" not in parses[0].tag:
        return words
    obj = words[:at]
    comma = next((k for k, w in enumerate(obj) if w.endswith(",")), None)
    if comma is not None:  # the object's participle clause: left out when the object has modifiers of its own
        opens = comma + 1 + (comma + 2 < len(obj) and obj[comma + 1].lower() == "не")
        clause = next((p for p in _parses(obj[opens]) if p.tag.POS == "PRTF"), None) if opens < len(obj) else None
        if clause is None or not obj[-1].endswith(","):
            return words
        if comma:  # a noun with modifiers of its own leaves the clause out; a bare noun keeps it: it says which
            obj = obj[:comma + 1]
    obj = obj if comma == 0 else [w.rstrip(",") for w in obj]
    first = obj[0].rstrip(",")
    if not any(p.tag.POS == "NOUN" and p.tag.case in ("accs", "gent") for p in _parses(first)) and not any(
            p.tag.POS in ("ADJF", "PRTF") and p.tag.case in ("accs", "gent") for p in _parses(first)):
        return words
    if any(_parses(w.strip("«»,")) and _parses(w.strip("«»,"))[0].tag.POS == "VERB" for w in obj):
        return words
    obj = [morph.lower_first(obj[0])] + obj[1:]
    if verb + 1 == len(words):  # «Лиц старше 85 лет мы не страхуем.»: the sentence's end moves to the object
        return ["Вы"] + words[at + 1:verb] + [words[verb].rstrip(".!")] + obj[:-1] + [obj[-1] + "."]
    return ["Вы"] + words[at + 1:verb + 1] + obj + words[verb + 1:]


def as_asked(sentence: str) -> str:
    """``sentence`` in the voice a reader asks in (see the module docstring); unchanged when none applies."""
    if not morph.available() or not re.search(r"(?i)(?<![а-яё])(?:мы|нас|нам|нами|наш\w*|вы|вас|вам|вами|ваш\w*)"
                                              r"(?![а-яё])|[а-яё]+(?:ите|йте|ьте)(?:сь)?(?![а-яё])", sentence):
        return sentence
    words = sentence.split()
    low = [w.strip("«»,.;:()").lower() for w in words]
    has_you = any(w in _YOU or w.startswith("ваш") for w in low)
    has_we = any(w in _WE or w.startswith("наш") for w in low)
    changed: list[str] | None = words if has_you else _imperative(words)
    if has_you:
        changed = _reader_to_first_person(words)
    if has_we and changed is not None:
        changed = _we_to_you(changed)
        changed = _object_after_verb(changed) if changed is not None else None
    return " ".join(changed) if changed is not None else sentence


__all__ = ["as_asked"]
