"""The GM's flows on the live table, with no screen: each game's choices inside a roll answered
by their keys, a roll given up before and after its dice, settled on close or ended by a rules
error; the GM-only flag and the players watching; undo and redo held while a roll waits; a
reveal; the turn and who joins the fight. Each test is the twin of a screen test (named in its
docstring) and decides what that test decides, on the same sample, line and dice seed (the tray's
`rng=random.Random(seed)` is the table's `rng=`): the screen tests keep what needs a screen."""

from __future__ import annotations

import random
from typing import Any, Callable

import pytest

from gmscreen.i18n import _
from gmscreen.campaign.pending import pending_path, read_pending
from gmscreen.play import events as ev
from gmscreen.play.encounter import end_fight
from gmscreen.play.joins import NEXT_ROUND, THIS_ROUND
from gmscreen.play.public import OPPONENT, Visibility
from gmscreen.play.quickroll import RollFlow, parse
from gmscreen.play.table import Table
from gmscreen.rules import RequestError


def seed_where(table: Table, line: str, want: Callable[[RollFlow], Any] = lambda f: f.prompt is not None) -> int:
    """The first dice seed whose roll of `line`, once started, is what `want` asks (by default:
    it asks a choice), as the screen tests find theirs."""
    draft = parse(line, table.session.campaign)
    for seed in range(500):
        if want(RollFlow(draft, random.Random(seed)).start()):
            return seed
    raise AssertionError(f"no seed for {line!r}")


def reseed(table: Table, line: str, want: Callable[[RollFlow], Any] = lambda f: f.prompt is not None) -> None:
    table.rng = random.Random(seed_where(table, line, want))


def sheet(table: Table, char_id: str) -> dict[str, Any]:
    return table.session.campaign.character(char_id).sheet


def order(table: Table) -> list[str]:
    return [e.id for e in table.session.campaign.encounter.entries]


def current(table: Table) -> str:
    enc = table.session.campaign.encounter
    return enc.entries[enc.turn].id


def hide(table: Table, char_id: str) -> None:
    """Keep a character from the players (as the roster's `H` does)."""
    index = next(i for i, ch in enumerate(table.session.campaign.characters) if ch.id == char_id)
    assert table.change("caché", lambda b: b.set(("characters", index, "hidden"), True))


# ---------------------------------------------------------------- Te Deum: Providence


def test_tedeum_the_defender_is_asked_for_providence_and_p_spends_it(open_table) -> None:
    """Twin of test_tray_choices::test_the_defender_is_asked_for_providence_with_one_key."""
    table, heard = open_table("tedeum", seed=1)
    table.submit("saint-gelais escrime attaque vs louvensac escrime")
    (asked,) = heard.of(ev.PromptOpened)
    assert asked.prompt.question.startswith("Mlle de Louvensac se défend avec la Providence")
    assert asked.prompt.option("p") is not None and asked.result is None and table.session.rolls == []
    assert table.choose("p") and not table.roll_waiting
    record = table.session.rolls[-1]
    assert record.request["opponent_use_providence"] is True and len(record.result["opponent_providence_dice"]) == 1
    assert sheet(table, "louvensac")["resources"]["providence"] == 4
    assert table.undo() and sheet(table, "louvensac")["resources"]["providence"] == 6


def test_tedeum_both_sides_are_asked_in_order(open_table) -> None:
    """Twin of test_tray_choices::test_a_burst_of_keys_answers_both_sides_in_order: the actor
    first (n), then the defender (p)."""
    table, heard = open_table("tedeum", seed=1)
    table.session.campaign.character("saint-gelais").side = "party"
    table.submit("saint-gelais étiquette vs louvensac étiquette")
    assert table.prompt.question.startswith("le capitaine de Saint-Gelais appelle la Providence")
    assert table.choose("n") and table.prompt.question.startswith("Mlle de Louvensac appelle la Providence")
    assert table.choose("p") and not table.roll_waiting
    record = table.session.rolls[-1]
    assert "actor_use_providence" not in record.request and record.request["opponent_use_providence"] is True
    assert sheet(table, "louvensac")["resources"]["providence"] == 4
    assert sheet(table, "saint-gelais")["resources"]["providence"] == 4
    assert len(heard.of(ev.PromptOpened)) == 2 and len(heard.of(ev.RollLogged)) == 1


def test_tedeum_providence_is_asked_before_any_die_and_escape_logs_nothing(open_table) -> None:
    """Twin of test_dice_tray::test_tedeum_providence_called_with_one_key and of
    test_dice_tray_english::test_a_providence_prompt_in_english (escape before any die)."""
    table, heard = open_table("tedeum", seed=1)
    table.submit("louvensac charme 13")
    asked = heard.of(ev.PromptOpened)[-1]
    assert "Providence" in asked.prompt.question and asked.result is None
    assert asked.prompt.option("enter").key == "n"                  # Enter: without
    assert heard.of(ev.RollShown) == []                             # no die on the table yet
    table.cancel_roll()
    (ended,) = heard.of(ev.RollEnded)
    assert ended.record is None and not ended.kept and table.session.rolls == []
    assert not pending_path(table.session.path).exists()
    table.submit("louvensac charme 13")
    assert table.choose("p")
    record = table.session.rolls[-1]
    assert record.request["use_providence"] is True and len(record.result["providence_dice"]) == 1
    assert sheet(table, "louvensac")["resources"]["providence"] == 4
    assert table.undo() and sheet(table, "louvensac")["resources"]["providence"] == 6


