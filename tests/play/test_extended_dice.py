"""The next interval of an extended test with dice rolled at the table: the faces typed as the
quick-roll line takes them after `=`, put where the game's own interval puts its dice; checked
by the rules; kept in the timer on disk like a rolled interval."""

from __future__ import annotations

import pytest

from gmscreen import rules
from gmscreen.play.tables import table_for
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
    assert interval_size(timer, game=table_for("mir")) == 5
    rolled = roll_table_interval(timer, "= 3 7 12 1 5", game=table_for("mir"))
    assert rolled.step == "test 3" and rolled.dice["rolls"][2] == [3, 7, 12, 1, 5]
    assert rolled.dice["rolls"][:2] == timer.dice["rolls"]
    assert rolled.request == {**timer.request, **rolled.dice} and rolled.result == rules.resolve(rolled.request)
    _keep(session, 0, rolled)
    session = sessions.reopen(session)                  # kept on disk as a rolled interval is
    saved = session.campaign.timers[0]
    assert saved.dice["rolls"][2] == [3, 7, 12, 1, 5] and saved.status == rolled.status
    assert timer_progress(session.campaign, saved, game=table_for("mir")).startswith(f"{rolled.result['total_successes']}/8")


def test_a_magisphere_round_takes_one_d20_a_side(sessions) -> None:
    session = sessions.open("magisphere")
    timer = session.campaign.timers[0]                  # la Revanche: two rounds played
    assert interval_size(timer, game=table_for("magisphere")) == 2
    for text in ("14 9", "= 14 / 9", "14,9"):         # as the line takes them, groups or not
        dice, step = table_interval_dice(timer, text, game=table_for("magisphere"))
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
    message = faces_check(timer, game=table_for("mir"))(text)
    assert message is not None and said in message
    if said != "13":
        with pytest.raises(TableDiceError):
            table_interval_dice(timer, text, game=table_for("mir"))
    else:
        with pytest.raises(rules.RequestError):
            roll_table_interval(timer, text, game=table_for("mir"))
    assert faces_check(timer, game=table_for("mir"))("") is None and faces_check(timer, game=table_for("mir"))("3 7 12 1 5") is None


def test_the_form_asks_the_faces_and_empty_rolls_them(sessions) -> None:
    session = _mir_after_the_fight(sessions)
    timer = session.campaign.timers[0]
    form = interval_form(session.campaign, timer, game=table_for("mir"))
    assert form.fields[0].name == "dice" and "(5 ;" in form.fields[0].label
    rolled = roll_interval_as(timer, {"dice": ""}, game=table_for("mir"))
    assert len(rolled.dice["rolls"][2]) == 5 and all(1 <= f <= 12 for f in rolled.dice["rolls"][2])
    typed = roll_interval_as(timer, {"dice": "12 12 1 1 1"}, game=table_for("mir"))
    assert typed.dice["rolls"][2] == [12, 12, 1, 1, 1]
    assert table_dice_words({"dice": "= 12 12 1 1 1"}) == " = 12 12 1 1 1" and table_dice_words(None) == ""


# ---------------------------------------------------------------- Magisphère R18: each round its own skills


def test_rounds_added_up_as_the_rules_do_when_no_round_has_its_own() -> None:
    """The rounds' own sum (R19–R22 through each round's opposed roll) is the rules'
    `extended_opposed` outcome when every round uses the opposition's request."""
    import random

    from gmscreen.play.games.magisphere.timers import rounds_result

    request = {"system": "magisphere", "kind": "extended_opposed", "target": 3, "actor_stat": 10,
               "opponent_stat": 9, "opponent_skill": 4}
    rng = random.Random(5)
    for _ in range(200):
        whole = rules.resolve(request, seed=rng.randrange(10 ** 6))
        dice = {"actor_dice": whole["actor_dice"], "opponent_dice": whole["opponent_dice"]}
        whole = rules.resolve({**request, **dice})
        assert rounds_result(request, dice, []) == whole                   # no round of its own
        same = [{"actor_stat": request["actor_stat"]}] * len(dice["actor_dice"])  # each round its own
        assert rounds_result(request, dice, same) == whole                 # its luck too: the whole opposition's


