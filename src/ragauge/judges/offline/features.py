"""Claim-evidence features for the verifier head: pure functions over texts and precomputed vectors.

One claim and its ranked evidence windows (``evidence.best_evidence_many``) become one float vector
in the fixed order of :data:`FEATURE_NAMES`:

* similarity: ``sim_best`` = cos(claim, best window), ``sim_max``/``sim_mean3`` over the top
  windows, ``sim_centroid`` = cos(claim, normalised mean of the top windows), ``lexical_best`` and
  ``score_best`` from the evidence ranking;
* lexical overlap (``overlap.overlap``) of the claim's content lemmas with the best window and with
  the union of the top windows: recall, precision, Jaccard, idf-weighted recall, rare-lemma recall;
  ``novel_share`` = share of the claim's content lemmas found in *no* context sentence;
* the 16 number features of ``numbers.quantity_features`` (claim vs the top windows), prefixed ``num_``;
* entities (``entities.entity_mismatch`` vs the top windows): count, missing count and share; an
  entity found elsewhere in the sample's ``contexts`` (a date in a header) is not missing;
* polarity and scope: ``negation_mismatch``/``scope_mismatch`` against the best window;
* shape: log token count, content-lemma count, Cyrillic flag;
* the embedding interaction block of (claim u, best window v): ``|u - v|`` and ``u * v``, 1,024
  numbers named ``absdiff_0..511``, ``prod_0..511`` (InferSent-style NLI features). The head
  projects this block to a few components (PCA fitted in training, shipped with the weights), so
  the head stays small and well-conditioned.

Missing evidence (no contexts) gives zeros for every evidence feature and ``has_evidence = 0``.

    >>> import numpy as np
    >>> u = np.eye(512, dtype=np.float32)[0]
    >>> x = claim_features("Гарантия 3 года", [], claim_vec=u, evidence_vecs=np.zeros((0, 512)), lang="ru")
    >>> x.shape == (len(FEATURE_NAMES),), float(x[FEATURE_NAMES.index("has_evidence")])
    (True, 0.0)
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from collections.abc import Collection, Mapping, Sequence

import numpy as np

from ragauge.judges.offline.entities import entity_mismatch
from ragauge.judges.offline.evidence import Evidence
from ragauge.judges.offline.lemmas import analyze, content_lemmas
from ragauge.judges.offline.negation import negation_mismatch, negations
from ragauge.judges.offline.overlap import overlap
from ragauge.judges.offline.scope import scope_mismatch
from ragauge.judges.offline.numbers import FEATURE_NAMES as NUMBER_FEATURES
from ragauge.judges.offline.numbers import NumberCheck, compare_quantities, quantity_features
from ragauge.judges.offline.quantities import extract_quantities

DIM = 512

SCALAR_NAMES: tuple[str, ...] = (
    "has_evidence",
    "sim_best",
    "sim_max",
    "sim_mean3",
    "sim_centroid",
    "lexical_best",
    "score_best",
    "recall_best",
    "precision_best",
    "jaccard_best",
    "weighted_recall_best",
    "rare_recall_best",
    "recall_top",
    "weighted_recall_top",
    "rare_recall_top",
    "novel_share",
    "n_novel",
    *(f"num_{name}" for name in NUMBER_FEATURES),
    "n_entities",
    "n_entities_missing",
    "share_entities_missing",
    "negation_mismatch",
    "claim_negated",
    "scope_mismatch",
    "log_tokens",
    "n_content",  # content lemmas outside quantities
    "cyrillic",
    "clean_sim",  # sim_centroid when no contradiction signal fires (numbers, negation, scope, entities), else 0
    "stem4_recall_all",  # claim content lemmas (verbs too) sharing a 4-letter prefix with some context lemma
)
INTERACTION_NAMES: tuple[str, ...] = tuple(f"absdiff_{i}" for i in range(DIM)) + tuple(f"prod_{i}" for i in range(DIM))
FEATURE_NAMES: tuple[str, ...] = SCALAR_NAMES + INTERACTION_NAMES
N_SCALAR = len(SCALAR_NAMES)


def interaction(claim_vec: np.ndarray, evidence_vec: np.ndarray | None) -> np.ndarray:
    """``[|u - v|, u * v]`` (1,024 float32); zeros without evidence."""
    if evidence_vec is None:
        return np.zeros(2 * DIM, dtype=np.float32)
    u = np.asarray(claim_vec, dtype=np.float32)
    v = np.asarray(evidence_vec, dtype=np.float32)
    return np.concatenate([np.abs(u - v), u * v])


def word_lemmas(text: str, lang: str | None = None) -> list[str]:
    """Content lemmas of ``text`` outside its quantities: "стоит 1 150 руб. за м²" -> ["стоить"].

    Russian verb forms are skipped too (see ``_VERB_POS``). Quantities (numbers, units, number words: "3 года", "180 тысяч рублей") are judged by the
    number check, which knows 3 года == 36 месяцев; counting "год" or "рубль" as missing words
    too would punish exactly the equivalent forms the number check accepts.
    """
    spans = [(q.start, q.end) for q in extract_quantities(text, lang)]
    skip = _NUMERAL_WORDS | (_UNIT_WORDS if spans else frozenset())
    spans += citation_spans(text)
    return [t.lemma for t in analyze(text)
            if not t.is_stop and not t.is_number and t.pos not in _VERB_POS and t.lemma not in skip
            and not any(a <= t.start < b for a, b in spans)]


# A source cited by its date: "(прайс-лист от 01.03.2026)", "по прайсу от 1 марта 2026 г.", "according to the
# price list of 01.03.2026". The date is checked as a number; the name of the document is where the answer
# says it read the fact, not a fact of its own, so its words are never "not in context".
_CITATION_RE = re.compile(
    r"(?<![\w-])(?:(?:по|согласно|в|из|см\.)\s+)?(?:прайс[\w-]*|договор[а-яё]*|приказ[а-яё]*|регламент[а-яё]*|"
    r"смет[а-яё]*|редакци[а-яё]*|ред\.|документ[а-яё]*|(?:(?:according\s+to|per|in)\s+)?(?:the\s+)?"
    r"(?:price\s*list|contract|document|revision))\s+(?:№\s*\S+\s+)?(?:от|of|dated)\s+(?=\d)",
    re.IGNORECASE)


def citation_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of the document words of citations by date ("прайс-лист от 01.03.2026" -> "прайс-лист от ")."""
    if "от" not in text and "of" not in text and "dated" not in text:
        return []
    return [m.span() for m in _CITATION_RE.finditer(text)]


