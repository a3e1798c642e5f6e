"""The one statement of a Russian sentence that a question asks, before :mod:`.prose` forms it.

Documents pack several statements into a sentence; a question copied from all of them breaks («… только для снятия
острой боли и?», «В каком случае когда …»). :func:`one_statement` keeps the statement that holds the first number:

* a second statement with a verb left out after a comma («…, за курение в салоне — 5 000 рублей»), a contrast
  («…, а если опоздание больше 3 часов — …», «…, но не более 3 000 ₽ за весь срок») or a second value joined by «и»
  («… по 12 ₽ для легковых и по 18 ₽ для грузовых») after the number, is left out;
* a cap joined by «но» to a statement without a number is one statement («Помощь оплачивается, но не более 500
  евро» -> «Помощь оплачивается не более 500 евро»), and so is a cap joined by «и» to another condition («…
  оплачивается только для снятия острой боли и не более 150 евро» -> «… оплачивается не более 150 евро»);
* a condition that points back to the sentence before («Если это невозможно, сообщите …») is left out: the rest
  is the statement;
* a participle clause after a noun group that has modifiers of its own, before the verb, is left out («Семьям из
  трёх и более человек, оформляющим один полис, предоставляется …»); after a bare noun it stays («Расходы,
  связанные с беременностью, …»: without it the noun would not say which).

The reference stays the whole sentence, so the left-out parts are still in the golden answer.
"""

from __future__ import annotations

import re

from ragauge.generate.questions import morph

_DIGIT = re.compile(r"\d")
_CAP_OPS = ("не более", "не менее", "не свыше", "не выше", "не больше", "не меньше", "до")
_POINTS_BACK = {"это", "этого", "этом", "он", "она", "оно", "они", "его", "её", "ее", "их", "такой", "такое",
                "такие", "так", "тогда"}


def _parse(word: str):
    analyzer = morph._analyzer()
    clean = word.strip(",.;:«»()").lower()
    return analyzer.parse(clean)[0] if analyzer is not None and re.fullmatch(r"[а-яё-]+", clean) else None


def _finite(word: str) -> bool:
    p = _parse(word)
    return p is not None and (p.tag.POS == "VERB" and p.tag.mood == "indc" or p.tag.POS in ("ADJS", "PRTS", "PRED"))


def _cut_after_number(body: str) -> str:
    """The text before a second statement or a contrast that follows the first number."""
    first = _DIGIT.search(body)
    if first is None:
        return body
    second = re.search(r"\s+и\s+(?:по|за|до|от|в|на)\s+\d", body[first.end():])
    if second is not None:  # «по 12 ₽ для классов … и по 18 ₽ для кроссоверов»: the second value is another fact
        body = body[:first.end() + second.start()]
    for m in re.finditer(r",\s+", body):
        if m.start() < first.start():
            continue
        rest = body[m.end():]
        if re.match(r"(?:а|но|однако)\s", rest):
            return body[:m.start()]
        dash = re.search(r"\s[—–]\s", rest)
        if dash and not any(_finite(w) for w in rest[:dash.start()].split()):
            return body[:m.start()]
    return body


def _join_cap(body: str) -> str:
    """«оплачивается, но не более 500 евро» and «оплачивается только для … и не более 150 евро»: the cap alone."""
    ops = "|".join(re.escape(o) for o in _CAP_OPS)
    m = re.search(rf",\s+но\s+(?=(?:{ops})\s+(?:чем\s+(?:на|за)\s+)?\d)", body)
    if m and not _DIGIT.search(body[:m.start()]):
        return body[:m.start()] + " " + body[m.end():]
    m = re.search(rf"\s+и\s+(?=(?:{ops})\s+\d)", body)
    if m and not _DIGIT.search(body[:m.start()]) and "," not in body[:m.start()]:
        words = body[:m.start()].split()
        verb = next((i for i, w in enumerate(words) if _finite(w)), None)
        if verb is not None and verb + 1 < len(words):  # the other condition, between the verb and «и», goes
            return " ".join(words[:verb + 1]) + " " + body[m.end():]
    return body


def _without_pointing_condition(body: str) -> str:
    m = re.match(r"(?:Если|Когда)\s+([^,]+),\s+(.+)$", body)
    if m is None or _DIGIT.search(m.group(1)):
        return body
    if not {w.lower() for w in re.findall(r"[А-Яа-яЁё]+", m.group(1))} & _POINTS_BACK:
        return body
    rest = m.group(2)
    return rest[:1].upper() + rest[1:]


def _without_participle_clause(body: str) -> str:
    """See the module docstring: «X Y, PARTICIPLE …, VERB» -> «X Y VERB»."""
    m = re.match(r"^([^,]+),\s+([^,]+),\s+(.+)$", body)
    if m is None or len(m.group(1).split()) < 2 or _DIGIT.search(m.group(2)):
        return body
    head = m.group(2).split()
    participle = _parse(head[0])
    if participle is None or participle.tag.POS != "PRTF":
        return body
    if any(_finite(w) for w in m.group(1).split()) or not _finite(m.group(3).split()[0]):
        return body
    return f"{m.group(1)} {m.group(3)}"


def one_statement(sentence: str) -> str:
    """See the module docstring; the sentence as it is when none of its rules applies."""
    if not morph.available():
        return sentence
    body = sentence.strip()
    end = "." if body.endswith(".") else ""
    body = body.rstrip(".")
    for rule in (_without_pointing_condition, _join_cap, _cut_after_number, _without_participle_clause):
        body = rule(body)
    return body + end


__all__ = ["one_statement"]
