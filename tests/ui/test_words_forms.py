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
