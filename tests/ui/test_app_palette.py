"""Command palette: keys, characters with hostile names, skills, themes, roll lines the tray takes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandPalette

from gmscreen.play.quickroll import QuickRollError, parse
from gmscreen.rules import SYSTEMS
from gmscreen.ui import GMScreenApp
from gmscreen.ui.palette import GMScreenCommands

from _pilot import press, ready, type_in_palette

HOSTILE = {"Alexis": "[/]", "Loriane": "[@click=app.quit]", "Callia": "Orc [A]"}


@pytest.fixture
def hostile_campaign(campaign_file) -> Path:
    path = campaign_file("mir")
    text = path.read_text(encoding="utf-8")
    for plain, hostile in HOSTILE.items():
        text = text.replace(f'name = "{plain}"', f'name = "{hostile}"', 1)
    text = text.replace('name = "Le garde de la porte"', 'name = "Bob\\u001b]2;pwn\\u0007"', 1)
    text = text.replace('name = "Les geôles de Vaskov"', 'name = "[b]Camp\\u001b[2J"', 1)
    path.write_text(text, encoding="utf-8")
    return path



async def search(app: Any, query: str) -> list[Any]:
    provider = GMScreenCommands(app.screen)
    return [hit async for hit in provider.search(query)]


async def test_palette_finds_characters_with_hostile_names_literally(hostile_campaign) -> None:
    app = GMScreenApp(hostile_campaign)
    async with app.run_test() as pilot:
        await ready(app, pilot)
        names = {c.name: c.id for c in app.session.campaign.characters}
        assert set(HOSTILE.values()) <= set(names)
        for hostile in HOSTILE.values():
            hits = [h for h in await search(app, f"Choisir {hostile}") if h.text == f"Choisir {hostile}"]
            assert hits, hostile
            assert hits[0].match_display.plain == f"Choisir {hostile}"
        # Escape sequences never reach the screen: shown as U+FFFD, found by their printable part.
        hits = [h for h in await search(app, "Choisir Bob") if h.text.startswith("Choisir Bob")]
        assert hits and "\x1b" not in hits[0].text and "\x07" not in hits[0].text and "\ufffd" in hits[0].text
        status = app.status.render()
        assert "[b]Camp\ufffd[2J" in str(status) and "\x1b" not in str(status)
        # Through the real palette: type, enter, the character is selected and the roster shown.
        await pilot.press("4")
        await press(pilot, "ctrl+p")
        assert isinstance(app.screen, CommandPalette)
        await type_in_palette(app, pilot, "Choisir Orc [A]")
        await press(pilot, "enter")
        await pilot.pause()
        assert app.selected_id == names["Orc [A]"]
        assert app.current_pane == "roster"
        assert app.is_running


async def test_palette_lists_key_actions_and_runs_them(campaign_file) -> None:
    app = GMScreenApp(campaign_file("tedeum"))
    async with app.run_test() as pilot:
        await ready(app, pilot)
        titles = {h.text: h for h in await search(app, "Journal")}
        assert "Journal" in titles and "touche 4 '" in titles["Journal"].help
        app.set_focus(None)
        await press(pilot, "ctrl+p")
        await type_in_palette(app, pilot, "Difficultés")
        await press(pilot, "enter")
        await pilot.pause()
        assert app.current_pane == "difficulty"


async def test_palette_offers_skills_and_themes(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test() as pilot:
        await ready(app, pilot)
        texts = [h.text for h in await search(app, "Jet Loriane")]
        assert any(t.startswith("Jet Loriane ") for t in texts)
        texts = [h.text for h in await search(app, "Thème gmscreen")]
        assert {"Thème gmscreen-light", "Thème gmscreen-contrast", "Thème gmscreen-ansi"} <= set(texts)
        hit = next(h for h in await search(app, "Thème gmscreen-light") if h.text == "Thème gmscreen-light")
        hit.command()
        await pilot.pause()
        assert app.theme == "gmscreen-light"


@pytest.mark.parametrize("system", tuple(SYSTEMS))
async def test_palette_roll_commands_are_lines_the_tray_takes(campaign_file, system: str) -> None:
    app = GMScreenApp(campaign_file(system))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        provider = GMScreenCommands(app.screen)
        lines = [command.line.rstrip() for command in provider._commands() if command.line]
        assert lines
        campaign = app.session.campaign
        for line in lines:
            title = line
            try:
                parse(line, campaign)
            except QuickRollError as exc:
                # Asking for what comes next (a characteristic, a difficulty) is fine; refusing
                # a word of the line is a dead end offered by the palette.
                skill_at = len(line) - len(line.split()[-1])
                assert not skill_at <= exc.position < len(line), f"palette offers {title!r}, the tray says: {exc}"


async def test_palette_roll_line_for_a_name_with_an_escape_parses(campaign_file):
    """"Roll <name> <skill>" puts the names as shown (ESC → U+FFFD); the line must still parse."""
    from gmscreen.ui import GMScreenApp
    from gmscreen.ui.palette import GMScreenCommands
    from gmscreen.ui.widgets.tray.dice_tray import DiceTray

    path = campaign_file("arpeges")
    text = path.read_text(encoding="utf-8")
    text = text.replace('name = "Thibault"', 'name = "Bob\\u001b]2;pwn\\u0007"', 1)
    text = text.replace("Baratin = -1", '"Bara\\u001btin" = -1', 1)
    path.write_text(text, encoding="utf-8")
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        hits = [h async for h in GMScreenCommands(app.screen).search("Jet Bob Bara")]
        hit = next(h for h in hits if h.text == "Jet Bob\ufffd]2;pwn\ufffd Bara\ufffdtin")
        hit.command()
        await pilot.pause()
        tray = app.query_one(DiceTray)
        assert tray.line.value == "Bob\ufffd]2;pwn\ufffd Bara\ufffdtin "
        tray.line.value += "-3"
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        record = app.session.rolls[-1]
        assert record.who == "Bob\x1b]2;pwn\x07" and record.request["skill_level"] == 4
