"""Every reader of a campaign with a journal that does not fit — `validate`, `export`, `recap`,
the player view — shows the campaign as last saved, says why in one line, and never tracebacks;
`gmscreen line` settles a roll a killed screen left waiting, as the screen does on opening."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gmscreen.campaign import load_campaign, sample_path
from gmscreen.campaign.changes import Op
from gmscreen.campaign.journal import JournalEntry, format_entry, journal_path
from gmscreen.campaign.pending import PendingRoll, PendingSpend, new_pending_id, pending_path, write_pending
from gmscreen.campaign.rolllog import RollLog, rolls_path
from gmscreen.play.player_view import CampaignWatch, load_played

from _cli_helpers import cli_english, run  # noqa: F401 (fixture)

SPOILERS = {
    "from another campaign": Op("set", ("characters", 0, "name"), old="Personnage 0", new="Quelqu'un"),
    "a wrong type": Op("set", ("session",), old=3, new="trois"),
    "a character that is a number": Op("insert", ("characters",), index=0, new=5),
}


@pytest.fixture
def camp(tmp_path: Path) -> Path:
    path = tmp_path / "camp.toml"
    shutil.copyfile(sample_path("mir"), path)
    return path


@pytest.fixture(params=list(SPOILERS.values()), ids=list(SPOILERS))
def spoiled(request, camp: Path) -> Path:
    journal_path(camp).write_text("format = 1\n" + format_entry(JournalEntry(1, "do", "piégé", [request.param], "t")),
                                  "utf-8")
    return camp


def test_validate_says_the_journal_does_not_fit_and_fails(capsys, spoiled):
    status, out, err = run(capsys, "validate", str(spoiled))
    assert status == 2 and out == "" and "Traceback" not in err
    assert err.count("\n") == 1 and "camp.journal.toml" in err and "none of its changes is applied" in err


def test_export_recap_and_the_player_view_show_the_saved_campaign(capsys, spoiled):
    status, out, err = run(capsys, "export", str(spoiled))
    assert status == 0 and "Traceback" not in err and "none of its changes is applied" in err
    status, out, err = run(capsys, "recap", str(spoiled))
    assert status == 0 and "Traceback" not in err and "Recap of session 3" in out
    saved = load_campaign(spoiled)
    assert load_played(spoiled) == saved
    watch = CampaignWatch(spoiled)
    watch.open()
    assert watch.campaign == saved


# ---------------------------------------------------------------- gmscreen line and a pending roll


def a_pending(**changes) -> PendingRoll:
    fields = dict(id=new_pending_id(), time="2026-12-01T21:00:00+00:00", session=2, who="Shady",
                  line="shady négociation 25", request={"system": "magisphere", "kind": "simple", "dice": [3, 17]},
                  result={"system": "magisphere", "kind": "simple", "natural": 17, "outcome": "success"},
                  spends=(PendingSpend(("characters", 0, "sheet", "resources", "impulsion"), 1, "Impulsion −1"),),
                  campaign="magi.toml", game="magisphere")
    fields.update(changes)
    return PendingRoll(**fields)


@pytest.fixture
def magi(tmp_path: Path) -> Path:
    path = tmp_path / "magi.toml"
    shutil.copyfile(sample_path("magisphere"), path)
    return path


def test_line_settles_a_roll_left_waiting_before_its_own(capsys, magi):
    shown = a_pending()
    write_pending(pending_path(magi), shown)
    status, out, err = run(capsys, "line", str(magi), "1d20 12", "--seed", "1")
    assert status == 0, err
    assert "roll shown before the stop, logged as it stood: Shady · shady négociation 25" in err
    records = RollLog.load(rolls_path(magi)).records
    assert [r.pending for r in records[-2:]] == [shown.id, None]           # the table's dice, then the new roll
    assert records[-2].result == shown.result and not pending_path(magi).exists()
    assert load_campaign(magi).characters[0].sheet["resources"]["impulsion"] == 1


def test_line_sets_aside_a_pending_roll_of_another_campaign(capsys, magi):
    write_pending(pending_path(magi), a_pending(campaign="other.toml"))
    count = len(RollLog.load(rolls_path(magi)).records)
    status, out, err = run(capsys, "line", str(magi), "1d20 12", "--seed", "1")
    assert status == 0 and "does not fit this campaign" in err and "magi.pending.toml.damaged" in err
    assert len(RollLog.load(rolls_path(magi)).records) == count + 1
    assert load_campaign(magi).characters[0].sheet["resources"]["impulsion"] == 2
