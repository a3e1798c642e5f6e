"""Fit the reference retriever's fusion weight and score calibration on labelled questions.

* ``alpha`` (cosine weight of the hybrid score): the value of a grid with the best mean recall@k over
  the questions that have relevant ids; ties go to the better hit rate@k, then to the *larger* alpha
  (the dense part is the only signal for a question in another language than the documents).
  Reciprocal rank fusion (``1/(60 + rank_bm25) + 1/(60 + rank_dense)``) is reported beside it.
* ``a, b``: :func:`~ragauge.rag.scoring.fit_logistic` of "chunk is relevant (grade >= 1)" on the hybrid
  score of every question's top-k candidates (questions without relevant ids contribute negatives
  only) -- the population the guard's ``score_threshold`` sees.

Reproduce the shipped ``score_calibration.json`` (fitted on the demo)::

    python -m ragauge.rag.fit --write
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..data.schema import Sample
from ..errors import InputError
from ..files import write_text_atomically
from .filters import filter_mask
from .index import HybridIndex
from .scoring import ScoreCalibration, fit_logistic, hybrid

ALPHAS = tuple(round(x, 2) for x in np.arange(0.0, 1.0001, 0.1))


def _components(index: HybridIndex, samples: Sequence[Sample]) -> list[tuple[np.ndarray, np.ndarray, dict]]:
    out = []
    for s in samples:
        mask = filter_mask(index.records, s.metadata.get("filters") if s.metadata else None)
        comp = index.components(s.question, mask)
        out.append((np.where(mask, comp["cosine"], 0.0), np.where(mask, comp["lexical"], -1.0),
                    dict(s.relevant_ids or {})))
    return out


def recall_at_k(ranking: Sequence[str], relevant: dict, k: int) -> float:
    """Share of the relevant ids (grade >= 1) in the top ``k``."""
    rel = {i for i, g in relevant.items() if g >= 1}
    return len(rel & set(ranking[:k])) / len(rel)


def alpha_table(index: HybridIndex, samples: Sequence[Sample], *, k: int = 5,
                alphas: Sequence[float] = ALPHAS) -> dict[float, dict[str, float]]:
    """Mean recall@k and hit rate@k of the hybrid ranking for each alpha (labelled questions only)."""
    ids = [r["id"] for r in index.records]
    comps = [c for c in _components(index, samples) if any(g >= 1 for g in c[2].values())]
    if not comps:
        raise InputError("no question has relevant ids", field="relevant_ids",
                         hint="label at least a few questions with the chunk ids that answer them")
    def row(score_of: Any) -> dict[str, float]:
        recalls = []
        for cos, lex, rel in comps:
            ranking = [ids[i] for i in np.argsort(-score_of(cos, lex), kind="stable")[:k]]
            recalls.append(recall_at_k(ranking, rel, k))
        return {"recall": float(np.mean(recalls)), "hit_rate": float(np.mean([r > 0 for r in recalls])),
                "n": len(comps)}

    table: dict[Any, dict[str, float]] = {}
    for alpha in alphas:
        table[float(alpha)] = row(lambda cos, lex, a=alpha: np.where(lex >= 0, hybrid(cos, np.maximum(lex, 0),
                                                                                        alpha=a), -np.inf))
    table["rrf"] = row(lambda cos, lex: np.where(lex >= 0, rrf([np.where(lex >= 0, cos, -np.inf), lex]), -np.inf))
    return table


def rrf(scores: Sequence[np.ndarray], *, c: float = 60.0) -> np.ndarray:
    """Reciprocal rank fusion: ``sum_i 1 / (c + rank_i)`` (ranks from 1, ties by index order)."""
    out = np.zeros(len(scores[0]))
    for s in scores:
        ranks = np.empty(len(s))
        ranks[np.argsort(-s, kind="stable")] = np.arange(1, len(s) + 1)
        out += 1.0 / (c + ranks)
    return out


def fit_score_calibration(index: HybridIndex, samples: Sequence[Sample], *, k: int = 5,
                          alpha: float | None = None, label: str = "") -> tuple[ScoreCalibration, dict]:
    """``(calibration, report)``: alpha by recall@k (unless given), then the logistic fit."""
    from ..data import require_questions

    require_questions(samples, purpose="the retrieval calibration")
    table = alpha_table(index, samples, k=k)
    if alpha is None:
        alpha = max((a for a in table if isinstance(a, float)),
                    key=lambda a: (table[a]["recall"], table[a]["hit_rate"], a))
    ids = [r["id"] for r in index.records]
    xs, ys = [], []
    for cos, lex, rel in _components(index, samples):
        h = np.where(lex >= 0, hybrid(cos, np.maximum(lex, 0), alpha=alpha), -np.inf)
        for i in np.argsort(-h, kind="stable")[:k]:
            xs.append(float(h[i]))
            ys.append(1.0 if rel.get(ids[i], 0) >= 1 else 0.0)
    a, b = fit_logistic(xs, ys)
    cal = ScoreCalibration(alpha=float(alpha), a=round(a, 4), b=round(b, 4), fitted_on=label, n_pairs=len(xs))
    return cal, {"alpha_table": table, "positives": int(sum(ys)), "pairs": len(xs)}


def main(argv: Sequence[str] | None = None) -> int:
    from ..data import load
    from ..demo import kb_path, samples_path
    from .kb import read_kb_jsonl
    from .scoring import ScoreCalibration as Cal

    parser = argparse.ArgumentParser(prog="python -m ragauge.rag.fit", description=__doc__.split("\n")[0])
    parser.add_argument("--kb", default=None, help="kb.jsonl (default: the demo's)")
    parser.add_argument("--samples", default=None, help="labelled questions (default: the demo's)")
    parser.add_argument("-k", type=int, default=5)
    parser.add_argument("--write", action="store_true", help="write src/ragauge/rag/score_calibration.json")
    args = parser.parse_args(argv)
    kb = args.kb or str(kb_path())
    samples = [s for s in load(args.samples or str(samples_path())) if "~" not in s.id]  # demo noise variants
    index = HybridIndex(read_kb_jsonl(kb), calibration=Cal())
    label = f"{Path(kb).name} + {Path(args.samples or str(samples_path())).name} ({len(samples)} questions, top-{args.k})"
    cal, report = fit_score_calibration(index, samples, k=args.k, label=label)
    for alpha, row in report["alpha_table"].items():
        name = f"alpha={alpha:.1f}" if isinstance(alpha, float) else "rrf      "
        print(f"{name}  recall@{args.k}={row['recall']:.3f}  hit_rate@{args.k}={row['hit_rate']:.3f}")
    print(f"chosen alpha={cal.alpha}; P(relevant) = sigmoid({cal.a} * hybrid + {cal.b}) "
          f"from {report['pairs']} pairs ({report['positives']} relevant)")
    if args.write:
        out = Path(__file__).with_name("score_calibration.json")
        write_text_atomically(out, json.dumps(cal.to_dict(), ensure_ascii=False, indent=2) + "\n")
        print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
