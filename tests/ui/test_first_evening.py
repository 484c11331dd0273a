"""The first evening (issue 24, "Done when"), in English and in French, through real keys alone:
a new campaign from ctrl+o (the game picked, a short file name typed), four characters made from
the form, a condition typed in the language spoken that the dialog says applies, a health track,
a fight of two rounds (the party added to the turn order, `n` for each turn), quit, and a second
screen on the same file that shows the same state. No file is edited by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, OptionList

from gmscreen.i18n import _
from gmscreen.rules import registry
from gmscreen.ui import GMScreenApp
from gmscreen.ui.screens.edit_character import EditCharacterScreen
from gmscreen.ui.screens.roster_dialogs import ChoiceScreen, ConditionScreen, PromptScreen

from _pilot import burst, press, ready, to_new_campaign, until

EVENINGS = {
    # language: the game, the four characters, the condition (name, effect) and what the dialog says
    "en": ("arpeges", ("Ada", "Bo", "Cy", "Di"), ("Dazed", "-2 to difficulty"),
           "applies: −2 to the difficulty of their actions"),
    "fr": ("tedeum", ("Anne", "Blaise", "Côme", "Dine"), ("Sonnée", "malus"),
           "s'applique : Malus (1 cran de dé en moins)"),
}


async def typed(app: Any, pilot: Any, text: str) -> None:
    """`text` typed into the field with the focus as a fast typist does (the keys sent at once,
    then the screen lets them in)."""
    field = app.focused
    assert isinstance(field, Input)
    start = field.value
    burst(app, *text)
    assert await until(app, pilot, lambda: field.value == start + text), (field.value, text)


def state(app: Any) -> tuple:
    """What the GM built, as the screen holds it."""
    campaign = app.session.campaign
    enc = campaign.encounter
    return (campaign.system,
            [(c.name, c.side, c.sheet, [(k.name, k.effect, k.rounds) for k in c.conditions],
              [(t.name, t.value, t.max) for t in c.tracks]) for c in campaign.characters],
            enc.round, enc.turn, [(e.name, e.character, e.initiative) for e in enc.entries],
            [(r.who, r.line) for r in app.session.rolls])           # the initiatives rolled, logged


@pytest.mark.parametrize("lang", sorted(EVENINGS))
async def test_the_first_evening(lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game, names, (condition, effect), applies = EVENINGS[lang]
    monkeypatch.chdir(tmp_path)                     # the file typed is a short relative name
    app = GMScreenApp(language=lang)                # `gmscreen --lang …` on a first run
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        # A new campaign from ctrl+o: the game, then the file.
        await to_new_campaign(app, pilot)
        games = app.screen.query_one("#new-game", OptionList)
        systems = list(registry.system_ids())
        steps = systems.index(game) - (games.highlighted or 0)
        await press(pilot, *(["down"] * steps if steps > 0 else ["up"] * -steps), "enter")
        assert app.screen.query_one("#new-path", Input).has_focus
        await press(pilot, *"soir", "enter")
        assert await until(app, pilot, lambda: app.session is not None and app.session.path.name == "soir.toml")
        await ready(app, pilot)
        assert app.session.campaign.system == game

        # Four characters from the form (the name typed, the sheet's own values), the example gone.
        await press(pilot, "1", "x", "enter")
        assert app.session.campaign.characters == []
        for name in names:
            await press(pilot, "a")
            assert isinstance(app.screen, EditCharacterScreen)
            await typed(app, pilot, name)
            await press(pilot, "ctrl+s")
        assert [c.name for c in app.session.campaign.characters] == list(names)
        assert all(c.sheet for c in app.session.campaign.characters)

        # A condition typed in the language spoken, that the dialog says applies.
        await press(pilot, "home", "c")
        assert isinstance(app.screen, ConditionScreen)
        await typed(app, pilot, condition)
        await press(pilot, "tab")
        await typed(app, pilot, effect)
        hint = app.screen.query_one("#effect-hint")
        assert await until(app, pilot, lambda: str(hint.render()) == applies), str(hint.render())
        await press(pilot, "enter")
        first = app.session.campaign.characters[0]
        assert [(k.name, k.effect) for k in first.conditions] == [(condition, effect)]

        # A health track on the second character, the game's own proposed; one hit.
        await press(pilot, "down", "T")
        assert isinstance(app.screen, PromptScreen)
        await press(pilot, "ctrl+s", "plus")
        second = app.session.campaign.characters[1]
        assert [(t.value, t.max) for t in second.tracks] == [(1, 10)]

        # A fight of two rounds: the party into the turn order (their initiatives rolled), n each turn.
        await press(pilot, "2", "S")
        assert isinstance(app.screen, ChoiceScreen)
        await press(pilot, "enter")                 # the party
        enc = app.session.campaign.encounter
        assert enc.round == 1 and len(enc.entries) == 4
        await press(pilot, *["n"] * 8)
        assert enc.round == 3 and enc.turn == 0
        built = state(app)
        assert len(built[-1]) == 4
        await press(pilot, "q")                     # quit: the campaign saved
        assert await until(app, pilot, lambda: app.return_code is not None or not app.is_running)

    # The same file opened again on a second screen: the same evening.
    again = GMScreenApp(tmp_path / "soir.toml", language=lang)
    async with again.run_test(size=(100, 30)) as pilot:
        await ready(again, pilot)
        assert state(again) == built
        roster = again.pane("roster").table
        assert [str(roster.get_row_at(r)[1]) for r in range(roster.row_count)] == list(names)
        status = str(again.pane("initiative").query_one("#initiative-status").render())
        assert status.startswith(_("Round {n}").format(n=3)), status
