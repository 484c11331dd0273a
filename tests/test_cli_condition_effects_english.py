"""`gmscreen validate` and `gmscreen line` with condition effects typed in English: they read as
the game's French words (no warning, the same dice), and an effect no word of the game reads is
warned about with the game's words in the command's language."""

from __future__ import annotations

import shutil

from gmscreen.campaign import sample_path

from _cli_helpers import cli_english, run  # noqa: F401  (cli_english: autouse fixture)


def _mir(tmp_path, effect: str):
    path = tmp_path / "mir.toml"
    shutil.copyfile(sample_path("mir"), path)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('effect = "−1 dé"', f'effect = "{effect}"'), encoding="utf-8")
    return path


def test_english_effects_validate_and_bite_like_the_french(tmp_path, capsys):
    path = _mir(tmp_path, "-1 die")
    status, out, err = run(capsys, "validate", str(path))
    assert (status, err) == (0, "")
    status, out, _err = run(capsys, "line", str(path), "alexis tir sd2", "--seed", "3")
    assert status == 0 and "  Ébloui par la lanterne -1 die: 91% → 84%\n" in out


def test_an_unread_effect_is_warned_with_the_games_words_in_english(tmp_path, capsys):
    path = _mir(tmp_path, "blinded")
    status, out, err = run(capsys, "validate", str(path))
    assert status == 0 and "Traceback" not in err
    assert "“blinded” is not an effect MIR can apply (it accepts “−1 die”, “+1 die” (situation dice, R3), " \
           "“wound −1 die”, “prejudice −2 dice”, “penalty 2”" in err
