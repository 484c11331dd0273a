"""Issue 24: home and end, listed on the roster and the initiative, move that pane's cursor to
its first and last row (real keys through Pilot); the keys screen lists them for both."""

from __future__ import annotations

from gmscreen.ui import GMScreenApp
from gmscreen.ui.screens.keys_help import key_rows

from _pilot import press, ready


async def test_home_and_end_move_the_initiative_cursor_and_are_listed(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"), language="en")
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        rows = {(row[0], row[1]): row[2] for row in key_rows(app)}
        assert rows[("Initiative", "home")] == "First row" and rows[("Initiative", "end")] == "Last row"
        await press(pilot, "escape", "2")
        pane = app.pane("initiative")
        count = pane.table.row_count
        assert count > 2 and pane.table.has_focus
        await press(pilot, "down")
        await press(pilot, "end")
        assert pane.table.cursor_row == count - 1
        await press(pilot, "home")
        assert pane.table.cursor_row == 0
