"""The status line while a campaign opens and after it failed to: its own words (the name of
the file), never Textual's loading indicator over them."""

from __future__ import annotations

from gmscreen.i18n import _
from gmscreen.ui import GMScreenApp
from gmscreen.ui.status import StatusLine

from _pilot import load_error_shown


async def test_a_campaign_that_cannot_open_says_so_on_the_status_line(campaign_file) -> None:
    path = campaign_file("mir")
    path.write_text("x = [\n", encoding="utf-8")
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await load_error_shown(app, pilot)
        status = app.screen_stack[0].query_one(StatusLine)
        assert not status.loading
        assert str(status.content) == _("{name}: not loaded").format(name="mir.toml")
