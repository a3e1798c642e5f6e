"""The hallucination taxonomy of seed 000: every unsupported claim of an answer labelled with its class.

Faithfulness says *whether* the answer's claims are in the contexts; it cannot say that an answer is
true (a claim copied from a wrong or outdated document is faithful), nor that it contradicts itself.
This family asks the judge (``Claims`` and ``Verify`` requests only) a few more questions per claim
and gives each claim one class, in this order:

``outdated_source``
    a superseded chunk (an older edition: :func:`ragauge.guard.editions.superseded_ids` over the
    sample's contexts, by title/doc_id and edition date, or a chunk that says it lost force) supports
    the claim and no current chunk does.
``contradiction``
    the contexts say otherwise (the verdict against all contexts is ``contradicted``).
``fabrication``
    beyond the contexts: nothing in them supports it (``unsupported``).
``factual_error``
    faithful to the contexts, but the user's trusted source (``trusted``: a text, or a list of texts or
    ``{text}`` objects, per sample) contradicts it. A claim the trusted source does not mention is not
    an error: it may simply not cover it.
``logical_contradiction``
    two claims of the answer contradict each other: a pair about the same subject (at least half of
    their content words shared, numbers left out: :func:`subject_overlap`) where ``verify`` of one
    claim with the other as the only source says ``contradicted``. Pairs are listed in
    ``self_contradictions``; a claim already in another class keeps it.

Metrics:

- ``hallucination_taxonomy`` = 1 when the answer has a claim of any class, else 0 (its mean: the share
  of answers with a hallucination of any kind; this counts outdated, self-contradicting and factually
  wrong answers that ``hallucination_rate`` misses). The artifact lists each claim's class and the
  answer's ``classes``.
- ``self_contradiction`` = 1 when two claims of the answer contradict each other, else 0.
- ``factuality`` = supported claims / claims, against the trusted source instead of the contexts.

Unscored: no answer; a refusal; no contexts (taxonomy); no trusted source (factuality); no claims.
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from ..data.schema import Sample
from ..errors import InputError
from ..judges.requests import Claims, Refusal, Reply, Request, Verify
from ..judges.types import CONTRADICTED, SUPPORTED
from ..scores.claims import supported_fraction
from ._judging import languages
from .column import ScoreColumn
from .plan import Plan
from .registry import MetricDef
from .spec import MetricSpec

FAMILY = "taxonomy"
TRUSTED = "trusted"
CLASSES = ("outdated_source", "contradiction", "fabrication", "factual_error", "logical_contradiction")
#: pairs are checked among the first claims only (n claims cost n verify items)
MAX_PAIR_CLAIMS = 12
SAME_SUBJECT = 0.5

DEFINITIONS = [
    MetricDef("hallucination_taxonomy", FAMILY, "Share of answers with a hallucination of any class (contradiction, fabrication, outdated source, factual error vs the trusted source, self-contradiction); each claim's class in the artifacts.",
              requires=("answer", "contexts"), judge="any", higher_is_better=False),
    MetricDef("self_contradiction", FAMILY, "Share of answers in which two claims contradict each other (logical contradiction inside the answer).",
              requires=("answer",), judge="any", higher_is_better=False),
    MetricDef("factuality", FAMILY, "Share of the answer's claims supported by the user's trusted source (a faithful answer to a wrong context scores low).",
              requires=("answer", f"metadata.{TRUSTED}"), judge="any"),
]

_WORD = re.compile(r"[^\W\d_]{4,}", re.UNICODE)


def subject_overlap(a: str, b: str) -> float:
    """Share of content words two claims share (words of 4+ letters cut to 5, numbers left out; Jaccard).

    >>> subject_overlap("Аванс составляет 30% от цены договора.", "Аванс составляет 50% от цены договора.")
    1.0
    >>> subject_overlap("Штукатурка стоит 560 руб.", "Монтаж гипсокартона стоит 1150 руб.")
    0.25
    """
    wa = {w[:5] for w in _WORD.findall(a.casefold())}
    wb = {w[:5] for w in _WORD.findall(b.casefold())}
    if not wa or not wb:
        return 0.0
    return len(wa & wb) / len(wa | wb)


def claim_class(context: str, *, outdated: bool = False, trusted: str | None = None, paired: bool = False) -> str | None:
    """The class of one claim from its verdicts (module doc), ``None`` when it is not a hallucination.

    >>> claim_class("supported", trusted="contradicted")
    'factual_error'
    >>> claim_class("contradicted", outdated=True)
    'outdated_source'
    """
    if outdated:
        return "outdated_source"
    if context == CONTRADICTED:
        return "contradiction"
    if context != SUPPORTED:
        return "fabrication"
    if trusted == CONTRADICTED:
        return "factual_error"
    return "logical_contradiction" if paired else None


def trusted_texts(sample: Sample) -> list[str] | None:
    """The sample's trusted source texts (``metadata.trusted``), ``None`` when not given; bad values raise."""
    raw: Any = sample.metadata.get(TRUSTED)
    if raw is None:
        return None
    items: list[Any] = [raw] if isinstance(raw, str) else list(raw) if isinstance(raw, (list, tuple)) else [raw]
    texts: list[str] = []
    for item in items:
        text = item.get("text") if isinstance(item, Mapping) else item
        if not isinstance(text, str):
            raise InputError(f"sample {sample.id!r}: the trusted source must be a text, a list of texts or of "
                             "objects {text}", field=TRUSTED, value=raw,
                             hint='write e.g. "trusted": "Аванс составляет 30% от цены договора."')
        if text.strip():
            texts.append(text)
    return texts or None


