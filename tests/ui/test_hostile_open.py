"""The screen opening a campaign whose journal or roll log is nested too deeply, or whose
journal does not fit it: the load error screen, the journal set aside or a read-only session,
with a notice, never a traceback."""

from __future__ import annotations

from gmscreen.campaign.journal import journal_path
from gmscreen.campaign.rolllog import rolls_path
from gmscreen.ui import GMScreenApp
from gmscreen.ui.screens.load_error import LoadErrorScreen

from _pilot import load_error_shown, ready

DEEP = "[" * 100_000


async def test_a_journal_that_is_only_deep_nesting_shows_the_load_error_screen(campaign_file) -> None:
    path = campaign_file("mir")
    journal_path(path).write_text(f"x = {DEEP}\n")
    before = path.read_bytes()
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await load_error_shown(app, pilot)
        assert isinstance(app.screen, LoadErrorScreen)
        assert any("imbrication trop profonde" in p and "journal" in p for p in app.screen.problems)
        assert app.session is None
    assert path.read_bytes() == before
    assert journal_path(path).read_text() == f"x = {DEEP}\n"


async def test_a_deep_journal_entry_is_set_aside_and_a_deep_roll_log_opens_read_only(campaign_file) -> None:
    path = campaign_file("mir")
    journal_path(path).write_text(f"format = 1\n\n[[change]]\nrevision = 1\nlabel = {DEEP}\n")
    rolls_path(path).write_text(f"x = {DEEP}\n")
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await ready(app, pilot)
        for _ in range(20):
            await app.workers.wait_for_complete()
            await pilot.pause()
            if app.session.rolls_loaded:
                break
        assert app.session.read_only and app.session.rolls_loaded
        assert any("mir.journal.toml.damaged" in n.message for n in app.notices)
        await pilot.press("q")
    aside = path.with_name("mir.journal.toml.damaged")         # never applied in part, kept whole
    assert aside.read_text().endswith(f"label = {DEEP}\n") and not journal_path(path).exists()


async def test_a_wrong_typed_journal_is_set_aside_and_the_saved_campaign_shown(campaign_file) -> None:
    path = campaign_file("mir")
    journal_path(path).write_text('format = 1\n\n[[change]]\nrevision = 1\naction = "do"\ntime = "t"\nlabel = "x"\n'
                                  'ops = [ { op = "set", path = ["session"], old = 3, new = "trois" } ]\n')
    before = path.read_bytes()
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await ready(app, pilot)
        assert not app.session.read_only and app.session.campaign.session == 3
        assert any("mir.journal.toml.damaged" in n.message for n in app.notices)
        await pilot.press("q")
    assert path.read_bytes() == before
