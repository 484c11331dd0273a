"""What the screen builds after its first frame goes a slice per turn of the event loop, and a
key typed meanwhile goes first: the first frame shows a screenful of a long roster, the rest
is measured and made in slices, the hidden panes' modules are imported one a turn, and a
slice steps aside while a key is on its way. The first frame imports only the campaign's own
game."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path

from _pilot import ready
from textual import events

from gmscreen.campaign import load_campaign, save_campaign
from gmscreen.campaign.model import Character
from gmscreen.ui import GMScreenApp
from gmscreen.ui.terminal import quick_switch
from gmscreen.ui.terminal.start_slices import next_slice
from gmscreen.ui.widgets.roster.pane import FILL_SLICE, FIRST_ROWS
from gmscreen.ui.widgets.tray.quick_roll_line import QuickRollLine

CAST = 300


def _long_roster(path: Path) -> int:
    """The sample with a cast of `CAST` characters; their number."""
    campaign = load_campaign(path)
    template = campaign.characters[0]
    campaign.characters = [Character(id=f"perso-{i}", name=f"Personnage {i}", side="party" if i < 4 else "npc",
                                     sheet={g: dict(v) for g, v in template.sheet.items()}) for i in range(CAST)]
    campaign.encounter.entries, campaign.encounter.declared, campaign.timers = [], [], []   # (they named the cast)
    campaign.encounter.round = campaign.encounter.turn = 0
    save_campaign(campaign, path)
    return len(campaign.characters)


async def test_a_key_typed_at_the_first_frame_goes_before_the_rest_of_a_long_roster(campaign_file, monkeypatch):
    path = campaign_file("mir")
    total = _long_roster(path)
    rows_at_key: list[int] = []
    changed = QuickRollLine._on_quick_roll_line_changed

    def noting(line, event):
        rows_at_key.append(line.app.pane("roster").table.row_count)
        return changed(line, event)

    monkeypatch.setattr(QuickRollLine, "_on_quick_roll_line_changed", noting)
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        while app.focused is None:            # the campaign's pane, focused as the first frame is drawn
            await asyncio.sleep(0.001)
        roster = app.pane("roster")
        assert roster.table.row_count == FIRST_ROWS           # a screenful first
        for key, char in (("slash", "/"), ("x", "x")):        # typed as the screen appears (a pilot's
            app._driver.send_message(events.Key(key, char))      # press would wait for the start to end)
        while app.dice_tray().line.value != "x":
            await asyncio.sleep(0.001)
        await ready(app, pilot)
        for _ in range(50):
            if roster._filling is None:
                break
            await pilot.pause()
        assert rows_at_key and rows_at_key[0] < total          # the key went in before the rest was drawn
        assert roster.table.row_count == total
        rest = total - FIRST_ROWS
        assert roster.fill_slices >= 2 * math.ceil(rest / FILL_SLICE)       # measured, then made, a slice a turn
        # The tray's grammar, then the hidden panes (one module a turn, unless the log's reading,
        # at once without a terminal, built them first).
        assert app.start_slices >= 2 and all(app.pane(p) is not None for p in ("initiative", "difficulty", "log"))


async def test_a_slice_steps_aside_while_a_key_is_on_its_way():
    class Gate:
        busy = True

    class App:
        key_gate = Gate()
        is_running = True

    ran: list[int] = []
    next_slice(App, ran.append, 1)
    await asyncio.sleep(0.05)
    assert ran == []
    App.key_gate.busy = False
    await asyncio.sleep(0.05)
    assert ran == [1]


async def test_a_slice_steps_aside_a_few_turns_while_the_app_has_a_message_queued():
    """A key the terminal's reader has just queued on the app is not the gate's yet: the slice
    waits for it, a few turns at most (the queue carries other messages too)."""
    from gmscreen.ui.terminal import start_slices

    class Gate:
        busy = False

    class App:
        key_gate = Gate()
        is_running = True
        queue: asyncio.Queue[str] = asyncio.Queue()

        @property
        def message_queue_size(self) -> int:
            return self.queue.qsize()

    app = App()
    app.queue.put_nowait("a key")
    ran: list[int] = []
    next_slice(app, ran.append, 1)
    await asyncio.sleep(start_slices.KEY_WAIT * 2)
    assert ran == []                      # stepped aside for it
    app.queue.get_nowait()
    await asyncio.sleep(start_slices.KEY_WAIT * 3)
    assert ran == [1]
    app.queue.put_nowait("a message that stays")
    next_slice(app, ran.append, 2)
    await asyncio.sleep(start_slices.KEY_WAIT * (start_slices.QUEUED_WAITS + 4))
    assert ran == [1, 2]                  # not forever


async def test_the_gate_is_busy_from_a_keys_admission_until_the_screen_has_settled(campaign_file):
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        gate = app.key_gate
        assert not gate.busy and quick_switch._screen_idle.is_set()
        key = events.Key("x", "x")
        assert gate.admit(key)
        assert gate.busy                  # let through, what it does not settled yet
        assert not quick_switch._screen_idle.is_set()     # the threads that give way to keys wait
        gate.dispatched()
        for _ in range(100):
            if not gate.busy:
                break
            await pilot.pause(0.01)
        assert not gate.busy and quick_switch._screen_idle.is_set()


def test_a_worker_gives_way_while_a_key_is_answered_but_never_long() -> None:
    import time

    quick_switch.screen_busy(True)
    try:
        started = time.perf_counter()
        quick_switch.give_way()
        waited = time.perf_counter() - started
        assert quick_switch.GIVE_WAY_LIMIT * 0.9 <= waited < quick_switch.GIVE_WAY_LIMIT * 4
    finally:
        quick_switch.screen_busy(False)
    started = time.perf_counter()
    quick_switch.give_way()
    assert time.perf_counter() - started < quick_switch.GIVE_WAY_LIMIT / 2     # idle: at once


async def test_after_the_panes_the_modules_of_a_first_roll_are_imported_a_turn_each(campaign_file, monkeypatch):
    from gmscreen.ui.terminal import start_slices

    imported: list[str] = []
    real = start_slices.import_module
    monkeypatch.setattr(start_slices, "import_module", lambda name: imported.append(name) or real(name))
    app = GMScreenApp(campaign_file("eclats"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        for _ in range(50):
            if len(imported) == len(start_slices.FIRST_ROLL_MODULES):
                break
            await pilot.pause(0.01)
    assert imported == list(start_slices.FIRST_ROLL_MODULES)


async def test_the_apps_css_is_parsed_once_with_the_chosen_themes_variables(campaign_file, monkeypatch):
    """The theme chosen at start (--theme, config.toml) is in the variables before the CSS is
    first parsed: Textual's refresh for the change would parse it all again."""
    from textual.css.stylesheet import Stylesheet

    parsed: list[dict[str, str]] = []
    parse_rules = Stylesheet._parse_rules

    def counting(sheet, css, read_from, is_default_rules=False, tie_breaker=0, scope=""):
        cached = (css, read_from, is_default_rules, tie_breaker, scope) in sheet._parse_cache
        if read_from[1] == "GMScreenApp.CSS" and not cached:
            parsed.append(dict(sheet._variables))
        return parse_rules(sheet, css, read_from, is_default_rules, tie_breaker, scope)

    monkeypatch.setattr(Stylesheet, "_parse_rules", counting)
    app = GMScreenApp(campaign_file("mir"), theme="gmscreen-light")
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        light = app.get_css_variables()
        assert len(parsed) == 1 and parsed[0]["background"] == light["background"]
        app.theme = "gmscreen-dark"                 # a change once running is applied as ever
        await pilot.pause()
        assert len(parsed) == 2 and parsed[1]["background"] == app.get_css_variables()["background"]
        assert parsed[1]["background"] != light["background"]
