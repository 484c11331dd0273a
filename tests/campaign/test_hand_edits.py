"""Changes made to the campaign file by someone else while it is open: taken in when nothing
is unsaved, else both kept until the GM chooses; never a byte of either lost."""

from __future__ import annotations

import os
import shutil

import pytest

from gmscreen.campaign import CampaignError, load_campaign, open_session, sample_path
from gmscreen.campaign import outside
from gmscreen.campaign.journal import journal_path
from gmscreen.campaign.session import CampaignSession
from gmscreen.campaign.store import backup_path

# The problems these tests read are checked in their English words (French: tests/campaign/test_french.py).
pytestmark = pytest.mark.usefixtures("english")

HAND = "# ajouté à la main pendant la partie\n"


@pytest.fixture
def camp(tmp_path):
    path = tmp_path / "mir.toml"
    shutil.copyfile(sample_path("mir"), path)
    return path


def hand_edit(path, old: str = "session = 3", new: str = "session = 4") -> bytes:
    """What a GM does in their editor: one value changed, one comment added. Returns the bytes."""
    text = path.read_text("utf-8")
    assert old in text
    data = (HAND + text.replace(old, new, 1)).encode("utf-8")
    path.write_bytes(data)
    return data


def rename_first(s: CampaignSession, name: str = "Alexis le Brave") -> None:
    with s.edit("rename") as b:
        b.set(("characters", 0, "name"), name)


def side_files(folder, pattern: str) -> list:
    return sorted(folder.glob(pattern))


# ---------------------------------------------------------------- nothing unsaved: taken in


def test_a_hand_edit_is_taken_in_when_nothing_is_unsaved(camp):
    with open_session(camp) as s:
        assert s.check_disk() is None                     # nothing changed: nothing to say
        theirs = hand_edit(camp)
        event = s.check_disk()
        assert event is not None and event.kind == "taken"
        assert s.campaign.session == 4 and not s.dirty
        assert camp.read_bytes() == theirs                # taking it in writes nothing
        assert s.check_disk() is None                     # said once
        rename_first(s)
        s.save_now()
    text = camp.read_text("utf-8")
    assert text.startswith(HAND) and "session = 4" in text and 'name = "Alexis le Brave"' in text
    assert load_campaign(camp).session == 4


def test_a_touched_file_with_the_same_bytes_is_no_change_and_is_not_read_again(camp, monkeypatch):
    with open_session(camp) as s:
        os.utime(camp, ns=(1, 1))
        assert s.check_disk() is None
        reads = []
        real = outside.read_bytes
        monkeypatch.setattr(outside, "read_bytes", lambda p: reads.append(p) or real(p))
        assert s.check_disk() is None and reads == []     # stat only, once the new stat is known


def test_a_hand_edit_that_does_not_load_is_reported_once_and_never_written_over(camp):
    with open_session(camp) as s:
        broken = hand_edit(camp, "session = 3", 'session = "trois"')
        event = s.check_disk()
        assert event.kind == "invalid" and any("session" in p.path for p in event.problems)
        assert s.campaign.session == 3                    # ours stays on screen
        assert s.check_disk() is None                     # reported once
        rename_first(s)
        s.save_now()                                      # both changed now: not written
        assert camp.read_bytes() == broken and s.disk_conflict is not None and s.dirty
        with pytest.raises(CampaignError, match="cannot be taken in"):
            s.resolve_conflict("theirs")
        side = s.resolve_conflict("mine")
        assert side.name.startswith("mir.toml.theirs-") and side.read_bytes() == broken
    assert load_campaign(camp).characters[0].name == "Alexis le Brave"


def test_a_deleted_file_is_said_and_written_again_by_the_next_save(camp):
    with open_session(camp) as s:
        camp.unlink()
        assert s.check_disk().kind == "missing"
        assert s.check_disk() is None
        rename_first(s)
        s.save_now()
    assert load_campaign(camp).characters[0].name == "Alexis le Brave"
    assert not backup_path(camp).exists()


# ---------------------------------------------------------------- both changed: the GM chooses


def conflict(camp):
    s = open_session(camp)
    rename_first(s)
    theirs = hand_edit(camp)
    s.save_now()                                          # looks first: does not write over theirs
    assert camp.read_bytes() == theirs
    assert s.disk_conflict is not None and s.dirty
    assert len(s.history) == 1 and journal_path(camp).exists()   # our change is still in the journal
    s.save_now()                                          # and again: still waiting for the GM
    assert camp.read_bytes() == theirs
    return s, theirs


