"""Offline golden-set generation: chunks in, :class:`GoldenCase` s and a summary out, no model.

Pipeline (each step a small pure module):

1. language per chunk (:func:`ragauge.judges.offline.text.detect_language`) and per sentence; ru/en
   templates; ``lang`` keeps only the facts and chunks in that language (templates do not translate);
2. facts: table rows, numeric sentences, definitions (:mod:`.facts`); editions of a document (:mod:`.versions`);
3. base candidates: simple, reasoning, multi-context, versions, long sections, unanswerable, sensitive
   (:mod:`.build`);
4. the same question from two chunks: merged when the references agree, asked with what tells the chunks apart
   when not ("… of the Gold card?", :mod:`.qualifier`), dropped as ambiguous when nothing does;
5. balanced selection of the base cases, round-robin over slices and documents, refusing near duplicates
   (:mod:`.balance`, :mod:`.dedup`);
6. variants of chosen cases: badly formulated (typos, no punctuation, wrong keyboard layout, colloquial;
   :mod:`.typos`) and paraphrases from the synonym dictionary (:mod:`.paraphrase`);
7. ids ``g-0001`` … in selection order, and a summary.

Deterministic: the same chunks, ``n`` and ``seed`` give byte-identical rows.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any, Iterable, Mapping, Sequence

from ragauge.errors import ConfigError, InputError
from ragauge.generate.case import GoldenCase
from ragauge.generate.chunking import Chunk
from ragauge.generate.documents import Document
from ragauge.generate.questions import (absent_sibling, build, coverage, morph, paraphrase, qualifier, typos, verify,
                                       wellformed)
from ragauge.generate.questions.balance import cover_first, interleave_by_document, select
from ragauge.generate.questions.candidate import Candidate
from ragauge.generate.questions.dedup import NearDuplicateFilter
from ragauge.generate.questions.distribution import by_section, short_reason
from ragauge.generate.questions.facts import chunk_facts
from ragauge.generate.questions.mix import VARIANT_KINDS, mix_report, parse_mix
from ragauge.generate.questions.mix import targets as mix_targets
from ragauge.generate.questions.prose import prose_questions
from ragauge.generate.questions.unanswerable_note import unanswerable_reason
from ragauge.generate.questions.versions import editions, item_key

#: Share of the target given to badly formulated variants and to dictionary paraphrases.
TYPO_SHARE = 0.12
PARAPHRASE_SHARE = 0.08
#: Most a bucket may take of the target in the balanced pass (the fill pass after it has no caps).
CAPS = {"unanswerable": 0.1, "sensitive": 0.05}
#: In the fill pass (other buckets exhausted) a capped bucket may grow to this many times its cap; a
#: small corpus then yields fewer cases than asked rather than a set made mostly of "not found".
FILL_CAP_FACTOR = 2.5
#: Most of a golden set that typo/synonym copies of other questions may make up, also when the documents
#: give fewer distinct questions than asked: a set short of ``n`` is better than one made of copies.
MAX_COPY_SHARE = 0.25
#: Most of the base cases (before variants) the coverage pass may take: one question for each fact-bearing
#: chunk first, the balanced round-robin for the rest.
COVER_SHARE = 0.6


def picked_by(cases: Iterable[Candidate], bucket: str) -> int:
    return sum(1 for c in cases if c.slice_key == bucket)


def chunk_language(chunk: Chunk) -> str | None:
    """"ru" or "en"; None for other languages (and text without letters), which have no templates."""
    from ragauge.judges.offline.text import detect_language

    found = detect_language(chunk.title + "\n" + chunk.text)
    return {"ru": "ru", "uk": "ru", "en": "en"}.get(found or "")


def _with_documents(chunks: list[Chunk], documents: Iterable[Document] | None) -> list[Chunk]:
    """Fill a chunk's missing version/date from its Document (what editions are detected by)."""
    if not documents:
        return chunks
    by_id = {d.id: d for d in documents}
    out = []
    for c in chunks:
        d = by_id.get(c.doc_id)
        if d is not None and not (c.version or c.date):
            c = replace(c, version=d.version, date=d.date)
        out.append(c)
    return out


