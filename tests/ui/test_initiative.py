"""Initiative pane through real key presses: turns, rounds, removals, sorting, conditions, delays,
timers, declarations, and its columns as drawn. What `n`, `p` and who joins the fight decide
(ticks, notices, the order, undo) is the table's, tested without a screen in
tests/play/test_table_flows.py."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gmscreen import rules
from gmscreen.campaign.model import Condition
from gmscreen.ui import GMScreenApp
from gmscreen.ui.screens.roster_dialogs import ChoiceScreen, ConfirmScreen, PromptScreen
from gmscreen.play.table import Table
from gmscreen.play.tables import table_for
from gmscreen.play.timers import status_word
from gmscreen.ui.widgets.initiative.pane import STATUS_WORDS, InitiativePane, simultaneous_actions, timer_progress, timer_result
from gmscreen.ui.widgets.roster.pane import RosterPane
from gmscreen.ui.widgets.tray.dice_tray import DiceTray

from _initiative import current, initiative_pane, make, order
from _pilot import ready


async def test_n_and_p_move_the_turn_and_the_pane_follows(pane_app):
    """The whole round, its countdown and the way back step by step: test_table_flows (a whole
    round…; a countdown runs out)."""
    async with pane_app("mir", initiative_pane) as (session, app, pilot, notes):
        c = session.campaign
        pane = app.query_one(InitiativePane)
        assert pane.current_key() == "e:garde"                     # cursor on the current actor
        assert "Round 2 · au tour du garde de la porte" in str(pane.query_one("#initiative-status").render())
        await pilot.press("n")                                     # garde acts
        await pilot.pause()
        assert current(session) == "alexis" and app.selected_id == "alexis"
        assert pane.current_key() == "e:alexis"
        assert "au tour d'Alexis" in str(pane.query_one("#initiative-status").render())
        await pilot.press("n")                                     # Alexis ends his turn: Ébloui (1) expires
        await pilot.pause()
        assert "Ébloui par la lanterne expire : Alexis" in notes and current(session) == "chien"
        await pilot.press("p")                                     # right after n: that turn is undone
        await pilot.pause()
        assert current(session) == "alexis" and c.character("alexis").conditions[0].rounds == 1
        assert pane.current_key() == "e:alexis"


async def test_delay_and_come_back(pane_app):
    async with pane_app("mir", initiative_pane) as (session, app, pilot, notes):
        await pilot.press("w")                                     # the current actor (garde) waits
        await pilot.pause()
        enc = session.campaign.encounter
        assert enc.entries[1].delayed and current(session) == "alexis"
        await pilot.press("down", "w")                             # Loriane (row 3) comes back now
        await pilot.pause()
        assert order(session) == ["callia", "garde", "loriane", "alexis", "chien"]
        assert current(session) == "loriane" and not enc.entries[2].delayed
        app.table.undo()
        await pilot.pause()
        assert order(session) == ["callia", "garde", "alexis", "loriane", "chien"]
        assert current(session) == "alexis"


async def test_add_adhoc_rolled_and_typed_move_sort_remove(pane_app):
    async with pane_app("magisphere", initiative_pane) as (session, app, pilot, notes):
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("enter")                                 # "Nom libre"
        await pilot.pause()
        assert isinstance(app.screen, PromptScreen)
        await pilot.press(*"Orc [A]", "tab", *"14", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)               # its slot has passed: when does it act?
        await pilot.press("down", "enter")                        # next round: at its place, as before
        await pilot.pause()
        assert order(session) == ["granok", "gros-bob", "orc-a", "shady", "rival"]
        assert current(session) == "shady"                        # inserted above: turn follows
        await pilot.press("a", "enter", *"Kraken", "enter")      # empty initiative: rolled 1d20, logged
        await pilot.pause()
        if isinstance(app.screen, ChoiceScreen):                  # a roll above Shady's: asked too
            await pilot.press("enter")
            await pilot.pause()
        kraken = next(e for e in session.campaign.encounter.entries if e.name == "Kraken")
        assert session.rolls[-1].who == "Kraken" and session.rolls[-1].result["total"] == kraken.initiative
        app.table.undo()
        await pilot.pause()
        pane = app.query_one(InitiativePane)
        pane._cursor_to("e:rival")
        await pilot.press("u", "u")                              # move Morgane up twice
        await pilot.pause()
        assert order(session) == ["granok", "gros-bob", "rival", "orc-a", "shady"]
        assert current(session) == "shady"
        await pilot.press("s")                                   # mid-round: Granok and Bob have acted,
        await pilot.pause()                                      # Shady plays, the rest sorted after her
        assert order(session) == ["granok", "gros-bob", "shady", "orc-a", "rival"]
        assert current(session) == "shady"
        pane._cursor_to("e:orc-a")
        await pilot.press("+", "+")
        await pilot.pause()
        assert session.campaign.encounter.entries[3].initiative == 16
        await pilot.press("x")
        await pilot.pause()
        assert "orc-a" not in order(session) and current(session) == "shady"
        rendered = [str(c) for r in range(pane.table.row_count) for c in pane.table.get_row_at(r)]
        assert "Orc [A]" not in rendered


async def test_set_initiative_typed(pane_app):
    async with pane_app("tedeum", initiative_pane) as (session, app, pilot, _):
        await pilot.press("i")
        await pilot.pause()
        await pilot.press(*"11", "enter")                         # replaces the proposed value
        await pilot.pause()
        assert session.campaign.encounter.entries[1].initiative == 11


async def test_extended_test_to_its_end_mir(pane_app):
    async with pane_app("mir", initiative_pane) as (session, app, pilot, notes):
        c = session.campaign
        pane = app.query_one(InitiativePane)
        assert timer_progress(c, c.timers[0], game=table_for("mir")) == "6/8 · test 2/3 · 1 jour"
        pane._cursor_to("t:guerison-callia")
        await pilot.press("r")                                     # R20: a 1-day test during a fight
        await pilot.pause()
        assert "R20" in notes[-1] and len(c.timers[0].dice["rolls"]) == 2
        await pilot.press("r")                                     # asked again: still refused
        await pilot.pause()
        assert "R20" in notes[-1] and len(c.timers[0].dice["rolls"]) == 2
        await pilot.press("E", "o")                                # the fight ends (confirmed)
        await pilot.pause()
        assert c.encounter.round == 0
        pane._cursor_to("t:guerison-callia")
        await pilot.press("r")                                     # now the day can pass: rolled
        await pilot.pause()
        timer = c.timers[0]
        assert len(timer.dice["rolls"]) == 3 and len(timer.dice["rolls"][2]) == 5
        result = rules.resolve({**timer.request, **timer.dice})
        assert timer.status == result["outcome"] != "pending"    # third and last test decides
        record = session.rolls[-1]
        assert record.who == "Loriane" and record.line.endswith("· test 3")
        assert record.result == rules.resolve(record.request)
        assert ("réussi" if timer.status == "success" else "échoué") in notes[-1]
        await pilot.press("r")
        await pilot.pause()
        assert "déjà terminé" in notes[-1]
        app.table.undo()
        await pilot.pause()
        assert c.timers[0].status == "running" and len(c.timers[0].dice["rolls"]) == 2


async def test_opposition_round_magisphere(pane_app):
    async with pane_app("magisphere", initiative_pane) as (session, app, pilot, notes):
        c = session.campaign
        assert timer_progress(c, c.timers[0], game=table_for("magisphere")) == "Granok 2 – 1 le gros Bob · en 3 · round 2"
        app.query_one(InitiativePane)._cursor_to("t:revanche")
        await pilot.press("r")
        await pilot.pause()
        timer = c.timers[0]
        assert len(timer.dice["actor_dice"]) == len(timer.dice["opponent_dice"]) == 3
        # Each round is scored with its own statistics (R18, `round_stats`): the rules' reading of
        # the timer's request alone would score the earlier rounds with today's (a flaky ~4 %).
        result = timer_result(timer, game=table_for("magisphere"))
        assert result is not None and result["actor_dice"] == timer.dice["actor_dice"]
        assert timer.status == ("running" if result["winner"] == "pending" else result["winner"])
        assert session.rolls[-1].who == "Granok"


async def test_new_countdown_and_adjust(pane_app):
    async with pane_app("eclats", initiative_pane) as (session, app, pilot, _):
        await pilot.press("t")                                     # Éclats: only countdowns
        await pilot.pause()
        await pilot.press(*"Renforts [/]", "tab", "2", "enter")
        await pilot.pause()
        timer = session.campaign.timers[-1]
        assert (timer.label, timer.rounds, timer.kind) == ("Renforts [/]", 2, "countdown")
        assert app.query_one(InitiativePane).current_key() == f"t:{timer.id}"
        await pilot.press("-", "-")
        await pilot.pause()
        assert session.campaign.timers[-1].status == "done"
        await pilot.press("+")
        await pilot.pause()
        assert session.campaign.timers[-1].status == "running" and session.campaign.timers[-1].rounds == 1


async def test_new_extended_test_mir(pane_app):
    async with pane_app("mir", initiative_pane) as (session, app, pilot, _):
        app.select_character("callia")
        await pilot.press("t")
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        await pilot.press(*"infil", "tab", "6", "tab", "tab", "end", *["backspace"] * 4, *"tour", "enter")
        await pilot.pause()
        timer = session.campaign.timers[-1]
        assert timer.label == "Infiltration (Mensonge) (1 tour) 6 succès"
        assert timer.request == {"system": "mir", "kind": "extended", "skill": 3, "voie": 3, "threshold": 6,
                                 "max_tests": 0, "interval": "tour", "test_modifiers": []}
        await pilot.press("R")                                     # 1 tour: allowed during the fight
        await pilot.pause()
        await pilot.press(*"7 7 1 1 1 1", "enter")                 # Callia's Fièvre grise −1 dé: 5 dice, not 6
        await pilot.pause()
        assert app.screen.is_modal and not session.campaign.timers[-1].dice.get("rolls")
        await pilot.press("backspace", "backspace", "enter")
        await pilot.pause()
        timer = session.campaign.timers[-1]
        assert timer.dice["rolls"] == [[7, 7, 1, 1, 1]] and timer.request["test_modifiers"] == [-1]
        session.campaign.character("callia").conditions.clear()   # healed: re-read at the next interval
        await pilot.press("r")
        await pilot.pause()
        timer = session.campaign.timers[-1]
        assert [len(r) for r in timer.dice["rolls"]] == [5, 6] and timer.request["test_modifiers"] == [-1, 0]


async def test_declared_actions_arpeges(pane_app):
    async with pane_app("arpeges", initiative_pane) as (session, app, pilot, notes):
        c = session.campaign
        pane = app.query_one(InitiativePane)
        assert str(pane.table.get_row_at(0)[4]) == "2 actions −3 chacune"
        assert simultaneous_actions(c, "thibault") == 2 and simultaneous_actions(c, "gorlois") == 1
        await pilot.press("d")                                     # Gorlois (current) declares three
        await pilot.pause()
        area = app.screen.query_one("#field-actions")
        area.text = "Parer le baratin\nAppeler la garde\nCacher la bourse"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert simultaneous_actions(c, "gorlois") == 3
        assert "−6 à chacune" in notes[-1]
        assert str(pane.table.get_row_at(1)[4]) == "3 actions −6 chacune"
        detail = str(pane.query_one("#initiative-detail").render())
        assert "• Appeler la garde  (−6)" in detail
        for _ in range(3):                                         # the round ends: declarations cleared
            await pilot.press("n")
        await pilot.pause()
        assert c.encounter.round == 2 and c.encounter.declared == []


async def test_start_end_and_roll_all(pane_app):
    async with pane_app("tedeum", initiative_pane) as (session, app, pilot, notes):
        c = session.campaign
        await pilot.press("E")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("o")
        await pilot.pause()
        assert c.encounter.round == 0 and c.encounter.entries == []
        app.table.undo()
        await pilot.pause()
        assert len(c.encounter.entries) == 3
        before = len(session.rolls)
        await pilot.press("I")                                     # mid-round: the round goes on as it was
        await pilot.pause()
        assert len(session.rolls) == before + 3
        assert order(session) == ["louvensac", "saint-gelais", "gentilhomme"]
        assert current(session) == "saint-gelais"
        await pilot.press("n")                                     # next round: the new order in full
        await pilot.pause()
        values = [e.initiative for e in c.encounter.entries]
        assert c.encounter.round == 2 and values == sorted(values, reverse=True)


async def test_roster_and_initiative_together_hostile(open_sample, pane_host):
    session = open_sample("mir")
    with session.edit("hostile") as b:
        b.set(("encounter", "entries", 4, "name"), "[@click=app.quit]\x1b[2J")
        b.set(("characters", 0, "name"), "[/]")
    app, notes = make(pane_host, session, lambda: RosterPane(id="roster"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        pane = app.query_one(InitiativePane)
        cells = " ".join(str(c) for r in range(pane.table.row_count) for c in pane.table.get_row_at(r))
        assert "[@click=app.quit]\ufffd[2J" in cells and "\x1b" not in cells
        app.select_character("alexis")
        app.query_one(RosterPane).focus()
        await pilot.pause()
        await pilot.press("i")                                     # Alexis is already in the order
        await pilot.pause()
        assert "[/] est déjà dans l'ordre d'initiative" in notes[-1]
        assert app.is_running


async def test_turn_keys_need_no_pane_and_p_gives_ticks_back_after_a_restart(campaign_file):
    from gmscreen.campaign import load_campaign
    from gmscreen.ui import GMScreenApp

    from _pilot import ready

    path = campaign_file("mir")                # round 2: the guard plays; Alexis: Ébloui (1)
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await app.pane("initiative").remove()  # `n` and `p` move the turn on the play core alone
        await pilot.pause()
        assert app.pane("initiative") is None
        await pilot.press("n", "n")            # the guard, then Alexis: Ébloui expires
        await pilot.pause()
        session = app.session
        assert current(session) == "chien" and session.campaign.character("alexis").conditions == []
        assert app.selected_id == "alexis"     # the turn before it selected Alexis; the dog has no sheet
        app.change("une autre modification", lambda b: b.set(("characters", 0, "notes"), "vue"))
    assert [t.actor for t in load_campaign(path).encounter.ticks] == ["garde", "alexis"]   # saved
    app = GMScreenApp(path)                    # a restart: no undo left, the ticks are in the file
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        assert app.session.last_label is None
        await pilot.press("p")                 # back to Alexis: Ébloui comes back
        await pilot.pause()
        c = app.session.campaign
        assert current(app.session) == "alexis" and app.selected_id == "alexis"
        assert [(x.name, x.rounds) for x in c.character("alexis").conditions] == [("Ébloui par la lanterne", 1)]
        assert app.query_one(InitiativePane).current_key() == "e:alexis"    # the pane follows the turn


async def test_new_opposition_magisphere_from_the_games_form(pane_app):
    async with pane_app("magisphere", initiative_pane) as (session, app, pilot, _):
        app.select_character("shady")
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("down", "enter")                         # the game's one test timer
        await pilot.pause()
        assert isinstance(app.screen, PromptScreen)
        await pilot.press(*"Dés [/]", "tab", *"le gros bob", "tab", "tab", *"11", "tab", "tab", "9", "enter")
        await pilot.pause()
        timer = session.campaign.timers[-1]
        assert (timer.label, timer.kind, timer.who, timer.opponent) == ("Dés [/]", "opposition", "shady", "gros-bob")
        assert timer.request == {"system": "magisphere", "kind": "extended_opposed", "target": 3, "actor_stat": 11,
                                 "actor_skill": 0, "opponent_stat": 9, "opponent_skill": 0}
        assert app.query_one(InitiativePane).current_key() == f"t:{timer.id}"


@pytest.mark.parametrize("pane", ["roster", "initiative"])
async def test_removing_the_current_actor_passes_the_turn_to_one_who_is_ready(campaign_file, pane) -> None:
    """Éclats sample: round 3, the Hantise's turn, Maël (next in order) waits. Removing the
    Hantise must give the turn to Berthe, not to Maël who is delayed."""
    app = GMScreenApp(campaign_file("eclats"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        enc = app.session.campaign.encounter
        assert enc.entries[enc.turn].id == "hantise" and enc.entries[enc.turn + 1].delayed
        await pilot.press("1" if pane == "roster" else "2")
        await pilot.pause()
        rows = 3 if pane == "roster" else 1                   # the Hantise's row in each table
        await pilot.press(*["up"] * 8, *["down"] * rows, "x")
        await pilot.pause()
        if pane == "roster":
            await pilot.press("o")                             # confirm
            await pilot.pause()
        assert [e.id for e in enc.entries] == ["ysaure", "mael", "berthe"]
        assert enc.entries[enc.turn].id == "berthe"
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert enc.entries[enc.turn].id == "hantise"


@pytest.mark.parametrize("pane", ["roster", "initiative"])
async def test_removing_the_last_one_to_play_ends_the_round(campaign_file, pane) -> None:
    """Éclats sample, round 3: Berthe is the last still to play. Removing her when it is her
    turn must start round 4 (from the first one ready), not hand the turn to Maël, who waits,
    or to someone who has already acted."""
    app = GMScreenApp(campaign_file("eclats"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        enc = app.session.campaign.encounter
        await pilot.press("2", "n")                            # the Hantise plays; Maël waits: Berthe
        await pilot.pause()
        assert enc.entries[enc.turn].id == "berthe" and enc.round == 3
        await pilot.press("1" if pane == "roster" else "2")
        await pilot.pause()
        rows = 2 if pane == "roster" else 3                   # Berthe's row in each table
        await pilot.press(*["up"] * 8, *["down"] * rows, "x")
        await pilot.pause()
        if pane == "roster":
            await pilot.press("o")                             # confirm
            await pilot.pause()
        assert "berthe" not in [e.id for e in enc.entries]
        assert enc.round == 4
        current = enc.entries[enc.turn]
        assert not current.delayed and not current.acted and current.id == "ysaure"


async def test_declared_actions_apply_to_the_quick_roll(pane_host, open_sample):
    """Actions declared in the queue (`d`) take −3 each on the actor's roll (R12), without `x2`."""
    session = open_sample("arpeges")
    app = pane_host(session, lambda: InitiativePane(id="initiative"),
                    lambda: DiceTray(id="dice-tray", rng=random.Random(3)))
    async with app.run_test(size=(80, 24)) as pilot:
        tray = app.query_one(DiceTray)
        for line in ("thibault baratin -3", "marchand baratin -3", "thibault baratin -3 x1",
                     "thibault baratin -3 vs marchand baratin", "thibault baratin vs marchand baratin"):
            tray.focus_line()
            tray.line.value = line
            await pilot.press("enter")
            await pilot.pause()
            if tray.flow is not None:                       # a parry asked: let it through
                await pilot.press("n")
                await pilot.pause()
        requests = [r.request for r in session.rolls]
        assert requests[0]["simultaneous_actions"] == 2     # the sample declares two for Thibault
        assert requests[0]["skill_level"] == 4 and session.rolls[0].result["final_difficulty"] == -2
        assert "simultaneous_actions" not in requests[1]     # Gorlois declared nothing
        assert "simultaneous_actions" not in requests[2]     # `x1` overrides the declaration
        assert requests[3]["simultaneous_actions"] == 2      # a confrontation too
        assert requests[4]["kind"] == "opposed_one_roll"     # an opposition is not refused


