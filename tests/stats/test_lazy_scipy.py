"""A retrieval-only run must not import scipy (issue 14: importing scipy.stats was 3.6 s of a 4.5 s run).

Each check runs in a fresh interpreter, because this test process has imported scipy long ago.
"""

import json
import subprocess
import sys
import textwrap

ROWS = [{"id": f"q{i}", "question": "Сколько стоит доставка?", "retrieved_ids": ["a", "b", "c"],
         "relevant_ids": {"b" if i % 3 else "a": 1}} for i in range(40)]


def _run(code: str, tmp_path) -> list[str]:
    data = tmp_path / "d.jsonl"
    data.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in ROWS) + "\n", encoding="utf-8")
    probe = textwrap.dedent(code) + "\nprint(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'scipy')))\n"
    done = subprocess.run([sys.executable, "-c", "import json, sys\n" + probe, str(data), str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_evaluate_retrieval_only_does_not_import_scipy(tmp_path):
    loaded = _run("""
        import ragauge
        r = ragauge.evaluate(sys.argv[1], metrics=["ndcg@10", "mrr", "hit_rate@3"], profile="dashboard", k=3)
        assert r.summary["ndcg@10"].ci is not None   # the BCa interval was computed (standard-library normal)
        r.save(sys.argv[2])
    """, tmp_path)
    assert loaded == []


def test_cli_eval_retrieval_only_does_not_import_scipy(tmp_path):
    loaded = _run("""
        from ragauge.cli.main import main
        rc = main(["eval", sys.argv[1], "--metrics", "ndcg@10,mrr", "--profile", "none", "--out", sys.argv[2], "-q"])
        assert rc == 0, rc
    """, tmp_path)
    assert loaded == []


def test_bca_normal_quantiles_match_scipy():
    """The standard-library normal used by BCa instead of scipy.stats.norm gives the same numbers."""
    from statistics import NormalDist

    from scipy import stats

    for p in (0.001, 0.025, 0.3, 0.5, 0.975, 0.999):
        assert abs(NormalDist().inv_cdf(p) - stats.norm.ppf(p)) < 1e-12
        assert abs(NormalDist().cdf(p * 3 - 1.5) - stats.norm.cdf(p * 3 - 1.5)) < 1e-14
