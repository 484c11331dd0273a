"""Leaving the roster and starting a new session, on the play core alone: real sample campaigns
on disk, each change one undoable edit, what it did still there once the file is opened again."""

from __future__ import annotations

from gmscreen.campaign.model import Declaration
from gmscreen.play.fight_rules import FightRules
from gmscreen.play.games import table_for
from gmscreen.play.roster_rules import SheetGain, leaving, remove_character, start_session
from gmscreen.play.timers import timer_progress


def order(session) -> list[str]:
    return [e.id for e in session.campaign.encounter.entries]


def current(session) -> str:
    enc = session.campaign.encounter
    return enc.entries[enc.turn].id


def remove(session, char_id: str) -> tuple[bool, list[str]]:
    notices: list[str] = []
    with session.edit(f"Retirer {char_id}") as b:
        done = remove_character(b, session.campaign, char_id, notices)
    return done, notices


def test_leaving_on_their_turn_passes_it_on_and_takes_their_declaration(sessions):
    session = sessions.open("mir")                     # round 2, the guard's turn, Loriane waits
    with session.edit("Déclare") as b:
        b.insert(("encounter", "declared"), None, Declaration("garde", ["Frapper"]))
        b.insert(("encounter", "declared"), None, Declaration("alexis", ["Viser"]))
    assert leaving(session.campaign, "garde").in_order and leaving(session.campaign, "garde").timers == []
    done, notices = remove(session, "garde")
    assert done and notices == []
    assert session.campaign.character("garde") is None
    assert order(session) == ["callia", "alexis", "loriane", "chien"]
    assert current(session) == "alexis"                # the next one ready (Callia has acted)
    assert [d.entry for d in session.campaign.encounter.declared] == ["alexis"]
    session.undo()                                     # one undo brings it all back
    assert order(session) == ["callia", "garde", "alexis", "loriane", "chien"]
    assert current(session) == "garde" and len(session.campaign.encounter.declared) == 2
    session.redo()
    session = sessions.reopen(session)                 # the whole cascade was saved
    assert session.campaign.character("garde") is None and current(session) == "alexis"
    assert [d.entry for d in session.campaign.encounter.declared] == ["alexis"]


def test_leaving_takes_the_timers_they_roll_and_keeps_the_current_actor(sessions):
    session = sessions.open("mir")
    takes = leaving(session.campaign, "loriane")
    assert takes.in_order and [t.id for t in takes.timers] == ["guerison-callia"]
    done, _ = remove(session, "loriane")
    assert done
    assert [t.id for t in session.campaign.timers] == ["releve"]
    assert order(session) == ["callia", "garde", "alexis", "chien"] and current(session) == "garde"
    # someone before the current actor: the turn index follows the actor
    done, _ = remove(session, "callia")
    assert done and current(session) == "garde" and session.campaign.encounter.turn == 0


def test_an_opposition_against_them_keeps_their_name(sessions):
    session = sessions.open("magisphere")
    assert not leaving(session.campaign, "gros-bob").timers       # Granok rolls it, not Bob
    remove(session, "gros-bob")
    timer = session.campaign.timers[0]
    assert timer.opponent == "le gros Bob"
    assert timer_progress(session.campaign, timer, game=table_for("magisphere")) == "Granok 2 – 1 le gros Bob · en 3 · round 2"
    session = sessions.reopen(session)
    assert session.campaign.timers[0].opponent == "le gros Bob"


def test_leaving_as_the_last_to_play_starts_the_next_round(sessions):
    session = sessions.open("magisphere")              # round 1: Granok and Bob have acted, Shady plays
    with session.edit("Shady a joué") as b:
        b.set(("encounter", "entries", 2, "acted"), True)
        b.set(("encounter", "turn"), 3)                # the rival's turn, the last of the round
    done, notices = remove(session, "rival")
    assert done and notices[0] == "Round 2"
    enc = session.campaign.encounter
    assert enc.round == 2 and current(session) == "granok"
    assert not any(e.acted for e in enc.entries)


def test_leaving_outside_a_fight_and_an_unknown_character(sessions):
    session = sessions.open("tedeum")
    with session.edit("Fin du combat") as b:
        b.set(("encounter", "round"), 0)
    last = session.campaign.encounter.entries[-1]
    with session.edit("Au dernier") as b:
        b.set(("encounter", "turn"), len(session.campaign.encounter.entries) - 1)
    assert last.character is not None
    done, notices = remove(session, last.character)
    assert done and notices == [] and session.campaign.character(last.character) is None
    enc = session.campaign.encounter
    assert enc.round == 0 and enc.turn == len(enc.entries) - 1      # stays in the order, no new round
    before = session.last_label
    done, notices = remove(session, "personne")
    assert (done, notices, session.last_label) == (False, [], before)   # nothing to undo either


def test_new_session_magisphere_r9(sessions):
    session = sessions.open("magisphere")
    fight = table_for(session.system.id).fight
    gains = fight.session_gains(session.campaign)
    assert gains == [SheetGain(0, ("characters", 0, "sheet", "resources", "impulsion"), 3),
                     SheetGain(1, ("characters", 1, "sheet", "resources", "impulsion"), 2)]
    assert fight.session_rule(session.system, session.campaign, gains) == (
        "Chaque PJ regagne 1 point d'Impulsion manquant (R9) : Shady, Granok")
    with session.edit("Session 3") as b:
        given = start_session(b, fight, session.campaign)
    assert given == gains
    assert fight.session_notice(session.campaign, given) == "Session 3 : +1 Impulsion pour Shady, Granok"
    session = sessions.reopen(session)
    c = session.campaign
    assert c.session == 3
    assert [c.character(i).sheet["resources"]["impulsion"] for i in ("shady", "granok")] == [3, 2]
    with session.edit("Session 4") as b:
        start_session(b, fight, c)
    with session.edit("Session 5") as b:               # at their maximum now: nobody gains
        assert start_session(b, fight, c) == []
    assert fight.session_rule(session.system, c, []).endswith("aucun ne manque de points")
    assert fight.session_notice(c, []) is None
    session.undo()
    session.undo()                                     # each session one undo, its gains with it
    assert c.session == 3 and c.character("granok").sheet["resources"]["impulsion"] == 2


def test_new_session_without_a_between_session_rule(sessions):
    session = sessions.open("eclats")
    fight = table_for(session.system.id).fight
    assert fight.session_gains(session.campaign) == []
    assert fight.session_rule(session.system, session.campaign, []) == (
        f"{session.system.game} : pas de règle entre les sessions ; seul le numéro de session change.")
    before = session.campaign.session
    with session.edit("Session") as b:
        assert start_session(b, fight, session.campaign) == []
    assert sessions.reopen(session).campaign.session == before + 1


def test_a_game_of_its_own_gives_back_what_it_says(sessions):
    """A game's fight part overrides the hook; the play core applies whatever it returns."""

    class Rested(FightRules):
        def session_gains(self, campaign):
            return [SheetGain(i, ("characters", i, "notes"), "reposé")
                    for i, c in enumerate(campaign.characters) if c.side == "party"]

    session = sessions.open("arpeges")
    with session.edit("Session") as b:
        given = start_session(b, Rested(), session.campaign)
    party = [c for c in session.campaign.characters if c.side == "party"]
    assert len(given) == len(party) > 0 and all(c.notes == "reposé" for c in party)