def table_lines(pane: InitiativePane) -> list[str]:
    """The table as drawn (cut at the pane's right edge, as the GM sees it)."""
    return [pane.table.render_line(y).text for y in range(pane.table.size.height)]


def fixed_initiative(monkeypatch: pytest.MonkeyPatch, values: dict[str, int]) -> None:
    """`I` rolls these instead of dice (by name), so the order it makes is known."""
    monkeypatch.setattr(Table, "roll_initiative", lambda table, who: values[who])


# ---------------------------------------------------------------- `I` mid-round is fair


async def test_reroll_mid_round_nobody_skipped_or_twice(open_sample, pane_host, monkeypatch) -> None:
    session = open_sample("mir")      # round 2: Callia has acted, the guard plays, Loriane waits
    app, notes = make(pane_host, session)
    c = session.campaign
    fixed_initiative(monkeypatch, {"Callia": 1, "Le garde de la porte": 2, "Alexis": 3, "Loriane": 10,
                                   "Chien de garde": 20})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("I")
        await pilot.pause()
        # Callia keeps her place and her mark, the guard stays current, the rest sorted after him.
        assert order(session) == ["callia", "garde", "chien", "loriane", "alexis"]
        assert current(session) == "garde" and c.encounter.entries[0].acted
        assert "nouvel ordre complet au round 3" in notes[-1]
        played = ["callia"]
        while c.encounter.round == 2:
            played.append(current(session))
            await pilot.press("n")
            await pilot.pause()
        assert played == ["callia", "garde", "chien", "alexis"]      # each once; Loriane still waits
        # Round 3: the new order in full, its first one plays.
        assert order(session) == ["chien", "loriane", "alexis", "garde", "callia"]
        assert current(session) == "chien" and not any(e.acted for e in c.encounter.entries)
        pane = app.query_one(InitiativePane)
        pane._cursor_to("e:callia")
        await pilot.press("+", "p")                                # a change, then back: that sort undone
        await pilot.pause()
        assert c.encounter.round == 2 and current(session) == "alexis"
        assert order(session) == ["callia", "garde", "chien", "loriane", "alexis"]
        await pilot.press("n")                                     # and made again at the round's end
        await pilot.pause()
        assert c.encounter.round == 3 and order(session)[:2] == ["chien", "loriane"]
        # Between rounds (nobody has acted yet) `I` just sorts, and the new first one plays.
        fixed_initiative(monkeypatch, {"Callia": 30, "Le garde de la porte": 2, "Alexis": 3, "Loriane": 10,
                                       "Chien de garde": 20})
        await pilot.press("I")
        await pilot.pause()
        assert order(session) == ["callia", "chien", "loriane", "alexis", "garde"]
        assert current(session) == "callia"


