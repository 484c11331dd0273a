"""The app shell: start, first run, last campaign, load errors, read-only, layout, keys."""

from __future__ import annotations

import asyncio

import gc
import tomllib
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.widgets import DataTable, Input, OptionList

from gmscreen.campaign import open_session
from gmscreen.ui import GMScreenApp
from gmscreen.ui.panes import MAIN_PANES
from gmscreen.ui.screens.keys_help import KeysHelpScreen, key_rows
from gmscreen.ui.screens.load_error import LoadErrorScreen
from gmscreen.ui.terminal.footer import FooterKey     # (Textual's, as the footer uses them)

from _pilot import load_error_shown, press, ready



def config_data(dirs: dict[str, Path]) -> dict[str, Any]:
    return tomllib.loads((dirs["config"] / "config.toml").read_text(encoding="utf-8"))


async def test_opens_the_given_campaign_and_remembers_it(campaign_file, private_dirs) -> None:
    path = campaign_file("tedeum")
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        assert app.session.campaign.system == "tedeum"
        status = str(app.status.render())
        assert app.session.campaign.name in status and "session" in status
        for pane_id in ("roster", "initiative", "dice-tray", "difficulty", "log"):
            assert app.pane(pane_id) is not None
    assert app.session is None                     # closed on unmount
    assert config_data(private_dirs)["last_campaign"] == str(path.absolute())
    assert not Path(f"{path}.lock").exists() or open_session(path).read_only is False


async def test_first_run_copies_the_mir_sample(private_dirs) -> None:
    app = GMScreenApp(None)
    async with app.run_test() as pilot:
        await ready(app, pilot)
        expected = private_dirs["data"] / "campaigns" / "mir.toml"
        assert app.session.path == expected.absolute()
        assert app.session.campaign.system == "mir"
    assert config_data(private_dirs)["last_campaign"] == str(expected.absolute())


async def test_no_argument_opens_the_last_campaign(campaign_file, private_dirs) -> None:
    path = campaign_file("arpeges")
    private_dirs["config"].mkdir(parents=True)
    (private_dirs["config"] / "config.toml").write_text(f'last_campaign = "{path}"\n', encoding="utf-8")
    app = GMScreenApp(None)
    async with app.run_test() as pilot:
        await ready(app, pilot)
        assert app.session.path == path.absolute()
    assert not (private_dirs["data"] / "campaigns").exists()


async def test_broken_config_is_reported_and_never_overwritten(campaign_file, private_dirs) -> None:
    private_dirs["config"].mkdir(parents=True)
    broken = 'theme = "gmscreen-light"\nkeymap = [oops\n'
    (private_dirs["config"] / "config.toml").write_text(broken, encoding="utf-8")
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(notifications=True) as pilot:
        await ready(app, pilot)
        messages = [n.message for n in app.notices]
        assert any(str(private_dirs["config"] / "config.toml") in m and "le fichier est laissé tel quel" in m
                   for m in messages)
        assert app.theme == "gmscreen-dark"
        app.theme = "gmscreen-light"
        await pilot.pause()
    assert (private_dirs["config"] / "config.toml").read_text(encoding="utf-8") == broken


async def test_load_error_screen_shows_every_problem_and_never_touches_the_file(tmp_path, campaign_file) -> None:
    bad = tmp_path / "bad.toml"
    text = 'format = 1\nname = "[/] [@click=app.quit]"\nsystem = "nope"\n[[characters]]\nid = 3\n'
    bad.write_bytes(text.encode())
    before = sorted(p.name for p in tmp_path.iterdir())
    good = campaign_file("eclats")
    app = GMScreenApp(bad)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await load_error_shown(app, pilot)
        assert isinstance(screen, LoadErrorScreen)
        assert len(screen.problems) >= 2
        shown = " ".join(str(w.render()) for w in screen.query(".problem"))
        assert "system" in shown and "nope" in shown
        assert app.session is None
        # Open another file from the same screen: typed path + enter.
        field = screen.query_one("#open-path", Input)
        field.value = str(good)
        field.focus()
        await pilot.press("enter")
        await ready(app, pilot)
        assert app.session.path == good.absolute()
        assert not isinstance(app.screen, LoadErrorScreen)
    assert bad.read_bytes() == text.encode()
    # Nothing beside it but our settings: a campaign that fails to load leaves not even a lock file.
    after = sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("eclats"))
    assert [n for n in after if n != "config"] == before


