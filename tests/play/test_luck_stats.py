"""Luck over time: successes against the exact expectation, and the streak's exact tails, on a
session played through the play core and on records whose luck the test sets itself."""

from __future__ import annotations

import itertools
import random

import pytest

from gmscreen import i18n
from gmscreen.campaign.model import RollRecord
from gmscreen.play import luck_stats
from gmscreen.play.luck_stats import BLESSED, CURSED, FAIR, TABLE
from gmscreen.play import Table
from gmscreen.play.table_roll import roll_line
from gmscreen.rules import odds, success_chance

from _notices import notices


def _brute_law(chances: list[float]) -> list[float]:
    """P(k successes), by enumerating every pattern of outcomes."""
    law = [0.0] * (len(chances) + 1)
    for pattern in itertools.product((0, 1), repeat=len(chances)):
        p = 1.0
        for hit, c in zip(pattern, chances):
            p *= c if hit else 1 - c
        law[sum(pattern)] += p
    return law


def test_the_law_of_successes_is_exact() -> None:
    chances = [0.9, 0.25, 0.5, 0.0625, 1.0, 0.3]
    assert luck_stats.success_law(chances) == pytest.approx(_brute_law(chances), abs=1e-15)


def _record(seq: int, who: str, luck: float | None, outcome: str = "success", session: int = 3,
            gm_only: bool = False) -> RollRecord:
    request = {"system": "mir", "kind": "simple", "pool": 6, "difficulty": 2}
    result = {"system": "mir", "kind": "simple", "outcome": outcome}
    if luck is not None:
        result["luck"] = luck
    return RollRecord(seq, "2026-01-01T20:00:00+01:00", session, who, "6d12 sd2", request, result, gm_only)


def test_mean_luck_and_the_luckiest_and_unluckiest_rolls_come_from_each_result() -> None:
    records = [_record(1, "Alexis", 0.04), _record(2, "Alexis", 0.5), _record(3, "Loriane", 0.97, "failure"),
               _record(4, "Loriane", None), _record(5, "Alexis", 0.3, session=2)]
    rolls = luck_stats.counted(records)
    table, alexis, loriane = luck_stats.tallies(rolls, 3)
    assert (table.who, alexis.who, loriane.who) == (TABLE, "Alexis", "Loriane")
    assert alexis.mean_luck == pytest.approx(0.27)
    assert loriane.mean_luck == pytest.approx(0.97) and len(loriane.rolls) == 2 and loriane.lucks == [0.97]
    assert table.luckiest.seq == 1 and table.unluckiest.seq == 3
    # Every roll is a trial of chance odds(6d12 sd2), whether or not it has a luck.
    chance = success_chance(odds({"system": "mir", "kind": "simple", "pool": 6, "difficulty": 2}))
    assert loriane.expected == pytest.approx(2 * chance) and loriane.successes == 1
    series = luck_stats.over_time(rolls)
    assert [t.session for t in series["Alexis"]] == [2, 3]
    assert [len(t.rolls) for t in series[TABLE]] == [1, 4]


def test_a_gm_only_roll_counts_only_when_asked() -> None:
    records = [_record(1, "Alexis", 0.5), _record(2, "Alexis", 0.01, gm_only=True)]
    assert [r.seq for r in luck_stats.counted(records)] == [1]
    assert [r.seq for r in luck_stats.counted(records, include_masked=True)] == [1, 2]


def test_a_cursed_evening_played_at_the_table_is_named_with_its_own_numbers(sessions) -> None:
    session = sessions.open("mir")
    table = Table(session)
    told = notices(table)
    for _ in range(4):          # 5 dice for SD 2 while dazzled (−1 dé), every die a 1: four failures
        roll_line(session, "alexis tir sd2 = 1 1 1 1 1", table=table)
    roll_line(session, "loriane eloquence sd3", table=table, rng=random.Random(5))
    assert told == []
    _table, alexis, _loriane = luck_stats.tallies(luck_stats.counted(session.rolls), session.campaign.session)
    request = {k: v for k, v in session.rolls[0].request.items() if k != "dice"}     # the dice forced
    chance = success_chance(odds(request))
    assert alexis.successes == 0 and alexis.expected == pytest.approx(4 * chance)
    low, high = alexis.tails()
    assert low == pytest.approx((1 - chance) ** 4) and high == 1.0
    assert alexis.verdict == CURSED
    i18n.set_language("en")
    said = luck_stats.verdict_sentence(alexis)
    assert said.startswith("Alexis: the dice are cursed: 0 successes out of 4 rolls where fair dice give")
    assert luck_stats.one_in(low) in said
    i18n.set_language("fr")
    assert "maudits" in luck_stats.verdict_sentence(alexis)


def test_verdicts_each_way() -> None:
    def tally(successes: int, n: int, chance: float) -> luck_stats.LuckTally:
        rolls = [luck_stats.RollLuck(i, 1, "x", "", None, chance, i < successes) for i in range(n)]
        return luck_stats.LuckTally("x", 1, rolls)

    assert tally(10, 10, 0.5).verdict == BLESSED
    assert tally(5, 10, 0.5).verdict == FAIR
    assert tally(0, 10, 0.5).verdict == CURSED
    assert luck_stats.LuckTally("x", 1).verdict == luck_stats.UNKNOWN


def test_a_fair_verdict_says_the_chance_of_the_side_it_went() -> None:
    """One roll failed at 70 %: "this bad or worse happens 30 % of the time" (its own tail), not
    a two-sided figure that reads 60 % or, for a success, 100 %."""
    def tally(successes: int, n: int, chance: float) -> luck_stats.LuckTally:
        rolls = [luck_stats.RollLuck(i, 1, "x", "", None, chance, i < successes) for i in range(n)]
        return luck_stats.LuckTally("x", 1, rolls)

    i18n.set_language("en")
    low = tally(0, 1, 0.7)
    assert low.verdict == FAIR
    assert "this bad or worse happens 30" in luck_stats.verdict_sentence(low)
    high = tally(1, 1, 0.7)
    assert "this good or better happens 70" in luck_stats.verdict_sentence(high)
    i18n.set_language("fr")
    assert "aussi mal ou pire, cela arrive 30" in luck_stats.verdict_sentence(low)


def test_what_counts_as_a_success_and_what_is_not_yet_decided() -> None:
    assert luck_stats.success_of({"outcome": "critical_success"}) is True
    assert luck_stats.success_of({"outcome": "automatic_failure"}) is False
    assert luck_stats.success_of({"winner": "actor"}) is True and luck_stats.success_of({"winner": "tie"}) is False
    assert luck_stats.success_of({"outcome": "pending"}) is None          # an extended test's interval
    assert luck_stats.success_of({"winner": "pending"}) is None
    assert luck_stats.success_of({"total": 7}) is None                    # a plain dice expression
