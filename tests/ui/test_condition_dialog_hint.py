"""The condition dialog says, as the GM types, whether the effect will apply ("applies: −1 die")
or stays a reminder, in the UI language; an effect typed in English then bites on the roll line
like the game's French words. Real key presses on private copies of the samples, at 80×24."""

from __future__ import annotations

from typing import Any

from gmscreen.ui import GMScreenApp
from gmscreen.ui.screens.roster_dialogs import ConditionScreen

from _pilot import press, ready, type_keys
from test_conditions_tray import _type, on_screen


def _hint(app: Any) -> str:
    hint = app.screen.query_one("#effect-hint")
    return str(hint.render()) if hint.display else ""


async def _open_dialog(app: Any, pilot: Any, row: int) -> ConditionScreen:
    await press(pilot, "1")                        # the roster
    app.pane("roster").table.move_cursor(row=row)
    await pilot.pause()
    await press(pilot, "c")
    dialog = app.screen
    assert isinstance(dialog, ConditionScreen)
    return dialog


async def test_an_english_effect_says_it_applies_then_bites_on_the_roll_line(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"), language="en")          # gmscreen --lang en
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        dialog = await _open_dialog(app, pilot, 1)                 # Loriane: no condition yet
        assert dialog.query_one("#field-effect").placeholder == "−1 die, wound −1 die…"
        await press(pilot, *"Rain", "tab")
        assert _hint(app) == ""                                    # nothing typed: nothing said
        await type_keys(app, pilot, "-1 di")
        assert _hint(app).startswith("a reminder only (MIR reads e.g.")    # not yet an effect
        await press(pilot, "e")
        assert _hint(app) == "applies: −1 die"
        await press(pilot, "enter")
        assert not app.screen.is_modal
        added = app.session.campaign.character("loriane").conditions[-1]
        assert (added.name, added.effect) == ("Rain", "-1 die")

        await _type(pilot, "loriane éloquence sd3")
        row = on_screen(app, app.pane("dice-tray").info)
        assert "Rain -1 die: " in row and "→" in row and "SD 3" in row, row
        assert app.table.draft is not None and app.table.draft.odds_request["modifier"] == -1          # R3: a situation die fewer
        await press(pilot, "enter")
        record = app.session.rolls[-1]
        assert record.result["conditions"] == {"applied": ["Loriane · Rain: -1 die"]}


async def test_in_french_the_dialog_reads_english_and_french_and_says_a_reminder(campaign_file) -> None:
    app = GMScreenApp(campaign_file("magisphere"))                  # French, the default
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        dialog = await _open_dialog(app, pilot, 0)                 # Shady: Ivre (Malus 3)
        assert dialog.query_one("#field-effect").placeholder == "Malus 3, Malus 1…"
        await type_keys(app, pilot, "Sonné", "tab")
        await type_keys(app, pilot, "saigne")
        assert _hint(app) == "un simple rappel (Magisphère lit par exemple Malus 3, Malus 1…)"
        dialog.query_one("#field-effect").value = ""
        await type_keys(app, pilot, "penalty 2")
        assert _hint(app) == "s'applique : Malus 2"
        await press(pilot, "enter")
        assert not app.screen.is_modal
        assert app.session.campaign.character("shady").conditions[-1].effect == "penalty 2"

        await _type(pilot, "shady négociation 25 sans ivre")
        row = on_screen(app, app.pane("dice-tray").info)
        assert "Sonné penalty 2 : " in row and "seuil 25" in row, row
        assert app.table.draft is not None and app.table.draft.odds_request["malus"] == 2
