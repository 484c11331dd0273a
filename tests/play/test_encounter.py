"""The encounter on the play core alone: turns, ticks and the deferred sort on a real campaign
on disk, saved and opened again by a new session (a restart), with no screen at all."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gmscreen.campaign import load_campaign, open_session, sample_path
from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.model import Condition, TurnTicks
from gmscreen.campaign.session import CampaignSession
from gmscreen.campaign.validate import validate_file
from gmscreen.play.declarations import simultaneous_malus
from gmscreen.play.encounter import end_fight, next_turn, previous_turn
from gmscreen.play.fight_rules import FightRules
from gmscreen.play.games import table_for
from gmscreen.play.turns import MAX_TICK_RECORDS, is_turn_label, sort_fairly

REPO = Path(__file__).resolve().parents[2]


def current(session: CampaignSession) -> str:
    enc = session.campaign.encounter
    return enc.entries[enc.turn].id


def order(session: CampaignSession) -> list[str]:
    return [e.id for e in session.campaign.encounter.entries]


def conditions(session: CampaignSession, char_id: str) -> list[tuple[str, int | None]]:
    ch = session.campaign.character(char_id)
    assert ch is not None
    return [(c.name, c.rounds) for c in ch.conditions]


def test_previous_gives_ticks_back_after_a_restart(sessions) -> None:
    session = sessions.open("mir")      # round 2: the guard plays; Alexis: Ébloui (1); Relève: 3 rounds
    mir_file = session.path
    with session.edit("états") as b:                            # the guard: Sonné (2)
        b.insert(("characters", 3, "conditions"), None, Condition(name="Sonné", rounds=2))
    move = next_turn(session)                                  # the guard acts: Sonné 2 -> 1
    assert move.moved and current(session) == "alexis" and conditions(session, "garde") == [("Sonné", 1)]
    with session.edit("init") as b:                            # another change in between
        b.set(("encounter", "entries", 4, "initiative"), 3)
    move = next_turn(session)                                  # Alexis acts: Ébloui expires
    assert "Ébloui par la lanterne expire : Alexis" in move.notices and conditions(session, "alexis") == []
    move = next_turn(session)                                  # the dog: new round, Relève 3 -> 2
    assert move.notices[0] == "Round 3" and session.campaign.timers[1].rounds == 2
    assert len(session.campaign.encounter.ticks) == 3

    session = sessions.reopen(session)                         # a restart: the ticks are in the file
    text = mir_file.read_text(encoding="utf-8")
    assert "[[encounter.ticks]]" in text and "# au tour du garde" in text   # written in place, comments kept
    assert validate_file(mir_file) == []
    assert [t.actor for t in session.campaign.encounter.ticks] == ["garde", "alexis", "chien"]
    assert session.last_label is None                          # no undo left: `p` must use the records

    move = previous_turn(session)                              # back to the dog in round 2
    assert move.moved and not move.undone and not move.kept
    assert session.campaign.encounter.round == 2 and current(session) == "chien"
    assert session.campaign.timers[1].rounds == 3              # the countdown tick comes back
    move = previous_turn(session)                              # back to Alexis: Ébloui comes back
    assert current(session) == "alexis" and "Ébloui par la lanterne revient : Alexis" in move.notices
    assert conditions(session, "alexis") == [("Ébloui par la lanterne", 1)]
    session = sessions.reopen(session)                         # and once more, mid-way
    previous_turn(session)                                     # back to the guard: Sonné 2 again
    assert current(session) == "garde" and conditions(session, "garde") == [("Sonné", 2)]
    assert session.campaign.encounter.entries[4].initiative == 3   # the other change is kept
    next_turn(session)                                         # playing again ticks again
    next_turn(session)
    assert conditions(session, "garde") == [("Sonné", 1)] and conditions(session, "alexis") == []


def test_the_journal_keeps_the_ticks_through_a_crash(sessions) -> None:
    mir_file = sessions.open("mir").path
    sessions.close_all()
    code = textwrap.dedent(f"""
        import os
        from gmscreen.campaign import open_session
        from gmscreen.play.encounter import next_turn
        next_turn(open_session({str(mir_file)!r}))
        os._exit(0)
    """)                                                       # journalled, never saved: a crash
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO, timeout=30,
                   env={**os.environ, "PYTHONPATH": str(REPO)})
    assert load_campaign(mir_file).encounter.ticks == []
    with open_session(mir_file) as again:
        assert [t.actor for t in again.campaign.encounter.ticks] == ["garde"]
        assert is_turn_label(again.last_label)
        assert previous_turn(again).undone and again.campaign.encounter.ticks == []


def test_undo_and_redo_take_the_record_with_the_turn(sessions) -> None:
    session = sessions.open("mir")
    enc = session.campaign.encounter
    next_turn(session)
    assert current(session) == "alexis" and len(enc.ticks) == 1
    move = previous_turn(session)                              # right after `n`: an undo
    assert move.undone and current(session) == "garde" and session.campaign.encounter.ticks == []
    session.redo()
    assert current(session) == "alexis" and [t.actor for t in session.campaign.encounter.ticks] == ["garde"]
    session.undo()
    assert session.campaign.encounter.ticks == [] and session.campaign.encounter.entries[1].acted is False


def test_a_deferred_sort_is_saved_and_made_at_the_round_end(sessions) -> None:
    session = sessions.open("mir")
    values = {"callia": 1, "garde": 2, "alexis": 3, "loriane": 10, "chien": 20}
    deferred: list[bool] = []
    with session.edit("Trier par initiative") as b:
        for i, entry in enumerate(session.campaign.encounter.entries):
            b.set(("encounter", "entries", i, "initiative"), values[entry.id])
        deferred.append(sort_fairly(b, session.campaign))
    # Mid-round: Callia keeps her place, the guard stays current, the rest sorted after him.
    assert deferred == [True] and order(session) == ["callia", "garde", "chien", "loriane", "alexis"]
    assert session.campaign.encounter.resort_at == 2
    session.undo()                                             # undone with the sort it belongs to
    assert session.campaign.encounter.resort_at is None and order(session)[2] == "alexis"
    session.redo()
    assert session.campaign.encounter.resort_at == 2

    session = sessions.reopen(session)
    assert session.campaign.encounter.resort_at == 2
    played = []
    while session.campaign.encounter.round == 2:
        played.append(current(session))
        move = next_turn(session)
    assert played == ["garde", "chien", "alexis"] and "Nouvel ordre d'initiative" in move.notices
    assert order(session) == ["chien", "loriane", "alexis", "garde", "callia"] and current(session) == "chien"

    session = sessions.reopen(session)
    previous_turn(session)                                     # across the round: that sort taken back
    assert session.campaign.encounter.round == 2 and current(session) == "alexis"
    assert order(session) == ["callia", "garde", "chien", "loriane", "alexis"]
    next_turn(session)                                         # and made again at the round's end
    assert order(session) == ["chien", "loriane", "alexis", "garde", "callia"]


def test_ending_the_fight_forgets_its_turns(sessions) -> None:
    session = sessions.open("mir")
    mir_file = session.path
    next_turn(session)
    with session.edit("Fin du combat") as b:
        end_fight(b, session.campaign)
    enc = session.campaign.encounter
    assert enc.round == 0 and enc.entries == [] and enc.ticks == [] and enc.resort_at is None
    move = previous_turn(session)
    assert not move.moved and move.problem == "pas de combat en cours"
    assert next_turn(session).problem.startswith("personne dans l'ordre d'initiative")
    session = sessions.reopen(session)
    assert "[[encounter.ticks]]" not in mir_file.read_text(encoding="utf-8")


def test_records_are_capped(sessions) -> None:
    session = sessions.open("mir")
    for _ in range(MAX_TICK_RECORDS + 5):
        next_turn(session)
    ticks = session.campaign.encounter.ticks
    assert len(ticks) == MAX_TICK_RECORDS and ticks[-1].round_after == session.campaign.encounter.round


def test_an_old_file_loads_and_is_left_as_it_is(sessions) -> None:
    session = sessions.open("mir")
    mir_file = session.path
    before = mir_file.read_bytes()
    assert before == sample_path("mir").read_bytes()           # the sample has neither key
    assert session.campaign.encounter.ticks == [] and session.campaign.encounter.resort_at is None
    session = sessions.reopen(session)                         # nothing changed: nothing written
    assert mir_file.read_bytes() == before
    with session.edit("nom") as b:                             # a change elsewhere adds no new key
        b.set(("characters", 0, "notes"), "notée")
    sessions.reopen(session)
    text = mir_file.read_text(encoding="utf-8")
    assert "ticks" not in text and "resort_at" not in text


def test_hand_edits_are_tolerated(sessions) -> None:
    session = sessions.open("mir")
    mir_file = session.path
    next_turn(session)
    next_turn(session)                                         # Alexis: Ébloui expired, recorded
    session = sessions.reopen(session)
    session.close()
    # By hand: Alexis's character gets another id; the record still names "alexis", and loads.
    text = mir_file.read_text(encoding="utf-8")
    assert text.count('character = "alexis"') == 2             # his entry, then the record
    mir_file.write_text(text.replace('id = "alexis"\nname = "Alexis"', 'id = "alexandre"\nname = "Alexis"', 1)
                        .replace('character = "alexis"', 'character = "alexandre"', 1), encoding="utf-8")
    assert validate_file(mir_file) == []
    with open_session(mir_file) as session:
        move = previous_turn(session)                          # the record names "alexis": kept aside
        assert move.moved and current(session) == "alexis" and "Ébloui par la lanterne" in move.kept


def test_bad_shapes_are_named_at_their_key(sessions, english) -> None:
    session = sessions.open("mir")
    mir_file = session.path
    next_turn(session)
    next_turn(session)                                         # a record with a ticked condition
    sessions.reopen(session).close()
    good = mir_file.read_text(encoding="utf-8")
    mir_file.write_text(good.replace("[encounter]\n", "[encounter]\nresort_at = \"deux\"\n", 1), encoding="utf-8")
    problems = validate_file(mir_file)
    assert [p.path for p in problems] == ["encounter.resort_at"] and "integer" in problems[0].message
    mir_file.write_text(good.replace("\nindex = 0", "\nplace = 0", 1), encoding="utf-8")
    problems = validate_file(mir_file)
    said = {p.path: p.message for p in problems}
    assert said.keys() == {"encounter.ticks[1].conditions[0].place", "encounter.ticks[1].conditions[0].index"}
    assert "unknown key" in said["encounter.ticks[1].conditions[0].place"]
    assert said["encounter.ticks[1].conditions[0].index"].startswith("missing")
    mir_file.write_text(good.replace("[[encounter.ticks]]\nround = 2", "[[encounter.ticks]]\nround = -1", 1),
                        encoding="utf-8")
    assert [(p.path, p.line) for p in validate_file(mir_file)] == [
        ("encounter.ticks[0].round", good.splitlines().index("[[encounter.ticks]]") + 2)]
    with pytest.raises(CampaignError):
        open_session(mir_file)
    assert mir_file.read_text(encoding="utf-8") != good         # never rewritten: still the broken one


def test_declaration_malus_is_the_games() -> None:
    assert simultaneous_malus(table_for("arpeges"), 1) == 0 and simultaneous_malus(table_for("arpeges"), 3) == 6
    assert simultaneous_malus(table_for("mir"), 3) == 0
    assert "R12" in table_for("arpeges").fight.declaration_note()
    assert table_for("eclats").fight.declaration_note() == ""
    assert FightRules().simultaneous_malus(4) == 0


def test_turn_ticks_is_the_models() -> None:
    from gmscreen.play import turns

    assert turns.TurnTicks is TurnTicks


def test_turn_notices_and_labels_in_english(sessions, english) -> None:
    """The same turns in English: the notices and change labels translated, the names and
    conditions as the GM typed them; an `n` labelled in French is still one for `p`."""
    session = sessions.open("mir")
    assert next_turn(session).notices == []                   # the guard acts
    assert session.last_label == "End of turn: Le garde de la porte"
    move = next_turn(session)                                  # Alexis: Ébloui expires
    assert move.notices == ["Ébloui par la lanterne expires: Alexis"]
    move = next_turn(session)
    assert move.notices[0] == "Round 3"
    assert is_turn_label("Fin du tour : Le chien") and is_turn_label(session.last_label)  # either language
    session = sessions.reopen(session)                         # no undo left: `p` uses the records
    assert previous_turn(session).moved                        # back to the dog
    move = previous_turn(session)                              # back to Alexis: Ébloui comes back
    assert move.notices == ["Ébloui par la lanterne is back: Alexis"]
    assert session.last_label == "Previous turn"
    with session.edit("stop") as b:
        b.set(("encounter", "round"), 0)
        b.set(("encounter", "entries"), [])
    assert next_turn(session).problem == "nobody in the initiative order: a to add"
    assert previous_turn(session).problem == "no fight under way"