def _split_editions(sample: Sample) -> tuple[list[str], list[str]]:
    """(current, superseded) context texts; both empty when no context is superseded."""
    from ..guard.editions import superseded_ids

    chunks: list[dict[str, Any]] = [{"id": str(i), "text": c.text, "metadata": dict(c.metadata)}
                                    for i, c in enumerate(sample.contexts)]
    old = superseded_ids(chunks)
    if not old:
        return [], []
    texts = sample.context_texts
    return ([t for i, t in enumerate(texts) if str(i) not in old], [t for i, t in enumerate(texts) if str(i) in old])


#: (sample, what was checked, claim index or -1) -> the judge's verdicts for that item
_Verdicts = dict[tuple[int, str, int], Any]


class _Batch:
    """Verify requests gathered across samples, answered in one round."""

    def __init__(self, samples: Sequence[Sample], names: tuple[str, ...]) -> None:
        self.samples, self.names = samples, names
        self.items: list[Request] = []
        self.keys: list[tuple[int, str, int]] = []  # (sample, what, claim index or -1)

    def add(self, key: tuple[int, str, int], claims: Sequence[Any], sources: Sequence[str], lang: str | None) -> None:
        self.keys.append(key)
        self.items.append(Verify(claims=claims, sources=list(sources), lang=lang, sample=self.samples[key[0]].id,
                                 metrics=self.names))


def _candidate_pairs(claims: Sequence[Any]) -> dict[int, list[int]]:
    """For each claim i, the later claims j about the same subject (checked against claim i)."""
    head = list(claims)[:MAX_PAIR_CLAIMS]
    return {i: [j for j in range(i + 1, len(head)) if subject_overlap(head[i].text, head[j].text) >= SAME_SUBJECT]
            for i in range(len(head))}


def compute(specs: Sequence[MetricSpec], samples: Sequence[Sample]) -> Plan[dict[str, ScoreColumn]]:
    wanted = {s.base for s in specs}
    names = tuple(s.name for s in specs)
    n = len(samples)
    langs = languages(samples)
    answers = [s.answer or "" for s in samples]
    trusted = [trusted_texts(s) for s in samples]
    refusals = yield [Refusal(text=a, lang=lg, sample=s.id, metrics=names) for a, lg, s in zip(answers, langs, samples)]
    base_reason = ["no answer" if not a.strip() else "refusal: the answer declines to answer" if r.value else None
                   for a, r in zip(answers, refusals)]
    todo = [i for i in range(n) if base_reason[i] is None]
    claims = dict(zip(todo, (yield [Claims(text=answers[i], lang=langs[i], role="answer", sample=samples[i].id, metrics=names)
                                    for i in todo])))
    batch = _Batch(samples, names)
    pairs: dict[int, dict[int, list[int]]] = {}
    for i in todo:
        c = claims[i].value
        if claims[i].unscored or not c:
            continue
        s = samples[i]
        if "hallucination_taxonomy" in wanted and s.contexts:
            batch.add((i, "ctx", -1), c, s.context_texts, langs[i])
            current, old = _split_editions(s)
            if old:
                batch.add((i, "old", -1), c, old, langs[i])
                if current:
                    batch.add((i, "cur", -1), c, current, langs[i])
        source = trusted[i]
        if source is not None and wanted & {"hallucination_taxonomy", "factuality"}:
            batch.add((i, "trusted", -1), c, source, langs[i])
        if wanted & {"hallucination_taxonomy", "self_contradiction"}:
            pairs[i] = _candidate_pairs(c)
            for a, later in pairs[i].items():
                if later:
                    batch.add((i, "pair", a), [c[b] for b in later], [c[a].text], langs[i])
    replies = dict(zip(batch.keys, (yield batch.items)))
    out: dict[str, ScoreColumn] = {}
    for spec in specs:
        out[spec.name] = _column(spec.base, samples, base_reason, claims, trusted, pairs, replies)
    return out


