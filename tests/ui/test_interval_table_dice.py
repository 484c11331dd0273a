"""`R` in the initiative pane: the next interval of an extended test with the dice rolled at the
table, typed as after `=` in the quick-roll line; a wrong count is refused in the form."""

from __future__ import annotations

from gmscreen import rules
from gmscreen.ui.screens.roster_dialogs import PromptScreen
from gmscreen.ui.widgets.initiative.pane import InitiativePane

from _initiative import initiative_pane


async def test_a_mir_interval_rolled_at_the_table(pane_app) -> None:
    async with pane_app("mir", initiative_pane, size=(80, 24)) as (session, app, pilot, notes):
        c = session.campaign
        await pilot.press("E", "o")                                # R20: the day passes once the fight ends
        await pilot.pause()
        app.query_one(InitiativePane)._cursor_to("t:guerison-callia")
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, PromptScreen)
        await pilot.press(*"3 7 12 1", "enter")                   # one die short: refused, the form stays
        await pilot.pause()
        assert isinstance(app.screen, PromptScreen) and len(c.timers[0].dice["rolls"]) == 2
        await pilot.press("space", "5", "enter")
        await pilot.pause()
        assert not isinstance(app.screen, PromptScreen)
        timer = c.timers[0]
        assert timer.dice["rolls"][2] == [3, 7, 12, 1, 5]
        record = session.rolls[-1]
        assert record.line.endswith("· test 3 = 3 7 12 1 5") and record.request["rolls"][2] == [3, 7, 12, 1, 5]
        assert record.result == rules.resolve(record.request) and timer.status == record.result["outcome"]
        app.table.undo()
        await pilot.pause()
        assert len(c.timers[0].dice["rolls"]) == 2


async def test_a_magisphere_round_rolled_at_the_table(pane_app) -> None:
    async with pane_app("magisphere", initiative_pane, size=(80, 24)) as (session, app, pilot, notes):
        c = session.campaign
        app.query_one(InitiativePane)._cursor_to("t:revanche")
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, PromptScreen)
        await pilot.press(*"14 / 9", "enter")
        await pilot.pause()
        timer = c.timers[0]
        assert timer.dice == {"actor_dice": [20, 7, 14], "opponent_dice": [18, 15, 9]}
        assert session.rolls[-1].who == "Granok"


async def test_a_magisphere_round_with_the_skills_the_gm_names(pane_app) -> None:
    """R18: a chase alternates skills; `R` names this round's (the form holds the last round's)."""
    async with pane_app("magisphere", initiative_pane, size=(80, 24)) as (session, app, pilot, notes):
        c = session.campaign
        app.query_one(InitiativePane)._cursor_to("t:revanche")
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, PromptScreen)
        await pilot.press(*"16 / 10", "tab", *"Natation", "tab", "6", "tab", "tab", *"12", "enter")
        await pilot.pause()
        timer = c.timers[0]
        assert timer.dice == {"actor_dice": [20, 7, 16], "opponent_dice": [18, 15, 10]}
        assert timer.round_stats[2] == {"actor_stat": 6, "actor_skill": 0, "opponent_stat": 12,
                                        "opponent_skill": 4, "label": "Natation",
                                        "opponent_bonus": 1}   # Granok's Bras engourdi, this round's own
        record = session.rolls[-1]
        assert record.line.endswith("· round 3 (Natation) = 16 / 10")
        assert record.request["kind"] == "opposed" and record.result["winner"] == "opponent"
        assert timer.status == "running"                          # 2 – 2 (with Force, Granok had won)
        await pilot.press("R")                                    # the next round's form holds Natation's
        await pilot.pause()
        assert app.screen.values()["label"] == "Natation" and app.screen.values()["actor_stat"] == "6"
