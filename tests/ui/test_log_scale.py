"""A long roll log costs the screen only its tail: the newest rolls are read at start, the
older ones indexed in a thread and parsed when asked for (scrolling back, search, reveal);
the quick-roll history is built off the UI thread from the newest rolls only."""

from __future__ import annotations

import threading

from _long_log import GONE_LINE, OLD_WHO, write_long_log
from _pilot import press, ready, screen_text, type_keys

import gmscreen.campaign.rolllog as rolllog
import gmscreen.play.quickroll.history as history_module
from gmscreen.campaign.rolllog import RollLog, rolls_path
from gmscreen.campaign.rolltail import CHUNK_ROLLS, TAIL_ROLLS
from gmscreen.ui import GMScreenApp
from gmscreen.ui.terminal.quick_switch import give_way

ROLLS = TAIL_ROLLS + 2 * CHUNK_ROLLS + 44


def _count_entries_read(monkeypatch) -> dict[str, int]:
    """Every roll entry the log's reader turns into a record, counted."""
    counts = {"roll": 0, "reveal": 0}
    convert = rolllog.convert_entry

    def counting(name, d):
        counts[name] += 1
        return convert(name, d)

    monkeypatch.setattr(rolllog, "convert_entry", counting)
    return counts


async def test_the_screen_parses_only_the_tail_at_start(campaign_file, monkeypatch):
    path = campaign_file("mir")
    write_long_log(path, ROLLS)
    counts = _count_entries_read(monkeypatch)
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await press(pilot, "4")
        await app.workers.wait_for_complete()
        await pilot.pause()
        rolls = app.session.rolls
        assert len(rolls) == ROLLS                      # every roll is there, indexed
        assert counts["roll"] == TAIL_ROLLS             # only the tail was parsed
        assert rolls.parsed == 0
        assert any(f"Session {1 + ROLLS // 100}" in row or "Loriane" in row for row in screen_text(app))


async def test_older_rolls_are_reached_by_scrolling_back(campaign_file, monkeypatch):
    path = campaign_file("mir")
    write_long_log(path, ROLLS)
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await press(pilot, "4")
        assert not any(OLD_WHO in row for row in screen_text(app))
        await press(pilot, "home", "down")              # the top of the log (a session line), roll 1
        log = app.pane("log")
        assert log.selected_record.seq == 1
        assert any(OLD_WHO in row for row in screen_text(app))
        assert app.session.rolls.parsed <= CHUNK_ROLLS  # one chunk of older rolls, not the log
        await press(pilot, "end")
        assert log.selected_record.seq == ROLLS


async def test_search_finds_an_older_roll_and_reveal_shows_it(campaign_file):
    path = campaign_file("mir")
    write_long_log(path, ROLLS)
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await press(pilot, "4", "f")
        await type_keys(app, pilot, "ancienne")
        for _ in range(50):                             # older rolls' words come from a thread
            await app.workers.wait_for_complete()
            await pilot.pause()
            log = app.pane("log")
            if log.selected_record is not None and log.selected_record.seq <= 3:
                break
        assert log.selected_record.seq == 3             # the newest match, older than the tail
        await press(pilot, "up")                        # the next match up: the GM-only roll
        assert log.selected_record.seq == 2
        await press(pilot, "escape", "r", "y")          # revealed once confirmed, appended to the file
        assert app.session.rolls[1].revealed
    whole = RollLog.load(rolls_path(path))
    assert whole.by_seq[2].revealed and not whole.warnings


async def test_history_is_built_off_the_ui_thread_from_the_newest_rolls(campaign_file, monkeypatch):
    path = campaign_file("mir")
    write_long_log(path, ROLLS)
    seen: list[tuple[threading.Thread, int]] = []
    build = history_module.history_from_log

    def spy(records, campaign, limit, pause=None, *, game):
        records = list(records)
        seen.append((threading.current_thread(), len(records)))
        assert pause is give_way                # and it gives way to the keys typed meanwhile
        assert game.system_id == campaign.system   # handed the table's game, not looked up
        return build(records, campaign, limit, pause, game=game)

    monkeypatch.setattr(history_module, "history_from_log", spy)
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        assert seen and all(thread is not threading.main_thread() for thread, _n in seen)
        assert all(n <= TAIL_ROLLS for _thread, n in seen)
        tray = app.pane("dice-tray")
        assert tray.history == ["loriane eloquence sd3"]    # lines naming someone gone left out
        assert GONE_LINE not in tray.history
        assert app.session.rolls.parsed == 0
