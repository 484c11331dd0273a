"""The first frame styles each widget once: the screen's size classes and the current pane's
class are given as they are made, not added once styled (each addition restyled the whole
screen, or a whole pane, a second time before the first frame)."""

from __future__ import annotations

import pytest
from _pilot import ready
from textual.app import App
from textual.dom import DOMNode

from gmscreen.ui import GMScreenApp
from gmscreen.ui.layout import MainScreen
from gmscreen.ui.panes import make_pane


@pytest.mark.parametrize(("size", "classes"), [((80, 24), {"-narrow", "-short"}), ((120, 40), {"-wide", "-tall"})])
async def test_the_screen_and_the_current_pane_are_styled_once_before_the_first_frame(campaign_file, monkeypatch,
                                                                                        size, classes) -> None:
    restyled: list[str] = []
    shown: list[bool] = []
    update = DOMNode.update_node_styles
    display = App._display

    def restyling(node: DOMNode, animate: bool = True) -> None:
        if not shown and (isinstance(node, MainScreen) or node.has_class("pane")):
            restyled.append(type(node).__name__)
        update(node, animate)

    def displaying(app, screen, changes):
        display(app, screen, changes)
        if getattr(app, "session", None) is not None and app.pane("dice-tray") is not None:
            shown.append(True)

    monkeypatch.setattr(DOMNode, "update_node_styles", restyling)
    monkeypatch.setattr(App, "_display", displaying)
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=size) as pilot:
        await ready(app, pilot)
        assert shown
        assert restyled == ["MainScreen"]           # Textual's own, as the screen is first shown
        screen = app.screen_stack[0]
        assert classes <= screen.classes
        assert app.pane(app.current_pane).has_class("-current")


def test_a_pane_is_made_with_its_classes() -> None:
    assert make_pane("roster", current=True).classes == {"pane", "-current"}
    assert make_pane("log").classes == {"pane"}
