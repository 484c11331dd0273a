"""CampaignSession: changes, undo/redo many steps deep, crash replay, lock, saving."""

from __future__ import annotations

import copy
import os
import signal
import socket
import threading

import pytest

from _store_helpers import mir_campaign, mir_result, snapshot
from gmscreen.campaign import (
    CampaignError,
    CampaignLocked,
    Change,
    ChangeError,
    Condition,
    ReadOnlyError,
    load_campaign,
    open_session,
    save_campaign,
    set_op,
)
from gmscreen.campaign.journal import Journal, journal_path
from gmscreen.campaign.rolllog import RollLog, rolls_path

# The problems these tests read are checked in their English words (French: tests/campaign/test_french.py).
pytestmark = pytest.mark.usefixtures("english")

PEUR = ("characters", 0, "sheet", "voies", "peur")


def crash(session) -> None:
    """What the kernel does when the process dies: files closed, lock released, nothing saved."""
    session._journal.close()
    session._rolls.close()
    session._lock_file.release()
    session._closed = True


@pytest.fixture
def camp(tmp_path):
    path = tmp_path / "camp.toml"
    save_campaign(mir_campaign(4), path)
    return path


def crashed_after_two_notes(camp):
    """Notes set to "un" then "deux", journaled and never saved (a crash); the journal's path."""
    s = open_session(camp)
    s.apply(Change("un", [set_op(s.campaign, ("notes",), "un")]))
    s.apply(Change("deux", [set_op(s.campaign, ("notes",), "deux")]))
    crash(s)
    return journal_path(camp)


def test_open_apply_close(camp):
    with open_session(camp) as s:
        assert not s.read_only and s.lock_holder is None and s.system.id == "mir"
        assert not s.dirty and s.last_label is None and not s.can_undo
        s.apply(Change("Peur 6", [set_op(s.campaign, PEUR, 6)]))
        assert s.dirty and s.campaign.revision == 1 and s.last_label == "Peur 6" and s.can_undo
        assert journal_path(camp).exists()
    saved = load_campaign(camp)
    assert saved.characters[0].sheet["voies"]["peur"] == 6 and saved.revision == 1
    assert not journal_path(camp).exists()          # emptied and removed on a clean close


def test_edit_applies_ops_at_once_and_commits_one_change(camp):
    with open_session(camp) as s:
        with s.edit("Sonné et blessé") as b:
            b.insert(("characters", 1, "conditions"), None, Condition("Sonné", "−1 dé", 2))
            assert b.get(("characters", 1, "conditions", 0, "name")) == "Sonné"     # later ops see earlier ones
            b.set(("characters", 1, "conditions", 0, "rounds"), 1)
            b.set(("characters", 1, "sheet", "skills", "Négociation"), 3)
        assert s.campaign.revision == 1 and s.last_label == "Sonné et blessé"
        assert s.campaign.characters[1].conditions == [Condition("Sonné", "−1 dé", 1)]
        s.undo()
        assert s.campaign.characters[1].conditions == [] and "Négociation" not in s.campaign.characters[1].sheet["skills"]
        with s.edit("rien"):
            pass
        assert s.campaign.revision == 2 and s.last_label is None      # an empty edit commits nothing


def test_an_exception_inside_edit_rolls_back(camp):
    with open_session(camp) as s:
        before = copy.deepcopy(s.campaign)
        with pytest.raises(RuntimeError, match="boom"):
            with s.edit("raté") as b:
                b.set(("notes",), "changé")
                b.move(("characters",), 0, 3)
                raise RuntimeError("boom")
        assert s.campaign == before and not s.can_undo and not s.dirty
        with pytest.raises(ChangeError):
            with s.edit("chemin faux") as b:
                b.set(("notes",), "changé")
                b.delete(("timers",), 4)
        assert s.campaign == before and Journal.load(journal_path(camp)).entries == []


def test_a_change_that_does_not_fit_is_refused_whole(camp):
    with open_session(camp) as s:
        before = copy.deepcopy(s.campaign)
        bad = Change("moitié", [set_op(s.campaign, ("notes",), "x"), set_op(s.campaign, ("session",), 9)])
        bad.ops.append(bad.ops[0].__class__("delete", ("timers",), index=3))
        with pytest.raises(ChangeError):
            s.apply(bad)
        assert s.campaign == before and s.campaign.revision == 0 and not s.dirty


