"""`--lang` anywhere on the command line, for every subcommand; argparse's own words (usage:,
its headings, its -h line, its errors) from our catalog in the language chosen, without
changing argparse for the rest of the process; with no language chosen anywhere (LANG=C on a
server), a command asks nothing and speaks as DESIGN says (French), or the screen's answer."""

from __future__ import annotations

import argparse
import gettext
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gmscreen import i18n
from gmscreen.campaign import sample_path
from gmscreen.cli import SUBCOMMANDS
from gmscreen.cli.argwords import reworded

from _cli_helpers import assert_one_line_error, cli_english, run  # noqa: F401 (fixture)

REPO = Path(__file__).resolve().parents[1]
ROLL = ("mir", "--pool", "3", "--difficulty", "2", "--seed", "1")


@pytest.mark.parametrize("where", ["before", "after the command", "at the end"])
def test_lang_is_taken_wherever_it_is(capsys, where: str) -> None:
    words = {"before": ["--lang", "fr", "roll", *ROLL], "after the command": ["roll", "--lang", "fr", *ROLL],
             "at the end": ["roll", *ROLL, "--lang=fr"]}[where]
    status, out, err = run(capsys, *words)
    assert status == 0 and err == ""
    assert out.splitlines()[0] == "MIR · test simple"
    assert_one_line_error(*run(capsys, "validate", "--lang", "fr", "none.toml"), "none.toml")
    assert i18n.language() == "fr"


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_subcommand_takes_lang_and_says_its_help_in_it(capsys, command: str) -> None:
    status, out, err = run(capsys, command, "--help", "--lang", "fr")
    assert status == 0 and err == "", err
    assert out.startswith("usage : ")
    if command not in ("roll", "odds"):           # (theirs lists the systems; each system's has the rest)
        assert "options :" in out and "affiche cette aide et quitte" in out and "--lang {fr,en}" in out
    status, out, _err = run(capsys, "--lang", "en", command, "--help")
    assert status == 0 and out.startswith("usage: ")
    if command not in ("roll", "odds"):
        assert "options:" in out and "show this help message and exit" in out


def test_the_screen_help_and_its_headings_in_french(capsys) -> None:
    out = run(capsys, "--help", "--lang", "fr")[1]
    assert out.startswith("usage : gmscreen ")
    assert "arguments positionnels :" in out and "options :" in out
    assert "affiche la version du programme et quitte" in out
    out = run(capsys, "roll", "mir", "--help", "--lang", "fr")[1]
    assert "champs de la requête (format : gmscreen/docs/requests.md) :" in out


def test_argparse_errors_in_french(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert_one_line_error(*run(capsys, "validate", "--lang", "fr"),
                          "gmscreen validate: arguments obligatoires manquants : CAMPAIGN.toml")
    assert_one_line_error(*run(capsys, "export", "c.toml", "--session", "x", "--lang", "fr"),
                          "gmscreen export: --session: attendu un entier, reçu 'x'")
    assert_one_line_error(*run(capsys, "roll", "mir", "--pool", "--lang", "fr"),
                          "gmscreen roll mir: --pool: attendu une valeur")
    assert_one_line_error(*run(capsys, "systems", "--bogus", "--lang", "fr"),
                          "gmscreen systems: arguments non reconnus : --bogus")
    assert_one_line_error(*run(capsys, "turn", "c.toml", "sideways", "--lang", "fr"), "choix invalide : 'sideways'")
    status, _out, err = run(capsys, "game", "zz", "--lang", "fr")
    assert status == 2 and "choix invalide : 'zz' (parmi 'new')" in err
    assert_one_line_error(*run(capsys, "validate"),
                          "gmscreen validate: the following arguments are required: CAMPAIGN.toml")
    # The system's own refusal, too (Python gives the C library's English whatever the language).
    assert_one_line_error(*run(capsys, "validate", "none.toml", "--lang", "fr"), "fichier ou dossier introuvable")
    assert_one_line_error(*run(capsys, "validate", "none.toml"), "no such file or directory")
    # And the TOML and JSON parsers' (English whatever the language, like argparse's).
    (tmp_path / "typo.toml").write_text("a = \n", encoding="utf-8")
    (tmp_path / "typo.json").write_text('{"system": ', encoding="utf-8")
    assert_one_line_error(*run(capsys, "resolve", "typo.toml", "--lang", "fr"),
                          "typo.toml: TOML invalide : valeur invalide (ligne 1, colonne 5)")
    assert_one_line_error(*run(capsys, "resolve", "typo.json", "--lang", "fr"),
                          "typo.json:1: JSON invalide : valeur attendue (ligne 1, colonne 12)")
    assert_one_line_error(*run(capsys, "resolve", "typo.toml"), "invalid TOML: Invalid value (at line 1, column 5)")
    assert run(capsys, "validate", "typo.toml", "--lang", "fr")[2] == \
        "typo.toml:1: TOML invalide : valeur invalide (colonne 5)\n"


def test_argparse_itself_is_left_as_it_was(capsys) -> None:
    """Another parser of the process (pytest's, a library's) keeps argparse's own English."""
    run(capsys, "--lang", "fr", "systems", "--help")
    assert argparse._ is gettext.gettext and argparse.ngettext is gettext.ngettext
    assert "show this help message and exit" in argparse.ArgumentParser(prog="x").format_help()


def test_an_error_not_argparse_s_comes_back_as_it_is() -> None:
    i18n.set_language("fr")
    assert reworded("--seed: attendu un entier") == "--seed: attendu un entier"
    assert reworded("argument --seed: attendu un entier") == "--seed: attendu un entier"
    assert reworded("expected 2 arguments") == "attendu 2 valeurs"


# ---------------------------------------------------------------- no language chosen anywhere


def _gmscreen(tmp_path: Path, *args: str, lang: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env.update(LANG=lang, GMSCREEN_CONFIG_DIR=str(tmp_path / "config"), GMSCREEN_DATA_DIR=str(tmp_path / "data"),
               PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "gmscreen", *args], capture_output=True, text=True, cwd=tmp_path,
                          env=env, timeout=60, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("lang", ["C", "POSIX", "C.UTF-8"])
def test_a_command_with_no_language_anywhere_asks_nothing(tmp_path: Path, lang: str) -> None:
    """DESIGN: --lang, else config.toml's `language`, else the environment, else French; a
    command never asks (only the screen does, and remembers the answer in config.toml)."""
    campaign = tmp_path / "mir.toml"
    campaign.write_bytes(sample_path("mir").read_bytes())
    done = _gmscreen(tmp_path, "validate", "mir.toml", lang=lang)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("mir.toml : valide (mir,")
    assert not (tmp_path / "config" / "config.toml").exists()        # nothing asked, nothing written
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text('language = "en"\n', encoding="utf-8")   # the screen's answer
    done = _gmscreen(tmp_path, "validate", "mir.toml", lang=lang)
    assert done.stdout.startswith("mir.toml: valid (mir,")
    done = _gmscreen(tmp_path, "roll", *ROLL, "--lang", "fr", lang=lang)
    assert done.returncode == 0 and done.stdout.splitlines()[0] == "MIR · test simple"