def test_tedeum_forced_dice_with_the_providence_word_spend_and_earn(open_table) -> None:
    """Twin of test_dice_tray::test_tedeum_forced_dice_with_providence_word."""
    table, heard = open_table("tedeum")
    table.submit("louvensac charme 13 providence sans essoufflée = 12 5 4")    # her D12 whole
    assert heard.of(ev.PromptOpened) == []
    record = table.session.rolls[-1]
    assert record.result["total"] == 26 and record.result["outcome"] == "critical_success"
    assert record.result["xp"] == 1 and record.seed is None
    assert sheet(table, "louvensac")["resources"]["providence"] == 4 and sheet(table, "louvensac")["xp"]["entregent"] == 1


# ---------------------------------------------------------------- Magisphère: Impulsion, rewards, help


def test_magisphere_a_natural_20_offers_its_reward_with_the_die_shown(open_table) -> None:
    """Twin of test_tray_choices::test_a_natural_20_offers_its_reward_in_the_tray."""
    table, heard = open_table("magisphere")
    sheet(table, "shady")["resources"]["impulsion"] = 1
    table.submit("shady négo 25 = 20")
    shown, asked = heard.of(ev.RollShown)[-1], heard.of(ev.PromptOpened)[-1]
    assert shown.pending and shown.record is None and shown.result["natural"] == 20
    assert "20 naturel" in asked.prompt.question and {o.key for o in asked.prompt.options} == {"i", "a"}
    assert table.choose("i") and not table.roll_waiting
    assert sheet(table, "shady")["resources"]["impulsion"] == 2
    assert table.undo() and sheet(table, "shady")["resources"]["impulsion"] == 1


def test_magisphere_a_helper_without_the_skill_asks_the_bonus_by_a_digit(open_table) -> None:
    """Twin of test_tray_choices::test_a_helper_in_a_test_no_skill_fits_asks_the_bonus_by_a_digit:
    R24, each digit with the chance it leaves (the typed 14: +3 reaches 25 + Ivre's 3)."""
    table, _heard = open_table("magisphere")
    table.submit("shady pre 25 aide granok = 14")
    prompt = table.prompt
    assert "R24" in prompt.question and prompt.option("enter").key == "0"
    assert prompt.option("0").text.startswith("+0 0") and prompt.option("3").text.startswith("+3 100")
    assert table.choose("3")
    record = table.session.rolls[-1]
    assert record.request["bonus"] == 3 and record.result["score"] == 14 + 11 + 3
    assert record.result["outcome"] == "success"


def test_magisphere_reroll_options_carry_their_chances_and_g_keeps(open_table) -> None:
    """Twin of test_tray_choices::test_reroll_options_show_their_chances: Enter takes what the
    odds assume (a failing score rerolls while points remain)."""
    table, _heard = open_table("magisphere")
    reseed(table, "shady négo 25")
    table.submit("shady négo 25")
    prompt = table.prompt
    assert prompt is not None and all("%" in o.text for o in prompt.options)
    assert prompt.option("enter").key == "r" and prompt.option("enter").label == "relancer (1 Impulsion)"
    assert table.choose("g") and not table.roll_waiting
    record = table.session.rolls[-1]
    assert record.result["impulsions_spent"] == 0 and len(record.request["dice"]) == 1
    assert sheet(table, "shady")["resources"]["impulsion"] == 2


def test_magisphere_an_impulsion_reroll_is_spent_on_the_sheet_and_undone(open_table) -> None:
    """Twin of test_dice_tray::test_magisphere_impulsion_reroll_with_one_key."""
    table, heard = open_table("magisphere")
    line = "shady négociation 30"
    reseed(table, line)
    assert sheet(table, "shady")["resources"]["impulsion"] == 2
    table.submit(line)
    assert "Impulsion" in table.prompt.question and table.choose("r")
    while table.roll_waiting:
        assert table.choose("g")
    record = table.session.rolls[-1]
    spent = record.result["impulsions_spent"]
    assert spent >= 1 and len(record.request["dice"]) == spent + 1
    assert sheet(table, "shady")["resources"]["impulsion"] == 2 - spent
    assert "Impulsion" in (table.session.last_label or "")
    assert table.undo() and sheet(table, "shady")["resources"]["impulsion"] == 2
    assert heard.notices()[-1].startswith("annulé : Impulsion")
    assert len(table.session.rolls) == 1                                     # the roll stays logged


def test_magisphere_the_impulse_bonus_word_spends_a_point_with_no_question(open_table) -> None:
    """Twin of test_dice_tray::test_magisphere_impulse_bonus_word_spends_a_point."""
    table, heard = open_table("magisphere")
    line = "shady négociation 10 imp"
    reseed(table, line, lambda f: f.prompt is None)
    table.submit(line)
    assert heard.of(ev.PromptOpened) == [] and not table.roll_waiting
    assert table.session.rolls[-1].result["impulse_bonus_applied"] is True
    assert sheet(table, "shady")["resources"]["impulsion"] == 1


