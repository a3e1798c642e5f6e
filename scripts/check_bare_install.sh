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
# Issue 14: the dashboard gates judge metrics; with no judge installed the run must fail them (exit 1), not
# drop them and print "PASS" (answer "5 dollars" against a context saying "900 dollars").
"$VENV/bin/python" - <<'PYTHON'
import json

with open("judged.jsonl", "w", encoding="utf-8") as fh:
    for i in range(40):
        fh.write(json.dumps({"id": f"q{i}", "question": "How much does it cost?", "answer": "It costs 5 dollars.",
                             "contexts": ["It costs 900 dollars."], "retrieved_ids": ["a", "b"],
                             "relevant_ids": ["a"]}) + "\n")
PYTHON
set +e
"$VENV/bin/ragauge" eval judged.jsonl --out judged-out > judged.txt 2>&1
code=$?
set -e
[ "$code" -eq 1 ] || { cat judged.txt >&2; echo "bare install: eval with gated judge metrics and no judge exited $code (expected 1)" >&2; exit 1; }
grep -q "no judge installed" judged.txt || { cat judged.txt >&2; echo "bare install: the no-judge reason is missing" >&2; exit 1; }
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
