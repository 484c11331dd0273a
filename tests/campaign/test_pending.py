"""The pending roll (`X.pending.toml`): dice shown to the table survive a crash and are logged
once on the next opening, with their spending; damaged or read-only cases never raise."""

from __future__ import annotations

import os
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from gmscreen.campaign import open_session, sample_path
from gmscreen.campaign.pending import (PendingRoll, PendingSpend, new_pending_id, pending_path, read_pending,
                                       write_pending)
from gmscreen.campaign.rolllog import RollLog, rolls_path

# The problems these tests read are checked in their English words (French: tests/campaign/test_french.py).
pytestmark = pytest.mark.usefixtures("english")

IMPULSION = ("characters", 0, "sheet", "resources", "impulsion")      # Shady: 2 in the sample


@pytest.fixture
def camp(tmp_path: Path) -> Path:
    path = tmp_path / "magi.toml"
    shutil.copyfile(sample_path("magisphere"), path)
    return path


def a_roll(**changes) -> PendingRoll:
    fields = dict(id=new_pending_id(), time="2026-12-01T21:00:00+00:00", session=2, who="Shady",
                  line="shady négociation 25", request={"system": "magisphere", "kind": "simple", "dice": [3, 17]},
                  result={"system": "magisphere", "kind": "simple", "natural": 17, "outcome": "success",
                          "impulsions_spent": 1},
                  gm_only=False, seed=None, spends=(PendingSpend(IMPULSION, 1, "Impulsion −1 → Shady"),),
                  campaign="magi.toml", game="magisphere")
    fields.update(changes)
    return PendingRoll(**fields)


def crash(session) -> None:
    """What the kernel does when the process dies: files closed, lock released, nothing else."""
    session._journal.close()
    if session._rolls is not None:
        session._rolls.close()
    session._lock_file.release()
    session._closed = True


def logged(path: Path) -> list:
    return RollLog.load(rolls_path(path)).records


def test_the_file_holds_what_the_roll_would_log(camp: Path) -> None:
    roll = a_roll(gm_only=True, seed=7, who="Sh\x1bady \"q\"", campaign="", game="")
    with open_session(camp) as s:
        s.write_pending(roll)                          # the session names its campaign and game
        assert read_pending(pending_path(camp)) == replace(roll, campaign="magi.toml", game="magisphere")
        s.write_pending(roll)                          # rewritten at each prompt: still one file
    assert sorted(p.name for p in camp.parent.iterdir() if "pending" in p.name) == ["magi.pending.toml"]


@pytest.mark.parametrize("defer", [False, True])
def test_a_crash_with_a_pending_roll_logs_it_once_on_reopen(camp: Path, defer: bool) -> None:
    roll = a_roll()
    before = len(logged(camp))
    s = open_session(camp)
    s.write_pending(roll)
    crash(s)
    with open_session(camp, defer_rolls=defer) as s:
        record = s.recover_pending()
        assert record is not None and record.pending == roll.id
        assert (record.who, record.line, record.request, record.result) == (roll.who, roll.line, roll.request,
                                                                              roll.result)
        assert record.time == roll.time                      # the time the table saw the dice
        assert s.campaign.characters[0].sheet["resources"]["impulsion"] == 1
        assert s.last_label == "Impulsion −1 → Shady"       # one undoable change
        assert not pending_path(camp).exists()
        s.load_rolls()                                       # a deferred log reads it too
        assert [r.pending for r in s.rolls][-1:] == [roll.id]
        s.undo()
        assert s.campaign.characters[0].sheet["resources"]["impulsion"] == 2
    records = logged(camp)
    assert len(records) == before + 1 and records[-1].pending == roll.id
    with open_session(camp) as s:                            # nothing left to recover
        assert s.recover_pending() is None
    assert len(logged(camp)) == before + 1


@pytest.mark.parametrize("spent", [True, False])
@pytest.mark.parametrize("defer", [False, True])
def test_a_crash_between_logging_and_clearing_does_not_log_or_spend_twice(camp: Path, spent: bool,
                                                                           defer: bool) -> None:
    roll = a_roll()
    s = open_session(camp)
    s.write_pending(roll)
    s.record_roll(who=roll.who, line=roll.line, request=roll.request, result=roll.result, pending=roll.id)
    if spent:
        with s.edit("Impulsion −1 → Shady") as b:
            b.set(IMPULSION, 1)
    crash(s)                                   # before clear_pending
    count = len(logged(camp))
    with open_session(camp, defer_rolls=defer) as s:
        assert s.recover_pending() is None
        assert s.campaign.characters[0].sheet["resources"]["impulsion"] == 1    # spent exactly once
        assert not pending_path(camp).exists()
    assert len(logged(camp)) == count


