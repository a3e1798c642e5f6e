"""The web dashboard through FastAPI's TestClient on a real collector database (SQLite; PostgreSQL too when
RAGAUGE_TEST_POSTGRES_URL is set): login, CSRF, escaping, filters, the request page, feedback, export."""

from __future__ import annotations

import inspect
import json
import logging
import re
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")
pytest.importorskip("jinja2")
pytest.importorskip("httpx")

import sqlalchemy as sa  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from ragauge.serve.app import create_app  # noqa: E402
from ragauge.serve.dashboard import mount  # noqa: E402
from ragauge.serve.dashboard.security import CSP  # noqa: E402

from .conftest import TOKEN  # noqa: E402

READ_TOKEN = "read-only-token-9876543210"
BEARER = {"Authorization": f"Bearer {TOKEN}"}
XSS = '<script>alert("x")</script><img src=x onerror=alert(1)>'
CHUNK = "The Eiffel Tower was completed in 1889 for the World Fair in Paris."


def trace(tid: str, *, question: str = "When was the Eiffel Tower built?", answer: str = "It was built in 1889.",
          app: str = "bot", version: str | None = "1.0", duration: float = 120.0, chunk: str = CHUNK,
          guard: str | None = None, meta: dict | None = None, **over) -> dict:
    spans = [{"kind": "retrieval", "query": question, "duration_ms": 8.0,
              "chunks": [{"id": "c1", "text": chunk, "score": 0.82, "metadata": {"source": "wiki.md"}}]},
             {"kind": "generation", "answer": answer, "ttft_ms": 40.0, "tokens": 12}]
    if guard is not None:
        spans.append({"kind": "guard", "decision": guard, "reason": "graded the context"})
    t = {"id": tid, "app_name": app, "app_version": version, "question": question, "language": "en",
         "start_time": time.time(), "duration_ms": duration, "metadata": meta or {}, "spans": spans}
    t.update(over)
    return t


def send(client: TestClient, *traces: dict) -> None:
    r = client.post("/api/traces", json={"schema": "ragauge.trace/1", "traces": list(traces)}, headers=BEARER)
    assert r.status_code == 200, r.text


def store_score(client: TestClient, trace_id: str, metric: str, value: float | None, artifacts=None) -> None:
    """Write a score row the way the scorer does (for the tests that do not need the real judge)."""
    from ragauge.serve.db import score_queue, scores

    with client.app.state.engine.begin() as conn:
        conn.execute(scores.insert().values(trace_id=trace_id, metric=metric, value=value,
                                            reason=None if value is not None else "no claims",
                                            artifacts=artifacts, judge="offline", scored_at=time.time()))
        conn.execute(score_queue.update().where(score_queue.c.trace_id == trace_id).values(state="done"))


def _app(db_url: str, *, scoring: bool = False, **settings):
    """The collector with its dashboard (``settings``: the dashboard's)."""
    options = {"scorer_options": {"poll_s": 0.1}} if scoring else {}
    if "dashboard_settings" in inspect.signature(create_app).parameters:  # create_app mounts the dashboard
        return create_app(db=db_url, token=TOKEN, scoring=scoring, dashboard_settings=settings, **options)
    app = create_app(db=db_url, token=TOKEN, scoring=scoring, **options)
    mount(app, app.state.engine, {"token": TOKEN, **settings})
    return app


@pytest.fixture
def client(db_url, monkeypatch):
    monkeypatch.setenv("RAGAUGE_DASHBOARD_TOKEN", READ_TOKEN)
    with TestClient(_app(db_url), follow_redirects=False) as c:
        yield c


def login(client: TestClient, token: str = TOKEN) -> None:
    page = client.get("/login")
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)[1]
    r = client.post("/login", data={"token": token, "csrf": csrf, "next": "/"})
    assert r.status_code == 303, r.text


def csrf_of(html: str) -> str:
    return re.findall(r'name="csrf" value="([^"]+)"', html)[-1]


