"""The recap of a session, on a campaign played through the play core and saved as the screen
saves it: net changes (undo left out), the fight's comings and goings, timers, notable rolls,
secret rolls left out unless asked, one session apart from the next."""

from __future__ import annotations

from gmscreen import i18n
from gmscreen.campaign.history import history_path
from gmscreen.campaign.model import Condition
from gmscreen.play.encounter import next_turn
from gmscreen.play.games import table_for
from gmscreen.play.joins import join
from gmscreen.play.recap import RecapError, build_recap, recap_data, recap_markdown
from gmscreen.play.roster_rules import start_session
from gmscreen.play import Table
from gmscreen.play.table_roll import roll_line

import pytest

from _notices import notices


def _play_session_3(sessions):
    """Session 3 of the MIR sample: rolls (a critical, a secret one), a joiner, conditions, a stat
    raised, a change undone, turns to a new round (the countdown ticks); saved as it goes."""
    session = sessions.open("mir")
    table = Table(session)
    told = notices(table)
    roll_line(session, "callia infiltration vs garde instinct = 12 12 9 8 1 | 1 1 1", table=table)  # two 12s (5 dice: Fièvre grise −1 dé)
    roll_line(session, "alexis tir sd2 = 1 1 1 1 1", table=table)
    roll_line(session, "loriane eloquence sd3 = 1 2 3 4 5", table=table, gm_only=True)
    join(table, session, [("Frère Anselme, geôlier", "geolier", 4)])
    with session.edit("Aveuglé → Alexis") as b:
        b.insert(("characters", 0, "conditions"), None, Condition("Aveuglé", "−2 dés", None))
    session.save_now()                         # the journal is emptied: the history keeps it
    with session.edit("Héritage → Loriane") as b:
        b.set(("characters", 1, "sheet", "voies", "heritage"), 4)
    with session.edit("Mensonge → Loriane") as b:
        b.set(("characters", 1, "sheet", "voies", "mensonge"), 5)
    session.undo()
    for _ in range(6):
        next_turn(session)
    assert told == []
    return session


def test_the_recap_says_what_the_session_did_net_of_undo(sessions) -> None:
    session = _play_session_3(sessions)
    session.close()
    assert history_path(session.path).is_file()
    i18n.set_language("en")
    recap = build_recap(session.path, tables=table_for)
    assert recap.session == 3 and recap.current
    alexis = recap.changes["Alexis"]
    assert "now Aveuglé" in alexis and "no longer Ébloui par la lanterne" in alexis
    assert recap.changes["Loriane"] == ["Héritage 3 → 4"]                 # Mensonge was undone
    assert "Frère Anselme, geôlier" in recap.joined
    assert any(t.startswith("Relève de la garde: advanced") for t in recap.timers)
    assert recap.rolls == 2 and recap.hidden_rolls == 1
    assert [n.seq for n in recap.criticals] == [1]
    text = recap_markdown(recap)
    assert text.startswith("# Recap of session 3 · Les geôles de Vaskov\n")
    assert "- **Loriane**: Héritage 3 → 4" in text and "Mensonge" not in text
    assert "1 secret roll of the GM left out." in text
    assert "Joined the fight: Frère Anselme, geôlier" in text
    assert "Loriane: the dice" not in text                                # her only roll was secret
    assert "- Alexis: the dice are" in text and "- Critical: #1 Callia" in text
    gm = build_recap(session.path, gm=True, tables=table_for)
    assert gm.rolls == 3 and gm.hidden_rolls == 0 and "- Loriane: the dice are" in recap_markdown(gm)
    i18n.set_language("fr")
    assert recap_markdown(build_recap(session.path, tables=table_for)).startswith("# Résumé de la session 3")


def test_each_session_has_its_own_recap(sessions) -> None:
    session = _play_session_3(sessions)
    fight = table_for(session.system.id).fight
    with session.edit("Session 4") as b:
        start_session(b, fight, session.campaign)
    table = Table(session)
    told = notices(table)
    roll_line(session, "alexis tir sd2 = 12 12 9 1", table=table)
    with session.edit("Callia") as b:
        b.insert(("characters", 2, "conditions"), None, Condition("Épuisée"))
    session.close()
    four = build_recap(session.path, tables=table_for)
    assert four.session == 4 and four.rolls == 1
    assert list(four.changes) == ["Callia"] and four.joined == []
    three = build_recap(session.path, 3, tables=table_for)
    assert not three.current and "Callia" not in three.changes and "Loriane" in three.changes
    assert three.rolls == 2
    assert recap_data(three)["changes"]["Loriane"] == ["Héritage 3 → 4"]
    with pytest.raises(RecapError):
        build_recap(session.path, 5, tables=table_for)
    with pytest.raises(RecapError):
        build_recap(session.path, 0, tables=table_for)


def test_the_recap_writes_nothing_and_needs_no_lock(sessions) -> None:
    session = _play_session_3(sessions)            # still open: the campaign is locked
    folder = session.path.parent
    before = {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}
    recap = build_recap(session.path, tables=table_for)
    assert recap.changes["Alexis"]                  # what the journal holds, not saved yet
    assert {p.name: p.stat().st_mtime_ns for p in folder.iterdir()} == before


def _mir_luck(pool: int, successes: int) -> float:
    """P(at least `successes`) over every face of `pool` d12 (7–11: one success, 12: two)."""
    import itertools

    faces = range(1, 13)
    value = {f: 2 if f == 12 else 1 if f >= 7 else 0 for f in faces}
    hits = sum(1 for roll in itertools.product(faces, repeat=pool) if sum(value[f] for f in roll) >= successes)
    return hits / 12 ** pool


def test_the_luckiest_and_unluckiest_rolls_by_their_luck(sessions) -> None:
    from gmscreen.rules import resolve

    session = sessions.open("mir")
    for who, dice in (("Alexis", [12, 12, 11]), ("Loriane", [1, 2, 3]), ("Callia", [7, 2, 3])):
        request = {"system": "mir", "kind": "simple", "pool": 3, "difficulty": 2}
        result = resolve({**request, "dice": dice})
        result["luck"] = _mir_luck(3, result["successes"])
        session.record_roll(who=who, line=f"3d12 sd2 = {dice}", request={**request, "dice": dice}, result=result)
    session.close()
    i18n.set_language("en")
    recap = build_recap(session.path, tables=table_for)
    assert (recap.luckiest.who, recap.unluckiest.who) == ("Alexis", "Loriane")
    assert recap.luckiest.luck == _mir_luck(3, 5) and recap.unluckiest.luck == 1.0
    text = recap_markdown(recap)
    assert "- Luckiest: #1 Alexis" in text and "· 1 roll in 108 does this well" in text   # 16 of 1728: 0.93 %
    assert "- Unluckiest: #2 Loriane" in text and "· no roll does worse" in text           # luck 100 %
    assert "(on average " in text and " of rolls do at least as well, over " in text


def test_a_stat_whose_label_two_groups_share_is_named_with_its_group(sessions) -> None:
    """Te Deum has an Entregent characteristic and an Entregent XP count: the recap says which."""
    session = sessions.open("tedeum")
    with session.edit("XP → Louvensac") as b:
        b.set(("characters", 0, "sheet", "xp", "entregent"), 2)
    with session.edit("Caractéristique → Louvensac") as b:
        b.set(("characters", 0, "sheet", "characteristics", "puissance"), 8)
    session.close()
    said = build_recap(session.path, tables=table_for).changes["Mlle de Louvensac"]
    assert "Expérience · Entregent 0 → 2" in said and "Caractéristiques · Puissance 6 → 8" in said
