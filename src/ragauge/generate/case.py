"""One generated golden case, and its JSONL row (a row ``ragauge.data`` loads as a :class:`Sample`).

Every generator (offline templates, the LLM path) produces :class:`GoldenCase`; the review loop and the
writer read and write rows of this one shape, so a golden file is directly an evaluation input::

    {"id": "g-0007", "question": "Сколько стоит монтаж ГКЛ в один слой?",
     "reference": "1150 руб. за м²", "relevant_ids": ["price-002"],
     "tags": ["simple", "numbers", "table"],
     "metadata": {"type": "simple", "slices": ["numbers", "table"], "language": "ru",
                  "source": {"chunk_ids": ["price-002"], "doc_ids": ["prices.xlsx"], "titles": [...],
                             "versions": ["01.03.2026"]},
                  "generator": "offline", "template": "table_price", "seed": 0,
                  "expected_behaviour": "answer"}}

``type`` is one of :data:`TYPES`; ``slices`` are from :data:`SLICES` (a case may sit in several).
An unanswerable case has no ``relevant_ids`` (``[]``) and ``expected_behaviour == "not_found"``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

#: Question types of the issue: one chunk, reasoning over one chunk, two or more chunks, nothing in the corpus.
TYPES = ("simple", "reasoning", "multi_context", "unanswerable")
#: The seeds' slices.
SLICES = ("numbers", "entities", "paraphrase", "long_section", "table", "versions", "unanswerable",
          "badly_formulated", "sensitive", "definition", "clause")
#: What a good system does with the case.
BEHAVIOURS = ("answer", "not_found", "clarify", "refuse_or_caution")


def _generator(meta: Mapping[str, Any]) -> str | None:
    """``metadata.generator``: an explicit null stays None (an expert's case); missing means "offline"."""
    if "generator" in meta and meta["generator"] is None:
        return None
    return str(meta.get("generator") or "offline")


@dataclass(frozen=True)
class GoldenCase:
    id: str
    question: str
    reference: str
    relevant_ids: tuple[str, ...]
    type: str
    slices: tuple[str, ...] = ()
    language: str = "ru"
    source: Mapping[str, Any] = field(default_factory=dict)
    generator: str | None = "offline"  #: None for a case an expert wrote (review sheet)
    template: str | None = None
    seed: int | None = None
    expected_behaviour: str = "answer"
    extra: Mapping[str, Any] = field(default_factory=dict)  #: anything else worth keeping (e.g. review)

    def __post_init__(self) -> None:
        if self.type not in TYPES:
            raise ValueError(f"case {self.id}: type {self.type!r} is not one of {', '.join(TYPES)}")
        bad = [s for s in self.slices if s not in SLICES]
        if bad:
            raise ValueError(f"case {self.id}: unknown slice(s) {bad}; known: {', '.join(SLICES)}")
        if self.expected_behaviour not in BEHAVIOURS:
            raise ValueError(f"case {self.id}: expected_behaviour {self.expected_behaviour!r} is not one of "
                             f"{', '.join(BEHAVIOURS)}")

    @property
    def tags(self) -> tuple[str, ...]:
        """The type first, then the slices, each once: what per-slice reports group by."""
        out = [self.type]
        out += [s for s in self.slices if s not in out]
        return tuple(out)

    def to_row(self) -> dict[str, Any]:
        meta: dict[str, Any] = {"type": self.type, "slices": list(self.slices), "language": self.language,
                                "source": dict(self.source), "generator": self.generator,
                                "expected_behaviour": self.expected_behaviour}
        if self.template is not None:
            meta["template"] = self.template
        if self.seed is not None:
            meta["seed"] = self.seed
        meta.update(self.extra)
        return {"id": self.id, "question": self.question, "reference": self.reference,
                "relevant_ids": list(self.relevant_ids), "tags": list(self.tags), "language": self.language,
                "metadata": meta}

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> "GoldenCase":
        meta = dict(row.get("metadata") or {})
        known = {"type", "slices", "language", "source", "generator", "template", "seed", "expected_behaviour"}
        tags = list(row.get("tags") or [])
        ctype = meta.get("type") or next((t for t in tags if t in TYPES), "simple")
        slices = meta.get("slices")
        if slices is None:
            slices = [t for t in tags if t in SLICES and t != ctype]
        rel = row.get("relevant_ids") or []
        if isinstance(rel, Mapping):
            rel = list(rel)
        return cls(id=str(row["id"]), question=str(row["question"]), reference=str(row.get("reference") or ""),
                   relevant_ids=tuple(str(r) for r in rel), type=ctype, slices=tuple(slices),
                   language=str(row.get("language") or meta.get("language") or "ru"),
                   source=dict(meta.get("source") or {}), generator=_generator(meta),
                   template=meta.get("template"), seed=meta.get("seed"),
                   expected_behaviour=str(meta.get("expected_behaviour") or "answer"),
                   extra={k: v for k, v in meta.items() if k not in known})
