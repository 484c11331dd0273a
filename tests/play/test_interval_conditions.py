"""An extended test re-reads its roller's conditions at each interval (MIR spec, kind `extended`,
`test_modifiers`): the timer keeps the request as typed and what the conditions changed at each
test, so a one-round dazzle gone gives its die back and a wound taken meanwhile costs one. On a
sample campaign on disk, through the line that starts the test and the turns of the fight."""

from __future__ import annotations


import pytest

from gmscreen.campaign.model import Condition
from gmscreen.play.tables import table_for
from gmscreen.play.encounter import next_turn
from gmscreen.play.table_roll import roll_line
from gmscreen.play.timers import record_interval, roll_interval
from gmscreen.rules import resolve


SEED = 1          # three tests in, still undecided (seeds 4 and 5 end it at the second)


@pytest.fixture(autouse=True)
def _steady_dice(monkeypatch):
    """The intervals roll from a fixed seed: a random roll could end the extended test at
    its second test, before the wound this test takes at the third."""
    class Seeded:
        def getrandbits(self, bits: int) -> int:
            return SEED

    monkeypatch.setattr("gmscreen.play.timers.random.SystemRandom", Seeded)


def _roll(session, index: int):
    timer = session.campaign.timers[index]
    rolled = roll_interval(timer, session.campaign, game=table_for(session.campaign.system))
    assert rolled is not None
    with session.edit(f"{timer.label} · {rolled.step}") as b:
        record_interval(b, index, timer, rolled)
    return rolled


def test_a_dazzle_gone_and_a_wound_taken_change_the_dice_of_the_next_tests(sessions):
    session = sessions.open("mir")                   # a fight runs (round 2, the guard's turn)
    c = session.campaign
    roll = roll_line(session, "alexis tir 9 tour = 7 8 1 2 3")     # Tir 3 + Peur 3, Ébloui −1 dé: 5 dice
    index = [t.id for t in c.timers].index(roll.timer)
    timer = c.timers[index]
    assert roll.record.request["modifier"] == -1 and roll.record.result["dice_per_test"] == 5
    # The timer keeps the request as typed, and the dazzle's change at the first test.
    assert "modifier" not in timer.request and timer.request["test_modifiers"] == [-1]
    assert resolve({**timer.request, **timer.dice})["dice_per_test_made"] == [5]

    next_turn(session)                               # Alexis plays ...
    next_turn(session)                               # ... and his one round of dazzle is over
    assert [x.name for x in c.character("alexis").conditions] == []
    second = _roll(session, index)
    assert len(second.dice["rolls"][1]) == 6 and second.request["test_modifiers"] == [-1, 0]
    assert "conditions" not in second.result

    with session.edit("Blessé") as b:                # a wound (R4, in a fight: it bites)
        b.insert(("characters", 0, "conditions"), None, Condition("Blessé", "blessure −1 dé"))
    third = _roll(session, index)
    assert len(third.dice["rolls"][2]) == 5
    assert c.timers[index].request["test_modifiers"] == [-1, 0, -1]
    assert third.result["dice_per_test_made"][:3] == [5, 6, 5]
    assert third.result["conditions"] == {"applied": ["Alexis · Blessé: blessure −1 dé"]}

    session.undo()                                   # the third interval given back, with its change
    assert c.timers[index].request["test_modifiers"] == [-1, 0] and len(c.timers[index].dice["rolls"]) == 2
    session.redo()
    session = sessions.reopen(session)               # kept on disk, as the rules read it
    saved = session.campaign.timers[index]
    assert saved.request["test_modifiers"] == [-1, 0, -1]
    assert resolve({**saved.request, **saved.dice})["dice_per_test_made"][:3] == [5, 6, 5]


def test_a_wound_outside_a_fight_waits_for_one_and_a_timer_kept_before_is_read_as_it_was(sessions):
    session = sessions.open("mir")
    c = session.campaign
    with session.edit("Fin du combat") as b:
        b.set(("encounter", "round"), 0)
        b.insert(("characters", 1, "conditions"), None, Condition("Blessée", "blessure −1 dé"))
    roll = roll_line(session, "loriane guérison 8 jour = 7 8 1 2 3")   # Guérison 2 + Héritage 3
    index = [t.id for t in c.timers].index(roll.timer)
    assert roll.record.result["conditions"]["reminded"][0].startswith("Loriane · Blessée: blessure −1 dé (R4")
    assert c.timers[index].request["test_modifiers"] == [0]
    second = _roll(session, index)
    assert len(second.dice["rolls"][1]) == 5 and c.timers[index].request["test_modifiers"] == [0, 0]
    # The sample's own timer re-reads too (its wound waits for a fight) ...
    sample = roll_interval(c.timers[0], c, game=table_for("mir"))
    assert sample is not None and sample.timer_request["test_modifiers"] == [0, 0, 0]
    assert len(sample.dice["rolls"][2]) == 5 and sample.result["conditions"]["reminded"]
    # ... and one kept before conditions were re-read (no test_modifiers) is read as it was.
    legacy = c.timers[0]
    del legacy.request["test_modifiers"]
    rolled = roll_interval(legacy, c, game=table_for("mir"))
    assert rolled is not None and rolled.timer_request is None and len(rolled.dice["rolls"][2]) == 5


def test_each_round_of_an_extended_opposition_takes_the_conditions_as_they_stand(sessions):
    session = sessions.open("magisphere")
    c = session.campaign
    roll = roll_line(session, "granok puissance force vs bob puissance force tendue = 12 / 12")
    index = [t.id for t in c.timers].index(roll.timer)
    # Granok's Bras engourdi (Malus 1) is the gros Bob's bonus in this round, and in its own settings.
    assert roll.record.request["opponent_bonus"] == 1 and roll.record.result["opponent_points"] == 1
    timer = c.timers[index]
    assert "opponent_bonus" not in timer.request and timer.round_stats == [{"opponent_bonus": 1}]
    assert resolve({**timer.request, "actor_dice": [12], "opponent_dice": [12],
                    "opponent_bonus": 1})["opponent_points"] == 1

    with session.edit("Le bras revient") as b:
        b.delete(("characters", 1, "conditions"), 0)
    second = _roll(session, index)
    assert "opponent_bonus" not in second.request and "conditions" not in second.result
    assert c.timers[index].round_stats == [{"opponent_bonus": 1}, {}]
