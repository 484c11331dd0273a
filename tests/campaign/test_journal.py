"""The change journal: entries round trip, torn entries, truncation, replay."""

from __future__ import annotations

import copy

import tomllib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _store_helpers import mir_campaign
from gmscreen.campaign import CampaignError, Change, Op, set_op
from gmscreen.campaign.changes import apply_change, delete_op, insert_op
from gmscreen.campaign.journal import Journal, JournalEntry, format_entry, journal_path
from gmscreen.campaign.model import Condition
from gmscreen.campaign.session import replay

# The problems these tests read are checked in their English words (French: tests/campaign/test_french.py).
pytestmark = pytest.mark.usefixtures("english")


def open_journal(path) -> Journal:
    j = Journal.load(path)
    j.open_append()
    return j


def three_entries(tmp_path):
    """A journal file holding three "do" entries (revisions 1 to 3); its path."""
    path = tmp_path / "c.journal.toml"
    j = open_journal(path)
    for i, ch in enumerate(sample_changes(mir_campaign(3))[:3]):
        j.append(i + 1, "do", ch)
    j.close()
    return path


def sample_changes(campaign):
    """Four changes, each recorded on the state the ones before it left, as a session records them."""
    work = copy.deepcopy(campaign)
    makers = [
        lambda c: Change("Blessure → Personnage 0", [set_op(c, ("characters", 0, "sheet", "voies", "peur"), 6)]),
        lambda c: Change("État « Sonné »", [insert_op(c, ("characters", 1, "conditions"), None,
                                                      Condition("Sonné", "", None))]),
        lambda c: Change("Note\nsur deux lignes", [set_op(c, ("notes",), "nouvelles notes\t« ok »"),
                                                   set_op(c, ("characters", 2, "sheet", "skills", "manipulation"), 3)]),
        lambda c: Change("Retirer « Sonné »", [delete_op(c, ("characters", 1, "conditions"), 0)]),
    ]
    changes = []
    for make in makers:
        changes.append(make(work))
        apply_change(work, changes[-1])
    return changes


def test_journal_path():
    assert journal_path("/x/camp.toml").name == "camp.journal.toml"


def test_entries_round_trip_and_read_as_toml(tmp_path):
    path = tmp_path / "c.journal.toml"
    campaign = mir_campaign(3)
    j = open_journal(path)
    written = [j.append(i + 1, action, ch) for i, (action, ch)
               in enumerate(zip(("do", "do", "undo", "redo"), sample_changes(campaign)))]
    j.close()
    loaded = Journal.load(path)
    assert loaded.warnings == [] and not loaded.damaged
    assert loaded.entries == written
    data = tomllib.loads(path.read_text("utf-8"))
    assert [c["revision"] for c in data["change"]] == [1, 2, 3, 4]
    assert data["change"][0]["ops"][0] == {"op": "set", "path": ["characters", 0, "sheet", "voies", "peur"],
                                           "old": campaign.characters[0].sheet["voies"]["peur"], "new": 6}


def test_an_entry_ends_with_its_ops_array(tmp_path):
    campaign = mir_campaign(3)
    j = open_journal(tmp_path / "c.journal.toml")
    entry = j.append(1, "do", sample_changes(campaign)[2])
    j.close()
    text = format_entry(entry)
    assert text.startswith("\n[[change]]\nrevision = 1\naction = \"do\"\n")
    assert text.endswith("\n]\n") and text.count("\n  { op = ") == 2


def test_torn_last_entry_is_ignored_and_reported(tmp_path):
    path = three_entries(tmp_path)
    full = path.read_bytes()
    last_len = len(format_entry(Journal.load(path).entries[-1]).encode())
    for cut in range(1, last_len - 2, 7):
        path.write_bytes(full[: len(full) - last_len + cut])
        loaded = Journal.load(path)
        assert [e.revision for e in loaded.entries] == [1, 2]
        assert loaded.torn == bool(full[len(full) - last_len: len(full) - last_len + cut].strip())
        assert not loaded.damaged
        if loaded.torn:
            assert "incomplete" in loaded.warnings[0].message


