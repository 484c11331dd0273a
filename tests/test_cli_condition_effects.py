"""`gmscreen validate` reports a condition effect the campaign's system cannot read: the file,
its line, the key path, what the system accepts; a warning (the campaign stays valid, the
effect is shown as a reminder), and the shipped samples draw none."""

from __future__ import annotations

import shutil

import pytest

from gmscreen.campaign import sample_path

from _cli_helpers import cli_english, run  # noqa: F401  (cli_english: autouse fixture)


def test_validate_names_the_effect_a_game_cannot_read(tmp_path, capsys):
    path = tmp_path / "tedeum.toml"
    shutil.copyfile(sample_path("tedeum"), path)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('effect = "Malus (un dé plus faible)"', 'effect = "−1 dé"'), encoding="utf-8")
    line = next(n for n, row in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if "−1 dé" in row)
    status, out, err = run(capsys, "validate", str(path))
    assert status == 0 and "valid" in out
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"{path}:{line}: warning: characters[0].conditions[0].effect:" in err
    assert "“−1 dé” is not an effect Te Deum" in err and "“Malus”, “Malus 2”, “Bonus”" in err


@pytest.mark.parametrize("system", ["mir", "tedeum", "magisphere", "arpeges", "eclats"])
def test_the_samples_effects_all_read(tmp_path, capsys, system):
    path = tmp_path / f"{system}.toml"
    shutil.copyfile(sample_path(system), path)
    status, out, err = run(capsys, "validate", str(path))
    assert (status, err) == (0, "")


def test_line_says_the_conditions_it_applied_and_left_out(tmp_path, capsys):
    path = tmp_path / "mir.toml"
    shutil.copyfile(sample_path("mir"), path)
    status, out, _err = run(capsys, "line", str(path), "alexis tir vs callia tir sans fièvre", "--seed", "3")
    assert status == 0
    assert "  Ébloui par la lanterne −1 dé: 99% → 97%\n  without Fièvre grise\n" in out
