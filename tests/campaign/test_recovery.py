"""What a stop left behind is checked before it is applied (`campaign.recovery`): a journal op
only where its `old` is the value found, the replayed campaign validated, a pending roll only
for this campaign and game with a spending that keeps the campaign valid. What does not fit is
set aside whole with one line, never applied in part."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from _store_helpers import mir_campaign
from gmscreen.campaign import open_session, sample_path
from gmscreen.campaign.changes import Change, Op, delete_op, set_op
from gmscreen.campaign.journal import Journal, JournalEntry, format_entry, journal_path
from gmscreen.campaign.pending import PendingRoll, PendingSpend, new_pending_id, pending_path, write_pending
from gmscreen.campaign.recovery import pending_misfit, replay, same
from gmscreen.campaign.rolllog import RollLog, rolls_path
from gmscreen.campaign.store import load_campaign, save_campaign

pytestmark = pytest.mark.usefixtures("english")


def crash(session) -> None:
    """What the kernel does when the process dies: files closed, lock released, nothing saved."""
    session._journal.close()
    if session._rolls is not None:
        session._rolls.close()
    session._lock_file.release()
    session._closed = True


def write_journal(path: Path, *entries: JournalEntry) -> None:
    journal_path(path).write_text("format = 1\n" + "".join(format_entry(e) for e in entries), "utf-8")


@pytest.fixture
def camp(tmp_path: Path) -> Path:
    """The MIR sample: Alexis, Loriane, Callia, a guard and a jailer."""
    path = tmp_path / "camp.toml"
    shutil.copyfile(sample_path("mir"), path)
    return path


def test_same_tells_booleans_from_numbers_and_compares_deeply():
    assert same({"a": [1, 2.0, "x"]}, {"a": [1.0, 2, "x"]})
    assert not same(True, 1) and not same(0, False) and not same("1", 1)
    assert not same({"a": 1}, {"a": 1, "b": 2}) and not same([1], (1,)) and same(None, None)


# ---------------------------------------------------------------- the journal


def test_a_journal_from_another_campaign_is_set_aside_and_nothing_of_it_applied(camp, tmp_path):
    """Its ops rename one character and delete another: on this campaign their `old` values are
    not what the file holds, so none applies; quitting writes nothing of it."""
    other = tmp_path / "other.toml"
    base = mir_campaign(5)
    save_campaign(base, other)
    s = open_session(other)
    with s.edit("Renommer") as b:
        b.set(("characters", 0, "name"), "Quelqu'un d'autre")
    s.apply(Change("Retirer", [delete_op(s.campaign, ("characters",), 4)]))    # not in the fight
    crash(s)
    shutil.copyfile(journal_path(other), journal_path(camp))
    saved = camp.read_bytes()
    with open_session(camp) as session:
        assert not session.read_only and session.campaign == load_campaign(camp)
        assert [c.name for c in session.campaign.characters][:1] == ["Alexis"] and len(
            session.campaign.characters) == 5
        said = [w for w in session.warnings if "journal" in w.file]
        assert len(said) == 1, said
        assert "characters[0].name: the journal expects 'Personnage 0', the campaign holds 'Alexis'" in \
            said[0].message
        assert "set aside as camp.journal.toml.damaged" in said[0].message
    assert camp.read_bytes() == saved                          # quitting saved nothing of it
    assert (tmp_path / "camp.journal.toml.damaged").read_bytes() == journal_path(other).read_bytes()


WRONG_TYPED = {
    "a session that is a word": Op("set", ("session",), old=3, new="trois"),
    "a name that is a table": Op("set", ("characters", 0, "name"), old="Alexis", new={"x": 1}),
    "an empty path": Op("set", (), old=None, new=1),
    "a character that is a number": Op("insert", ("characters",), index=0, new=5),
    "a list that is not one": Op("insert", ("notes",), index=0, new="x"),
    "a side no game knows": Op("set", ("characters", 1, "side"), old="party", new="dragon"),
}


@pytest.mark.parametrize("op", list(WRONG_TYPED.values()), ids=list(WRONG_TYPED))
def test_a_wrong_typed_op_is_never_applied_and_the_campaign_still_opens(camp, op):
    write_journal(camp, JournalEntry(1, "do", "piégé", [op], "t"))
    saved = camp.read_bytes()
    with open_session(camp) as session:
        assert session.campaign == load_campaign(camp) and type(session.campaign.session) is int
        said = [w for w in session.warnings if "journal" in w.file]
        assert len(said) == 1 and "none of its changes is applied" in said[0].message
    assert camp.read_bytes() == saved
    with open_session(camp) as again:                          # the campaign still opens, journal gone
        assert again.warnings == [] and again.campaign == load_campaign(camp)


def test_replay_is_all_or_nothing_and_validates_the_result():
    state = mir_campaign(3)
    fine = JournalEntry(1, "do", "notes", [set_op(state, ("notes",), "bonnes notes")], "t")
    spoiled = JournalEntry(2, "do", "session", [Op("set", ("session",), old=2, new=0)], "t")
    before = mir_campaign(3)
    undo, redo, applied, problems = replay(state, [fine, spoiled])
    assert (undo, redo, applied) == ([], [], []) and state == before
    assert len(problems) == 1 and "would make the campaign invalid: session" in problems[0].message
    undo, _redo, applied, problems = replay(state, [fine])
    assert problems == [] and state.notes == "bonnes notes" and state.revision == 1 and len(undo) == 1


def test_a_read_only_session_shows_the_saved_state_and_leaves_the_journal_alone(camp):
    write_journal(camp, JournalEntry(1, "do", "piégé", [WRONG_TYPED["a session that is a word"]], "t"))
    kept = journal_path(camp).read_bytes()
    with open_session(camp, read_only=True) as session:
        assert session.campaign == load_campaign(camp)
        assert any("none of its changes is shown" in w.message for w in session.warnings)
    assert journal_path(camp).read_bytes() == kept


def test_a_journal_damaged_before_its_last_entry_is_applied_not_at_all(camp):
    alexis = load_campaign(camp)
    first = JournalEntry(1, "do", "notes", [set_op(alexis, ("notes",), "un")], "t")
    text = "format = 1\n" + format_entry(first) + "\n[[change]]\nrevision = 2\nlabel = 3\n" + format_entry(
        replace(first, revision=3))
    journal_path(camp).write_text(text, "utf-8")
    assert Journal.load(journal_path(camp)).damaged
    with open_session(camp) as session:
        assert session.campaign.notes == alexis.notes            # not even the good first entry
        assert any("an entry before the last one is damaged" in w.message for w in session.warnings)


# ---------------------------------------------------------------- the pending roll


@pytest.fixture
def magi(tmp_path: Path) -> Path:
    path = tmp_path / "magi.toml"
    shutil.copyfile(sample_path("magisphere"), path)
    return path


IMPULSION = ("characters", 0, "sheet", "resources", "impulsion")      # Shady: 2 in the sample


def a_roll(**changes) -> PendingRoll:
    fields = dict(id=new_pending_id(), time="2026-12-01T21:00:00+00:00", session=2, who="Shady",
                  line="shady négociation 25", request={"system": "magisphere", "kind": "simple", "dice": [3, 17]},
                  result={"system": "magisphere", "kind": "simple", "natural": 17, "outcome": "success"},
                  spends=(PendingSpend(IMPULSION, 1, "Impulsion −1 → Shady"),), campaign="magi.toml",
                  game="magisphere")
    fields.update(changes)
    return PendingRoll(**fields)


MISFITS = {
    "another campaign": (dict(campaign="autre.toml"), "it names the campaign 'autre.toml', not 'magi.toml'"),
    "another game": (dict(game="mir"), "it is a roll of 'mir', the campaign plays 'magisphere'"),
    "a request of another game": (dict(request={"system": "eclats", "kind": "simple"}), "a roll of 'eclats'"),
    "a session to come": (dict(session=9), "session 9: the campaign has had sessions 1 to"),
    "a word for a number": (dict(spends=(PendingSpend(IMPULSION, "trois", "x"),)),
                            "impulsion: expected Impulsion: an integer from 0 to 99, got a string 'trois'"),
    "a value out of range": (dict(spends=(PendingSpend(IMPULSION, -4, "x"),)), "from 0 to 99, got -4"),
    "a path to nobody": (dict(spends=(PendingSpend(("characters", 42, "name"), "x", "x"),)),
                         "its spending does not apply"),
}


@pytest.mark.parametrize("changes, words", list(MISFITS.values()), ids=list(MISFITS))
def test_a_pending_roll_that_does_not_fit_is_set_aside_unlogged_and_unspent(magi, changes, words):
    roll = a_roll(**changes)
    write_pending(pending_path(magi), roll)
    saved = magi.read_bytes()
    count = len(RollLog.load(rolls_path(magi)).records)
    with open_session(magi) as session:
        assert session.recover_pending() is None
        said = [w for w in session.warnings if "pending" in w.file]
        assert len(said) == 1 and words in said[0].message, said
        assert "does not fit this campaign" in said[0].message and "magi.pending.toml.damaged" in said[0].message
        assert not session.dirty
    assert magi.read_bytes() == saved and load_campaign(magi).characters[0].sheet["resources"]["impulsion"] == 2
    assert len(RollLog.load(rolls_path(magi)).records) == count
    assert not pending_path(magi).exists() and (magi.parent / "magi.pending.toml.damaged").exists()


def test_a_pending_file_names_its_campaign_and_game_and_one_that_does_not_is_set_aside(magi):
    text = pending_path(magi)
    with open_session(magi) as session:
        session.write_pending(a_roll(campaign="", game=""))
        written = text.read_text("utf-8")
        assert 'campaign = "magi.toml"' in written and 'game = "magisphere"' in written
        session.clear_pending()
    text.write_text(written.replace('campaign = "magi.toml"\n', ""), "utf-8")      # as an older file would be
    with open_session(magi) as session:
        assert session.recover_pending() is None
        said = [w for w in session.warnings if "pending" in w.file]
        assert len(said) == 1 and said[0].path == "campaign", said
        assert "expected the campaign's file name, got nothing" in said[0].message


def test_a_fitting_pending_roll_is_logged_and_spent_as_before(magi):
    write_pending(pending_path(magi), a_roll())
    with open_session(magi) as session:
        record = session.recover_pending()
        assert record is not None and session.campaign.characters[0].sheet["resources"]["impulsion"] == 1


def test_pending_misfit_reads_the_campaign_without_changing_it():
    campaign, before = mir_campaign(2), mir_campaign(2)
    roll = a_roll(campaign="c.toml", game="mir", request={"system": "mir"}, result={"system": "mir"},
                  spends=(PendingSpend(("characters", 0, "name"), "Autre", "x"),))
    assert pending_misfit(roll, campaign, "c.toml", "c.toml") is None
    assert campaign == before
