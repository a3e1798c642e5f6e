"""The LlamaIndex adapter against the real llama-index-core: VectorStoreIndex, MetadataFilters, LLMs, engines."""

from __future__ import annotations

import asyncio
import importlib
import sys

import pytest

pytest.importorskip("llama_index.core", reason="llama-index-core is not installed (pip install 'ragauge[llamaindex]')")

from llama_index.core import VectorStoreIndex, get_response_synthesizer  # noqa: E402
from llama_index.core.embeddings import BaseEmbedding  # noqa: E402
from llama_index.core.llms.mock import MockLLM  # noqa: E402
from llama_index.core.query_engine import RetrieverQueryEngine  # noqa: E402
from llama_index.core.schema import TextNode  # noqa: E402
from llama_index.core.vector_stores import ExactMatchFilter, MetadataFilters  # noqa: E402

from ragauge.errors import ConfigError, MissingDependencyError  # noqa: E402
from ragauge.guard import Guard  # noqa: E402
from ragauge.guard.adapters.llamaindex import llamaindex_generate, llamaindex_retriever, metadata_filters  # noqa: E402

from .conftest import DOCS  # noqa: E402
from .hashing import embed  # noqa: E402

ROOF_Q = "Какая гарантия на кровельные работы?"


class LemmaEmbedding(BaseEmbedding):
    """A real ``BaseEmbedding`` subclass: hashed bag of lemmas (deterministic, no model)."""

    def _get_query_embedding(self, query: str) -> list[float]:
        return embed(query)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return embed(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return embed(text)


@pytest.fixture(scope="module")
def index():
    nodes = [TextNode(text=d["text"], id_=d["id"], metadata=d["metadata"]) for d in DOCS]
    return VectorStoreIndex(nodes, embed_model=LemmaEmbedding())


def test_index_retrieval_with_scores_and_filters_in_the_query(index):
    retrieve = llamaindex_retriever(index=index)
    items = retrieve(ROOF_Q, None, 3)
    assert items[0]["id"] == "roof"
    # LlamaIndex embeds "key: value" metadata lines with the text, so the cosine is lower than LangChain's 0.53
    assert items[0]["score"] == pytest.approx(0.4330, abs=1e-3)
    assert items[0]["metadata"]["title"] == "Гарантия на кровлю"
    assert [i["id"] for i in retrieve(ROOF_Q, {"city": "Москва"}, 3)] == ["office"]
    assert {i["id"] for i in retrieve(ROOF_Q, {"city": ["Москва", "Казань"]}, 3)} == {"roof", "plaster", "office"}
    native = MetadataFilters(filters=[ExactMatchFilter(key="city", value="Казань")])
    assert {i["id"] for i in retrieve(ROOF_Q, native, 3)} == {"roof", "plaster"}
    assert len(retrieve(ROOF_Q, None, 1)) == 1


def test_guard_with_index_and_synthesizer(index):
    synth = get_response_synthesizer(llm=MockLLM())  # MockLLM echoes the prompt: shows what it was given
    guard = Guard(llamaindex_retriever(index=index), llamaindex_generate(synth), score_threshold=0.4)
    result = guard.run(ROOF_Q, filters={"city": "Казань"}, k=2)
    assert result.kind == "answer"
    assert DOCS[0]["text"] in result.text and ROOF_Q in result.text
    assert DOCS[1]["text"] not in result.text  # below the threshold: dropped before generation
    refused = guard.run(ROOF_Q, filters={"city": "Москва"})
    assert refused.kind == "no_answer"


def test_query_engine_synthesizes_over_the_guards_chunks_only(index):
    engine = RetrieverQueryEngine.from_args(index.as_retriever(similarity_top_k=3), llm=MockLLM())
    answer = llamaindex_generate(engine)("Вопрос?", ["только этот контекст"])
    assert "только этот контекст" in answer and DOCS[2]["text"] not in answer
    assert asyncio.run(llamaindex_generate(engine, asynchronous=True)("Вопрос?", ["ctx"])).count("ctx") == 1


def test_llm_gets_a_grounded_prompt():
    text = llamaindex_generate(MockLLM())(ROOF_Q, ["Гарантия 5 лет."])
    assert "Контекст:\nГарантия 5 лет." in text and "Вопрос: " + ROOF_Q in text
    en = llamaindex_generate(MockLLM(), prompt="C={context} Q={question}")("Why?", ["a", "b"])
    assert en == "C=a\n\nb Q=Why?"


def test_fixed_retriever_is_refused_with_filters(index):
    retrieve = llamaindex_retriever(index.as_retriever(similarity_top_k=3))
    assert retrieve(ROOF_Q, None, 2)[0]["id"] == "roof"
    with pytest.raises(ConfigError, match="never post-filters"):
        retrieve(ROOF_Q, {"city": "Казань"}, 2)


def test_retriever_factory_gets_metadata_filters_and_k(index):
    seen = []

    def factory(filters, k):
        seen.append((filters, k))
        return index.as_retriever(filters=filters, similarity_top_k=k)

    items = llamaindex_retriever(retriever_factory=factory)(ROOF_Q, {"city": "Москва"}, 4)
    assert [i["id"] for i in items] == ["office"]
    assert isinstance(seen[0][0], MetadataFilters) and seen[0][1] == 4
    with pytest.raises(ConfigError, match="expected a LlamaIndex BaseRetriever"):
        llamaindex_retriever(retriever_factory=lambda f, k: "nope")(ROOF_Q, None, 2)


def test_async_retrieval(index):
    guard = Guard(llamaindex_retriever(index=index, asynchronous=True),
                  llamaindex_generate(MockLLM(), asynchronous=True), score_threshold=0.4)
    result = asyncio.run(guard.arun(ROOF_Q, filters={"city": "Казань"}))
    assert result.kind == "answer" and result.contexts[0].id == "roof"


def test_bad_configuration_is_a_config_error(index):
    with pytest.raises(ConfigError, match="exactly one"):
        llamaindex_retriever()
    with pytest.raises(ConfigError, match="exactly one"):
        llamaindex_retriever(index.as_retriever(), index=index)
    with pytest.raises(ConfigError, match="for an index pass index="):
        llamaindex_retriever(index)
    with pytest.raises(ConfigError, match="has no synthesize"):
        llamaindex_generate(object())
    with pytest.raises(ConfigError, match="non-empty"):
        metadata_filters({})


def test_missing_library_names_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "llama_index.core.schema", None)
    monkeypatch.delitem(sys.modules, "ragauge.guard.adapters.llamaindex")
    with pytest.raises(MissingDependencyError, match=r"pip install 'ragauge\[llamaindex\]'"):
        importlib.import_module("ragauge.guard.adapters.llamaindex")