async def test_sort_before_the_fight_sorts_everything(open_sample, pane_host, monkeypatch) -> None:
    session = open_sample("tedeum")
    with session.edit("pas de combat") as b:
        b.set(("encounter", "round"), 0)
        b.set(("encounter", "entries", 0, "acted"), False)
    app, _ = make(pane_host, session)
    fixed_initiative(monkeypatch, {"Mlle de Louvensac": 1, "le capitaine de Saint-Gelais": 5,
                                   "le gentilhomme huguenot": 9})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("I")
        await pilot.pause()
        assert order(session) == ["gentilhomme", "saint-gelais", "louvensac"]


async def test_sort_mid_round_keeps_who_acted_and_the_current_actor(pane_app) -> None:
    # round 1: Thibault has acted, Gorlois plays
    async with pane_app("arpeges", initiative_pane, size=(80, 24)) as (session, app, pilot, _):
        c = session.campaign
        pane = app.query_one(InitiativePane)
        pane._cursor_to("e:garde-marche")
        await pilot.press(*["+"] * 8)                              # the guard: 2 -> 10, above everyone
        await pilot.press("s")
        await pilot.pause()
        assert order(session) == ["thibault", "gorlois", "garde-marche", "sibylle"]
        assert current(session) == "gorlois" and c.encounter.entries[0].acted
        await pilot.press("n", "n", "n")                           # Gorlois, the guard, Sibylle
        await pilot.pause()
        assert c.encounter.round == 2
        assert order(session) == ["garde-marche", "thibault", "gorlois", "sibylle"]
        assert current(session) == "garde-marche"