def _deep_history(s, steps: int) -> list:
    states = [copy.deepcopy(s.campaign)]
    for i in range(steps):
        if i % 3 == 0:
            s.apply(Change(f"peur {i}", [set_op(s.campaign, PEUR, 1 + i % 6)]))
        elif i % 3 == 1:
            with s.edit(f"état {i}") as b:
                b.insert(("characters", i % 4, "conditions"), 0, Condition(f"c{i}", "", i % 5 or None))
        else:
            with s.edit(f"ordre {i}") as b:
                b.move(("characters",), 0, 3)
                b.set(("notes",), f"notes {i}\nligne")
        states.append(copy.deepcopy(s.campaign))
    return states


def _same(a, b) -> bool:
    a, b = copy.deepcopy(a), copy.deepcopy(b)
    a.revision = b.revision = 0
    return a == b


def test_undo_and_redo_many_steps_deep(camp):
    with open_session(camp, autosave_every=25) as s:       # full saves happen along the way
        states = _deep_history(s, 120)
        for k in range(120, 0, -1):
            assert s.last_label is not None
            undone = s.undo()
            assert undone is not None and _same(s.campaign, states[k - 1]), k
        assert s.undo() is None and not s.can_undo and s.can_redo
        for k in range(1, 121):
            assert s.redo() is not None and _same(s.campaign, states[k]), k
        assert s.redo() is None
        assert s.campaign.revision == 360              # every apply, undo and redo is a revision
        # A new change after some undos clears the redo stack.
        s.undo()
        s.undo()
        s.apply(Change("nouveau", [set_op(s.campaign, ("session",), 7)]))
        assert not s.can_redo and s.last_label == "nouveau"
    assert _same(load_campaign(camp), s.campaign)


def test_replay_after_a_crash_restores_state_and_undo_history(camp):
    s = open_session(camp)
    states = _deep_history(s, 30)
    s.undo()
    s.undo()
    s.redo()
    expected = copy.deepcopy(s.campaign)
    crash(s)
    assert load_campaign(camp).revision == 0          # never saved...
    r = open_session(camp)
    assert r.campaign == expected and r.dirty          # ...yet nothing lost
    assert len(r.history) == 33
    assert r.last_label == s.last_label == "état 28"
    assert r.redo_label == s.redo_label == "ordre 29"
    r.redo()
    assert _same(r.campaign, states[30])
    for k in range(30, 0, -1):
        r.undo()
        assert _same(r.campaign, states[k - 1]), k
    r.close()
    assert _same(load_campaign(camp), states[0])


def test_crash_between_save_and_journal_truncation_replays_nothing_twice(camp, monkeypatch):
    s = open_session(camp)
    with s.edit("ajout") as b:
        b.insert(("characters", 0, "conditions"), None, Condition("Une fois", "", None))
    expected = copy.deepcopy(s.campaign)
    monkeypatch.setattr(s._journal, "truncate", lambda: (_ for _ in ()).throw(OSError(5, "I/O error")))
    s.save_now()                                       # state saved, journal not emptied
    assert any("journal could not be emptied" in w.message for w in s.warnings)
    assert len(Journal.load(journal_path(camp)).entries) == 1
    crash(s)
    r = open_session(camp)
    assert r.campaign == expected and not r.dirty      # the entry is at the saved revision: skipped
    assert [c.name for c in r.campaign.characters[0].conditions].count("Une fois") == 1
    r.close()


def test_a_torn_journal_entry_is_ignored_and_reported(camp):
    jp = crashed_after_two_notes(camp)
    data = jp.read_bytes()
    jp.write_bytes(data[:-12])
    r = open_session(camp)
    assert r.campaign.notes == "un" and not r.read_only
    assert any("incomplete" in w.message for w in r.warnings)
    r.apply(Change("trois", [set_op(r.campaign, ("notes",), "trois")]))
    crash(r)
    again = open_session(camp)
    assert again.campaign.notes == "trois" and again.campaign.revision == 2
    assert not any("incomplete" in w.message for w in again.warnings)
    again.close()


