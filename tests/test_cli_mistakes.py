"""`gmscreen line` answers a typo with the close name, in either language, and a line without
a name is the fight's current actor's, as on the screen (issue 24)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gmscreen.campaign import sample_path

from _cli_helpers import assert_one_line_error, cli_english, cli_french, run  # noqa: F401 (fixtures)

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def tedeum(tmp_path: Path) -> Path:
    """Te Deum's sample (the captain's turn), its gentilhomme renamed Marguerite Duval."""
    path = tmp_path / "tedeum.toml"
    shutil.copyfile(sample_path("tedeum"), path)
    path.write_text(path.read_text(encoding="utf-8").replace("le gentilhomme huguenot", "Marguerite Duval"),
                    encoding="utf-8")
    return path


def test_line_offers_the_close_skill_and_name_in_english(capsys, tedeum) -> None:
    status, out, err = run(capsys, "line", str(tedeum), "marg escrme 7")
    assert_one_line_error(status, out, err, "did you mean Escrime?")
    status, out, err = run(capsys, "line", str(tedeum), "margo escrime 7")
    assert_one_line_error(status, out, err, "no character “margo” (Marguerite Duval?)")


def test_line_offers_the_close_skill_and_name_in_french(capsys, tedeum, cli_french) -> None:
    status, out, err = run(capsys, "line", str(tedeum), "marg escrme 7")
    assert_one_line_error(status, out, err, "vouliez-vous dire Escrime ?")
    status, out, err = run(capsys, "--lang", "fr", "line", str(tedeum), "margo escrime 7")
    assert_one_line_error(status, out, err, "aucun personnage « margo » (Marguerite Duval ?)")


def _gmscreen(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "LANGUAGE": "en"}
    return subprocess.run([sys.executable, "-m", "gmscreen", *args], capture_output=True, text=True,
                          cwd=REPO, env=env, timeout=60)


def test_a_line_without_a_name_is_the_current_actors(tedeum) -> None:
    # The sample's fight is at the captain's turn (turn = 1): "escrime 7" is his, as on the screen.
    done = _gmscreen("line", str(tedeum), "escrime 7", "--json", "--seed", "3")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["who"] == "le capitaine de Saint-Gelais"
    # --who still names someone else; outside a fight a line without a name asks for one.
    done = _gmscreen("line", str(tedeum), "escrime 7", "--json", "--who", "gentilhomme")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["who"] == "Marguerite Duval"
    tedeum.write_text(tedeum.read_text(encoding="utf-8").replace("round = 1", "round = 0"), encoding="utf-8")
    done = _gmscreen("line", str(tedeum), "escrime 7")
    assert done.returncode == 2 and "no character of that name; a line starts with the name of who rolls" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("command", [("roll", "mir"), ("resolve",)])
def test_help_points_to_a_document_that_ships_with_the_package(capsys, command) -> None:
    import gmscreen

    status, out, err = run(capsys, *command, "--help")
    assert status == 0 and err == ""
    assert "gmscreen/docs/requests.md" in out and "shared/rules" not in out
    assert (Path(gmscreen.__file__).parent / "docs" / "requests.md").is_file()
