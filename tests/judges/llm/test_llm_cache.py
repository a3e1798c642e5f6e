"""The reply cache: content addressing, concurrent writers, and resuming after kill -9."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from ragauge.judges.llm.cache import ReplyCache, cache_key

SRC = str(Path(__file__).resolve().parents[3] / "src")


def test_key_is_content_addressed_and_order_free():
    a = cache_key(model="m", prompt="claims.ru@1", messages=[{"role": "user", "content": "Гарантия"}], seed=0)
    b = cache_key(seed=0, messages=[{"role": "user", "content": "Гарантия"}], prompt="claims.ru@1", model="m")
    assert a == b and len(a) == 64
    assert a != cache_key(model="m2", prompt="claims.ru@1", messages=[{"role": "user", "content": "Гарантия"}], seed=0)
    assert a != cache_key(model="m", prompt="claims.ru@1", messages=[{"role": "user", "content": "Гарантия"}], seed=1)


def test_put_get_survives_reopen(tmp_path):
    c = ReplyCache(tmp_path / "c.sqlite")
    assert c.get("k") is None
    c.put("k", model="m", prompt_id="p", reply='{"claims": []}', prompt_tokens=5, completion_tokens=2)
    c.put("k", model="m", prompt_id="p", reply="other", prompt_tokens=9, completion_tokens=9)  # first wins
    c.close()
    again = ReplyCache(tmp_path / "c.sqlite")
    hit = again.get("k")
    assert hit.text == '{"claims": []}' and hit.prompt_tokens == 5
    assert again.stats()["replies"] == 1


_WRITER = """
import sys
sys.path.insert(0, {src!r})
from ragauge.judges.llm.cache import ReplyCache
c = ReplyCache({path!r})
for i in range(150):
    c.put(f"{{sys.argv[1]}}-{{i}}", model="m", prompt_id="p", reply="r" * 200, prompt_tokens=1, completion_tokens=1)
    c.put(f"shared-{{i}}", model="m", prompt_id="p", reply="same", prompt_tokens=1, completion_tokens=1)
"""


def test_concurrent_writers_from_processes_and_threads(tmp_path):
    path = str(tmp_path / "c.sqlite")
    script = _WRITER.format(src=SRC, path=path)
    procs = [subprocess.Popen([sys.executable, "-c", script, f"p{n}"]) for n in range(3)]
    local = ReplyCache(path)

    def thread_writer(n):
        for i in range(100):
            local.put(f"t{n}-{i}", model="m", prompt_id="p", reply="x", prompt_tokens=1, completion_tokens=1)

    threads = [threading.Thread(target=thread_writer, args=(n,)) for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [p.wait(timeout=60) for p in procs] == [0, 0, 0]
    assert local.stats()["replies"] == 3 * 150 + 150 + 2 * 100


_CHILD = """
import sys
sys.path.insert(0, {src!r})
from ragauge.judges.llm import LLMConfig, LLMJudge
j = LLMJudge(LLMConfig(model="tiny", base_url={url!r}, concurrency=1), cache={path!r}, offline=object())
j.claims([f"Fact number {{i}} is true." for i in range(5)], ["en"] * 5)
print("finished")
"""


def test_kill_9_mid_run_resumes_without_paying_twice(fake, tmp_path, stub_offline):
    import threading as th

    from ragauge.judges.llm import LLMConfig, LLMJudge

    path = str(tmp_path / "cache.sqlite")
    gate = th.Event()
    fake.push({}, {}, {}, {"block": gate})  # three replies, then the fourth request hangs
    child = subprocess.Popen([sys.executable, "-c", _CHILD.format(src=SRC, url=fake.url, path=path)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while len(fake.requests) < 4 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(fake.requests) == 4 and fake.answered == 3
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=10)
    gate.set()
    assert child.returncode == -signal.SIGKILL
    assert ReplyCache(path).stats()["replies"] == 3  # every reply that arrived was on disk

    j = LLMJudge(LLMConfig(model="tiny", base_url=fake.url), cache=path, offline=stub_offline)
    out = j.claims([f"Fact number {i} is true." for i in range(5)], ["en"] * 5)
    assert all(len(c) == 1 for c in out)
    assert j.usage()["calls"] == 2 and j.usage()["cached"] == 3  # only the two unanswered ones paid
