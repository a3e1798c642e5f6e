#!/usr/bin/env bash
# A plain `pip install ragauge` (no extras) must work for retrieval metrics: install the package alone into a
# fresh venv and run a retrieval-only `ragauge eval` and the Python API there. Part of `make test` (issue 14:
# scipy was imported but not declared, and only a no-extras install shows such a gap).
# Usage: scripts/check_bare_install.sh PYTHON [VENV_DIR]   (default VENV_DIR: a temporary folder, removed after)
set -euo pipefail
PY=${1:?usage: check_bare_install.sh PYTHON [VENV_DIR]}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
VENV=${2:-$WORK/venv}
rm -rf "$VENV"
"$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q "$ROOT"
cd "$WORK"
cat > samples.jsonl <<'JSONL'
{"id": "q1", "question": "Сколько стоит монтаж?", "retrieved_ids": ["a", "b", "c"], "relevant_ids": ["a"]}
{"id": "q2", "question": "Какой срок гарантии?", "retrieved_ids": ["d", "e", "f"], "relevant_ids": {"e": 2}}
{"id": "q3", "question": "Кто подписывает акт?", "retrieved_ids": ["g", "h"], "relevant_ids": ["x"]}
JSONL
set +e
"$VENV/bin/ragauge" eval samples.jsonl --metrics ndcg@10,mrr,recall@5,hit_rate@5 --profile none --out out -q
code=$?
set -e
[ "$code" -eq 0 ] || { echo "bare install: 'ragauge eval' exited $code (expected 0)" >&2; exit 1; }
[ -s out/results.json ] || { echo "bare install: out/results.json was not written" >&2; exit 1; }
"$VENV/bin/python" - <<'PYTHON'
import sys

import ragauge

res = ragauge.evaluate("samples.jsonl", metrics=["ndcg@10", "mrr", "recall@5"], profile=None)
assert abs(res.summary["mrr"].value - 0.5) < 1e-12, res.summary["mrr"].value
res.save("api-out")
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("scipy", "sklearn", "pandas", "pyarrow", "httpx"))
assert not loaded, f"a retrieval-only run imported {loaded[:5]}"
print("bare install: retrieval-only eval and the Python API work with no extras")
PYTHON
