"""The dashboard's per-slice view (group by tag or a metadata key) and its page of uploaded eval runs."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")
pytest.importorskip("jinja2")

from fastapi.testclient import TestClient  # noqa: E402

from .test_dashboard import BEARER, XSS, _app, login, send, store_score, trace  # noqa: E402
from .test_runs import _results  # noqa: E402


@pytest.fixture
def client(db_url):
    with TestClient(_app(db_url), follow_redirects=False) as c:
        yield c


def _row(page: str, name: str) -> str:
    return page.split(f'data-slice="{name}"')[1].split("</tr>")[0]


def test_slices_group_the_requests_by_tag_with_evals_numbers(client):
    send(client, trace("a1", tags=["prices", "simple"]), trace("a2", tags=["prices"]), trace("a3", tags=["hours"]),
         trace("a4"))
    for tid, value in (("a1", 1.0), ("a2", 0.5), ("a3", 0.0), ("a4", 1.0)):
        store_score(client, tid, "faithfulness", value)
    login(client)
    page = client.get("/slices?app=bot&version=1.0").text
    assert "<td>prices</td><td>2</td><td" in _row(page, "prices") and "0.750" in _row(page, "prices")
    assert "<td>1</td>" in _row(page, "simple") and "1.000" in _row(page, "simple")
    assert "0.000" in _row(page, "hours") and "<td>1</td>" in _row(page, "(none)")
    assert page.index('data-slice="prices"') < page.index('data-slice="hours"')  # the largest slice first


def test_slices_by_a_metadata_key_and_escaped(client):
    send(client, trace("m1", meta={"tier": "gold"}), trace("m2", meta={"tier": XSS}), trace("m3", meta={}))
    login(client)
    page = client.get("/slices?by=meta:tier").text
    assert "<td>gold</td><td>1</td>" in _row(page, "gold")
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert client.get("/slices?by=color").status_code == 400


def test_the_runs_page_lists_uploads_and_compares_two(client, tmp_path):
    login(client)
    assert "No run uploaded yet." in client.get("/runs").text
    a = client.post("/api/runs?name=baseline", content=_results(tmp_path, "a", [i % 2 == 0 for i in range(20)], "1"),
                    headers=BEARER).json()
    b = client.post("/api/runs?name=" + "%3Cscript%3E", content=_results(tmp_path, "b", [True] * 20, "2"),
                    headers=BEARER).json()
    page = client.get("/runs").text
    assert "baseline" in page and "&lt;script&gt;" in page and "<script>" not in page
    page = client.get(f"/runs?base={a['id']}&new={b['id']}").text
    table = page.split('class="grid comparison"')[1].split("</table>")[0]
    row = next(r for r in table.split("<tr") if "hit_rate@1" in r)
    assert "0.500" in row and "1.000" in row and "+0.500" in row and "better" in row
    assert client.get(f"/runs?base={a['id']}&new=missing").status_code == 404
