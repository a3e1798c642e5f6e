"""The quality gate of the RAG pipeline: fails the build when quality drops."""

import pytest

import rag_app
from ragauge.testing import assert_quality


@pytest.mark.ragauge(data="golden.jsonl", metrics=["hit_rate@5", "mrr@5", "faithfulness", "latency_p95"],
                     retrieve=rag_app.retrieve, generate=rag_app.generate)
def test_rag_quality(ragauge_results):
    assert_quality(ragauge_results)
