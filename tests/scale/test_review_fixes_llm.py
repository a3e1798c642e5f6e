"""Review fixes of the Ray engine (issue 17): a killed worker's LLM slot, the LLM usage and no-verdict exit on
Ray, judges Ray cannot ship, the report language, the golden-set review and the store's judge label.

The endpoint is the scripted OpenAI-compatible server of the LLM judge tests, on loopback.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from ragauge.metrics.registry import parse_metrics
from ragauge.scale.limiter import LimiterState
from scale_data import mixed_records, write_jsonl

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "judges" / "llm"))
from llm_fake_server import FakeOpenAI  # noqa: E402


def _records(n: int) -> list[dict]:
    return [r for r in mixed_records(4 * n) if r.get("answer")][:n]


def _spec(url: str, cache: Path, **config):
    from ragauge.judges.llm.config import LLMConfig
    from ragauge.scale.judge_spec import JudgeSpec

    settings = {"concurrency": 2, "max_retries": 0, **config}
    return JudgeSpec("llm", llm=LLMConfig(model="judge-model", base_url=url, **settings), cache_path=str(cache))


# --- finding 1: a slot is a lease, taken back from a dead holder or after its expiry ----------------------

def test_a_slot_whose_holder_died_is_taken_back_when_the_others_wait(monkeypatch):
    import ragauge.scale.limiter as limiter

    monkeypatch.setattr(limiter, "HOLDER_CHECK_SECONDS", 0.0)  # ask about the holders at every refusal
    monkeypatch.setattr(limiter, "HOLDER_MIN_AGE_SECONDS", 0.0)  # ... however young their lease
    alive = {("actor-a", 1, "n"): True, ("actor-b", 2, "n"): True}
    state = LimiterState(concurrency=1, holder_alive=lambda h: alive[h])
    first = state.slot_lease(("actor-a", 1, "n"))
    assert first is not None
    assert state.slot_lease(("actor-b", 2, "n")) is None  # the one slot is held by a live worker
    alive[("actor-a", 1, "n")] = False  # ... which is then SIGKILLed mid-call
    second = state.slot_lease(("actor-b", 2, "n"))
    assert second is not None and state.in_flight == 1 and state.reclaimed == 1
    state.slot_return(first)  # the dead holder's late return frees no one else's slot
    assert state.in_flight == 1
    state.slot_return(second)
    assert state.in_flight == 0


def test_a_lease_expires_after_the_request_deadline_and_its_margin():
    now = [0.0]
    state = LimiterState(concurrency=1, lease_seconds=10.0, clock=lambda: now[0], holder_alive=lambda h: None)
    assert state.slot_lease(("a", 1, None)) is not None
    now[0] = 9.9
    assert state.slot_lease(("b", 2, None)) is None
    now[0] = 10.0
    assert state.slot_lease(("b", 2, None)) is not None and state.reclaimed == 1


def test_an_llm_run_whose_only_worker_is_killed_mid_call_finishes_with_every_sample(ray_cluster, tmp_path):
    from ragauge.scale.ray_engine import iter_scored_blocks

    path = write_jsonl(tmp_path / "s.jsonl", _records(8))
    state: dict = {"ids": [], "killed": None, "error": None, "done": False}
    with FakeOpenAI() as fake:
        fake.delay = 0.5
        spec = _spec(fake.url, tmp_path / "replies.sqlite", concurrency=1)

        def run() -> None:
            try:
                # one sample a block (two calls of 0.5 s each): the worker is still busy when the first comes back
                for block in iter_scored_blocks(parse_metrics(["faithfulness"]), str(path), spec,
                                                workers=1, batch_size=1):
                    state["ids"] += block.ids
                    if state["killed"] is None:  # kill the worker while it holds the one slot for its next block
                        pid = int(block.worker.rsplit(":", 1)[1])
                        deadline = time.time() + 20
                        while fake.in_flight < 1 and time.time() < deadline:
                            time.sleep(0.01)
                        time.sleep(0.1)
                        os.kill(pid, signal.SIGKILL)
                        state["killed"] = pid
                state["done"] = True
            except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
                state["error"] = exc

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        thread.join(90)
    assert state["error"] is None, state["error"]
    assert state["done"], "the run hung: the killed worker's slot was never taken back"
    assert state["killed"] is not None
    assert state["ids"] == [r["id"] for r in _records(8)]


# --- finding 2: an LLM judge's usage on Ray has the local shape; the CLI prints it (no -q) and exits 0 ------

def test_the_cli_on_ray_with_an_llm_judge_prints_its_usage_and_writes_the_local_shape(ray_cluster, tmp_path,
                                                                                      monkeypatch, capsys):
    from ragauge.cli.main import main

    monkeypatch.setenv("RAGAUGE_CACHE_DIR", str(tmp_path / "cache"))  # the judge's reply cache, shared by the workers
    path = write_jsonl(tmp_path / "s.jsonl", _records(8))
    with FakeOpenAI() as fake:
        code = main(["eval", str(path), "--engine", "ray", "--workers", "2", "--judge",
                     f"openai:judge-model@{fake.url}", "-m", "faithfulness", "-p", "none", "-o", str(tmp_path / "out")])
    out = capsys.readouterr().out
    assert code == 0, out
    usage = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))["usage"]
    assert fake.answered > 0
    assert usage["judge"] == "llm" and usage["model"] == "judge-model"
    assert usage["total"]["calls"] == fake.answered  # every block's calls, from both workers
    assert usage["by_metric"]["faithfulness"]["calls"] == fake.answered
    assert usage["limiter"]["spend"]["calls"] == fake.answered  # the limiter's own report, kept beside
    assert f"LLM judge judge-model: {fake.answered} calls (0 from cache)" in out


# --- finding 4: a judge with no verdict at all raises its JudgeError (exit 3) on Ray too -------------------

def test_an_llm_judge_that_never_gives_a_usable_reply_raises_on_ray_as_locally(ray_cluster, tmp_path):
    import ragauge
    from ragauge.errors import JudgeError
    from ragauge.judges.llm.config import LLMConfig
    from ragauge.judges.llm.judge import LLMJudge

    path = write_jsonl(tmp_path / "s.jsonl", _records(8))
    with FakeOpenAI(responder=lambda body: "Sorry, I can't help with that.") as fake:
        judge = LLMJudge(LLMConfig(model="m", base_url=fake.url, max_retries=0, parse_retries=0),
                         cache=str(tmp_path / "replies.sqlite"))
        with pytest.raises(JudgeError, match="produced no verdict") as err:
            ragauge.evaluate(str(path), metrics=["faithfulness"], profile=None, judge=judge, engine="ray",
                             workers=2, batch_size=3)
    results = err.value.results  # type: ignore[attr-defined]
    assert results is not None and results.summary["faithfulness"].n == 0  # the CLI writes them before exit 3
    assert "asks over all workers" in str(err.value)


# --- finding 5: judges Ray cannot ship are refused up front, with the fix -----------------------------------

def test_the_cascade_judge_on_ray_is_refused_with_the_fix_not_a_traceback(tmp_path, capsys):
    from ragauge.cli.main import main

    path = write_jsonl(tmp_path / "s.jsonl", _records(4))
    code = main(["eval", str(path), "--engine", "ray", "--judge", "cascade:openai:m@http://127.0.0.1:9/v1",
                 "--max-calls", "3", "-m", "faithfulness", "-p", "none", "-o", str(tmp_path / "out"), "-q"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "cascade judge does not run on the Ray engine" in err and "bug in ragauge" not in err


def test_a_judge_wrapping_an_llm_judge_or_one_that_does_not_pickle_is_refused_on_the_driver():
    from ragauge.errors import ConfigError
    from ragauge.judges.llm.config import LLMConfig
    from ragauge.judges.llm.judge import LLMJudge
    from ragauge.scale.judge_spec import JudgeSpec

    class Wrapper:  # e.g. a user's proxy around an LLM judge
        def __init__(self, inner):
            self.helpers = {"inner": inner}

        def verify(self, items):
            return self.helpers["inner"].verify(items)

    class Locked:
        def __init__(self):
            self.lock = threading.Lock()

        def verify(self, items):
            return []

    llm = LLMJudge(LLMConfig(model="m", base_url="http://127.0.0.1:9/v1"), cache=None)
    with pytest.raises(ConfigError, match="wraps an LLM judge"):
        JudgeSpec.of(Wrapper(llm))
    with pytest.raises(ConfigError, match="cannot be sent to the Ray workers"):
        JudgeSpec.of(Locked())

    class Plain:  # a picklable object judge still travels as it is
        def verify(self, items):
            return []

    assert JudgeSpec.of(Plain()).kind == "object"


# --- finding 8: the report's language and the golden-set review, as the local engine gives them -----------

def test_a_ray_run_keeps_the_report_language_and_the_golden_set_review(ray_cluster, tmp_path):
    import ragauge
    from ragauge.engine.golden_review import MAX_IDS

    records = []
    for i, rec in enumerate(r for r in mixed_records(60) if r.get("retrieved_ids") and r.get("relevant_ids")):
        meta = dict(rec.get("metadata") or {})
        if i % 5:  # 4 in 5 generated; every 7th of those accepted by an expert
            meta["generator"] = "offline"
            if i % 7 == 0:
                meta["review"] = {"status": "accepted"}
        records.append(dict(rec, metadata=meta))
    path = write_jsonl(tmp_path / "gold.jsonl", records[:40])
    local = ragauge.evaluate(str(path), metrics=["mrr"], profile=None)
    on_ray = ragauge.evaluate(str(path), metrics=["mrr"], profile=None, engine="ray", workers=2, batch_size=6)
    assert local.golden_review is not None and local.golden_review["unreviewed"] > MAX_IDS  # the id list is cut
    assert on_ray.golden_review == local.golden_review
    assert on_ray.to_dict()["lang"] == local.to_dict()["lang"] == "ru"


# --- finding 12: the store's judge label does not depend on the engine ---------------------------------------

def test_a_retrieval_only_run_writes_the_same_judge_label_to_the_store_on_both_engines(ray_cluster, tmp_path):
    pytest.importorskip("sqlalchemy")
    pytest.importorskip("alembic")
    pytest.importorskip("pydantic")
    import sqlalchemy as sa

    import ragauge
    from ragauge.scale.front import evaluate_at_scale
    from ragauge.serve.db import make_engine, migrate, scores
    from ragauge.serve.schema import parse_batch
    from ragauge.serve.store import insert_batch

    url = f"sqlite:///{tmp_path / 'ragauge.db'}"
    engine = make_engine(url)
    migrate(engine)
    traces = [{"id": f"t{i}", "app_name": "bot", "app_version": "1", "question": "Какой срок?", "start_time": 1.7e9,
               "duration_ms": 100.0 + i, "spans": [{"kind": "generation", "answer": "Три дня.", "ttft_ms": 30.0}]}
              for i in range(6)]
    insert_batch(engine, parse_batch(json.dumps({"schema": "ragauge.trace/1", "traces": traces}).encode()), now=1.7e9)
    labels = {}
    for eng in ("local", "ray"):
        cfg = ragauge.EvalConfig(metrics=["latency_p50"], profile=None, engine=eng,
                                 **({"workers": 1} if eng == "ray" else {}))
        evaluate_at_scale(url, cfg, since=1.7e9 - 10, to_store=True)
        with engine.connect() as conn:
            labels[eng] = {r.judge for r in conn.execute(sa.select(scores))}
    engine.dispose()
    assert labels == {"local": {"offline"}, "ray": {"offline"}}


# --- noise_robustness is scored on the driver (ray_engine.CROSS_SAMPLE_FAMILIES): its LLM calls count too -----

def test_the_drivers_llm_calls_for_noise_robustness_are_in_the_runs_usage(ray_cluster, tmp_path):
    import ragauge

    demo = Path(ragauge.__file__).parent / "demo" / "data" / "samples.jsonl"
    rows = [json.loads(line) for line in demo.read_text(encoding="utf-8").splitlines() if line.strip()]
    variants = [r for r in rows if (r.get("metadata") or {}).get("noise_of")][:3]
    parents = {v["metadata"]["noise_of"] for v in variants}
    path = write_jsonl(tmp_path / "s.jsonl", [r for r in rows if r["id"] in parents] + variants)
    with FakeOpenAI() as fake:
        res = ragauge.evaluate(str(path), metrics=["noise_robustness"], profile=None, engine="ray", workers=2,
                               batch_size=2, judge=_spec(fake.url, tmp_path / "replies.sqlite"))
    assert fake.answered > 0
    assert res.usage["by_metric"]["noise_robustness"]["calls"] == fake.answered  # before: the limiter's total only
    assert res.usage["total"]["calls"] == fake.answered


def test_a_liveness_answer_of_another_shape_or_an_unset_pid_never_takes_a_live_slot(monkeypatch):
    import ragauge.scale.limiter as limiter

    answers = [{"State": "ALIVE", "Address": "10.0.0.1:1234", "Pid": 7},  # Address as a string (another Ray)
               {"State": "ALIVE", "Address": {"NodeID": "n"}, "Pid": 0},  # pid not set yet
               RuntimeError("GCS unreachable")]

    def actors(actor_id):
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    import ray._private.state as state

    monkeypatch.setattr(state, "actors", actors)
    for _ in range(3):
        assert limiter._ray_holder_alive(("actor-a", 7, "n")) in (None, True)
    monkeypatch.setattr(limiter, "HOLDER_CHECK_SECONDS", 0.0)
    monkeypatch.setattr(limiter, "HOLDER_MIN_AGE_SECONDS", 0.0)
    broken = LimiterState(concurrency=1, holder_alive=lambda h: 1 / 0)  # a check that raises says nothing
    assert broken.slot_lease(("actor-a", 1, "n")) is not None
    assert broken.slot_lease(("actor-b", 2, "n")) is None and broken.reclaimed == 0
