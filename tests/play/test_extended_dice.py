"""The next interval of an extended test with dice rolled at the table: the faces typed as the
quick-roll line takes them after `=`, put where the game's own interval puts its dice; checked
by the rules; kept in the timer on disk like a rolled interval."""

from __future__ import annotations

import pytest

from gmscreen import rules
from gmscreen.play.interval_dice import (TableDiceError, faces_check, interval_form, interval_size,
                                         roll_interval_as, roll_table_interval, table_dice_words,
                                         table_interval_dice)
from gmscreen.play.timers import record_interval, timer_progress


def _keep(session, index, rolled) -> None:
    timer = session.campaign.timers[index]
    with session.edit(f"{timer.label} · {rolled.step}") as b:
        record_interval(b, index, timer, rolled)


def _mir_after_the_fight(sessions):
    session = sessions.open("mir")
    with session.edit("Fin du combat") as b:
        b.set(("encounter", "round"), 0)                 # R20: a day-long test waits for the fight's end
    return session


def test_a_mir_test_takes_the_faces_typed(sessions) -> None:
    session = _mir_after_the_fight(sessions)
    timer = session.campaign.timers[0]                  # Guérison, 2 tests made, 5 d12 a test
    assert interval_size(timer) == 5
    rolled = roll_table_interval(timer, "= 3 7 12 1 5")
    assert rolled.step == "test 3" and rolled.dice["rolls"][2] == [3, 7, 12, 1, 5]
    assert rolled.dice["rolls"][:2] == timer.dice["rolls"]
    assert rolled.request == {**timer.request, **rolled.dice} and rolled.result == rules.resolve(rolled.request)
    _keep(session, 0, rolled)
    session = sessions.reopen(session)                  # kept on disk as a rolled interval is
    saved = session.campaign.timers[0]
    assert saved.dice["rolls"][2] == [3, 7, 12, 1, 5] and saved.status == rolled.status
    assert timer_progress(session.campaign, saved).startswith(f"{rolled.result['total_successes']}/8")


def test_a_magisphere_round_takes_one_d20_a_side(sessions) -> None:
    session = sessions.open("magisphere")
    timer = session.campaign.timers[0]                  # la Revanche: two rounds played
    assert interval_size(timer) == 2
    for text in ("14 9", "= 14 / 9", "14,9"):         # as the line takes them, groups or not
        dice, step = table_interval_dice(timer, text)
        assert step == "round 3" and dice == {"actor_dice": [20, 7, 14], "opponent_dice": [18, 15, 9]}
    assert timer.dice == {"actor_dice": [20, 7], "opponent_dice": [18, 15]}      # the timer itself unchanged


@pytest.mark.parametrize("text,said", [
    ("3 7 12 1", "cet intervalle lance 5 dés : 4 tapés"),
    ("3 7 12 1 5 6", "cet intervalle lance 5 dés : 6 tapés"),
    ("3 sept 12 1 5", "« sept » : une face de dé est un nombre"),
    ("3 7 13 1 5", "13"),
])
def test_faces_that_are_not_the_interval_are_refused_in_words(sessions, text, said) -> None:
    session = _mir_after_the_fight(sessions)
    timer = session.campaign.timers[0]
    message = faces_check(timer)(text)
    assert message is not None and said in message
    if said != "13":
        with pytest.raises(TableDiceError):
            table_interval_dice(timer, text)
    else:
        with pytest.raises(rules.RequestError):
            roll_table_interval(timer, text)
    assert faces_check(timer)("") is None and faces_check(timer)("3 7 12 1 5") is None


def test_the_form_asks_the_faces_and_empty_rolls_them(sessions) -> None:
    session = _mir_after_the_fight(sessions)
    timer = session.campaign.timers[0]
    form = interval_form(session.campaign, timer)
    assert form.fields[0].name == "dice" and "(5 ;" in form.fields[0].label
    rolled = roll_interval_as(timer, {"dice": ""})
    assert len(rolled.dice["rolls"][2]) == 5 and all(1 <= f <= 12 for f in rolled.dice["rolls"][2])
    typed = roll_interval_as(timer, {"dice": "12 12 1 1 1"})
    assert typed.dice["rolls"][2] == [12, 12, 1, 1, 1]
    assert table_dice_words({"dice": "= 12 12 1 1 1"}) == " = 12 12 1 1 1" and table_dice_words(None) == ""
