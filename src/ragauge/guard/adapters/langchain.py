"""LangChain parts as the guard's callables, and the guard as a LangChain ``Runnable`` (extra ``langchain``).

* :func:`langchain_retriever` -- a ``VectorStore``, a ``VectorStoreRetriever`` or any ``BaseRetriever``
  -> ``retrieve(query, filters, k)``. Filters go **into** the search (the store's ``filter=`` argument);
  a retriever that cannot take one is refused with a :class:`ConfigError` when filters are given (never
  post-filtered). Scores: the store's ``similarity_search_with_relevance_scores`` (``scores="relevance"``,
  0..1), its ``similarity_search_with_score`` (``scores="raw"``, the store's own scale, which must be
  higher-is-better), or a document metadata key (``score``, ``relevance_score``, ``similarity_score``).
* :func:`langchain_generate` -- a chat model / LLM (gets a ru/en grounded prompt) or any Runnable (gets
  ``{"question", "context", "contexts"}``) -> ``generate(question, contexts)``.
* :func:`as_runnable` -- ``guard`` as a ``Runnable`` (``invoke``/``ainvoke``) for an LCEL chain.

>>> retrieve = langchain_retriever(store, scores="raw")               # doctest: +SKIP
>>> guard = Guard(retrieve, langchain_generate(chat_model))           # doctest: +SKIP
>>> chain = as_runnable(guard, output="text") | StrOutputParser()     # doctest: +SKIP
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, Sequence

from ...errors import ConfigError, InputError, MissingDependencyError
from . import build_prompt, traced_generate, traced_retrieve

try:
    from langchain_core.language_models import BaseLanguageModel
    from langchain_core.messages import BaseMessage
    from langchain_core.retrievers import BaseRetriever
    from langchain_core.runnables import Runnable, RunnableLambda
    from langchain_core.vectorstores import VectorStore, VectorStoreRetriever
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingDependencyError("langchain-core", feature="The LangChain guard adapter", extra="langchain") from exc

SCORE_KEYS = ("score", "relevance_score", "similarity_score")
SCORE_MODES = ("relevance", "raw", "metadata")

# (method name, positional args, keyword args, whether the method returns (doc, score) pairs)
_Plan = tuple[Any, str, tuple[Any, ...], dict[str, Any], bool]


def _item(doc: Any, score: float | None, score_keys: Sequence[str]) -> dict[str, Any]:
    metadata = dict(getattr(doc, "metadata", None) or {})
    if score is None:
        score = next((metadata[key] for key in score_keys if metadata.get(key) is not None), None)
    return {"id": getattr(doc, "id", None) or metadata.get("id"), "text": doc.page_content, "score": score,
            "metadata": metadata}


def _accepts(fn: Callable[..., Any], name: str) -> bool:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == name or p.kind is p.VAR_KEYWORD for p in params)


def _store_plan(store: Any, query: str, filters: Any, k: int, scores: str, extra: dict[str, Any]) -> _Plan:
    kwargs = {**extra, "k": k}
    if filters is not None:
        kwargs["filter"] = filters
    if scores == "relevance":
        return store, "similarity_search_with_relevance_scores", (query,), kwargs, True
    if scores == "raw":
        kwargs.pop("score_threshold", None)  # a relevance-scale option; raw search does not know it
        return store, "similarity_search_with_score", (query,), kwargs, True
    return store, "similarity_search", (query,), kwargs, False


def _plan(source: Any, query: str, filters: Any, k: int, scores: str) -> _Plan:
    """Which library call answers this query, with the filters inside it."""
    if isinstance(source, VectorStore):
        return _store_plan(source, query, filters, k, scores, {})
    if isinstance(source, VectorStoreRetriever) and source.search_type != "mmr" and scores != "metadata":
        return _store_plan(source.vectorstore, query, filters, k, scores, dict(source.search_kwargs))
    if isinstance(source, BaseRetriever):
        if filters is None:
            return source, "invoke", (query,), {}, False
        if isinstance(source, VectorStoreRetriever) or (
                source._expects_other_args and _accepts(type(source)._get_relevant_documents, "filter")):
            return source, "invoke", (query,), {"filter": filters}, False
        raise ConfigError(
            f"filters {filters!r} were given but the LangChain retriever {type(source).__name__} takes no "
            "filter argument; the guard passes filters into the search and never post-filters. Use a vector "
            "store (or its .as_retriever()), pass retriever_factory=lambda filters: <a retriever built for "
            "these filters>, or drop the filters")
    raise ConfigError(f"expected a LangChain VectorStore or BaseRetriever (got {type(source).__name__})")


def _items(result: Any, pairs: bool, k: int, score_keys: Sequence[str]) -> list[dict[str, Any]]:
    if pairs:
        return [_item(doc, float(score), score_keys) for doc, score in list(result)[:k]]
    return [_item(doc, None, score_keys) for doc in list(result)[:k]]


def _relevance_missing(source: Any) -> ConfigError:
    return ConfigError(
        f"the vector store {type(source).__name__} defines no relevance scale "
        "(similarity_search_with_relevance_scores is not implemented); pass scores='raw' to use "
        "similarity_search_with_score on the store's own scale (it must be higher-is-better, e.g. cosine "
        "similarity; calibrate the threshold with `ragauge guard thresholds`)")


def langchain_retriever(source: Any = None, *, scores: str = "relevance", score_keys: Sequence[str] = SCORE_KEYS,
                        retriever_factory: Callable[[Any], Any] | None = None,
                        asynchronous: bool = False) -> Callable[..., Any]:
    """``retrieve(query, filters, k)`` over a LangChain vector store or retriever (see the module doc).

    ``retriever_factory(filters)`` builds the store/retriever for each call's filters instead (they are
    then applied by what it builds). ``asynchronous=True`` returns an ``async`` function using the
    library's ``a*`` methods (``ainvoke``, ``asimilarity_search_with_score``...).
    """
    if scores not in SCORE_MODES:
        raise ConfigError(f"scores={scores!r}; expected one of {SCORE_MODES}")
    if (source is None) == (retriever_factory is None):
        raise ConfigError("give exactly one of a vector store/retriever and retriever_factory=")

    def plan(query: str, filters: Any, k: int) -> _Plan:
        if retriever_factory is not None:
            return _plan(retriever_factory(filters), query, None, k, scores)
        return _plan(source, query, filters, k, scores)

    if asynchronous:
        async def aretrieve(query: str, filters: Any = None, k: int = 5) -> list[dict[str, Any]]:
            target, method, args, kwargs, pairs = plan(query, filters, k)
            try:
                result = await getattr(target, "a" + method)(*args, **kwargs)
            except NotImplementedError:
                raise _relevance_missing(target) from None
            return _items(result, pairs, k, score_keys)
        return traced_retrieve(aretrieve)

    def retrieve(query: str, filters: Any = None, k: int = 5) -> list[dict[str, Any]]:
        target, method, args, kwargs, pairs = plan(query, filters, k)
        try:
            result = getattr(target, method)(*args, **kwargs)
        except NotImplementedError:
            raise _relevance_missing(target) from None
        return _items(result, pairs, k, score_keys)
    return traced_retrieve(retrieve)


def _text(output: Any) -> str:
    if isinstance(output, str):
        return output
    if isinstance(output, BaseMessage):
        content = output.content
        if isinstance(content, str):
            return content
        return "".join(b if isinstance(b, str) else str(b.get("text", "")) for b in content
                       if isinstance(b, str) or (isinstance(b, dict) and b.get("type") == "text"))
    raise ConfigError(f"the LangChain generator returned {type(output).__name__}; expected a string or a "
                      "message. End the chain with StrOutputParser()")


def langchain_generate(model: Any, *, prompt: str | None = None, asynchronous: bool = False) -> Callable[..., Any]:
    """``generate(question, contexts)`` over a chat model / LLM or any Runnable (see the module doc).

    ``prompt``: a template with ``{context}`` and ``{question}`` for a model (default: a ru/en "answer only
    from the context" prompt). A Runnable that is not a model gets ``{"question", "context", "contexts"}``
    and must return a string or a message.
    """
    if not isinstance(model, Runnable):
        raise ConfigError(f"expected a LangChain chat model, LLM or Runnable (got {type(model).__name__})")
    is_model = isinstance(model, BaseLanguageModel)

    def payload(question: str, contexts: list[str]) -> Any:
        if is_model:
            return build_prompt(question, list(contexts), prompt)
        return {"question": question, "context": "\n\n".join(contexts), "contexts": list(contexts)}

    if asynchronous:
        async def agenerate(question: str, contexts: list[str]) -> str:
            return _text(await model.ainvoke(payload(question, contexts)))
        return traced_generate(agenerate, model=type(model).__name__)

    def generate(question: str, contexts: list[str]) -> str:
        return _text(model.invoke(payload(question, contexts)))
    return traced_generate(generate, model=type(model).__name__)


def _request(value: Any) -> dict[str, Any]:
    if isinstance(value, str):
        return {"question": value}
    if isinstance(value, dict) and isinstance(value.get("question"), str):
        unknown = set(value) - {"question", "filters", "k", "request_id"}
        if unknown:
            raise InputError("unknown keys in the guard's input", field=", ".join(sorted(unknown)), value=value,
                             hint="expected a question string or {question, filters, k, request_id}")
        return dict(value)
    raise InputError("the guard runnable needs a question", value=value,
                     hint="invoke it with a string or {'question': ..., 'filters': ..., 'k': ...}")


OUTPUTS = ("result", "text", "dict")


def as_runnable(guard: Any, *, output: str = "result", name: str = "ragauge_guard") -> Runnable:
    """The guard as a LangChain ``Runnable``: input a question or ``{question, filters, k, request_id}``;
    output the :class:`GuardResult` (``"result"``), its ``text`` or its ``to_dict()``. Each call is one traced
    request when :mod:`ragauge.trace` is configured (guard decisions, retrieval, generation, the answer)."""
    if output not in OUTPUTS:
        raise ConfigError(f"output={output!r}; expected one of {OUTPUTS}")

    def shape(result: Any) -> Any:
        return result if output == "result" else result.text if output == "text" else result.to_dict()

    from ... import trace
    from ..trace import record_result

    def invoke(value: Any) -> Any:
        req = _request(value)
        question = req.pop("question")
        with trace.request(question) as t:  # a no-op until ragauge.trace is configured
            result = guard.run(question, **req)
            record_result(t, result)
        return shape(result)

    async def ainvoke(value: Any) -> Any:
        req = _request(value)
        question = req.pop("question")
        with trace.request(question) as t:
            result = await guard.arun(question, **req)
            record_result(t, result)
        return shape(result)

    return RunnableLambda(invoke, afunc=ainvoke, name=name)