# ---------------------------------------------------------------- Éclats: R5 and rerolls


def test_eclats_asks_whether_to_roll_when_the_skill_suffices_and_enter_takes_the_odds_choice(open_table) -> None:
    """Twin of test_tray_choices::test_eclats_asks_whether_to_roll_when_the_skill_suffices_…:
    Calmer 3 against 3 is asked before any die, Enter settles for the skill; against 12 a
    failing die, Enter rerolls (never a keep that leaves 0 %)."""
    table, heard = open_table("eclats", seed=1)
    table.submit("ysaure emp calmer 3")
    asked = heard.of(ev.PromptOpened)[-1]
    assert "R5" in asked.prompt.question and asked.result is None and table.session.rolls == []
    assert asked.prompt.option("enter").key == "n" and asked.prompt.option("n").chance == 1.0
    assert table.choose("enter")
    record = table.session.rolls[-1]
    assert record.request["dice"] == [] and record.result["outcome"] == "success"
    table.submit("ysaure emp calmer 12")
    assert table.roll.result["outcome"] != "success" and table.prompt.option("enter").key == "r"
    assert table.prompt.option("g").chance == 0.0
    assert table.choose("enter")
    dice = table.roll.flow.request["dice"] if table.roll_waiting else table.session.rolls[-1].request["dice"]
    assert len(dice) == 2


def test_eclats_a_reroll_answered_by_its_key_other_keys_mean_nothing(open_table) -> None:
    """Twin of test_dice_tray::test_eclats_reroll_with_one_key."""
    table, heard = open_table("eclats")
    line = "ysaure emp calmer 9"
    reseed(table, line)
    table.submit(line)
    assert "relancer" in table.prompt.question and table.session.rolls == []
    assert heard.of(ev.RollShown)[-1].pending                         # the die shown, kept, not logged
    assert read_pending(pending_path(table.session.path)) is not None
    assert not table.choose("p") and not table.choose("x")            # not options here: nothing happens
    assert table.roll_waiting and table.session.rolls == []
    assert table.submit(line) is None and table.roll_waiting          # Enter on the line: the choice first
    assert table.choose("r")
    if table.roll_waiting:
        assert table.choose("g")
    record = table.session.rolls[-1]
    assert len(record.result["dice"]) >= 2 and record.request["dice"] == record.result["dice"]
    assert not pending_path(table.session.path).exists() and table.line == ""


def test_eclats_the_dice_shown_end_in_the_log_however_the_roll_ends(open_table) -> None:
    """Twin of test_dice_tray::test_escape_after_the_dice_are_rolled_does_not_drop_the_roll
    (seed 4: r, then g logs [3, 4]) and of test_pending_signals::
    test_a_roll_ended_after_the_dice_closes_the_prompt_and_says_it_is_logged (given up once
    the die is shown: logged as it stood, never dropped)."""
    table, heard = open_table("eclats", seed=4)
    table.submit("ysaure emp calmer 9")
    assert table.choose("r") and table.roll_waiting                  # one roll left: asked again
    assert table.roll.flow.request["dice"] == [3, 4]
    assert table.choose("g")
    assert [r.result["dice"] for r in table.session.rolls] == [[3, 4]]
    table.submit("ysaure emp calmer 9")
    shown = list(table.roll.flow.request["dice"])
    table.cancel_roll()
    ended = heard.of(ev.RollEnded)[-1]
    assert ended.kept and ended.record is not None and ended.record.request["dice"] == shown
    assert table.session.rolls[-1].request["dice"] == shown and len(table.session.rolls) == 2
    assert heard.of(ev.RollShown)[-1].record == ended.record          # the tray shows what was logged
    assert not table.roll_waiting and not pending_path(table.session.path).exists()


def test_a_rules_error_at_a_choice_is_told_and_logs_the_dice_shown(open_table, monkeypatch) -> None:
    """The rules refusing a step of the roll (here the reroll's resolution) do not leave a roll
    half done: the GM is told in the catalog's words, the die shown is logged as it stood."""
    from gmscreen.play.games.eclats import roll as eclats_roll

    table, heard = open_table("eclats", seed=4)
    table.submit("ysaure emp calmer 9")
    shown = list(table.roll.flow.request["dice"])

    def refused(request: dict[str, Any], **_kw: Any) -> dict[str, Any]:
        raise RequestError("dice", "exact_dice", n=5, why="x", got=1)

    monkeypatch.setattr(eclats_roll, "resolve", refused)
    assert table.choose("r")                                          # the key meant something: answered
    (said,) = [e for e in heard.of(ev.Notice) if e.severity == "error"]
    assert "il faut exactement 5 dés" in said.text and "expected" not in said.text
    ended = heard.of(ev.RollEnded)[-1]
    assert ended.kept and table.session.rolls[-1].request["dice"] == shown
    assert not table.roll_waiting and not pending_path(table.session.path).exists()


# ---------------------------------------------------------------- Arpèges: the parry


