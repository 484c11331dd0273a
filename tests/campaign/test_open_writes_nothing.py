"""Opening a campaign and closing it without a change writes nothing: every file keeps its
bytes and its mtime, and no file is left behind (journal, `.bak`, lock). A campaign that fails
to load leaves nothing behind either."""

from __future__ import annotations

import os
import shutil

import pytest

from gmscreen.campaign import CampaignError, CampaignLocked, open_session, sample_path
from gmscreen.campaign import lock as lock_module
from gmscreen.campaign.lock import CampaignLock, lock_path
from gmscreen.campaign.rolllog import RollLog, rolls_path

from _store_helpers import mir_result

# The problems these tests read are checked in their English words (French: tests/campaign/test_french.py).
pytestmark = pytest.mark.usefixtures("english")


def state(folder) -> dict[str, tuple[bytes, int]]:
    """Every file of the folder: its bytes and mtime (ns)."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


@pytest.fixture
def camp_with_torn_log(tmp_path):
    """A campaign whose roll log ends with an entry torn by a crash."""
    path = tmp_path / "camp.toml"
    shutil.copyfile(sample_path("mir"), path)
    with open_session(path) as s:
        for seed in range(3):
            request, result = mir_result(seed)
            s.record_roll(who="Alexis", line="alexis tir sd2", request=request, result=result)
    log = rolls_path(path)
    with open(log, "ab") as fh:
        fh.write(b'\n[[roll]]\nseq = 4\ntime = "2025-01-01T')
    os.utime(path, ns=(10**18, 10**18))             # mtimes a write would change
    os.utime(log, ns=(10**18, 10**18))
    return path


@pytest.mark.parametrize("defer_rolls", [False, True])
def test_open_and_close_without_a_change_writes_nothing(camp_with_torn_log, defer_rolls):
    folder = camp_with_torn_log.parent
    before = state(folder)
    s = open_session(camp_with_torn_log, defer_rolls=defer_rolls)
    assert not s.read_only
    assert sorted(p.name for p in folder.iterdir()) == sorted(before) + ["camp.toml.lock"]
    s.load_rolls()
    assert len(s.rolls) == 3 and any("incomplete" in w.message for w in s.warnings)
    assert s.check_disk() is None
    s.save_now()
    s.close()
    assert state(folder) == before


def test_the_torn_tail_is_cut_by_the_next_roll(camp_with_torn_log):
    log = rolls_path(camp_with_torn_log)
    torn = log.read_bytes()
    with open_session(camp_with_torn_log) as s:
        assert log.read_bytes() == torn
        request, result = mir_result(9)
        rec = s.record_roll(who="Loriane", line="loriane eloquence sd3", request=request, result=result)
    assert rec.seq == 4
    loaded = RollLog.load(log)
    assert loaded.warnings == [] and [r.seq for r in loaded.records] == [1, 2, 3, 4]


def test_a_read_only_opening_writes_nothing(camp_with_torn_log):
    folder = camp_with_torn_log.parent
    with open_session(camp_with_torn_log) as holder:
        during = state(folder)
        other = open_session(camp_with_torn_log)
        assert other.read_only and other.check_disk() is None
        other.close()
        assert state(folder) == during
        assert holder.lock_holder is None


@pytest.mark.parametrize("text", [
    'format = 1\nname = "x"\nsystem = "mir"\nsession = "trois"\n',
    'format = 1\nname = "x"\n',
    "format = [[[[\n",
    'format = 99\nname = "x"\nsystem = "mir"\n',
])
def test_a_campaign_that_fails_to_load_leaves_no_file(tmp_path, text):
    path = tmp_path / "bad.toml"
    path.write_text(text, "utf-8")
    before = state(tmp_path)
    with pytest.raises(CampaignError):
        open_session(path)
    assert state(tmp_path) == before


def test_the_lock_file_goes_with_the_last_holder(tmp_path):
    path = tmp_path / "camp.toml"
    shutil.copyfile(sample_path("mir"), path)
    first = CampaignLock(path)
    first.acquire()
    assert lock_path(path).read_text().startswith(f"{os.getpid()}@")
    with pytest.raises(CampaignLocked):
        CampaignLock(path).acquire()
    first.release()
    assert not lock_path(path).exists()


def test_a_lock_taken_on_a_file_just_deleted_is_taken_again_on_the_new_one(tmp_path, monkeypatch):
    """B opens the lock file, A lets go (deleting it), B locks the deleted file: B must notice,
    or B and a later C would both hold "the" lock."""
    path = tmp_path / "camp.toml"
    shutil.copyfile(sample_path("mir"), path)
    a = CampaignLock(path)
    a.acquire()
    real_open = os.open
    opened = []

    def open_then_a_lets_go(file, flags, mode=0o777):
        fd = real_open(file, flags, mode)
        if not opened:
            opened.append(fd)
            a.release()                     # between B's open and B's flock
        return fd

    monkeypatch.setattr(lock_module.os, "open", open_then_a_lets_go)
    b = CampaignLock(path)
    b.acquire()
    monkeypatch.undo()
    assert b.held and lock_path(path).exists()
    with pytest.raises(CampaignLocked):
        CampaignLock(path).acquire()        # C: the lock B holds is the one the path names
    b.release()
    assert not lock_path(path).exists()