# ---------------------------------------------------------------- the status word once


@pytest.mark.parametrize("status", sorted(STATUS_WORDS))
async def test_timer_status_word_shown_once(open_sample, pane_host, status: str) -> None:
    session = open_sample("magisphere")     # an opposition (gagné, perdu, égalité) and a countdown
    app, _ = make(pane_host, session)
    with session.edit("statut") as b:
        b.set(("timers", 0, "status"), status)
        b.set(("timers", 1, "status"), status)
        b.set(("timers", 1, "rounds"), 0 if status == "done" else 2)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        word = status_word(status)
        rows = [line for line in table_lines(app.query_one(InitiativePane)) if "⧗" in line]
        assert len(rows) == 2
        for row in rows:
            assert row.count(word) == 1, row


async def test_countdown_run_down_reads_termine_once(pane_app) -> None:
    async with pane_app("mir", initiative_pane, size=(80, 24)) as (session, app, pilot, _):
        pane = app.query_one(InitiativePane)
        pane._cursor_to("t:releve")
        await pilot.press("-", "-", "-")
        await pilot.pause()
        assert session.campaign.timers[1].status == "done"
        row = next(line for line in table_lines(pane) if "Relève" in line)
        assert row.count("terminé") == 1 and "0 round" in row
        detail = str(pane.query_one("#initiative-detail").render())
        assert detail.count("terminé") == 1