def _merge_same_question(cands: list[Candidate], dropped: Counter) -> list[Candidate]:
    groups: dict[tuple[str, str], list[int]] = {}
    for i, c in enumerate(cands):
        groups.setdefault((c.lang, c.question.casefold()), []).append(i)
    out = []
    for idxs in groups.values():
        group = [cands[i] for i in idxs]
        if len(group) == 1:
            out.append(group[0])
        elif len({c.reference for c in group}) == 1:
            seen, chunks = set(), []
            for c in group:
                for ch in c.chunks:
                    if ch.id not in seen:
                        seen.add(ch.id)
                        chunks.append(ch)
            g = group[0]
            out.append(Candidate(g.question, g.reference, tuple(chunks), g.type, g.slices, g.lang, g.template,
                                 g.expected_behaviour, extra=g.extra))
            dropped["merged_same_question"] += len(group) - 1
        else:
            asked = _distinguished(group)
            if asked is None:
                dropped["ambiguous_same_question_different_answers"] += len(group)
            else:
                out += asked
                dropped["qualified_same_question_different_answers"] += len(group)
    return out


def _of_siblings(cands: list[Candidate], chunks: list[Chunk]) -> list[Candidate]:
    """Answerable one-chunk number questions asked of their section's thing when the document has other things of
    that kind in other sections (:func:`.qualifier.of_siblings`); definitions, clauses and editions stay general."""
    at = [i for i, c in enumerate(cands) if len(c.chunks) == 1 and c.expected_behaviour == "answer"
          and c.type == "simple" and {"numbers", "table"} & set(c.slices) and "versions" not in c.slices
          and not c.template.startswith(("definition", "abbreviation", "clause", "norm_reference"))]
    asked = qualifier.of_siblings([(cands[i].question, cands[i].chunks[0], cands[i].lang) for i in at], chunks)
    out = list(cands)
    for i, question in zip(at, asked):
        if question != cands[i].question:
            out[i] = replace(cands[i], question=question)
    return out


def _distinguished(group: list[Candidate]) -> list[Candidate] | None:
    """The same question from chunks with different answers, each asked with what tells its chunk apart
    ("What is the daily cash withdrawal limit of the Gold card?"; :mod:`.qualifier`); None when the candidates
    do not come from one distinct chunk each or nothing tells those apart."""
    firsts = [c.chunks[0] for c in group if len(c.chunks) == 1]
    if len(firsts) != len(group) or len({ch.id for ch in firsts}) != len(group):
        return None
    asked = qualifier.distinguished([c.question for c in group], firsts, [c.lang for c in group])
    if asked is None:
        return None
    return [replace(c, question=q) for c, q in zip(group, asked)]


def _source(c: Candidate) -> dict[str, Any]:
    doc_ids, titles, versions = [], [], []
    for ch in c.chunks:
        if ch.doc_id not in doc_ids:
            doc_ids.append(ch.doc_id)
            titles.append(ch.title)
            versions.append(ch.version or ch.date or "")
    return {"chunk_ids": list(c.relevant_ids), "doc_ids": doc_ids, "titles": titles, "versions": versions}


#: The template of a price row's second wording, used only as a paraphrase variant of the row's question.
ROW_PARAPHRASE = "table_price_cost_of"


def _row_key(c: Candidate) -> tuple[str, tuple[str, ...]]:
    return c.reference, tuple(ch.id for ch in c.chunks)


def _variants(bases: list[Candidate], budget_typos: int, budget_para: int, rng: random.Random,
              dedup: NearDuplicateFilter, taken: set[str],
              rows: dict[tuple[str, tuple[str, ...]], Candidate] | None = None) -> list[tuple[Candidate, int]]:
    out: list[tuple[Candidate, int]] = []
    order = [i for i, c in enumerate(bases) if c.expected_behaviour == "answer"]
    rng.shuffle(order)
    kinds = list(typos.KINDS)
    k = 0
    for i in order:
        if sum(1 for v, _ in out if "badly_formulated" in v.slices) >= budget_typos:
            break
        base = bases[i]
        for _ in range(len(kinds)):
            kind = kinds[k % len(kinds)]
            k += 1
            text = typos.noisy(base.question, base.lang, kind, rng)
            if text and text.casefold() not in taken:
                taken.add(text.casefold())
                out.append((Candidate(text, base.reference, base.chunks, base.type,
                                      base.slices + ("badly_formulated",), base.lang, f"{base.template}+{kind}",
                                      base.expected_behaviour, extra={"badly_formed": kind}), i))
                break
    made = 0
    for i in order:
        if made >= budget_para:
            break
        base = bases[i]
        if "paraphrase" in base.slices or base.template in ("clause", "long_section", "norm_reference"):
            continue  # those name a document or section, which a synonym would misname
        row = (rows or {}).get(_row_key(base)) if base.template == "table_price" else None
        if row is not None and row.question.casefold() not in taken and dedup.accept(row.question):
            taken.add(row.question.casefold())
            out.append((replace(row, slices=tuple(dict.fromkeys(("paraphrase",) + base.slices))), i))
            made += 1
            continue
        found = paraphrase.paraphrase(base.question, base.lang, rng)
        if found and found[0].casefold() not in taken and dedup.accept(found[0]):
            taken.add(found[0].casefold())
            out.append((Candidate(found[0], base.reference, base.chunks, base.type, ("paraphrase",) + base.slices,
                                  base.lang, f"{base.template}+synonym", base.expected_behaviour,
                                  extra={"synonym": found[1]}), i))
            made += 1
    return out


