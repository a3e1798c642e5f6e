"""Structural checks of the bundled demo data (src/ragauge/demo/data) and of its builder."""

from __future__ import annotations

import importlib.util
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from ragauge.data.schema import SAMPLE_FIELDS
from ragauge.demo import DEMO_DIR, kb_path, samples_path

ROOT = Path(__file__).resolve().parents[2]
BUILDER = ROOT / "scripts" / "build_demo.py"

KB_FIELDS = ("id", "doc_id", "title", "version", "section", "text")
TAGS = {
    "exact_numbers",
    "paraphrase",
    "long_section",
    "table",
    "document_version",
    "unanswerable",
    "badly_formulated",
    "multi_context",
    "sensitive",
    "noisy_variant",
}
LABELS = {
    "faithful",
    "wrong_number",
    "wrong_unit",
    "wrong_scope",
    "unsupported",
    "refusal_correct",
    "refusal_wrong",
    "off_topic",
    "outdated_edition",
    "self_contradiction",
    "wrong_source",
}
OK_LABELS = {"faithful", "refusal_correct"}
METADATA_KEYS = {"answer_label", "error_note", "grounded", "equivalent_form"}
NOISY_METADATA_KEYS = METADATA_KEYS | {"noise_of", "n_noise", "noise_robust"}
#: 43 original questions + 3 for the hallucination taxonomy (q44 outdated edition, q45 self-contradiction,
#: q46 faithful to a wrong source, with a trusted source)
N_CLEAN = 46
CONTEXT_METADATA_KEYS = {"doc_id", "title", "version"}


def is_noisy(s: dict) -> bool:
    return "noise_of" in s["metadata"]


def read_jsonl(path: Path) -> list[dict]:
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        assert line.strip(), f"{path.name}:{n}: empty line"
        row = json.loads(line)
        assert isinstance(row, dict), f"{path.name}:{n}: not an object"
        rows.append(row)
    return rows


@pytest.fixture(scope="module")
def kb() -> list[dict]:
    return read_jsonl(kb_path())


@pytest.fixture(scope="module")
def kb_by_id(kb: list[dict]) -> dict[str, dict]:
    return {r["id"]: r for r in kb}


@pytest.fixture(scope="module")
def samples() -> list[dict]:
    return read_jsonl(samples_path())


@pytest.fixture(scope="module")
def clean(samples) -> list[dict]:
    return [s for s in samples if not is_noisy(s)]


@pytest.fixture(scope="module")
def noisy(samples) -> list[dict]:
    return [s for s in samples if is_noisy(s)]


@pytest.fixture(scope="module")
def by_id(samples) -> dict[str, dict]:
    return {s["id"]: s for s in samples}


def load_builder():
    spec = importlib.util.spec_from_file_location("build_demo", BUILDER)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------------------------------------- paths


def test_paths_point_into_the_package():
    assert samples_path().parent == kb_path().parent == DEMO_DIR
    assert samples_path().is_file() and kb_path().is_file()


# --------------------------------------------------------------------------------------------- the KB


def test_kb_records_have_exactly_the_fields(kb):
    for r in kb:
        assert tuple(r) == KB_FIELDS, r.get("id")
        for key in ("id", "doc_id", "title", "section", "text"):
            assert isinstance(r[key], str) and r[key].strip(), (r["id"], key)
        assert r["version"] is None or isinstance(r["version"], str), r["id"]


def test_kb_ids_unique_and_sizes(kb):
    ids = [r["id"] for r in kb]
    assert len(ids) == len(set(ids))
    assert 45 <= len(kb) <= 70
    assert 3 <= len({r["doc_id"] for r in kb}) <= 5
    for r in kb:
        assert 40 <= len(r["text"].split()) <= 120, (r["id"], len(r["text"].split()))


def test_kb_documents_are_consistent(kb):
    by_doc: dict[str, set] = {}
    for r in kb:
        by_doc.setdefault(r["doc_id"], set()).add((r["title"], r["version"]))
    for doc, meta in by_doc.items():
        assert len(meta) == 1, f"{doc}: chunks disagree on title/version"
    versions = {r["version"] for r in kb if r["doc_id"].startswith("price-list")}
    assert len(versions) == 2, "the demo needs an old and a new edition of the price list"