# -- login and sessions --------------------------------------------------------------------------
def test_pages_redirect_to_login_and_the_login_sets_an_httponly_session(client):
    r = client.get("/requests?low=1")
    assert r.status_code == 303 and r.headers["location"] == "/login?next=%2Frequests%3Flow%3D1"
    page = client.get("/login")
    assert page.status_code == 200 and 'type="password"' in page.text
    csrf = csrf_of(page.text)
    r = client.post("/login", data={"token": "wrong", "csrf": csrf, "next": "/requests?low=1"})
    assert r.status_code == 401 and "Wrong token" in r.text and "ragauge_session" not in r.headers.get("set-cookie", "")
    r = client.post("/login", data={"token": TOKEN, "csrf": csrf, "next": "/requests?low=1"})
    assert r.status_code == 303 and r.headers["location"] == "/requests?low=1"
    cookies = r.headers.get_list("set-cookie")
    session = next(c for c in cookies if c.startswith("ragauge_session="))
    assert "HttpOnly" in session and "samesite=strict" in session.lower()
    assert TOKEN not in " ".join(cookies)  # the cookie is a signed session, never the token
    assert client.get("/requests").status_code == 200


def test_login_refuses_a_form_without_its_csrf_token_and_never_redirects_off_site(client):
    client.get("/login")
    assert client.post("/login", data={"token": TOKEN, "next": "/"}).status_code == 403
    for target in ("//evil.example/", "https://evil.example/", "/\\evil.example"):
        csrf = csrf_of(client.get("/login").text)  # a login renews the CSRF token
        r = client.post("/login", data={"token": TOKEN, "csrf": csrf, "next": target})
        assert r.status_code == 303 and r.headers["location"] == "/"


def test_failed_logins_are_throttled_and_the_token_given_is_never_logged(client, caplog):
    caplog.set_level(logging.DEBUG)
    for i in range(10):
        csrf = csrf_of(client.get("/login").text)
        r = client.post("/login", data={"token": f"guess-secret-{i}", "csrf": csrf, "next": "/"})
        assert r.status_code == 401
    csrf = csrf_of(client.get("/login").text)
    r = client.post("/login", data={"token": "guess-secret-10", "csrf": csrf, "next": "/"})  # one guess too many
    assert r.status_code == 429 and "try again in" in r.text and "ragauge_session" not in r.headers.get("set-cookie", "")
    csrf = csrf_of(client.get("/login").text)
    r = client.post("/login", data={"token": TOKEN, "csrf": csrf, "next": "/"})  # the owner still gets in
    assert r.status_code == 303 and "ragauge_session=" in r.headers.get("set-cookie", "")
    assert "failed login from" in caplog.text and "guess-secret" not in caplog.text and TOKEN not in caplog.text