def test_clear_after_logging_leaves_nothing_to_recover(camp: Path) -> None:
    roll = a_roll(spends=())
    with open_session(camp) as s:
        s.write_pending(roll)
        s.record_roll(who=roll.who, line=roll.line, request=roll.request, result=roll.result, pending=roll.id)
        s.clear_pending()
        assert not pending_path(camp).exists()
    count = len(logged(camp))
    with open_session(camp) as s:
        assert s.recover_pending() is None
    assert len(logged(camp)) == count


@pytest.mark.parametrize("text", [
    "format = 1\nid = \"x\"\nwho = [",                                 # torn: not TOML
    "format = 1\nid = \"x\"\ntime = \"t\"\nsession = 2\nwho = 3\nline = \"l\"\nrequest = {}\nresult = {}\n",
    "format = 9\n",                                                     # a newer gmscreen
    "a = " + "[" * 5000 + "]" * 5000 + "\n",                            # nested too deeply
    "\xff\xfe not utf-8",
])
def test_a_damaged_pending_file_is_set_aside_with_one_warning(camp: Path, text: str) -> None:
    file = pending_path(camp)
    file.write_bytes(text.encode("utf-8", "surrogateescape") if text.isascii() else text.encode("latin-1"))
    count = len(logged(camp))
    with open_session(camp) as s:
        assert s.recover_pending() is None
        notes = [p for p in s.warnings if "pending" in p.file]
        assert len(notes) == 1 and notes[0].warning and "magi.pending.toml.damaged" in notes[0].message
    assert not file.exists()
    assert (camp.parent / "magi.pending.toml.damaged").exists()
    assert len(logged(camp)) == count
    file.write_text("still = 'bad'\n")                                 # a second one: kept beside the first
    with open_session(camp) as s:
        s.recover_pending()
    assert (camp.parent / "magi.pending.toml.damaged-2").read_text() == "still = 'bad'\n"


def test_a_huge_pending_file_is_refused_without_being_read_whole(camp: Path) -> None:
    pending_path(camp).write_bytes(b"# " + b"x" * (2 << 20) + b"\n")
    with open_session(camp) as s:
        assert s.recover_pending() is None
        assert any("larger than" in p.message for p in s.warnings)


def test_read_only_sessions_never_write_or_recover_it(camp: Path) -> None:
    roll = a_roll()
    with open_session(camp, read_only=True) as s:
        s.write_pending(roll)
        assert not pending_path(camp).exists()
    write_pending(pending_path(camp), roll)
    before = pending_path(camp).read_bytes()
    with open_session(camp) as owner:                      # the campaign is open elsewhere
        with open_session(camp) as second:
            assert second.read_only
            assert second.recover_pending() is None
            second.clear_pending()
        assert pending_path(camp).read_bytes() == before
        assert owner.recover_pending() is not None


def test_a_killed_pending_write_leaves_no_temporary_file_behind(camp: Path) -> None:
    stale = camp.parent / f".magi.pending.toml.{os.getpid()}.0badf00d.tmp"
    stale.write_text("half")
    with open_session(camp) as s:
        assert s.recover_pending() is None
    assert not stale.exists()


def test_a_spend_that_no_longer_applies_sets_the_roll_aside_unlogged(camp: Path) -> None:
    roll = a_roll(spends=(PendingSpend(("characters", 42, "sheet", "resources", "impulsion"), 0, "Impulsion"),))
    write_pending(pending_path(camp), roll)
    count = len(logged(camp))
    with open_session(camp) as s:
        assert s.recover_pending() is None
        said = [p for p in s.warnings if "pending" in p.file]
        assert len(said) == 1 and "its spending does not apply" in said[0].message
    assert len(logged(camp)) == count and (camp.parent / "magi.pending.toml.damaged").exists()


def test_old_logs_without_a_pending_id_read_as_before(camp: Path) -> None:
    rolls_path(camp).write_text('format = 1\n\n[[roll]]\nseq = 1\ntime = "t"\nsession = 1\nwho = "A"\nline = "l"\n'
                                'request = { system = "magisphere" }\nresult = { outcome = "success" }\n')
    records = logged(camp)
    assert len(records) == 1 and records[0].pending is None
    with open_session(camp) as s:
        s.record_roll(who="B", line="l", request={}, result={}, pending="abc")
    assert [r.pending for r in logged(camp)] == [None, "abc"]