def _kept_copies(variants: list[tuple[Candidate, int]], cap: int) -> list[tuple[Candidate, int]]:
    """At most ``cap`` copies, cut so that a set keeps its most useful ones: a price row's second wording («Какова
    стоимость X?» beside «Сколько стоит X?») first (a different natural phrasing a user types, not noise), then
    one copy of each kind in turn (a synonym copy, a typo, a missing punctuation, a wrong layout, a colloquial
    one), so a cut set keeps every kind instead of the first kind made."""
    if len(variants) <= cap:
        return variants
    groups: dict[str, list[tuple[Candidate, int]]] = {}
    for v in variants:
        key = "row" if v[0].template == ROW_PARAPHRASE else str(v[0].extra.get("badly_formed", "synonym"))
        groups.setdefault(key, []).append(v)
    kept = groups.pop("row", [])[:cap]
    queues = list(groups.values())
    while len(kept) < cap and any(queues):
        for q in queues:
            if q and len(kept) < cap:
                kept.append(q.pop(0))
    return kept


def _balanced(cands: list[Candidate], n: int, rng: random.Random, dedup: NearDuplicateFilter, dropped: Counter,
              usable: list[Chunk], own: dict[str, str], old_docs: set[str],
              rows: dict[tuple[str, tuple[str, ...]], Candidate] | None = None) -> tuple:
    """The default selection: coverage first, then round-robin over slices and documents, capped buckets."""
    n_typos = round(n * TYPO_SHARE)
    n_para = round(n * PARAPHRASE_SHARE)
    caps = {k: max(1, round(share * n)) for k, share in CAPS.items()}
    n_base = n - n_typos - n_para
    bearing = [c for c in usable if c.id in own and c.doc_id not in old_docs and coverage.fact_bearing(c)]
    first, refused_first = cover_first(cands, interleave_by_document(bearing), round(COVER_SHARE * n_base), rng,
                                       accept=lambda c: dedup.accept(c.question))
    first_set = set(first)
    left = [i for i in range(len(cands)) if i not in first_set]
    picked, refused = select([cands[i] for i in left], n_base - len(first), rng,
                             accept=lambda c: dedup.accept(c.question), caps=caps)
    picked = first + [left[i] for i in picked]
    refused += refused_first
    bases = [cands[i] for i in picked]
    taken = {c.question.casefold() for c in bases}
    variants = _variants(bases, n_typos, n_para, rng, dedup, taken, rows)
    chosen_set = set(picked)
    rest = [c for i, c in enumerate(cands) if i not in chosen_set]
    fill_caps = {k: max(1, round(FILL_CAP_FACTOR * share * n)) - picked_by(bases, k) for k, share in CAPS.items()}
    more, refused_more = select(rest, n - len(bases) - len(variants), rng,
                                accept=lambda c: dedup.accept(c.question), caps=fill_caps)
    bases += [rest[i] for i in more]
    dropped["near_duplicate"] += refused + refused_more
    short = n - len(bases) - len(variants)
    copy_cap = int(MAX_COPY_SHARE * n)
    if short > 0 and len(variants) < copy_cap:  # few facts (a short document): a few more noisy variants, capped
        variants += _variants(bases, min(short, copy_cap - len(variants)), 0, rng, dedup, taken)
    # the share is of the set as made, not of --n: copies <= share * (bases + copies)
    copy_cap = min(copy_cap, int(MAX_COPY_SHARE * len(bases) / (1 - MAX_COPY_SHARE) + 1e-9))
    variants = _kept_copies(variants, copy_cap)
    return bases, variants, copy_cap, bearing, rest, more


