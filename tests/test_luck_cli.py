"""`luck` in every command that prints or logs a roll: `roll --json`, `resolve`, `line --json`,
and the roll log on disk (the result as recorded, read back from the file)."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from gmscreen.campaign import open_session, sample_path
from gmscreen.rules import resolve

from _cli_helpers import cli_english, run  # noqa: F401 (fixtures)

RARE = ("roll", "mir", "--pool", "3", "--difficulty", "2", "--dice", "12,12,12")


@pytest.fixture
def mir_copy(tmp_path: Path) -> Path:
    target = tmp_path / "mir.toml"
    shutil.copyfile(sample_path("mir"), target)
    return target


def _logged(path: Path) -> list:
    with open_session(path, read_only=True) as session:
        return list(session.rolls)


def test_roll_json_carries_the_luck_resolve_gives(capsys) -> None:
    status, out, _ = run(capsys, *RARE, "--json")
    assert status == 0
    assert json.loads(out)["luck"] == pytest.approx(12.0 ** -3, abs=1e-15)


def test_resolve_prints_the_luck_of_forced_and_rolled_dice(capsys, monkeypatch, tmp_path: Path) -> None:
    # An initial 1, the negative die under the skill: an automatic failure; only a critical one is worse.
    request = {"system": "tedeum", "kind": "simple", "die": 8, "skill": 3, "negative_die": 6, "difficulty": 7,
               "dice": [1], "negative_dice": [2]}
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(request)))
    status, out, _ = run(capsys, "resolve", "-")
    assert status == 0 and json.loads(out)["luck"] == pytest.approx(1 - 1 / 8 * 3 / 6, abs=1e-15)
    file = tmp_path / "r.toml"
    file.write_text('system = "arpeges"\nkind = "simple"\ndifficulty = 0\nskill_level = 0\n', encoding="utf-8")
    status, out, _ = run(capsys, "resolve", str(file), "--seed", "5")
    assert status == 0
    printed = json.loads(out)
    assert printed == resolve({"system": "arpeges", "kind": "simple", "difficulty": 0, "skill_level": 0}, seed=5)
    assert 0 < printed["luck"] <= 1


def test_a_logged_roll_keeps_its_luck_on_disk(capsys, mir_copy: Path) -> None:
    status, _, _ = run(capsys, *RARE, "--campaign", str(mir_copy), "--who", "Alexis")
    assert status == 0
    record = _logged(mir_copy)[-1]
    assert record.result["luck"] == resolve({"system": "mir", "kind": "simple", "pool": 3, "difficulty": 2,
                                             "dice": [12, 12, 12]})["luck"]


def test_line_json_prints_and_logs_the_luck(capsys, mir_copy: Path) -> None:
    status, out, _ = run(capsys, "line", str(mir_copy), "loriane eloquence sd3", "--json", "--seed", "7")
    assert status == 0
    printed = json.loads(out)
    luck = printed["result"]["luck"]
    assert type(luck) is float and 0 < luck <= 1
    replay = resolve({**printed["request"], **{k: printed["result"][k] for k in ("dice",)}})
    assert replay["luck"] == luck
    assert _logged(mir_copy)[-1].result["luck"] == luck          # read back from the log file, exactly
