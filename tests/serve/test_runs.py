"""Uploading ``ragauge eval`` results.json into the collector and comparing two runs like ``ragauge compare``."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from ragauge import evaluate  # noqa: E402
from ragauge.serve.app import create_app  # noqa: E402

from .conftest import TOKEN  # noqa: E402

AUTH = {"Authorization": f"Bearer {TOKEN}"}


def _results(tmp_path, name: str, hits: list[bool], version: str) -> bytes:
    """A real results.json from ``ragauge eval``'s code: 20 questions, the relevant chunk found or not."""
    rows = [{"id": f"q{i}", "question": f"question {i}?", "retrieved_ids": ["good" if hit else "bad", "other"],
             "relevant_ids": ["good"], "metadata": {}} for i, hit in enumerate(hits)]
    results = evaluate(rows, metrics=["hit_rate@1", "mrr@10"], profile=None, app_name="bot", app_version=version)
    out = tmp_path / name
    results.save(out)
    return (out / "results.json").read_bytes()


@pytest.fixture
def client(db_url):
    with TestClient(create_app(db=db_url, token=TOKEN, scoring=False, alerts=False), follow_redirects=False) as c:
        yield c


def test_upload_two_runs_and_compare_them_like_ragauge_compare(client, tmp_path):
    from ragauge.stats.runs import compare_runs, run_scores

    old_hits = [i % 2 == 0 for i in range(20)]   # 10 of 20 found
    new_hits = [True] * 20                       # all found
    old, new = _results(tmp_path, "old", old_hits, "1.0"), _results(tmp_path, "new", new_hits, "1.1")
    unnamed = client.post("/api/runs", content=old, headers=AUTH).json()
    assert unnamed["name"] == unnamed["app"] == "bot 1.0"  # named after the evaluated app by default
    a = client.post("/api/runs?name=baseline", content=old, headers=AUTH)
    b = client.post("/api/runs?name=candidate", content=new, headers=AUTH)
    assert a.status_code == 200, a.text
    assert a.json()["name"] == "baseline" and a.json()["n_samples"] == 20
    assert a.json()["summary"]["hit_rate@1"] == {"mean": 0.5, "n": 20}
    listed = client.get("/api/runs", headers=AUTH).json()["runs"]
    assert [r["name"] for r in listed] == ["candidate", "baseline", "bot 1.0"]
    r = client.get("/api/runs/compare", params={"base": a.json()["id"], "new": b.json()["id"]}, headers=AUTH)
    assert r.status_code == 200, r.text
    got = r.json()
    expected = compare_runs(run_scores(json.loads(old)), run_scores(json.loads(new))).to_dict()
    hit = next(m for m in got["metrics"] if m["metric"] == "hit_rate@1")
    want = next(m for m in expected["metrics"] if m["metric"] == "hit_rate@1")
    assert hit["verdict"] == want["verdict"] == "better"
    assert hit["p_adjusted"] == pytest.approx(want["p_adjusted"]) and hit["difference"] == pytest.approx(0.5)


@pytest.mark.parametrize("body, field", [
    (b"{not json", "not JSON"),
    (b'{"schema": "something/1", "samples": []}', "schema"),
    (b'{"schema": "ragauge.results/1", "metrics": [{"name": "hit_rate@1"}], "samples": [{"id": "a", "scores": '
     b'{"hit_rate@1": "high"}}]}', "samples[0].scores.hit_rate@1"),
    (b'{"schema": "ragauge.results/1", "metrics": [], "samples": [{"id": "a"}, {"id": "a"}]}', "duplicate"),
])
def test_a_bad_results_file_is_refused_with_the_field_and_nothing_stored(client, body, field):
    r = client.post("/api/runs", content=body, headers=AUTH)
    assert r.status_code == 422 and field in r.json()["detail"]
    assert client.get("/api/runs", headers=AUTH).json()["runs"] == []


def test_runs_with_different_questions_are_refused_unless_intersected(client, tmp_path):
    a = client.post("/api/runs", content=_results(tmp_path, "a", [True] * 20, "1"), headers=AUTH).json()
    doc = json.loads(_results(tmp_path, "b", [False] * 20, "2"))
    doc["samples"] = doc["samples"][:15]
    b = client.post("/api/runs", content=json.dumps(doc).encode(), headers=AUTH).json()
    r = client.get("/api/runs/compare", params={"base": a["id"], "new": b["id"]}, headers=AUTH)
    assert r.status_code == 422 and "q15" in r.json()["detail"]
    r = client.get("/api/runs/compare", params={"base": a["id"], "new": b["id"], "intersect": "true"}, headers=AUTH)
    assert r.status_code == 200 and r.json()["n_common"] == 15
    assert client.get("/api/runs/compare", params={"base": a["id"], "new": "nope"}, headers=AUTH).status_code == 404
    assert client.post("/api/runs", content=b"{}").status_code == 401