def test_a_journal_that_does_not_follow_is_set_aside_whole_and_the_campaign_opens_as_saved(camp):
    jp = crashed_after_two_notes(camp)
    jp.write_text(jp.read_text("utf-8").replace("revision = 2", "revision = 5"), "utf-8")   # a gap after "un"
    kept = jp.read_bytes()
    saved = camp.read_bytes()
    with open_session(camp) as r:
        assert not r.read_only and r.campaign == load_campaign(camp)     # nothing of it, not even "un"
        said = [w for w in r.warnings if "journal" in w.file]
        assert len(said) == 1 and "does not follow" in said[0].message and "camp.journal.toml.damaged" in \
            said[0].message
        assert camp.read_bytes() == saved and not r.dirty
        r.apply(Change("x", [set_op(r.campaign, ("notes",), "x")]))    # the GM goes on, in a new journal
    assert (camp.parent / "camp.journal.toml.damaged").read_bytes() == kept
    assert load_campaign(camp).notes == "x"


def test_second_opener_is_told_and_gets_read_only(camp):
    first = open_session(camp)
    first.apply(Change("un", [set_op(first.campaign, ("notes",), "un")]))
    second = open_session(camp)
    assert second.read_only
    assert second.lock_holder == f"{os.getpid()}@{socket.gethostname()}"
    assert any("open in another gmscreen" in w.message and second.lock_holder in w.message for w in second.warnings)
    assert second.campaign.notes == "un"               # it sees the journalled state too
    files = snapshot(camp.parent)
    with pytest.raises(ReadOnlyError, match=f"open in another gmscreen: {second.lock_holder}"):
        second.apply(Change("x", [set_op(second.campaign, ("notes",), "x")]))
    with pytest.raises(ReadOnlyError):
        with second.edit("x"):
            pass
    with pytest.raises(ReadOnlyError):
        second.undo()
    request, result = mir_result(1)
    rec = second.record_roll(who="A", line="a", request=request, result=result)
    assert rec.seq == 1 and second.rolls == [rec]      # kept on screen, not written
    second.save_now()
    second.close()
    assert snapshot(camp.parent) == files
    with pytest.raises(CampaignLocked) as err:
        open_session(camp, if_locked="raise")
    assert err.value.holder == second.lock_holder
    first.close()
    third = open_session(camp)
    assert not third.read_only and third.campaign.notes == "un"
    third.close()


def test_read_only_on_request_writes_nothing_at_all(camp):
    before = snapshot(camp.parent)
    with open_session(camp, read_only=True) as s:
        assert s.read_only and s.lock_holder is None
        with pytest.raises(ReadOnlyError, match="asked for"):
            s.apply(Change("x", []))
    assert snapshot(camp.parent) == before


def test_opening_only_creates_the_lock_file(camp):
    with open_session(camp) as s:
        assert sorted(p.name for p in camp.parent.iterdir()) == ["camp.toml", "camp.toml.lock"]
        request, result = mir_result(1)
        s.record_roll(who="A", line="a", request=request, result=result)
        assert rolls_path(camp).exists() and not journal_path(camp).exists()
    with pytest.raises(CampaignError, match="no such file"):
        open_session(camp.parent / "absent.toml")
    with pytest.raises(CampaignError, match="not a regular file"):
        open_session(camp.parent)
    assert not (camp.parent / "absent.toml.lock").exists()


