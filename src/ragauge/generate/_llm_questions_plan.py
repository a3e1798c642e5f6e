"""Pure parts of LLM question generation: which chunks to ask about, reply shapes, and rule checks.

Plan (:func:`plan_groups`): ``ceil(n * overgenerate)`` candidates, so that the critic can drop some
and ``n`` still remain; a quarter ``reasoning``, a quarter ``multi_context`` (two chunks; adjacent
chunks of one document first, they tend to be related) when there are two chunks, the rest
``simple``. Single-chunk questions go round-robin over the shuffled chunks (``seed``), at most
``per_call`` per chunk and call, so the set spreads over documents instead of piling on the first.

Rules (:func:`rule_problem`), checked before the critic (free, deterministic): too short to be a
question (``vague``), written in another language than the corpus (``wrong_language``), the answer
inside the question (``leaks_answer``), the same question twice (``duplicate``).
"""

from __future__ import annotations

import json
import math
import random
import re
from dataclasses import dataclass
from typing import Any, Sequence

from ragauge.errors import JudgeParseError
from ragauge.generate.chunking import Chunk, normalise

#: Shortest chunk text (characters) worth asking about: headings alone or "see below" give nothing.
MIN_CHUNK_CHARS = 40
#: What the critic (and the rules) may say is wrong with a question.
PROBLEMS = ("not_answerable", "answer_not_in_sources", "vague", "leaks_answer", "wrong_language",
            "not_multi_context", "duplicate", "other")
#: Slices the model may tag; others it returns are ignored and counted.
MODEL_SLICES = ("numbers", "entities", "definition", "clause")


@dataclass(frozen=True)
class Group:
    """One generation call: these chunks, questions of these types (in order)."""

    index: int
    chunks: tuple[Chunk, ...]
    types: tuple[str, ...]


@dataclass(frozen=True)
class Candidate:
    question: str
    answer: str
    type: str
    sources: tuple[int, ...]  #: 0-based positions in the group's chunks
    slices: tuple[str, ...]


#: The types the LLM path writes (what a ``mix`` may name there).
LLM_TYPES = ("simple", "reasoning", "multi_context")


def plan_groups(chunks: Sequence[Chunk], n: int, *, seed: int = 0, overgenerate: float = 1.5,
                per_call: int = 3, mix: dict[str, float] | None = None) -> list[Group]:
    """The generation calls for about ``n * overgenerate`` candidates (see the module docstring).

    ``mix`` (normalised shares of :data:`LLM_TYPES`) replaces the default quarter/quarter/half split."""
    usable = [c for c in chunks if len(c.text.strip()) >= MIN_CHUNK_CHARS]
    if n <= 0 or not usable:
        return []
    rng = random.Random(seed)
    target = math.ceil(n * overgenerate)
    if mix is not None:
        multi = round(target * mix.get("multi_context", 0.0)) if len(usable) >= 2 else 0
        reasoning = round(target * mix.get("reasoning", 0.0))
        simple = round(target * mix.get("simple", 0.0))
    else:
        multi = round(target * 0.25) if len(usable) >= 2 else 0
        reasoning = round(target * 0.25)
        simple = target - multi - reasoning
    pool = list(usable)
    rng.shuffle(pool)
    wanted = ["simple"] * simple + ["reasoning"] * reasoning
    rng.shuffle(wanted)
    per_chunk: dict[int, list[str]] = {}
    i = 0
    while wanted:
        slot = per_chunk.setdefault(i % len(pool), [])
        slot.append(wanted.pop())
        i += 1
    groups: list[Group] = []
    for k in sorted(per_chunk):
        types = per_chunk[k]
        for start in range(0, len(types), per_call):
            groups.append(Group(len(groups), (pool[k],), tuple(sorted(types[start:start + per_call]))))
    ordered = sorted(usable, key=lambda c: (c.doc_id, c.ordinal))
    pairs = [(a, b) for a, b in zip(ordered, ordered[1:]) if a.doc_id == b.doc_id]
    rng.shuffle(pairs)
    while len(pairs) < multi:
        a, b = rng.sample(usable, 2)
        pairs.append((a, b))
    for a, b in pairs[:multi]:
        groups.append(Group(len(groups), (a, b), ("multi_context",)))
    return groups


def _strings(value: Any) -> list[str]:
    return [v.strip() for v in value if isinstance(v, str) and v.strip()] if isinstance(value, list) else []


