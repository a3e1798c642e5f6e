"""A tiny in-memory construction-firm knowledge base and RAG callables that count their calls."""

from __future__ import annotations

import pytest

from ragauge.judges.offline.lemmas import content_lemmas

DOCS = [
    {"id": "roof", "text": "Компания СтройДом предоставляет гарантию 5 лет на кровельные работы.",
     "metadata": {"city": "Казань", "title": "Гарантия на кровлю"}},
    {"id": "plaster", "text": "Штукатурка стен выполняется гипсовыми смесями Knauf, стоимость работ 450 рублей "
                              "за квадратный метр.", "metadata": {"city": "Казань", "title": "Штукатурные работы"}},
    {"id": "office", "text": "Офис компании СтройДом работает с 9 до 18 по будням.",
     "metadata": {"city": "Москва", "title": "Офис"}},
]


class KB:
    """Scores = share of the query's lemmas found in the chunk (a stand-in for a vector search)."""

    def __init__(self) -> None:
        self.calls: list[dict] = []
        self.generated = 0
        self.score_scale = 1.0

    def retrieve(self, query, filters, k):
        self.calls.append({"query": query, "filters": filters, "k": k})
        q = set(content_lemmas(query))
        out = []
        for d in DOCS:
            if filters and any(d["metadata"].get(key) != value for key, value in filters.items()):
                continue
            lem = set(content_lemmas(d["text"]))
            score = len(q & lem) / max(len(q), 1) * self.score_scale
            out.append({**d, "score": score})
        out.sort(key=lambda d: -d["score"])
        return out[:k]


@pytest.fixture
def kb() -> KB:
    return KB()
