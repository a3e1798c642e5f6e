"""`ragauge eval --baseline/--margin/--intersection/--lang`: exit codes and what is printed."""

import json

from ragauge.cli.main import main


def _write(path, rows):
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    return path


def _rows(n=40, *, shift=0, miss_every=0):
    out = []
    for i in range(n):
        miss = miss_every and i % miss_every == 0
        out.append({"id": f"q{i + shift}", "question": "Сколько стоит доставка?",
                    "retrieved_ids": ["x", "y"] if miss else ["a", "b"], "relevant_ids": {"a": 1},
                    "latency_ms": 1000, "retrieval_ms": 50, "ttft_ms": 200})
    return out


PROFILE = '[profiles.guard]\nmode = "non_inferior"\nthresholds = { "mrr@5" = ">= 0.5" }\n'


def test_baseline_pass_and_regression_fail(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ragauge.toml").write_text(PROFILE, encoding="utf-8")
    base = _write(tmp_path / "base.jsonl", _rows(200))
    assert main(["eval", str(base), "--out", "b", "--profile", "none", "--metrics", "mrr@5"]) == 0
    capsys.readouterr()
    # --lang en: the report speaks the data's language (Russian here) unless told otherwise
    assert main(["eval", str(base), "--out", "n", "--profile", "guard", "--baseline", "b/results.json",
                 "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "vs baseline" in out and "→ +0.000" in out and "Compared with baseline b/results.json" in out
    # issue 14: the same answers on 40 pairs used to fail ("not shown to be within the margin 0.02, rule-of-three
    # bound"): an unchanged system failed its own baseline. The default (non_inferior) is now a regression test,
    # which identical runs pass at any n; the strict proof is the explicit mode non_inferior_strict, and says
    # how many samples it needs (149 at margin 0.02).
    small = _write(tmp_path / "small.jsonl", _rows(40))
    assert main(["eval", str(small), "--out", "s", "--profile", "none", "--metrics", "mrr@5"]) == 0
    assert main(["eval", str(small), "--out", "s2", "--profile", "guard", "--baseline", "s"]) == 0
    (tmp_path / "ragauge.toml").write_text(PROFILE.replace('"non_inferior"', '"non_inferior_strict"'), encoding="utf-8")
    assert main(["eval", str(small), "--out", "s3", "--profile", "guard", "--baseline", "s"]) == 1
    reason = json.loads((tmp_path / "s3" / "results.json").read_text(encoding="utf-8"))["gates"][0]["reason"]
    assert "rule-of-three" in reason and "only from n = 149 paired samples" in reason
    (tmp_path / "ragauge.toml").write_text(PROFILE, encoding="utf-8")
    capsys.readouterr()
    base = _write(tmp_path / "base.jsonl", _rows())
    assert main(["eval", str(base), "--out", "b", "--profile", "none", "--metrics", "mrr@5"]) == 0
    worse = _write(tmp_path / "worse.jsonl", _rows(miss_every=3))
    code = main(["eval", str(worse), "--out", "w", "--profile", "guard", "--baseline", "b", "--margin", "0.05",
                 "--lang", "en"])
    out = capsys.readouterr().out
    assert code == 1 and "↓ -0.350" in out and "worse" in out
    doc = json.loads((tmp_path / "w" / "results.json").read_text(encoding="utf-8"))
    gate = doc["gates"][0]
    assert gate["mode"] == "non_inferior" and gate["margin"] == 0.05 and gate["status"] == "fail"
    assert "a regression: significantly worse than the baseline by more than the margin 0.05" in gate["reason"]
    md = (tmp_path / "w" / "report.md").read_text(encoding="utf-8")
    assert "| vs baseline |" in md and "↓ -0.350" in md and "(non-inferior)" in md
    html = (tmp_path / "w" / "report.html").read_text(encoding="utf-8")
    assert "<th>vs baseline</th>" in html and "change-worse" in html


def test_different_ids_exit_2_unless_intersection(tmp_path, capsys):
    base = _write(tmp_path / "base.jsonl", _rows())
    assert main(["eval", str(base), "--out", str(tmp_path / "b"), "--metrics", "mrr@5", "-q"]) == 0
    other = _write(tmp_path / "other.jsonl", _rows(shift=3))
    args = ["eval", str(other), "--out", str(tmp_path / "o"), "--metrics", "mrr@5", "--baseline", str(tmp_path / "b")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "not scored on the same samples" in err and "--intersection" in err
    assert main(args + ["--intersection", "-q"]) == 0
    doc = json.loads((tmp_path / "o" / "results.json").read_text(encoding="utf-8"))
    assert doc["comparison"]["baseline"]["n_common"] == 37


def test_lang_flag_and_diagnosis_in_the_table(tmp_path, capsys):
    data = _write(tmp_path / "s.jsonl", _rows(miss_every=2))
    assert main(["eval", str(data), "--out", str(tmp_path / "o")]) == 1
    out = capsys.readouterr().out
    assert "Что исправить:" in out and "Сначала почините поиск" in out
    assert main(["eval", str(data), "--out", str(tmp_path / "o"), "--lang", "en"]) == 1
    out = capsys.readouterr().out
    assert "What to fix:" in out and "[critical] Fix retrieval first" in out
    doc = json.loads((tmp_path / "o" / "results.json").read_text(encoding="utf-8"))
    assert doc["diagnosis"][0]["code"] == "retrieval_first"


def test_help_lists_the_new_options(capsys):
    try:
        main(["eval", "--help"])
    except SystemExit:
        pass
    out = capsys.readouterr().out
    for opt in ("--baseline", "--margin", "--intersection", "--min-slice", "--lang"):
        assert opt in out


GUARD53 = ('[profiles.guard53]\nk = 5\nmode = "non_inferior"\n'
           'thresholds = { "ndcg@K" = ">= 0.0", "mrr@K" = ">= 0.0", "hit_rate@K" = ">= 0.0" }\n')


def _rows53(reverse=False):
    out = []
    for i in range(53):
        ranking = [f"d{j}" for j in range(10)]
        out.append({"id": f"q{i}", "question": "Сколько стоит доставка?", "relevant_ids": {f"d{i % 4}": 1},
                    "retrieved_ids": ranking[::-1] if reverse else ranking})
    return out


def test_eval_baseline_n53_unchanged_passes_reversed_fails(tmp_path, capsys, monkeypatch):
    """Issue 14: `ragauge eval --baseline` of an unchanged system passes at n = 53 (it failed every metric
    under strict non-inferiority); every ranking reversed fails, and the reason names the deciding test."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ragauge.toml").write_text(GUARD53, encoding="utf-8")
    data = _write(tmp_path / "d.jsonl", _rows53())
    assert main(["eval", str(data), "--out", "b", "--profile", "none", "--metrics", "ndcg@5,mrr@5,hit_rate@5", "-q"]) == 0
    assert main(["eval", str(data), "--out", "same", "--profile", "guard53", "--baseline", "b", "-q"]) == 0
    doc = json.loads((tmp_path / "same" / "results.json").read_text(encoding="utf-8"))
    assert [g["status"] for g in doc["gates"]] == ["pass"] * 3 and doc["passed"] is True
    assert all("no regression beyond the margin 0.02 shown" in g["reason"] and g["n"] == 53 for g in doc["gates"])
    rev = _write(tmp_path / "r.jsonl", _rows53(reverse=True))
    assert main(["eval", str(rev), "--out", "rev", "--profile", "guard53", "--baseline", "b", "-q"]) == 1
    doc = json.loads((tmp_path / "rev" / "results.json").read_text(encoding="utf-8"))
    assert [g["status"] for g in doc["gates"]] == ["fail"] * 3
    for g in doc["gates"]:
        assert "a regression: significantly worse than the baseline" in g["reason"]
        test = ("zero spread: rule-of-three bound" if g["metric"] == "hit_rate@5"  # every pair 1 -> 0
                else "one-sided paired t-test")
        assert f"regression test, {test}" in g["reason"]
        assert g["non_inferiority"]["regressed"] is True and g["non_inferiority"]["upper_bound"] < -0.02
    # the strict proof stays available as an explicit mode, and says how many samples it needs
    (tmp_path / "ragauge.toml").write_text(GUARD53.replace('"non_inferior"', '"non_inferior_strict"'), encoding="utf-8")
    assert main(["eval", str(data), "--out", "strict", "--profile", "guard53", "--baseline", "b", "-q"]) == 1
    doc = json.loads((tmp_path / "strict" / "results.json").read_text(encoding="utf-8"))
    assert all("only from n = 149 paired samples" in g["reason"] for g in doc["gates"])
    capsys.readouterr()
