"""Keyboard flows found broken while running whole fights at 80×24 (QA), kept as regressions."""

from __future__ import annotations


import pytest

from gmscreen.rules import SYSTEMS
from gmscreen.ui import GMScreenApp
from gmscreen.ui.palette import GMScreenCommands
from gmscreen.play.quickroll import QuickRollError, parse

from _pilot import ready



async def test_repeat_from_a_pane_keeps_focus_there_and_the_typed_line(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        tray = app.pane("dice-tray")
        await pilot.press("slash", *"6d12 sd2", "enter")
        await pilot.pause()
        assert len(app.session.rolls) == 1
        await pilot.press(*"loriane sd3")                  # a line being typed
        await pilot.press("escape", "4")                   # off to the log
        await pilot.pause()
        assert app._pane_of(app.focused).id == "log"
        await pilot.press("full_stop")                     # repeat the last roll from the log
        await pilot.pause()
        assert len(app.session.rolls) == 2 and app.session.rolls[-1].line == "6d12 sd2"
        assert app._pane_of(app.focused).id == "log"       # still in the log...
        assert tray.line.value == "loriane sd3"            # ...and the typed line is kept
        await pilot.press("z")                             # a pane key, not text in the line
        await pilot.pause()
        assert app.screen.maximized is app.pane("log")
        assert tray.line.value == "loriane sd3"


@pytest.mark.parametrize("system", tuple(SYSTEMS))
async def test_palette_roll_commands_are_lines_the_tray_takes(campaign_file, system: str) -> None:
    app = GMScreenApp(campaign_file(system))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        provider = GMScreenCommands(app.screen)
        titles = [title for title, *_ in provider._commands() if title.startswith("Roll ")]
        assert titles
        campaign = app.session.campaign
        for title in titles:
            line = title[len("Roll "):]
            try:
                parse(line, campaign)
            except QuickRollError as exc:
                # Asking for what comes next (a characteristic, a difficulty) is fine; refusing
                # a word of the line is a dead end offered by the palette.
                skill_at = len(line) - len(line.split()[-1])
                assert not skill_at <= exc.position < len(line), f"palette offers {title!r}, the tray says: {exc}"


async def test_escape_after_the_dice_are_rolled_does_not_drop_the_roll(campaign_file) -> None:
    """Éclats: Ysaure rolls, rerolls, then escape — the dice shown must end in the log."""
    import random

    app = GMScreenApp(campaign_file("eclats"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        tray = app.pane("dice-tray")
        tray.rng = random.Random(4)
        await pilot.press("slash", *"ysaure emp calmer 9", "enter")
        await pilot.pause()
        assert tray.flow is not None and tray.flow.prompt is not None     # reroll or keep?
        await pilot.press("r")
        await pilot.pause()
        assert tray.flow is not None and tray.flow.prompt is not None     # one roll left: asked again
        dice = list(tray.flow.request["dice"])
        await pilot.press("escape")
        await pilot.pause()
        assert tray.flow is not None and app.session.rolls == []           # still asked, not dropped
        await pilot.press("g")
        await pilot.pause()
        assert len(app.session.rolls) == 1 and tray.flow is None
        assert app.session.rolls[-1].result["dice"] == dice == [3, 4]


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


async def test_duplicated_npcs_with_long_names_stay_apart_in_the_roster(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await pilot.press("1", *["up"] * 8, "down", "down", "down", "d")   # Le garde de la porte
        await pilot.pause()
        await pilot.press("backspace", "2", "enter")
        await pilot.pause()
        names = [c.name for c in app.session.campaign.characters]
        assert "Le garde de la porte 2" in names and "Le garde de la porte 3" in names
        table = app.pane("roster").query_one("DataTable")
        shown = [str(table.get_row_at(i)[1]) for i in range(table.row_count)]
        garde = [s for s in shown if s.startswith("Le garde")]
        assert len(garde) == 3 and len(set(garde)) == 3, garde
        assert garde[1].endswith(" 2") and garde[2].endswith(" 3")


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
