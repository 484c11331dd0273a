"""Issue 24, found by its words: ctrl+p finds a command by the words a GM thinks in (either
language); the footer fits the focused pane's keys that matter first and never cuts `?`; the keys
screen is readable at 80 columns, Textual's own keys once at its end; home/end on the roster."""

from __future__ import annotations

from typing import Any

import pytest
from textual.command import CommandList, CommandPalette
from textual.widgets import DataTable

from gmscreen.ui import GMScreenApp
from gmscreen.ui.screens.keys_help import KeysHelpScreen, key_rows
from gmscreen.ui.terminal.footer import ALWAYS, ESSENTIAL, OTHER, QuietFooter, fit_keys

from _pilot import press, ready, screen_text, type_in_palette, until

# (what the GM types, a command it must find), in each language.
WORDS = {
    "en": [("condition", "Characters: Add condition"), ("resource", "Characters: Resource +1"),
           ("save", "Save now"), ("help", "Keys"), ("new session", "Characters: New session")],
    "fr": [("état", "Personnages : Ajouter un état"), ("ressource", "Personnages : Ressource +1"),
           ("sauver", "Sauvegarder maintenant"), ("aide", "Touches"),
           ("nouvelle séance", "Personnages : Nouvelle session")],
}


async def palette_hits(app: Any, pilot: Any, typed: str) -> list[str]:
    """Type `typed` in the real palette (ctrl+p): the titles it lists."""
    app.set_focus(None)
    await press(pilot, "ctrl+p")
    assert isinstance(app.screen, CommandPalette)
    await type_in_palette(app, pilot, typed)
    hits = app.screen.query_one(CommandList)
    titles = [str(hits.get_option_at_index(i).prompt).split("\n")[0] for i in range(hits.option_count)]
    await press(pilot, "escape")
    return titles


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_palette_finds_a_command_by_the_words_a_gm_thinks_in(campaign_file, lang) -> None:
    app = GMScreenApp(campaign_file("mir"), language=lang)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        for typed, expected in WORDS[lang]:
            titles = await palette_hits(app, pilot, typed)
            assert any(title.startswith(expected) for title in titles), (typed, titles)


async def test_save_now_from_the_palette_writes_the_campaign(campaign_file, monkeypatch) -> None:
    from gmscreen.ui import autosave

    monkeypatch.setattr(autosave, "SAVE_DELAY", 600.0)        # no autosave meanwhile: the command writes it
    path = campaign_file("mir")
    app = GMScreenApp(path, language="en")
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await ready(app, pilot)
        before = path.read_bytes()
        await press(pilot, "1", "plus")                # a resource up: the campaign changed
        assert app.session.dirty
        app.set_focus(None)
        await press(pilot, "ctrl+p")
        await type_in_palette(app, pilot, "save")
        await press(pilot, "enter")
        assert await until(app, pilot, lambda: not app.session.dirty)
        assert path.read_bytes() != before
        assert any(n.message.startswith("saving ") for n in app.notices)


def footer_line(app: Any) -> str:
    return screen_text(app)[-1]


def assert_footer_whole(app: Any) -> None:
    """Nothing of the bar runs off its end (Textual's footer scrolls sideways what overflows)."""
    footer = app.screen_stack[0].query_one(QuietFooter)
    assert footer.max_scroll_x == 0 and footer.virtual_size.width <= footer.size.width, footer_line(app)


# Per language, per width: the focused pane's keys its bar must show (as rendered), `?` included.
FOOTERS = {
    ("en", 80): {"roster": ["c Add condition", "+ Res.+", "- Res.−", "? Keys"],
                 "initiative": ["i Init.", "w Wait", "d Declare", "? Keys"]},
    ("en", 120): {"roster": ["c Cond.+", "+ Res.+", "- Res.−", "⏎ Sheet", "C Cond.−", "i →Init.", "? Keys"],
                  "initiative": ["i Init.", "w Wait", "d Declare", "a Add", "r Roll interval", "? Keys"]},
    ("fr", 80): {"roster": ["c État+", "+ Ress", "? Touches"], "initiative": ["i Init.", "w Attendre", "? Touches"]},
    ("fr", 120): {"roster": ["c Ajouter un état", "+ Ress.+", "- Ress.−", "⏎ Fiche", "C État−", "? Touches"],
                  "initiative": ["i Init.", "w Attendre", "d Déclarer", "a Ajouter", "? Touches"]},
}
ESSENTIALS = {"en": ["/ Roll", "n Next", "^z Undo"], "fr": ["/ Jet", "n Suivant", "^z Annuler"]}


