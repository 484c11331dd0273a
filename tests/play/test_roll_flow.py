"""The roll flow with no screen (`gmscreen.play.table_roll`): a line read, its choices answered by
key or by the odds' policy, the roll logged on disk, its spending one undoable change, the
roll shown while a choice is open kept in `X.pending.toml`. Real campaigns in tmp_path."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from gmscreen.campaign import open_session, sample_path
from gmscreen.campaign.pending import pending_path, read_pending
from gmscreen.campaign.rolllog import RollLog, rolls_path
from gmscreen.play.tables import table_for
from gmscreen.play.quickroll import QuickRollError
from gmscreen.play import Table
from gmscreen.play.table_roll import ChoiceError, TableRoll, read_line, roll_line
from gmscreen.rules import resolve

from _notices import notices


@pytest.fixture
def table(tmp_path: Path):
    """`table(system)`: an open session on a copy of that system's sample, closed afterwards."""
    opened = []

    def open_on(system: str):
        path = tmp_path / f"{system}.toml"
        shutil.copyfile(sample_path(system), path)
        session = open_session(path)
        opened.append(session)
        return session

    yield open_on
    for session in opened:
        session.close()


def logged(session) -> list:
    """The roll log as the file holds it (not the session's memory)."""
    return RollLog.load(rolls_path(session.path)).records


def seed_where(session, line: str, asks: bool) -> int:
    """A dice seed for which `line` asks a choice once its first dice are shown (or does not)."""
    draft = read_line(session.campaign, line)
    return next(s for s in range(300)
                if (TableRoll(session, draft, rng=random.Random(s)).flow.start().prompt is not None) == asks)


def impulsion(session) -> int:
    return session.campaign.character("shady").sheet["resources"]["impulsion"]


def test_a_line_is_rolled_and_logged_on_disk(table) -> None:
    session = table("mir")
    roll = roll_line(session, "loriane éloquence sd3", rng=random.Random(5))
    record = roll.record
    assert record is not None and record.line == "loriane éloquence sd3" and record.who == "Loriane"
    on_disk = logged(session)
    assert [r.seq for r in on_disk] == [record.seq] and on_disk[0].result == roll.result
    assert resolve(record.request, seed=record.seed) == roll.result      # the log replays the roll
    assert roll.spends == [] and not pending_path(session.path).exists()


def test_a_line_that_does_not_read_logs_nothing(table) -> None:
    session = table("mir")
    with pytest.raises(QuickRollError):
        roll_line(session, "zorglub éloquence sd3")
    with pytest.raises(QuickRollError, match="SD manquant"):
        roll_line(session, "loriane éloquence")                       # no difficulty typed
    assert logged(session) == [] and session.rolls == []


def test_magisphere_impulsion_follows_the_odds_policy_and_is_undoable(table) -> None:
    session = table("magisphere")
    line = "shady négo 40"                                            # fails unless a natural 20
    before = impulsion(session)
    roll = roll_line(session, line, rng=random.Random(seed_where(session, line, asks=True)))
    spent = roll.result["impulsions_spent"]
    # The odds' policy rerolls while the roll fails and points remain: all of Shady's points here.
    assert len(roll.flow.request["dice"]) == spent + 1 and spent == before
    assert impulsion(session) == before - spent
    assert [s.path[-1] for s in roll.spends] == ["impulsion"]
    assert logged(session)[0].pending is not None and not pending_path(session.path).exists()
    undone = session.undo()
    assert undone is not None and undone.label == f"Impulsion −{spent} → Shady"
    assert impulsion(session) == before and len(logged(session)) == 1   # the roll stays logged


def test_keys_given_override_the_policy(table) -> None:
    session = table("magisphere")
    line = "shady négo 40"
    seed = seed_where(session, line, asks=True)
    kept = roll_line(session, line, keys=["g"], rng=random.Random(seed))
    assert len(kept.flow.request["dice"]) == 1 and kept.spends == [] and impulsion(session) == 2
    by_enter = roll_line(session, line, policy="enter", rng=random.Random(seed))
    dice = by_enter.flow.request["dice"]                              # Enter rerolls a failure: the odds' way
    assert len(dice) > 1 and all(resolve({**by_enter.flow.request, "dice": dice[:n]})["outcome"] != "success"
                                 for n in range(1, len(dice)))
    session.campaign.character("shady").sheet["resources"]["impulsion"] = 2     # the points back
    with pytest.raises(ChoiceError, match="'x'"):
        roll_line(session, line, keys=["x"], rng=random.Random(seed))
    # The bad key is found before any die is shown: nothing logged, nothing kept.
    assert len(logged(session)) == 2 and not pending_path(session.path).exists()