def _by_mix(cands: list[Candidate], wanted: dict[str, int], rng: random.Random, dedup: NearDuplicateFilter,
            dropped: Counter, rows: dict[tuple[str, tuple[str, ...]], Candidate] | None = None) -> tuple[list[Candidate], list[tuple[Candidate, int]], dict[str, int]]:
    """Selection under a mix: each type its target (round-robin over slices and documents inside the type),
    then the variant kinds from the chosen bases. Nothing is padded: a type short of candidates stays short."""
    bases: list[Candidate] = []
    available: dict[str, int] = {}
    for kind in wanted:
        if kind in VARIANT_KINDS:
            continue
        pool = [c for c in cands if c.type == kind]
        available[kind] = len(pool)
        picked, refused = select(pool, wanted[kind], rng, accept=lambda c: dedup.accept(c.question))
        dropped["near_duplicate"] += refused
        bases += [pool[i] for i in picked]
    taken = {c.question.casefold() for c in bases}
    answerable = sum(1 for c in bases if c.expected_behaviour == "answer")
    available.update({k: answerable for k in VARIANT_KINDS if k in wanted})
    variants = _variants(bases, wanted.get("badly_formulated", 0), wanted.get("paraphrase", 0), rng, dedup, taken,
                         rows)
    return bases, variants, available