def generation_shape(group: Group, ignored: list[str]):
    """Validator of ``{"questions": [{"type", "question", "answer", "sources", "slices"}]}`` for ``group``.

    ``type`` may be left out (the requested type at that position is taken); ``sources`` may be left
    out (all the group's chunks); unknown slices and questions beyond the requested count are
    appended to ``ignored`` (counted in the summary, never silently lost)."""
    n_src = len(group.chunks)
    allowed = set(group.types)

    def shape(value: Any, raw: str) -> list[Candidate]:
        items = value.get("questions") if isinstance(value, dict) else value
        if not isinstance(items, list) or not items:
            raise JudgeParseError(f'expected {{"questions": [...]}} with {len(group.types)} question(s)', raw=raw)
        out = []
        for pos, item in enumerate(items[:len(group.types)], 1):
            if not isinstance(item, dict):
                raise JudgeParseError(f"questions[{pos}] must be an object", raw=raw)
            q, a = item.get("question"), item.get("answer")
            if not isinstance(q, str) or not q.strip() or not isinstance(a, (str, int, float)) or not str(a).strip():
                raise JudgeParseError(f'questions[{pos}] needs a non-empty "question" and "answer"', raw=raw)
            qtype = item.get("type") or group.types[pos - 1]
            if qtype not in allowed:
                raise JudgeParseError(f'questions[{pos}].type must be one of {sorted(allowed)}, got {qtype!r}', raw=raw)
            src = item.get("sources") or list(range(1, n_src + 1))
            if isinstance(src, int) and not isinstance(src, bool):
                src = [src]
            if not isinstance(src, list) or not all(isinstance(s, int) and not isinstance(s, bool)
                                                    and 1 <= s <= n_src for s in src):
                raise JudgeParseError(f"questions[{pos}].sources must be source numbers 1..{n_src}, got {src!r}",
                                      raw=raw)
            slices = []
            for s in _strings(item.get("slices")):
                if s in MODEL_SLICES:
                    slices.append(s)
                else:
                    ignored.append(f"slice {s!r}")
            out.append(Candidate(q.strip(), str(a).strip(), qtype, tuple(sorted({s - 1 for s in src})),
                                 tuple(dict.fromkeys(slices))))
        if len(items) > len(group.types):
            ignored.append(f"{len(items) - len(group.types)} extra question(s)")
        return out

    return shape


@dataclass(frozen=True)
class Verdict:
    keep: bool
    problem: str
    reason: str


def critique_shape(n_questions: int):
    """Validator of ``{"verdicts": [{"question": 1, "keep": bool, "problem", "reason"}]}`` covering every question."""

    def shape(value: Any, raw: str) -> list[Verdict]:
        items = value.get("verdicts") if isinstance(value, dict) else value
        if not isinstance(items, list):
            raise JudgeParseError('expected {"verdicts": [...]}', raw=raw)
        seen: dict[int, Verdict] = {}
        for pos, item in enumerate(items, 1):
            if not isinstance(item, dict):
                raise JudgeParseError(f"verdicts[{pos}] must be an object", raw=raw)
            num = item.get("question", pos if len(items) == n_questions else None)
            if isinstance(num, str) and num.strip().isdigit():
                num = int(num)
            if not isinstance(num, int) or isinstance(num, bool) or not 1 <= num <= n_questions:
                raise JudgeParseError(f"verdicts[{pos}].question must be a number 1..{n_questions}, got {num!r}", raw=raw)
            keep = item.get("keep")
            if isinstance(keep, str) and keep.strip().lower() in ("true", "false"):
                keep = keep.strip().lower() == "true"
            if not isinstance(keep, bool):
                raise JudgeParseError(f"verdicts[{pos}].keep must be true or false, got {keep!r}", raw=raw)
            problem = str(item.get("problem") or ("ok" if keep else "other")).strip().lower()
            if not keep and problem not in PROBLEMS:
                problem = "other"
            reason = item.get("reason") or ""
            seen[num] = Verdict(keep, "ok" if keep else problem, str(reason).strip())
        missing = [i for i in range(1, n_questions + 1) if i not in seen]
        if missing:
            raise JudgeParseError(f"no verdict for question(s) {missing}; give exactly one verdict for each of the "
                                  f"{n_questions} questions", raw=raw)
        return [seen[i] for i in range(1, n_questions + 1)]

    return shape


def rule_problem(c: Candidate, lang: str, seen: set[str]) -> str | None:
    """The first rule the candidate breaks (see the module docstring), else ``None``."""
    from ragauge.judges.offline.text import detect_language

    q = normalise(c.question)
    if len(re.findall(r"\w+", q)) < 3:
        return "vague"
    detected = detect_language(c.question)
    if detected is not None and detected != lang:
        return "wrong_language"
    a = normalise(c.answer)
    if len(a) >= 4 and a.rstrip(".") in q:
        return "leaks_answer"
    if q in seen:
        return "duplicate"
    return None


def format_sources(chunks: Sequence[Chunk], max_chars: int = 2500) -> str:
    """``[1] text`` blocks (each cut at ``max_chars``)."""
    blocks = []
    for i, c in enumerate(chunks, 1):
        text = c.text if len(c.text) <= max_chars else c.text[:max_chars] + " …"
        blocks.append(f"[{i}] {text}")
    return "\n\n".join(blocks)


def format_questions(cands: Sequence[Candidate]) -> str:
    return "\n".join(f"[{i}] " + json.dumps({"type": c.type, "question": c.question, "answer": c.answer,
                                               "sources": [s + 1 for s in c.sources]}, ensure_ascii=False)
                     for i, c in enumerate(cands, 1))


__all__ = ["Candidate", "LLM_TYPES", "Group", "MIN_CHUNK_CHARS", "PROBLEMS", "Verdict", "critique_shape", "format_questions",
           "format_sources", "generation_shape", "plan_groups", "rule_problem"]
