"""The dispatcher's last line of defence: no bare traceback, documented exit codes."""

from __future__ import annotations

import pytest

from ragauge.cli import main as main_mod


def _with_command(monkeypatch, func):
    """A command whose ``run`` is ``func``: the parser is ragauge's, the subcommand's handler replaced."""
    import argparse

    class Parser:
        def parse_args(self, argv):
            return argparse.Namespace(command="x", func=func)

    monkeypatch.setattr(main_mod, "build_parser", Parser)


def test_os_error_is_one_line_and_exit_2(monkeypatch, capsys, tmp_path):
    missing = tmp_path / "nope" / "x.jsonl"
    _with_command(monkeypatch, lambda args: open(missing).read())
    assert main_mod.main(["metrics"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ragauge: error: No such file or directory: ") and str(missing) in err
    assert "Traceback" not in err


def test_a_bug_is_exit_70_with_a_hint_and_the_traceback_on_request(monkeypatch, capsys):
    def boom(args):
        raise ZeroDivisionError("division by zero")

    _with_command(monkeypatch, boom)
    monkeypatch.delenv("RAGAUGE_DEBUG", raising=False)
    assert main_mod.main(["metrics"]) == 70
    err = capsys.readouterr().err
    assert "ragauge: internal error: ZeroDivisionError: division by zero" in err and "RAGAUGE_DEBUG=1" in err
    monkeypatch.setenv("RAGAUGE_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        main_mod.main(["metrics"])


def test_missing_output_folder_is_created(tmp_path):
    from ragauge.data import Sample, write_jsonl

    out = tmp_path / "a" / "b" / "samples.jsonl"
    write_jsonl([Sample("s1", "Вопрос?")], out)
    assert out.is_file()
