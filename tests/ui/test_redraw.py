"""Redraw what changed, not the pane: what each action sends to the terminal.

The app runs headless at 80×24 and 120×40 with every compositor update it would write
recorded (`App._display` sees them all). An update is either a full-screen `LayoutUpdate` or
a `ChopsUpdate` of spans of lines; the cells it covers are what goes down the wire. Then the
driver's own rewriting of those frames (`gmscreen.ui.terminal.wire.join_runs`) is checked to leave
every cell of the screen as Textual drew it.
"""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual._compositor import ChopsUpdate, LayoutUpdate
from textual.widgets import Input

from gmscreen.ui import GMScreenApp
from gmscreen.ui.terminal.footer import FooterKey     # (Textual's, as the footer uses them)
from gmscreen.ui.terminal.wire import join_runs, render_from_first_cell

from _pilot import press, ready, type_keys


class Frames:
    """Every update the app would write, as (kind, cells covered)."""

    def __init__(self, app: GMScreenApp) -> None:
        self.app = app
        self.updates: list[tuple[str, int]] = []
        self.spans: list[list[tuple[int, int, int]]] = []       # each partial update's, to say what went
        display = app._display

        def record(screen, renderable) -> None:
            if renderable is not None and not app._batch_count:
                if isinstance(renderable, LayoutUpdate):
                    self.updates.append(("full", app.size.width * app.size.height))
                elif isinstance(renderable, ChopsUpdate):
                    self.updates.append(("part", sum(x2 - x1 for _y, x1, x2 in renderable.spans)))
                    self.spans.append(list(renderable.spans))
            display(screen, renderable)

        app._display = record  # type: ignore[method-assign]

    def clear(self) -> None:
        self.updates.clear()
        self.spans.clear()

    @property
    def cells(self) -> int:
        return sum(cells for _kind, cells in self.updates)

    @property
    def full(self) -> int:
        return sum(1 for kind, _cells in self.updates if kind == "full")


async def _open(app: GMScreenApp, pilot) -> Frames:
    """The campaign shown, and the screen quiet (start-up's last frames out of the count)."""
    await ready(app, pilot)
    app.clear_notifications()           # start-up's notices gone: each action's own are counted
    app.notices.clear()
    frames = Frames(app)
    for _ in range(40):
        frames.clear()
        await pilot.pause(0.25)
        if not frames.updates:
            break
    return frames


async def _action(pilot, frames: Frames, *keys: str) -> None:
    frames.clear()
    await press(pilot, *keys)
    await pilot.pause(0.3)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_turns_undo_and_changes_never_repaint_the_screen(campaign_file, size) -> None:
    """`n`, undo, redo and a resource change send the rows they change, the status line and
    the toast that says so: never a full-screen update (a focus move, an App reactive, the
    toasts' rack appearing each used to send one)."""
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=size, notifications=True) as pilot:
        frames = await _open(app, pilot)
        for keys in (("n",), ("ctrl+z",), ("ctrl+y",), ("plus",), ("n",), ("ctrl+z",)):
            await _action(pilot, frames, *keys)
            assert frames.updates, keys
            assert frames.full == 0, (keys, frames.updates)


async def test_a_resource_change_sends_its_row(campaign_file) -> None:
    """`+` on a character changes one cell of the roster: its row, the status line and the
    selection's detail go, not the table (DataTable.update_cell repaints every row)."""
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        frames = await _open(app, pilot)
        for _ in range(3):
            await _action(pilot, frames, "plus")
            assert frames.full == 0 and frames.updates
            assert frames.cells <= 4 * 80, frames.updates


async def test_enabling_undo_restyles_the_key_not_the_footer(campaign_file) -> None:
    """The first change makes undo possible: its key is restyled in place, the footer's keys are
    the same widgets (not rebuilt, which sent the whole bar twice)."""
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        keys = list(app.screen.query(FooterKey))
        undo = [k for k in keys if k.key == "ctrl+z"]
        assert undo and undo[0].has_class("-disabled")
        await press(pilot, "n")
        assert list(app.screen.query(FooterKey)) == keys
        assert not undo[0].has_class("-disabled")
        await press(pilot, "ctrl+z")
        assert list(app.screen.query(FooterKey)) == keys
        assert undo[0].has_class("-disabled")


