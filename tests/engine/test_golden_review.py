"""A run says how many generated golden cases no expert has reviewed (issue 18)."""

import json

import ragauge
from ragauge.cli.main import main


def _rows(n_generated=10, n_accepted=3):
    rows = []
    for i in range(12):
        meta = {}
        if i < n_generated:
            meta["generator"] = "offline"
            if i < n_accepted:
                meta["review"] = {"status": "accepted", "reviewer": "expert"}
        rows.append({"id": f"q{i}", "question": "Сколько стоит штукатурка?", "retrieved_ids": ["a"],
                     "relevant_ids": ["a"], "metadata": meta})
    return rows


def test_results_count_unreviewed_generated_cases():
    res = ragauge.evaluate(_rows(), metrics=["hit_rate@1"], profile=None)
    block = res.to_dict()["golden_review"]
    assert (block["generated"], block["unreviewed"], block["share"]) == (10, 7, 0.7)
    assert ragauge.evaluate(_rows(0), metrics=["hit_rate@1"], profile=None).to_dict()["golden_review"] is None


def test_the_cli_warns_in_the_data_language(tmp_path, capsys):
    data = tmp_path / "g.jsonl"
    data.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in _rows()), encoding="utf-8")
    main(["eval", str(data), "--metrics", "hit_rate@1", "--profile", "none", "--out", str(tmp_path / "o"), "-q"])
    err = capsys.readouterr().err
    assert "7 из 10 сгенерированных случаев (70%) эксперт не проверял" in err
