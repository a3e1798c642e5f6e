"""Claim-level training pairs for the offline verifier, FactCC-style: transformations of real sentences.

    python scripts/make_claim_pairs.py                       # -> benchmarks/data/pairs/claim_pairs.jsonl
    python scripts/make_claim_pairs.py --sources demo,domains,terra --per-unit 2 --seed 7

Each *unit* is a sentence or a table row (read with its header) of a real document. From a unit we
write one-claim rows in the training schema of ``scripts/train_verifier.py`` (``id, group, dataset
"pairs", task, language, question "", contexts, answer, hallucinated, label``): ``answer`` is the
transformed unit, ``contexts`` its document plus two other documents of the same source (a RAG-shaped
sample; terra premises stand alone: one short passage, the NLI shape), ``label`` the transformation.
The file stores ``context_ids``; the documents' texts are written once beside it
(``claim_pairs.documents.jsonl``) and :func:`load_pairs` puts them back.

Positives (meaning kept): ``verbatim`` (the unit, or one clause of it), ``number_form`` ("1 500" ->
"1500", "30 000 рублей" -> "30 тысяч рублей", "15%" -> "15 процентов", "с 9:00 до 18:00" -> "с 9 до
18 часов"), ``approx`` ("около 10 000" for 9 870), ``synonym`` (a small dictionary: "не менее" ->
"не меньше", "по будням" -> "в будние дни", "работник" -> "сотрудник" ...), ``reorder`` ("X, если Y."
-> "Если Y, x."; "A — B." -> "A составляет B."), ``row`` (a table row as the sentence an LLM writes:
"Первичный приём врача-терапевта стоит 2 400 руб.").

Negatives (not supported): ``number_swap`` and ``row_swap`` (a number taken from *the same document*,
another row's price for this row's item), ``unit_swap`` (дней/месяцев, в неделю/в месяц, рабочих/
календарных), ``contrast_swap`` (по будням/по выходным, ежемесячно/ежеквартально, утром/вечером,
a material), ``bound_swap`` (не менее/не более, не позднее/не ранее), ``entity_swap`` (a «name» or
capitalised name from the same source), ``role_swap`` (работодатель/работник, заказчик/исполнитель,
банк/клиент, in the same case via pymorphy3), ``date_swap``, ``base_swap`` (the base of a percentage:
"от суммы операции" -> "от суммы кредита" from the same source), ``negation``, ``added_condition`` (a
condition clause from another document appended) and ``elsewhere`` (a sentence of a document that is
not among the contexts).

Sources (``--sources``): ``demo`` (the demo KB, src/ragauge/demo/data/kb.jsonl), ``domains``
(tests/generate/_domain_corpora.py: HR, bank, clinic, SLA in Russian, HR and SLA in English),
``terra`` (../shared/data/corpus/terra_test_unlabelled_ru.jsonl premises, unlabelled: only the
sentences are used, never the pairs), ``ru_judge_dev`` (contexts of the dev split of
benchmarks/data/ru_judge: off by default, because the held-out split asks about the same documents).
Seeded: the same arguments write the same file.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests" / "generate"))

from ragauge.judges.offline.text import split_sentences  # noqa: E402

OUT = ROOT / "benchmarks" / "data" / "pairs" / "claim_pairs.jsonl"
TERRA = ROOT.parent / "shared" / "data" / "corpus" / "terra_test_unlabelled_ru.jsonl"
DEFAULT_SOURCES = ("demo", "domains", "terra")
SEED = 20261202


# ---------------------------------------------------------------- documents


def documents(sources: tuple[str, ...], *, terra_limit: int) -> list[dict]:
    """``{id, source, lang, text}`` per document."""
    docs: list[dict] = []
    if "demo" in sources:
        by_doc: dict[str, list[str]] = {}
        for line in (ROOT / "src" / "ragauge" / "demo" / "data" / "kb.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                by_doc.setdefault(row["id"], []).append(row["text"])
        docs += [{"id": f"demo:{k}", "source": "demo", "lang": "ru", "text": "\n".join(v)} for k, v in by_doc.items()]
    if "domains" in sources:
        from _domain_corpora import CORPORA, LANGS

        for name, files in CORPORA.items():
            for file_name, text in files:
                for k, part in enumerate(re.split(r"\n(?=## )", text)):
                    body = "\n".join(x for x in part.splitlines() if not x.startswith("#")).strip()
                    if body:
                        docs.append({"id": f"{name}:{file_name}:{k}", "source": name, "lang": LANGS[name], "text": body})
    if "ru_judge_dev" in sources:
        seen: set[str] = set()
        for path in sorted((ROOT / "benchmarks" / "data" / "ru_judge").glob("part_*.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                row = json.loads(line)
                if row["metadata"]["split"] != "dev":
                    continue
                for c in row["contexts"]:
                    if c["id"] not in seen:
                        seen.add(c["id"])
                        docs.append({"id": f"ru_judge:{c['id']}", "source": f"ru_judge:{row['metadata']['domain']}",
                                     "lang": "ru", "text": c["text"]})
    if "terra" in sources and TERRA.is_file():
        premises = []
        for line in TERRA.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if 60 <= len(row["premise"]) <= 400:
                premises.append((row["id"], row["premise"]))
        order = np.random.default_rng(SEED).permutation(len(premises))[:terra_limit]
        docs += [{"id": f"terra:{premises[int(i)][0]}", "source": "terra", "lang": "ru", "text": premises[int(i)][1]}
                 for i in sorted(order)]
    return docs


def units(doc: dict) -> list[tuple[str, str]]:
    """(kind, text) per sentence ("sentence") or table row read with its header ("row")."""
    out: list[tuple[str, str]] = []
    header: list[str] | None = None
    prose: list[str] = []
    for line in doc["text"].splitlines():
        if line.count("|") >= 2:
            cells = [c.strip() for c in line.split("|")]
            if header is None or not any(ch.isdigit() for ch in line):
                header = cells
                continue
            sentence = row_sentence(header, cells)
            if sentence:
                out.append(("row", sentence))
        else:
            header = None
            prose.append(line)
    for s in split_sentences("\n".join(prose), doc["lang"]):
        text = _SECTION.sub("", s.text.strip())
        if 25 <= len(text) <= 300 and not text.endswith(":") and len(text.split()) >= 4:
            out.append(("sentence", text))
    return out


_SECTION = re.compile(r"^(?:\d+\.)+\d*\s+|^[а-я]\)\s+")


def row_sentence(header: list[str], cells: list[str]) -> str | None:
    """A table row as the sentence an LLM writes about it ("X стоит 2 400 руб. за приём")."""
    if len(cells) < 2 or not cells[0] or not any(ch.isdigit() for ch in cells[-1]):
        return None
    item, value = cells[0], cells[-1]
    priced = any(re.search(r"цен|стоим|руб|price|cost", h, re.I) for h in header)
    unit = cells[1] if len(cells) >= 3 and cells[1] and cells[1] not in ("—", "-") else ""
    if priced and re.fullmatch(r"[\d\s\u00a0,.]+", value):
        return f"{item} стоит {value} руб." + (f" за {unit}" if unit and not unit[0].isdigit() else "")
    parts = [f"{h.lower()} — {c}" for h, c in zip(header[1:], cells[1:]) if h and c]
    return f"{item}: " + ", ".join(parts) + "." if parts else None


# ---------------------------------------------------------------- transformations

_NUM = re.compile(r"(?<![\w.,])(\d{1,3}(?:[ \u00a0]\d{3})+|\d+(?:[.,]\d+)?)(?![\w]|[.,]\d)")
_CLOCK = re.compile(r"\b(\d{1,2}):00\b")
_WORD = re.compile(r"[А-Яа-яЁёA-Za-z-]+")


def _value(raw: str) -> float:
    return float(raw.replace("\u00a0", "").replace(" ", "").replace(",", "."))


def _numbers(text: str) -> list[re.Match]:
    return [m for m in _NUM.finditer(text) if not _CLOCK.match(text, m.start())
            and not re.match(r"\d{1,2}\.\d{1,2}\.\d{4}", text[m.start():])]


def _unit_after(text: str, end: int) -> str:
    m = _WORD.match(text[end:].lstrip(" \u00a0"))
    return (m.group(0).lower()[:4] if m else text[end:end + 1])


def number_form(text: str, rng) -> str | None:
    subs = []
    for m in _numbers(text):
        raw = m.group(0)
        if re.search(r"[ \u00a0]", raw):
            subs.append((m, raw.replace(" ", "").replace("\u00a0", "")))
            value = _value(raw)
            if value >= 1000 and value % 1000 == 0 and _unit_after(text, m.end()).startswith(("руб", "₽", "бал")):
                subs.append((m, f"{int(value // 1000)} тыс."))
        if text[m.end():m.end() + 1] == "%":
            subs.append((m, raw + " процентов", 1))
    clocks = list(re.finditer(r"с (\d{1,2}):00 до (\d{1,2}):00", text))
    out = []
    for m in clocks:
        out.append(text[: m.start()] + f"с {m.group(1)} до {m.group(2)} часов" + text[m.end():])
    for sub in subs:
        m, new = sub[0], sub[1]
        end = m.end() + (sub[2] if len(sub) > 2 else 0)
        out.append(text[: m.start()] + new + text[end:])
    return out[int(rng.integers(len(out)))] if out else None


def approx(text: str, rng) -> str | None:
    for m in _numbers(text):
        value = _value(m.group(0))
        if value < 500 or value != int(value) or 1900 <= value <= 2100:
            continue
        mag = 10 ** max(1, len(str(int(value))) - 2)
        rounded = round(value / mag) * mag
        if rounded == value or abs(rounded - value) / value > 0.08:
            continue
        before = text[max(0, m.start() - 8): m.start()].lower()
        if re.search(r"(до|от|не|более|менее)\s*$", before):
            continue
        s = f"{int(rounded):,}".replace(",", " ")
        return text[: m.start()] + "около " + s + text[m.end():]
    return None


_SYNONYMS = [
    ("не менее", "не меньше"), ("не более", "не больше"), ("не менее", "минимум"), ("не более", "максимум"),
    ("по будням", "в будние дни"), ("по выходным", "в выходные дни"), ("ежемесячно", "каждый месяц"),
    ("ежедневно", "каждый день"), ("еженедельно", "каждую неделю"), ("ежегодно", "каждый год"),
    ("работник", "сотрудник"), ("работника", "сотрудника"), ("работнику", "сотруднику"), ("работники", "сотрудники"),
    ("работникам", "сотрудникам"), ("Работникам", "Сотрудникам"), ("Работник", "Сотрудник"),
    ("предоставляется", "даётся"), ("бесплатно", "без оплаты"), ("Стоимость", "Цена"), ("стоимость", "цена"),
    ("руб.", "рублей"), ("в течение", "в пределах"), ("составляет", "равна"), ("выплачивается", "выплачивают"),
    ("at least", "no less than"), ("within", "no later than"), ("employees", "staff"), ("Employees", "Staff"),
]


def synonym(text: str, rng) -> str | None:
    found = [(a, b) for a, b in _SYNONYMS if re.search(rf"(?<!\w){re.escape(a)}(?!\w)", text)]
    if not found:
        return None
    a, b = found[int(rng.integers(len(found)))]
    if a == "составляет":  # gender of "равна" follows the subject: only with a feminine subject word
        if not re.search(r"\b\w+(?:ость|ция|ка|ма|та)\b\s+[^—]*?составляет", text):
            return None
    return re.sub(rf"(?<!\w){re.escape(a)}(?!\w)", b, text, count=1)


def reorder(text: str, rng) -> str | None:
    m = re.fullmatch(r"(.+?), (если|при условии,? что|когда) (.+?)([.!]?)", text)
    if m and len(m.group(1).split()) >= 3 and len(m.group(3).split()) >= 2:
        head = m.group(1)
        head = head[0].lower() + head[1:] if not head[:2].isupper() and not head.startswith("«") else head
        return f"{m.group(2).capitalize()} {m.group(3)}, {head}{m.group(4) or '.'}"
    m = re.fullmatch(r"([^—]{6,80}?) — ([^—]+)", text)
    if m and re.match(r"(?:от |до |не |\d)", m.group(2)):
        return f"{m.group(1)} составляет {m.group(2)}"
    return None


def clause(text: str, rng) -> str | None:
    parts = [p.strip() for p in re.split(r";\s+", text) if len(p.split()) >= 4]
    return parts[0] + "." if len(parts) >= 2 else None


def number_swap(text: str, rng, doc_numbers: list[tuple[str, str]]) -> str | None:
    found = _numbers(text)
    rng.shuffle(found)
    for m in found:
        raw, unit = m.group(0), _unit_after(text, m.end())
        value = _value(raw)
        same = [r for r, u in doc_numbers if u == unit and _value(r) != value]
        pool = same or [r for r, _ in doc_numbers if _value(r) != value and 0.2 < _value(r) / max(value, 1e-9) < 5]
        if pool:
            return text[: m.start()] + pool[int(rng.integers(len(pool)))] + text[m.end():]
        if value >= 1:
            new = value + rng.choice([1, 2, 5, 10]) if value < 100 else value * rng.choice([0.8, 1.2, 1.5, 2.0])
            s = f"{int(round(new)):,}".replace(",", " ") if re.search(r"[ \u00a0]", raw) else str(int(round(new)))
            if s != raw:
                return text[: m.start()] + s + text[m.end():]
    return None


_UNIT_SWAPS = [
    (r"календарных", "рабочих"), (r"календарные", "рабочие"), (r"календарный", "рабочий"),
    (r"рабочих дн", "календарных дн"), (r"рабочий день", "календарный день"), (r"\bдней\b", "недель"),
    (r"\bнедель\b", "дней"), (r"\bмесяцев\b", "лет"), (r"\bчасов\b", "минут"), (r"\bминут\b", "часов"),
    (r"в месяц\b", "в неделю"), (r"в неделю\b", "в месяц"), (r"в год\b", "в месяц"), (r"в сутки\b", "в месяц"),
    (r"\bрублей\b", "евро"), (r"\bdays\b", "weeks"), (r"\bmonths\b", "years"), (r"\bhours\b", "minutes"),
    (r"business days", "calendar days"), (r"per month", "per week"), (r"\bdays\b", "months"),
]
_CONTRAST_SWAPS = [
    ("по будням", "по выходным"), ("по выходным", "по будням"), ("в будние дни", "в выходные дни"),
    ("в выходные", "в будни"), ("по субботам", "по воскресеньям"), ("по воскресеньям", "по субботам"),
    ("ежемесячно", "ежеквартально"), ("ежеквартально", "ежемесячно"), ("ежедневно", "еженедельно"),
    ("еженедельно", "ежемесячно"), ("ежегодно", "ежемесячно"), ("утром", "вечером"), ("вечером", "утром"),
    ("зимой", "летом"), ("летом", "зимой"), ("металлокерамическ", "керамическ"), ("композит", "цемент"),
    ("на дом", "в клинике"), ("в офисе", "удалённо"), ("удалённо", "в офисе"), ("наличными", "картой"),
    ("on weekdays", "on weekends"), ("monthly", "quarterly"), ("daily", "weekly"), ("weekly", "monthly"),
]
_BOUND_SWAPS = [("не менее", "не более"), ("не более", "не менее"), ("не позднее", "не ранее"), ("не ранее", "не позднее"),
                ("до ", "от "), ("at least", "at most"), ("no later than", "no earlier than"), ("up to", "at least")]


def _first_swap(text: str, table, rng, regex: bool = False) -> str | None:
    found = [(a, b) for a, b in table if (re.search(a, text) if regex else a in text)]
    if not found:
        return None
    a, b = found[int(rng.integers(len(found)))]
    return re.sub(a, b, text, count=1) if regex else text.replace(a, b, 1)


def unit_swap(text: str, rng) -> str | None:
    return _first_swap(text, _UNIT_SWAPS, rng, regex=True) if _numbers(text) or "дн" in text else None


def contrast_swap(text: str, rng) -> str | None:
    return _first_swap(text, _CONTRAST_SWAPS, rng)


def bound_swap(text: str, rng) -> str | None:
    candidates = [(a, b) for a, b in _BOUND_SWAPS if a != "до " or re.search(r"(?<!\w)до \d", text)]
    return _first_swap(text, candidates, rng)


_QUOTED = re.compile(r"«[^»]{2,40}»")
_CAPS = re.compile(r"(?<=[\w,] )[A-ZА-ЯЁ][a-zа-яё]{3,}(?:[ -][A-ZА-ЯЁ][a-zа-яё]+)?")


def entity_swap(text: str, rng, names: list[str]) -> str | None:
    found = list(_QUOTED.finditer(text)) or list(_CAPS.finditer(text))
    if not found:
        return None
    m = found[int(rng.integers(len(found)))]
    pool = [n for n in names if n != m.group(0) and n not in text and (n.startswith("«") == m.group(0).startswith("«"))]
    if not pool:
        return None
    return text[: m.start()] + pool[int(rng.integers(len(pool)))] + text[m.end():]


_ROLES = [("работодатель", "работник"), ("работник", "работодатель"), ("заказчик", "исполнитель"),
          ("исполнитель", "заказчик"), ("подрядчик", "заказчик"), ("банк", "клиент"), ("клиент", "банк"),
          ("руководитель", "работник"), ("пациент", "клиника"), ("покупатель", "продавец"), ("продавец", "покупатель"),
          ("отправитель", "получатель"), ("получатель", "отправитель")]


def role_swap(text: str, rng) -> str | None:
    morph = _morph()
    for m in re.finditer(r"[А-Яа-яЁё]+", text):
        parse = morph.parse(m.group(0).lower())[0]
        for a, b in _ROLES:
            if parse.normal_form == a and "NOUN" in parse.tag:
                target = morph.parse(b)[0]
                grams = {g for g in (parse.tag.case, parse.tag.number) if g}
                form = target.inflect(grams)
                if form is None:
                    continue
                word = form.word
                if m.group(0)[0].isupper():
                    word = word.capitalize()
                return text[: m.start()] + word + text[m.end():]
    return None


_MORPH = None


def _morph():
    global _MORPH
    if _MORPH is None:
        import pymorphy3

        _MORPH = pymorphy3.MorphAnalyzer()
    return _MORPH


_MONTHS = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября",
           "ноября", "декабря"]


def date_swap(text: str, rng) -> str | None:
    m = re.search(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b", text)
    if m:
        month = (int(m.group(2)) % 12) + 1
        return text[: m.start()] + f"{m.group(1)}.{month:02d}.{m.group(3)}" + text[m.end():]
    m = re.search(r"\b(\d{1,2}) (" + "|".join(_MONTHS) + r")\b", text)
    if m:
        other = _MONTHS[(_MONTHS.index(m.group(2)) + int(rng.integers(1, 11))) % 12]
        return text[: m.start(2)] + other + text[m.end(2):]
    m = re.search(r"\b(20[0-3]\d)\b", text)
    if m:
        return text[: m.start()] + str(int(m.group(1)) + int(rng.choice([-1, 1]))) + text[m.end():]
    return None


_BASE = re.compile(r"от (?:суммы|стоимости|размера|остатка|оклада|абонентской|ежемесячной|среднего|должностного)[^,.;)]{0,40}")


def base_swap(text: str, rng, bases: list[str]) -> str | None:
    m = _BASE.search(text)
    if not m or "%" not in text[: m.start()][-25:]:
        return None
    pool = [b for b in bases if b.split()[:3] != m.group(0).split()[:3]]
    if not pool:
        return None
    return text[: m.start()] + pool[int(rng.integers(len(pool)))].rstrip() + text[m.end():]


def negation(text: str, rng) -> str | None:
    m = re.search(r"(?<!\w)не (?!менее|более|позднее|ранее|меньше|больше)", text)
    if m:
        return text[: m.start()] + text[m.end():]
    for t in re.finditer(r"[А-Яа-яЁё]+", text):
        parse = _morph().parse(t.group(0).lower())[0]
        if {"VERB"} & set(str(parse.tag).replace(" ", ",").split(",")) or parse.tag.POS in ("VERB", "PRTS"):
            return text[: t.start()] + "не " + text[t.start():]
    m = re.search(r"\b(is|are|was|were|can|will|must|may|has|have)\b( not)?", text)
    if m:
        return text[: m.end(1)] + ("" if m.group(2) else " not") + text[m.end():]
    return None


_COND = re.compile(r"(?:при условии[^.;]{8,80}|только (?:для|при|после|по)[^.;,]{6,60}|по согласованию с[^.;,]{4,50}"
                   r"|при наличии[^.;,]{4,60}|provided that[^.;]{8,80}|only (?:if|for|after)[^.;,]{6,60})")


def added_condition(text: str, rng, conditions: list[str]) -> str | None:
    pool = [c for c in conditions if c.split()[0].isascii() == text.split()[0].isascii() and c not in text]
    if not pool:
        return None
    cond = pool[int(rng.integers(len(pool)))].strip()
    body = text.rstrip(".!; ")
    return f"{body}, {cond}."


# Tried in this order (shuffled within a tier): a rewrite before the verbatim unit; a swap inside the
# document before the generic negation, added condition or foreign sentence (always applicable, they
# would otherwise crowd out the swaps that matter).
POSITIVE = (("number_form", "approx", "synonym", "reorder", "clause"), ("verbatim",))
NEGATIVE = (("number_swap", "unit_swap", "contrast_swap", "bound_swap", "entity_swap", "role_swap", "date_swap",
             "base_swap"), ("negation", "added_condition", "elsewhere"))


# ---------------------------------------------------------------- assembly


def make_pairs(docs: list[dict], *, seed: int = SEED, per_unit: int = 1, verbatim: bool = True) -> list[dict]:
    """Pairs from every unit of ``docs``; ``verbatim=False``: positives only from rewrites (a unit that no
    rewrite applies to gives no positive)."""
    rng = np.random.default_rng(seed)
    by_source: dict[str, list[int]] = {}
    for i, d in enumerate(docs):
        by_source.setdefault(d["source"], []).append(i)
    doc_units = [units(d) for d in docs]
    names = {s: sorted({m.group(0) for i in ids for m in list(_QUOTED.finditer(docs[i]["text"])) + list(_CAPS.finditer(docs[i]["text"]))})
             for s, ids in by_source.items()}
    bases = {s: sorted({m.group(0) for i in ids for m in _BASE.finditer(docs[i]["text"])}) for s, ids in by_source.items()}
    conditions = sorted({m.group(0) for d in docs if d["source"] != "terra" for m in _COND.finditer(d["text"])})
    out: list[dict] = []
    for i, doc in enumerate(docs):
        peers = [j for j in by_source[doc["source"]] if j != i]
        doc_numbers = [(m.group(0), _unit_after(text, m.end())) for _, text in doc_units[i] for m in _numbers(text)
                       if "." not in m.group(0)]
        for u, (kind, text) in enumerate(doc_units[i]):
            for k in range(per_unit if doc["source"] != "terra" else 1):
                picks = [[x for tier in POSITIVE for x in rng.permutation(tier) if verbatim or x != "verbatim"],
                         [x for tier in NEGATIVE for x in rng.permutation(tier)]]
                for label_set, hallucinated in ((picks[0], False), (picks[1], True)):
                    for label in label_set:
                        claim, contexts_extra = _apply(str(label), text, kind, rng, doc, peers, docs, doc_units,
                                                       doc_numbers, names[doc["source"]], bases[doc["source"]], conditions)
                        if claim is None or (claim == text and label != "verbatim"):
                            continue
                        contexts = [doc["id"]]
                        if doc["source"] != "terra":
                            chosen = [j for j in contexts_extra if j != i][:2]
                            contexts += [docs[j]["id"] for j in chosen]
                            order = rng.permutation(len(contexts))
                            contexts = [contexts[int(o)] for o in order]
                        out.append({"id": f"pairs:{doc['id']}:{u}:{k}:{label}", "group": f"pairs:{doc['id']}",
                                    "dataset": "pairs", "task": str(label), "language": doc["lang"], "question": "",
                                    "context_ids": contexts, "answer": claim, "hallucinated": hallucinated,
                                    "label": str(label), "source": doc["source"], "spans": []})
                        break
    return out


def _apply(label, text, kind, rng, doc, peers, docs, doc_units, doc_numbers, names, bases, conditions):
    """(claim or None, other documents to add as contexts)."""
    others = [int(j) for j in rng.permutation(peers)] if peers else []
    if label == "verbatim":
        return text, others
    if label == "elsewhere":
        if len(others) < 3:
            return None, others
        far = others[2:]
        for j in far:
            if doc_units[j]:
                return doc_units[j][int(rng.integers(len(doc_units[j])))][1], others[:2]
        return None, others
    simple = {"number_form": number_form, "approx": approx, "synonym": synonym, "reorder": reorder, "clause": clause,
              "unit_swap": unit_swap, "contrast_swap": contrast_swap, "bound_swap": bound_swap,
              "role_swap": role_swap, "date_swap": date_swap, "negation": negation}
    if label in simple:
        if doc["lang"] != "ru" and label in ("role_swap",):
            return None, others
        return simple[label](text, rng), others
    if label == "number_swap":
        return number_swap(text, rng, doc_numbers), others
    if label == "entity_swap":
        return entity_swap(text, rng, names), others
    if label == "base_swap":
        return base_swap(text, rng, bases), others
    if label == "added_condition":
        if doc["source"] == "terra":
            return None, others
        return added_condition(text, rng, conditions), others
    raise ValueError(label)


def documents_path(pairs_path: Path) -> Path:
    """The documents file beside a pairs file (``claim_pairs.jsonl`` -> ``claim_pairs.documents.jsonl``)."""
    return pairs_path.with_name(pairs_path.stem + ".documents.jsonl")


def load_pairs(path: Path) -> list[dict]:
    """The pairs of ``path`` in the training schema: ``context_ids`` replaced by the documents' texts."""
    texts = {}
    for line in documents_path(path).read_text(encoding="utf-8").splitlines():
        if line.strip():
            d = json.loads(line)
            texts[d["id"]] = d["text"]
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            row = json.loads(line)
            missing = [i for i in row["context_ids"] if i not in texts]
            if missing:
                raise SystemExit(f"{path}:{number}: context id(s) {missing} not in {documents_path(path).name}; "
                                 "regenerate with 'python scripts/make_claim_pairs.py'")
            row["contexts"] = [texts[i] for i in row.pop("context_ids")]
            out.append(row)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sources", default=",".join(DEFAULT_SOURCES),
                    help="comma-separated: demo, domains, terra, ru_judge_dev")
    ap.add_argument("--terra-limit", type=int, default=400, help="terra premises to use")
    ap.add_argument("--per-unit", type=int, default=2, help="positive + negative pairs per unit")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--no-verbatim", action="store_true", help="positives only from rewrites, never the unit itself")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    sources = tuple(s.strip() for s in args.sources.split(",") if s.strip())
    bad = [s for s in sources if s not in ("demo", "domains", "terra", "ru_judge_dev")]
    if bad:
        print(f"unknown source(s) {', '.join(bad)}: use demo, domains, terra, ru_judge_dev", file=sys.stderr)
        return 2
    docs = documents(sources, terra_limit=args.terra_limit)
    pairs = make_pairs(docs, seed=args.seed, per_unit=args.per_unit, verbatim=not args.no_verbatim)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in pairs), encoding="utf-8")
    used = {i for p in pairs for i in p["context_ids"]}
    docs_path = documents_path(args.out)
    docs_path.write_text("".join(json.dumps({"id": d["id"], "source": d["source"], "lang": d["lang"], "text": d["text"]},
                                            ensure_ascii=False) + "\n" for d in docs if d["id"] in used), encoding="utf-8")
    from collections import Counter

    counts = Counter((p["label"], p["hallucinated"]) for p in pairs)
    print(f"{len(docs)} documents, {len(pairs)} pairs -> {args.out}")
    print("  " + ", ".join(f"{lab}{'-' if h else '+'} {n}" for (lab, h), n in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
