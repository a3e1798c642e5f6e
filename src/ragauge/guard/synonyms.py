"""Synonym expansion from a user-supplied dictionary only (never free generation).

Each entry ``term -> [synonyms]`` forms a group; a question that mentions any member of a group (in
any word form: matching is on content lemmas, so "штукатурку" matches the term "штукатурка") gets the
group's other members appended to the retrieval query. Multi-word members match as contiguous lemma
sequences.

A dictionary loads from a mapping, a JSON file (``{"term": ["syn", ...]}``) or a text file with one
``term: syn1, syn2`` per line (``#`` starts a comment).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from ..errors import ConfigError
from ..judges.offline.lemmas import content_lemmas


def _lemmas(text: str) -> tuple[str, ...]:
    return tuple(content_lemmas(text))


def _contains(haystack: Sequence[str], needle: Sequence[str]) -> bool:
    n = len(needle)
    return n > 0 and any(tuple(haystack[i:i + n]) == tuple(needle) for i in range(len(haystack) - n + 1))


def _parse_text(text: str, source: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if ":" not in line:
            raise ConfigError(f"{source}, line {number}: expected 'term: synonym, synonym' (got {raw!r})")
        term, rest = line.split(":", 1)
        out[term.strip()] = [s.strip() for s in rest.split(",") if s.strip()]
    return out


@dataclass(frozen=True)
class SynonymDictionary:
    """Groups of interchangeable terms, with each member's lemma sequence precomputed."""

    groups: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...]

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Sequence[str]]) -> "SynonymDictionary":
        groups = []
        for term, synonyms in mapping.items():
            if isinstance(synonyms, str) or not isinstance(term, str):
                raise ConfigError(f"synonym dictionary entry {term!r}: expected term -> list of synonyms "
                                  f"(got {synonyms!r})")
            members = [term, *synonyms]
            groups.append(tuple((m, _lemmas(m)) for m in members if m.strip()))
        return cls(tuple(groups))

    @classmethod
    def load(cls, source: "SynonymDictionary | Mapping[str, Sequence[str]] | str | Path") -> "SynonymDictionary":
        """From a dictionary object, a mapping, or a ``.json`` / text file path."""
        if isinstance(source, SynonymDictionary):
            return source
        if isinstance(source, Mapping):
            return cls.from_mapping(source)
        path = Path(source)
        if not path.is_file():
            raise ConfigError(f"synonym dictionary {str(path)!r} not found; pass a mapping or a file path")
        text = path.read_text(encoding="utf-8")
        if path.suffix.lower() == ".json":
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ConfigError(f"{path}: not valid JSON ({exc})") from None
            if not isinstance(data, dict):
                raise ConfigError(f"{path}: expected a JSON object term -> [synonyms]")
            return cls.from_mapping(data)
        return cls.from_mapping(_parse_text(text, str(path)))

    def matches(self, text: str) -> list[tuple[str, list[str]]]:
        """``(matched member, other members)`` for every group that ``text`` mentions."""
        lemmas = _lemmas(text)
        out = []
        for group in self.groups:
            hit = next((m for m, lem in group if _contains(lemmas, lem)), None)
            if hit is not None:
                others = [m for m, lem in group if m != hit and not _contains(lemmas, lem)]
                out.append((hit, others))
        return out

    def expand(self, query: str) -> tuple[str, list[tuple[str, list[str]]]]:
        """The query with the matched groups' other members appended, and the matches."""
        found = self.matches(query)
        extra = [s for _, others in found for s in others]
        return (f"{query} {' '.join(extra)}" if extra else query), found

    def covered_lemmas(self, lemma: str) -> set[str]:
        """Lemmas that count as ``lemma`` for coverage: its own and its single-word synonyms'."""
        out = {lemma}
        for group in self.groups:
            if any(lem == (lemma,) for _, lem in group):
                out.update(lem[0] for _, lem in group if len(lem) == 1)
        return out
