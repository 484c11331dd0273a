"""Does the widget with the focus stand out? Read on the screen as a terminal of 16 or of 256
colours shows it: each cell's colours downgraded as the terminal does, compared with the same
widget without the focus (two colours a GM tells apart at a glance, or one reversed)."""

from __future__ import annotations

from typing import Any, Sequence

from rich.color import Color, ColorSystem
from textual.geometry import Region
from textual.widgets import ListView, OptionList, TextArea

SYSTEMS = (ColorSystem.STANDARD, ColorSystem.EIGHT_BIT)
THEMES = ("gmscreen-ansi", "gmscreen-dark")       # the terminal's 16 colours; the default theme

Cell = tuple  # (text colour, background colour, reversed) as the terminal shows them


def cells(app: Any, widget: Any, system: ColorSystem, *, strips: Any = None,
          region: Region | None = None) -> list[Cell]:
    """Each cell of `widget` (or of `region`) on screen: its colours (text, background) as a
    terminal of `system` shows them, and whether it is reversed."""
    strips = app.screen._compositor.render_strips() if strips is None else strips
    region = widget.region if region is None else region
    out = []
    for y in range(region.y, min(region.bottom, len(strips))):
        x = 0
        for segment in strips[y]:
            for _char in segment.text:
                if region.x <= x < region.right:
                    style = segment.style
                    colours = tuple(None if c is None else c.downgrade(system).number if not c.is_default else -1
                                    for c in (style.color, style.bgcolor))
                    out.append(colours + (bool(style.reverse),))
                x += 1
    return out


def apart(one: int | None, other: int | None) -> bool:
    """Two colours of the terminal's palette a GM tells apart at a glance: not the same, nor
    two neighbouring greys of the 256 (Textual's own 5 % focus tint comes out one grey up)."""
    if one == other:
        return False
    if one is None or other is None or one < 0 or other < 0:
        return True
    rgb = [Color.from_ansi(n).get_truecolor() for n in (one, other)]
    return sum(abs(a - b) for a, b in zip(*rgb)) >= 48


def changed(looked: Cell, blurred: Cell) -> bool:
    """A cell drawn otherwise with the focus: its background apart, or reversed."""
    return apart(looked[1], blurred[1]) or looked[2] != blurred[2]


def inside(widget: Any) -> Region:
    """The widget's cells inside its border and its scrollbars (an edge keeps the colour around
    it, a scrollbar its own); a list's or a text area's inside its padding too (the chosen line
    is drawn between them; Textual draws a text area's padding in a colour of its own)."""
    if isinstance(widget, (OptionList, ListView, TextArea)):
        return widget.scrollable_content_region
    border = widget.styles.gutter - widget.styles.padding
    return widget.region.shrink(border).shrink(widget.scrollbar_gutter)


def stands_out(widget: Any, looked: list[Cell], blurred: list[Cell]) -> bool:
    """A field or a button: every cell inside its border drawn otherwise. A list: its chosen
    line, a whole row of it (the other lines stay as they were)."""
    if not looked or len(looked) != len(blurred):
        return False
    if isinstance(widget, (OptionList, ListView)):
        width = inside(widget).width
        rows = [range(i, i + width) for i in range(0, len(looked), width)]
        return any(all(changed(looked[i], blurred[i]) for i in row) for row in rows)
    return all(changed(a, b) for a, b in zip(looked, blurred))


def name(widget: Any) -> str:
    return f"{type(widget).__name__}#{widget.id}"


async def faint_focus(app: Any, pilot: Any, keys: Sequence[str], *, themes: Sequence[str] = THEMES) -> list[str]:
    """In each theme: how the focused widget looks now and after each of `keys` (tab,
    shift+tab…), against how it looks once nothing has the focus. The widgets whose focus does
    not stand out, as "theme system Type#id"; an empty list when every one does. (The keys go
    round the dialog: pressed in each theme, they bring the focus back where it started.)"""
    faults: list[str] = []
    first = app.focused
    for theme in themes:
        app.theme = theme
        if first is not None:
            first.focus()
        await pilot.pause()
        seen: list[tuple[Any, Region, dict[ColorSystem, list[Cell]]]] = []

        def look() -> None:
            widget = app.focused
            assert widget is not None and widget.screen is app.screen, (theme, widget)
            strips = app.screen._compositor.render_strips()
            region = inside(widget)
            seen.append((widget, region, {s: cells(app, widget, s, strips=strips, region=region) for s in SYSTEMS}))

        look()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
            look()
        app.screen.set_focus(None)
        await pilot.pause()
        strips = app.screen._compositor.render_strips()
        for widget, region, looked in seen:
            assert inside(widget) == region, (theme, name(widget), "moved")
            for system in SYSTEMS:
                if not stands_out(widget, looked[system], cells(app, widget, system, strips=strips, region=region)):
                    faults.append(f"{theme} {system.name} {name(widget)}")
    return sorted(set(faults))


def focused_in_turn(app: Any) -> list[str]:
    """The widgets a tab reaches in the dialog on top, in order."""
    return [name(w) for w in app.screen.focus_chain]
