import pytest

from ragauge.config import load_config
from ragauge.errors import ConfigError


def test_no_file_gives_defaults(tmp_path):
    cfg = load_config(start=tmp_path)
    assert cfg.path is None and cfg.profile is None and cfg.seed is None  # not set: EvalConfig's defaults apply
    from ragauge.engine.config import EvalConfig

    settings = EvalConfig.from_project(cfg)
    assert (settings.profile, settings.seed, settings.ci_level, settings.n_resamples) == ("dashboard", 0, 0.95, 2000)


def test_every_front_door_builds_the_same_config(tmp_path):
    """ragauge.toml, then what was given: the CLI's options and the pytest marker use the same merge."""
    from ragauge.engine.config import EvalConfig

    (tmp_path / "ragauge.toml").write_text('profile = "starter"\nseed = 7\nci_level = 0.9\n', encoding="utf-8")
    cfg = load_config(start=tmp_path)
    merged = EvalConfig.from_project(cfg, seed=None, profile=None, k=5)
    assert (merged.profile, merged.seed, merged.ci_level, merged.k) == ("starter", 7, 0.9, 5)
    assert EvalConfig.from_project(cfg, profile="none").profile is None
    with pytest.raises(TypeError, match="unknown evaluation setting"):
        EvalConfig.from_project(cfg, sed=1)


def test_evaluate_takes_a_config_and_async_code_can_await_it(tmp_path):
    import asyncio

    import ragauge

    rows = [{"id": str(i), "retrieved_ids": ["a", "b"], "relevant_ids": ["a"] if i % 2 else ["b"]} for i in range(6)]
    config = ragauge.EvalConfig(metrics=["mrr"], profile=None, seed=3)
    sync = ragauge.evaluate(rows, config)
    both = asyncio.run(ragauge.aevaluate(rows, config, metrics=["mrr", "hit_rate@1"]))
    assert sync.summary["mrr"].value == both.summary["mrr"].value == 0.75
    assert set(both.summary) == {"mrr", "hit_rate@1"}
    with pytest.raises(TypeError, match="unknown argument"):
        ragauge.evaluate(rows, config, metric=["mrr"])


def test_ragauge_toml_found_from_a_subfolder(tmp_path):
    (tmp_path / "ragauge.toml").write_text(
        'profile = "mybot"\nk = 10\nmetrics = ["ndcg@10"]\n[profiles.mybot]\nextends = "dashboard"\n', encoding="utf-8"
    )
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    cfg = load_config(start=sub)
    assert cfg.profile == "mybot" and cfg.k == 10 and cfg.metrics == ("ndcg@10",)
    assert cfg.profiles["mybot"]["extends"] == "dashboard"


def test_pyproject_tool_table(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n[tool.ragauge]\nseed = 7\n', encoding="utf-8")
    assert load_config(start=tmp_path).seed == 7


def test_pyproject_without_table_is_ignored(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    assert load_config(start=tmp_path).path is None


@pytest.mark.parametrize(
    "text, fragment",
    [("profle = 'x'", "unknown keys ['profle']"), ("k = 'ten'", "'k' must be a positive integer"),
     ("metrics = 'ndcg@10'", "'metrics' must be a list"), ("seed = true", "'seed' must be an integer"),
     ("k = [", "not valid TOML")],
)
def test_bad_config_names_the_file_and_key(tmp_path, text, fragment):
    path = tmp_path / "ragauge.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert fragment in str(err.value) and str(path) in str(err.value)


def test_explicit_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "nope.toml")


def test_the_evaluated_system_is_recorded_and_compare_names_it(tmp_path, capsys):
    """TruLens' app name / version: from ragauge.toml or the CLI, in results.json, in `ragauge compare`."""
    import json

    from ragauge.cli.main import main

    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps({"id": str(i), "retrieved_ids": ["a", "b"], "relevant_ids": ["a" if i % 3 else "b"]}) + "\n"
                            for i in range(12)), encoding="utf-8")
    (tmp_path / "ragauge.toml").write_text('app_name = "support-bot"\napp_version = 1.2\n', encoding="utf-8")
    cfg = str(tmp_path / "ragauge.toml")
    assert main(["eval", str(data), "--metrics", "mrr", "--profile", "none", "--out", str(tmp_path / "a"),
                 "--config", cfg, "-q"]) == 0
    assert main(["eval", str(data), "--metrics", "mrr", "--profile", "none", "--out", str(tmp_path / "b"),
                 "--config", cfg, "--app-version", "1.3", "-q"]) == 0
    doc = json.loads((tmp_path / "b" / "results.json").read_text(encoding="utf-8"))
    assert doc["app"] == {"name": "support-bot", "version": "1.3"}
    capsys.readouterr()
    main(["compare", str(tmp_path / "a"), str(tmp_path / "b")])
    out = capsys.readouterr().out
    assert "(support-bot 1.2) ->" in out and "(support-bot 1.3)" in out
    from ragauge.engine.config import EvalConfig
    from ragauge.errors import InputError

    with pytest.raises(InputError, match="app_name"):
        EvalConfig(app_name="  ")


def test_also_adds_metrics_to_the_defaults_and_judge_ones_only_with_a_judge():
    import ragauge

    rows = [{"id": str(i), "question": "Сколько?", "answer": "5 рублей.", "contexts": ["Цена 5 рублей."],
             "retrieved_ids": ["a"], "relevant_ids": ["a"]} for i in range(6)]
    res = ragauge.evaluate(rows, metrics=["mrr"], also="hit_rate@1,mrr", profile=None, judge="none")
    assert list(res.summary) == ["mrr", "hit_rate@1"]  # no repeat
    res = ragauge.evaluate(rows, metrics=["mrr"], also=["context_relevance"], profile=None, judge="none")
    assert "context_relevance" not in res.summary  # a judge metric needs a judge, as in the defaults
