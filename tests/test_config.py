import pytest

from ragauge.config import load_config
from ragauge.errors import ConfigError


def test_no_file_gives_defaults(tmp_path):
    cfg = load_config(start=tmp_path)
    assert cfg.path is None and cfg.profile is None and cfg.seed == 0


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