def test_arpeges_the_parry_is_asked_with_the_action_rolled(open_table) -> None:
    """Twin of test_dice_tray::test_arpeges_escape_keeps_the_rolled_action_and_parry_with_one_key
    (escape refused once the action is rolled: the tray's)."""
    table, heard = open_table("arpeges")
    line = "thibault baratin +3 vs marchand baratin"
    reseed(table, line)
    fresh = table.rng.getstate()                                      # the dice as the tray's seed draws them
    table.submit("marchand baratin -3 = 6 5")
    assert table.session.rolls[-1].result["margin"] == 3 and heard.of(ev.PromptOpened) == []
    table.submit(line)
    asked = heard.of(ev.PromptOpened)[-1]
    assert "pare" in asked.prompt.question and asked.result is not None     # the action is rolled
    assert table.choose("n") and len(table.session.rolls) == 2
    assert table.session.rolls[-1].request["parry"] is False
    table.rng.setstate(fresh)
    table.submit(line)
    assert table.choose("p")
    record = table.session.rolls[-1]
    assert record.result["kind"] == "confrontation" and record.result["parry_rolled"] is True
    assert len(record.request["opponent_chance_dice"]) == 1


# ---------------------------------------------------------------- settled when the campaign closes


@pytest.mark.parametrize("system,line,keys", [
    ("arpeges", "thibault baratin +3 vs marchand baratin", ()),      # the default parry rolls new dice
    ("magisphere", "shady négociation 30", ("r",)),                  # an Impulsion already spent
])
def test_settle_logs_exactly_the_roll_kept_on_disk(open_table, system: str, line: str, keys: tuple[str, ...]) -> None:
    """Twin of test_pending_signals::test_the_kept_roll_is_exactly_what_quitting_logs."""
    table, heard = open_table(system)
    reseed(table, line, lambda f: f.prompt is not None and all(f.choose(k) and f.prompt is not None for k in keys))
    table.submit(line)
    for key in keys:
        assert table.choose(key)
    assert table.roll_waiting
    kept = read_pending(pending_path(table.session.path))
    assert kept is not None and [s.path[-1] for s in kept.spends] == (["impulsion"] if keys else [])
    table.settle()
    record = table.session.rolls[-1]
    assert (record.request, record.result, record.pending) == (kept.request, kept.result, kept.id)
    for spend in kept.spends:
        assert sheet(table, "shady")[spend.path[3]][spend.path[4]] == spend.after
    assert not table.roll_waiting and not pending_path(table.session.path).exists()
    assert heard.of(ev.RollShown)[-1].record == record


def test_closing_on_a_question_before_any_die_logs_nothing(open_table) -> None:
    """Settling keeps only dice the table saw: Providence asked before the roll is not rolled."""
    table, heard = open_table("tedeum")
    table.submit("louvensac charme 13")
    table.settle()
    assert table.roll_waiting and table.session.rolls == []
    path = table.session.path
    table.close()
    assert table.session.closed and not pending_path(path).exists() and heard.of(ev.RollLogged) == []


# ---------------------------------------------------------------- GM-only and players watching


def test_gm_only_set_while_a_roll_waits_logs_it_for_the_gm(open_table) -> None:
    """ctrl+g while a choice is open: the roll waiting is the GM's, told at once; set back
    before the choice, it is public again, but a line typed `mj` stays the GM's."""
    table, heard = open_table("eclats")
    line = "ysaure emp calmer 9"
    reseed(table, line)
    table.submit(line)
    assert heard.of(ev.PromptOpened)[-1].visibility is Visibility.PUBLIC
    table.toggle_gm_only()
    assert heard.of(ev.GmOnlyChanged)[-1] == ev.GmOnlyChanged(True)
    assert heard.of(ev.DraftChanged)[-1].visibility is Visibility.SECRET and table.sight().secret
    assert table.roll_waiting and table.choose("g")
    assert table.session.rolls[-1].gm_only and heard.of(ev.RollShown)[-1].visibility is Visibility.SECRET
    assert heard.of(ev.RollLogged)[-1].visibility is Visibility.SECRET

    reseed(table, line)
    table.submit(line)                                   # ctrl+g still on: asked for the GM only
    assert heard.of(ev.PromptOpened)[-1].visibility is Visibility.SECRET
    table.set_gm_only(False)
    assert heard.of(ev.DraftChanged)[-1].visibility is Visibility.PUBLIC
    assert table.choose("g") and not table.session.rolls[-1].gm_only

    reseed(table, "mj " + line)
    table.submit("mj " + line)
    table.set_gm_only(True)
    table.set_gm_only(False)
    assert heard.of(ev.DraftChanged)[-1].visibility is Visibility.SECRET
    assert table.choose("g") and table.session.rolls[-1].gm_only


def test_a_gm_only_choice_is_told_secret_from_the_line_to_the_log(open_table) -> None:
    """Twin of test_players_watching::test_a_gm_only_choice_shows_its_keys_only and of
    test_dice_tray::test_a_pending_gm_only_choice_is_masked_while_players_watch."""
    table, heard = open_table("eclats")
    line = "mj ysaure emp calmer 9"
    reseed(table, line)
    table.watch(True)
    table.type_line(line)
    assert heard.of(ev.DraftChanged)[-1].visibility is Visibility.SECRET
    table.submit()
    assert heard.of(ev.RollShown)[-1].pending and heard.of(ev.RollShown)[-1].visibility is Visibility.SECRET
    assert heard.of(ev.PromptOpened)[-1].visibility is Visibility.SECRET and table.sight().secret
    assert table.choose("g")
    record = table.session.rolls[-1]
    assert record.gm_only and heard.of(ev.RollLogged)[-1].visibility is Visibility.SECRET
    assert heard.of(ev.RollShown)[-1].visibility is Visibility.SECRET


