"""pytest plugin: quality gates as tests (a thin shell over :mod:`ragauge.testing`).

Registered through the ``pytest11`` entry point (``ragauge = "ragauge.pytest_plugin"``); inert until a
test uses it: at pytest start it imports nothing but pytest and the standard library.

- ``@pytest.mark.ragauge(data=..., metrics=..., profile=..., judge=..., pipeline=...)`` and the
  ``ragauge_results`` fixture: the marker's data set evaluated **once per session** (cached by the
  marker's arguments) and handed to the test as ``Results``.
- ``ragauge_eval``: a factory, ``ragauge_eval("golden.jsonl", metrics=[...])`` -> ``Results`` (cached the
  same way); ``ragauge_eval(sample)`` for a ``GoldenSample`` from ``ragauge.testing.golden(...)`` returns
  that sample's row (``SampleResult``), the whole golden set being evaluated on first use.
- Options: ``--ragauge-out DIR`` (results.json, report.md, report.html, summary.md), ``--ragauge-baseline
  FILE`` (every threshold also fails on a regression against a baseline run: the ``non_inferior`` gate,
  a one-sided test that an unchanged system passes at any n), ``--ragauge-profile NAME``, ``--ragauge-judge SPEC``,
  ``--ragauge-max-calls N`` / ``--ragauge-max-tokens N`` (LLM judge budget).
- A "ragauge" section in the terminal summary (gate table and verdict per evaluation, and a WARNING line
  when gates were decided on fewer than the profile's ``min_samples`` scored samples).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

_SESSION = pytest.StashKey["Any"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ragauge", "ragauge quality gates")
    group.addoption("--ragauge-out", metavar="DIR", help="write results.json, report.md, report.html and the "
                    "PR summary summary.md of every ragauge evaluation into DIR")
    group.addoption("--ragauge-baseline", metavar="FILE", help="baseline results.json (or its folder, e.g. from "
                    "`ragauge baseline save`): assert_quality also fails on a regression: a significant drop "
                    "beyond the margin (gate mode non_inferior; an unchanged system passes)")
    group.addoption("--ragauge-profile", metavar="NAME", help="threshold profile for every ragauge evaluation "
                    "(overrides the marker's; default: ragauge.toml, else dashboard)")
    group.addoption("--ragauge-judge", metavar="SPEC", help="judge where the test gives none: offline, none, "
                    "auto, openai:MODEL@URL (LLM judge; key from RAGAUGE_LLM_API_KEY), cascade:openai:MODEL@URL (offline "
                    "verifier first, the LLM for the uncertain claims)")
    group.addoption("--ragauge-max-calls", type=int, metavar="N", help="LLM judge budget: stop after N paid calls")
    group.addoption("--ragauge-max-tokens", type=int, metavar="N", help="LLM judge budget: stop after N tokens")
    group.addoption("--ragauge-max-usd", type=float, metavar="USD", help="LLM judge budget: stop cleanly past "
                    "this cost (needs --ragauge-prices)")
    group.addoption("--ragauge-prices", metavar="FILE", help="TOML price table: [prices] MODEL = {input = USD "
                    "per 1M tokens, output = ...}")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "ragauge(data, metrics=None, profile=None, judge=None, baseline=None, pipeline=None, retrieve=None, "
        "generate=None, ...): evaluate a golden data set once per session; the ragauge_results fixture "
        "hands the Results to the test",
    )


def _judge(config: pytest.Config) -> Any:
    """``--ragauge-judge`` and the budget options -> a judge (one parser: ``ragauge.judges.spec``)."""
    from ragauge.judges.spec import make_judge

    spec = config.getoption("ragauge_judge")
    limits = {k: config.getoption(f"ragauge_{k}") for k in ("max_calls", "max_tokens", "max_usd", "prices")}
    judge = make_judge(spec, option="--ragauge-judge", **limits,
                       flags={"budget": "--ragauge-max-calls/-tokens/-usd and --ragauge-prices",
                              "max_usd": "--ragauge-max-usd", "prices": "--ragauge-prices"})
    return None if judge in (None, "auto") else judge


def _session(config: pytest.Config):
    sess = config.stash.get(_SESSION, None)
    if sess is None:
        from ragauge.testing.session import Session

        out = config.getoption("ragauge_out")
        sess = Session(Path(config.rootpath), profile=config.getoption("ragauge_profile"),
                       baseline=config.getoption("ragauge_baseline"),
                       out=Path(out) if out else None)
        try:
            sess.judge = _judge(config)
        except Exception as exc:  # a bad --ragauge-judge: one clear line
            _fail(exc)
        config.stash[_SESSION] = sess
    return sess


def _fail(exc: BaseException) -> None:
    from ragauge.errors import RagaugeError

    if isinstance(exc, RagaugeError):
        raise pytest.fail.Exception(f"ragauge: {type(exc).__name__}: {exc}", pytrace=False) from None
    raise exc


class RagaugeEval:
    """The ``ragauge_eval`` fixture: ``ragauge_eval(data=None, **marker_args)``."""

    def __init__(self, session: Any, defaults: dict[str, Any], base_dir: Path | None) -> None:
        self._session, self._defaults, self._base_dir = session, defaults, base_dir

    def __call__(self, data: Any = None, **kwargs: Any) -> Any:
        __tracebackhide__ = True
        from ragauge.testing.golden_set import GoldenSample, sample_result

        args = {**self._defaults, **kwargs}
        data = data if data is not None else args.pop("data", None)
        args.pop("data", None)
        try:
            results = self._session.evaluate(data, base_dir=self._base_dir, **args)
            return sample_result(results, data) if isinstance(data, GoldenSample) else results
        except Exception as exc:
            _fail(exc)

    @property
    def session(self) -> Any:
        return self._session


def _marker_args(request: pytest.FixtureRequest) -> dict[str, Any]:
    marker = request.node.get_closest_marker("ragauge")
    if marker is None:
        return {}
    args = dict(marker.kwargs)
    if marker.args:
        args.setdefault("data", marker.args[0])
    return args


@pytest.fixture
def ragauge_eval(request: pytest.FixtureRequest) -> RagaugeEval:
    """Evaluate a data set (cached per session by the arguments); defaults from ``@pytest.mark.ragauge``."""
    path = getattr(request.node, "path", None)
    return RagaugeEval(_session(request.config), _marker_args(request), Path(path).parent if path else None)


@pytest.fixture
def ragauge_results(request: pytest.FixtureRequest, ragauge_eval: RagaugeEval) -> Any:
    """The ``Results`` of the test's ``@pytest.mark.ragauge(data=...)`` data set (evaluated once per session)."""
    if request.node.get_closest_marker("ragauge") is None:
        pytest.fail("ragauge: the ragauge_results fixture needs @pytest.mark.ragauge(data='golden.jsonl', ...) "
                    "on the test (or use the ragauge_eval fixture)", pytrace=False)
    return ragauge_eval()


