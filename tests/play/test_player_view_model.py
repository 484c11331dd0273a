"""The player view's model: what players see of a session a GM plays in the same files.

A real GM session (open_session: lock, journal, roll log) plays on a sample copied on disk;
a `CampaignWatch` follows it from the files alone, as `gmscreen players` does."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gmscreen import rules
from gmscreen.campaign import CampaignError, load_campaign, parse_campaign, sample_path
from gmscreen.campaign.lock import lock_path
from gmscreen.campaign.model import RollRecord
from gmscreen.campaign.rolllog import rolls_path
from gmscreen.play import player_view
from gmscreen.play.encounter import next_turn
from gmscreen.play.player_view import PLAYED_FOR, CampaignWatch, player_state
from gmscreen.play.public import Visibility, public_result, visibility


def files_of(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file of the folder: its bytes and its mtime (ns)."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir()) if p.is_file()}


def roll(session, line: str, request: dict, *, gm_only: bool = False, who: str = "Loriane", seed: int = 3):
    return session.record_roll(who=who, line=line, request=request, result=rules.resolve(request, seed=seed),
                               gm_only=gm_only)


MIR = {"system": "mir", "kind": "simple", "pool": 5, "difficulty": 3}


def watch_on(session) -> CampaignWatch:
    watch = CampaignWatch(session.path)
    watch.open()
    return watch


def test_a_public_roll_shows_with_its_dice_and_outcome_in_the_games_words(sessions) -> None:
    gm = sessions.open("mir")
    watch = watch_on(gm)
    record = roll(gm, "loriane eloquence sd3", MIR)
    assert watch.poll()
    shown = watch.state().rolls[-1]
    assert (shown.seq, shown.who, shown.test) == (record.seq, "Loriane", "loriane eloquence sd3")
    assert shown.dice == " ".join(str(d) for d in record.result["dice"])
    assert shown.outcome == {"success": "réussite", "failure": "échec"}[record.result["outcome"]]
    assert "SD 3" in shown.detail and not shown.secret


def test_a_gm_only_roll_shows_nothing_until_revealed_then_everything(sessions) -> None:
    gm = sessions.open("mir")
    watch = watch_on(gm)
    secret = roll(gm, "alexis force sd3 mj", MIR, gm_only=True, who="Alexis")
    watch.poll()
    assert watch.state().rolls == ()
    marked = watch.state(show_secret=True).rolls
    assert len(marked) == 1 and marked[0].secret
    assert (marked[0].who, marked[0].test, marked[0].dice, marked[0].detail) == ("", "", "", "")
    assert marked[0].outcome == "jet secret du MJ"
    gm.reveal_roll(secret.seq)
    assert watch.poll()
    shown = watch.state().rolls[-1]
    assert (shown.seq, shown.who, shown.secret) == (secret.seq, "Alexis", False)
    assert shown.dice == " ".join(str(d) for d in secret.result["dice"])


def test_a_hidden_difficulty_shows_the_dice_and_outcome_but_never_the_difficulty(sessions) -> None:
    gm = sessions.open("tedeum")
    watch = watch_on(gm)
    request = {"system": "tedeum", "kind": "simple", "die": 12, "negative_die": 6, "difficulty": 13, "hidden": True}
    record = roll(gm, "louvensac entregent 13 cache", request, who="Louvensac")
    watch.poll()
    shown = watch.state().rolls[-1]
    assert shown.who == "Louvensac" and shown.outcome and shown.dice
    assert "13" not in " ".join((shown.test, shown.detail)) and shown.test == ""
    assert visibility(record) is Visibility.DIFFICULTY_HIDDEN
    assert "difficulty" not in public_result(record) and "margin" not in public_result(record)


def test_visibility_follows_reveal_gm_only_and_hidden() -> None:
    def rec(**kw) -> RollRecord:
        return RollRecord(1, "", 1, "x", "x", {}, {"outcome": "success", "difficulty": 3, "margin": 1,
                                                    "hidden": kw.pop("hidden", False)}, **kw)

    assert visibility(rec()) is Visibility.PUBLIC and public_result(rec())["difficulty"] == 3
    assert visibility(rec(gm_only=True)) is Visibility.SECRET and public_result(rec(gm_only=True)) == {}
    assert visibility(rec(hidden=True)) is Visibility.DIFFICULTY_HIDDEN
    assert public_result(rec(hidden=True)) == {"outcome": "success", "hidden": True}
    assert visibility(rec(gm_only=True, revealed=True)) is Visibility.PUBLIC


def test_the_turn_moved_by_the_gm_shows_from_the_journal_then_from_the_saved_file(sessions) -> None:
    gm = sessions.open("mir")
    watch = watch_on(gm)
    before = watch.state()
    assert before.round == 2 and before.current == "Le garde de la porte"
    next_turn(gm)                               # journalled only: X.toml is not saved yet
    assert watch.poll()
    assert watch.state().current == "Alexis"
    assert [e.name for e in watch.state().order if e.current] == ["Alexis"]
    gm.save_now()                               # saved whole, journal emptied
    watch.poll()
    assert watch.state().current == "Alexis"
    assert not watch.poll()                     # nothing changed: nothing to say


def test_public_conditions_show_with_their_rounds_but_not_the_gms_effect_note(sessions) -> None:
    gm = sessions.open("mir")
    state = watch_on(gm).state()
    alexis = next(e for e in state.order if e.name == "Alexis")
    callia = next(e for e in state.order if e.name == "Callia")
    assert alexis.conditions == ("Ébloui par la lanterne (1)",) and callia.conditions == ("Fièvre grise",)
    assert [t.progress for t in state.timers] == ["6/8 · test 2/3 · 1 jour", "3 rounds"]


def test_a_character_the_gm_hides_is_not_listed_nor_named_by_their_rolls(sessions) -> None:
    gm = sessions.open("mir")
    index = next(i for i, c in enumerate(gm.campaign.characters) if c.id == "garde")
    with gm.edit("hide") as b:
        b.set(("characters", index, "hidden"), True)
    roll(gm, "garde instinct sd2", MIR, who="Le garde de la porte")
    watch = watch_on(gm)
    state = watch.state()
    assert "Le garde de la porte" not in [e.name for e in state.order]
    assert state.current is None                # it is the guard's turn: nobody's, as players see it
    assert state.rolls[-1].who == "?" and state.rolls[-1].test == ""
    assert all("garde de la porte" not in r.outcome for r in state.rolls)
    gm.undo()                                   # shown again
    watch.poll()
    assert "Le garde de la porte" in [e.name for e in watch.state().order]


def test_the_hidden_flag_is_saved_only_when_true_and_validated(sessions, tmp_path: Path) -> None:
    gm = sessions.open("mir")
    with gm.edit("hide") as b:
        b.set(("characters", 0, "hidden"), True)
    gm.save_now()
    text = gm.path.read_text(encoding="utf-8")
    assert text.count("hidden = true") == 1
    assert load_campaign(gm.path).characters[0].hidden
    with gm.edit("show") as b:
        b.set(("characters", 0, "hidden"), False)
    gm.save_now()
    assert "hidden" not in gm.path.read_text(encoding="utf-8")
    bad = text.replace("hidden = true", 'hidden = "oui"')
    with pytest.raises(CampaignError) as err:
        parse_campaign(bad, "x.toml")
    assert "characters[0].hidden" in str(err.value.problems[0]) and "true ou false" in str(err.value.problems[0])


def test_watching_writes_nothing_creates_nothing_and_takes_no_lock(tmp_path: Path, sessions) -> None:
    gm = sessions.open("arpeges")
    gm.save_now()
    gm.close()
    assert not rolls_path(gm.path).exists()
    before = files_of(tmp_path)
    watch = watch_on(gm)
    for _ in range(3):
        watch.poll()
    watch.close()
    assert files_of(tmp_path) == before and not lock_path(gm.path).exists()


def test_a_look_reads_only_the_files_that_changed(sessions, monkeypatch: pytest.MonkeyPatch) -> None:
    gm = sessions.open("eclats")
    watch = watch_on(gm)
    reads: list[str] = []
    real_load = player_view.load_played
    monkeypatch.setattr(player_view, "load_played", lambda path: reads.append("state") or real_load(path))
    real_catch_up = player_view.RollLog.catch_up
    monkeypatch.setattr(player_view.RollLog, "catch_up", lambda log: reads.append("rolls") or real_catch_up(log))
    for _ in range(5):
        assert not watch.poll()
    assert reads == []
    request = {"system": "eclats", "kind": "simple", "characteristic": 2, "skill": 1, "threshold": 8}
    roll(gm, "shady negociation 8", request, who="Shady")
    roll(gm, "shady negociation 8", request, who="Shady", seed=4)
    assert watch.poll() and len(watch.state().rolls) == 2
    assert "state" not in reads


def test_an_unreadable_campaign_is_one_error_and_a_later_bad_save_keeps_the_last_good_state(tmp_path: Path,
                                                                                            sessions) -> None:
    with pytest.raises(CampaignError):
        CampaignWatch(tmp_path / "none.toml").open()
    gm = sessions.open("magisphere")
    watch = watch_on(gm)
    name = watch.state().name
    gm.close()
    gm.path.write_text("format = 1\nname = [", encoding="utf-8")
    os.utime(gm.path, ns=(1, 1))
    watch.poll()
    assert watch.state().name == name and watch.problem


def test_only_the_recent_rolls_are_kept(sessions) -> None:
    gm = sessions.open("mir")
    for seed in range(5):
        roll(gm, "loriane eloquence sd3", MIR, seed=seed)
    state = player_state(gm.campaign, gm.rolls, recent=3)
    assert [r.seq for r in state.rolls] == [3, 4, 5]


def test_the_view_says_when_the_gm_leaves_the_campaign_and_when_they_come_back(sessions) -> None:
    """The GM opening another campaign (ctrl+o) lets this one go: the view said nothing and
    stayed on it as if it were still played."""
    gm = sessions.open("mir")
    watch = watch_on(gm)
    assert watch.notice == ""
    gm.close()                                  # another campaign opened: this one's lock goes
    assert watch.poll() and "ne joue plus" in watch.notice
    assert watch.state() is not None            # what it showed stays, said to be where it was left
    again = sessions.reopen(gm)
    assert watch.poll() and watch.notice == ""
    again.close()


def test_a_command_holding_the_campaign_a_moment_is_not_the_gm_leaving(sessions) -> None:
    """`gmscreen line` and `turn` lock the campaign for a moment: the view said after each of
    them that the GM no longer played it. A lock held PLAYED_FOR seconds is a GM playing."""
    gm = sessions.open("mir")
    gm.close()
    now = [100.0]
    watch = CampaignWatch(gm.path, clock=lambda: now[0])
    watch.open()
    for held_for, said in ((0.3, False), (PLAYED_FOR, True)):
        command = sessions.reopen(gm)               # a command (or the GM's screen) takes the lock
        watch.poll()
        now[0] += held_for
        command.close()
        watch.poll()
        assert bool(watch.notice) is said, (held_for, watch.notice)


def test_another_games_campaign_in_the_file_keeps_each_roll_in_its_own_games_words(sessions) -> None:
    gm = sessions.open("mir")
    watch = watch_on(gm)
    record = roll(gm, "loriane eloquence sd3", MIR)
    watch.poll()
    before = watch.state().rolls[-1]
    gm.close()
    gm.path.write_bytes(sample_path("eclats").read_bytes())      # another game's campaign, same name
    assert watch.poll()
    state = watch.state()
    assert state.game == "Éclats" and "Éclats" in watch.notice and "La Hantise du moulin" in watch.notice
    shown = state.rolls[-1]
    assert shown.seq == record.seq and shown.dice == before.dice and shown.outcome == before.outcome
    assert shown.dice == " ".join(str(d) for d in record.result["dice"])      # MIR's dice, not vanished
