"""A reference RAG pipeline -- the "system under test" that the demo, the tests and the guard benchmark use.

Hybrid retrieval (BM25 over Russian/English lemmas with ``bm25s`` + multilingual USE embeddings,
metadata filters applied before ranking, calibrated 0..1 scores) and an extractive answer, or an
OpenAI-compatible LLM. ``pip install 'ragauge[rag]'`` (bm25s, plus the offline judge's models).

>>> from ragauge.rag import ReferenceRAG
>>> rag = ReferenceRAG.from_kb("kb.jsonl")                                  # doctest: +SKIP
>>> rag.answer("Сколько стоит машинная штукатурка стен?").answer             # doctest: +SKIP
>>> rag.guarded().run("Какая скидка пенсионерам?").kind                      # doctest: +SKIP
"""

from .extractive import extract, extractive_answer
from .index import HybridIndex
from .pipeline import ReferenceRAG
from .run import run_samples, run_to_jsonl
from .scoring import ScoreCalibration, default_calibration

__all__ = ["HybridIndex", "ReferenceRAG", "ScoreCalibration", "default_calibration", "extract", "extractive_answer",
           "run_samples", "run_to_jsonl"]