def test_kb_is_russian(kb):
    for r in kb:
        letters = re.findall(r"[A-Za-zА-Яа-яЁё]", r["text"])
        cyrillic = sum(1 for c in letters if re.match(r"[А-Яа-яЁё]", c))
        assert cyrillic / len(letters) > 0.85, r["id"]


def test_table_chunks_keep_their_header(kb):
    tables = [r for r in kb if " | " in r["text"]]
    assert len(tables) >= 6
    for r in tables:
        header = r["text"].splitlines()[0]
        assert "Наименование" in header and "Цена" in header, r["id"]


# ---------------------------------------------------------------------------------------- the samples


def test_samples_have_the_canonical_fields(samples):
    for s in samples:
        assert tuple(s) == SAMPLE_FIELDS, s.get("id")
        assert isinstance(s["question"], str) and s["question"].strip()
        assert isinstance(s["answer"], str) and s["answer"].strip()
        assert isinstance(s["reference"], str) and s["reference"].strip()
        assert s["language"] == "ru"
        keys = NOISY_METADATA_KEYS if is_noisy(s) else METADATA_KEYS
        assert set(s["metadata"]) - {"trusted"} == keys, s["id"]


def test_sample_ids_unique_and_count(samples, clean, noisy):
    ids = [s["id"] for s in samples]
    assert len(ids) == len(set(ids))
    assert ids == sorted(ids)  # each noisy variant right after its clean sample
    assert len(clean) == N_CLEAN
    assert 8 <= len(noisy) <= 12


def test_ids_exist_in_kb_and_contexts_match(clean, kb_by_id):
    for s in clean:
        retrieved = s["retrieved_ids"]
        assert len(retrieved) == len(set(retrieved)) and len(retrieved) in (5, 10), s["id"]
        assert set(retrieved) <= set(kb_by_id), s["id"]
        assert set(s["relevant_ids"]) <= set(kb_by_id), s["id"]
        ctx_ids = [c["id"] for c in s["contexts"]]
        assert ctx_ids == retrieved[: len(ctx_ids)], f"{s['id']}: contexts must be the top of the ranking"
        assert len(ctx_ids) == 5
        for c in s["contexts"]:
            assert set(c) == {"id", "text", "score", "metadata"}
            assert c["text"] == kb_by_id[c["id"]]["text"], (s["id"], c["id"])
            chunk = kb_by_id[c["id"]]
            assert c["metadata"] == {k: chunk[k] for k in CONTEXT_METADATA_KEYS}, (s["id"], c["id"])
        scores = [c["score"] for c in s["contexts"]]
        assert all(0 <= x <= 1 for x in scores) and scores == sorted(scores, reverse=True), s["id"]


def test_relevance_grades(clean):
    for s in clean:
        assert all(g in (1, 2) for g in s["relevant_ids"].values()), s["id"]
        if s["relevant_ids"]:
            assert 2 in s["relevant_ids"].values(), f"{s['id']}: no chunk answers it directly"
        assert ("unanswerable" in s["tags"]) == (s["relevant_ids"] == {}), s["id"]


def test_tags(samples):
    counts: Counter[str] = Counter()
    for s in samples:
        own = s["tags"][:-1] if is_noisy(s) else s["tags"]
        assert ("noisy_variant" in s["tags"]) == is_noisy(s), s["id"]
        assert 1 <= len(own) <= 3 and len(set(s["tags"])) == len(s["tags"]), s["id"]
        assert set(s["tags"]) <= TAGS, s["id"]
        counts.update(s["tags"])
    assert set(counts) == TAGS, f"every slice needs samples, missing: {TAGS - set(counts)}"
    assert counts["unanswerable"] >= 4 and counts["badly_formulated"] >= 4 and counts["multi_context"] >= 3