def generate_questions(chunks: Sequence[Chunk], *, n: int = 100, seed: int = 0, lang: str | None = None,
                       documents: Iterable[Document] | None = None, dedup_threshold: float = 0.9,
                       verify: bool = True, mix: str | Mapping[str, Any] | None = None
                       ) -> tuple[list[GoldenCase], dict[str, Any]]:
    """Generate up to ``n`` golden cases from ``chunks`` with no model; see the module docstring.

    ``mix``: shares per kind (``{"simple": 0.5, "reasoning": 0.3, "multi_context": 0.2}`` or the same as
    ``"simple=0.5,..."``; :mod:`.mix`): each kind gets its share of ``n`` and no more; a kind the documents
    cannot fill leaves the set short (``summary["mix"]`` says which). Without it, the balanced default.

    Returns ``(cases, summary)``; the summary counts cases per type, slice, document and language,
    candidates made, candidates dropped with the reason, and the coverage of fact-bearing chunks
    (``summary["coverage"]``, :mod:`.coverage`). ``verify`` uses the offline judge (when its packages are
    installed) to check references and the absence of unanswerable answers; ``summary["judge"]`` says
    whether it ran.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ConfigError(f"n must be a positive integer (got {n!r})")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"seed must be an integer (got {seed!r})")
    if lang not in (None, "ru", "en"):
        raise ConfigError(f"lang must be 'ru', 'en' or None for both (got {lang!r})")
    shares = parse_mix(mix) if mix is not None else None
    wanted = mix_targets(shares, n) if shares else {}
    chunks = _with_documents(list(chunks), documents)
    if not chunks:
        raise InputError("no chunks to generate questions from", hint="Load a folder with readable documents first")
    rng = random.Random(seed)
    dropped: Counter = Counter()
    langs: dict[str, str] = {}
    for c in chunks:
        found = chunk_language(c)
        if found is None:
            dropped["chunk_language_unsupported"] += 1
        else:
            langs[c.id] = found
            if lang and found != lang:
                dropped["chunk_in_other_language"] += 1
    usable = [c for c in chunks if c.id in langs]
    own = {cid: v for cid, v in langs.items() if not lang or v == lang}  # chunks asked about as a whole
    if "ru" in langs.values() and not morph.available():
        dropped["russian_morphology_missing (pip install 'ragauge[offline]')"] += 1

    family = editions(usable)
    old_docs = {d for d, order in family.items() if order[0] != d}
    facts_by_chunk = {c.id: [f for f in chunk_facts(c, langs[c.id], per_sentence=True) if not lang or f.lang == lang]
                      for c in usable}
    all_facts = [f for fs in facts_by_chunk.values() for f in fs]
    current_rows = {(f.chunk.doc_id, item_key(f.subject), f.value_header): f for f in all_facts
                    if f.kind == "table" and f.chunk.doc_id in family and f.chunk.doc_id not in old_docs}
    longs = build.long_ids(usable)
    table_facts = [f for f in all_facts if f.kind == "table"]
    cands = build.table_candidates(table_facts, family, current_rows, dropped)
    cands += build.sentence_candidates([f for f in all_facts if f.kind != "table"], longs, family, dropped)
    tables = {cid: fs for cid, fs in facts_by_chunk.items() if fs and fs[0].kind == "table"
              and fs[0].chunk.doc_id not in old_docs}
    cands += build.reasoning_candidates(tables, rng)
    cands += build.multi_candidates(tables, old_docs, rng, limit=max(4, n // 8, 2 * wanted.get("multi_context", 0)))
    cands += build.long_section_candidates([c for c in usable if c.doc_id not in old_docs and c.id in own], longs,
                                           own)
    skip = build.asked_sentences(all_facts)  # asked by the templates above
    why: dict[str, Counter] = {}
    prose = prose_questions([c for c in usable if c.doc_id not in old_docs and c.id in own], own, dropped,
                            skip=skip, lang=lang, why=why)
    cands += build.prose_candidates(prose, longs)
    judge_factory = _judge_factory() if verify else None
    tried: dict[str, int] = {}
    cands += build.unanswerable_candidates(prose, usable, dropped, judge_factory,  # absence: against every chunk
                                           limit=max(2, round(FILL_CAP_FACTOR * CAPS["unanswerable"] * n),
                                                     2 * wanted.get("unanswerable", 0)),
                                           table_facts=[f for f in table_facts if not lang or f.lang == lang],
                                           sentence_facts=[f for f in all_facts if f.kind != "table"
                                                           and f.chunk.doc_id not in old_docs], tried=tried)
    cands += build.period_candidates([f for f in table_facts if not lang or f.lang == lang], family, usable, dropped)
    cands += build.sensitive_candidates(usable, own)
    made = len(cands)
    cands = _of_siblings(cands, usable)
    cands, failed = _checked(cands, dropped, judge_factory)
    siblings = absent_sibling.sibling_questions(cands, usable, dropped, judge_factory,
                                                limit=max(2, round(FILL_CAP_FACTOR * CAPS["unanswerable"] * n),
                                                          2 * wanted.get("unanswerable", 0)))
    tried["sibling_questions"] = len(siblings)
    cands += _well_formed(siblings, dropped)
    cands = _merge_same_question(cands, dropped)
    # a price row is asked once: its second wording («Какова стоимость X?») is only a paraphrase variant of it
    rows = {_row_key(c): c for c in cands if c.template == ROW_PARAPHRASE}
    cands = [c for c in cands if c.template != ROW_PARAPHRASE]

    dedup = NearDuplicateFilter(dedup_threshold)
    if shares:
        bases, variants, available = _by_mix(cands, wanted, rng, dedup, dropped, rows)
        copy_cap, bearing, rest, more = n, [], [], []
    else:
        bases, variants, copy_cap, bearing, rest, more = _balanced(cands, n, rng, dedup, dropped, usable, own,
                                                                  old_docs, rows)

    final: list[tuple[Candidate, int | None]] = [(c, None) for c in bases] + variants
    cases = []
    for k, (c, base) in enumerate(final):
        extra = dict(c.extra)
        if base is not None:
            extra["variant_of"] = f"g-{base + 1:04d}"
        cases.append(GoldenCase(id=f"g-{k + 1:04d}", question=c.question, reference=c.reference,
                                relevant_ids=c.relevant_ids, type=c.type, slices=c.slices, language=c.lang,
                                source=_source(c), generator="offline", template=c.template, seed=seed,
                                expected_behaviour=c.expected_behaviour, extra=extra))
    summary = summarize(cases, n=n, seed=seed, candidates=made, dropped=dropped)
    summary["copies"] = sum(1 for c in cases if "variant_of" in c.extra)
    summary["by_section"] = by_section(final)
    if shares:
        summary["mix"] = mix_report(cases, shares, wanted, available)
        if summary["short_of_target"]:
            summary["short_reason"] = "the mix could not be met: " + "; ".join(summary["mix"]["short"])
    else:
        summary["copy_cap"] = (f"at most {int(MAX_COPY_SHARE * 100)}% of the set are typo/synonym copies "
                               f"({summary['copies']} of {len(cases)}; at most {copy_cap})")
        if summary["short_of_target"]:
            summary["short_reason"] = short_reason(summary, len(cands), len(rest) - len(more), dropped)
    made_ids = {ch.id for c in cands for ch in c.chunks}
    summary["coverage"] = coverage.summary(bearing, [c.relevant_ids for c in cases], made=made_ids, failed=failed,
                                           why=why)
    note = unanswerable_reason(selected=summary["by_type"].get("unanswerable", 0),
                               made=sum(1 for c in cands if c.type == "unanswerable"),
                               fact_bearing=sum(1 for c in usable if c.id in own and coverage.fact_bearing(c)),
                               tried=tried, dropped=dropped,
                               excluded_by_mix=bool(shares) and not wanted.get("unanswerable"))
    if note:
        summary["unanswerable_reason"] = note
    summary["by_fact_kind"] = dict(sorted(Counter(str(c.extra.get("fact_kind")) for c in cases
                                                  if c.extra.get("fact_kind")).items()))
    summary["judge"] = "offline" if judge_factory is not None and _JUDGE_STATE.get("ok") else (
        "off" if not verify else "unavailable: references checked by numbers only, absence by lemmas only")
    return cases, summary


_JUDGE_STATE: dict[str, bool] = {}


def _judge_factory():
    """A callable giving the shared offline judge (models load once per process), or raising when its
    packages are missing; the callers then fall back to the checks without it and say so."""
    def make():
        try:
            from ragauge.judges.offline.judge import OfflineJudge

            judge = OfflineJudge.shared()
            judge.claims(["Проверка."], ["ru"])  # fails here, once, when a model package is missing
        except Exception:
            _JUDGE_STATE["ok"] = False
            raise
        _JUDGE_STATE["ok"] = True
        return judge

    return make


def _well_formed(cands: list[Candidate], dropped: Counter) -> list[Candidate]:
    """The candidates whose question passes :func:`wellformed.problem`; the others counted by their sign."""
    out = []
    for c in cands:
        form = wellformed.problem(c.question, c.lang, c.template)
        if form is None:
            out.append(c)
        else:
            dropped[f"question_form: {form}"] += 1
    return out


def _checked(cands: list[Candidate], dropped: Counter, judge_factory) -> tuple[list[Candidate], dict[str, Counter]]:
    """Drop candidates whose reference fails a check (:mod:`.verify`), counting the reason overall and per chunk."""
    failed: dict[str, Counter] = {}
    judge = None
    if judge_factory is not None:
        try:
            judge = judge_factory()
        except Exception:  # noqa: BLE001 - missing optional models: numbers and quotes only; the summary says so
            judge = None
    bad = verify.unsupported(judge, cands) if judge is not None else [False] * len(cands)
    out = []
    for c, unsupported in zip(cands, bad):
        reason = None
        form = None if c.expected_behaviour == "refuse_or_caution" else wellformed.problem(c.question, c.lang,
                                                                                           c.template)
        if form is not None:
            reason = f"question_form: {form}"
        elif verify.missing_numbers(c):
            reason = "reference_number_not_in_chunk"
        elif verify.quote_missing(c):
            reason = "sensitive_quote_not_in_chunk"
        elif unsupported:
            reason = "reference_not_supported_by_judge"
        if reason is None:
            out.append(c)
            continue
        dropped[reason] += 1
        for ch in c.chunks[:1]:
            failed.setdefault(ch.id, Counter())[reason] += 1
    return out, failed



def summarize(cases: Sequence[GoldenCase], *, n: int, seed: int, candidates: int, dropped: Counter) -> dict[str, Any]:
    """Counts per type, slice, document and language; candidates made; drops by reason."""
    def count(values: Iterable[str]) -> dict[str, int]:
        return dict(sorted(Counter(values).items()))

    return {
        "generator": "offline", "requested": n, "generated": len(cases), "seed": seed,
        "candidates": candidates,
        "by_type": count(c.type for c in cases),
        "by_slice": count(s for c in cases for s in c.slices),
        "by_document": count(d for c in cases for d in (c.source.get("doc_ids") or ["-"])),
        "by_language": count(c.language for c in cases),
        "by_behaviour": count(c.expected_behaviour for c in cases),
        "dropped": dict(sorted(dropped.items())),
        "short_of_target": max(0, n - len(cases)),
    }


__all__ = ["TYPO_SHARE", "PARAPHRASE_SHARE", "chunk_language", "generate_questions", "summarize"]
