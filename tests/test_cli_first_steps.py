"""A new GM's first mistakes on the command line get an answer (issue 24): a command that does
not exist says how to open or create a campaign (and suggests the closest command), `new`
takes a file name without `.toml`, and a system named as its game is spelled, in any case,
with or without accents."""

from __future__ import annotations

import pytest

from gmscreen.campaign import load_campaign

from _cli_helpers import assert_one_line_error, cli_english, run  # noqa: F401 (a fixture)


@pytest.mark.parametrize("args, words", [
    (("open", "c.toml"), ["no command 'open'", "`gmscreen FILE`", "`gmscreen new FILE --system ID`"]),
    (("create", "c.toml", "--system", "mir"), ["no command 'create'"]),
    (("rol", "mir"), ["no command 'rol'", "did you mean roll?"]),
    (("valdate", "c.toml"), ["did you mean validate?"]),
])
def test_an_unknown_command_says_how_to_open_or_create(capsys, tmp_path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    assert_one_line_error(*run(capsys, *args), *words)


def test_a_missing_campaign_file_is_still_said_as_such(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert_one_line_error(*run(capsys, "missing.toml"), "missing.toml", "no such file")


@pytest.mark.parametrize("spelled, system", [("MIR", "mir"), ("Magisphère", "magisphere"),
                                              ("MAGISPHERE", "magisphere"), ("éclats", "eclats")])
def test_new_takes_a_bare_name_and_any_spelling_of_the_system(capsys, tmp_path, monkeypatch, spelled, system):
    monkeypatch.chdir(tmp_path)
    status, _out, err = run(capsys, "new", "mycamp", "--system", spelled)
    assert status == 0, err
    assert load_campaign(tmp_path / "mycamp.toml").system == system
    assert not (tmp_path / "mycamp").exists()


def test_an_unknown_system_is_still_refused(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert_one_line_error(*run(capsys, "new", "c.toml", "--system", "yze"), "--system", "'yze'")
    assert not (tmp_path / "c.toml").exists()