def test_timings_are_plausible(samples):
    for s in samples:
        lat, ret, ttft = s["latency_ms"], s["retrieval_ms"], s["ttft_ms"]
        assert 0 < ret < 1000 and 0 < ttft < 2000 and lat > ret + ttft, s["id"]
    lat = sorted(s["latency_ms"] for s in samples)
    assert 1200 <= lat[len(lat) // 2] <= 2800
    assert 1 <= sum(x > 3000 for x in lat) <= len(lat) // 5


# ------------------------------------------------------------------------------------- the gold labels


def test_answer_labels(samples, clean):
    for rows in (samples, clean):
        labels = Counter(s["metadata"]["answer_label"] for s in rows)
        assert set(labels) <= LABELS
        bad = sum(n for label, n in labels.items() if label not in OK_LABELS)
        assert 0.25 <= bad / len(rows) <= 0.45, labels
    # Every kind of error the demo is about appears at least once among the clean samples.
    labels = Counter(s["metadata"]["answer_label"] for s in clean)
    assert set(labels) == LABELS, f"missing labels: {LABELS - set(labels)}"


def test_label_metadata_is_consistent(samples):
    for s in samples:
        m = s["metadata"]
        ok = m["answer_label"] in OK_LABELS
        assert (m["error_note"] is None) == ok, s["id"]
        assert isinstance(m["grounded"], bool) and isinstance(m["equivalent_form"], bool), s["id"]
        if ok:
            assert m["grounded"], s["id"]
        if m["equivalent_form"]:
            assert m["answer_label"] == "faithful", s["id"]
        if is_noisy(s):
            assert m["noise_robust"] is ok, s["id"]
            assert m["answer_label"] != "refusal_correct", s["id"]
            continue
        if m["answer_label"] == "refusal_correct":
            assert not s["relevant_ids"], s["id"]
        if m["answer_label"] == "refusal_wrong":
            assert s["relevant_ids"], s["id"]


def test_faithful_answers_saw_the_evidence(samples, by_id):
    """A correct grounded answer to an answerable question needs a directly relevant chunk in its contexts
    (for a noisy variant: a chunk relevant to its clean sample)."""
    for s in samples:
        if s["metadata"]["answer_label"] == "faithful":
            relevant = by_id[s["metadata"]["noise_of"]]["relevant_ids"] if is_noisy(s) else s["relevant_ids"]
            ctx = {c["id"] for c in s["contexts"]}
            assert any(relevant.get(c) == 2 for c in ctx), s["id"]


def test_equivalent_forms_exist(samples):
    """Correct answers worded differently from the source: the cases a judge must not flag."""
    assert sum(s["metadata"]["equivalent_form"] for s in samples) >= 3


# ------------------------------------------------------------------------------------ the noisy variants


def test_noisy_variants_point_to_correct_clean_samples(noisy, by_id):
    for s in noisy:
        m = s["metadata"]
        parent = by_id.get(m["noise_of"])
        assert parent is not None and not is_noisy(parent), s["id"]
        assert s["id"] == parent["id"] + "~noise" and m["n_noise"] == 2, s["id"]
        assert parent["metadata"]["answer_label"] == "faithful" and parent["relevant_ids"], s["id"]
        for key in ("question", "reference", "language"):
            assert s[key] == parent[key], (s["id"], key)
        assert s["tags"] == parent["tags"] + ["noisy_variant"], s["id"]
        assert s["answer"] != parent["answer"], f"{s['id']}: the noisy answer is its own generation"


def test_noisy_variants_are_not_ranking_samples(noisy):
    """Variants are no retrieval event: no ranking of their own, no relevance judgments, so ranking metrics
    leave them unscored and the demo's retrieval figures stay those of the 39 clean answerable questions."""
    from ragauge.data.loaders import load
    from ragauge.metrics.ranking import unscored_reason

    for s in noisy:
        assert s["retrieved_ids"] is None and s["relevant_ids"] is None, s["id"]
    loaded = {x.id: x for x in load(samples_path())}
    for s in noisy:
        assert unscored_reason(loaded[s["id"]]) == "no relevant_ids", s["id"]


def test_noisy_contexts_are_the_clean_ones_plus_distractors(noisy, by_id, kb_by_id):
    for s in noisy:
        parent = by_id[s["metadata"]["noise_of"]]
        kept = [c for c in s["contexts"] if not c["metadata"].get("noise")]
        inserted = [c for c in s["contexts"] if c["metadata"].get("noise")]
        assert kept == parent["contexts"], f"{s['id']}: the clean contexts, in their order, with their scores"
        assert len(inserted) == s["metadata"]["n_noise"], s["id"]
        ids = [c["id"] for c in s["contexts"]]
        assert len(ids) == len(set(ids)), s["id"]
        for c in inserted:
            assert set(c) == {"id", "text", "score", "metadata"} and c["score"] is None, (s["id"], c["id"])
            assert c["metadata"] == {"noise": True}, (s["id"], c["id"])
            assert c["text"] == kb_by_id[c["id"]]["text"], (s["id"], c["id"])
            assert c["id"] not in parent["relevant_ids"], f"{s['id']}: distractor {c['id']} is relevant to {parent['id']}"


def test_noisy_variants_come_from_make_noisy_variants(noisy, clean):
    """The shipped contexts are what ``ragauge.data.noise.make_noisy_variants`` (seed of the builder) draws."""
    from ragauge.data.loaders import load
    from ragauge.data.noise import make_noisy_variants

    seed = load_builder().NOISE_SEED
    clean_ids = {s["id"] for s in clean}
    loaded = [x for x in load(samples_path()) if x.id in clean_ids]
    drawn = {v.id: v for v in make_noisy_variants(loaded, n_noise=2, seed=seed)}
    for s in noisy:
        assert [c["id"] for c in s["contexts"]] == [c.id for c in drawn[s["id"]].contexts], s["id"]


def test_noisy_variants_mix_robust_and_distracted_answers(noisy):
    robust = [s for s in noisy if s["metadata"]["noise_robust"]]
    distracted = [s for s in noisy if not s["metadata"]["noise_robust"]]
    assert 6 <= len(robust) <= 8 and 3 <= len(distracted) <= 4
    for s in distracted:
        # the error comes from an inserted chunk: its note names it
        inserted = [c["id"] for c in s["contexts"] if c["metadata"].get("noise")]
        assert any(cid in s["metadata"]["error_note"] for cid in inserted), s["id"]


def test_samples_load_through_ragauge(samples):
    from ragauge.data.loaders import load

    loaded = load(samples_path())
    assert [s.id for s in loaded] == [s["id"] for s in samples]
    assert loaded[0].metadata["answer_label"] == samples[0]["metadata"]["answer_label"]


# ------------------------------------------------------------------------------------------- the build


def test_rebuild_is_byte_identical(tmp_path):
    builder = load_builder()
    builder.build(tmp_path)
    for name in ("kb.jsonl", "samples.jsonl"):
        assert (tmp_path / name).read_bytes() == (DEMO_DIR / name).read_bytes(), f"{name} is stale: run scripts/build_demo.py"


def test_retrieval_quality_is_in_the_intended_range(tmp_path):
    figures = load_builder().build(tmp_path)
    assert 0.75 <= figures["hit_rate@5"] <= 0.85
    assert 0.60 <= figures["recall@5"] <= 0.70
    assert 0.60 <= figures["mrr@10"] <= 0.75  # 0.720: the three taxonomy cases have their key chunk first


def test_retrieval_figures_agree_with_trec_eval(samples, tmp_path):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    figures = load_builder().build(tmp_path)
    answerable = [s for s in samples if s["relevant_ids"]]
    qrels = {s["id"]: {d: int(g) for d, g in s["relevant_ids"].items()} for s in answerable}
    run = {s["id"]: {d: float(len(s["retrieved_ids"]) - i) for i, d in enumerate(s["retrieved_ids"])} for s in answerable}
    per_query = pytrec_eval.RelevanceEvaluator(qrels, {"recall.5", "recip_rank", "ndcg_cut.5", "ndcg_cut.10"}).evaluate(run)

    def mean(measure: str) -> float:
        return sum(q[measure] for q in per_query.values()) / len(per_query)

    assert figures["recall@5"] == pytest.approx(mean("recall_5"))
    assert figures["mrr@10"] == pytest.approx(mean("recip_rank"))
    assert figures["ndcg@5"] == pytest.approx(mean("ndcg_cut_5"))
    assert figures["ndcg@10"] == pytest.approx(mean("ndcg_cut_10"))