# "одна розетка" is "розетка ... за шт."; "400 кг на квадратный метр" is "400 кг/м²": with a quantity in the
# claim these words belong to it even where the extractor leaves them outside its span.
_NUMERAL_WORDS = frozenset({"один", "одна", "одно"})
# Modal predicates ("нужно подать", "можно перенести"): the fact is the verb they govern, which the
# embedding judges; as words of their own they are never named "not in context" in a reason
# (verifier._novel_words). Left in the head's features: leaving them out there cost the dev split (model card).
MODAL_WORDS = frozenset({"нужно", "надо", "необходимо", "можно", "следует", "нужный", "необходимый"})


@lru_cache(maxsize=256)
def _prefixes(known: frozenset[str], prefix: int) -> frozenset[str]:
    return frozenset(k[:prefix] for k in known if len(k) >= prefix)
_UNIT_WORDS = frozenset({"квадратный", "кубический", "погонный", "метр", "штука", "square", "cubic", "metre", "meter"})


def stem_recall(claim: str, known: Collection[str], prefix: int = 4) -> float:
    """Share of the claim's content lemmas (verbs included, numbers not) that share a ``prefix``-letter
    prefix with some lemma of ``known`` (derivations: "покрывать"/"покрытие", "укладывать"/"укладка")."""
    lemmas = {t.lemma for t in analyze(claim) if not t.is_stop and not t.is_number and t.lemma not in _NUMERAL_WORDS}
    if not lemmas:
        return 0.0
    stems = _prefixes(known, prefix) if isinstance(known, frozenset) else {k[:prefix] for k in known if len(k) >= prefix}
    hit = sum(1 for lemma in lemmas if lemma in known or (len(lemma) >= prefix and lemma[:prefix] in stems))
    return hit / len(lemmas)


