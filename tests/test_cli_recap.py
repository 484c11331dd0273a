"""`gmscreen recap`: the session's recap on a real campaign file, as Markdown or JSON, any
session of it, one clear error for a session it never had; it writes nothing."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from gmscreen.campaign import sample_path
from gmscreen.campaign.session import open_session
from gmscreen.play import Table
from gmscreen.play.table_roll import roll_line

from _cli_helpers import assert_one_line_error, cli_english, run  # noqa: F401 (fixtures)

REPO = Path(__file__).resolve().parents[1]


def _played(tmp_path: Path) -> Path:
    path = tmp_path / "mir.toml"
    shutil.copyfile(sample_path("mir"), path)
    with open_session(path) as session:
        table = Table(session)
        roll_line(session, "alexis tir sd2 = 1 1 1 1 1", table=table)
        roll_line(session, "loriane eloquence sd3 = 1 2 3 4 5", table=table, gm_only=True)
        with session.edit("Héritage → Loriane") as b:
            b.set(("characters", 1, "sheet", "voies", "heritage"), 4)
    return path


def test_markdown_json_and_an_earlier_session(capsys, tmp_path) -> None:
    path = _played(tmp_path)
    before = sorted((p.name, p.stat().st_mtime_ns) for p in tmp_path.iterdir())
    status, out, err = run(capsys, "recap", str(path))
    assert (status, err) == (0, "")
    assert out.startswith("# Recap of session 3 · Les geôles de Vaskov\n")
    assert "- **Loriane**: Héritage 3 → 4" in out and "1 secret roll of the GM left out." in out
    status, out, err = run(capsys, "recap", str(path), "--json", "--gm")
    data = json.loads(out)
    assert (status, data["session"], data["rolls"], data["hidden_rolls"]) == (0, 3, 2, 0)
    assert data["changes"] == {"Loriane": ["Héritage 3 → 4"]}
    alexis = next(t for t in data["luck"] if t["who"] == "Alexis")
    assert (alexis["successes"], alexis["trials"], alexis["verdict"]) == (0, 1, "fair")
    status, out, err = run(capsys, "recap", str(path), "--session", "2")
    assert status == 0 and "0 rolls this session." in out and "Nothing changed" in out
    assert sorted((p.name, p.stat().st_mtime_ns) for p in tmp_path.iterdir()) == before


def test_a_session_the_campaign_never_had_is_one_clear_error(capsys, tmp_path) -> None:
    path = _played(tmp_path)
    assert_one_line_error(*run(capsys, "recap", str(path), "--session", "7"), "--session", "from 1 to 3", "7")
    assert_one_line_error(*run(capsys, "recap", str(path), "--session", "x"), "--session")
    assert_one_line_error(*run(capsys, "recap", str(tmp_path / "none.toml")), "none.toml")


def test_in_french_from_a_process(tmp_path) -> None:
    path = _played(tmp_path)
    done = subprocess.run([sys.executable, "-m", "gmscreen", "--lang", "fr", "recap", str(path)], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("# Résumé de la session 3") and "## Chance" in done.stdout
