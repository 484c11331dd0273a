"""Running `gmscreen` in-process and checking its one-line errors, for the command-line tests."""

from __future__ import annotations

import pytest

from gmscreen import cli


def run(capsys, *args: str) -> tuple[int, str, str]:
    """`gmscreen ARGS` in this process: its exit status, stdout and stderr."""
    status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_line_error(status: int, out: str, err: str, *words: str) -> None:
    """Exit status 2, nothing on stdout, one line on stderr with each of `words`, no traceback."""
    assert status == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for word in words:
        assert word in err, (word, err)


@pytest.fixture(autouse=True)
def cli_english(monkeypatch, tmp_path):
    """The command chooses its own language (--lang, config.toml, the environment): these tests
    read its English, from the environment, with a config folder of their own (no config.toml)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANGUAGE", "en")
    monkeypatch.setenv("GMSCREEN_CONFIG_DIR", str(tmp_path / "config"))


@pytest.fixture
def cli_french(monkeypatch):
    """The command in French, as the environment asks (for tests of its French output)."""
    monkeypatch.setenv("LANGUAGE", "fr")
