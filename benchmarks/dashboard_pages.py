"""Dashboard page times on a SQLite collector with N traces (2 versions, 50 questions, scores stored).

    python benchmarks/dashboard_pages.py 20000      # per page: the first request, then the best of 3
"""
import random, sys, time, os
from fastapi.testclient import TestClient
from ragauge.serve.app import create_app
from ragauge.serve.db import scores, score_queue
from ragauge.serve.schema import parse_batch
from ragauge.serve.store import insert_batch
import json
N = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
TOKEN = "bench-token-0123456789"
db = os.path.join(os.environ.get("TMPDIR", "/tmp"), "ragauge-dashboard-bench.db")
for suf in ("", "-wal", "-shm"):
    try: os.remove(db + suf)
    except FileNotFoundError: pass
import inspect
extra = {"alerts": False} if "alerts" in inspect.signature(create_app).parameters else {}
app = create_app(db=f"sqlite:///{db}", token=TOKEN, scoring=False, **extra)
eng = app.state.engine
rng = random.Random(0)
t0 = time.perf_counter()
for start in range(0, N, 1000):
    batch = []
    for i in range(start, min(N, start + 1000)):
        v = "1.0" if i % 2 else "1.1"
        q = f"question number {i % 50}?"
        ans = "Sorry, I could not find this in the documents." if i % 17 == 0 else f"answer {i}"
        batch.append({"id": f"t{i}", "app_name": "bot", "app_version": v, "question": q, "start_time": 1.7e9 + i,
                      "duration_ms": rng.uniform(50, 4000), "spans": [{"kind": "retrieval", "duration_ms": 5.0,
                      "chunks": [{"id": "c1", "text": "Some text " * 30, "score": 0.5}]},
                      {"kind": "generation", "answer": ans, "ttft_ms": 30.0}]})
    insert_batch(eng, parse_batch(json.dumps({"schema": "ragauge.trace/1", "traces": batch}).encode()))
    rows = [{"trace_id": f"t{i}", "metric": m, "value": rng.random(), "reason": None, "artifacts": None,
             "judge": "offline", "scored_at": time.time()} for i in range(start, min(N, start + 1000))
            for m in ("faithfulness", "answer_relevancy", "context_precision")]
    with eng.begin() as conn:
        conn.execute(scores.insert(), rows)
        conn.execute(score_queue.update().values(state="done"))
print(f"loaded {N} traces in {time.perf_counter() - t0:.1f} s")
H = {"Authorization": f"Bearer {TOKEN}"}
with TestClient(app) as c:
    for path in ["/", "/?app=bot&version=1.1&a=1.0&b=1.1", "/requests", "/requests?low=1", "/requests?slow=1&page=3",
                 "/requests?no_answer=1", "/requests/t5", "/export?low=1&version=1.1"]:
        t = time.perf_counter(); c.get(path, headers=H); cold = time.perf_counter() - t  # first request
        times = []
        for _ in range(3):
            t = time.perf_counter(); r = c.get(path, headers=H); times.append(time.perf_counter() - t)
            assert r.status_code == 200, (path, r.status_code)
        print(f"{path:45s} first {cold*1000:6.0f} ms, then {min(times)*1000:6.0f} ms (best of 3)  "
              f"{len(r.content)/1024:.0f} KiB")
