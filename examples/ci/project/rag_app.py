"""Your RAG pipeline (a stand-in): keyword retrieval over the demo knowledge base, extractive answers."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from functools import lru_cache

from ragauge.demo import kb_path

_WORD = re.compile(r"\w+", re.UNICODE)


def _terms(text: str) -> list[str]:
    # crude Russian stemming: the first 5 letters of each word of 3+ letters
    return [w.lower()[:5] for w in _WORD.findall(text) if len(w) > 2]


@lru_cache(maxsize=1)
def _index() -> tuple[list[dict], list[Counter], dict[str, float]]:
    chunks = [json.loads(line) for line in kb_path().read_text(encoding="utf-8").splitlines() if line.strip()]
    bags = [Counter(_terms(c["text"])) for c in chunks]
    df = Counter(t for bag in bags for t in bag)
    idf = {t: math.log(1 + len(bags) / n) for t, n in df.items()}
    return chunks, bags, idf


def retrieve(question: str, k: int = 5) -> list[dict]:
    chunks, bags, idf = _index()
    q = set(_terms(question))
    scored = sorted(((sum(idf[t] for t in q if t in bag), i) for i, bag in enumerate(bags)), key=lambda x: (-x[0], x[1]))
    return [{"id": chunks[i]["id"], "text": chunks[i]["text"], "score": round(s, 3)} for s, i in scored[:k]]


def generate(question: str, contexts: list[dict]) -> str:
    q = set(_terms(question))
    sentences = [s for c in contexts[:2] for s in re.split(r"(?<=[.!?])\s+|\n", c["text"]) if s.strip()]
    best = max(sentences, key=lambda s: len(q & set(_terms(s))), default="")
    return best or "В документах нет ответа на этот вопрос."