async def test_finished_extended_test_status_once(pane_app) -> None:
    async with pane_app("mir", initiative_pane, size=(80, 24)) as (session, app, pilot, notes):
        pane = app.query_one(InitiativePane)
        await pilot.press("E", "o")                                # out of the fight (R20)
        await pilot.pause()
        pane._cursor_to("t:guerison-callia")
        await pilot.press("r")                                     # the last test
        await pilot.pause()
        timer = session.campaign.timers[0]
        word = status_word(timer.status)
        assert timer.status in ("success", "failure")
        row = next(line for line in table_lines(pane) if "Guérison" in line)
        assert row.count(word) == 1
        await pilot.press("r")
        await pilot.pause()
        assert notes[-1].count(word) == 1


# ---------------------------------------------------------------- the interval's dice in the tray


async def test_interval_roll_shown_in_the_dice_tray(campaign_file, monkeypatch) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        shown: list[Any] = []
        monkeypatch.setattr(app.pane("dice-tray"), "show_record", shown.append, raising=False)
        notes: list[str] = []
        monkeypatch.setattr(app, "warn", lambda message, severity="warning": notes.append(message))
        await pilot.press("2")                                     # the initiative pane
        await pilot.pause()
        await pilot.press("E", "o")                                # out of the fight (R20)
        await pilot.pause()
        app.pane("initiative")._cursor_to("t:guerison-callia")
        await pilot.press("r")
        await pilot.pause()
        record = app.session.rolls[-1]
        assert record.line.endswith("· test 3")
        assert shown == [record]                                   # the logged roll, in the tray
        assert any("Guérison" in n and ("réussi" in n or "échoué" in n) for n in notes)   # and the notice


