"""A candidate question before selection, and the small number helpers every template shares."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ragauge.generate.chunking import Chunk


@dataclass(frozen=True)
class Candidate:
    """What a template produced; selection turns the kept ones into :class:`GoldenCase` s."""

    question: str
    reference: str
    chunks: tuple[Chunk, ...]  #: the relevant chunks (empty for an unanswerable question)
    type: str
    slices: tuple[str, ...]
    lang: str
    template: str
    expected_behaviour: str = "answer"
    variant_of: int | None = None  #: index of the base candidate of a noisy or paraphrased variant
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def relevant_ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.chunks)

    @property
    def doc_key(self) -> str:
        """The document this case is balanced under (the first relevant chunk's; "-" for none)."""
        return self.chunks[0].doc_id if self.chunks else "-"

    @property
    def slice_key(self) -> str:
        """The bucket this case is balanced under: "versions" when it has that slice, "reasoning" or
        "multi_context" by type, else its first slice."""
        if "versions" in self.slices:
            return "versions"
        if self.type in ("reasoning", "multi_context") and "long_section" not in self.slices:
            return self.type
        return self.slices[0] if self.slices else self.type


def fmt_number(value: float, lang: str, *, decimals: int | None = None) -> str:
    """"1150.0" -> "1 150" (ru) / "1,150" (en); fractions keep up to two digits ("52,7" / "52.7").

    >>> fmt_number(1150.0, "ru"), fmt_number(52.7, "ru"), fmt_number(1150.5, "en")
    ('1 150', '52,7', '1,150.5')
    """
    if decimals is None:
        decimals = 0 if abs(value - round(value)) < 1e-9 else 2
    text = f"{value:,.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if lang == "ru":
        text = text.replace(",", " ").replace(".", ",")
    return text


__all__ = ["Candidate", "fmt_number"]