def _column(base: str, samples: Sequence[Sample], base_reason: list[str | None], claims: dict[int, Reply],
            trusted: list[list[str] | None], pairs: dict[int, dict[int, list[int]]],
            replies: dict[tuple[int, str, int], Reply]) -> ScoreColumn:
    n = len(samples)
    values: list[float | None] = [None] * n
    reasons: list[str | None] = list(base_reason)
    arts: list[dict[str, Any] | None] = [None] * n
    for i in range(n):
        if reasons[i] is not None:
            continue
        if base == "hallucination_taxonomy" and not samples[i].contexts:
            reasons[i] = "no contexts"
            continue
        if base == "factuality" and trusted[i] is None:
            reasons[i] = f"no {TRUSTED} source"
            continue
        keys = [k for k in replies if k[0] == i]
        failed = claims[i].unscored or next((replies[k].unscored for k in keys if replies[k].unscored), None)
        if failed:
            reasons[i], arts[i] = failed.reason, failed.artifact()
            continue
        c = claims[i].value
        got: _Verdicts = {k: replies[k].value for k in keys}
        if not c:
            reasons[i] = "no claims to check"
            continue
        found = _self_contradictions(c, pairs.get(i, {}), got, i)
        if base == "self_contradiction":
            values[i] = float(bool(found))
            arts[i] = {"self_contradictions": found} if found else None
        elif base == "factuality":
            verdicts = got[(i, "trusted", -1)]
            values[i] = supported_fraction([v.supported for v in verdicts])
            arts[i] = {"claims": [v.to_dict() for v in verdicts]}
        else:
            values[i], arts[i] = _taxonomy(c, found, got, i)
    return ScoreColumn(values, reasons, arts)


def _self_contradictions(claims: Sequence[Any], pairs: Mapping[int, list[int]], got: _Verdicts, i: int) -> list[dict[str, Any]]:
    found = []
    for a, later in pairs.items():
        for b, v in zip(later, got.get((i, "pair", a), [])):
            if v.label == CONTRADICTED:
                found.append({"claims": [a, b], "texts": [claims[a].text, claims[b].text], "reason": v.reason})
    return found


def _taxonomy(claims: Sequence[Any], found: list[dict[str, Any]], got: _Verdicts, i: int) -> tuple[float, dict[str, Any]]:
    ctx = got[(i, "ctx", -1)]
    old, cur = got.get((i, "old", -1)), got.get((i, "cur", -1))
    tr = got.get((i, "trusted", -1))
    paired = {k for p in found for k in p["claims"]}
    rows = []
    for k, v in enumerate(ctx):
        outdated = old is not None and old[k].supported and not (cur is not None and cur[k].supported)
        cls = claim_class(v.label, outdated=outdated, trusted=tr[k].label if tr is not None else None, paired=k in paired)
        row = {**v.to_dict(), "class": cls}
        if tr is not None:
            row["trusted_verdict"] = tr[k].label
        if outdated:
            row["superseded_evidence"] = old[k].evidence.text if old[k].evidence else None  # type: ignore[index]
        rows.append(row)
    classes = sorted({r["class"] for r in rows if r["class"]} | ({"logical_contradiction"} if found else set()),
                     key=CLASSES.index)
    art: dict[str, Any] = {"classes": classes, "claims": rows}
    if found:
        art["self_contradictions"] = found
    return float(bool(classes)), art
