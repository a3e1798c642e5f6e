"""The reference retriever: BM25 over Russian/English lemmas (``bm25s``) + multilingual USE embeddings.

Each chunk is indexed as ``"{title}. {section}. {text}"`` (headings carry words the body lacks, e.g.
"Штукатурные работы" above a price table); the text handed to the generator is the chunk's ``text``.
Lemmas come from :func:`ragauge.judges.offline.lemmas.content_lemmas` (pymorphy3 for Cyrillic words,
Porter stems for Latin ones), so "штукатурка", "штукатурки" and "штукатурку" are one term.

:meth:`HybridIndex.search` applies the metadata filter to the candidate set first, then scores and
ranks only the chunks that pass it (never post-filters a top k). Scores: see :mod:`.scoring`.
"""

from __future__ import annotations

import io
import json
import math
import os
import time
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from ..errors import ConfigError, InputError, MissingDependencyError
from ..files import write_files_atomically
from ..guard.result import Chunk
from .filters import filter_mask
from .scoring import ScoreCalibration, calibrated, default_calibration, hybrid, lexical, lexical_norm

INDEX_FORMAT = 1


def index_text(record: Mapping[str, Any]) -> str:
    """What the index sees of a chunk: title, section and text."""
    head = [str(record[k]) for k in ("title", "section") if record.get(k)]
    return ". ".join([*head, str(record["text"])])


def lemmas(text: str) -> list[str]:
    """Content lemmas (numbers kept) -- the BM25 analyzer."""
    from ..judges.offline.lemmas import content_lemmas

    return content_lemmas(text)


def _bm25(tokens: list[list[str]], k1: float, b: float) -> Any:
    try:
        import bm25s
    except ImportError:
        raise MissingDependencyError("bm25s", feature="the reference RAG (ragauge.rag)", extra="rag") from None
    model = bm25s.BM25(k1=k1, b=b, method="lucene", idf_method="lucene")
    model.index(tokens, show_progress=False)
    return model