async def test_load_error_offers_the_samples(tmp_path, private_dirs) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("this is = = not toml", encoding="utf-8")
    app = GMScreenApp(bad)
    async with app.run_test() as pilot:
        await load_error_shown(app, pilot)
        choices = app.screen.query_one(OptionList)
        ids = [choices.get_option_at_index(i).id for i in range(choices.option_count)]
        assert "sample-magisphere" in ids
        choices.focus()
        choices.highlighted = ids.index("sample-magisphere")
        await pilot.press("enter")
        await ready(app, pilot)
        assert app.session.campaign.system == "magisphere"
        assert app.session.path == (private_dirs["data"] / "campaigns" / "magisphere.toml").absolute()
    assert bad.read_text(encoding="utf-8") == "this is = = not toml"


async def test_escape_on_the_load_error_screen_quits(tmp_path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("", encoding="utf-8")
    app = GMScreenApp(bad)
    async with app.run_test() as pilot:
        await load_error_shown(app, pilot)
        await press(pilot, "escape")
    assert app.return_code == 2


async def test_locked_campaign_opens_read_only_and_says_so(campaign_file) -> None:
    path = campaign_file("mir")
    holder = open_session(path)
    try:
        app = GMScreenApp(path)
        async with app.run_test(notifications=True) as pilot:
            await ready(app, pilot)
            assert app.session.read_only and not app.writable
            assert "LECTURE SEULE" in str(app.status.render())
            assert any("lecture seule" in n.message for n in app.notices)
            name = app.session.campaign.characters[0].name
            assert app.change("rename", lambda b: b.set(("characters", 0, "name"), "Zed")) is False
            assert app.session.campaign.characters[0].name == name
        assert holder.campaign.characters[0].name == name
    finally:
        holder.close()


async def test_undo_redo_keys_and_last_change_in_the_status_line(campaign_file) -> None:
    path = campaign_file("magisphere")
    app = GMScreenApp(path)
    async with app.run_test() as pilot:
        await ready(app, pilot)
        campaign = app.session.campaign
        before = campaign.characters[0].name
        assert app.change("Renommer [b]X[/b]", lambda b: b.set(("characters", 0, "name"), "Nouvel [nom]"))
        app.set_focus(None)
        await pilot.pause()
        assert "↶ Renommer [b]X[/b]" in str(app.status.render())
        await press(pilot, "ctrl+z")
        assert campaign.characters[0].name == before
        shown = str(app.status.render())
        assert "↶ Renommer" not in shown                # nothing left to undo...
        assert "annulé : Renommer [b]X[/b]" in shown      # ...and what was undone said there (no toast)
        assert not any("Renommer" in n.message for n in app.notices)
        await press(pilot, "ctrl+y")
        assert campaign.characters[0].name == "Nouvel [nom]"
        assert "rétabli : Renommer [b]X[/b]" in str(app.status.render())
        await press(pilot, "ctrl+z")
    assert open_session(path).campaign.characters[0].name == before


async def test_compact_layout_shows_one_pane_and_switches_with_keys(campaign_file) -> None:
    app = GMScreenApp(campaign_file("eclats"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        assert not app.wide

        def shown() -> list[str]:
            return [pid for pid in ("roster", "initiative", "difficulty", "log") if app.pane(pid).display
                    and app.pane(pid).region.height > 0]

        assert shown() == ["roster"]
        assert app.pane("dice-tray").region.height >= 5
        for key, pane_id in (("2", "initiative"), ("3", "difficulty"), ("4", "log"), ("1", "roster"),
                             ("é", "initiative"), ("quotation_mark", "difficulty"), ("apostrophe", "log"),
                             ("ampersand", "roster")):
            await press(pilot, key)
            assert shown() == [pane_id], key
            assert app._pane_of(app.focused).id == pane_id
        await press(pilot, "tab")
        assert shown() == ["initiative"]
        await press(pilot, "shift+tab", "shift+tab")
        assert app._pane_of(app.focused).id == "dice-tray"
        assert shown() == ["roster"]
        await press(pilot, "escape")                 # the tray keeps tab for completion; escape leaves it
        assert not isinstance(app.focused, Input)
        await press(pilot, "4", "z")
        assert app.screen.maximized is app.pane("log")
        await press(pilot, "z")
        assert app.screen.maximized is None


async def test_wide_layout_shows_every_pane(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        assert app.wide
        regions = {pid: app.pane(pid).region for pid in ("roster", "initiative", "difficulty", "log", "dice-tray")}
        assert all(r.height >= 5 and r.width >= 30 for r in regions.values()), regions
        assert regions["roster"].x < regions["initiative"].x
        assert regions["roster"].y < regions["difficulty"].y
        assert regions["dice-tray"].width == 120
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not app.wide
        assert sum(1 for pid in ("roster", "initiative", "difficulty", "log") if app.pane(pid).region.height) == 1


async def test_compact_start_builds_the_hidden_panes_after_the_first_frame(campaign_file) -> None:
    """At 80×24 the first frame holds the roster and the tray only (less to build before the
    GM sees the campaign); the other panes follow in their order, and keys pressed as the
    screen appears still reach their pane."""
    app = GMScreenApp(campaign_file("eclats"))
    async with app.run_test(size=(80, 24)) as pilot:
        assert app._first_panes() == ("roster",)
        while app.session is None:          # opened in a thread: on a busy machine, a moment later
            await asyncio.sleep(0.005)
        turn = app.session.campaign.encounter.turn
        await pilot.press("n", "2")
        await ready(app, pilot)
        assert [child.id for child in app.query_one("#panes").children] == list(MAIN_PANES)
        assert app.session.campaign.encounter.turn != turn                 # `n` moved the turn on once
        assert app._pane_of(app.focused).id == "initiative"
        assert app.pane("initiative").has_class("-current") and not app.pane("roster").has_class("-current")
    wide = GMScreenApp(campaign_file("mir"))
    async with wide.run_test(size=(120, 40)) as pilot:
        assert wide._first_panes() == MAIN_PANES


async def test_a_start_with_the_collector_paused_resumes_it_after_the_first_frame(campaign_file) -> None:
    """`ui.run` pauses the garbage collector for the start; the app turns it back on once the
    first frame is out, with what the start built frozen out of its sight."""
    gc.disable()
    try:
        app = GMScreenApp(campaign_file("mir"), resume_gc=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(app, pilot)
            assert gc.isenabled() and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.enable()


async def test_many_load_warnings_make_a_few_notices_and_a_count(campaign_file) -> None:
    """Seven names with a control character in them: seven warnings, but the screen gets the
    first ones and a count pointing at `gmscreen validate`, not ten toasts."""
    path = campaign_file("mir")
    text = path.read_text(encoding="utf-8")
    for name in ("Alexis", "Loriane", "Callia", "Le garde de la porte", "Frère Anselme, geôlier",
                 "Ébloui par la lanterne", "Fièvre grise"):
        text = text.replace(f'name = "{name}"', f'name = "{name}\\u0007"', 1)
    path.write_text(text, encoding="utf-8")
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        from gmscreen.play.problem_words import problem_words
        from gmscreen.ui.sanitize import clean

        notices = [n.message for n in app.notices]
        assert len(session_warnings := app.session.warnings) >= 6
        said = {clean(problem_words(p, app.session.campaign, app.session.path)) for p in session_warnings}
        control = [m for m in notices if m in said]
        assert len(control) == 3 and len(notices) <= 5
        assert any(f"et {len(session_warnings) - 3} autres problèmes" in m and "gmscreen validate" in m
                   for m in notices)


@pytest.mark.parametrize("clipboard, typed", [
    ("6d12 \x1b[31msd2\x1b[0m", "6d12 sd2"),                    # colours copied from a terminal
    ("6d12\x1b]0;pwned\x07 sd2", "6d12 sd2"),                    # a window title
    ("6d12\x1b]52;c;ZXZpbA==\x1b\\ sd2", "6d12 sd2"),           # a clipboard write
    ("6d12\tsd2\x00\x7f\x9b2J", "6d12 sd2"),                     # tab, NUL, DEL, C1 CSI
    ("[b]loriane[/b] éloquence", "[b]loriane[/b] éloquence"),   # brackets are text, kept
])
async def test_pasted_text_loses_its_escape_sequences_before_a_field_gets_it(campaign_file, clipboard,
                                                                              typed) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await pilot.press("slash")
        line = app.query_one("#quick-roll", Input)
        app.post_message(events.Paste(clipboard))
        await pilot.pause()
        assert line.value == typed


async def test_the_footer_is_rebuilt_only_when_its_keys_change(campaign_file) -> None:
    """A roll leaves the footer's keys as they were (same widgets: nothing redrawn, nothing
    sent down the SSH link); moving to a pane with other keys rebuilds it with those keys."""
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        await press(pilot, "slash")

        def keys() -> list[Any]:
            return list(app.screen.query(FooterKey))

        before = keys()
        await press(pilot, *"6d12 sd2", "enter")
        await press(pilot, *"6d12 sd3", "enter")
        assert len(app.session.rolls) == 2
        assert keys() == before                                   # the very same widgets
        await press(pilot, "escape", "2")
        assert {key.description for key in keys()} != {key.description for key in before}


async def test_keys_screen_lists_every_binding_with_ids(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test() as pilot:
        await ready(app, pilot)
        app.set_focus(None)
        await press(pilot, "question_mark")
        assert isinstance(app.screen, KeysHelpScreen)
        table = app.screen.query_one(DataTable)
        cells = {str(table.get_row_at(i)[2]) for i in range(table.row_count)}
        for binding_id in ("app.quick-roll", "app.next-turn", "app.undo", "app.redo", "app.pane-roster",
                           "app.zoom", "app.keys", "app.quit", "app.search-log", "app.theme"):
            assert binding_id in cells
        await press(pilot, "escape")
        assert not isinstance(app.screen, KeysHelpScreen)


async def test_keymap_from_the_config_remaps_a_binding(campaign_file, private_dirs) -> None:
    private_dirs["config"].mkdir(parents=True)
    (private_dirs["config"] / "config.toml").write_text('[keymap]\n"app.pane-log" = "f4"\n"app.keys" = "f1"\n',
                                                        encoding="utf-8")
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test() as pilot:
        await ready(app, pilot)
        app.set_focus(None)
        await press(pilot, "4")
        assert app.current_pane == "roster"
        await press(pilot, "f4")
        assert app.current_pane == "log"
        rows = {row[3]: row[1] for row in key_rows(app)}
        assert rows["app.pane-log"] == "f4" and rows["app.keys"] == "f1"
        app.set_focus(None)
        await press(pilot, "f1")
        assert isinstance(app.screen, KeysHelpScreen)


async def test_letter_keys_do_not_fire_while_typing_in_an_input(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test() as pilot:
        await ready(app, pilot)
        field = Input(id="probe")
        await app.screen.query_one("#body").mount(field)
        field.focus()
        await pilot.pause()
        await press(pilot, *"qzh2np?")
        assert field.value == "qzh2np?"
        assert app.is_running and app.screen.maximized is None and app.current_pane == "roster"


async def test_ascii_mode_draws_ascii_borders(campaign_file) -> None:
    app = GMScreenApp(campaign_file("tedeum"), ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        assert app.ascii and app.has_class("-ascii")
        assert app.pane("roster").styles.border_top[0] == "ascii"
        assert app.pane("dice-tray").styles.border_top[0] == "ascii"
        status = app.status.render()
        assert str(status).isascii() or all(ord(c) < 128 for c in str(status).replace(
            app.session.campaign.name, "").replace(app.session.system.game, ""))


async def test_ascii_mode_shows_the_quick_roll_line_and_no_box_drawing(campaign_file):
    """--ascii: the one-line quick-roll field keeps its text visible (an ASCII border on a
    compact Input hid it) and no box-drawing or arrow glyph is left in the chrome."""
    import re

    from gmscreen.ui import GMScreenApp

    app = GMScreenApp(campaign_file("arpeges"), ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await pilot.press("slash", "s", "i", "b")
        await pilot.pause()
        line = app.query_one("#quick-roll")
        assert line.value == "sib" and line.content_region.height == 1 and line.styles.border_top[0] in ("", "none")
        texts = []
        for pane in ("1", "2", "3", "4"):
            await pilot.press("escape", pane)
            await pilot.pause()
            texts.append(app.export_screenshot())
        shown = "\n".join(texts)
        assert not re.search("[\u2190-\u21ff\u2500-\u259f\u23ce\u25b6\u29d7]", shown), \
            sorted(set(re.findall("[\u2190-\u21ff\u2500-\u259f\u23ce\u25b6\u29d7]", shown)))
        assert "·" not in app.query_one("#dice-tray").border_title