def test_an_eclats_hidden_threshold_shows_the_die_to_decide_on_not_the_threshold(open_table) -> None:
    """Twin of test_players_watching::test_an_eclats_player_sees_the_die_to_decide_on_not_the_threshold:
    R5 is asked of every hidden roll, in public words, no chance that would tell the threshold."""
    table, heard = open_table("eclats")
    line = "caché ysaure emp calmer 9"
    reseed(table, line, lambda f: f.prompt is not None and f.choose("r") and f.prompt is not None)
    table.watch(True)
    table.submit(line)
    asked = heard.of(ev.PromptOpened)[-1]
    assert asked.visibility is Visibility.DIFFICULTY_HIDDEN and asked.result is None
    assert "(R5)" in asked.prompt.public and "9" not in asked.prompt.public
    assert all(o.chance is None for o in asked.prompt.options)
    assert table.choose("r")
    asked = heard.of(ev.PromptOpened)[-1]
    die = table.roll.flow.request["dice"][-1]
    assert asked.visibility is Visibility.DIFFICULTY_HIDDEN and f"dé {die}" in asked.prompt.public
    assert all(o.chance is None for o in asked.prompt.options)
    assert heard.of(ev.RollShown)[-1].visibility is Visibility.DIFFICULTY_HIDDEN
    assert table.choose("g")
    record = table.session.rolls[-1]
    assert record.result["hidden"] and not record.gm_only
    assert heard.of(ev.RollShown)[-1].visibility is Visibility.DIFFICULTY_HIDDEN


def test_a_magisphere_hidden_threshold_prices_no_option(open_table) -> None:
    """Twin of test_players_watching::test_a_magisphere_reroll_prompt_does_not_give_the_threshold_away."""
    table, heard = open_table("magisphere")
    line = "caché shady négociation 25"
    reseed(table, line, lambda f: f.prompt is not None and f.result is not None and f.result["score"] != 25
           and 25 not in f.request.get("dice", []))
    table.watch(True)
    table.submit(line)
    assert heard.of(ev.PromptOpened)[-1].result is not None
    assert table.choose("enter")                                     # Enter: whatever the odds assume
    while table.roll_waiting:
        assert table.choose("g")
    for asked in heard.of(ev.PromptOpened):
        assert asked.visibility is Visibility.DIFFICULTY_HIDDEN
        assert all(o.chance is None and "%" not in o.text for o in asked.prompt.options)
        assert asked.prompt.public is None or "25" not in asked.prompt.public
    assert table.session.rolls[-1].result["hidden"]
    assert heard.of(ev.RollShown)[-1].visibility is Visibility.DIFFICULTY_HIDDEN


def test_a_hidden_difficulty_line_that_does_not_read_is_told_hidden(open_table) -> None:
    """Twin of test_players_watching::test_a_secret_line_that_does_not_read_is_not_quoted."""
    table, heard = open_table("mir")
    table.watch(True)
    table.type_line("caché loriane éloquence sd9")                 # SD 9: out of the table
    told = heard.of(ev.DraftChanged)[-1]
    assert told.error is not None and told.draft is None and told.visibility is Visibility.DIFFICULTY_HIDDEN
    assert not table.sight().whole
    table.type_line("caché loriane éloquence sd3")
    told = heard.of(ev.DraftChanged)[-1]
    assert told.error is None and told.draft is not None and told.visibility is Visibility.DIFFICULTY_HIDDEN


def test_an_opposition_against_a_hidden_npc_is_public_with_that_side_hidden(open_table) -> None:
    """Twin of test_players_watching::test_an_opposition_against_a_hidden_npc_never_names_them:
    the roll is public, the side the players may not name is the sight's to say."""
    table, heard = open_table("mir")
    hide(table, "garde")
    line = "callia infiltration vs garde instinct"
    reseed(table, line, lambda f: f.result is not None and f.result["winner"] == "opponent")
    table.watch(True)
    table.type_line(line)
    assert heard.of(ev.DraftChanged)[-1].visibility is Visibility.PUBLIC
    sight = table.sight()
    assert OPPONENT in sight.hidden_sides and not sight.whole
    table.submit()
    record = table.session.rolls[-1]
    assert record.result["hidden_sides"] == ["opponent"] and record.result["winner"] == "opponent"
    assert heard.of(ev.RollShown)[-1].visibility is Visibility.PUBLIC


def test_a_gm_only_extended_test_starts_a_gm_only_timer_undone_unnamed_while_watching(open_table) -> None:
    """Twin of test_players_watching::test_a_gm_only_extended_test_and_its_undo_label_while_watching."""
    table, heard = open_table("mir")
    table.change("fin du combat", lambda b: b.set(("encounter", "round"), 0))     # R20: after the fight
    line = "mj loriane investigation 7 heure max4"
    reseed(table, line, lambda f: f.result is not None and f.result["outcome"] == "pending")
    table.watch(True)
    table.submit(line)
    timer = table.session.campaign.timers[-1]
    assert timer.gm_only and timer.request["threshold"] == 7
    assert table.undo() and timer.id not in [t.id for t in table.session.campaign.timers]
    assert heard.notices()[-1] == "annulé : (un changement que les joueurs ne voient pas)"
    table.watch(False)
    assert table.redo() and "Investigation" in heard.notices()[-1]


