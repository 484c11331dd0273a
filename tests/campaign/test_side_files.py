"""Side files are never written through a link, and a save writes only the file opened.

A shared campaign folder (git, a zip) can carry `camp.toml.lock -> ../../.bashrc`, or swap the
campaign itself for a link while it is open. Each case here uses a real link in `tmp_path`
pointing at a sentinel file, and checks that the sentinel's bytes never change; a campaign
file the GM cannot write opens read-only and is never replaced.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from _store_helpers import mir_campaign, mir_result
from gmscreen.campaign import open_session
from gmscreen.campaign.changes import Change, set_op
from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.history import history_path
from gmscreen.campaign.journal import journal_path
from gmscreen.campaign.lock import lock_path
from gmscreen.campaign.pending import PendingRoll, new_pending_id, pending_path
from gmscreen.campaign.rolllog import rolls_path
from gmscreen.campaign.session import ReadOnlyError
from gmscreen.campaign.sidefile import SideFileRefused, open_side
from gmscreen.campaign.store import load_campaign, save_campaign, write_atomic

pytestmark = pytest.mark.usefixtures("english")

SENTINEL = b"# the GM's own file, outside the campaign folder\nexport KEEP=1\n"
SIDES = {"lock": lock_path, "journal": journal_path, "rolls": rolls_path, "history": history_path,
         "pending": pending_path}


@pytest.fixture
def camp(tmp_path: Path) -> Path:
    folder = tmp_path / "shared" / "campaign"
    folder.mkdir(parents=True)
    path = folder / "camp.toml"
    save_campaign(mir_campaign(3), path)
    return path


@pytest.fixture
def sentinel(tmp_path: Path) -> Path:
    path = tmp_path / "bashrc"
    path.write_bytes(SENTINEL)
    return path


def link(at: Path, target: Path) -> Path:
    at.unlink(missing_ok=True)
    at.symlink_to(os.path.relpath(target, at.parent))
    return at


def notes(session, text: str) -> None:
    session.apply(Change(text, [set_op(session.campaign, ("notes",), text)]))


def a_pending() -> PendingRoll:
    request, result = mir_result(1)
    return PendingRoll(new_pending_id(), "2026-01-01T20:00:00+00:00", 2, "A", "a", request, result)


def use_every_side_file(session) -> None:
    """Everything that writes a side file, as the screen does it."""
    request, result = mir_result(3)
    for step in (lambda: notes(session, "changed"),
                 lambda: session.record_roll(who="A", line="a", request=request, result=result),
                 lambda: session.write_pending(a_pending()),
                 session.clear_pending, session.save_now):
        try:
            step()
        except (CampaignError, ReadOnlyError):
            pass


@pytest.mark.parametrize("side", list(SIDES))
def test_a_side_file_that_is_a_link_opens_the_campaign_read_only_and_is_never_written(camp, sentinel, side):
    planted = link(SIDES[side](camp), sentinel)
    saved = camp.read_bytes()
    with open_session(camp) as session:
        assert session.read_only
        assert f"{planted.name} is a symbolic link" in session.read_only_reason
        said = [w for w in session.warnings if planted.name in w.message]
        assert len(said) == 1 and "read-only" in said[0].message
        use_every_side_file(session)
    assert sentinel.read_bytes() == SENTINEL
    assert planted.is_symlink() and camp.read_bytes() == saved


@pytest.mark.parametrize("side", ["journal", "rolls", "history", "pending", "lock"])
def test_a_link_put_in_place_of_a_side_file_while_open_is_refused_naming_it(camp, sentinel, side):
    with open_session(camp) as session:
        notes(session, "before")            # the journal exists now
        planted = link(SIDES[side](camp), sentinel)
        request, result = mir_result(2)
        if side == "journal":
            with pytest.raises(CampaignError, match="camp.journal.toml is a symbolic link"):
                notes(session, "after")
        elif side == "rolls":
            with pytest.raises(CampaignError, match="camp.rolls.toml is a symbolic link"):
                session.record_roll(who="A", line="a", request=request, result=result)
        elif side == "pending":
            with pytest.raises(CampaignError, match="camp.pending.toml is a symbolic link"):
                session.write_pending(a_pending())
        elif side == "history":
            session.save_now()
            assert any("camp.history.toml is a symbolic link" in w.message for w in session.warnings)
    assert sentinel.read_bytes() == SENTINEL
    assert planted.is_symlink()


def test_open_side_refuses_a_link_a_dangling_one_and_a_fifo(tmp_path, sentinel):
    dangling = link(tmp_path / "dangling", tmp_path / "nowhere")
    with pytest.raises(SideFileRefused, match="dangling is a symbolic link"):
        open_side(dangling, os.O_RDWR | os.O_CREAT)
    assert not (tmp_path / "nowhere").exists()
    with pytest.raises(SideFileRefused, match="linked is a symbolic link"):
        open_side(link(tmp_path / "linked", sentinel), os.O_RDWR | os.O_APPEND)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(SideFileRefused, match="fifo is not a regular file"):
        open_side(fifo, os.O_RDWR)
    assert sentinel.read_bytes() == SENTINEL


def test_a_side_write_never_replaces_a_link_nor_what_it_points_to(tmp_path, sentinel):
    planted = link(tmp_path / "camp.pending.toml", sentinel)
    with pytest.raises(SideFileRefused):
        write_atomic(planted, b"x = 1\n", backup=False, follow=False)
    assert planted.is_symlink() and sentinel.read_bytes() == SENTINEL
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


# ---------------------------------------------------------------- the campaign file itself


def test_a_campaign_swapped_for_a_link_is_never_saved_through_it(camp, sentinel):
    """Swapped while open with unsaved changes: the GM is asked; `m` keeps the link aside (the
    link itself, not a copy of what it points to) and writes the campaign where it was."""
    with open_session(camp) as session:
        notes(session, "mine")
        link(camp, sentinel)
        session.save_now()                                  # looks first: a conflict, nothing saved
        assert session.disk_conflict is not None and session.disk_conflict.refused
        assert "camp.toml is a symbolic link" in str(session.disk_conflict.problems[0])
        with pytest.raises(CampaignError, match="cannot be taken in"):
            session.resolve_conflict("theirs")              # nothing is read through it either
        side = session.resolve_conflict("mine")
        assert side is not None and side.is_symlink() and side.name.startswith("camp.toml.theirs-")
        assert os.readlink(side) == os.path.relpath(sentinel, camp.parent)
        assert not camp.is_symlink() and load_campaign(camp).notes == "mine"
    assert sentinel.read_bytes() == SENTINEL
    assert load_campaign(camp).notes == "mine"


def test_a_link_swapped_in_with_nothing_unsaved_is_reported_once_and_left_alone(camp, sentinel):
    with open_session(camp) as session:
        link(camp, sentinel)
        event = session.check_disk()
        assert event.kind == "invalid" and "symbolic link" in str(event.problems[0])
        assert session.check_disk() is None                 # said once
    assert camp.is_symlink() and sentinel.read_bytes() == SENTINEL


def test_a_link_put_there_at_the_instant_of_the_save_is_not_written_through(camp, sentinel, monkeypatch):
    from gmscreen.campaign import session as session_module

    with open_session(camp) as session:
        notes(session, "mine")
        real_save = session_module.save_campaign

        def swap_then_save(*args, **kwargs):
            link(camp, sentinel)                            # after the look, before the write
            return real_save(*args, **kwargs)

        monkeypatch.setattr(session_module, "save_campaign", swap_then_save)
        with pytest.raises(CampaignError, match="camp.toml is a symbolic link"):
            session.save_now()
        assert session.dirty and camp.is_symlink()
        monkeypatch.setattr(session_module, "save_campaign", real_save)
        camp.unlink()
    assert sentinel.read_bytes() == SENTINEL


def test_a_campaign_opened_through_a_deliberate_link_keeps_saving_beside_its_file(tmp_path):
    real = tmp_path / "real" / "camp.toml"
    real.parent.mkdir()
    save_campaign(mir_campaign(2), real)
    alias = link(tmp_path / "alias.toml", real)
    with open_session(alias) as session:
        assert not session.read_only and session.files.real == real
        notes(session, "via the alias")
    assert alias.is_symlink() and load_campaign(real).notes == "via the alias"


# ---------------------------------------------------------------- a campaign the GM cannot write


def test_a_read_only_campaign_file_opens_read_only_and_is_never_replaced(camp):
    camp.chmod(0o444)
    saved = camp.read_bytes()
    inode = camp.stat().st_ino
    with open_session(camp) as session:
        assert session.read_only and "camp.toml is read-only" in session.read_only_reason
        with pytest.raises(ReadOnlyError, match="read-only"):
            notes(session, "x")
    assert camp.read_bytes() == saved and camp.stat().st_ino == inode
    assert not lock_path(camp).exists() and not journal_path(camp).exists()


def test_a_campaign_made_read_only_while_open_is_not_replaced_at_the_save(camp):
    with open_session(camp) as session:
        notes(session, "kept in the journal")
        camp.chmod(0o444)
        saved = camp.read_bytes()
        with pytest.raises(CampaignError, match="camp.toml is read-only.*not saved"):
            session.save_now()
        assert camp.read_bytes() == saved and journal_path(camp).exists()
        camp.chmod(0o644)
    assert load_campaign(camp).notes == "kept in the journal"


def test_a_folder_the_gm_cannot_write_opens_read_only(camp, monkeypatch):
    # (these tests may run as root, whom permissions do not stop: the answer is simulated)
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: Path(p) != camp.parent and real_access(p, mode, **kw))
    with open_session(camp) as session:
        assert session.read_only and "the folder of camp.toml cannot be written" in session.read_only_reason
