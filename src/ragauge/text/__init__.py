"""Plain-text helpers shared by the judges and the golden-set generator (no model, no I/O)."""

from ragauge.text.sentences import Span, split_sentences

__all__ = ["Span", "split_sentences"]
