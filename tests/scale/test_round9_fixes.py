"""Open items of the second review of the Ray engine (issue 17): a limiter slot leased to a request that was
cancelled, a ``timeout=0`` lease whose holder died, a judge object pickled twice on the driver, and
``noise_robustness`` scored serially on the driver after two reads of the input.
"""

from __future__ import annotations

import asyncio
import sys
import time

import pytest

from ragauge.scale.limiter import LimiterState
from scale_data import write_jsonl


def _config(**settings):
    from ragauge.judges.llm.config import LLMConfig

    return LLMConfig(model="judge-model", base_url="http://127.0.0.1:9/v1", **settings)


def _lease_within(ray, limiter, seconds: float) -> int | None:
    """A slot for another holder, asked for until ``seconds`` have passed (``None``: never granted)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        token = ray.get(limiter.slot_lease.remote(("someone-else", 1, None)))
        if token is not None:
            return token
        time.sleep(0.05)
    return None


# --- 1. a lease is cancel-safe, and a timeout=0 lease still ends when its holder stops -----------------------

def test_a_request_cancelled_while_the_limiter_answers_gives_back_the_slot_it_was_granted(ray_cluster):
    from ragauge.scale.limiter import SharedLimitClient, start_limiter

    config = _config(concurrency=1, timeout=0)  # no deadline: before, such a lease was never taken back
    limiter = start_limiter(config)
    client = SharedLimitClient(config, limiter)

    async def cancel_while_waiting() -> None:
        request = asyncio.ensure_future(client._sem().__aenter__())
        await asyncio.sleep(0)  # the lease is asked for: the request now awaits the limiter's answer
        request.cancel()  # e.g. a sibling request failed, or the user's own deadline passed
        with pytest.raises(asyncio.CancelledError):
            await request

    asyncio.run(cancel_while_waiting())
    assert _lease_within(ray_cluster, limiter, 10.0) is not None, "the cancelled request kept the only slot"
    ray_cluster.kill(limiter)


def test_a_timeout_0_lease_is_kept_while_renewed_and_taken_back_once_its_holder_stops_renewing():
    now = [0.0]
    # a holder Ray cannot judge (no actor, or an answer it cannot read): before, only a deadline could end it
    state = LimiterState(concurrency=1, renew_seconds=60.0, clock=lambda: now[0], holder_alive=lambda h: None)
    first = state.slot_lease(("worker-a", 11, None))
    assert first is not None
    now[0] = 45.0
    assert state.slot_renew(first) is True  # a request still running renews its lease
    now[0] = 100.0
    assert state.slot_lease(("worker-b", 12, None)) is None  # renewed at 45: held until 105
    now[0] = 105.0
    second = state.slot_lease(("worker-b", 12, None))  # worker-a stopped renewing: its process is gone
    assert second is not None and state.reclaimed == 1
    assert state.slot_renew(first) is False  # a late renewal does not bring the lease back
    state.slot_return(first)
    assert state.in_flight == 1
    state.slot_return(second)
    assert state.in_flight == 0


def test_on_ray_a_timeout_0_slot_survives_a_long_request_and_is_freed_when_its_process_dies(ray_cluster,
                                                                                            monkeypatch):
    import ragauge.scale.limiter as limiter_module
    from ragauge.scale.limiter import SharedLimitClient, start_limiter

    # read by start_limiter and the client, here (not there before: the run then shows what happened before)
    monkeypatch.setattr(limiter_module, "RENEW_SECONDS", 1.0, raising=False)
    monkeypatch.setattr(limiter_module, "RENEW_EVERY_SECONDS", 0.2, raising=False)
    config = _config(concurrency=1, timeout=0)
    limiter = start_limiter(config)

    async def long_request_and_a_waiting_one() -> bool:
        holder, waiter = SharedLimitClient(config, limiter), SharedLimitClient(config, limiter)

        async def long_request() -> None:
            async with holder._sem():
                await asyncio.sleep(2.5)  # longer than a lease lives without renewals

        running = asyncio.ensure_future(long_request())
        await asyncio.sleep(0.3)
        try:
            await asyncio.wait_for(waiter._sem().__aenter__(), 1.8)
            took_it = True
        except TimeoutError:
            took_it = False
        await running
        return took_it

    assert asyncio.run(long_request_and_a_waiting_one()) is False  # a live, renewing holder keeps its slot

    def hold_and_die(limiter) -> None:  # a Ray task (no actor: Ray's actor table cannot say it died)
        import os

        async def hold() -> None:
            async with SharedLimitClient(config, limiter)._sem():
                os._exit(1)

        asyncio.run(hold())

    task = ray_cluster.remote(max_retries=0, num_cpus=0)(hold_and_die).remote(limiter)
    with pytest.raises(Exception):
        ray_cluster.get(task)
    assert _lease_within(ray_cluster, limiter, 10.0) is not None, "the dead holder's slot was never taken back"
    assert ray_cluster.get(limiter.report.remote())["slots_reclaimed"] == 1
    ray_cluster.kill(limiter)


# --- 2. a judge object is pickled once on the driver --------------------------------------------------------

def _overlap_judge_class(pickled: list[int]):
    """A hand-written judge (defined here, so Ray ships its class by value): relevance = share of the
    question's words found in the answer; it counts how often it is pickled."""
    from ragauge.judges.base import JudgeBase

    class OverlapJudge(JudgeBase):
        name = "overlap"

        def __init__(self) -> None:
            self.weights = list(range(50_000))  # what a real judge carries: tables, a small model

        def __getstate__(self):
            pickled.append(1)
            return dict(self.__dict__)

        def refusals(self, texts, langs):
            return ["cannot" in t.lower() for t in texts]

        def relevance(self, questions, answers):
            out = []
            for q, a in zip(questions, answers):
                words = {w.strip("?.,").lower() for w in q.split() if len(w) > 3}
                found = {w.strip("?.,").lower() for w in a.split()}
                out.append(len(words & found) / len(words) if words else 0.0)
            return out

    return OverlapJudge


