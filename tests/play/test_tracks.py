"""Damage tracks on the play core alone: adding one, hits up to defeat, the turn order passing
over the defeated, undo bringing them back, and the file written keeping the GM's comments."""

from __future__ import annotations

from gmscreen.campaign import open_session
from gmscreen.campaign.session import CampaignSession
from gmscreen.campaign.validate import validate_file
from gmscreen.play.encounter import next_turn, previous_turn, session_change
from gmscreen.play.tables import table_for
from gmscreen.play.tracks import add_track, default_track, defeated_ids, move_track, remove_track


def current(session: CampaignSession) -> str:
    enc = session.campaign.encounter
    return enc.entries[enc.turn].id


def hit(session: CampaignSession, char_id: str, times: int = 1, delta: int = 1) -> list[str]:
    notices: list[str] = []
    for _ in range(times):
        move = move_track(session.campaign, char_id, delta, session_change(session), game=table_for(session.campaign.system))
        assert move.moved, move.problem
        notices += move.notices
    return notices


def test_a_track_counts_hits_up_to_defeat_and_undo_brings_them_back(sessions) -> None:
    session = sessions.open("eclats")        # round 3: Hantise plays, then Berthe (Maël waits)
    spec = default_track(table_for("eclats"))
    assert (spec.name, spec.max, spec.sheet) == ("Coups", 10, None)      # the generic one, in French
    change = session_change(session)
    assert add_track(session.campaign, "berthe", "Coups", 2, change, game=table_for(session.campaign.system)).moved
    assert session.campaign.character("berthe").tracks[0].value == 0
    assert add_track(session.campaign, "berthe", "coups", 3, change, game=table_for(session.campaign.system)).problem   # one name, one track
    assert hit(session, "berthe") == []
    assert hit(session, "berthe") == ["Hors de combat : Berthe (son rang est sauté dans l’ordre du tour)"]
    assert defeated_ids(session.campaign) == {"berthe"}
    refused = move_track(session.campaign, "berthe", 1, change, game=table_for("eclats"))
    assert not refused.moved and "maximum (2)" in refused.problem
    assert current(session) == "hantise"
    move = next_turn(session)                 # Hantise acts: Berthe is passed over, a new round
    assert move.moved and move.notices[0] == "Round 4"
    assert current(session) == "ysaure"
    next_turn(session)                        # Ysaure, then Hantise (Maël still waits)
    assert current(session) == "hantise"
    session.undo()                            # back before Ysaure's turn
    session.undo()                            # back before Hantise's
    session.undo()                            # the hit that defeated Berthe undone
    assert defeated_ids(session.campaign) == set() and current(session) == "hantise"
    next_turn(session)
    assert current(session) == "berthe"       # in the order again
    session.undo()
    assert hit(session, "berthe") == ["Hors de combat : Berthe (son rang est sauté dans l’ordre du tour)"]
    assert hit(session, "berthe", delta=-1) == ["De retour au combat : Berthe"]


def test_p_and_n_pass_over_the_defeated_and_everyone_down_is_said(sessions) -> None:
    session = sessions.open("tedeum")         # round 1: Saint-Gelais plays; the gentilhomme waits
    change = session_change(session)
    for who in ("louvensac", "saint-gelais"):
        add_track(session.campaign, who, "Santé", 1, change, game=table_for(session.campaign.system))
    hit(session, "louvensac")
    assert current(session) == "saint-gelais"
    move = previous_turn(session)             # Louvensac, before, is down: nobody to go back to
    assert move.problem and current(session) == "saint-gelais"
    hit(session, "saint-gelais")
    move = next_turn(session)                 # the one left waits: nobody can play
    assert not move.moved and "hors de combat" in move.problem


def test_mir_blessures_is_the_sheet_wounds(sessions) -> None:
    session = sessions.open("mir")
    spec = default_track(table_for("mir"))
    assert (spec.name, spec.max, spec.sheet) == ("Blessures", 12, ("state", "blessures"))
    change = session_change(session)
    with session.edit("une blessure") as b:
        b.set(("characters", 0, "sheet", "state"), {"blessures": 1})
    add_track(session.campaign, "alexis", "Blessures", 3, change, game=table_for(session.campaign.system))
    alexis = session.campaign.character("alexis")
    assert alexis.tracks[0].value == 1       # the wounds already written
    hit(session, "alexis")
    assert alexis.sheet["state"]["blessures"] == 2 and alexis.tracks[0].value == 2
    session.undo()                            # one change: the track and the sheet together
    assert alexis.sheet["state"]["blessures"] == 1 and alexis.tracks[0].value == 1
    add_track(session.campaign, "alexis", "Fatigue", 3, change, game=table_for(session.campaign.system))
    move_track(session.campaign, "alexis", 1, change, position=1, game=table_for("mir"))
    assert alexis.sheet["state"]["blessures"] == 1      # another track leaves the wounds alone


def test_tracks_are_saved_in_place_and_read_back(sessions) -> None:
    session = sessions.open("arpeges")
    path = session.path
    before = path.read_text(encoding="utf-8")
    comments = [line for line in before.splitlines() if line.strip().startswith("#")]
    change = session_change(session)
    add_track(session.campaign, "gorlois", "Coups", 2, change, game=table_for(session.campaign.system))
    hit(session, "gorlois", 2)
    session = sessions.reopen(session)
    text = path.read_text(encoding="utf-8")
    assert "[[characters.tracks]]" in text
    assert all(line in text for line in comments)
    assert validate_file(path) == []
    gorlois = session.campaign.character("gorlois")
    assert [(t.name, t.value, t.max) for t in gorlois.tracks] == [("Coups", 2, 2)]
    assert defeated_ids(session.campaign) == {"gorlois"}


def test_an_old_file_loads_unchanged_and_a_bad_track_is_one_clear_error(sessions, tmp_path) -> None:
    session = sessions.open("magisphere")
    path = session.path
    session.close()
    text = path.read_text(encoding="utf-8")
    again = open_session(path)                 # a file from before tracks: read as it was
    assert [ch.tracks for ch in again.campaign.characters] == [[]] * len(again.campaign.characters)
    with again.edit("une note") as b:          # a change elsewhere writes no track
        b.set(("notes",), "vu")
    again.save_now()
    again.close()
    assert "tracks" not in path.read_text(encoding="utf-8") and "tracks" not in text
    bad = tmp_path / "bad.toml"
    first = text.index("[[characters]]")
    second = text.index("[[characters]]", first + 1)
    bad.write_text(text[:second] + '[[characters.tracks]]\nname = "Coups"\nvalue = 7\nmax = 5\n\n' + text[second:],
                   encoding="utf-8")
    problems = validate_file(bad)
    assert len(problems) == 1
    said = str(problems[0])
    assert "tracks[0].value" in said and "0" in said and "5" in said and "7" in said


def test_a_track_taken_off_brings_them_back_and_leaves_the_wounds(sessions) -> None:
    session = sessions.open("mir")
    change = session_change(session)
    add_track(session.campaign, "callia", "Blessures", 2, change, game=table_for(session.campaign.system))     # her wound written: 1
    hit(session, "callia")
    assert defeated_ids(session.campaign) == {"callia"}
    move = remove_track(session.campaign, "callia", 0, change)
    assert move.notices == ["De retour au combat : Callia"]
    callia = session.campaign.character("callia")
    assert callia.tracks == [] and callia.sheet["state"]["blessures"] == 2
    assert remove_track(session.campaign, "callia", 0, change).problem == "Callia n’a pas de piste (T en ajoute une)"
    session.undo()
    assert defeated_ids(session.campaign) == {"callia"}
