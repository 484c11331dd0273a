"""The command line in the language chosen: --lang (anywhere, see test_cli_lang_anywhere), else config.toml's `language`, else the environment, else French. Its help,
output and errors in English and in French; the game's words stay as the rules write them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gmscreen.campaign import sample_path

from _cli_helpers import assert_one_line_error, cli_english, run  # noqa: F401 (fixture)

REPO = Path(__file__).resolve().parents[1]
NNBSP = "\u202f"


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    target = tmp_path / "mir.toml"
    shutil.copyfile(sample_path("mir"), target)
    return target


def _config(tmp_path: Path, language: str) -> None:
    folder = tmp_path / "config"
    folder.mkdir(exist_ok=True)
    (folder / "config.toml").write_text(f'language = "{language}"\n', encoding="utf-8")


# ---------------------------------------------------------------- help, errors, output


def test_help_in_both_languages(capsys) -> None:
    status, out, _err = run(capsys, "--lang", "fr", "--help")
    assert status == 0
    assert "Un écran de meneur de jeu pour le terminal" in out
    assert "sous-commandes (gmscreen COMMANDE --help pour chacune) :" in out
    assert "vérifie un fichier de campagne" in out and "--lang fr|en" in out
    status, out, _err = run(capsys, "--lang", "en", "--help")
    assert "A game master's screen for the terminal" in out and "check a campaign file" in out
    out = run(capsys, "--lang", "fr", "roll", "mir", "--help")[1]
    assert "MIR · test simple (simple). Types de test de mir : simple" in out
    assert "champs de la requête (format : gmscreen/docs/requests.md)" in out and "la difficulté est cachée aux joueurs" in out
    out = run(capsys, "--lang", "en", "roll", "--help")[1]
    assert "systems and kinds (the first kind is the default):" in out
    out = run(capsys, "--lang", "fr", "roll", "--help")[1]
    assert "systèmes et types de test (le premier est celui par défaut) :" in out


def test_an_error_in_both_languages(capsys) -> None:
    assert_one_line_error(*run(capsys, "--lang", "en", "roll", "mir", "--pool", "x"),
                          "gmscreen roll mir: --pool: expected an integer, got 'x'")
    assert_one_line_error(*run(capsys, "--lang", "fr", "roll", "mir", "--pool", "x"),
                          "gmscreen roll mir: --pool: attendu un entier, reçu 'x'")
    assert_one_line_error(*run(capsys, "--lang", "fr", "new", "x.toml", "--system", "dnd"),
                          "attendu parmi", "reçu 'dnd'")
    assert_one_line_error(*run(capsys, "--lang", "fr", "roll", "mir", "--bogus"),     # argparse's own, too
                          "gmscreen roll mir: arguments non reconnus : --bogus")
    assert_one_line_error(*run(capsys, "--lang", "de", "systems"), "--lang", "expected fr or en, got 'de'")
    assert_one_line_error(*run(capsys, "--lang"), "--lang", "expected fr or en")


def test_odds_in_both_languages_keep_the_game_words(capsys) -> None:
    args = ("odds", "tedeum", "--die", "12", "--skill", "5", "--negative-die", "6", "--difficulty", "13")
    out = run(capsys, "--lang", "en", *args)[1]
    assert out.splitlines()[0] == ("Te Deum pour un massacre · skill test · exact odds · "
                                   "seuil 13 (Périlleux)")
    assert "chance of success: 41.67%" in out and "assuming: Providence not called on" in out
    out = run(capsys, "--lang", "fr", *args)[1]
    assert out.splitlines()[0] == "Te Deum pour un massacre · test de compétence · chances exactes · seuil 13 (Périlleux)"
    assert f"chance de réussite : 41,67{NNBSP}%" in out
    hidden = ("roll", "mir", "--pool", "3", "--difficulty", "2", "--hidden")
    assert run(capsys, "--lang", "en", *hidden)[1].splitlines()[0] == "MIR · simple test · hidden difficulty"
    assert run(capsys, "--lang", "fr", *hidden)[1].splitlines()[0] == "MIR · test simple · difficulté cachée"


def test_validate_new_and_problems_in_both_languages(tmp_path: Path, capsys) -> None:
    path = tmp_path / "ma_campagne.toml"
    status, out, _err = run(capsys, "--lang", "fr", "new", str(path), "--system", "mir")
    assert status == 0 and out == f'{path} : nouvelle campagne MIR « ma campagne » (format 1)\n'
    assert run(capsys, "--lang", "fr", "validate", str(path))[1] == \
        f"{path} : valide (mir, 1 personnage, 0 jet au journal)\n"
    assert run(capsys, "--lang", "en", "validate", str(path))[1] == \
        f"{path}: valid (mir, 1 character, 0 rolls in the log)\n"
    path.write_text(path.read_text(encoding="utf-8").replace('system = "mir"', 'system = 3'), encoding="utf-8")
    status, _out, err = run(capsys, "--lang", "fr", "validate", str(path))
    assert status == 2 and "system: attendu parmi" in err and "reçu un entier 3" in err
    status, _out, err = run(capsys, "--lang", "en", "validate", str(path))
    assert status == 2 and "system: expected one of" in err and "got an integer 3" in err


def test_line_and_turn_in_both_languages(sample: Path, capsys) -> None:
    status, out, err = run(capsys, "--lang", "en", "line", str(sample), "loriane eloquence sd3", "--seed", "4")
    assert status == 0 and err == ""
    assert out.splitlines()[:2] == ["#1 Loriane · loriane eloquence sd3", "MIR · simple test"]
    status, out, _err = run(capsys, "--lang", "fr", "turn", str(sample), "next")
    assert status == 0 and out.splitlines()[-1].startswith("Round ")
    status, out, _err = run(capsys, "--lang", "en", "turn", str(sample), "previous")
    assert status == 0 and out.splitlines()[-1].startswith("Round ")
    assert_one_line_error(*run(capsys, "--lang", "fr", "line", str(sample), "loriane", "--choose", "zz",
                               "--seed", "1", "--policy", "bogus"), "--policy")


def test_the_screen_takes_lang_anywhere_and_passes_it_on(monkeypatch, tmp_path: Path, capsys) -> None:
    import types

    import gmscreen

    seen = []
    module = types.ModuleType("gmscreen.ui")
    module.run = lambda path, **kw: seen.append((path, kw["language"])) or 0
    monkeypatch.setitem(sys.modules, "gmscreen.ui", module)
    monkeypatch.setattr(gmscreen, "ui", module, raising=False)
    campaign = tmp_path / "c.toml"
    campaign.write_text('name = "x"\n', encoding="utf-8")
    assert run(capsys, "--lang", "fr", str(campaign))[0] == 0
    assert run(capsys, str(campaign), "--lang=en")[0] == 0
    assert run(capsys, str(campaign))[0] == 0           # no --lang: the screen weighs config.toml, then LANG
    assert seen == [(campaign, "fr"), (campaign, "en"), (campaign, None)]
    assert_one_line_error(*run(capsys, "--lang", "fr", str(tmp_path / "none.toml")),
                          "fichier introuvable (créez-le avec --new --system ID)")


# ---------------------------------------------------------------- precedence, in real processes


def _gmscreen(tmp_path: Path, *args: str, lang: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env.update(LANG=lang, GMSCREEN_CONFIG_DIR=str(tmp_path / "config"),
               PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-m", "gmscreen", *args], capture_output=True, text=True, cwd=REPO,
                          env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_lang_beats_config_which_beats_the_environment(tmp_path: Path) -> None:
    english, french = "List the dice systems", "Liste les systèmes de dés"
    assert english in _gmscreen(tmp_path, "systems", "--help", lang="en_GB.UTF-8")
    assert french in _gmscreen(tmp_path, "systems", "--help", lang="C.UTF-8")          # else French
    _config(tmp_path, "fr")
    assert french in _gmscreen(tmp_path, "systems", "--help", lang="en_US.UTF-8")      # config over LANG
    assert english in _gmscreen(tmp_path, "--lang", "en", "systems", "--help", lang="fr_FR.UTF-8")
    _config(tmp_path, "en")
    assert french in _gmscreen(tmp_path, "--lang=fr", "systems", "--help", lang="en_US.UTF-8")


def test_choosing_the_language_imports_no_textual(tmp_path: Path) -> None:
    _config(tmp_path, "en")
    script = """
import sys
from gmscreen.cli import main
codes = [main(["systems"]), main(["--lang", "fr", "roll", "mir", "--pool", "6", "--difficulty", "2"]),
         main(["odds", "tedeum", "--die", "8", "--negative-die", "6", "--difficulty", "7"])]
print("CODES", codes, "TEXTUAL", any(m == "textual" or m.startswith("textual.") for m in sys.modules))
"""
    env = {**os.environ, "GMSCREEN_CONFIG_DIR": str(tmp_path / "config"),
           "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, env=env,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "CODES [0, 0, 0] TEXTUAL False" in proc.stdout
    assert "chance of success" in proc.stdout and "dés :" in proc.stdout     # config's English, then --lang fr (the roll's words: its outcome is chance)
