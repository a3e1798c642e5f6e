"""The LangChain adapter against the real langchain-core: InMemoryVectorStore, retrievers, chat models, LCEL."""

from __future__ import annotations

import asyncio
import importlib
import sys

import pytest

pytest.importorskip("langchain_core", reason="langchain-core is not installed (pip install 'ragauge[langchain]')")

from langchain_core.callbacks import CallbackManagerForRetrieverRun  # noqa: E402
from langchain_core.documents import Document  # noqa: E402
from langchain_core.embeddings import Embeddings  # noqa: E402
from langchain_core.language_models import BaseChatModel  # noqa: E402
from langchain_core.language_models.fake_chat_models import FakeListChatModel  # noqa: E402
from langchain_core.messages import AIMessage  # noqa: E402
from langchain_core.outputs import ChatGeneration, ChatResult  # noqa: E402
from langchain_core.retrievers import BaseRetriever  # noqa: E402
from langchain_core.runnables import RunnableLambda  # noqa: E402
from langchain_core.vectorstores import InMemoryVectorStore  # noqa: E402

from ragauge.errors import ConfigError, InputError, MissingDependencyError  # noqa: E402
from ragauge.guard import Guard  # noqa: E402
from ragauge.guard.adapters.langchain import as_runnable, langchain_generate, langchain_retriever  # noqa: E402

from .conftest import DOCS  # noqa: E402
from .hashing import embed  # noqa: E402

ROOF_Q = "Какая гарантия на кровельные работы?"


