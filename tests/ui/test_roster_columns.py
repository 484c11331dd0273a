"""The roster's stats line is seen whole, within the pane, for each game at 80×24 and 120×40.

The checks read the screen as drawn (the compositor's lines) and look for each character's
whole stats line inside the table's visible width (less its scrollbar, if any).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

import gmscreen.rules
from gmscreen.rules import System
from gmscreen.ui import GMScreenApp
from gmscreen.ui.widgets.roster.pane import (CONDITIONS_MIN, NAME_FLOOR, NAME_MIN, NAME_WIDTH, Columns, RosterPane,
                                        fit_name, plan_columns)
from gmscreen.ui.widgets.roster.sheet import glance, glance_header, glance_legend, sheet_content

from _pilot import ready, screen_strips

SYSTEMS = tuple(gmscreen.rules.SYSTEMS)
SIZES = ((80, 24), (120, 40))

# The labels every character's line must show, per game (wounds and Impulsion only when there are some).
LABELS = {
    "mir": ("Hé", "Se", "Es", "Pe", "Do", "Me"),
    "eclats": ("Ev", "Ag", "Fo", "En", "Be", "Pe", "In", "Em", "Ru", "Ch"),
    "magisphere": ("Pui", "Agi", "PRE"),
    "tedeum": ("Prov", "XP", "Pu", "Co", "Ad", "Se", "Sa", "En"),
    "arpeges": ("Co", "Ag", "Itu", "Itl", "|", "Pu", "Ré", "Ma", "Pr"),
}


def visible_rows(app: Any) -> tuple[RosterPane, str, dict[str, str]]:
    """The roster, its header line and each drawn character's line, as on screen, cut to what
    the table shows (its width less a vertical scrollbar)."""
    pane = app.pane("roster") if hasattr(app, "pane") else app.query_one(RosterPane)
    table = pane.table
    view = table.scrollable_content_region
    assert view.width > 0 and view.right <= pane.content_region.right
    strips = screen_strips(app)

    def line(y: int) -> str:
        return "".join(segment.text for segment in strips[y].crop(view.x, view.right))

    top = int(table.scroll_y)
    lines = {}
    for row, char_id in enumerate(pane._ids):
        y = view.y + 1 + row - top               # below the header line
        if view.y < y < view.bottom:
            lines[char_id] = line(y)
    return pane, line(view.y), lines


def assert_whole(app: Any, system: System, characters: list[Any], *, ascii: bool = False) -> int:
    """Every drawn character's whole stats line (and the column's header) is on screen."""
    pane, header, lines = visible_rows(app)
    assert glance_header(system, ascii=ascii) in header
    by_id = {c.id: c for c in characters}
    for char_id, shown in lines.items():
        line = glance(system, by_id[char_id], ascii=ascii).plain
        assert line in shown, f"{char_id}: {line!r} not whole in {shown!r}"
        assert line.split(" ")[-1] == shown.rstrip().split(" ")[-1]      # the last value is there, uncut
    return len(lines)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("system", SYSTEMS)
async def test_every_stat_of_the_glance_is_inside_the_pane(campaign_file, system: str,
                                                           size: tuple[int, int]) -> None:
    app = GMScreenApp(campaign_file(system), theme="gmscreen-dark")
    async with app.run_test(size=size) as pilot:
        await ready(app, pilot)
        await pilot.pause()
        assert app.wide == (size == (120, 40))              # compact: the whole width; wide: 3/5 of it
        session = app.session
        characters = session.campaign.characters
        pane, _, lines = visible_rows(app)
        assert len(lines) == len(characters)                # the samples fit: every row is on screen
        assert assert_whole(app, session.system, characters) == len(characters)
        for ch in characters:
            shown = lines[ch.id]
            for label in LABELS[system]:
                assert label in shown, (ch.id, label, shown)
        if system == "mir":                                 # Trauma and Mensonge marked on every line
            assert all("↓" in s and "↑" in s for s in lines.values())
            assert "Bl1" in lines["callia"]
        if system == "arpeges":                             # the attributes QA never saw
            assert "Ma+3 Pr+1" in lines["thibault"]
        if system == "magisphere":
            assert "Imp 2/3" in lines["shady"]
        # the table is no wider than what it shows: nothing is cut on the right
        assert pane.table.virtual_size.width <= pane.table.scrollable_content_region.width


async def test_the_columns_follow_the_pane_as_the_terminal_is_resized(campaign_file) -> None:
    app = GMScreenApp(campaign_file("arpeges"), theme="gmscreen-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        session = app.session
        widths = {}
        for size in ((80, 24), (100, 30), (160, 48), (120, 40), (80, 24)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
            assert assert_whole(app, session.system, session.campaign.characters) == 3
            widths[size] = app.pane("roster")._columns
        assert widths[(160, 48)].side == 3                   # room enough: "PJ"/"PNJ" in words
        assert widths[(120, 40)].side == 1 and widths[(120, 40)].name < widths[(100, 30)].name


async def test_a_roster_hidden_during_a_resize_fits_when_shown_again(campaign_file) -> None:
    app = GMScreenApp(campaign_file("arpeges"), theme="gmscreen-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await pilot.press("2")                              # the initiative pane in place of the roster
        await pilot.pause()
        await pilot.resize_terminal(100, 30)                # still one pane at a time, now 98 cells inside
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        await pilot.pause()
        pane = app.pane("roster")
        assert pane.display and pane.table.size.width == 98
        assert pane._columns.side == 3                      # room for "PJ"/"PNJ" in words
        assert assert_whole(app, app.session.system, app.session.campaign.characters) == 3


async def test_a_maximized_roster_and_back(campaign_file) -> None:
    app = GMScreenApp(campaign_file("tedeum"), theme="gmscreen-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        pane = app.pane("roster")
        assert app.screen.focused is pane.table
        narrow = pane._columns
        app.action_zoom()                                  # the roster has the focus: it fills the screen
        await pilot.pause()
        assert pane._columns != narrow and pane._columns.name > narrow.name   # the names get the room
        assert assert_whole(app, app.session.system, app.session.campaign.characters) == 3
        app.action_zoom()
        await pilot.pause()
        assert pane._columns == narrow
        assert assert_whole(app, app.session.system, app.session.campaign.characters) == 3


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_a_long_roster_leaves_room_for_its_scrollbar(campaign_file, size: tuple[int, int]) -> None:
    """60 NPCs: the table scrolls, and its scrollbar does not hide the end of the lines; one
    wounded NPC at the end of the cast (drawn after the first frame) widens the column."""
    path = campaign_file("mir")
    app = GMScreenApp(path, theme="gmscreen-dark")
    async with app.run_test(size=size) as pilot:
        await ready(app, pilot)
        session = app.session
        guard = next(c for c in session.campaign.characters if c.id == "garde")
        cast = [dataclasses.replace(guard, id=f"garde-{i}", name=f"Garde {i}") for i in range(2, 62)]
        last = cast[-1]
        cast[-1] = dataclasses.replace(last, sheet={**last.sheet, "state": {"blessures": 3},
                                                    "voies": {k: 2 for k in last.sheet["voies"]}})
        session.campaign.characters += cast
        session.campaign.revision += 1
        pane = app.pane("roster")
        pane.show_campaign(session)
        table = pane.table
        for _ in range(10):                   # the rest after the first frame (drawn again: wider)
            await pilot.pause()
            if table.row_count == len(session.campaign.characters):
                break
        assert table.row_count == len(session.campaign.characters)
        assert table.show_vertical_scrollbar
        assert table.scrollable_content_region.width < table.size.width
        assert assert_whole(app, session.system, session.campaign.characters) > 5
        assert len(glance(session.system, cast[-1]).plain) == pane._columns.stats   # the widest, the last
        pane.show_selection("garde-61")           # down to the end of the cast
        await pilot.pause()
        await pilot.pause()
        _, _, lines = visible_rows(app)
        assert "garde-61" in lines
        assert glance(session.system, cast[-1]).plain in lines["garde-61"]
        assert assert_whole(app, session.system, session.campaign.characters) > 5


async def test_ascii_marks(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"), theme="gmscreen-dark", ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        session = app.session
        assert assert_whole(app, session.system, session.campaign.characters, ascii=True) == 5
        _, header, lines = visible_rows(app)
        assert "Voies -Trauma +Mensonge" in header
        assert "Hé3+ Se1- Es2 Pe1- Do2 Me2" in lines["loriane"]
        assert all(line.isascii() for line in (lines["loriane"][:3], lines["garde"][:3]))


def test_plan_columns() -> None:
    # room for everything: every column whole, the side in words
    assert plan_columns(100, names=14, conditions=12, stats=40) == Columns(3, 14, 12, 40)
    # narrower: the side becomes a mark, then names and conditions share what is left
    assert plan_columns(70, names=20, conditions=18, stats=31) == Columns(1, 17, 13, 31)
    assert plan_columns(70, names=24, conditions=14, stats=41) == Columns(1, NAME_MIN, CONDITIONS_MIN, 41)
    assert plan_columns(78, names=20, conditions=14, stats=40) == Columns(1, 17, 12, 40)
    # short names and no conditions: the columns are as wide as their headers
    assert plan_columns(70, names=2, conditions=0, stats=41) == Columns(3, 3, 5, 41)
    # only below the floors does the stats line give way
    cut = plan_columns(50, names=20, conditions=18, stats=41)
    assert (cut.side, cut.name, cut.conditions) == (1, NAME_FLOOR, 5) and cut.stats == 50 - 8 - 1 - NAME_FLOOR - 5
    for width in range(40, 140):
        for names, conditions, stats in ((30, 30, 45), (5, 0, 24), (20, 18, 31), (NAME_WIDTH, 3, 39)):
            plan = plan_columns(width, names=names, conditions=conditions, stats=stats)
            used = plan.side + plan.name + plan.conditions + plan.stats + 8
            assert used <= width or plan.stats == 1, (width, plan)
            assert plan.stats == stats or plan.name == min(names, NAME_FLOOR)


def test_fit_name_keeps_copies_apart() -> None:
    from rich.text import Text

    assert fit_name(Text("Le garde de la porte 12"), 12).plain == "Le garde… 12"
    assert fit_name(Text("Le garde de la porte"), 12).plain == "Le garde de…"
    assert fit_name(Text("Alexis"), 12).plain == "Alexis"
    assert fit_name(Text("Garde 123456789"), 8).cell_len <= 8


def test_the_sheet_spells_out_the_abbreviations(open_sample) -> None:
    for system in SYSTEMS:
        session = open_sample(system)
        ch = session.campaign.characters[0]
        text = sheet_content(session.system, ch).plain
        assert "Abréviations du tableau" in text
        legend = dict(glance_legend(session.system, ch))
        line = glance(session.system, ch).plain
        for short in legend:
            assert f"{short} {legend[short]}" in text
        for short in legend:                             # and the line uses them
            assert short in line or short in ("Bl", "Imp"), (system, short)
        for label in LABELS[system]:                     # (Magisphère's "PRE" needs no spelling out)
            assert label in legend or label in ("|", "PRE"), (system, label)
    arpeges = open_sample("arpeges")
    legend = dict(glance_legend(arpeges.system))
    assert legend["Itu"] == "Intuition" and legend["Itl"] == "Intelligence" and legend["Ma"] == "Manœuvre"
    mir = open_sample("mir")
    assert dict(glance_legend(mir.system, ascii=True))["-"].startswith("Trauma")
    assert "- Trauma" in sheet_content(mir.system, mir.campaign.characters[0], ascii=True).plain
