"""Damage tracks on the screen, through real keys: T adds the game's track to the character
under the cursor, + takes hits up to their defeat, the roster and the initiative say so,
n passes over them, ctrl+z brings them back."""

from __future__ import annotations

from gmscreen.ui import GMScreenApp
from gmscreen.ui.screens.roster_sheet import SheetScreen
from gmscreen.ui.widgets.initiative.pane import InitiativePane
from gmscreen.ui.widgets.roster.sheet import sheet_content

from _pilot import press, ready, type_keys


def current(app) -> str:
    enc = app.session.campaign.encounter
    return enc.entries[enc.turn].id


def row_text(table, key: str) -> str:
    return " ".join(str(cell) for cell in table.get_row(key))


async def add_track(app, pilot, who: str, maximum: str) -> None:
    roster = app.pane("roster")
    app.select_character(who)
    roster.focus()
    await pilot.pause()
    await press(pilot, "T")                        # the form, the game's track proposed
    await press(pilot, "tab", *["backspace"] * 3, *maximum, "ctrl+s")


async def test_a_track_taken_to_its_maximum_takes_them_out_of_the_turn_order(campaign_file) -> None:
    path = campaign_file("eclats")                 # round 3: Hantise plays, then Berthe (Maël waits)
    app = GMScreenApp(path)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        await add_track(app, pilot, "berthe", "2")
        berthe = app.session.campaign.character("berthe")
        assert [(t.name, t.value, t.max) for t in berthe.tracks] == [("Coups", 0, 2)]
        roster = app.pane("roster")
        assert "Coups 0/2" in row_text(roster.table, "berthe")
        await press(pilot, "+", "+")               # two hits: defeated
        assert berthe.tracks[0].value == 2
        assert "Coups 2/2 ✗" in row_text(roster.table, "berthe")
        initiative = app.query_one(InitiativePane)
        assert "hors de combat" in row_text(initiative.table, "e:berthe")
        await press(pilot, "+")                    # refused: already at the maximum
        assert berthe.tracks[0].value == 2
        await press(pilot, "enter")                # the full sheet says it
        assert isinstance(app.screen, SheetScreen)
        text = sheet_content(app.session.system, berthe).plain
        assert "Pistes\n  • Coups 2/2  hors de combat\n  Hors de combat : l’ordre du tour saute" in text
        await press(pilot, "escape")
        assert current(app) == "hantise"
        await press(pilot, "n")                    # Hantise acts; Berthe is passed over: a new round
        assert app.session.campaign.encounter.round == 4 and current(app) == "ysaure"
        await press(pilot, "ctrl+z", "ctrl+z")     # the turn, then the hit that defeated her
        berthe = app.session.campaign.character("berthe")
        assert berthe.tracks[0].value == 1 and current(app) == "hantise"
        assert "hors de combat" not in row_text(initiative.table, "e:berthe")
        await press(pilot, "n")                    # back in: her turn comes
        assert current(app) == "berthe"
    text = path.read_text(encoding="utf-8")
    assert "[[characters.tracks]]" in text and 'name = "Coups"' in text


async def test_mir_offers_blessures_and_counts_them_on_the_sheet(campaign_file) -> None:
    path = campaign_file("mir")                    # Callia has one wound on her sheet
    comments = [line for line in path.read_text(encoding="utf-8").splitlines() if line.lstrip().startswith("#")]
    app = GMScreenApp(path)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        await add_track(app, pilot, "callia", "3")
        callia = app.session.campaign.character("callia")
        assert [(t.name, t.value, t.max) for t in callia.tracks] == [("Blessures", 1, 3)]   # her wound
        await press(pilot, "+")                    # a hit is a wound: one die less in a fight (R4)
        assert callia.tracks[0].value == 2 and callia.sheet["state"]["blessures"] == 2
        assert "Blessures 2/3" in row_text(app.pane("roster").table, "callia")
    text = path.read_text(encoding="utf-8")
    assert "blessures = 2" in text and all(line in text for line in comments)


async def test_several_tracks_ask_which_and_t_takes_one_off(campaign_file) -> None:
    app = GMScreenApp(campaign_file("tedeum"))     # round 1: Saint-Gelais plays
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        await add_track(app, pilot, "saint-gelais", "1")
        await press(pilot, "T")                    # tracks already: a new one, or one taken off
        assert "Pistes du capitaine de Saint-Gelais" in str(app.screen.query_one("#dialog-title").render())
        await press(pilot, "enter")                # "New track…": the form, its name to type
        await type_keys(app, pilot, "Fatigue", "tab", *["backspace"] * 3, "3", "ctrl+s")
        ch = app.session.campaign.character("saint-gelais")
        assert [(t.name, t.max) for t in ch.tracks] == [("Coups", 1), ("Fatigue", 3)]
        await press(pilot, "+", "down", "enter")   # which track? the second
        assert [t.value for t in ch.tracks] == [0, 1]
        await press(pilot, "+", "enter")           # the first: at its maximum, defeated
        assert [t.value for t in ch.tracks] == [1, 1]
        assert app.session.campaign.encounter.entries[app.session.campaign.encounter.turn].id == "saint-gelais"
        await press(pilot, "T", "down", "enter")   # "Remove Coups 1/1": back in the fight
        ch = app.session.campaign.character("saint-gelais")
        assert [t.name for t in ch.tracks] == ["Fatigue"]
        await press(pilot, "ctrl+z")               # undone: the track is back, and the defeat
        assert [t.name for t in app.session.campaign.character("saint-gelais").tracks] == ["Coups", "Fatigue"]


def test_a_hostile_track_name_is_shown_literally() -> None:
    from gmscreen.campaign.model import Character, Track
    from gmscreen.rules import get_system
    from gmscreen.ui.widgets.roster.sheet import glance

    ch = Character("x", "X", tracks=[Track("[@click=app.quit]\x1b[2J", 3, 3)])
    line = glance(get_system("eclats"), ch, ascii=True).plain
    assert line.startswith("[@click=app.quit]\ufffd[2J 3/3 KO") and "\x1b" not in line
    text = sheet_content(get_system("eclats"), ch).plain
    assert "[@click=app.quit]\ufffd[2J 3/3" in text and "\x1b" not in text
