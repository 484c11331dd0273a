"""The luck view (`L`, listed under `?` and in the palette) and the recap `N` offers, through
real key presses on a campaign played before the screen opened."""

from __future__ import annotations

from textual.widgets import DataTable, Static

from gmscreen.campaign import open_session
from gmscreen.play import Table
from gmscreen.play.table_roll import roll_line
from gmscreen.ui import GMScreenApp
from gmscreen.ui.screens.keys_help import key_rows
from gmscreen.ui.screens.luck_view import LuckScreen
from gmscreen.ui.screens.recap_view import RecapScreen
from gmscreen.ui.screens.roster_dialogs import ConfirmScreen
from gmscreen.ui.widgets.roster.pane import RosterPane

from _pilot import press, ready


def _cursed_evening(path) -> None:
    with open_session(path) as session:
        table = Table(session)
        for _ in range(4):
            roll_line(session, "alexis tir sd2 = 1 1 1 1 1", table=table)
        roll_line(session, "loriane eloquence sd3 = 9 9 9 1 1", table=table, gm_only=True)


async def _settled(app, pilot) -> None:
    for _ in range(20):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not app.workers:
            return


async def test_l_shows_luck_over_time_with_the_tables_numbers(campaign_file) -> None:
    path = campaign_file("mir")
    _cursed_evening(path)
    app = GMScreenApp(path)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        assert any(row[3] == "app.luck" and row[1] == "L" for row in key_rows(app))   # `?` and the palette
        await press(pilot, "L")
        assert isinstance(app.screen, LuckScreen)
        await _settled(app, pilot)
        table = app.screen.query_one(DataTable)
        rows = {str(table.get_row_at(i)[0]): [str(c) for c in table.get_row_at(i)] for i in range(table.row_count)}
        assert rows["Alexis"][-1].startswith("0/4 (3,4) maudits")
        assert rows["Loriane"][-1] == "1/1 (0,6)"            # the GM's own view counts a GM-only roll
        words = str(app.screen.query_one("#luck-words", Static).render())
        assert "Alexis : les dés sont maudits : 0 réussite sur 4 jets" in words
        await press(pilot, "escape")
        assert not isinstance(app.screen, LuckScreen)
        app.players_watching = True                         # players watching: GM-only rolls stay out
        await press(pilot, "L")
        await _settled(app, pilot)
        table = app.screen.query_one(DataTable)
        assert "Loriane" not in {str(table.get_row_at(i)[0]) for i in range(table.row_count)}


async def test_n_then_yes_shows_the_recap_of_the_session_just_ended(campaign_file) -> None:
    path = campaign_file("mir")
    _cursed_evening(path)
    app = GMScreenApp(path)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        await press(pilot, "1")
        app.query_one(RosterPane).focus()
        await press(pilot, "N")
        assert isinstance(app.screen, ConfirmScreen)
        await press(pilot, "o")                                  # session 4 starts
        assert app.session.campaign.session == 4
        assert isinstance(app.screen, ConfirmScreen)             # the recap of session 3?
        await press(pilot, "o")
        assert isinstance(app.screen, RecapScreen)
        await _settled(app, pilot)
        recap = app.screen
        assert recap.markdown.startswith("# Résumé de la session 3 · Les geôles de Vaskov")
        assert "1 jet secret du MJ laissé de côté." in recap.markdown
        assert recap.query_one("#recap-markdown") is not None
        await press(pilot, "escape")
        assert not isinstance(app.screen, RecapScreen)


async def test_n_then_no_shows_nothing(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        app.query_one(RosterPane).focus()
        await press(pilot, "N", "o", "n")
        assert app.session.campaign.session == 4
        assert not isinstance(app.screen, (ConfirmScreen, RecapScreen))


async def test_the_luck_view_and_the_recap_speak_only_the_catalog(campaign_file) -> None:
    from gmscreen import i18n
    from test_every_string_translated import foreign_words, vocabulary

    from _pilot import ScreenWalk

    path = campaign_file("mir")
    _cursed_evening(path)
    allowed = vocabulary(path) | {"markdown"}
    i18n.set_language(i18n.PSEUDO)
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        walk = ScreenWalk(app, pilot, lambda rows: foreign_words(rows, allowed))
        await press(pilot, "L")
        await _settled(app, pilot)
        assert isinstance(app.screen, LuckScreen)
        await walk.look("luck view")
        await press(pilot, "escape")
        app.query_one(RosterPane).focus()
        await walk.look("new session?", "N")
        await walk.look("recap?", "o")
        await press(pilot, "o")
        await _settled(app, pilot)
        assert isinstance(app.screen, RecapScreen) and app.screen.markdown
        await walk.look("recap")
    assert walk.seen == {}