def test_every_page_finds_its_favicon_within_the_csp(client):
    page = client.get("/login")
    assert 'rel="icon"' in page.text and "img-src 'self'" in page.headers["content-security-policy"]
    for path in ("/favicon.ico", "/_dashboard/favicon.svg"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
        assert r.content.startswith(b"<svg")


def test_a_forged_or_tampered_session_cookie_is_not_a_login(client):
    login(client)
    good = client.cookies.get("ragauge_session")
    role, issued, nonce, sig = good.split(".")
    assert role == "admin"
    client.cookies.clear()
    client.cookies.set("ragauge_session", f"admin.{issued}.{nonce}.{'0' * len(sig)}")
    assert client.get("/").status_code == 303
    client.cookies.clear()
    client.cookies.set("ragauge_session", f"read.{issued}.{nonce}.{sig}")  # the role is signed too
    assert client.get("/").status_code == 303
    client.cookies.clear()
    client.cookies.set("ragauge_session", f"admin.{int(time.time()) - 13 * 3600}.{nonce}.{sig}")
    assert client.get("/").status_code == 303
    client.cookies.clear()
    client.cookies.set("ragauge_session", good)
    assert client.get("/").status_code == 200


def test_wrong_bearer_token_is_401_not_a_redirect(client):
    r = client.get("/requests", headers={"Authorization": "Bearer nope"})
    assert r.status_code == 401 and "RAGAUGE_TOKEN" in r.text


def test_security_headers_and_no_script_on_any_page(client):
    send(client, trace("t1"))
    login(client)
    for path in ("/", "/requests", "/requests/t1", "/login", "/requests/nope"):
        r = client.get(path)
        assert r.headers["content-security-policy"] == CSP, path
        assert "script-src" not in CSP and "default-src 'none'" in CSP
        assert r.headers["x-frame-options"] == "DENY" and r.headers["x-content-type-options"] == "nosniff"
        assert "<script" not in r.text.lower() and "http://" not in r.text and "https://" not in r.text, path
    assert client.get("/requests/nope").status_code == 404


# -- escaping ------------------------------------------------------------------------------------
def test_script_payloads_are_escaped_everywhere(client):
    t = trace("x1", question=f"Q {XSS}", answer=f"A {XSS}", chunk=f"C {XSS}", app=f"app{XSS}",
              version=f"v{XSS}"[:100], guard=f"g{XSS}", meta={"k": XSS})
    t["spans"][0]["chunks"][0].update(id=f"id{XSS}", metadata={f"key{XSS}": XSS})
    t["spans"][2]["reason"] = XSS
    send(client, t)
    store_score(client, "x1", "faithfulness", 0.0, artifacts={"claims": [
        {"text": f"A {XSS}", "start": 0, "end": len(f"A {XSS}"), "verdict": "unsupported", "probability": 0.1,
         "evidence": {"source": 0, "start": 0, "end": 5, "text": f"C {XSS}"[:5]}, "reason": XSS}]})
    login(client)
    page = client.get("/requests/x1")
    send_feedback(client, "x1", "down", f"bad {XSS}")
    pages = [client.get(p).text for p in ("/", "/requests", "/requests/x1", "/requests?app=" + f"app{XSS}")]
    for html in pages:
        assert "<script>" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in pages[2]  # shown, as text
    assert page.status_code == 200
    assert "bad &lt;script&gt;" in pages[2]  # the feedback comment too


def send_feedback(client: TestClient, trace_id: str, rating: str, comment: str = "") -> None:
    csrf = csrf_of(client.get(f"/requests/{trace_id}").text)
    r = client.post(f"/requests/{trace_id}/feedback", data={"csrf": csrf, "rating": rating, "comment": comment})
    assert r.status_code == 303, r.text


# -- feedback and CSRF ---------------------------------------------------------------------------
def _feedback_rows(client) -> list[tuple]:
    with client.app.state.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(sa.text("SELECT trace_id, rating, comment FROM feedback"))]


def test_feedback_needs_the_csrf_token_of_the_session(client):
    send(client, trace("t1"))
    login(client)
    page = client.get("/requests/t1")
    assert 'name="rating" value="down"' in page.text
    r = client.post("/requests/t1/feedback", data={"rating": "down", "comment": "wrong"})
    assert r.status_code == 403 and "reload the page" in r.text
    r = client.post("/requests/t1/feedback", data={"rating": "down", "csrf": "x" * 43})
    assert r.status_code == 403
    assert _feedback_rows(client) == []
    send_feedback(client, "t1", "down", "wrong year")
    assert _feedback_rows(client) == [("t1", -1, "wrong year")]
    shown = client.get("/requests/t1?saved=1")
    assert "Feedback saved." in shown.text and "wrong year" in shown.text


def test_feedback_form_is_checked(client):
    send(client, trace("t1"))
    login(client)
    csrf = csrf_of(client.get("/requests/t1").text)
    assert client.post("/requests/t1/feedback", data={"csrf": csrf, "rating": "meh"}).status_code == 400
    r = client.post("/requests/t1/feedback", data={"csrf": csrf, "rating": "up", "comment": "x" * 2001})
    assert r.status_code == 400 and "2000" in r.text
    assert client.post("/requests/nope/feedback", data={"csrf": csrf, "rating": "up"}).status_code == 404
    assert _feedback_rows(client) == []


def test_read_only_token_sees_and_exports_but_cannot_give_feedback(client):
    send(client, trace("t1"))
    login(client, READ_TOKEN)
    page = client.get("/requests/t1")
    assert page.status_code == 200 and "read-only" in page.text and 'name="rating"' not in page.text
    csrf = csrf_of(page.text)
    r = client.post("/requests/t1/feedback", data={"csrf": csrf, "rating": "up"})
    assert r.status_code == 403 and _feedback_rows(client) == []
    assert client.get("/export").status_code == 200


# -- language ------------------------------------------------------------------------------------
def test_russian_by_query_or_accept_language_and_english_by_default(client):
    send(client, trace("t1"))
    assert "Requests" in client.get("/requests", headers=BEARER).text
    ru = client.get("/requests", headers={**BEARER, "Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"}).text
    assert "Запросы" in ru and 'lang="ru"' in ru
    assert "Запросы" in client.get("/requests?lang=ru", headers=BEARER).text
    assert "Requests" in client.get("/requests?lang=en", headers={**BEARER, "Accept-Language": "ru"}).text


