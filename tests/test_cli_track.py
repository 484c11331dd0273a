"""`gmscreen track`: hits counted on a character's track from a shell, the defeated passed over
by `gmscreen turn`, each error one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gmscreen.campaign import load_campaign, sample_path

from _cli_helpers import assert_one_line_error, cli_english, run  # noqa: F401 (fixtures)


@pytest.fixture
def copy_sample(tmp_path: Path):
    def copy(system: str) -> Path:
        target = tmp_path / f"{system}.toml"
        shutil.copyfile(sample_path(system), target)
        return target
    return copy


def test_hits_up_to_defeat_then_turn_passes_over_them(capsys, copy_sample) -> None:
    path = copy_sample("eclats")                  # round 3: Hantise plays, then Berthe (Maël waits)
    status, out, _ = run(capsys, "track", str(path), "berthe", "--add", "--max", "2")
    assert status == 0 and out == "Berthe · Hits 0/2\n"
    assert run(capsys, "track", str(path), "Berthe", "+1")[1] == "Berthe · Hits 1/2\n"
    status, out, _ = run(capsys, "track", str(path), "berthe", "+1", "--json")
    said = json.loads(out)
    assert said["defeated"] is True and said["tracks"] == [{"name": "Hits", "value": 2, "max": 2}]
    assert said["notices"] == ["Defeated: Berthe (their place in the turn order is skipped)"]
    _, out, _ = run(capsys, "turn", str(path), "next", "--json")
    assert json.loads(out)["current"] == "Ysaure"      # Berthe skipped: a new round
    status, out, _ = run(capsys, "track", str(path), "berthe", "-1")
    assert status == 0 and out == "Back in the fight: Berthe\nBerthe · Hits 1/2\n"
    campaign = load_campaign(path)
    assert [(t.name, t.value, t.max) for t in campaign.character("berthe").tracks] == [("Hits", 1, 2)]
    _, out, _ = run(capsys, "recap", str(path), "--json")
    assert json.loads(out)["changes"]["Berthe"] == ["Hits 0 → 1/2"]    # net of the hit healed


def test_mir_adds_blessures_bound_to_the_sheet(capsys, copy_sample) -> None:
    path = copy_sample("mir")                     # Callia: one wound on her sheet
    run(capsys, "track", str(path), "callia", "--add", "--max", "4")
    status, out, _ = run(capsys, "track", str(path), "callia", "+2", "--track", "blessures")
    assert status == 0 and out == "Callia · Blessures 3/4\n"
    callia = load_campaign(path).character("callia")
    assert callia.sheet["state"]["blessures"] == 3
    _, out, _ = run(capsys, "recap", str(path), "--json")
    assert json.loads(out)["changes"]["Callia"] == ["Blessures 1 → 3"]     # said once, by the sheet


def test_each_mistake_is_one_line(capsys, copy_sample) -> None:
    path = copy_sample("eclats")
    assert_one_line_error(*run(capsys, "track", str(path), "nobody", "+1"), "gmscreen track", "'nobody'")
    assert_one_line_error(*run(capsys, "track", str(path), "berthe", "many"), "'many'", "+N or -N")
    assert_one_line_error(*run(capsys, "track", str(path), "berthe", "+1"), "Berthe has no track")
    run(capsys, "track", str(path), "berthe", "--add", "Coups", "--max", "1")
    assert_one_line_error(*run(capsys, "track", str(path), "berthe", "+2"), "already at the maximum (1)")
    assert_one_line_error(*run(capsys, "track", str(path), "berthe", "--add", "coups"), "already has a track")
    assert_one_line_error(*run(capsys, "track", str(path), "berthe", "+1", "--track", "x"), "no track 'x'")
