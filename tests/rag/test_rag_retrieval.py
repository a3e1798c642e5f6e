"""Hybrid retrieval over the demo knowledge base with the real bm25s and USE embedder."""

from __future__ import annotations

import numpy as np
import pytest

from ragauge.errors import ConfigError, InputError
from ragauge.rag import HybridIndex


def test_filters_are_applied_before_ranking(demo_rag):
    # Unfiltered, the plaster price tables win; filtered to the regulations, we still get k results
    # (a post-filter of the top 5 would return at most the one regulation chunk in it).
    top = demo_rag.retrieve("машинная штукатурка стен цена", k=5)
    assert top[0].metadata["doc_id"].startswith("price-list")
    assert sum(c.metadata["doc_id"] == "tech-regulations" for c in top) <= 1
    got = demo_rag.retrieve("машинная штукатурка стен цена", {"doc_id": "tech-regulations"}, k=5)
    assert len(got) == 5 and {c.metadata["doc_id"] for c in got} == {"tech-regulations"}
    assert got[0].id in ("spec-009", "spec-010")  # the plastering sections of the regulation


def test_filter_with_several_values_and_version(demo_rag):
    got = demo_rag.retrieve("облицовка стен ГКЛ в один слой", {"version": ["2025-09"]}, k=3)
    assert got[0].id == "price2025-002"
    assert all(c.metadata["version"] == "2025-09" for c in got)
    with pytest.raises(ConfigError, match="not a field"):
        demo_rag.retrieve("цена", {"city": "Москва"})


def test_scores_are_calibrated_probabilities_in_rank_order(demo_rag):
    got = demo_rag.retrieve("Какой минимальный уклон крыши под металлочерепицу?", k=5)
    assert got[0].id == "spec-014"
    scores = [c.score for c in got]
    hybrids = [c.metadata["hybrid"] for c in got]
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert hybrids == sorted(hybrids, reverse=True) and scores == sorted(scores, reverse=True)
    cal = demo_rag.index.calibration
    for c in got:  # the hybrid score is the documented weighted sum of its two parts
        expected = cal.alpha * max(0.0, c.metadata["cosine"]) + (1 - cal.alpha) * c.metadata["lexical"]
        assert c.metadata["hybrid"] == pytest.approx(expected, abs=2e-4)


def test_fusion_dense_part_answers_a_question_in_another_language(demo_rag):
    # English words share no lemma with the Russian KB: BM25 alone scores every chunk 0.
    comp = demo_rag.index.components("What is the minimum roof slope for metal tiles?")
    assert float(np.max(comp["lexical"])) == 0.0
    got = demo_rag.retrieve("What is the minimum roof slope for metal tiles?", k=5)
    assert "spec-014" in [c.id for c in got]


def test_fusion_lexical_part_finds_an_exact_code(demo_rag):
    got = demo_rag.retrieve("кирпич М150", k=3)
    assert got[0].id in ("price-015", "price2025-006") and got[0].metadata["lexical"] > 0.5


def test_russian_morphology_forms_match_one_lemma(demo_rag):
    forms = ["штукатурка", "штукатурки", "штукатурку", "штукатуркой"]
    lex = [demo_rag.index.components(f)["lexical"] for f in forms]
    for other in lex[1:]:
        np.testing.assert_allclose(other, lex[0])
    assert lex[0].max() > 0


def test_index_rejects_bad_records():
    with pytest.raises(InputError, match="duplicate chunk id"):
        HybridIndex([{"id": "a", "text": "x"}, {"id": "a", "text": "y"}])
    with pytest.raises(InputError, match="no text"):
        HybridIndex([{"id": "a", "text": ""}])
    with pytest.raises(InputError, match="no chunks"):
        HybridIndex([])


def test_kb_file_errors_name_the_line(tmp_path):
    from ragauge.rag.kb import read_kb_jsonl

    path = tmp_path / "kb.jsonl"
    path.write_text('{"id": "a", "text": "ok"}\n{"id": "b"}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"kb.jsonl, line 2, field 'text'"):
        read_kb_jsonl(path)


def test_save_and_load_give_the_same_results(demo_rag, tmp_path):
    from ragauge.rag import ReferenceRAG

    demo_rag.save(tmp_path / "index")
    loaded = ReferenceRAG.open(tmp_path / "index")
    q = "Сколько дней у заказчика на подписание акта?"
    assert [(c.id, c.score) for c in loaded.retrieve(q)] == [(c.id, c.score) for c in demo_rag.retrieve(q)]


def test_a_saved_index_refuses_another_embedding_model(demo_rag, tmp_path):
    import json

    from ragauge.rag import ReferenceRAG

    folder = demo_rag.save(tmp_path / "index")
    meta = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    meta["model_id"] = "some-other-model"
    (folder / "index.json").write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(ConfigError, match="some-other-model.*rebuild the index"):
        ReferenceRAG.open(folder)


def test_shipped_calibration_is_what_the_documented_command_fits(demo_rag):
    # `python -m ragauge.rag.fit --write` on the demo must reproduce score_calibration.json.
    import ragauge
    from ragauge.demo import samples_path
    from ragauge.rag import default_calibration
    from ragauge.rag.fit import fit_score_calibration

    samples = [s for s in ragauge.load(str(samples_path())) if "~" not in s.id]
    cal, report = fit_score_calibration(demo_rag.index, samples, k=5)
    shipped = default_calibration()
    assert (cal.alpha, cal.a, cal.b, cal.n_pairs) == (shipped.alpha, shipped.a, shipped.b, shipped.n_pairs)
    assert report["alpha_table"][cal.alpha]["recall"] >= report["alpha_table"]["rrf"]["recall"]
