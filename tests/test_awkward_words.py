"""Issue 24, awkward English: each sentence the issue names reads as a person would write it, in
English and in French (through the CLI and gmscreen.play)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gmscreen.campaign import sample_path

from _cli_helpers import cli_english, cli_french, run  # noqa: F401 (fixtures)


def _with_unknown_sheet_key(tmp_path: Path, system: str) -> Path:
    target = tmp_path / f"{system}.toml"
    text = sample_path(system).read_text(encoding="utf-8")
    head, sep, rest = text.partition("[characters.sheet.")
    target.write_text(head + "[characters.sheet.skillz]\nx = 1\n\n" + sep + rest, encoding="utf-8")
    return target


@pytest.mark.parametrize(("system", "english", "french"), [
    ("eclats", "unknown key in an Éclats sheet", "clé inconnue dans une fiche d'Éclats"),
    ("mir", "unknown key in a MIR sheet", "clé inconnue dans une fiche de MIR"),
    ("arpeges", "unknown key in a Les Arpèges sheet", "clé inconnue dans une fiche des Arpèges"),
])
def test_an_unknown_sheet_key_names_the_game_with_its_article(capsys, monkeypatch, tmp_path, system: str,
                                                              english: str, french: str) -> None:
    path = _with_unknown_sheet_key(tmp_path, system)
    status, out, err = run(capsys, "validate", str(path))
    assert status == 2 and english in out + err and f"a {system} sheet" not in out + err
    status, out, err = run(capsys, "--lang", "fr", "validate", str(path))
    assert status == 2 and french in out + err