def pytest_make_parametrize_id(config: pytest.Config, val: object, argname: str) -> str | None:
    mod = sys.modules.get("ragauge.testing.golden_set")
    if mod is not None and isinstance(val, mod.GoldenSample):
        return val.id
    return None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    mod = sys.modules.get("ragauge.testing.assertions")
    if mod is not None and call.excinfo is not None and isinstance(call.excinfo.value, mod.QualityGateError):
        sess = item.config.stash.get(_SESSION, None)
        if sess is not None:
            sess.failures.append((item.nodeid, str(call.excinfo.value).splitlines()[0]))
    return report


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    sess = session.config.stash.get(_SESSION, None)
    if sess is not None:
        sess.write()


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    sess = config.stash.get(_SESSION, None)
    if sess is None or not sess.evaluations:
        return
    terminalreporter.section("ragauge")
    for line in sess.terminal_lines():
        terminalreporter.write_line(line)
    for line in warning_lines(sess.evaluations):
        terminalreporter.write_line(line, yellow=True)


def warning_lines(evaluations: Any) -> list[str]:
    """One line per evaluation whose gates carry warnings (e.g. fewer than 30 scored samples): shown even
    when every gate passed, because a pass on too few questions is not reliable."""
    lines = []
    for ev in evaluations:
        by_text: dict[str, list[str]] = {}
        for g in getattr(ev.results, "gates", []):
            for w in getattr(g, "warnings", ()):
                by_text.setdefault(w, []).append(g.metric)
        for text, metrics in by_text.items():
            lines.append(f"ragauge: WARNING ({ev.label}): {', '.join(dict.fromkeys(metrics))}: {text}")
    return lines
