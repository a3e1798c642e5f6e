"""The one narrow door every judge goes through (offline models, an LLM endpoint, a cascade).

Metrics receive a judge object and call these batched methods; they never construct a judge and
never know which one they got. All methods take whole batches so that a judge can share work
(the offline judge embeds every sentence of a batch once; an LLM judge plans its calls).
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence, runtime_checkable

import numpy as np

from .types import ClaimVerdict, Provenance


@runtime_checkable
class Judge(Protocol):
    name: str

    def provenance(self) -> Provenance:
        """Which judge, model and version produced the values."""

    def claims(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[list[Any]]:
        """Atomic claims of each text: objects with ``text``, ``start``, ``end`` (offsets into the text)."""

    def verify(
        self, items: Sequence[tuple[Sequence[Any], Sequence[str], str | None]]
    ) -> list[list[ClaimVerdict]]:
        """For each ``(claims, sources, lang)``: one verdict per claim against the sources."""

    def refusals(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[bool]:
        """Whether each text declines to answer ("В базе нет документов ...", "I don't know")."""

    def relevance(self, questions: Sequence[str], answers: Sequence[str]) -> list[float]:
        """How well each answer addresses its question, in [0, 1] (calibrated)."""

    def similarity(self, a: Sequence[str], b: Sequence[str]) -> np.ndarray:
        """Semantic similarity of ``a[i]`` and ``b[i]`` in [0, 1]."""

    def toxicity(self, texts: Sequence[str], langs: Sequence[str | None]) -> list[Any]:
        """Per text: an object with ``probability`` (None if unscored), ``toxic``, ``reason``, ``sentence``."""


@runtime_checkable
class Prefetching(Protocol):
    """Optional extra door (not part of :class:`Judge`: the offline judge has no use for it).

    ``prefetch(samples, specs)`` is called once by :func:`ragauge.evaluate`, before the metric families
    run, with the samples and the judge metrics' specs, when the judge has it. A judge that pays per
    call (the LLM judge) plans the whole suite there -- e.g. the answer's and the reference's claims in
    one call -- so that the metrics' later batched calls are answered from its memo. It must not change
    what the door methods return, only how many calls they cost.
    """

    def prefetch(self, samples: Sequence[Any], specs: Sequence[Any]) -> None:
        """Answer up front what the metrics in ``specs`` will ask about ``samples``."""


def get_judge(judge: Judge | str | None = None) -> Judge:
    """Resolve ``None``/``"offline"`` to the offline judge, ``"openai:..."`` to the LLM judge, ``"cascade:openai:..."``
    to the cascade judge; pass a judge object through unchanged (not checked against :class:`Judge`: an
    object with only the methods the chosen metrics call is accepted)."""
    if judge is None:
        judge = "offline"
    if isinstance(judge, str):
        from .spec import parse_judge

        choice = parse_judge(judge, option="judge")
        if choice.kind in ("auto", "offline"):
            from .offline.judge import OfflineJudge

            return OfflineJudge.shared()
        if choice.kind == "none":
            from ..errors import ConfigError

            raise ConfigError("judge 'none' was chosen, but a judge metric was asked for: leave the judge metrics "
                              "out, or choose 'offline' or 'openai:MODEL@URL'")
        if choice.kind == "cascade":
            from .llm.cascade import CascadeJudge

            return CascadeJudge.from_spec(choice.text)
        from .llm.judge import LLMJudge

        return LLMJudge.from_spec(choice.llm or choice.text)
    return judge