# -- the request list ----------------------------------------------------------------------------
def _ids(html: str) -> set[str]:
    return set(re.findall(r'data-trace="([^"]+)"', html))


def test_filters_low_faithfulness_slow_behaviour_feedback_and_version(client):
    send(client,
         trace("good", answer="It was built in 1889."),
         trace("low", answer="It is made of chocolate.", version="1.1"),
         trace("slow", duration=5000.0),
         trace("none", answer="Sorry, I could not find this in the documents.", guard="no_answer"),
         trace("clar", answer="Could you clarify which tower you mean?"),
         trace("neg"))
    store_score(client, "good", "faithfulness", 1.0)
    store_score(client, "low", "faithfulness", 0.2)
    login(client)
    send_feedback(client, "neg", "down", "useless")
    send_feedback(client, "good", "up")
    get = lambda q: _ids(client.get("/requests" + q).text)  # noqa: E731
    assert get("") == {"good", "low", "slow", "none", "clar", "neg"}
    assert get("?low=1") == {"low"}
    assert get("?slow=1") == {"slow"}
    assert get("?no_answer=1") == {"none"}
    assert get("?clarify=1") == {"clar"}
    assert get("?no_answer=1&clarify=1") == {"none", "clar"}
    assert get("?negative=1") == {"neg"}
    assert get("?version=1.1") == {"low"}
    assert get("?app=other") == set()
    assert get("?low=1&version=1.0") == set()


def test_pagination_and_a_bad_page_number(db_url, monkeypatch):
    with TestClient(_app(db_url, page_size=2), follow_redirects=False) as client:
        send(client, *[trace(f"p{i}", start_time=1_700_000_000.0 + i) for i in range(5)])
        first = client.get("/requests", headers=BEARER).text
        assert "5 requests" in first and "page 1 of 3" in first and 'rel="next"' in first
        third = client.get("/requests?page=3", headers=BEARER).text
        assert len(_ids(first)) == 2 and len(_ids(third)) == 1 and not _ids(first) & _ids(third)
        bad = client.get("/requests?page=abc", headers=BEARER)
        assert bad.status_code == 400 and "page must be a whole number" in bad.text


# -- export --------------------------------------------------------------------------------------
def test_export_of_the_filtered_list_is_a_golden_file_ragauge_review_reads(client, tmp_path):
    from ragauge.data import load
    from ragauge.generate.review import export_review
    from ragauge.generate.versioning import read_golden

    send(client, trace("low", answer="It is made of chocolate."), trace("good"))
    store_score(client, "low", "faithfulness", 0.2)
    store_score(client, "good", "faithfulness", 1.0)
    login(client)
    send_feedback(client, "low", "down", "made up")
    r = client.get("/export?low=1&scope=all")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    rows = [json.loads(line) for line in r.text.splitlines()]
    assert [row["metadata"]["trace_id"] for row in rows] == ["low"]
    row = rows[0]
    assert row["question"] == "When was the Eiffel Tower built?" and row["answer"] == "It is made of chocolate."
    assert row["contexts"][0]["text"] == CHUNK and row["metadata"]["scores"] == {"faithfulness": 0.2}
    assert row["metadata"]["feedback"] == [{"rating": -1, "comment": "made up"}]
    path = tmp_path / "candidates.jsonl"
    path.write_text(r.text, encoding="utf-8")
    cases = read_golden(path)
    assert cases[0].id == "trace-low" and cases[0].extra["trace_id"] == "low"
    export_review(path, tmp_path / "review.csv")
    assert "trace-low" in (tmp_path / "review.csv").read_text(encoding="utf-8")
    assert load(str(path))[0].answer == "It is made of chocolate."  # also an eval input
    picked = client.get("/export?scope=selected&id=good").text.splitlines()
    assert [json.loads(x)["metadata"]["trace_id"] for x in picked] == ["good"]


