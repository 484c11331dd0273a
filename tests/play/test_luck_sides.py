"""Luck from every side that rolled (issue 22, gmscreen/docs/luck.md): the defender's dice count
for the defender, a helper's own dice for the helper, and a roll with no die has no luck: it is
said nowhere and missing from the mean. Played through the play core, read back from the log."""

from __future__ import annotations

import random

import pytest

from gmscreen.campaign.rolllog import RollLog, rolls_path
from gmscreen.play import luck_stats
from gmscreen.play.tables import table_for
from gmscreen.play.luck_words import luck_words
from gmscreen.play import Table
from gmscreen.play.table_roll import roll_line


def _tally(session, who: str) -> luck_stats.LuckTally:
    return next(t for t in luck_stats.tallies(luck_stats.counted(session.rolls), session.campaign.session)
                if t.who == who)


def test_the_defender_counts_the_roll_from_their_side(sessions) -> None:
    session = sessions.open("mir")
    table = Table(session)
    roll_line(session, "callia infiltration vs garde instinct = 12 12 9 8 1 | 1 1 1", table=table)
    [record] = session.rolls
    assert record.result["sides"]["opponent"] == "Le garde de la porte"
    assert record.result["winner"] == "actor" and 0 < record.result["luck"] < 0.01
    guard = _tally(session, "Le garde de la porte")
    [seen] = guard.rolls
    assert seen.side == luck_stats.OPPONENT and seen.success is False
    assert seen.luck == record.result["opponent_luck"] and seen.luck > 0.99         # the reversed order
    assert 0 < seen.chance < 1 and seen.chance == pytest.approx(1 - _tally(session, "Callia").rolls[0].chance)
    table_tally = luck_stats.tallies(luck_stats.counted(session.rolls), session.campaign.session)[0]
    assert [r.side for r in table_tally.rolls] == [luck_stats.ACTOR]                  # the table: once


def test_an_entry_without_opponent_luck_has_it_computed_from_its_request(sessions) -> None:
    session = sessions.open("mir")
    roll_line(session, "callia infiltration vs garde instinct = 12 12 9 8 1 | 1 1 1")
    record = session.rolls[0]
    logged = record.result["opponent_luck"]
    older = type(record)(**{**record.__dict__, "result": {k: v for k, v in record.result.items()
                                                           if k != "opponent_luck"}})
    assert luck_stats.opponent_luck(older) == logged


def test_a_roll_with_no_die_has_no_luck_said_or_counted(sessions) -> None:
    session = sessions.open("eclats")
    table = Table(session)
    roll_line(session, "ysaure agi calmer 3", table=table)                  # R5: the skill alone
    roll_line(session, "ysaure emp calmer 12", table=table, rng=random.Random(3))
    no_die, rolled = RollLog.load(rolls_path(session.path)).records          # as the file gives them back
    assert no_die.request["dice"] == [] and no_die.result.get("luck") is None
    assert luck_words(no_die.result) == "" and luck_words(no_die.result, notable=50) == ""
    ysaure = _tally(session, no_die.who)
    assert len(ysaure.rolls) == 2 and ysaure.lucks == [rolled.result["luck"]]


def test_an_extended_opposition_logs_one_measure_whatever_its_rounds(sessions) -> None:
    """A round with its own statistics (R18) and a plain round after it both log the standing
    of the whole opposition (its luck and the opponent's), never that round's own luck."""
    from gmscreen.play.games.magisphere.timers import rounds_result
    from gmscreen.play.interval_dice import roll_interval_as
    from gmscreen.play.timers import interval_log_fields, record_interval, roll_interval
    from gmscreen.rules import resolve

    session = sessions.open("magisphere")
    timer = session.campaign.timers[0]
    values = {"dice": "16 / 10", "label": "Natation", "actor_stat": "6", "actor_skill": "0",
              "opponent_stat": "12", "opponent_skill": "4"}
    own = roll_interval_as(timer, values, game=table_for("magisphere"))
    alone = resolve(own.request)                                       # the round as a roll of its own
    whole = rounds_result(timer.request, own.dice, own.round_stats)
    logged = interval_log_fields(session.campaign, timer, own)["result"]
    assert logged["luck"] == whole["luck"] != alone["luck"]
    assert logged["opponent_luck"] == whole["opponent_luck"] != alone["opponent_luck"]
    with session.edit(f"{timer.label} · {own.step}") as b:
        record_interval(b, 0, timer, own)
    saved = session.campaign.timers[0]
    plain = roll_interval(saved, game=table_for("magisphere"))
    assert plain is not None
    assert plain.result["luck"] == rounds_result(saved.request, plain.dice, plain.round_stats)["luck"]


def test_a_helper_with_dice_of_their_own_counts_the_roll_on_the_rollers_side(sessions) -> None:
    """MIR R9: the helpers roll their own dice for the roller; the roll counts for them too, with
    the roller's luck and success, since they are on the roller's side."""
    session = sessions.open("mir")
    roll_line(session, "alexis force sd4 aide loriane", rng=random.Random(7))
    [record] = session.rolls
    assert record.result["sides"]["helpers"] == ["Loriane"]
    alexis, loriane = _tally(session, record.who).rolls, _tally(session, "Loriane").rolls
    assert [r.side for r in loriane] == [luck_stats.HELPER]
    assert (loriane[0].luck, loriane[0].success, loriane[0].chance) == (alexis[0].luck, alexis[0].success,
                                                                         alexis[0].chance)
