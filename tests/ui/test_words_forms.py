"""Issue 24, awkward English on the screen: the character form says "one Compétence per line"
(real keys through Pilot), in English and in French."""

from __future__ import annotations

import pytest

from gmscreen.ui import GMScreenApp
from gmscreen.ui.screens.edit_character import EditCharacterScreen

from _pilot import press, ready, screen_text, until


@pytest.mark.parametrize(("language", "said"), [("en", "one compétence per line: Name = value (1…5)"),
                                                ("fr", "une ligne par compétence : Nom = valeur (1…5)")])
async def test_the_form_says_one_skill_per_line(campaign_file, language: str, said: str) -> None:
    app = GMScreenApp(campaign_file("eclats"), language=language)
    async with app.run_test(size=(110, 60)) as pilot:
        await ready(app, pilot)
        await press(pilot, "escape", "1", "e")
        await until(app, pilot, lambda: isinstance(app.screen, EditCharacterScreen))
        text = "\n".join(screen_text(app))
        assert said in text and "one line a" not in text


async def test_a_lost_contest_is_said_from_the_rollers_side(campaign_file) -> None:
    """Not "Callia: The door guard wins": "Callia loses to …", the opponent named in full."""
    from gmscreen.rules import resolve

    app = GMScreenApp(campaign_file("mir"), language="en")
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        request = {"system": "mir", "kind": "opposed", "actor_pool": 2, "opponent_pool": 2}
        result = resolve({**request, "actor_dice": [1, 2], "opponent_dice": [8, 9]})
        assert result["winner"] == "opponent"
        line = "callia infiltration vs garde instinct"
        record = app.session.record_roll(who="Callia", line=line, request=request, result=result)
        tray = app.pane("dice-tray")
        tray.show_record(record)
        await pilot.pause()
        shown = str(tray.result_view.render())
        guard = next(c.name for c in app.session.campaign.characters if "garde" in c.name.lower())
        assert f"Callia loses to {guard}" in shown and "Callia: " not in shown, shown
