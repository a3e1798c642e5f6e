"""The workflow files of ``examples/ci/`` run for real: their shell lines, in a copy of the example project.

GitHub and GitLab runners are not reachable from here, so this test does what a runner does with the
steps that are ours: it reads the YAML, runs each ``run:`` / ``script:`` line with bash in a copy of
``examples/ci/project`` (the stand-in for a user's repository), with the runner's variables
(``GITHUB_OUTPUT``, the secrets as empty or set), and checks what the later steps rely on: the judge
chosen, the exit code, and the files the upload / comment steps pick up. The marketplace actions
(checkout, setup-python, cache, upload-artifact, the PR comment) are GitHub's and are not run; the
``pip install`` line is not run either (ragauge is installed in this interpreter).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml", reason="PyYAML reads the workflow files: pip install pyyaml")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "ci"
pytestmark = pytest.mark.skipif(not EXAMPLES.is_dir(), reason="examples/ci is not in this checkout")


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLES / "project", root)
    return root


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAGAUGE_LLM_", "PYTEST_"))}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"  # this venv's pytest
    env.update(extra)
    return env


def _bash(script: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-eo", "pipefail", "-c", script], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


def _github_steps() -> dict[str, dict]:
    doc = yaml.safe_load((EXAMPLES / "github-actions.yml").read_text(encoding="utf-8"))
    assert set(doc[True]) == {"pull_request"}  # YAML 1.1 reads the key `on` as True
    steps = doc["jobs"]["quality"]["steps"]
    uses = [s["uses"].split("@")[0] for s in steps if "uses" in s]
    assert uses == ["actions/checkout", "actions/setup-python", "actions/cache", "actions/upload-artifact",
                    "marocchino/sticky-pull-request-comment"]
    return {s.get("name") or s.get("uses") or s["run"]: s for s in steps}


def _choose_judge(steps: dict[str, dict], root: Path, tmp_path: Path, **env: str) -> str:
    out = tmp_path / "github_output"
    out.write_text("", encoding="utf-8")
    proc = _bash(steps["Choose the judge"]["run"], root, _env(GITHUB_OUTPUT=str(out), **env))
    assert proc.returncode == 0, proc.stderr
    return dict(line.split("=", 1) for line in out.read_text(encoding="utf-8").splitlines())["args"]


def test_github_workflow_steps_run_the_gate_and_leave_the_report(tmp_path):
    steps = _github_steps()
    root = _project(tmp_path)
    cache = next(s for s in steps.values() if s.get("uses", "").startswith("actions/cache"))
    job_env = yaml.safe_load((EXAMPLES / "github-actions.yml").read_text(encoding="utf-8"))["jobs"]["quality"]["env"]
    assert cache["with"]["path"] == ".cache/ragauge"
    assert job_env["RAGAUGE_CACHE_DIR"] == "${{ github.workspace }}/.cache/ragauge"
    assert 'pip install "ragauge[offline]"' in next(s["run"] for s in steps.values() if "pip install" in s.get("run", ""))

    assert _choose_judge(steps, root, tmp_path, RAGAUGE_LLM_BASE_URL="http://llm.internal/v1") == \
        "--ragauge-judge openai --ragauge-max-calls 2000"
    args = _choose_judge(steps, root, tmp_path, RAGAUGE_LLM_BASE_URL="")
    assert args == "--ragauge-judge offline"

    gate = steps["Quality gates"]["run"].replace("${{ steps.judge.outputs.args }}", args)
    assert "${{" not in gate
    cache_dir = str(root / ".cache" / "ragauge")  # what ${{ github.workspace }}/.cache/ragauge becomes
    proc = _bash(gate, root, _env(RAGAUGE_CACHE_DIR=cache_dir))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert (root / ".cache" / "ragauge" / "embeddings.sqlite").is_file()  # what actions/cache keeps
    report = root / "ragauge-report"
    upload = steps["Upload the report"]
    assert upload["if"] == "always()" and upload["with"]["path"] == "ragauge-report/"
    for name in ("results.json", "report.html", "report.md", "summary.md", "junit.xml"):
        assert (report / name).is_file(), name
    assert "summary.md" in steps["Comment on the pull request"]["if"]
    doc = json.loads((report / "results.json").read_text(encoding="utf-8"))
    assert doc["passed"] is True and doc["source"]["n_samples"] == 8
    assert "PASS" in (report / "summary.md").read_text(encoding="utf-8")

    # the baseline the workflow picks up when committed; a worse pipeline then fails the job
    from ragauge.cli.main import main

    assert main(["baseline", "save", str(report), "--to", str(root / "ragauge-baseline.json")]) == 0
    (root / "rag_app.py").write_text((root / "rag_app.py").read_text(encoding="utf-8").replace(
        "return [{", "scored = scored[1:] + scored[:1]\n    return [{"), encoding="utf-8")  # the best hit drops
    proc = _bash(gate, root, _env())
    assert proc.returncode == 1, proc.stdout[-3000:]
    assert "--ragauge-baseline ragauge-baseline.json" in gate and "gates failed" in proc.stdout
    assert (report / "summary.md").is_file() and "FAIL" in (report / "summary.md").read_text(encoding="utf-8")


def test_gitlab_job_script_runs_the_gate_and_builds_the_note(tmp_path):
    doc = yaml.safe_load((EXAMPLES / "gitlab-ci.yml").read_text(encoding="utf-8"))
    job = doc["rag-quality"]
    assert job["rules"] == [{"if": '$CI_PIPELINE_SOURCE == "merge_request_event"'}]
    assert ".cache/ragauge" in job["cache"]["paths"] and job["variables"]["RAGAUGE_CACHE_DIR"].endswith(".cache/ragauge")
    assert job["artifacts"]["when"] == "always" and job["artifacts"]["reports"]["junit"] == "ragauge-report/junit.xml"
    root = _project(tmp_path)
    lines = [line for line in job["script"] if not line.startswith("pip install")]
    variables = {k: v.replace("$CI_PROJECT_DIR", str(root)) for k, v in job["variables"].items()}
    proc = _bash("\n".join(lines), root, _env(CI_PROJECT_DIR=str(root), **variables))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert (root / "ragauge-report" / "junit.xml").is_file()
    assert "--ragauge-judge offline" in "\n".join(lines)
    # the after_script builds the MR note from summary.md; the POST runs only with a token (none here)
    note = re.search(r"python -c '.*?' > note.json", job["after_script"][0]).group(0)
    proc = _bash(f"RAGAUGE_GITLAB_TOKEN=x\n{note}", root, _env())
    assert proc.returncode == 0, proc.stderr
    body = json.loads((root / "note.json").read_text(encoding="utf-8"))["body"]
    assert body == (root / "ragauge-report" / "summary.md").read_text(encoding="utf-8") and "PASS" in body
    assert _bash(job["after_script"][0], root, _env()).returncode == 0  # no token: skipped quietly
