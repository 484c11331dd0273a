"""The full sheet of one character, over the screen; `e` goes straight to the edit form."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from gmscreen.campaign.model import Character
from gmscreen.i18n import N_, _
from gmscreen.rules import System

from gmscreen.ui.widgets.roster.sheet import SheetView
from ..terminal.steady import SteadyModalScreen


class SheetScreen(SteadyModalScreen[str | None]):
    """Dismisses with "edit" when the GM asks to edit, else None."""

    DEFAULT_CSS = """
    SheetScreen { align: center middle; }
    SheetScreen > #sheet-box {
        width: 90;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: round $accent;
        background: $surface;
    }
    SheetScreen VerticalScroll { height: auto; max-height: 100%; }
    SheetScreen #sheet-help { color: $text-muted; padding: 0 1; }
    """
    BINDINGS = [
        Binding("escape,enter,q", "close", N_("Close"), id="sheet.close"),
        Binding("e", "edit", N_("Edit"), id="sheet.edit"),
    ]

    def __init__(self, system: System, character: Character) -> None:
        super().__init__()
        self.system = system
        self.character = character

    def compose(self) -> ComposeResult:
        with Vertical(id="sheet-box"):
            with VerticalScroll(id="sheet-scroll"):
                yield SheetView(self.system, self.character, ascii=self.app.has_class("-ascii"),
                                id="sheet")
            yield Static(_("e edit · escape close"), id="sheet-help", markup=False)

    def on_mount(self) -> None:
        self.query_one("#sheet-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_edit(self) -> None:
        self.dismiss("edit")