async def test_pane_switch_sends_at_most_one_screen(campaign_file) -> None:
    """At 80×24 a pane switch sends the pane shown and the footer's keys once: no full-screen
    update (the focus move used to repaint the whole screen, then the pane again)."""
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        frames = await _open(app, pilot)
        for key in ("2", "3", "4", "1"):        # each pane laid out once (its first showing sizes it)
            await _action(pilot, frames, key)
            assert frames.full == 0, (key, frames.updates)
        for key in ("2", "1", "4", "1", "2"):
            await _action(pilot, frames, key)
            assert frames.full == 0, (key, frames.updates)
            assert frames.cells <= 80 * 24, (key, frames.updates)


async def test_wide_focus_move_repaints_no_screen(campaign_file) -> None:
    """At 120×40 all four panes are shown: a pane switch moves the focus, which relights two
    borders; no full-screen update, never more cells than one screen."""
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(120, 40)) as pilot:
        frames = await _open(app, pilot)
        for key in ("2", "3", "4", "1"):
            await _action(pilot, frames, key)
            assert frames.full == 0, (key, frames.updates)
            assert frames.cells <= 120 * 40, (key, frames.updates)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_pane_shown_the_first_time_is_sent_once(campaign_file, size) -> None:
    """A pane's first showing: drawn beforehand at the size it gets (not again once laid out),
    its table, border and footer in one frame (each widget used to ask on its own: the tables,
    then the panes around them again). At 80×24 the pane and the footer; at 120×40 the two
    panes whose borders change and the footer: half the screen."""
    width, height = size
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=size) as pilot:
        frames = await _open(app, pilot)
        limit = width * height if width == 80 else width * height // 2
        # (The difficulty pane, 3, is left out: its list gets a scrollbar once laid out at
        # 80×24 and is measured again at the narrower width, a second frame of it.)
        for key in ("2", "4", "1", "2", "4"):
            await _action(pilot, frames, key)
            assert frames.full == 0, (key, frames.updates)
            assert frames.cells <= limit, (key, frames.cells, frames.spans)
        await _drawn_as_fresh(app, pilot)
        log = app.pane("log")
        assert log.scroll_y == log.max_scroll_y          # the newest rolls in view, as before


async def test_start_up_draws_the_wide_layout_from_the_first_frame(campaign_file) -> None:
    """At 120×40 the first full frame is already the four-pane layout (the size classes were set
    by the first Resize, after a frame of the one-pane layout: a whole screen more at start)."""
    app = GMScreenApp(campaign_file("mir"))
    layouts: list[bool] = []
    display = app._display

    def record(screen, renderable) -> None:
        if isinstance(renderable, LayoutUpdate) and not app._batch_count:
            layouts.append(screen.has_class("-wide") and screen.has_class("-tall"))
        display(screen, renderable)

    app._display = record  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        await pilot.pause(0.3)
    assert layouts and all(layouts), layouts
    assert len(layouts) <= 2, layouts


