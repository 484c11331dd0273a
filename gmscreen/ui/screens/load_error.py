"""A campaign that failed to load: every problem, shown literally, and a way to open another.

The file is never touched from here: nothing is saved, locked or repaired.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from gmscreen.i18n import N_, ngettext

from ..config import Config
from ..sanitize import literal
from .open_campaign import OpenCampaignScreen


class LoadErrorScreen(OpenCampaignScreen):
    """Dismissed with another campaign to open, or None (quit)."""

    DEFAULT_CSS = """
    LoadErrorScreen #problems { height: auto; max-height: 12; border: round $error; padding: 0 1; }
    LoadErrorScreen #problems > .problem { color: $text; }
    """

    BINDINGS = [Binding("escape", "cancel", N_("Quit"), id="load-error.quit")]

    title_text = N_("This campaign could not be opened")
    cancel_hint = N_("The file was not changed. Fix it (gmscreen validate FILE) or open another; escape: quit.")

    def __init__(self, path: Path, problems: list[str], config: Config) -> None:
        super().__init__(path, config)
        self.failed_path = path
        self.problems = list(problems)

    def compose_problems(self) -> ComposeResult:
        with VerticalScroll(id="problems"):
            count = ngettext("{n} problem", "{n} problems", len(self.problems)).format(n=len(self.problems))
            yield Static(Content.assemble(literal(self.failed_path, "bold"), (f"  ({count})", "dim")))
            for problem in self.problems:
                yield Static(literal(problem, single_line=False), classes="problem")
