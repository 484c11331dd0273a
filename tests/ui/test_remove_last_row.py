"""`x` on the last row of a pane leaves the cursor on the row above (selected), not on the
first row; on another row, on the row that took its place; in the initiative queue, on an
entry rather than on the timers drawn under the entries."""

from __future__ import annotations

from gmscreen.ui import GMScreenApp

from _pilot import press, ready


def names(table, column: int) -> list[str]:
    return [str(table.get_row_at(r)[column]) for r in range(table.row_count)]


async def test_x_on_the_last_row_goes_to_the_row_above(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        roster = app.pane("roster").table
        await press(pilot, "1", "end")
        assert app.selected_id == "geolier" and roster.cursor_row == roster.row_count - 1
        await press(pilot, "x", "enter")                   # asked, then removed
        await pilot.pause()
        assert "geolier" not in [c.id for c in app.session.campaign.characters]
        assert roster.cursor_row == roster.row_count - 1 == 3 and app.selected_id == "garde"

        queue = app.pane("initiative").table
        await press(pilot, "2")
        rows = names(queue, 2)
        entries = len(app.session.campaign.encounter.entries)
        last_entry = rows[entries - 1]
        await press(pilot, *["down"] * (entries - 1 - queue.cursor_row))
        assert queue.cursor_row == entries - 1
        await press(pilot, "x")                            # the last entry: the timers stay under it
        await pilot.pause()
        assert last_entry not in names(queue, 2)
        assert queue.cursor_row == entries - 2
        assert app.pane("initiative").current_key().startswith("e:")
        await press(pilot, *["down"] * (queue.row_count - 1 - queue.cursor_row))   # the last timer
        timers = len(app.session.campaign.timers)
        await press(pilot, "x")
        await pilot.pause()
        assert len(app.session.campaign.timers) == timers - 1
        assert queue.cursor_row == queue.row_count - 1 and app.pane("initiative").current_key().startswith("t:")

        await press(pilot, "1", "home", "down", "x", "enter")    # Loriane, in the middle
        await pilot.pause()
        assert "loriane" not in [c.id for c in app.session.campaign.characters]
        assert roster.cursor_row == 1 and app.selected_id == "callia"      # the row that took her place
