"""Best evidence windows for claims: ranking, offsets, batching, cross-lingual."""

import hashlib

import numpy as np
import pytest

from ragauge.judges.offline.claims import Claim, extract_claims
from ragauge.judges.offline.embed import Embedder
from ragauge.judges.offline.evidence import best_evidence, best_evidence_many

PRICE_LIST = (
    "Прайс-лист на кровельные работы (2024 г.). Монтаж металлочерепицы — 1 150 руб. за м². "
    "Демонтаж старого покрытия — 300 руб. за м².\nВывоз мусора оплачивается отдельно. Минимальный заказ — 50 м²."
)
CONTRACT = (
    "Договор подряда № 17. 4.1. Подрядчик обязуется выполнить работы в срок от 3 до 5 рабочих дней. "
    "4.2. Любая из сторон вправе расторгнуть договор, уведомив другую сторону за 30 дней.\n"
    "Гарантийный срок на кровельные работы составляет 5 лет с даты подписания акта."
)
SPEC_EN = (
    "Roof warranty terms. The contractor provides a 5-year warranty for roofing works. "
    "The warranty does not cover damage caused by the customer."
)
CONTEXTS = [PRICE_LIST, CONTRACT, SPEC_EN]


@pytest.fixture(scope="module")
def embedder():
    return Embedder(threads=1)


class HashEmbedder:
    """Deterministic pseudo-random unit vectors (no model): isolates the lexical part, counts calls."""

    def __init__(self):
        self.calls = []

    def embed(self, texts):
        self.calls.append(list(texts))
        out = np.empty((len(texts), 64), dtype=np.float32)
        for i, text in enumerate(texts):
            seed = int.from_bytes(hashlib.sha1(text.encode()).digest()[:8], "little")
            vec = np.random.default_rng(seed).standard_normal(64).astype(np.float32)
            out[i] = vec / np.linalg.norm(vec)
        return out


def _claim(text):
    return Claim(text, 0, len(text))


def test_finds_the_right_sentence_with_offsets(embedder):
    claims = extract_claims(
        "Монтаж металлочерепицы стоит 1 150 руб. за м², а гарантия на кровельные работы составляет 10 лет."
    )
    assert len(claims) == 2
    result = best_evidence(claims, CONTEXTS, embedder=embedder, top_n=3)
    assert [len(r) for r in result] == [3, 3]
    price, warranty = result
    assert price[0].context_index == 0 and price[0].text == "Монтаж металлочерепицы — 1 150 руб. за м²."
    assert warranty[0].context_index == 1 and warranty[0].text.startswith("Гарантийный срок на кровельные работы")
    for per_claim in result:
        assert [e.score for e in per_claim] == sorted((e.score for e in per_claim), reverse=True)
        for e in per_claim:
            assert CONTEXTS[e.context_index][e.start : e.end] == e.text
            assert -1.0 <= e.sim <= 1.0 and 0.0 <= e.lexical <= 1.0


def test_returned_sim_is_exact_cosine(embedder):
    claim = _claim("Любая из сторон может расторгнуть договор, предупредив за 30 дней.")
    result = best_evidence([claim], CONTEXTS, embedder=embedder, top_n=3)[0]
    vecs = embedder.embed([claim.text] + [e.text for e in result])
    for e, v in zip(result, vecs[1:], strict=True):
        assert e.sim == pytest.approx(float(vecs[0] @ v), abs=1e-5)
    assert result[0].context_index == 1 and "Любая из сторон" in result[0].text


def test_cross_lingual_evidence(embedder):
    claim = _claim("Подрядчик даёт гарантию 5 лет на кровельные работы.")
    result = best_evidence([claim], [SPEC_EN], embedder=embedder, top_n=1)[0]
    assert result[0].text == "The contractor provides a 5-year warranty for roofing works."


def test_windows_of_one_context_do_not_overlap():
    emb = HashEmbedder()
    claim = _claim("Гарантийный срок договора подряда 5 лет")
    result = best_evidence([claim], [CONTRACT], embedder=emb, top_n=3)[0]
    spans = sorted((e.start, e.end) for e in result)
    for (_, end), (start, _) in zip(spans, spans[1:], strict=False):
        assert end <= start


def test_two_sentence_window_when_the_claim_spans_both():
    context = "Монтаж кровли выполняется бригадой. Срок работ составляет 3 дня. Оплата по факту."
    claim = _claim("Монтаж кровли: срок 3 дня")
    result = best_evidence([claim], [context], embedder=HashEmbedder(), top_n=1, sim_weight=0.0)[0]
    assert result[0].text == "Монтаж кровли выполняется бригадой. Срок работ составляет 3 дня."
    assert result[0].lexical == pytest.approx(1.0)


def test_batch_makes_two_embed_calls_and_matches_single_samples():
    emb = HashEmbedder()
    samples = [
        ([_claim("Монтаж металлочерепицы стоит 1 150 руб.")], [PRICE_LIST, CONTRACT]),
        ([_claim("Warranty is 5 years"), _claim("Either party may terminate")], [SPEC_EN]),
        ([], [CONTRACT]),
        ([_claim("Любая сторона может расторгнуть договор")], []),
    ]
    batch = best_evidence_many(samples, embedder=emb, top_n=2)
    assert len(emb.calls) == 2  # every claim and sentence, then the shortlisted two-sentence windows
    singles = [best_evidence(c, ctx, embedder=HashEmbedder(), top_n=2) for c, ctx in samples]
    assert batch == singles
    assert batch[2] == [] and batch[3] == [[]]


def test_bad_arguments():
    with pytest.raises(ValueError, match="top_n"):
        best_evidence([_claim("x")], ["y"], embedder=HashEmbedder(), top_n=0)
    with pytest.raises(TypeError, match="sequence of strings"):
        best_evidence([_claim("x")], "one context", embedder=HashEmbedder())