def test_a_judge_object_is_pickled_once_on_the_driver_and_scores_on_ray_as_locally(ray_cluster, tmp_path):
    from ray import cloudpickle

    from ragauge.data import load
    from ragauge.engine.scoring import score_columns
    from ragauge.metrics.registry import parse_metrics
    from ragauge.scale.judge_spec import JudgeSpec
    from ragauge.scale.ray_engine import score_run

    pickled: list[int] = []
    judge = _overlap_judge_class(pickled)()
    spec = JudgeSpec.of(judge)
    assert len(pickled) == 1  # the picklability check is the one serialisation

    rows = [{"id": "ask-1", "question": "Which documents does the passport office accept as proof of address?",
             "answer": "The passport office accepts a utility bill or a bank statement as proof of address."},
            {"id": "ask-2", "question": "How many days does a refund take after returning the parcel?",
             "answer": "Refunds usually arrive within five working days after the parcel is returned."},
            {"id": "ask-3", "question": "Can I bring my bicycle on the night train?",
             "answer": "I cannot say; please ask the conductor."},
            {"id": "ask-4", "question": "What time does the swimming pool open on Sundays?",
             "answer": "The gym is next to the parking lot."}]
    path = write_jsonl(tmp_path / "asks.jsonl", rows)
    specs = parse_metrics(["answer_relevancy"])
    pickled.clear()
    run = score_run(specs, str(path), judge, workers=2, batch_size=2)
    assert len(pickled) == 1  # before: 3 (Ray pickled the spec for the workers, Ray Data deep-copied it)
    local = score_columns(specs, load(path), judge)["answer_relevancy"]
    got = run.columns["answer_relevancy"]
    assert (got.values, got.reasons, got.artifacts) == (local.values, local.reasons, local.artifacts)
    assert len(set(got.values)) >= 3 and got.artifacts[2] == {"refusal": True}  # not vacuous: the judge scored
    # the workers get a reference to those bytes (last: loading a class defined here, in this process,
    # re-points its methods at a copy of `pickled`)
    shipped = cloudpickle.loads(cloudpickle.dumps(spec.for_workers()))
    assert shipped.judge is None and shipped.judge_bytes is None and shipped.build().weights == judge.weights


# --- 4. noise_robustness is scored by the workers, each variant in one block with its clean sample ------------