# -- the answer's claims -------------------------------------------------------------------------
def test_contradicted_claims_are_flagged_and_misplaced_offsets_are_not_marked(client):
    answer = "The tower is 330 metres tall. It was built in 1999."
    send(client, trace("c1", answer=answer))
    store_score(client, "c1", "faithfulness", 0.5, artifacts={"claims": [
        {"text": "The tower is 330 metres tall.", "start": 0, "end": 29, "verdict": "supported", "probability": 0.9,
         "evidence": {"source": 0, "start": 4, "end": 16, "text": CHUNK[4:16]}, "reason": ""},
        {"text": "It was built in 1999.", "start": 30, "end": 51, "verdict": "contradicted", "probability": 0.05,
         "evidence": {"source": 0, "start": 0, "end": 5, "text": CHUNK[:5]}, "reason": "the year differs"},
        {"text": "Not in the answer.", "start": 0, "end": 18, "verdict": "unsupported", "probability": 0.1,
         "evidence": None, "reason": ""}]})
    html = client.get("/requests/c1", headers=BEARER).text
    assert 'class="claim contradicted flagged">It was built in 1999.</a>' in html
    assert 'class="claim supported">The tower is 330 metres tall.</a>' in html
    assert "Not in the answer." in html and 'id="in-answer-2"' not in html  # listed, not marked in the wrong place
    assert f'<a href="#claim-0" class="evidence">{CHUNK[4:16]}</a>' in html  # the evidence marked in the chunk
    assert '<a href="#claim-1" class="evidence">' not in html  # a contradicted claim's passage is no evidence
    row = re.search(r'<tr id="claim-1" class="contradicted">(.*?)</tr>', html, re.S)[1]
    assert "contradicted by" in row and 'href="#ctx-0"' in row


def test_empty_collector_says_how_to_send_traces_and_the_style_needs_no_login(client):
    assert "send some with ragauge.trace" in client.get("/", headers=BEARER).text
    css = client.get("/_dashboard/style.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")


def test_a_script_exports_with_the_bearer_token(client):
    send(client, trace("t1"), trace("t2", app="other"))
    r = client.get("/export?app=other", headers=BEARER)
    assert r.status_code == 200 and [json.loads(x)["id"] for x in r.text.splitlines()] == ["trace-t2"]
    assert client.get("/export").status_code == 303  # no token, no session: to the login page


def test_an_alert_link_opens_the_list_of_offending_requests(client):
    send(client, trace("low", answer="x"), trace("ok"), trace("other", version="2.0"))
    store_score(client, "low", "answer_relevancy", 0.3)
    store_score(client, "ok", "answer_relevancy", 0.95)
    store_score(client, "other", "answer_relevancy", 0.1)
    link = "/requests?app_name=bot&app_version=1.0&filter=low_score&metric=answer_relevancy&below=0.8"
    html = client.get(link, headers=BEARER).text
    assert _ids(html) == {"low"} and "answer_relevancy &lt; 0.8" in html
    assert 'name="below" value="0.8"' in html  # kept by the filter form and the export
    exported = client.get(link.replace("/requests", "/export") + "&scope=all", headers=BEARER).text
    assert [json.loads(x)["metadata"]["trace_id"] for x in exported.splitlines()] == ["low"]
    bad = client.get("/requests?metric=faithfulnes&below=0.8", headers=BEARER)
    assert bad.status_code == 400 and "faithfulness" in bad.text
    assert client.get("/requests?metric=faithfulness&below=abc", headers=BEARER).status_code == 400
    assert client.get("/requests?below=0.8", headers=BEARER).status_code == 400


def test_overview_of_an_unknown_app_says_so(client):
    send(client, trace("t1"))
    r = client.get("/?app=%3Cb%3Enope", headers=BEARER)
    assert r.status_code == 404 and "No traces of the app" in r.text and "<b>nope" not in r.text


def test_behaviour_filters_say_when_they_see_only_guard_decisions(client, monkeypatch):
    from ragauge.serve.dashboard import queries

    send(client, trace("g", answer="Sorry, nothing found.", guard="no_answer"),
         trace("t", answer="Sorry, I could not find this in the documents."))
    monkeypatch.setattr(queries, "_TEXT_RULES", False)  # as without the offline extra
    html = client.get("/requests?no_answer=1", headers=BEARER).text
    assert _ids(html) == {"g"} and "only the guard" in html
    monkeypatch.setattr(queries, "_TEXT_RULES", True)
    html = client.get("/requests?no_answer=1", headers=BEARER).text
    assert "only the guard" not in html