def test_a_day_long_test_waits_for_the_fight_then_starts_its_timer_undoably(open_table) -> None:
    """Twin of test_dice_tray::test_mir_extended_refused_in_a_fight_shows_r20_as_an_error (which
    keeps the refusal as drawn)."""
    table, heard = open_table("mir")
    timers = len(table.session.campaign.timers)
    assert table.submit("loriane guérison 8 jour max3") is None               # R20: not in a fight
    assert "R20" in heard.of(ev.DraftChanged)[-1].error.message
    assert len(table.session.campaign.timers) == timers and table.session.rolls == []
    table.change("Fin du combat", lambda b: b.set(("encounter", "round"), 0))
    table.submit("loriane guérison 8 jour max3")
    timer = table.session.campaign.timers[-1]
    assert len(table.session.campaign.timers) == timers + 1
    assert timer.kind == "extended" and timer.who == "loriane"
    assert timer.label == "Guérison (Héritage) (1 jour, 3 max.) 8 succès"
    assert len(timer.dice["rolls"]) == 1 and len(timer.dice["rolls"][0]) == 5
    assert table.session.rolls[-1].result["tests"] == 1
    assert table.undo() and len(table.session.campaign.timers) == timers


# ---------------------------------------------------------------- undo and redo wait for the choice


def test_undo_and_redo_wait_while_an_impulsion_choice_is_open(open_table) -> None:
    """Twin of test_dice_tray::test_undo_waits_while_an_impulsion_choice_is_pending (seed 3):
    the roll spends from the sheet as it stood; answered, undo and redo work again."""
    table, heard = open_table("magisphere", seed=3)
    assert table.change("Impulsion +1", lambda b: b.set(("characters", 0, "sheet", "resources", "impulsion"), 3))
    assert table.undo() and table.redo()                              # a change to undo, one to redo after
    assert table.undo()
    revision = table.session.campaign.revision
    table.submit("shady discr 35")                                   # only a natural 20 succeeds
    assert table.roll_waiting
    assert not table.undo() and heard.notices()[-1] == (
        "un jet attend un choix : répondez-y (ou échap) avant d'annuler")
    assert not table.redo() and heard.notices()[-1] == (
        "un jet attend un choix : répondez-y (ou échap) avant de rétablir")
    assert table.session.campaign.revision == revision and table.roll_waiting
    assert table.choose("g") and len(table.session.rolls) == 1       # keep: the roll is logged
    assert table.session.campaign.revision == revision               # nothing spent
    assert table.redo() and table.session.campaign.revision != revision
    assert table.undo() and heard.of(ev.CampaignChanged)[-1].how == "undo"


# ---------------------------------------------------------------- reveal


def test_a_revealed_gm_only_roll_is_public_and_undo_takes_the_change_before(open_table) -> None:
    """Twin of test_players_watching::test_r_asks_before_revealing_and_ctrl_z_then_says_what_it_undoes
    and of the reveal in test_dice_tray::test_players_watching_masks_the_tray_as_well_as_the_log:
    a reveal is not a change undone; ctrl+z after it undoes the change before, named."""
    table, heard = open_table("mir")
    table.change("Aveuglé → Alexis", lambda b: b.set(("characters", 0, "notes"), "aveuglé"))
    table.watch(True)
    table.submit("mj alexis force sd2")
    secret = table.session.rolls[-1]
    assert secret.gm_only and heard.of(ev.RollShown)[-1].visibility is Visibility.SECRET
    assert table.session.last_label == "Aveuglé → Alexis"           # the roll made no change to undo
    assert table.reveal(secret.seq)
    (revealed,) = heard.of(ev.RollRevealed)
    assert revealed.record.seq == secret.seq and revealed.visibility is Visibility.PUBLIC
    assert table.session.rolls[-1].revealed
    assert table.undo() and table.session.campaign.characters[0].notes != "aveuglé"
    assert heard.notices()[-1] == "annulé : Aveuglé → Alexis"
    assert table.session.rolls[-1].revealed


def test_a_roll_not_in_the_log_is_not_revealed(open_table) -> None:
    table, heard = open_table("mir")
    assert not table.reveal(999)
    assert heard.of(ev.RollRevealed) == [] and heard.notices()[-1].startswith("impossible de révéler le jet 999")


# ---------------------------------------------------------------- the turn


