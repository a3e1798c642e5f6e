"""LlamaIndex parts as the guard's callables (extra ``llamaindex``).

* :func:`llamaindex_retriever` -- a ``VectorStoreIndex`` (``index.as_retriever(filters=...,
  similarity_top_k=k)`` per call), a ``retriever_factory(filters, k)`` that builds a retriever for the
  call's filters, or a ready ``BaseRetriever`` (refused with a :class:`ConfigError` when filters are
  given: its filters were fixed when it was built, and the guard never post-filters)
  -> ``retrieve(query, filters, k)`` returning ``{id, text, score, metadata}`` from ``NodeWithScore``.
  Filters: a ``MetadataFilters`` passes through; a plain ``{key: value}`` dict becomes exact-match
  filters (a list value becomes an ``in`` filter), all combined with AND.
* :func:`llamaindex_generate` -- an LLM (``complete`` with a ru/en grounded prompt), or a query engine /
  response synthesizer (``synthesize`` over the guard's gated chunks, so the engine does not retrieve
  on its own and bypass the gates) -> ``generate(question, contexts)``.

>>> retrieve = llamaindex_retriever(index=index)                      # doctest: +SKIP
>>> guard = Guard(retrieve, llamaindex_generate(query_engine))        # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ...errors import ConfigError, MissingDependencyError
from . import build_prompt, traced_generate, traced_retrieve

try:
    from llama_index.core.base.base_retriever import BaseRetriever
    from llama_index.core.llms import LLM
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
    from llama_index.core.vector_stores import FilterOperator, MetadataFilter, MetadataFilters
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingDependencyError("llama-index-core", feature="The LlamaIndex guard adapter",
                                 extra="llamaindex") from exc


def metadata_filters(filters: Any) -> MetadataFilters | None:
    """``None`` | ``MetadataFilters`` | ``{key: value or [values]}`` -> ``MetadataFilters`` (AND)."""
    if filters is None or isinstance(filters, MetadataFilters):
        return filters
    if not isinstance(filters, Mapping) or not filters:
        raise ConfigError(f"LlamaIndex filters must be a MetadataFilters or a non-empty {{key: value}} dict "
                          f"(got {filters!r})")
    out = []
    for key, value in filters.items():
        if isinstance(value, (list, tuple, set)):
            out.append(MetadataFilter(key=str(key), value=list(value), operator=FilterOperator.IN))
        else:
            out.append(MetadataFilter(key=str(key), value=value, operator=FilterOperator.EQ))
    return MetadataFilters(filters=out)


def _items(nodes: list[Any], k: int) -> list[dict[str, Any]]:
    out = []
    for nws in nodes[:k]:
        node = nws.node
        out.append({"id": node.node_id, "text": node.get_content(), "score": nws.score,
                    "metadata": dict(node.metadata or {})})
    return out


def llamaindex_retriever(retriever: Any = None, *, index: Any = None,
                         retriever_factory: Callable[[Any, int], Any] | None = None,
                         asynchronous: bool = False, **retriever_kwargs: Any) -> Callable[..., Any]:
    """``retrieve(query, filters, k)`` over a LlamaIndex index, retriever factory or retriever.

    Give exactly one of ``retriever``, ``index=`` or ``retriever_factory=``. ``retriever_kwargs`` go to
    ``index.as_retriever`` (e.g. ``vector_store_query_mode``). ``asynchronous=True`` returns an
    ``async`` function using ``aretrieve``.
    """
    if sum(x is not None for x in (retriever, index, retriever_factory)) != 1:
        raise ConfigError("give exactly one of a retriever, index= or retriever_factory=")
    if retriever is not None and not isinstance(retriever, BaseRetriever):
        raise ConfigError(f"expected a LlamaIndex BaseRetriever (got {type(retriever).__name__}); for an index "
                          "pass index=")

    def build(filters: Any, k: int) -> Any:
        if index is not None:
            return index.as_retriever(filters=metadata_filters(filters), similarity_top_k=k, **retriever_kwargs)
        if retriever_factory is not None:
            built = retriever_factory(metadata_filters(filters), k)
            if not isinstance(built, BaseRetriever):
                raise ConfigError(f"retriever_factory returned {type(built).__name__}; expected a LlamaIndex "
                                  "BaseRetriever")
            return built
        if filters is not None:
            raise ConfigError(
                f"filters {filters!r} were given but the LlamaIndex retriever {type(retriever).__name__} was "
                "built with its filters fixed; the guard passes filters into the search and never post-filters. "
                "Pass index=<your VectorStoreIndex> or retriever_factory=lambda filters, k: "
                "index.as_retriever(filters=filters, similarity_top_k=k)")
        return retriever

    if asynchronous:
        async def aretrieve(query: str, filters: Any = None, k: int = 5) -> list[dict[str, Any]]:
            return _items(await build(filters, k).aretrieve(QueryBundle(query)), k)
        return traced_retrieve(aretrieve)

    def retrieve(query: str, filters: Any = None, k: int = 5) -> list[dict[str, Any]]:
        return _items(build(filters, k).retrieve(QueryBundle(query)), k)
    return traced_retrieve(retrieve)


def _nodes(contexts: list[str]) -> list[Any]:
    return [NodeWithScore(node=TextNode(text=text), score=None) for text in contexts]


def _text(response: Any) -> str:
    text = getattr(response, "response", None)
    if text is None:
        text = getattr(response, "text", None)
    if not isinstance(text, str):
        raise ConfigError(f"the LlamaIndex generator returned {type(response).__name__} without a text response "
                          "(a streaming response? build the engine with streaming=False)")
    return text


def llamaindex_generate(target: Any, *, prompt: str | None = None, asynchronous: bool = False) -> Callable[..., Any]:
    """``generate(question, contexts)`` over an LLM or a query engine / synthesizer (see the module doc).

    ``prompt``: a template with ``{context}`` and ``{question}`` for an LLM (default: ru/en grounded).
    A query engine without ``synthesize`` is refused: it would retrieve on its own, past the guard.
    """
    if isinstance(target, LLM):
        def sync(question: str, contexts: list[str]) -> str:
            return _text(target.complete(build_prompt(question, list(contexts), prompt)))

        async def asyn(question: str, contexts: list[str]) -> str:
            return _text(await target.acomplete(build_prompt(question, list(contexts), prompt)))
    elif callable(getattr(target, "synthesize", None)):
        def sync(question: str, contexts: list[str]) -> str:
            return _text(target.synthesize(QueryBundle(question), nodes=_nodes(contexts)))

        async def asyn(question: str, contexts: list[str]) -> str:
            return _text(await target.asynthesize(QueryBundle(question), nodes=_nodes(contexts)))
    else:
        raise ConfigError(
            f"{type(target).__name__} has no synthesize(); a query engine that only has query() retrieves on its "
            "own, past the guard's gates. Pass a RetrieverQueryEngine, a response synthesizer "
            "(get_response_synthesizer(llm=...)) or an LLM")
    return traced_generate(asyn if asynchronous else sync, model=type(target).__name__)