def _noise_rows() -> list[dict]:
    def row(sid, question, answer, reference, contexts, parent=None):
        out = {"id": sid, "question": question, "answer": answer, "reference": reference, "contexts": contexts}
        if parent is not None:
            out["metadata"] = {"noise_of": parent}
        return out

    lib_q = "When does the central library close on Saturdays?"
    lib_ref = "The central library closes at 5 pm on Saturdays."
    lib_ctx = ["The central library is open from 9 am to 8 pm on weekdays and closes at 5 pm on Saturdays. "
               "It stays closed on Sundays and public holidays."]
    lib_noise = ["The mobile library van visits the northern estates on Saturday mornings until 8 pm in summer."]
    permit_q = "How long is a residential parking permit valid?"
    permit_ref = "A residential parking permit is valid for twelve months from the date of issue."
    permit_ctx = ["Residential parking permits are valid for twelve months from the date of issue. A renewal "
                  "reminder is sent by email four weeks before the permit expires."]
    permit_noise = ["Visitor vouchers are sold in books of ten and expire six months after purchase."]
    return [
        row("lib", lib_q, "On Saturdays the central library closes at 5 pm.", lib_ref, lib_ctx),
        row("boiler", "How often should a gas boiler be serviced?",
            "A gas boiler should be serviced once a year by a registered engineer.",
            "Have the boiler serviced every twelve months by a registered engineer.",
            ["Gas boilers should be serviced every twelve months by a registered engineer."]),
        row("permit", permit_q, "The permit is valid for twelve months from the date of issue.", permit_ref,
            permit_ctx),
        row("lib~n1", lib_q, "The central library closes at 5 pm on Saturdays.", lib_ref, lib_ctx + lib_noise,
            "lib"),
        row("lost", "Who do I call about a lost bank card?", "Call the card hotline on the back of your statement.",
            "Report a lost card to the card hotline.", ["Lost cards are reported to the 24-hour card hotline."],
            "card-question-not-in-this-file"),
        row("lib~n2", lib_q, "On Saturdays the central library closes at 8 pm.", lib_ref, lib_noise + lib_ctx,
            "lib"),
        row("lib~n1~n", lib_q, "The library closes at 5 pm on Saturdays.", lib_ref, lib_noise + lib_ctx + lib_noise,
            "lib~n1"),
        row("permit~n1", permit_q, "A residential permit is valid for twelve months from the date of issue.",
            permit_ref, permit_noise + permit_ctx, "permit"),
    ]


def test_noise_robustness_is_scored_by_the_workers_with_the_local_values(ray_cluster, tmp_path, monkeypatch):
    from ragauge.data import load
    from ragauge.engine.scoring import score_columns
    from ragauge.judges.base import get_judge
    from ragauge.metrics.registry import parse_metrics
    from ragauge.scale.judge_spec import JudgeSpec
    from ragauge.scale.ray_engine import score_run

    path = write_jsonl(tmp_path / "noise.jsonl", _noise_rows())
    specs = parse_metrics(["noise_robustness"])
    local = score_columns(specs, load(path), get_judge("offline"))["noise_robustness"]

    driver = {"reads": 0, "judges": 0}
    for name, module in list(sys.modules.items()):  # the driver's own reads and judges, counted
        if name.startswith("ragauge.scale.") and hasattr(module, "read_block"):
            real = module.read_block

            def counted(*args, _real=real, **kwargs):
                driver["reads"] += 1
                return _real(*args, **kwargs)

            monkeypatch.setattr(module, "read_block", counted)
    real_build = JudgeSpec.build

    def build(self, *args, **kwargs):
        driver["judges"] += 1
        return real_build(self, *args, **kwargs)

    monkeypatch.setattr(JudgeSpec, "build", build)
    # blocks of 3: "lib" in block 0, its variants in blocks 1 and 2; the library group (4 samples) is larger
    # than a block; "lost" names a clean sample that is not in the file
    run = score_run(specs, str(path), "offline", workers=2, batch_size=3)
    got = run.columns["noise_robustness"]
    assert (got.values, got.reasons, got.artifacts) == (local.values, local.reasons, local.artifacts)
    assert got.provenance == local.provenance
    assert driver == {"reads": 0, "judges": 0}  # before: the input read twice and the judge built, on the driver
    assert run.blocks == 3 and run.ids == [r["id"] for r in _noise_rows()]
    assert sum(v is not None for v in got.values) >= 3  # not vacuous: variants scored against their clean one
    assert "not in the data set" in got.reasons[4]