def test_a_whole_round_with_conditions_and_a_countdown_and_back(open_table) -> None:
    """Twin of test_initiative::test_n_and_p_move_the_turn_and_the_pane_follows."""
    table, heard = open_table("mir")
    c = table.session.campaign
    assert current(table) == "garde" and c.encounter.round == 2
    table.next_turn()                                          # the guard acts
    assert current(table) == "alexis" and c.encounter.entries[1].acted and table.selected == "alexis"
    table.next_turn()                                          # Alexis ends his turn: Ébloui (1) expires
    assert c.character("alexis").conditions == []
    assert "Ébloui par la lanterne expire : Alexis" in heard.notices()
    assert current(table) == "chien"                           # Loriane waits: skipped
    table.next_turn()                                          # the last one: a new round
    assert c.encounter.round == 3 and current(table) == "callia"
    assert not any(e.acted for e in c.encounter.entries)
    assert c.timers[1].rounds == 2 and "Round 3" in heard.notices()      # the countdown ticked
    assert c.character("callia").conditions[0].rounds is None  # no duration: never ticks
    assert table.previous_turn().undone                        # right after n: that turn undone
    assert c.encounter.round == 2 and current(table) == "chien" and c.timers[1].rounds == 3
    assert not c.encounter.entries[-1].acted
    table.previous_turn()                                      # again: Alexis's turn, Ébloui back
    assert current(table) == "alexis" and c.character("alexis").conditions[0].rounds == 1
    table.previous_turn()
    assert current(table) == "garde" and not table.session.can_undo
    back = table.previous_turn()                               # nothing left to undo: the order moves
    assert back.moved and not back.undone
    assert current(table) == "callia" and table.session.last_label == "Tour précédent"
    assert table.undo()
    assert c.encounter.round == 2 and current(table) == "garde"
    assert c.character("alexis").conditions[0].rounds == 1 and c.timers[1].rounds == 3


def test_a_countdown_runs_out_with_a_notice(open_table) -> None:
    """Twin of test_initiative::test_countdown_ends_with_notice (removed: nothing in it needed
    a screen)."""
    table, heard = open_table("arpeges")
    c = table.session.campaign
    for _ in range(3 + 4 + 4):  # the rest of round 1 (Thibault has acted), rounds 2 and 3
        table.next_turn()
    assert c.encounter.round >= 4
    assert c.timers[0].status == "done" and c.timers[0].rounds == 0
    assert "Fin du compte à rebours : Le garde du marché arrive à l'étal" in heard.notices()
    assert "Étourdie expire : Sibylle" in heard.notices()


def _entry(table: Table, entry_id: str) -> int:
    return next(i for i, e in enumerate(table.session.campaign.encounter.entries) if e.id == entry_id)


def _nudge(table: Table, entry_id: str, delta: int) -> None:
    """A change of the GM's between two turns (as the pane's `+` and `-`)."""
    index = _entry(table, entry_id)
    value = table.session.campaign.encounter.entries[index].initiative + delta
    assert table.change("Initiative", lambda b: b.set(("encounter", "entries", index, "initiative"), value))


def test_previous_turns_give_ticks_back_across_other_changes(open_table) -> None:
    """Twin of test_initiative::test_p_gives_a_tick_back_across_a_change_made_in_the_pane."""
    from gmscreen.campaign.model import Condition

    table, heard = open_table("mir")
    c = table.session.campaign
    table.change("états", lambda b: b.insert(("characters", 3, "conditions"), None, Condition(name="Sonné", rounds=2)))
    chien = c.encounter.entries[_entry(table, "chien")].initiative
    table.next_turn()                                          # the guard acts: Sonné 2 -> 1
    _nudge(table, "chien", 1)                                  # another change in between
    table.next_turn()                                          # Alexis acts: Ébloui expires
    _nudge(table, "chien", 1)                                  # and another
    table.next_turn()                                          # the dog: new round, Relève 3 -> 2
    assert c.encounter.round == 3 and c.timers[1].rounds == 2
    assert c.character("alexis").conditions == [] and c.character("garde").conditions[0].rounds == 1
    _nudge(table, "chien", -1)                                 # a change after the last `n`
    table.previous_turn()                                      # back to the dog in round 2
    assert c.encounter.round == 2 and current(table) == "chien" and c.timers[1].rounds == 3
    table.previous_turn()                                      # back to Alexis: Ébloui comes back
    assert current(table) == "alexis"
    assert [(x.name, x.rounds) for x in c.character("alexis").conditions] == [("Ébloui par la lanterne", 1)]
    assert "Ébloui par la lanterne revient : Alexis" in heard.notices()
    table.previous_turn()                                      # back to the guard: Sonné 2 again
    assert current(table) == "garde" and c.character("garde").conditions[-1].rounds == 2
    assert c.encounter.entries[_entry(table, "chien")].initiative == chien + 1     # the other changes kept
    table.next_turn()
    table.next_turn()                                          # and playing again ticks again
    assert c.character("garde").conditions[-1].rounds == 1 and c.character("alexis").conditions == []
    assert table.undo()                                        # ctrl+z still goes step by step
    assert [(x.name, x.rounds) for x in c.character("alexis").conditions] == [("Ébloui par la lanterne", 1)]


def test_previous_turn_keeps_what_the_gm_changed_since(open_table) -> None:
    """Twin of test_initiative::test_previous_turn_keeps_what_the_gm_changed_since (removed:
    nothing in it needed a screen)."""
    from gmscreen.campaign.model import Condition

    table, heard = open_table("mir")
    c = table.session.campaign
    table.next_turn()
    table.next_turn()                                          # the guard, then Alexis: Ébloui expires
    table.change("le MJ le remet", lambda b: b.insert(("characters", 0, "conditions"), None,
                                                      Condition(name="Ébloui par la lanterne", rounds=4)))
    table.previous_turn()
    assert current(table) == "alexis"
    assert [(x.name, x.rounds) for x in c.character("alexis").conditions] == [("Ébloui par la lanterne", 4)]
    assert "changé depuis" in heard.notices()[-1]