class LemmaEmbeddings(Embeddings):
    """A real ``Embeddings`` subclass: hashed bag of lemmas (deterministic, no model)."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [embed(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return embed(text)


class EchoContextChat(BaseChatModel):
    """A real chat model subclass that answers with the prompt line after "Контекст:" (shows the prompt)."""

    prompts: list = []

    @property
    def _llm_type(self) -> str:
        return "echo-context"

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        text = messages[-1].content
        self.prompts.append(text)
        context = text.split("Контекст:\n", 1)[1].split("\n", 1)[0]
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=context))])


class KeywordRetriever(BaseRetriever):
    """A retriever with no filter argument; scores in metadata["relevance_score"]."""

    calls: int = 0

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        self.calls += 1
        return [Document(page_content=d["text"], id=d["id"],
                         metadata={**d["metadata"], "relevance_score": 0.9 if d["id"] == "roof" else 0.1})
                for d in DOCS]


@pytest.fixture(scope="module")
def store():
    s = InMemoryVectorStore(LemmaEmbeddings())
    s.add_documents([Document(page_content=d["text"], metadata=d["metadata"], id=d["id"]) for d in DOCS])
    return s


def in_city(city):
    return lambda doc: doc.metadata.get("city") == city


def test_vector_store_scores_and_filter_inside_the_search(store):
    retrieve = langchain_retriever(store, scores="raw")
    items = retrieve(ROOF_Q, None, 3)
    assert [i["id"] for i in items][0] == "roof"
    assert items[0]["score"] == pytest.approx(0.5303, abs=1e-3)  # cosine of the hashed lemma bags
    assert items[0]["metadata"]["title"] == "Гарантия на кровлю"
    moscow = retrieve(ROOF_Q, in_city("Москва"), 3)
    assert [i["id"] for i in moscow] == ["office"]


def test_guard_over_a_vector_store_answers_and_refuses(store):
    model = EchoContextChat()
    guard = Guard(langchain_retriever(store, scores="raw"), langchain_generate(model), score_threshold=0.4)
    result = guard.run(ROOF_Q, filters=in_city("Казань"), k=2)
    assert result.kind == "answer"
    assert result.text == DOCS[0]["text"]  # the grounded prompt carried the gated chunk first
    assert "Вопрос: " + ROOF_Q in model.prompts[-1]
    assert result.citations[0]["id"] == "roof"
    n_prompts = len(model.prompts)
    refused = guard.run(ROOF_Q, filters=in_city("Москва"), k=2)  # only the office chunk, score 0
    assert refused.kind == "no_answer" and len(model.prompts) == n_prompts


def test_vector_store_retriever_passes_search_kwargs_and_filter(store):
    retriever = store.as_retriever(search_kwargs={"k": 1})
    items = langchain_retriever(retriever, scores="raw")(ROOF_Q, in_city("Москва"), 2)
    assert [i["id"] for i in items] == ["office"]  # the guard's k wins over search_kwargs
    assert items[0]["score"] == pytest.approx(0.0)
    # metadata mode goes through retriever.invoke with the filter inside
    plain = langchain_retriever(retriever, scores="metadata")(ROOF_Q, in_city("Казань"), 1)
    assert [i["id"] for i in plain] == ["roof"] and plain[0]["score"] is None


def test_relevance_scale_missing_is_a_clear_error(store):
    with pytest.raises(ConfigError, match="scores='raw'"):
        langchain_retriever(store)(ROOF_Q, None, 2)


def test_retriever_without_filter_argument_is_refused_not_post_filtered():
    retriever = KeywordRetriever()
    retrieve = langchain_retriever(retriever)
    items = retrieve(ROOF_Q, None, 2)
    assert [(i["id"], i["score"]) for i in items] == [("roof", 0.9), ("plaster", 0.1)]
    with pytest.raises(ConfigError, match="takes no filter argument"):
        retrieve(ROOF_Q, {"city": "Казань"}, 2)
    assert retriever.calls == 1  # refused before any search
    with pytest.raises(ConfigError, match="never post-filters"):
        Guard(retrieve, langchain_generate(FakeListChatModel(responses=["x"]))).run(ROOF_Q, filters={"city": "Казань"})


def test_retriever_factory_builds_a_retriever_per_filter(store):
    seen = []

    def factory(filters):
        seen.append(filters)
        return store.as_retriever(search_kwargs={"filter": filters} if filters else {})

    items = langchain_retriever(retriever_factory=factory, scores="raw")(ROOF_Q, in_city("Москва"), 3)
    assert [i["id"] for i in items] == ["office"] and len(seen) == 1


def test_generate_with_a_runnable_chain_and_a_fake_chat_model():
    chain = RunnableLambda(lambda d: f"{d['question']} | {d['contexts'][0]} | {len(d['context'])}")
    assert langchain_generate(chain)("q?", ["abc", "de"]) == "q? | abc | 7"
    chat = FakeListChatModel(responses=["Гарантия 5 лет."])
    assert langchain_generate(chat)(ROOF_Q, ["ctx"]) == "Гарантия 5 лет."
    assert asyncio.run(langchain_generate(chat, asynchronous=True)(ROOF_Q, ["ctx"])) == "Гарантия 5 лет."
    with pytest.raises(ConfigError, match="StrOutputParser"):
        langchain_generate(RunnableLambda(lambda d: 42))("q", ["c"])
    with pytest.raises(ConfigError, match="chat model, LLM or Runnable"):
        langchain_generate(lambda q, c: "x")


def test_guard_as_runnable_in_an_lcel_chain(store):
    guard = Guard(langchain_retriever(store, scores="raw"), langchain_generate(EchoContextChat()), score_threshold=0.4)
    chain = RunnableLambda(lambda x: {"question": x["q"], "filters": in_city("Казань"), "k": 2}) | as_runnable(
        guard, output="text")
    assert chain.invoke({"q": ROOF_Q}) == DOCS[0]["text"]
    assert asyncio.run(chain.ainvoke({"q": ROOF_Q})) == DOCS[0]["text"]
    result = as_runnable(guard).invoke(ROOF_Q)
    assert result.kind == "answer"
    assert as_runnable(guard, output="dict").invoke("Сколько стоит аренда яхты?")["kind"] in (
        "no_answer", "clarifying_question")
    with pytest.raises(InputError, match="unknown keys"):
        as_runnable(guard).invoke({"question": ROOF_Q, "filter": {}})
    with pytest.raises(InputError, match="needs a question"):
        as_runnable(guard).invoke(42)


def test_async_retriever_with_arun(store):
    guard = Guard(langchain_retriever(store, scores="raw", asynchronous=True),
                  langchain_generate(EchoContextChat(), asynchronous=True), score_threshold=0.4)
    assert guard.is_async
    result = asyncio.run(guard.arun(ROOF_Q, filters=in_city("Казань")))
    assert result.kind == "answer" and result.contexts[0].id == "roof"


def test_missing_library_names_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "langchain_core.retrievers", None)  # import of it now fails
    monkeypatch.delitem(sys.modules, "ragauge.guard.adapters.langchain")
    with pytest.raises(MissingDependencyError, match=r"pip install 'ragauge\[langchain\]'"):
        importlib.import_module("ragauge.guard.adapters.langchain")