# ---------------------------------------------------------------- columns fit the pane


async def test_wide_layout_shows_conditions_and_actions(campaign_file) -> None:
    app = GMScreenApp(campaign_file("arpeges"))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        pane = app.pane("initiative")
        await pilot.pause()
        lines = table_lines(pane)
        assert pane.table.size.width < 50                          # the narrow top-right cell
        assert "États" in lines[0]
        thibault = next(line for line in lines if "Thibault" in line)
        sibylle = next(line for line in lines if "Sibylle" in line)
        assert "2 actions −3" in thibault                          # was off the right edge
        assert "Étourdie (1)" in sibylle
        assert "Le garde du ma…" in next(line for line in lines if "⧗" in line)


async def test_long_notes_cut_at_the_edge_and_whole_in_the_detail(open_sample, pane_host) -> None:
    session = open_sample("arpeges")
    with session.edit("états") as b:
        for name, rounds in (("Empoisonné par la lame du marchand", 3), ("Aveuglé par la farine", 2)):
            b.insert(("characters", 0, "conditions"), None, Condition(name=name, rounds=rounds))
    app, _ = make(pane_host, session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        pane = app.query_one(InitiativePane)
        thibault = next(line for line in table_lines(pane) if "Thibault" in line)
        assert "(3)" in thibault and "(2)" in thibault and "−3" in thibault   # rounds and malus kept
        assert "…" in thibault
        pane._cursor_to("e:thibault")
        await pilot.pause()
        detail = str(pane.query_one("#initiative-detail").render())
        assert "Empoisonné par la lame du marchand (3 rounds)" in detail
        assert "• Baratiner maître Gorlois" in detail


async def test_columns_follow_a_resize(pane_app) -> None:
    async with pane_app("mir", initiative_pane, size=(80, 24)) as (session, app, pilot, _):
        pane = app.query_one(InitiativePane)
        assert "Ébloui par la lanterne (1)" in next(line for line in table_lines(pane) if "Alexis" in line)
        await pilot.resize_terminal(46, 24)
        await pilot.pause()
        await pilot.pause()
        alexis = next(line for line in table_lines(pane) if "Alexis" in line)
        assert "(1)" in alexis and len(alexis.rstrip()) <= 46
        assert "Fièvre grise" in next(line for line in table_lines(pane) if "Callia" in line)


# ---------------------------------------------------------------- `p` gives ticks back step by step


async def test_p_gives_a_tick_back_across_a_change_made_in_the_pane(pane_app) -> None:
    """Ticks given back over several turns and other changes, and what the GM changed since
    kept: test_table_flows (previous turns give ticks back…; …keeps what the GM changed since)."""
    # round 2, the guard plays
    async with pane_app("mir", initiative_pane, size=(80, 24)) as (session, app, pilot, notes):
        c = session.campaign
        pane = app.query_one(InitiativePane)
        with session.edit("états") as b:                           # the guard: Sonné (2)
            b.insert(("characters", 3, "conditions"), None, Condition(name="Sonné", rounds=2))
        app.refresh_views()
        await pilot.press("n")                                     # the guard acts: Sonné 2 -> 1
        await pilot.pause()
        assert c.character("garde").conditions[-1].rounds == 1
        pane._cursor_to("e:chien")
        await pilot.press("+", "p")                                # another change, then back to the guard
        await pilot.pause()
        assert current(session) == "garde" and c.character("garde").conditions[-1].rounds == 2
        chien = next(e for e in c.encounter.entries if e.id == "chien")
        assert chien.initiative == 3                               # the change in between is kept
        assert pane.current_key() == "e:garde"


# ---------------------------------------------------------------- in either language


@pytest.mark.parametrize(("name", "said"), [
    ("Le garde de la porte", "au tour du garde de la porte"),
    ("L'ogre", "au tour de l'ogre"),
    ("La reine mère", "au tour de la reine mère"),
    ("Les jumeaux", "au tour des jumeaux"),
    ("Alexis", "au tour d'Alexis"),
    ("Loriane", "au tour de Loriane"),
])
async def test_whose_turn_contracts_with_the_name_in_french(open_sample, pane_host, name: str, said: str) -> None:
    session = open_sample("mir")
    turn = session.campaign.encounter.turn
    with session.edit("nom") as b:
        b.set(("encounter", "entries", turn, "name"), name)
    app, _notes = make(pane_host, session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        status = str(app.query_one(InitiativePane).query_one("#initiative-status").render())
        assert f"Round 2 · {said}" in status
        assert not any(slip in status for slip in ("de Le ", "de La ", "de L'", "de Les ", "de A"))


async def test_the_pane_in_english_keeps_the_games_words(open_sample, pane_host, english) -> None:
    session = open_sample("mir")
    app, notes = make(pane_host, session)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        pane = app.query_one(InitiativePane)
        assert pane.border_title == "Initiative"
        assert "Round 2 · Le garde de la porte's turn" in str(pane.query_one("#initiative-status").render())
        headers = [str(column.label) for column in pane.table.columns.values()]
        assert headers == ["", "Init", "Name", "", "Conditions · actions"]
        lines = "\n".join(table_lines(pane))
        assert "waits" in lines and "attend" not in lines           # Loriane waits
        assert "Ébloui par la lanterne" in lines                    # a condition: as the GM typed it
        await pilot.press("n", "n")                                 # Alexis's Ébloui (1) expires
        await pilot.pause()
        assert "Ébloui par la lanterne expires: Alexis" in notes
        await pilot.press("n")                                      # a new round
        await pilot.pause()
        assert "Round 3" in notes
        await pilot.press("E")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        texts = [str(w.render()) for w in dialog.query("Static, Button")]
        assert any("End the fight?" in t for t in texts)
        assert any("The initiative order is emptied (the timers stay)" in t for t in texts)
        assert any(t.startswith("End (y)") for t in texts) and any(t.startswith("No (n)") for t in texts)
        await pilot.press("y")
        await pilot.pause()
        assert "Fight over" in notes and session.campaign.encounter.entries == []
        assert session.last_label == "End of the fight"


async def test_the_language_switched_live_redraws_the_headers(open_sample, pane_host) -> None:
    from gmscreen import i18n

    session = open_sample("mir")
    app, _notes = make(pane_host, session)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        pane = app.query_one(InitiativePane)
        assert [str(c.label) for c in pane.table.columns.values()][2] == "Nom"
        i18n.set_language("en")
        pane.show_campaign(session)                 # what the app does on a change of language
        await pilot.pause()
        assert [str(c.label) for c in pane.table.columns.values()][2] == "Name"
        assert "Le garde de la porte's turn" in str(pane.query_one("#initiative-status").render())


async def test_n_on_an_empty_queue_offers_the_party_and_starts_the_fight(pane_app):
    async with pane_app("mir", initiative_pane) as (session, app, pilot, notes):
        c = session.campaign
        await pilot.press("E", "o")                                # the fight ends: nobody in the order
        await pilot.pause()
        assert order(session) == [] and c.encounter.round == 0
        rolls = len(session.rolls)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen) and app.screen.title_text == "Personne au combat : ajouter"
        labels = [label for _id, label in app.screen.options]
        assert labels[0] == "Tout le groupe : Alexis, Loriane, Callia"
        assert labels[1].startswith("Tous les PNJ : Le garde de la porte, ")
        await pilot.press("enter")                                 # the whole party, rolled and logged
        await pilot.pause()
        assert sorted(order(session)) == ["alexis", "callia", "loriane"]
        assert [r.who for r in session.rolls[rolls:]] == ["Alexis", "Loriane", "Callia"]
        assert {e.name: e.initiative for e in c.encounter.entries} == {
            r.who: r.result["total"] for r in session.rolls[rolls:]}
        assert c.encounter.round == 1 and current(session) == order(session)[0]   # and the fight starts
        app.table.undo()                                                 # the start, then the whole party
        app.table.undo()
        await pilot.pause()
        assert order(session) == [] and c.encounter.round == 0
        await pilot.press("S")                                     # S offers it too
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen) and app.screen.title_text == "Personne au combat : ajouter"
        await pilot.press("escape")                                # escape adds nobody, starts nothing
        await pilot.pause()
        assert order(session) == [] and c.encounter.round == 0