@pytest.mark.parametrize("lang,width,height", [("en", 80, 24), ("en", 120, 30), ("fr", 80, 24), ("fr", 120, 30)])
async def test_the_footer_shows_the_focused_panes_keys_that_matter_and_never_cuts_help(
        campaign_file, lang, width, height) -> None:
    app = GMScreenApp(campaign_file("mir"), language=lang)
    async with app.run_test(size=(width, height)) as pilot:
        await ready(app, pilot)
        for key, pane in (("1", "roster"), ("2", "initiative")):
            await press(pilot, "escape", key)
            line = footer_line(app)
            for shown in ESSENTIALS[lang] + FOOTERS[lang, width][pane]:
                assert shown in line, (pane, shown, line)
            # The keys that matter come first: the focused pane's own right after the essential ones.
            first = FOOTERS[lang, width][pane][0]
            assert line.index(first) < line.index(FOOTERS[lang, width][pane][1])
            assert_footer_whole(app)
        await press(pilot, "escape", "slash")           # the tray: what it takes, `?` being typed there
        line = footer_line(app)
        for shown in ("esc", "^g", "^z"):
            assert shown in line, line
        assert_footer_whole(app)


async def test_the_footer_fits_again_when_the_terminal_grows(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"), language="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await press(pilot, "escape", "1")
        assert "+ Res.+" in footer_line(app) and "e Edit" not in footer_line(app)
        await pilot.resize_terminal(200, 30)
        assert await until(app, pilot, lambda: "+ Resource +1" in footer_line(app))
        line = footer_line(app)
        assert "c Add condition" in line and "e Edit" in line and "? Keys" in line, line
        assert_footer_whole(app)


def test_the_footer_drops_the_last_keys_first_and_gives_full_words_to_the_first() -> None:
    widths = [(8, 8), (15, 9), (14, 9), (10, 8), (8, 8)]        # (full, short) in priority order
    ranks = [ESSENTIAL, OTHER, OTHER, OTHER, ALWAYS]
    assert fit_keys(widths, ranks, 100) == [True] * 5
    assert fit_keys(widths, ranks, 42) == [True, False, False, False, True]   # all short, just
    assert fit_keys(widths, ranks, 48) == [True, True, False, False, True]    # full words to the first
    assert fit_keys(widths, ranks, 34) == [True, False, False, None, True]
    assert fit_keys(widths, ranks, 16) == [True, None, None, None, True]
    assert fit_keys(widths, ranks, 10) == [None, None, None, None, True]      # `?` whatever the room


async def test_a_choices_options_and_help_always_show(campaign_file) -> None:
    """Magisphère's reroll prompt at 80 columns, in French: its long option, its other one and
    `?` on the bar, the essential keys giving way."""
    import random

    app = GMScreenApp(campaign_file("magisphere"), language="fr")
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        app.pane("dice-tray").rng = random.Random(1)
        await press(pilot, "slash", *"shady négociation 25", "enter")
        assert await until(app, pilot, lambda: "g garder" in footer_line(app))
        line = footer_line(app)
        assert "r relancer (1 Impulsion)" in line and "? Touches" in line, line
        assert_footer_whole(app)


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_keys_screen_is_readable_at_80_columns(campaign_file, lang) -> None:
    app = GMScreenApp(campaign_file("mir"), language=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        rows = list(key_rows(app))
        await press(pilot, "escape", "1", "question_mark")
        assert isinstance(app.screen, KeysHelpScreen)
        table = app.screen.query_one(DataTable)
        assert table.virtual_size.width <= table.scrollable_content_region.width     # nothing off its right
        text = "\n".join(screen_text(app))
        assert "app.quick-roll" in text and "app.next-turn" in text         # ids whole, not `ap`
        seen = set()
        for _ in range(len(rows) // 10 + 2):         # a page at a time: every row passes by
            seen.update(line for line in screen_text(app))
            await press(pilot, "pagedown")
        ids = {row[3] for row in rows if row[3]}
        assert all(any(each in line for line in seen) for each in ids), sorted(
            each for each in ids if not any(each in line for line in seen))


async def test_textuals_own_keys_come_once_at_the_end(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"), language="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        rows = list(key_rows(app))
        groups = [row[0] for row in rows]
        textual = [row for row in rows if row[0] == "Moving and editing"]
        assert textual and groups[-len(textual):] == ["Moving and editing"] * len(textual)   # one group, last
        assert all(not row[3] for row in textual)
        assert all(row[3] for row in rows if row[0] not in ("Screen", "Moving and editing"))     # panes: ours only
        assert len({row[1:3] for row in textual}) == len(textual)                         # each once
        assert sum(1 for row in textual if row[2] == "Cursor down") == 1        # not once per table
        roster = {row[1]: row[2] for row in rows if row[0] == "Characters"}
        assert roster["home"] == "First character" and roster["end"] == "Last character"


async def test_home_and_end_move_the_roster_cursor_to_the_first_and_last_character(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await press(pilot, "escape", "1")
        roster = app.pane("roster")
        ids = roster._ids
        assert len(ids) > 2
        await press(pilot, "down")
        await press(pilot, "end")
        assert roster.table.cursor_row == len(ids) - 1 and app.selected_id == ids[-1]
        await press(pilot, "home")
        assert roster.table.cursor_row == 0 and app.selected_id == ids[0]