# Russian verbs and verb forms are left to the embedding: answers paraphrase them freely
# ("стоит" for "—", "укладывают" for "укладка"), while invented facts bring new nouns, names and numbers.
_VERB_POS = frozenset({"VERB", "INFN", "GRND", "PRTF", "PRTS"})


# Words an answer puts for the document's word with the same meaning (lemmas; both directions). Kept
# short on purpose: each pair was seen in answers that rephrase a policy, and none changes a fact.
_SAME_MEANING: tuple[tuple[str, ...], ...] = (
    ("сотрудник", "работник"), ("рубеж", "заграничный", "зарубежный"), ("прошлый", "предыдущий"),
    ("суммарно", "суммарный", "совокупный", "общий"), ("почасово", "почасовой", "час"),
    ("стоимость", "цена"), ("оплата", "плата"), ("бесплатно", "бесплатный"), ("заявление", "заявка"),
    ("employee", "staff"), ("cost", "price"),
)
_SAME_INDEX: dict[str, tuple[str, ...]] = {w: group for group in _SAME_MEANING for w in group}


def align(claim: Sequence[str], known: Collection[str]) -> list[str]:
    """Map each claim lemma absent from ``known`` to a known lemma with the same 5-letter stem, to a
    hyphenated known lemma it is a part of ("терапевт" -> "врач-терапевт"), or to a known word of the
    same meaning (``_SAME_MEANING``: "сотрудник" -> "работник").

    pymorphy3 lemmatises by part of speech, so "гарантия"/"гарантийный", "бетон"/"бетонный" do not
    meet; a shared prefix of 5+ letters (both words 5+ letters) is taken as the same word. Of several
    known lemmas with one prefix the alphabetically first is taken, whatever the order of ``known`` (a
    set's order changes from process to process, and so did a few features before).

    >>> align(["терапевт", "сотрудник", "гарантийный"], {"врач-терапевт", "работник", "гарантия"})
    ['врач-терапевт', 'работник', 'гарантия']
    """
    by_prefix: dict[str, str] = {}
    by_part: dict[str, str] = {}
    for lemma in known:
        if len(lemma) >= 5 and lemma.isalpha():
            prefix = lemma[:5]
            if lemma < by_prefix.get(prefix, "\uffff"):
                by_prefix[prefix] = lemma
        elif "-" in lemma:
            for part in lemma.split("-"):
                if len(part) >= 4 and lemma < by_part.get(part, "\uffff"):
                    by_part[part] = lemma
    out = []
    for lemma in claim:
        if lemma in known:
            out.append(lemma)
            continue
        same = next((w for w in sorted(_SAME_INDEX.get(lemma, ())) if w in known), None)
        if same is not None:
            out.append(same)
        elif lemma in by_part:
            out.append(by_part[lemma])
        elif len(lemma) >= 5:
            out.append(by_prefix.get(lemma[:5], lemma))
        else:
            out.append(lemma)
    return out