def test_damage_before_the_last_entry_marks_the_journal_damaged(tmp_path):
    path = three_entries(tmp_path)
    text = path.read_text("utf-8")
    path.write_text(text.replace('action = "do"', 'action = "maybe"', 1), "utf-8")
    loaded = Journal.load(path)
    assert [e.revision for e in loaded.entries] == [2, 3]
    assert loaded.damaged and "action" in loaded.warnings[0].message


def test_truncate_keeps_the_header_only(tmp_path):
    path = tmp_path / "c.journal.toml"
    j = open_journal(path)
    j.append(1, "do", Change("x", [Op("set", ("notes",), old="", new="a")]))
    j.truncate()
    j.append(2, "do", Change("y", [Op("set", ("notes",), old="a", new="b")]))
    j.close()
    loaded = Journal.load(path)
    assert [e.label for e in loaded.entries] == ["y"]
    assert path.read_text("utf-8").startswith("# gmscreen change journal")


def test_newer_journal_format_is_refused(tmp_path):
    path = tmp_path / "c.journal.toml"
    path.write_text("format = 2\n", "utf-8")
    with pytest.raises(CampaignError, match="newer gmscreen"):
        Journal.load(path)


def test_replay_applies_in_order_and_skips_what_is_saved(tmp_path):
    base = mir_campaign(3)
    target = mir_campaign(3)
    changes = sample_changes(target)
    entries = []
    for i, ch in enumerate(changes):
        apply_change(target, ch)
        target.revision = i + 1
        entries.append(JournalEntry(i + 1, "do", ch.label, ch.ops, "t"))
    # From scratch: all four.
    state = mir_campaign(3)
    undo, redo, applied, problems = replay(state, entries)
    assert problems == [] and state == target and len(undo) == 4 and redo == []
    # Saved at revision 2 (the journal not yet emptied): only 3 and 4 apply.
    state = mir_campaign(3)
    for ch in changes[:2]:
        apply_change(state, ch)
    state.revision = 2
    _, _, applied, problems = replay(state, entries)
    assert [e.revision for e in applied] == [3, 4] and problems == [] and state == target
    # A gap stops the replay, reported.
    state = mir_campaign(3)
    _, _, applied, problems = replay(state, entries[1:])
    assert applied == [] and state == base and "does not follow" in problems[0].message
    # An op that does not fit: nothing of the journal is applied, not even the entries before it.
    state = mir_campaign(3)
    bad = JournalEntry(2, "do", "bad", [Op("set", ("notes",), old=base.notes, new="x"), Op("delete", ("timers",), index=5)])
    _, _, applied, problems = replay(state, entries[:1] + [bad])
    assert applied == [] and state == base
    assert "does not fit the campaign" in problems[0].message and "timers: no item 5" in problems[0].message


def test_replay_rebuilds_undo_and_redo(tmp_path):
    c = mir_campaign(1)
    a = Change("a", [set_op(c, ("notes",), "A")])
    b = Change("b", [Op("set", ("notes",), old="A", new="B")])
    entries = [JournalEntry(1, "do", "a", a.ops), JournalEntry(2, "do", "b", b.ops),
               JournalEntry(3, "undo", "b", b.inverse().ops), JournalEntry(4, "undo", "a", a.inverse().ops),
               JournalEntry(5, "redo", "a", a.ops)]
    state = mir_campaign(1)
    undo, redo, _, problems = replay(state, entries)
    assert problems == [] and state.notes == "A" and state.revision == 5
    assert [u.label for u in undo] == ["a"] and [r.label for r in redo] == ["b"]
    assert redo[0].ops == b.ops


values = st.recursive(
    st.booleans() | st.integers(-1000, 1000) | st.text(max_size=15),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(label=st.text(max_size=30), old=st.none() | values, new=st.none() | values,
       path=st.lists(st.text(max_size=8) | st.integers(0, 50), min_size=1, max_size=5))
def test_any_op_round_trips(tmp_path, label, old, new, path):
    file = tmp_path / "h.journal.toml"
    file.unlink(missing_ok=True)
    j = open_journal(file)
    entry = j.append(1, "do", Change(label, [Op("set", tuple(path), old=old, new=new),
                                             Op("move", tuple(path), index=1, to=0)]))
    j.close()
    loaded = Journal.load(file)
    assert loaded.warnings == [] and loaded.entries == [entry]
