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

from textual.screen import Screen


def forget_stale_repaints(screen: Screen[Any]) -> None:
    """After each full layout of `screen`, drop the pending repaints of the widgets it showed
    (painted whole by that layout)."""
    if getattr(screen, "_forgets_stale_repaints", False):
        return
    layout = screen._refresh_layout

    def refresh_layout(size: Any = None, scroll: bool = False) -> None:
        before = set(screen._compositor.visible_widgets)
        layout(size, scroll)
        for widget in set(screen._compositor.visible_widgets) - before:
            widget._repaint_regions.clear()

    screen._refresh_layout = refresh_layout  # type: ignore[method-assign]
    screen._forgets_stale_repaints = True  # type: ignore[attr-defined]
