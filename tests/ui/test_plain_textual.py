"""`GMSCREEN_PLAIN_TEXTUAL=1`: the real program on stock Textual, none of `gmscreen/ui/terminal`'s
tuning installed (for a user whose Textual upgrade broke one of its internals), still a
screen a GM can roll on and quit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from gmscreen.campaign import open_session

from _pty import REPO, drain, environment, quick_roll, read_until, start, stop, wait


def test_plain_textual_shows_the_campaign_rolls_and_quits(campaign_file, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("GMSCREEN_PLAIN_TEXTUAL", "1")
    path = campaign_file("mir")
    rolls_before = len(open_session(path, read_only=True).rolls)
    process, master = start(path, tmp_path)
    try:
        read_until(master, b"Vaskov", 20)                   # the campaign on screen
        # Textual's own footer: the roster's keys in the words they are declared with (the
        # tuned one says "État+" in French).
        read_until(master, b"Add condition", 10)
        drain(master, 0.3)
        quick_roll(master, b"6d12 sd2")
        os.write(master, b"\x1b")                           # out of the line, then quit
        drain(master, 0.3)
        os.write(master, b"q")
        assert wait(process, master, 15) == 0
    finally:
        stop(process, master)
    session = open_session(path, read_only=True)
    assert len(session.rolls) == rolls_before + 1
    assert session.rolls[-1].line.strip() == "6d12 sd2"


def test_plain_textual_installs_none_of_the_tuning(tmp_path: Path) -> None:
    """Nothing of Textual's is patched or overridden: the drivers, the wire, the screens' resize,
    the toasts' rack, the palette, the odds table and the footer are Textual's own."""
    probe = """
import textual._compositor as compositor
from textual.app import App
from textual.command import CommandPalette
from textual.screen import Screen
from textual.widgets import Footer, OptionList
from gmscreen.ui.app import GMScreenApp
from gmscreen.ui.palette import Palette
from gmscreen.ui.terminal import driver_class, footer, steady
from gmscreen.ui.terminal.option_list import SteadyOptionList
from gmscreen.ui.widgets.difficulty.pane import _Rows

assert driver_class(App) is App
assert footer.QuietFooter is footer.StockFooter and footer.StockFooter.compose is Footer.compose
assert steady.SteadyScreen._on_resize is Screen._on_resize
assert GMScreenApp._refresh_notifications is App._refresh_notifications
assert Palette._start_no_matches_countdown is CommandPalette._start_no_matches_countdown
for name in ("_size_updated", "_update_lines", "_on_resize"):
    assert getattr(_Rows, name) is getattr(OptionList, name), name
assert not getattr(compositor.ChopsUpdate.render_segments, "_gmscreen", False)
print("stock")
"""
    env = environment(tmp_path)
    env["GMSCREEN_PLAIN_TEXTUAL"] = "1"
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == "stock", done.stderr
