"""Call the user's RAG pipeline on golden samples, record what it did, evaluate.

Two shapes of pipeline:
- ``pipeline(question)`` returns the answer: a string, an iterator of string chunks (streaming), a
  mapping with ``answer`` / ``contexts`` / ``retrieved_ids`` (and optionally ``retrieval_ms``,
  ``ttft_ms``), or an object with those attributes;
- ``retrieve(question)`` returns the contexts and ``generate(question, contexts)`` the answer (string or
  chunks); either may be left out (then the sample's own contexts / answer stay).

Each callable may be ``async``: a coroutine is awaited and an async iterator of chunks is streamed, on one
event loop that :func:`collect` owns for the whole run (samples still run one at a time, so the timings
are the pipeline's own, not a queue's). Call it from synchronous code (a test, a script); inside an
already running event loop, call your pipeline yourself and pass the recorded samples instead.

Contexts may be strings, :class:`~ragauge.data.schema.Context`, mappings (``text``/``page_content``,
``id``, ``score``) or objects with those attributes (e.g. LangChain ``Document``: ``page_content`` and
``metadata["id"]``). Timings are measured around the calls with ``time.perf_counter``: ``latency_ms``
(the whole request), ``retrieval_ms`` (``retrieve``), ``ttft_ms`` (request start to the first chunk of
a streamed answer; not measured, ``None``, for a plain string).
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import time
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Sequence

from ..errors import InputError

if TYPE_CHECKING:  # pragma: no cover
    from ..data.schema import Context, Sample
    from ..engine.results import Results

Clock = Callable[[], float]


def _samples(samples: Any) -> tuple[list["Sample"], str | None]:
    from ..data import load
    from ..data.schema import Sample
    from .golden_set import GoldenSample

    if isinstance(samples, (list, tuple)) and samples and all(isinstance(s, GoldenSample) for s in samples):
        return [s.sample for s in samples], samples[0].golden_set.source
    if isinstance(samples, (list, tuple)) and samples and all(isinstance(s, Sample) for s in samples):
        return list(samples), None
    source = str(samples) if isinstance(samples, str) or hasattr(samples, "__fspath__") else None
    return load(samples), source


def _get(obj: Any, *names: str) -> Any:
    for n in names:
        if isinstance(obj, Mapping) and n in obj:
            return obj[n]
        if not isinstance(obj, Mapping) and hasattr(obj, n):
            return getattr(obj, n)
    return None


def _context(item: Any, where: str) -> "Context":
    from ..data.schema import Context

    if isinstance(item, Context):
        return item
    if isinstance(item, str):
        return Context(item)
    text = _get(item, "text", "page_content", "content")
    if not isinstance(text, str):
        raise InputError(f"{where}: a context must be a string, a Context, or have 'text' / 'page_content'",
                         value=item)
    meta = _get(item, "metadata")
    meta = dict(meta) if isinstance(meta, Mapping) else {}
    cid = _get(item, "id")
    if cid is None:
        cid = meta.get("id")
    score = _get(item, "score")
    if score is None:
        score = meta.get("score")
    return Context(text, None if cid is None else str(cid), None if score is None else float(score))


def _contexts(value: Any, where: str) -> tuple["Context", ...]:
    if value is None:
        return ()
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise InputError(f"{where}: contexts must be a list", value=value)
    return tuple(_context(c, where) for c in value)


class _Loop:
    """Resolves what an async pipeline returns (coroutines, async iterators) on one private event loop."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None

    def _run(self, aw: Any) -> Any:
        if self._loop is None:
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                pass
            else:
                if hasattr(aw, "close"):
                    aw.close()  # never awaited: close it rather than leak a "never awaited" warning
                raise InputError("an async pipeline cannot be driven from inside a running event loop: call it "
                                 "yourself (await it) and pass the recorded samples to ragauge.evaluate")
            self._loop = asyncio.new_event_loop()
        return self._loop.run_until_complete(aw)

    def value(self, out: Any) -> Any:
        return self._run(out) if inspect.isawaitable(out) else out

    def chunks(self, agen: Any) -> Iterator[Any]:
        it = agen.__aiter__()
        while True:
            try:
                yield self._run(it.__anext__())
            except StopAsyncIteration:
                return

    def close(self) -> None:
        if self._loop is not None:
            self._loop.run_until_complete(self._loop.shutdown_asyncgens())
            self._loop.close()
            self._loop = None


def _consume(answer: Any, start: float, clock: Clock, loop: _Loop) -> tuple[str | None, float | None]:
    """A string answer as it is; an (async) iterator of chunks joined, with the time to its first chunk."""
    if answer is None or isinstance(answer, str):
        return answer, None
    if hasattr(answer, "__aiter__"):
        answer = loop.chunks(answer)
    if isinstance(answer, Iterator):
        parts: list[str] = []
        ttft = None
        for chunk in answer:
            if ttft is None:
                ttft = (clock() - start) * 1000.0
            parts.append(chunk if isinstance(chunk, str) else str(_get(chunk, "text", "content") or ""))
        return "".join(parts), ttft
    raise InputError("the pipeline's answer must be a string or an iterator of string chunks", value=answer)


