"""Repaints a widget owes no longer: none sent twice for a pane that has just been shown.

A widget refreshed while it is not on screen (a pane hidden at 80×24 whose cursor or focus
style changed) keeps the regions it asked to repaint: Textual hands them to the compositor
only when the widget is visible. When the pane is shown again, the layout paints it whole;
the regions it kept are still pending, and the next small change in it (a row's cursor moving
on `n`) sends the whole table again with them. Once a layout has painted a newly shown
widget, what it asked for before is forgotten.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from textual.content import Content
from textual.geometry import Region
from textual.screen import Screen

from . import TUNED


def forget_stale_repaints(screen: Screen[Any]) -> None:
    """After each full layout of `screen`, drop the pending repaints of the widgets it showed
    (painted whole by that layout). Plain Textual: they are sent."""
    if not TUNED or getattr(screen, "_forgets_stale_repaints", False):
        return
    layout = screen._refresh_layout

    def refresh_layout(size: Any = None, scroll: bool = False) -> None:
        before = set(screen._compositor.visible_widgets)
        layout(size, scroll)
        for widget in set(screen._compositor.visible_widgets) - before:
            widget._repaint_regions.clear()

    screen._refresh_layout = refresh_layout  # type: ignore[method-assign]
    screen._forgets_stale_repaints = True  # type: ignore[attr-defined]


def same_start(before: Content, after: Content) -> int:
    """Cells at the start of a one-line text drawn the same in both (same characters, same
    styles): what need not be sent again when one becomes the other."""
    old, new = before.plain, after.plain
    n = 0
    limit = min(len(old), len(new))
    while n < limit and old[n] == new[n]:
        n += 1
    if "\n" in old[:n]:
        return 0

    def styles(content: Content) -> list[tuple[int, int, object]]:
        return [(span.start, min(span.end, n), span.style) for span in content.spans if span.start < n]

    if styles(before) != styles(after):
        return 0
    return cell_len(old[:n])


def no_refresh(*_regions: Any, **_options: Any) -> None:
    return None


def replace_prompts(option_list: Any, options: list[Any]) -> bool:
    """Put `options` (as for `OptionList.set_options`: Options, None for a divider) into
    `option_list` in place when only their one-line texts change, sending only the cells of
    each line from the first that differs (a table of odds losing its chances: the end of each
    row, not the table). False, nothing done, when the list's shape changes (or on plain
    Textual)."""
    if not TUNED:
        return False
    shaped: list[Any] = []
    for option in options:
        if option is None:
            if not shaped:
                return False
            shaped[-1] = (shaped[-1][0], True)
        else:
            shaped.append((option, False))
    old = list(option_list.options)
    region = option_list.scrollable_content_region
    if len(old) != len(shaped) or not option_list.is_mounted or not region:
        return False
    padding = option_list.get_component_styles("option-list--option").padding
    left = option_list._get_left_gutter_width() + padding.left
    room = region.width - left - padding.right
    changed: list[tuple[int, Any, int]] = []
    for index, (was, (option, divider)) in enumerate(zip(old, shaped)):
        if (was.id != option.id or was.disabled != option.disabled or was._divider != divider
                or not isinstance(was.prompt, Content) or not isinstance(option.prompt, Content)):
            return False
        if was.prompt == option.prompt:
            continue
        if ("\n" in option.prompt.plain or "\n" in was.prompt.plain
                or option.prompt.cell_length > room or was.prompt.cell_length > room):
            return False
        changed.append((index, option.prompt, same_start(was.prompt, option.prompt)))
    if not changed:
        return True
    option_list.refresh = no_refresh
    try:
        for index, prompt, _start in changed:
            option_list.replace_option_prompt_at_index(index, prompt)
    finally:
        del option_list.refresh
    scroll_y = int(option_list.scroll_offset.y)
    for index, _prompt, start in changed:
        line = option_list._index_to_line[index] - scroll_y
        x = left + start
        option_list.refresh(Region(x, line, max(region.width - x, 1), 1))
    return True


def update_lines(static: Any, content: Content, width: int) -> None:
    """`static.update(content)` sending only the lines that change, each from its first cell
    that differs (a roll's result after the last one: the same words, other dice). For a view
    of fixed height whose lines are `content.wrap(width)`; otherwise (or on plain Textual) a
    plain update."""
    if not TUNED:
        static.update(content)
        return
    lines = content.wrap(width)
    before = getattr(static, "_sent_lines", None)
    if before is None and static.content in ("", None) and static.size.width == width:
        before = ([], width)               # blank until now: its blank lines need not be sent
    static._sent_lines = (lines, width)
    height = static.styles.height
    if (before is None or before[1] != width or static.size.width != width or height is None
            or height.is_auto or not static.is_mounted):
        static.update(content)
        return
    static.refresh = no_refresh
    try:
        static.update(content)
    finally:
        del static.refresh
    old = before[0]
    empty = Content("")
    for y in range(min(max(len(old), len(lines)), static.size.height)):
        was = old[y] if y < len(old) else empty
        now = lines[y] if y < len(lines) else empty
        if was == now:
            continue
        x = same_start(was, now)
        static.refresh(Region(x, y, max(width - x, 1), 1))


ONE_FRAME_SECONDS = 0.03


def one_frame(app: Any, seconds: float = ONE_FRAME_SECONDS) -> None:
    """Hold the screen's updates a moment, then send them as one frame. Each widget asks for
    its repaint when its own queue is idle: a pane switch restyles the tables (focus), then
    the panes (their borders lit), then the footer, and the screen sent the tables, then the
    panes with the tables inside them again. (`App.delay_update` would send the whole screen.)
    Plain Textual: each goes as it comes."""
    if not TUNED:
        return
    screen = app.screen
    app._begin_batch()

    def send() -> None:
        app._end_batch()
        if not app._batch_count and screen is app.screen:
            screen._update_timer.resume()        # what came meanwhile goes now

    app.set_timer(seconds, send, name="one-frame")