def test_a_key_too_many_is_refused_before_the_roll_and_the_right_keys_roll_the_same_dice(table) -> None:
    """`--choose` with one key more than the roll asks used to log the roll at its default
    (the reroll made thrown away), then fail."""
    session = table("magisphere")
    line = "shady négo 40"                                            # fails unless a natural 20
    seed = seed_where(session, line, asks=True)
    asked = roll_line(session, line, keys=["r"], policy="enter", rng=random.Random(seed))
    session.undo()                                                    # the Impulsion back
    keys = [option.key for _prompt, option in asked.answers]          # a key for each prompt
    assert len(logged(session)) == 1
    with pytest.raises(ChoiceError, match=r"^1 choix en trop \('g'\) : le jet n'en demandait plus$"):
        roll_line(session, line, keys=keys + ["g"], rng=random.Random(seed))
    assert len(logged(session)) == 1 and not pending_path(session.path).exists()
    assert impulsion(session) == 2                                    # nothing spent
    again = roll_line(session, line, keys=keys, rng=random.Random(seed))
    assert again.flow.request["dice"] == asked.flow.request["dice"] and len(again.flow.request["dice"]) >= 2
    assert logged(session)[-1].request["dice"] == again.flow.request["dice"]   # the reroll logged


def test_tedeum_providence_asked_before_the_dice(table) -> None:
    session = table("tedeum")
    sheet = session.campaign.character("louvensac").sheet
    plain = roll_line(session, "louvensac charme 13", rng=random.Random(1))
    assert plain.result["providence_roll"] is None and sheet["resources"]["providence"] == 6   # odds: without
    called = roll_line(session, "louvensac charme 13", keys=["p"], rng=random.Random(1))
    assert called.result["providence_roll"] is not None
    assert sheet["resources"]["providence"] == 4                                  # D6 → D4
    assert session.undo() is not None and sheet["resources"]["providence"] == 6
    # A bad key before any die: nothing logged, nothing kept.
    with pytest.raises(ChoiceError):
        roll_line(session, "louvensac charme 13", keys=["r"])
    assert len(logged(session)) == 2 and not pending_path(session.path).exists()


def test_a_choice_prompt_answered_step_by_step(table) -> None:
    session = table("eclats")
    line = "ysaure emp calmer 9"
    seed = seed_where(session, line, asks=True)
    roll = TableRoll(session, read_line(session.campaign, line), rng=random.Random(seed)).start()
    assert roll.prompt is not None and roll.shown
    kept = read_pending(pending_path(session.path))                   # on disk before anyone sees it
    assert kept is not None and kept.request["dice"] == roll.flow.request["dice"]
    assert not roll.choose("z") and roll.prompt is not None           # not an option: nothing happens
    assert roll.choose("r") and len(roll.flow.request["dice"]) == 2
    roll.play(policy=None)                                            # no key, no policy: still open
    if roll.prompt is not None:
        assert roll.choose("enter")
    record = roll.finish()
    assert record is not None and record.pending == kept.id and record.request["dice"] == roll.flow.request["dice"]
    assert logged(session)[0].result == roll.result and not pending_path(session.path).exists()


def test_eclats_odds_policy_rerolls_while_the_stop_fails(table) -> None:
    session = table("eclats")
    for seed in range(20):
        roll = roll_line(session, "ysaure emp calmer 9", rng=random.Random(seed))
        dice = roll.flow.request["dice"]
        assert roll.result["outcome"] == "success" or len(dice) == roll.flow.request["characteristic"]
        for n in range(1, len(dice)):                                 # every die rerolled was failing
            assert resolve({**roll.flow.request, "dice": dice[:n]})["outcome"] != "success"