async def _drawn_as_fresh(app: GMScreenApp, pilot) -> None:
    """What the screen shows after the actions (parts of widgets sent alone) is what it shows
    once every widget is drawn again from scratch: no cell left stale by a partial repaint."""
    def cells() -> str:
        console = Console(width=app.size.width, height=app.size.height, file=io.StringIO(), force_terminal=True,
                          record=True, legacy_windows=False, safe_box=False, color_system="truecolor")
        console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
        return console.export_text(styles=True)

    for line in app.screen.query(Input):
        line.cursor_blink = False                 # its cursor shown, not blinking between the two
    await pilot.pause(0.1)
    before = cells()
    for widget in app.screen.walk_children(with_self=True):
        widget._styles_cache.clear()
        widget.refresh()
    await pilot.pause(0.2)
    assert cells() == before


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_turn_undo_redo_send_their_rows_and_the_status_line(campaign_file, size) -> None:
    """`n` sends the old and new current rows, the round header and the cells of the status line
    that changed; undo and redo the same and no toast (what they did is said on the status line).
    At 80×24 the roster behind a pane shown again is not sent once more (it kept the repaints
    asked for while hidden); "saving…" does not flash for a quick save."""
    width, height = size
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=size, notifications=True) as pilot:
        frames = await _open(app, pilot)
        for key in ("2", "1", "4", "2", "4", "1"):        # as the benchmark does, before `n`
            await _action(pilot, frames, key)
        limits = {"n": 4 * width, "ctrl+z": 4 * width, "ctrl+y": 4 * width} if width == 80 else \
                 {"n": 8 * width // 2, "ctrl+z": 8 * width // 2, "ctrl+y": 8 * width // 2}
        for key in ("n", "ctrl+z", "ctrl+y"):
            await _action(pilot, frames, key)
            await pilot.pause(0.4)                         # the save done, "saved" said
            assert frames.full == 0, (key, frames.updates)
            assert frames.cells <= limits[key], (key, frames.cells, frames.spans)
        assert not app.notices, [n.message for n in app.notices]
        assert "saving" not in str(app.status.render())
        await _drawn_as_fresh(app, pilot)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_quick_roll_sends_the_new_line_and_what_changed_in_the_tray(campaign_file, size) -> None:
    """A quick roll after another sends the log's new line, the cells of the result that differ
    and the end of the odds rows losing their chances: not the tray, not the difficulty table."""
    width, height = size
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=size) as pilot:
        frames = await _open(app, pilot)
        await press(pilot, "slash")
        await type_keys(app, pilot, "6d12 sd2", "enter")
        await type_keys(app, pilot, "6d12 sd2")
        await pilot.pause(0.3)
        await _action(pilot, frames, "enter")
        assert frames.full == 0, frames.updates
        assert frames.cells <= (6 * width if width == 80 else 10 * width), (frames.cells, frames.updates)
        await _drawn_as_fresh(app, pilot)


# ------------------------------------------------------------------ the driver's rewriting


def _screen(stream: str, width: int = 40, height: int = 6) -> list[list[tuple]]:
    """A tiny terminal: the cell grid (character, attributes, foreground, background) after
    `stream`, read as a terminal does: each SGR parameter changes the pen, text is drawn with it."""
    grid = [[(" ", (), None, None)] * width for _ in range(height)]
    pen: dict[str, object] = {}
    y = x = 0
    for token in re.findall(r"\x1b\[[0-9;]*[mH]|\r|\n|[^\x1b\r\n]", stream):
        if token.endswith("H") and token.startswith("\x1b["):
            row, col = token[2:-1].split(";")
            y, x = int(row) - 1, int(col) - 1
        elif token.startswith("\x1b["):
            codes = [int(c) if c else 0 for c in token[2:-1].split(";")] or [0]
            i = 0
            while i < len(codes):
                code = codes[i]
                if code == 0:
                    pen = {}
                elif code in (38, 48):
                    n = 3 if codes[i + 1] == 5 else 5
                    pen["fg" if code == 38 else "bg"] = tuple(codes[i + 1:i + n])
                    i += n - 1
                elif code in (39, 49):
                    pen.pop("fg" if code == 39 else "bg", None)
                elif 30 <= code <= 37 or 90 <= code <= 97:
                    pen["fg"] = (code,)
                elif 40 <= code <= 47 or 100 <= code <= 107:
                    pen["bg"] = (code,)
                elif code == 22:
                    pen.pop(1, None)
                    pen.pop(2, None)
                elif code == 24:
                    pen.pop(4, None)
                    pen.pop(21, None)
                elif code in (23, 25, 27, 28, 29, 55):
                    pen.pop({23: 3, 25: 5, 27: 7, 28: 8, 29: 9, 55: 53}[code], None)
                else:
                    pen[code] = True
                i += 1
        elif token == "\r":
            x = 0
        elif token == "\n":
            y += 1
        else:
            attrs = tuple(sorted(k for k in pen if isinstance(k, int)))
            grid[y][x] = (token, attrs, pen.get("fg"), pen.get("bg"))
            x += 1
    return grid


