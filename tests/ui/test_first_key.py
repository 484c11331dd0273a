"""The first key typed in the quick-roll line costs what any other does: its echo goes out
before the line is read (the grammar loaded, the odds priced), and its suggestion follows."""

from __future__ import annotations

from _pilot import ready, suggestion_of
from textual.app import App

from gmscreen.ui import GMScreenApp
from gmscreen.ui.widgets.tray.dice_tray import DiceTray


async def test_the_first_keys_echo_goes_out_before_its_line_is_read(campaign_file, monkeypatch):
    shown_lines: list[str] = []
    read_after: list[bool] = []
    display = App._display
    reparse = DiceTray._reparse

    def displaying(app, screen, update):
        display(app, screen, update)
        if app.session is not None and app.pane("dice-tray") is not None:
            shown_lines.append(app.dice_tray().line.value)

    def reading(tray, value):
        read_after.append(value in shown_lines)
        return reparse(tray, value)

    monkeypatch.setattr(App, "_display", displaying)
    monkeypatch.setattr(DiceTray, "_reparse", reading)
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await pilot.press("slash", "a")
        tray = app.dice_tray()
        for _ in range(50):
            if tray.draft is not None or tray.error is not None:
                break
            await pilot.pause(0.01)
        assert read_after[0] is True                  # the frame with "a" came first
        for _ in range(50):
            if suggestion_of(tray.line):
                break
            await pilot.pause(0.01)
        assert suggestion_of(tray.line).casefold() == "alexis"     # then its suggestion
        await pilot.press("l")
        assert tray.line.value == "al" and read_after[-1] is False     # later keys: read in their own turn


async def test_keys_typed_before_the_first_read_are_read_once_together(campaign_file, monkeypatch):
    reads: list[str] = []
    reparse = DiceTray._reparse
    monkeypatch.setattr(DiceTray, "_reparse", lambda tray, value: reads.append(value) or reparse(tray, value))
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        tray = app.dice_tray()
        tray.line.focus()
        tray.line.value = "a"                 # two changes in one turn, as a paste or a
        tray.line.value = "al"                # burst in one packet can make
        for _ in range(50):
            if tray.line.read_once and tray.draft is not None:
                break
            await pilot.pause(0.01)
        assert reads == ["al"]