# ---------------------------------------------------------------- who joins the fight


def test_an_empty_fight_offers_the_party_rolls_them_and_starts(open_table) -> None:
    """Twin of test_initiative::test_n_on_an_empty_queue_offers_the_party_and_starts_the_fight."""
    table, heard = open_table("mir")
    c = table.session.campaign
    table.change("Fin du combat", lambda b: end_fight(b, c))
    assert order(table) == [] and c.encounter.round == 0
    move = table.next_turn()
    assert move is not None and not move.moved and heard.of(ev.Notice) == []   # the screen offers, not told
    groups = table.join_groups()
    assert groups[0] == ("party", ["Alexis", "Loriane", "Callia"])
    assert groups[1][0] == "npc" and groups[1][1][0] == "Le garde de la porte"
    rolls = len(table.session.rolls)
    joiners = table.roll_joiners("party", start=True)
    assert joiners is not None and not joiners.needs_when
    table.add_joiners(joiners)
    assert sorted(order(table)) == ["alexis", "callia", "loriane"]
    assert [r.who for r in table.session.rolls[rolls:]] == ["Alexis", "Loriane", "Callia"]
    assert {e.name: e.initiative for e in c.encounter.entries} == {
        r.who: r.result["total"] for r in table.session.rolls[rolls:]}
    assert c.encounter.round == 1 and current(table) == order(table)[0]      # and the fight starts
    assert table.selected == current(table)
    assert table.undo() and table.undo()                       # the start, then the whole party
    assert order(table) == [] and c.encounter.round == 0


def test_npcs_join_mid_round_acting_this_round_or_the_next(open_table) -> None:
    """Twin of test_initiative::test_A_adds_the_npcs_mid_round_acting_this_round_or_next."""
    table, heard = open_table("mir")
    c = table.session.campaign
    table.change("init", lambda b: b.set(("initiative",), "1d2+9"))   # 10 or 11: above Callia, who has acted
    assert current(table) == "garde" and table.join_groups()[0][0] == "npc"    # the party is in
    joiners = table.roll_joiners("npc")                        # all NPCs: the gaoler (the guard is in)
    assert joiners is not None and joiners.late == ["Frère Anselme, geôlier"]  # their slot has passed
    table.add_joiners(joiners, THIS_ROUND)
    assert order(table) == ["callia", "garde", "geolier", "alexis", "loriane", "chien"]
    assert "Frère Anselme, geôlier agit ce round, après l'actuel ; à sa place d'initiative au round 3" in heard.notices()
    table.next_turn()                                          # the guard acts: the gaoler's turn
    assert current(table) == "geolier"
    assert table.undo() and table.undo()
    assert "geolier" not in order(table) and current(table) == "garde"
    table.select("geolier")
    assert [group for group, _names in table.join_groups()] == ["npc", "everyone", "selection"]
    table.add_joiners(table.roll_joiners("selection"), NEXT_ROUND)
    assert order(table)[0] == "geolier" and current(table) == "garde"
    assert "Frère Anselme, geôlier agit à partir du round 3 (sa place de ce round est passée)" in heard.notices()
    for _ in range(3):                                         # the guard, Alexis, the dog: round 3
        table.next_turn()
    assert c.encounter.round == 3 and current(table) == "geolier"


def test_a_late_joiner_from_the_roster_acts_this_round(open_table) -> None:
    """Twin of test_initiative::test_roster_i_mid_round_asks_when_a_late_joiner_acts (the
    roster's `i`: the initiative rolled, then added through the table)."""
    table, heard = open_table("eclats")
    table.change("init", lambda b: b.set(("initiative",), "1d2+9"))   # 10 or 11: above Ysaure, who has acted
    name = table.session.campaign.character("meunier").name
    value = table.roll_initiative(name)
    assert value in (10, 11) and table.session.rolls[-1].who == name
    joiners = table.joiners([(name, "meunier", value)])
    assert joiners.late == [name]
    table.add_joiners(joiners, THIS_ROUND)                     # right after the Hantise
    assert order(table) == ["ysaure", "hantise", "meunier", "mael", "berthe"]
    table.next_turn()
    assert current(table) == "meunier"


def test_gm_only_set_while_a_roll_waits_is_kept_with_the_roll_on_disk(open_table) -> None:
    """ctrl+g while a choice is open: the copy of the roll kept on disk says GM-only too, so a
    crash, or the roll given up after its dice, keeps it secret."""
    table, heard = open_table("eclats")
    reseed(table, "ysaure emp calmer 9")
    table.submit("ysaure emp calmer 9")
    assert table.roll_waiting and not read_pending(pending_path(table.session.path)).gm_only
    table.set_gm_only(True)
    assert read_pending(pending_path(table.session.path)).gm_only
    table.cancel_roll()
    assert table.session.rolls[-1].gm_only
    assert heard.of(ev.RollEnded)[-1].visibility is Visibility.SECRET


def test_a_roll_not_in_the_log_is_refused_in_the_gms_words(open_table) -> None:
    table, heard = open_table("mir")
    assert not table.reveal(999)
    assert heard.notices()[-1] == _("cannot reveal roll {seq}: it is not in the log").format(seq=999)