def test_take_theirs_keeps_ours_in_a_side_file(camp):
    s, theirs = conflict(camp)
    side = s.resolve_conflict("theirs")
    assert side.name.startswith("mir.toml.mine-")
    assert load_campaign(side).characters[0].name == "Alexis le Brave"
    assert camp.read_bytes() == theirs
    assert s.campaign.session == 4 and s.campaign.characters[0].name == "Alexis"
    assert s.disk_conflict is None and not s.dirty and not s.can_undo
    s.close()
    assert camp.read_bytes() == theirs and not journal_path(camp).exists()
    assert load_campaign(camp).characters[0].name == "Alexis"       # nothing replayed over theirs


def test_keep_mine_keeps_theirs_in_a_side_file_first(camp):
    s, theirs = conflict(camp)
    side = s.resolve_conflict("mine")
    assert side.name.startswith("mir.toml.theirs-") and side.read_bytes() == theirs
    mine = load_campaign(camp)
    assert mine.characters[0].name == "Alexis le Brave" and mine.session == 3
    text = camp.read_text("utf-8")
    assert not text.startswith(HAND) and "# MIR — exemple de campagne" in text   # our text, our comments
    assert s.disk_conflict is None and not s.dirty
    s.close()


def test_keep_both_side_by_side(camp):
    s, theirs = conflict(camp)
    side = s.resolve_conflict("both")
    assert side.name.startswith("mir.mine-") and side.suffix == ".toml"
    assert load_campaign(side).characters[0].name == "Alexis le Brave"
    assert "# MIR — exemple de campagne" in side.read_text("utf-8")
    assert camp.read_bytes() == theirs and s.campaign.session == 4
    s.close()
    assert camp.read_bytes() == theirs


def test_closing_with_the_question_open_keeps_both(camp):
    s, theirs = conflict(camp)
    s.close()
    (side,) = side_files(camp.parent, "mir.mine-*.toml")
    assert load_campaign(side).characters[0].name == "Alexis le Brave"
    assert camp.read_bytes() == theirs and not journal_path(camp).exists()
    assert any("kept in" in w.message for w in s.warnings)
    with open_session(camp) as again:                     # theirs, with nothing replayed over it
        assert again.campaign.session == 4 and again.campaign.characters[0].name == "Alexis"


def test_a_change_between_the_look_and_the_replace_is_not_written_over(camp, monkeypatch):
    s = open_session(camp)
    rename_first(s)
    real = CampaignSession._outside_before_save
    written = {}

    def edit_right_after_the_look(self):
        stop = real(self)
        if "theirs" not in written:
            written["theirs"] = hand_edit(camp)
        return stop

    monkeypatch.setattr(CampaignSession, "_outside_before_save", edit_right_after_the_look)
    s.save_now()
    assert camp.read_bytes() == written["theirs"] and s.disk_conflict is not None
    s.resolve_conflict("mine")
    s.close()
    assert (camp.parent / "mir.toml.bak").exists()


def test_a_hand_edit_is_never_only_in_the_backup(camp):
    """Before: the first save put the hand edit in `.bak`, the second one lost it."""
    s = open_session(camp)
    rename_first(s)
    theirs = hand_edit(camp)
    for n in range(3):
        with s.edit(f"session {n}") as b:
            b.set(("session",), 10 + n)
        s.save_now()
        if s.disk_conflict is not None:
            s.resolve_conflict("mine")
    s.close()
    kept = [p for p in camp.parent.iterdir() if p.is_file() and p.read_bytes() == theirs]
    assert [p.name for p in kept if p.name.startswith("mir.toml.theirs-")], kept
    assert load_campaign(camp).session == 12


def test_side_file_names_never_overwrite(tmp_path):
    path = tmp_path / "c.toml"
    first = outside.keep_aside(path, b"a = 1\n", "theirs")
    second = outside.keep_aside(path, b"a = 2\n", "theirs")
    assert first != second and first.read_bytes() == b"a = 1\n" and second.read_bytes() == b"a = 2\n"
    assert outside.side_path(path, "mine").name.startswith("c.mine-")
    assert outside.side_path(path, "mine").suffix == ".toml"
