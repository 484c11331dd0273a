"""Waiting for the screen in Pilot tests: one definition of "ready" (and of "refused to open")
for every test file, and the GM colours a bare test host lacks."""

from __future__ import annotations

from typing import Any

from gmscreen.ui.panes import PANES
from gmscreen.ui.screens.load_error import LoadErrorScreen

# The theme variables gmscreen's styles use, for a test host that loads no theme.
GM_COLOURS = {"gm-good": "#4EBF71", "gm-bad": "#E05252", "gm-crit": "#FFB454", "gm-fumble": "#FF6E6E",
              "gm-hidden": "#9E9EAE", "gm-current": "#FFB454"}


async def ready(app: Any, pilot: Any) -> None:
    """Wait until the campaign is open, every pane is built (those hidden at start are built
    after the first frame), one of them has the focus and the roll log (read a moment after the
    first frame) is in."""
    for _ in range(100):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if (app.session is not None and app.focused is not None and all(app.pane(p) is not None for p in PANES)
                and app.session.rolls_loaded and not app.workers):
            return
    raise AssertionError("the campaign never opened")


async def press(pilot: Any, *keys: str) -> None:
    """Press `keys` (real key presses), then let the screen answer them."""
    await pilot.press(*keys)
    await pilot.pause()


async def until(app: Any, pilot: Any, condition: Any, tries: int = 100) -> bool:
    """Let the screen run (its workers too) until `condition()` holds: what a key started may end
    a few frames later on a busy machine. False when it never did."""
    for _ in range(tries):
        if condition():
            return True
        await app.workers.wait_for_complete()
        await pilot.pause(0.01)
    return bool(condition())


async def load_error_shown(app: Any, pilot: Any) -> LoadErrorScreen:
    """Wait until the campaign has failed to open and the load error screen is up."""
    for _ in range(20):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if isinstance(app.screen, LoadErrorScreen):
            return app.screen
    raise AssertionError(f"no load error screen; the screen shown is {app.screen!r}")


def burst(app: Any, *keys: str) -> None:
    """Send keys the way a laggy SSH link does: all at once, with no pause between them
    (Pilot's `press` waits for the screen to settle after every key). Keys are named as for
    `press`."""
    import unicodedata

    from textual import events
    from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key

    for key in keys:
        if len(key) == 1 and not key.isalnum():
            key = _character_to_key(key)
        original = REPLACED_KEYS.get(key, key)
        try:
            char: str | None = unicodedata.lookup(_get_unicode_name_from_key(original))
        except KeyError:
            char = key if len(key) == 1 else None
        event = events.Key(key, char)
        event.set_sender(app)
        app._driver.send_message(event)


def suggestion_of(line: Any) -> str:
    """The inline suggestion an Input shows after its value (Textual keeps it private)."""
    return line._suggestion


def screen_strips(app: Any) -> list[Any]:
    """The screen's rows as the terminal shows them, as Textual's compositor draws them (with
    `screen_text`, the one place the tests read it: Textual has no public way)."""
    return app.screen._compositor.render_strips()


def screen_text(app: Any) -> list[str]:
    """The screen as the GM reads it: one string per row, dialogs over what they cover."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True, record=True,
                      legacy_windows=False, safe_box=False, color_system="truecolor")
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text().splitlines()


class ScreenWalk:
    """Steps through the screen, reading it after each with `check` (screen rows -> faults);
    `seen` maps each step to what was wrong there. Steps marked `narrow_only` are skipped
    when `wide` (every pane is on screen at once: nothing to switch to, dialogs look alike)."""

    def __init__(self, app: Any, pilot: Any, check: Any, *, wide: bool = False) -> None:
        self.app, self.pilot, self.check, self.wide = app, pilot, check, wide
        self.seen: dict[str, list[str]] = {}

    async def look(self, step: str, *keys: str, narrow_only: bool = False) -> None:
        if narrow_only and self.wide:
            return
        if keys:
            await self.pilot.press(*keys)
        await self.pilot.pause()
        faults = self.check(screen_text(self.app))
        if faults:
            self.seen[step] = sorted(set(faults))

    async def panes_and_a_line(self, line: str) -> None:
        """The start, each pane, then `line` in the tray with its odds (set, not typed: the
        keys are tested elsewhere)."""
        await self.look("start")
        for pane in ("2", "3", "4", "1"):
            await self.look(f"pane {pane}", "escape", pane, narrow_only=True)
        await self.pilot.press("slash")
        self.app.pane("dice-tray").line.value = line
        await self.look("typed line")


async def type_in_palette(app: Any, pilot: Any, text: str) -> None:
    """Type `text` in the open command palette, its keys in one burst (each is a real key the
    palette's input reads), then wait until the input reads all of it and the search for it is
    done: the list shown is the one for the whole text (each key's search cancels the one before)."""
    from textual.command import CommandInput

    burst(app, *text)
    field = app.screen.query_one(CommandInput)
    assert await until(app, pilot, lambda: field.value == text), field.value
    await pilot.pause()                          # the last change reaches the palette: its search starts
    await app.workers.wait_for_complete()
    await pilot.pause()


async def type_keys(app: Any, pilot: Any, text: str | list[str], *then: str) -> None:
    """Type `text` (its characters, or a list of keys named as for `press`) as one burst of real
    keys (what a fast typist or a paste sends: that a burst does what the same keys typed slowly
    do is test_key_bursts.py's own check), then press the keys `then` (named as for `press`) and
    let the screen answer them all. Only on the GM's screen,
    whose key gate hands on a burst's keys one at a time (a bare test host would let the keys
    of a burst overtake each other's bindings)."""
    import asyncio

    assert hasattr(app, "key_gate"), "a burst is typed in order only through the screen's key gate"
    await pilot.pause()         # what was asked before (a focus) is done: the keys go where they are meant
    burst(app, *text)
    for _ in range(3):          # the driver hands each key on through the loop: let them reach the app
        await asyncio.sleep(0)
    await pilot.press(*then)
    await pilot.pause()


async def to_new_campaign(app, pilot, *, opening: bool = True) -> None:
    """ctrl+o (unless the list is already shown), then down to "New campaign…" and enter."""
    if opening:
        await press(pilot, "ctrl+o")
    from textual.widgets import OptionList

    from gmscreen.ui.screens.new_campaign import NewCampaignScreen

    choices = app.screen.query_one("#open-choices", OptionList)
    ids = [choices.get_option_at_index(i).id for i in range(choices.option_count)]
    await press(pilot, *["down"] * ids.index("new"))
    assert choices.highlighted_option.id == "new"
    await press(pilot, "enter")
    assert isinstance(app.screen, NewCampaignScreen)
