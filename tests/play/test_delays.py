"""Delays at the round's end on the play core alone: whoever waited through a round without
coming back is named when it ends (and keeps waiting: `w` brings them back), and a `w` on the
last one left to play ends the round saying so; on a real MIR campaign on disk (round 2, the
guard plays, Callia has acted, Loriane waits)."""

from __future__ import annotations

import pytest

from gmscreen.campaign.session import CampaignSession
from gmscreen.play.encounter import next_turn, previous_turn, wait_turn


def current(session: CampaignSession) -> str:
    enc = session.campaign.encounter
    return enc.entries[enc.turn].id


def index_of(session: CampaignSession, entry_id: str) -> int:
    return [e.id for e in session.campaign.encounter.entries].index(entry_id)


def waiting(session: CampaignSession) -> list[str]:
    return [e.id for e in session.campaign.encounter.entries if e.delayed]


def test_who_waited_the_whole_round_is_named_at_its_end_and_still_waits(sessions) -> None:
    session = sessions.open("mir")
    assert next_turn(session).notices == []                    # the guard acts
    assert not any("attendu" in n for n in next_turn(session).notices)   # Alexis acts
    move = next_turn(session)                                  # the dog: the round ends
    assert session.campaign.encounter.round == 3
    assert move.notices[:2] == ["Round 3", "A attendu tout le round 2 et attend encore : Loriane"]
    assert waiting(session) == ["loriane"] and current(session) == "callia"   # kept waiting, as before

    session = sessions.reopen(session)                         # a restart changes nothing
    notices: list[str] = []
    while session.campaign.encounter.round == 3:
        notices = next_turn(session).notices
    assert "A attendu tout le round 3 et attend encore : Loriane" in notices   # named every round

    assert wait_turn(session, index_of(session, "garde")).moved     # two wait through round 4
    while session.campaign.encounter.round == 4:
        notices = next_turn(session).notices
    assert ("Ont attendu tout le round 4 et attendent encore : Le garde de la porte, Loriane"
            in notices)


def test_who_came_back_during_the_round_is_not_named(sessions) -> None:
    session = sessions.open("mir")
    with session.edit("revient") as b:
        b.set(("encounter", "entries", index_of(session, "loriane"), "delayed"), False)
    notices: list[str] = []
    while session.campaign.encounter.round == 2:
        notices = next_turn(session).notices
    assert notices[0] == "Round 3" and not any("attend" in n for n in notices)


def test_waiting_the_last_one_left_ends_the_round_saying_why(sessions) -> None:
    session = sessions.open("mir")
    next_turn(session)                                         # the guard acts
    next_turn(session)                                         # Alexis acts: the dog is the last
    assert current(session) == "chien"
    move = wait_turn(session, index_of(session, "chien"))
    assert move.moved and session.campaign.encounter.round == 3
    assert move.notices[0] == "Round 3"
    assert ("Fin du round 2, personne d'autre à jouer : Loriane, Chien de garde attendent (w : revenir)"
            in move.notices)
    assert not any("A attendu" in n or "Ont attendu" in n for n in move.notices)   # said once
    assert waiting(session) == ["loriane", "chien"] and current(session) == "callia"
    assert session.last_label == "Attend : Chien de garde"

    session.undo()                                             # one undo: round 2, the dog to play
    assert session.campaign.encounter.round == 2 and current(session) == "chien"
    assert waiting(session) == ["loriane"]


def test_waiting_alone_at_the_end_is_said_in_the_singular_and_p_goes_back(sessions) -> None:
    session = sessions.open("mir")
    with session.edit("revient") as b:
        b.set(("encounter", "entries", index_of(session, "loriane"), "delayed"), False)
    while current(session) != "chien":
        next_turn(session)
    with session.edit("autre chose") as b:                     # a change in between: `p` is no undo
        b.set(("encounter", "entries", index_of(session, "alexis"), "initiative"), 4)
    move = wait_turn(session, index_of(session, "chien"))
    assert "Fin du round 2, personne d'autre à jouer : Chien de garde attend (w : revenir)" in move.notices
    back = previous_turn(session)                              # the round the wait ended is given back
    assert back.moved and session.campaign.encounter.round == 2


def test_a_wait_that_does_not_end_the_round_says_nothing_of_it(sessions) -> None:
    session = sessions.open("mir")
    move = wait_turn(session, index_of(session, "garde"))      # the guard waits: Alexis plays
    assert move.moved and move.notices == [] and current(session) == "alexis"
    refused = wait_turn(session, index_of(session, "loriane"))  # already waiting
    assert not refused.moved and refused.problem == "personne à faire attendre sur cette ligne"


def test_names_are_cleaned_before_the_notice(sessions) -> None:
    session = sessions.open("mir")
    with session.edit("nom") as b:
        b.set(("encounter", "entries", index_of(session, "loriane"), "name"), "Lo\x1b[31mriane")
    notices: list[str] = []
    while session.campaign.encounter.round == 2:
        notices = next_turn(session).notices
    named = [n for n in notices if "attendu" in n]
    assert len(named) == 1 and "\x1b" not in named[0] and "riane" in named[0]


@pytest.mark.usefixtures("english")
def test_in_english(sessions) -> None:
    session = sessions.open("mir")
    next_turn(session)
    next_turn(session)
    move = wait_turn(session, index_of(session, "chien"))
    assert "Round 2 ends, nobody else to play: Loriane, Chien de garde wait (w: come back)" in move.notices
    while session.campaign.encounter.round == 3:
        notices = next_turn(session).notices
    assert "Waited the whole round 3 and still wait: Loriane, Chien de garde" in notices