def _check_records(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    if not records:
        raise InputError("the knowledge base has no chunks", hint="give a kb.jsonl with at least one line "
                         "or a folder with readable documents")
    out, seen = [], set()
    for i, r in enumerate(records):
        if not isinstance(r, Mapping):
            raise InputError("a chunk is not an object", line=i + 1, value=r)
        for name in ("id", "text"):
            if not isinstance(r.get(name), str) or not r[name].strip():
                raise InputError(f"a chunk has no {name}", line=i + 1, field=name, value=r.get(name),
                                 hint="every chunk needs a non-empty string id and text")
        if r["id"] in seen:
            raise InputError("duplicate chunk id", line=i + 1, field="id", value=r["id"],
                             hint="chunk ids link answers to relevance labels and must be unique")
        seen.add(r["id"])
        out.append(dict(r))
    return out


class HybridIndex:
    """BM25 + dense index over chunk records ``{id, text, ...metadata}``.

    >>> index = HybridIndex(records)                         # doctest: +SKIP
    >>> [c.id for c in index.search("штукатурка цена", {"doc_id": "price-list-2026"}, k=3)]  # doctest: +SKIP
    """

    def __init__(self, records: Sequence[Mapping[str, Any]], *, calibration: ScoreCalibration | None = None,
                 embedder: Any = None, k1: float = 1.5, b: float = 0.75,
                 embeddings: np.ndarray | None = None) -> None:
        self.records = _check_records(records)
        self.calibration = calibration or default_calibration()
        self.k1, self.b = k1, b
        if embedder is None:
            from ..judges.offline.judge import OfflineJudge

            embedder = OfflineJudge.shared().embedder  # one model and cache per process
        self.embedder = embedder
        texts = [index_text(r) for r in self.records]
        t = time.perf_counter()
        self.tokens = [lemmas(x) for x in texts]
        n = len(self.tokens)
        df: dict[str, int] = {}
        for toks in self.tokens:
            for tok in set(toks):
                df[tok] = df.get(tok, 0) + 1
        self._idf = {tok: math.log(1 + (n - d + 0.5) / (d + 0.5)) for tok, d in df.items()}
        self._idf_unseen = math.log(1 + (n + 0.5) / 0.5)
        self._bm25 = _bm25(self.tokens, k1, b)
        if embeddings is None:
            embeddings = embedder.embed(texts)
        elif embeddings.shape != (n, embedder.dim):
            raise ConfigError(f"saved embeddings have shape {embeddings.shape}, expected {(n, embedder.dim)}; "
                              "rebuild the index")
        self.embeddings = np.asarray(embeddings, dtype=np.float32)
        self.build_ms = (time.perf_counter() - t) * 1000.0

    @property
    def ids_by_text(self) -> dict[str, str]:
        """Chunk text -> id (the first chunk with that text)."""
        if getattr(self, "_ids_by_text", None) is None:
            self._ids_by_text: dict[str, str] | None = {}
            for r in reversed(self.records):
                self._ids_by_text[r["text"]] = r["id"]
        return self._ids_by_text  # type: ignore[return-value]

    def __len__(self) -> int:
        return len(self.records)

    # --- scoring ------------------------------------------------------------------------------
    def components(self, query: str, mask: np.ndarray | None = None) -> dict[str, np.ndarray]:
        """``lexical``, ``cosine``, ``hybrid`` and ``score`` of every chunk (``mask``: only those rows;
        the others are ``-inf`` so they can never rank)."""
        n = len(self.records)
        mask = np.ones(n, dtype=bool) if mask is None else mask
        q_tokens = list(dict.fromkeys(lemmas(query)))
        known = [t for t in q_tokens if t in self._idf]
        norm = lexical_norm([self._idf.get(t, self._idf_unseen) for t in q_tokens], k1=self.k1)
        bm = np.asarray(self._bm25.get_scores(known), dtype=np.float64) if known else np.zeros(n)
        lex = lexical(bm, norm)
        cos = np.full(n, -np.inf)
        rows = np.flatnonzero(mask)
        if rows.size:
            qv = self.embedder.embed([query])[0]
            cos[rows] = self.embeddings[rows] @ qv
        cal = self.calibration
        h = np.where(mask, hybrid(np.where(mask, cos, 0.0), lex, alpha=cal.alpha), -np.inf)
        score = np.where(mask, calibrated(np.where(mask, h, 0.0), a=cal.a, b=cal.b), -np.inf)
        return {"lexical": lex, "cosine": cos, "hybrid": h, "score": score}

    def search(self, query: str, filters: Mapping[str, Any] | None = None, k: int = 5) -> list[Chunk]:
        """Top ``k`` chunks among those matching ``filters``, best first (ties: index order)."""
        if not isinstance(query, str) or not query.strip():
            raise ConfigError(f"query must be a non-empty string (got {query!r})")
        if not isinstance(k, int) or k < 1:
            raise ConfigError(f"k must be a positive integer (got {k!r})")
        mask = filter_mask(self.records, filters)
        comp = self.components(query, mask)
        candidates = np.flatnonzero(mask)
        order = candidates[np.argsort(-comp["hybrid"][candidates], kind="stable")][:k]
        out = []
        for rank, i in enumerate(order, start=1):
            r = self.records[i]
            meta = {key: v for key, v in r.items() if key not in ("id", "text")}
            meta.update(rank=rank, lexical=round(float(comp["lexical"][i]), 4),
                        cosine=round(float(comp["cosine"][i]), 4), hybrid=round(float(comp["hybrid"][i]), 4))
            out.append(Chunk(r["id"], r["text"], round(float(comp["score"][i]), 4), meta))
        return out

    # --- persistence --------------------------------------------------------------------------
    def save(self, folder: str | os.PathLike[str]) -> Path:
        """Write ``chunks.jsonl``, ``embeddings.npy`` and ``index.json`` (BM25 is rebuilt on load: cheap).

        The three files are replaced together or not at all (:func:`ragauge.files.write_files_atomically`):
        a failed write raises :class:`~ragauge.errors.OutputError` naming the file and keeps the old index.
        """
        path = Path(folder)
        chunks = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in self.records)
        buf = io.BytesIO()
        np.save(buf, self.embeddings)
        meta = {"format": INDEX_FORMAT, "model_id": getattr(self.embedder, "model_id", ""), "k1": self.k1,
                "b": self.b, "n": len(self.records), "calibration": self.calibration.to_dict()}
        write_files_atomically({path / "chunks.jsonl": chunks, path / "embeddings.npy": buf.getvalue(),
                                path / "index.json": json.dumps(meta, ensure_ascii=False, indent=2)})
        return path

    @classmethod
    def load(cls, folder: str | os.PathLike[str], *, embedder: Any = None,
             calibration: ScoreCalibration | None = None) -> "HybridIndex":
        """Read a folder written by :meth:`save`; refuses embeddings of another model."""
        from .kb import read_kb_jsonl

        path = Path(folder)
        try:
            meta = json.loads((path / "index.json").read_text(encoding="utf-8"))
            embeddings = np.load(path / "embeddings.npy")
        except (OSError, ValueError) as exc:
            raise InputError(f"not a saved reference-RAG index: {exc}", file=str(path),
                             hint="build one with ReferenceRAG.from_kb(...).save(folder)") from None
        if meta.get("format") != INDEX_FORMAT:
            raise ConfigError(f"{path}: index format {meta.get('format')!r}, this ragauge reads {INDEX_FORMAT}; "
                              "rebuild the index")
        records = read_kb_jsonl(path / "chunks.jsonl")
        if embedder is None:
            from ..judges.offline.judge import OfflineJudge

            embedder = OfflineJudge.shared().embedder
        if meta.get("model_id") and getattr(embedder, "model_id", meta["model_id"]) != meta["model_id"]:
            raise ConfigError(f"{path}: embeddings were made by {meta['model_id']!r}, the embedder is "
                              f"{embedder.model_id!r}; rebuild the index")
        cal = calibration or ScoreCalibration.from_dict(meta.get("calibration", {}))
        return cls(records, calibration=cal, embedder=embedder, k1=meta.get("k1", 1.5), b=meta.get("b", 0.75),
                   embeddings=embeddings)


__all__ = ["HybridIndex", "index_text", "lemmas"]