def test_arpeges_parry_answered_by_the_odds(table) -> None:
    session = table("arpeges")
    line = "thibault baratin -3 vs marchand baratin"
    roll = roll_line(session, line, rng=random.Random(seed_where(session, line, asks=True)))
    assert roll.flow.request["opponent_chance_dice"] and "parry" not in roll.flow.request   # parried
    passed = roll_line(session, line, keys=["n"], rng=random.Random(seed_where(session, line, asks=True)))
    assert passed.flow.request["parry"] is False and resolve(passed.flow.request) == passed.result


def test_an_abandoned_roll_before_any_die_logs_nothing(table) -> None:
    session = table("tedeum")
    roll = TableRoll(session, read_line(session.campaign, "louvensac charme 13")).start()
    assert roll.prompt is not None and not roll.shown
    assert roll.abandon() is None and logged(session) == [] and not pending_path(session.path).exists()


def test_an_extended_test_starts_its_timer_undoably(table) -> None:
    session = table("mir")
    timers = len(session.campaign.timers)
    with session.edit("Fin du combat") as b:                          # R20: a day-long test waits for it
        b.set(("encounter", "round"), 0)
    roll = roll_line(session, "loriane guérison 8 jour max3", rng=random.Random(2))
    timer = session.campaign.timers[-1]
    assert roll.timer == timer.id and len(session.campaign.timers) == timers + 1
    assert timer.dice["rolls"] == roll.result["rolls"] and len(timer.dice["rolls"]) == 1
    assert session.undo().label.startswith("Minuteur :") and len(session.campaign.timers) == timers


@pytest.mark.parametrize("interval", ["jour", "heure", "semaine", "tour"])
def test_mir_r20_the_line_refuses_a_long_extended_test_during_a_fight_as_r_does(table, interval: str) -> None:
    """R20: during a fight only a Simple extended test (1 tour) is rolled. `r` refused the next
    interval of a day-long test, while the line started one (its first interval rolled): the
    line now gives the same refusal, and rolls nothing."""
    from gmscreen.campaign.model import Timer
    from gmscreen.play.table_roll import Refused
    from gmscreen.play.timers import interval_refusal

    session = table("mir")
    campaign = session.campaign
    assert campaign.encounter.round > 0                              # the sample is in a fight
    line = f"loriane guérison 8 {interval} max3"
    draft = read_line(campaign, line)
    as_a_timer = Timer(id="", label=draft.timer["label"], kind="extended", who="loriane", request=draft.request)
    said = interval_refusal(campaign, as_a_timer, game=table_for("mir"))                     # what `r` says on that timer
    timers = len(campaign.timers)
    if interval == "tour":                                            # a Simple one: allowed
        assert said is None and roll_line(session, line).timer is not None
        return
    assert said is not None and said.startswith("R20 : pendant un combat")
    with pytest.raises(Refused) as refused:
        roll_line(session, line, rng=random.Random(2))
    assert str(refused.value) == said
    with pytest.raises(Refused):                                      # the tray's way in too
        TableRoll(session, draft, rng=random.Random(2)).start()
    assert logged(session) == [] and len(campaign.timers) == timers and not pending_path(session.path).exists()


def test_a_read_only_session_shows_the_roll_and_says_it_is_not_kept(table, tmp_path: Path) -> None:
    first = table("mir")
    second = open_session(first.path)                                 # the lock is held: read-only
    try:
        assert second.read_only
        sink = Table(second)
        told = notices(sink)
        roll = roll_line(second, "loriane éloquence sd3", table=sink)
        assert roll.result is not None and logged(second) == []
        assert "campagne en lecture seule : le jet est montré mais pas enregistré" in told
    finally:
        second.close()


def test_the_roll_says_which_choices_were_made(table) -> None:
    session = table("tedeum")
    roll = roll_line(session, "louvensac charme 13", keys=["p"], rng=random.Random(1))
    assert [(option.key, option.action) for _, option in roll.answers] == [("p", "providence")]
    assert "Providence" in roll.answers[0][0].question
    plain = roll_line(session, "louvensac charme 13", rng=random.Random(1))
    assert [option.key for _, option in plain.answers] == ["n"]       # the policy, said as its key