def test_a_chase_alternates_skills_round_by_round(sessions) -> None:
    """R18: the GM names each round's skills; the round is the opposed roll of those, its points
    (R19) added to the opposition's, kept in the timer on disk."""
    from gmscreen.play.games.magisphere.timers import OPPOSITION

    session = sessions.open("magisphere")
    c = session.campaign
    timer = c.timers[0]                                  # 2 – 1 after two rounds, to 3
    fields = {f.name: f for f in OPPOSITION.round_fields(c, timer)}
    assert [fields[k].value for k in ("actor_stat", "actor_skill", "opponent_stat", "opponent_skill")] == \
        ["10", "0", "9", "4"]
    # Natation: Granok swims badly (stat 6), the gros Bob well (12 + 4): 16 + 6 = 22 against 10 + 16 = 26
    values = {"dice": "16 / 10", "label": "Natation", "actor_stat": "6", "actor_skill": "0",
              "opponent_stat": "12", "opponent_skill": "4"}
    assert OPPOSITION.round_fields_changed(timer, values)
    rolled = roll_interval_as(timer, values, game=table_for("magisphere"))
    assert rolled.request == {"system": "magisphere", "kind": "opposed", "actor_stat": 6, "actor_skill": 0,
                              "opponent_stat": 12, "opponent_skill": 4, "actor_dice": [16], "opponent_dice": [10]}
    assert rolled.result["winner"] == "opponent" and rolled.result["opponent_points"] == 1
    assert rolled.step == "round 3 (Natation)"
    assert rolled.round_stats == [{}, {}, {"actor_stat": 6, "actor_skill": 0, "opponent_stat": 12,
                                           "opponent_skill": 4, "label": "Natation"}]
    assert rolled.status == "running"                    # 2 – 2, where Force (26 against 23) ended it
    with_force = rules.resolve({**timer.request, "actor_dice": [20, 7, 16], "opponent_dice": [18, 15, 10]})
    assert with_force["winner"] == "actor" and with_force["actor_points"] == 3
    _keep(session, 0, rolled)
    session = sessions.reopen(session)
    saved = session.campaign.timers[0]
    assert saved.round_stats == rolled.round_stats
    assert timer_progress(session.campaign, saved, game=table_for("magisphere")) == "Granok 2 – 2 le gros Bob · en 3 · round 3"
    # the next round as the opposition says (r): Force again, added up with the Natation round
    from gmscreen.play.timers import roll_interval

    again = roll_interval(saved, game=table_for("magisphere"))
    assert again is not None and len(again.round_stats) == 4 and again.round_stats[3] == {}
    assert again.request["actor_stat"] == 10 and again.request["kind"] == "opposed"
    assert again.status in ("actor", "opponent", "running", "tie")


def test_a_campaign_with_rounds_of_their_own_validates(sessions) -> None:
    from gmscreen.campaign.validate import validate_file

    session = sessions.open("magisphere")
    timer = session.campaign.timers[0]
    rolled = roll_interval_as(timer, {"dice": "11 11", "label": "Natation", "actor_stat": "6", "actor_skill": "0",
                                      "opponent_stat": "12", "opponent_skill": "4"}, game=table_for("magisphere"))
    _keep(session, 0, rolled)
    session.save_now()
    text = session.path.read_text(encoding="utf-8")
    assert "round_stats" in text and "Natation" in text
    assert not [p for p in validate_file(session.path) if not p.warning]
    bad = text.replace('label = "Natation"', 'label = "Natation"\nactor_luck = 3').replace(
        'actor_stat = 6', 'actor_stat = 60')
    session.path.write_text(bad, encoding="utf-8")
    problems = {p.path: p.message for p in validate_file(session.path) if not p.warning}
    assert set(problems) == {"timers[0].round_stats[2].actor_luck", "timers[0].round_stats[2].actor_stat"}, problems