def test_a_failed_load_releases_the_lock(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('format = 1\nname = "x"\n', "utf-8")
    with pytest.raises(CampaignError):
        open_session(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.toml"]      # no lock file left
    path.write_text('format = 1\nname = "x"\nsystem = "mir"\n', "utf-8")
    with open_session(path) as s:
        assert not s.read_only


def test_rolls_are_recorded_numbered_and_revealed(camp):
    with open_session(camp) as s:
        for seed in range(1, 4):
            request, result = mir_result(seed)
            s.record_roll(who="Alexis", line=f"alexis tir sd2 {seed}", request=request, result=result, seed=seed)
        request, result = mir_result(9)
        secret = s.record_roll(who="Exarch", line="garde", request=request, result=result, gm_only=True)
        assert secret.seq == 4 and secret.session == s.campaign.session and not secret.revealed
        s.reveal_roll(4)
        assert s.rolls[-1].revealed
    with open_session(camp) as s:
        assert [r.seq for r in s.rolls] == [1, 2, 3, 4] and s.rolls[3].revealed
        request, result = mir_result(5)
        assert s.record_roll(who="A", line="a", request=request, result=result).seq == 5
    assert len(RollLog.load(rolls_path(camp)).records) == 5


def test_recording_a_roll_does_not_touch_the_state_or_journal(camp):
    with open_session(camp) as s:
        state = camp.read_bytes()
        request, result = mir_result(1)
        s.record_roll(who="A", line="a", request=request, result=result)
        assert not s.dirty and camp.read_bytes() == state
        assert Journal.load(journal_path(camp)).entries == []


def test_save_now_saves_and_empties_the_journal(camp):
    with open_session(camp) as s:
        s.apply(Change("un", [set_op(s.campaign, ("notes",), "un")]))
        s.save_now()
        assert not s.dirty and load_campaign(camp).notes == "un"
        assert Journal.load(journal_path(camp)).entries == []
        mtime = os.stat(camp).st_mtime_ns
        s.save_now()                                    # nothing new: nothing written
        assert os.stat(camp).st_mtime_ns == mtime


def test_autosave_bounds_the_journal(camp):
    with open_session(camp, autosave_every=10) as s:
        for i in range(25):
            s.apply(Change(f"n{i}", [set_op(s.campaign, ("notes",), f"n{i}")]))
        assert len(Journal.load(journal_path(camp)).entries) == 5
        assert load_campaign(camp).revision == 20


def test_save_asked_in_the_middle_of_an_edit_waits_for_its_end(camp):
    """A SIGHUP handler calling save_now while an edit is half done must not save half of it."""
    with open_session(camp) as s:
        saved_during = []

        def handler(signum, frame):
            s.save_now()
            saved_during.append(load_campaign(camp).notes)

        old = signal.signal(signal.SIGUSR1, handler)
        try:
            with s.edit("deux ops") as b:
                b.set(("notes",), "moitié")
                os.kill(os.getpid(), signal.SIGUSR1)
                b.set(("session",), 5)
        finally:
            signal.signal(signal.SIGUSR1, old)
        assert saved_during == [mir_campaign(4).notes]  # nothing saved mid-edit
        assert not s.dirty                              # the deferred save ran at the end
        saved = load_campaign(camp)
        assert saved.notes == "moitié" and saved.session == 5


def test_save_now_from_another_thread_is_safe(camp):
    with open_session(camp) as s:
        stop = threading.Event()
        errors = []

        def saver():
            while not stop.is_set():
                try:
                    s.save_now()
                except Exception as exc:       # collected, asserted below
                    errors.append(exc)

        t = threading.Thread(target=saver)
        t.start()
        try:
            for i in range(150):
                with s.edit(f"e{i}") as b:
                    b.set(("notes",), f"n{i}")
                    b.set(("session",), 1 + i)
        finally:
            stop.set()
            t.join()
        assert errors == []
        s.save_now()
        assert load_campaign(camp) == s.campaign


def test_close_is_idempotent_and_refuses_later_changes(camp):
    s = open_session(camp)
    s.close()
    s.close()
    assert s.closed
    with pytest.raises(ReadOnlyError, match="closed"):
        s.apply(Change("x", []))
    with pytest.raises(ReadOnlyError, match="closed"):
        s.record_roll(who="A", line="a", request={}, result={})


def test_a_symlinked_campaign_stays_a_link_and_shares_one_lock(tmp_path):
    real_dir, link_dir = tmp_path / "real", tmp_path / "links"
    real_dir.mkdir()
    link_dir.mkdir()
    real = real_dir / "camp.toml"
    save_campaign(mir_campaign(2), real)
    link = link_dir / "alias.toml"
    link.symlink_to(real)
    with open_session(link) as s:
        s.apply(Change("notes", [set_op(s.campaign, ("notes",), "via le lien")]))
        request, result = mir_result(1)
        s.record_roll(who="A", line="a", request=request, result=result)
        other = open_session(real)
        assert other.read_only                          # same file, same lock, whatever the name
        other.close()
    assert link.is_symlink() and load_campaign(real).notes == "via le lien"
    assert sorted(p.name for p in link_dir.iterdir()) == ["alias.toml"]
    assert sorted(p.name for p in real_dir.iterdir()) == ["camp.history.toml", "camp.rolls.toml", "camp.toml",
                                                          "camp.toml.bak"]



def test_deferred_roll_log_loads_later_and_on_first_roll(tmp_path):
    """The screen opens big campaigns without their log; the log arrives whole afterwards."""
    import shutil

    from gmscreen.campaign import open_session, sample_path
    from gmscreen.rules import resolve

    path = tmp_path / "mir.toml"
    shutil.copyfile(sample_path("mir"), path)
    request = {"system": "mir", "kind": "simple", "pool": 3, "difficulty": 1}
    with open_session(path) as session:
        for _ in range(3):
            session.record_roll(who="Alexis", line="3d12 sd1", request=request, result=resolve(request, seed=1))

    deferred = open_session(path, defer_rolls=True)
    try:
        assert not deferred.rolls_loaded and deferred.rolls == []
        assert deferred.load_rolls() == []
        assert [r.seq for r in deferred.rolls] == [1, 2, 3]
        assert deferred.load_rolls() == []          # once only
    finally:
        deferred.close()

    lazy = open_session(path, defer_rolls=True)
    try:                    # a roll before the load is appended at once; the log brings it later
        rec = lazy.record_roll(who="Loriane", line="x", request=request, result=resolve(request, seed=2))
        assert rec.seq == 4 and not lazy.rolls_loaded
        lazy.load_rolls()
        assert [r.seq for r in lazy.rolls] == [1, 2, 3, 4] and lazy.rolls[-1].who == "Loriane"
    finally:
        lazy.close()


def test_rolls_made_while_a_thread_reads_the_log_are_kept_once_in_order(tmp_path):
    """The screen reads a long log in a thread; rolls made meanwhile neither wait for it nor
    go missing from it, whenever the reader passes them."""
    import shutil
    import threading

    from gmscreen.campaign import open_session, sample_path
    from gmscreen.campaign.rolllog import append_one, rolls_path
    from gmscreen.rules import resolve

    path = tmp_path / "mir.toml"
    shutil.copyfile(sample_path("mir"), path)
    request = {"system": "mir", "kind": "simple", "pool": 3, "difficulty": 1}
    result = resolve(request, seed=1)
    with pytest.MonkeyPatch.context() as setup:        # the long log only: no need to sync it 2000 times
        setup.setattr(os, "fsync", lambda fd: None)
        for _ in range(2000):
            append_one(rolls_path(path), campaign_name="mir.toml", session=1, who="Alexis", line="3d12 sd1",
                       request=request, result=result)
    for attempt in range(3):           # the reader is caught at different points each time
        session = open_session(path, defer_rolls=True)
        try:
            reader = threading.Thread(target=session.load_rolls)
            reader.start()
            made = [session.record_roll(who="Loriane", line=f"roll {attempt} {i}", request=request,
                                        result=result).seq for i in range(5)]
            reader.join()
            session.record_roll(who="Loriane", line="after", request=request, result=result)
            seqs = [r.seq for r in session.rolls]
            assert seqs == list(range(1, len(seqs) + 1))
            mine = [r.seq for r in session.rolls if r.line.startswith(f"roll {attempt} ")]
            assert mine == made
        finally:
            session.close()


def test_deferred_roll_log_of_a_newer_format_makes_the_session_read_only(tmp_path):
    import shutil

    from gmscreen.campaign import open_session, sample_path

    path = tmp_path / "mir.toml"
    shutil.copyfile(sample_path("mir"), path)
    log = tmp_path / "mir.rolls.toml"
    log.write_text("format = 99\n", encoding="utf-8")
    before = log.read_bytes()
    session = open_session(path, defer_rolls=True)
    try:
        problems = session.load_rolls()
        assert session.read_only and any("newer" in p.message for p in problems)
    finally:
        session.close()
    assert log.read_bytes() == before