async def test_A_adds_the_npcs_mid_round_acting_this_round_or_next(pane_app):
    async with pane_app("mir", initiative_pane) as (session, app, pilot, notes):
        with session.edit("init") as b:                            # 10 or 11: above Callia, who has acted
            b.set(("initiative",), "1d2+9")
        assert current(session) == "garde"
        await pilot.press("A")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen) and app.screen.options[0][0] == "npc"   # the party is in
        await pilot.press("enter")                                 # all NPCs: the gaoler (the guard is in)
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)                # its slot has passed: asked when
        assert app.screen.title_text == "Round 2 en cours, Frère Anselme, geôlier : ce round ou le prochain ?"
        await pilot.press("enter")                                 # this round (the turns that follow:
        await pilot.pause()                                        # test_table_flows, NPCs join mid-round)
        assert order(session) == ["callia", "garde", "geolier", "alexis", "loriane", "chien"]
        assert "Frère Anselme, geôlier agit ce round, après l'actuel ; à sa place d'initiative au round 3" in notes
        app.table.undo()
        await pilot.pause()
        assert "geolier" not in order(session) and current(session) == "garde"
        app.select_character("geolier")
        await pilot.press("A")
        await pilot.pause()
        assert [oid for oid, _label in app.screen.options] == ["npc", "everyone", "selection"]
        await pilot.press("down", "down", "enter", "down", "enter")  # the selection, next round
        await pilot.pause()
        assert order(session)[0] == "geolier" and current(session) == "garde"
        assert "Frère Anselme, geôlier agit à partir du round 3 (sa place de ce round est passée)" in notes


async def test_roster_i_mid_round_asks_when_a_late_joiner_acts(pane_app):
    async with pane_app("eclats", initiative_pane, lambda: RosterPane(id="roster")) as (session, app, pilot, notes):
        with session.edit("init") as b:                            # 10 or 11: above Ysaure, who has acted
            b.set(("initiative",), "1d2+9")
        app.select_character("meunier")
        app.query_one(RosterPane).focus()
        await pilot.pause()
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("enter")                                 # this round: right after the Hantise
        await pilot.pause()                                        # (plays next: test_table_flows, a late joiner)
        assert order(session) == ["ysaure", "hantise", "meunier", "mael", "berthe"]
