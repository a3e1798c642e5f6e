"""Thin adapters from LangChain and LlamaIndex parts to the guard's plain callables (optional extras).

Import the submodule you need; each imports its library on import and raises
:class:`~ragauge.errors.MissingDependencyError` with the install command when it is missing::

    from ragauge.guard.adapters.langchain import langchain_retriever, langchain_generate, as_runnable
    from ragauge.guard.adapters.llamaindex import llamaindex_retriever, llamaindex_generate
"""

PROMPT = {
    "ru": "Ответь на вопрос, используя только контекст. Если в контексте нет ответа, так и скажи.\n\n"
          "Контекст:\n{context}\n\nВопрос: {question}\nОтвет:",
    "en": "Answer the question using only the context. If the context does not contain the answer, say so.\n\n"
          "Context:\n{context}\n\nQuestion: {question}\nAnswer:",
}


def build_prompt(question: str, contexts: list[str], template: str | None = None) -> str:
    """The generation prompt: ``template`` (with ``{context}`` and ``{question}``) or the ru/en default."""
    from ..templates import detect_lang

    text = template or PROMPT[detect_lang(question, None)]
    return text.format(context="\n\n".join(contexts), question=question)


def traced_retrieve(fn):  # type: ignore[no-untyped-def]
    """``fn(query, filters, k)`` that also adds a ``retrieval`` span (query, filters, chunks, duration) to the
    request being traced (:func:`ragauge.trace.current`); nothing extra when tracing is not configured."""
    import functools
    import inspect
    import time

    from ... import trace

    def record(start: float, query: str, filters, items) -> None:  # type: ignore[no-untyped-def]
        t = trace.current()
        if t.id is not None:
            t.span("retrieval", query=query, filters=filters, chunks=list(items),
                   duration_ms=(time.perf_counter() - start) * 1000.0)

    if inspect.iscoroutinefunction(fn):
        @functools.wraps(fn)
        async def aretrieve(query: str, filters=None, k: int = 5):  # type: ignore[no-untyped-def]
            start = time.perf_counter()
            items = await fn(query, filters, k)
            record(start, query, filters, items)
            return items
        return aretrieve

    @functools.wraps(fn)
    def retrieve(query: str, filters=None, k: int = 5):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        items = fn(query, filters, k)
        record(start, query, filters, items)
        return items
    return retrieve


def traced_generate(fn, *, model: str | None = None):  # type: ignore[no-untyped-def]
    """``fn(question, contexts)`` that also adds a ``generation`` span (answer, duration, TTFT = the time from
    the request's start to the answer, as nothing is streamed) to the request being traced."""
    import functools
    import inspect
    import time

    from ... import trace

    def record(start: float, answer) -> None:  # type: ignore[no-untyped-def]
        t = trace.current()
        if t.id is not None:
            s = t.span("generation", answer=answer, model=model, duration_ms=(time.perf_counter() - start) * 1000.0)
            s.set(ttft_ms=s.start_ms + (s.duration_ms or 0.0))

    if inspect.iscoroutinefunction(fn):
        @functools.wraps(fn)
        async def agenerate(question: str, contexts: list[str]) -> str:
            start = time.perf_counter()
            answer: str = await fn(question, contexts)
            record(start, answer)
            return answer
        return agenerate

    @functools.wraps(fn)
    def generate(question: str, contexts: list[str]) -> str:
        start = time.perf_counter()
        answer: str = fn(question, contexts)
        record(start, answer)
        return answer
    return generate