def claim_features(
    claim: str,
    evidences: Sequence[Evidence],
    *,
    claim_vec: np.ndarray,
    evidence_vecs: np.ndarray,
    lang: str | None,
    idf: Mapping[str, float] | None = None,
    context_lemmas: Collection[str] | None = None,
    number_check: NumberCheck | None = None,
    contexts: Sequence[str] | None = None,
) -> np.ndarray:
    """The feature vector of one claim (order: :data:`FEATURE_NAMES`).

    ``evidences`` are the claim's windows, best first, and ``evidence_vecs`` their embeddings
    (same order, L2-normalised). ``idf`` is the BM25 idf of the sample's context sentences
    (``overlap.idf_table``); ``context_lemmas`` the content lemmas of all its contexts (for
    ``novel_share``; without it the union of the windows stands in). ``number_check``: pass the
    result of ``compare_quantities(claim, [e.text for e in evidences])`` if already computed.
    ``contexts``: the sample's whole contexts; a claim entity or date found in one of them is not
    counted missing even when the windows lack it.
    """
    values = dict.fromkeys(SCALAR_NAMES, 0.0)
    tokens = analyze(claim)
    lemmas = word_lemmas(claim, lang)
    values["log_tokens"] = math.log1p(len(tokens))
    values["n_content"] = float(len(set(lemmas)))
    values["cyrillic"] = float(any("\u0400" <= ch <= "\u04ff" for ch in claim))
    values["claim_negated"] = float(bool(negations(claim)))
    texts = [e.text for e in evidences]
    check = number_check if number_check is not None else compare_quantities(claim, texts, lang=lang)
    for name, value in quantity_features(check).items():
        values[f"num_{name}"] = value

    best_vec = None
    if evidences:
        vecs = np.asarray(evidence_vecs, dtype=np.float32)
        u = np.asarray(claim_vec, dtype=np.float32)
        best = evidences[0]
        best_vec = vecs[0]
        sims = [e.sim for e in evidences]
        centroid = vecs.mean(axis=0)
        norm = float(np.linalg.norm(centroid))
        values.update(
            has_evidence=1.0,
            sim_best=best.sim,
            sim_max=max(sims),
            sim_mean3=float(np.mean(sims[:3])),
            sim_centroid=float(u @ centroid) / norm if norm > 0 else 0.0,
            lexical_best=best.lexical,
            score_best=best.score,
        )
        best_lemmas = content_lemmas(best.text)
        o = overlap(align(lemmas, set(best_lemmas)), best_lemmas, idf=idf)
        values.update(
            recall_best=o.recall,
            precision_best=o.precision,
            jaccard_best=o.jaccard,
            weighted_recall_best=o.weighted_recall,
            rare_recall_best=o.rare_recall,
        )
        union = [lemma for text in texts for lemma in content_lemmas(text)]
        o_top = overlap(align(lemmas, set(union)), union, idf=idf)
        values.update(recall_top=o_top.recall, weighted_recall_top=o_top.weighted_recall, rare_recall_top=o_top.rare_recall)
        joined = "\n".join(texts)
        n_ent, n_missing = entity_mismatch(claim, joined, lang=lang, background=contexts)
        values.update(
            n_entities=float(n_ent),
            n_entities_missing=float(n_missing),
            share_entities_missing=n_missing / n_ent if n_ent else 0.0,
            negation_mismatch=float(min(negation_mismatch(claim, best.text), 3)),
            scope_mismatch=float(min(scope_mismatch(claim, best.text), 3)),
        )
        known = context_lemmas if context_lemmas is not None else set(union)
    else:
        known = context_lemmas if context_lemmas is not None else set()
    if evidences:
        contra = (values["num_share_contradicted"] > 0 or values["negation_mismatch"] > 0
                  or values["scope_mismatch"] > 0 or values["n_entities_missing"] > 0)
        values["clean_sim"] = 0.0 if contra else values["sim_centroid"]
        values["stem4_recall_all"] = stem_recall(claim, known)
    distinct = set(align(lemmas, known))
    if distinct:
        novel = [lemma for lemma in distinct if lemma not in known]
        values["novel_share"] = len(novel) / len(distinct)
        values["n_novel"] = float(min(len(novel), 10))
    scalars = np.array([values[name] for name in SCALAR_NAMES], dtype=np.float32)
    return np.concatenate([scalars, interaction(claim_vec, best_vec)])


__all__ = ["FEATURE_NAMES", "INTERACTION_NAMES", "MODAL_WORDS", "N_SCALAR", "SCALAR_NAMES", "align", "claim_features", "interaction", "stem_recall", "word_lemmas"]
