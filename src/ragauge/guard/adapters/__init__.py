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