def _random_frame(rng: random.Random, console: Console) -> str:
    colours = [None, "red", "bright_blue", "color(200)", "#5b8db8", "#e2ded6", "#171a20"]
    lines = []
    for row in range(1, 6):
        segments = []
        width = 0
        while width < 36:
            text = "".join(rng.choice("ab ●│é") for _ in range(rng.randint(1, 4)))
            style = Style(bold=rng.random() < 0.3, dim=rng.random() < 0.1, italic=rng.random() < 0.2,
                          underline=rng.random() < 0.1, reverse=rng.random() < 0.1, strike=rng.random() < 0.05,
                          color=rng.choice(colours), bgcolor=rng.choice(colours),
                          meta={"row": row} if rng.random() < 0.5 else None)
            segments.append(Segment(text, style))
            width += len(text)
        lines.append(f"\x1b[{row};1H" + console._render_buffer(segments))
    return "".join(lines)


def test_joined_runs_draw_the_same_screen() -> None:
    """Frames of random styles (bold, dim, italic, colours 16/256/24-bit, mouse data), as Rich
    writes them for Textual: the rewritten stream draws every cell the same, in fewer bytes."""
    console = Console(color_system="truecolor", force_terminal=True, width=40, legacy_windows=False)
    rng = random.Random(14)
    saved = 0
    for _ in range(200):
        frame = _random_frame(rng, console)
        joined = join_runs(frame)
        assert _screen(joined) == _screen(frame)
        assert len(joined) <= len(frame)
        saved += len(frame) - len(joined)
    assert saved > 0
    # Runs of one style become one: "reset, same style" pairs are gone.
    style = "\x1b[1;38;2;1;2;3m"
    assert join_runs(f"\x1b[0m{style}a\x1b[0m{style}b\x1b[0m") == f"\x1b[0;1;38;2;1;2;3mab\x1b[0m"
    # A sequence it does not know is passed on unchanged, and what follows from a known reset.
    odd = "\x1b[0m\x1b[73ma\x1b[0m\x1b[1mb\x1b[0m"
    assert _screen(join_runs(odd)) == _screen(odd)


async def test_partial_updates_are_written_from_the_cells_they_change(campaign_file) -> None:
    """The driver writes a partial update from the first run of text it changes (Textual's own
    writing starts each line at the widget's left edge): every cell of the update is drawn as
    Textual draws it, the cells it writes are Textual's, and fewer bytes go."""
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(120, 40)) as pilot:
        frames = await _open(app, pilot)
        updates: list[ChopsUpdate] = []
        display = app._display

        def keep(screen, renderable) -> None:
            if isinstance(renderable, ChopsUpdate):
                updates.append(renderable)
            display(screen, renderable)

        app._display = keep  # type: ignore[method-assign]
        for keys in (("n",), ("ctrl+z",), ("slash", *"6d12 sd2", "enter"), ("slash", *"6d12 sd2", "enter")):
            await _action(pilot, frames, *keys)
        assert updates
        console = Console(color_system="truecolor", force_terminal=True, width=120, legacy_windows=False)
        blank = _screen("", 120, 40)
        saved = 0
        for update in updates:
            theirs, ours = update.render_segments(console), render_from_first_cell(update, console)
            assert len(ours) <= len(theirs)
            saved += len(theirs) - len(ours)
            drawn, expected = _screen(ours, 120, 40), _screen(theirs, 120, 40)
            for y, x1, x2 in update.spans:
                assert drawn[y][x1:x2] == expected[y][x1:x2], (y, x1, x2)
            assert all(cell == expected[y][x] for y, row in enumerate(drawn) for x, cell in enumerate(row)
                       if cell != blank[y][x])
        assert saved > 0
