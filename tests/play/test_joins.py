"""Joining the fight on the play core alone: a whole group in one change (initiatives rolled with
the campaign's expression and logged, one undo takes them all out), and a mid-round joiner whose
slot has passed acting this round or the next, as the GM chose; on a real campaign on disk."""

from __future__ import annotations

from gmscreen.campaign.session import CampaignSession
from gmscreen.play.encounter import end_fight, next_turn
from gmscreen.play.joins import (NEXT_ROUND, NPCS, PARTY, SELECTION, THIS_ROUND, candidates, join,
                                 roll_joiners, slot_passed)
from gmscreen.play import Table

from _notices import notices


def order(session: CampaignSession) -> list[str]:
    return [e.id for e in session.campaign.encounter.entries]


def current(session: CampaignSession) -> str:
    enc = session.campaign.encounter
    return enc.entries[enc.turn].id


def played_in_round(session: CampaignSession) -> list[str]:
    """`n` until the round changes: who was current, in turn."""
    enc = session.campaign.encounter
    start = enc.round
    seen = [current(session)]
    while True:
        assert next_turn(session).moved
        if enc.round != start:
            return seen
        seen.append(current(session))


def test_the_party_joins_in_one_change_with_logged_rolls_and_one_undo(sessions) -> None:
    session = sessions.open("mir")
    with session.edit("fin") as b:
        end_fight(b, session.campaign)
    table = Table(session)
    told = notices(table)
    rolls_before = len(session.rolls)
    party = candidates(session.campaign, PARTY)
    assert [c.id for c in party] == ["alexis", "loriane", "callia"]
    joiners = roll_joiners(table, session, party)
    assert joiners is not None and not table.joiners(joiners).needs_when   # round 0: no question
    result = join(table, session, joiners)
    assert not result.problem and result.added == ["alexis", "loriane", "callia"]
    rolls = session.rolls[rolls_before:]
    assert [(r.who, r.line) for r in rolls] == [("Alexis", "initiative 1d12"), ("Loriane", "initiative 1d12"),
                                                ("Callia", "initiative 1d12")]
    logged = {r.who: r.result["total"] for r in rolls}
    enc = session.campaign.encounter
    assert {e.name: e.initiative for e in enc.entries} == logged
    assert [e.initiative for e in enc.entries] == sorted(logged.values(), reverse=True)
    assert candidates(session.campaign, PARTY) == []                # already in: not offered again
    assert [c.id for c in candidates(session.campaign, NPCS)] == ["garde", "geolier"]

    assert session.last_label == "Au combat : Alexis, Loriane, Callia"
    session.undo()                                                   # one undo takes them all out
    assert order(session) == []
    session.redo()
    session = sessions.reopen(session)                              # saved in the file
    assert sorted(order(session)) == ["alexis", "callia", "loriane"]


def test_a_joiner_this_round_plays_before_the_round_ends(sessions) -> None:
    session = sessions.open("mir")          # round 2: Callia has acted, the guard plays
    campaign = session.campaign
    assert current(session) == "garde" and slot_passed(campaign, 10) and not slot_passed(campaign, 6)
    joiners = [("Le geôlier", "geolier", 10)]
    table = Table(session)
    assert table.joiners(joiners).needs_when
    result = join(table, session, joiners, THIS_ROUND)
    assert result.notices == ["Le geôlier agit ce round, après l'actuel ; à sa place d'initiative au round 3"]
    assert order(session) == ["callia", "garde", "geolier", "alexis", "loriane", "chien"]
    assert current(session) == "garde"                              # the current actor stays current
    assert played_in_round(session) == ["garde", "geolier", "alexis", "chien"]   # Loriane waits
    assert campaign.encounter.round == 3
    assert order(session)[:2] == ["geolier", "callia"]              # at their place by initiative now
    session = sessions.reopen(session)
    assert order(session)[:2] == ["geolier", "callia"]


def test_a_joiner_next_round_skips_this_one_as_said(sessions) -> None:
    session = sessions.open("mir")
    result = join(Table(session), session, [("Le geôlier", "geolier", 8)], NEXT_ROUND)
    assert result.notices == ["Le geôlier agit à partir du round 3 (sa place de ce round est passée)"]
    assert order(session) == ["callia", "geolier", "garde", "alexis", "loriane", "chien"]
    assert current(session) == "garde"
    assert "geolier" not in played_in_round(session)
    assert current(session) == "callia" and session.campaign.encounter.round == 3
    assert played_in_round(session)[:2] == ["callia", "geolier"]


def test_a_joiner_whose_slot_is_ahead_needs_no_choice(sessions) -> None:
    session = sessions.open("mir")
    table = Table(session)
    told = notices(table)
    assert not table.joiners([("Le geôlier", "geolier", 6)]).needs_when
    join(table, session, [("Le geôlier", "geolier", 6)], THIS_ROUND)
    assert order(session) == ["callia", "garde", "geolier", "alexis", "loriane", "chien"]
    assert session.campaign.encounter.resort_at is None              # nothing moved out of place
    assert [c.id for c in candidates(session.campaign, SELECTION, "alexis")] == []   # already in
    result = join(table, session, [])
    assert result.problem and order(session)[2] == "geolier"


def test_no_initiative_expression_is_said_and_nothing_added(sessions) -> None:
    session = sessions.open("mir")
    with session.edit("init") as b:
        b.set(("initiative",), "")
    table = Table(session)
    told = notices(table)
    assert roll_joiners(table, session, candidates(session.campaign, NPCS)) is None
    assert told and "initiative" in told[0]