def _is_stream(out: Any) -> bool:
    return isinstance(out, (str, Iterator)) or hasattr(out, "__aiter__")


def _one(sample: "Sample", pipeline, retrieve, generate, clock: Clock, loop: _Loop) -> "Sample":
    where = f"sample {sample.id!r}"
    fields: dict[str, Any] = {}
    start = clock()
    if pipeline is not None:
        out = loop.value(pipeline(sample.question))
        if _is_stream(out):
            answer, ttft = _consume(out, start, clock, loop)
        else:
            answer, ttft = _consume(loop.value(_get(out, "answer", "response", "output")), start, clock, loop)
            ctx = _get(out, "contexts", "source_documents", "context")
            if ctx is not None:
                fields["contexts"] = _contexts(ctx, where)
            ids = _get(out, "retrieved_ids")
            if ids is not None:
                fields["retrieved_ids"] = tuple(str(x) for x in ids)
            for key in ("retrieval_ms", "ttft_ms"):
                if (given := _get(out, key)) is not None:
                    fields[key] = float(given)
        fields.setdefault("ttft_ms", ttft)
        fields["answer"] = answer
    else:
        raw_ctx: Any = sample.context_texts
        if retrieve is not None:
            raw_ctx = loop.value(retrieve(sample.question))
            fields["retrieval_ms"] = (clock() - start) * 1000.0
            fields["contexts"] = _contexts(raw_ctx, where)
        if generate is not None:
            answer, ttft = _consume(loop.value(generate(sample.question, raw_ctx)), start, clock, loop)
            fields["answer"], fields["ttft_ms"] = answer, ttft
    fields["latency_ms"] = (clock() - start) * 1000.0
    ctxs = fields.get("contexts")
    if ctxs and "retrieved_ids" not in fields:
        # the new ranking replaces the file's one; contexts without ids leave no id ranking
        fields["retrieved_ids"] = tuple(c.id for c in ctxs) if all(c.id is not None for c in ctxs) else None
    fields = {k: v for k, v in fields.items() if not (k == "ttft_ms" and v is None and sample.ttft_ms is not None)}
    return dataclasses.replace(sample, **fields)


def collect(
    samples: Any,
    *,
    pipeline: Callable[[str], Any] | None = None,
    retrieve: Callable[[str], Any] | None = None,
    generate: Callable[[str, Any], Any] | None = None,
    clock: Clock = time.perf_counter,
) -> list["Sample"]:
    """Run the pipeline on every sample (in order, one at a time) and return new samples with the
    answers, contexts, ranking and timings it produced; ids, questions and references are kept."""
    if pipeline is None and retrieve is None and generate is None:
        raise InputError("nothing to run: pass pipeline=callable, or retrieve= and/or generate=")
    if pipeline is not None and (retrieve is not None or generate is not None):
        raise InputError("pass either pipeline= or retrieve=/generate=, not both")
    items, _ = _samples(samples)
    from ..data import require_questions

    require_questions(items, purpose="the pipeline")
    out = []
    loop = _Loop()
    try:
        for s in items:
            try:
                out.append(_one(s, pipeline, retrieve, generate, clock, loop))
            except InputError:
                raise
            except Exception as exc:
                exc.add_note(f"ragauge: raised by the pipeline on sample {s.id!r} (question: {s.question[:80]!r})")
                raise
    finally:
        loop.close()
    return out


def run_pipeline(
    samples: Any,
    *,
    pipeline: Callable[[str], Any] | None = None,
    retrieve: Callable[[str], Any] | None = None,
    generate: Callable[[str, Any], Any] | None = None,
    clock: Clock = time.perf_counter,
    **evaluate_kwargs: Any,
) -> "Results":
    """:func:`collect`, then :func:`ragauge.evaluate` on the recorded samples (``evaluate_kwargs``:
    ``metrics``, ``profile``, ``judge``, ``baseline``...). ``Results.samples`` hold what was recorded."""
    from importlib import import_module

    source = str(samples) if isinstance(samples, str) or hasattr(samples, "__fspath__") else None
    recorded = collect(samples, pipeline=pipeline, retrieve=retrieve, generate=generate, clock=clock)
    results = import_module("ragauge.engine.evaluate").evaluate(recorded, **evaluate_kwargs)
    from .golden_set import GoldenSample

    if isinstance(samples, (list, tuple)) and samples and isinstance(samples[0], GoldenSample):
        source = samples[0].golden_set.source
    results.source = f"{source or 'samples'} (pipeline run)"
    return results


__all__: Sequence[str] = ["collect", "run_pipeline"]
