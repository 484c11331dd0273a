"""Initiative pane through real key presses: turns, rounds, conditions, delays, timers, declarations."""

from __future__ import annotations

from gmscreen import rules
from gmscreen.ui.screens.roster_dialogs import ChoiceScreen, ConfirmScreen, PromptScreen
from gmscreen.ui.widgets.initiative.pane import InitiativePane, simultaneous_actions, timer_progress
from gmscreen.ui.widgets.roster.pane import RosterPane

from _initiative import current, initiative_pane, make, order


async def test_whole_round_with_conditions_and_countdown(pane_app):
    async with pane_app("mir", initiative_pane) as (session, app, pilot, notes):
        c = session.campaign
        pane = app.query_one(InitiativePane)
        assert pane.current_key() == "e:garde"                     # cursor on the current actor
        assert "Round 2 · au tour de Le garde de la porte" in str(pane.query_one("#initiative-status").render())
        await pilot.press("n")                                     # garde acts
        await pilot.pause()
        assert current(session) == "alexis" and c.encounter.entries[1].acted
        assert app.selected_id == "alexis"
        await pilot.press("n")                                     # Alexis ends his turn: Ébloui (1) expires
        await pilot.pause()
        assert c.character("alexis").conditions == []
        assert "Ébloui par la lanterne expire : Alexis" in notes
        assert current(session) == "chien"                         # Loriane waits: skipped
        await pilot.press("n")                                     # last one: new round
        await pilot.pause()
        assert c.encounter.round == 3 and current(session) == "callia"
        assert not any(e.acted for e in c.encounter.entries)
        assert c.timers[1].rounds == 2                             # countdown ticked
        assert "Round 3" in notes
        assert c.character("callia").conditions[0].rounds is None  # no duration: never ticks
        await pilot.press("p")                                     # right after n: that turn is undone
        await pilot.pause()
        assert c.encounter.round == 2 and current(session) == "chien"
        assert c.timers[1].rounds == 3                             # the countdown tick comes back
        assert not c.encounter.entries[-1].acted
        await pilot.press("p")                                     # again: Alexis's turn, Ébloui back
        await pilot.pause()
        assert current(session) == "alexis" and c.character("alexis").conditions[0].rounds == 1
        await pilot.press("p")
        await pilot.pause()
        assert current(session) == "garde" and not session.can_undo
        await pilot.press("p")                                     # nothing left to undo: the order moves
        await pilot.pause()
        assert current(session) == "callia" and session.last_label == "Tour précédent"
        app.undo()
        await pilot.pause()
        assert c.encounter.round == 2 and current(session) == "garde"
        assert c.character("alexis").conditions[0].rounds == 1 and c.timers[1].rounds == 3


async def test_countdown_ends_with_notice(pane_app):
    async with pane_app("arpeges", initiative_pane) as (session, app, pilot, notes):
        c = session.campaign
        for _ in range(3 + 4 + 4):  # the rest of round 1 (Thibault has acted), rounds 2 and 3
            await pilot.press("n")
        await pilot.pause()
        assert c.encounter.round >= 4
        assert c.timers[0].status == "done" and c.timers[0].rounds == 0
        assert "Fin du compte à rebours : Le garde du marché arrive à l'étal" in notes
        assert "Étourdie expire : Sibylle" in notes


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
        app.undo()
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
        assert order(session) == ["granok", "gros-bob", "orc-a", "shady", "rival"]
        assert current(session) == "shady"                        # inserted above: turn follows
        await pilot.press("a", "enter", *"Kraken", "enter")      # empty initiative: rolled 1d20, logged
        await pilot.pause()
        kraken = next(e for e in session.campaign.encounter.entries if e.name == "Kraken")
        assert session.rolls[-1].who == "Kraken" and session.rolls[-1].result["total"] == kraken.initiative
        app.undo()
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
        assert timer_progress(c, c.timers[0]) == "6/8 · test 2/3 · 1 jour"
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
        app.undo()
        await pilot.pause()
        assert c.timers[0].status == "running" and len(c.timers[0].dice["rolls"]) == 2


async def test_opposition_round_magisphere(pane_app):
    async with pane_app("magisphere", initiative_pane) as (session, app, pilot, notes):
        c = session.campaign
        assert timer_progress(c, c.timers[0]) == "Granok 2 – 1 le gros Bob · en 3 · manche 2"
        app.query_one(InitiativePane)._cursor_to("t:revanche")
        await pilot.press("r")
        await pilot.pause()
        timer = c.timers[0]
        assert len(timer.dice["actor_dice"]) == len(timer.dice["opponent_dice"]) == 3
        result = rules.resolve({**timer.request, **timer.dice})
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
                                 "max_tests": 0, "interval": "tour"}
        await pilot.press("r")                                     # 1 tour: allowed during the fight
        await pilot.pause()
        assert len(session.campaign.timers[-1].dice["rolls"]) == 1


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
        app.undo()
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
