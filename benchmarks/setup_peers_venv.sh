#!/usr/bin/env bash
# Create the venv of the peer tools for benchmarks/llm_calls.py (Ragas; never ragauge's own venv).
#
#   bash benchmarks/setup_peers_venv.sh [VENV]      # default VENV: /tmp/ragauge-peers-venv
#
# Pins: ragas 0.4.3 imports only with langchain-community 0.4.1; langchain-openai talks to any
# OpenAI-compatible base URL (the local llama.cpp server behind the benchmark's counting proxy).
# DEEPEVAL=1 also installs deepeval (not measured by llm_calls.py yet).
set -euo pipefail
VENV="${1:-/tmp/ragauge-peers-venv}"
PY="${PYTHON:-python3}"
if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet "ragas==0.4.3" "langchain-community==0.4.1" "langchain-openai" "datasets"
if [ "${DEEPEVAL:-0}" = "1" ]; then
  "$VENV/bin/python" -m pip install --quiet "deepeval==4.3.1"
fi
"$VENV/bin/python" -c "import ragas, langchain_openai; print('ragas', ragas.__version__, 'ready in $VENV')"
