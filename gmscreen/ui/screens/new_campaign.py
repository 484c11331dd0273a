"""Create a campaign from the screen: which game (from the registry), where (a path); the file
is `gmscreen new`'s commented template, and the dialog is dismissed with its path to open."""

from __future__ import annotations

import io
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from gmscreen.i18n import N_, _

from ..config import data_dir
from ..sanitize import literal
from .dialog import Dialog


def free_path(folder: Path, stem: str) -> Path:
    """`folder/stem.toml`, or `stem-2.toml`, `stem-3.toml`… the first name not taken."""
    path = folder / f"{stem}.toml"
    number = 2
    while path.exists():
        path = folder / f"{stem}-{number}.toml"
        number += 1
    return path


def create(path: Path, system_id: str) -> str | None:
    """Write the template of `system_id` at `path`; None, or the one line that says why not."""
    from gmscreen.campaign.commands import cmd_new
    from gmscreen.play.tables import table_for
    from gmscreen.play.template import campaign_template

    err = io.StringIO()
    status = cmd_new(path, system_id, out=io.StringIO(), err=err,
                     template=lambda campaign: campaign_template(campaign, table_for(campaign.system)))
    if status == 0:
        return None
    said = err.getvalue().strip().splitlines()
    return said[0] if said else _("{file}: cannot create").format(file=path)


class NewCampaignScreen(Dialog[Path | None]):
    """Dismissed with the path of the campaign written, or None (escape)."""

    DEFAULT_CSS = """
    NewCampaignScreen { align: center middle; }
    NewCampaignScreen > .dialog {
        width: 90%;
        max-width: 100;
        height: auto;
        max-height: 90%;
        border: round $border;
        background: $surface;
        padding: 0 1;
    }
    NewCampaignScreen .title { text-style: bold; }
    NewCampaignScreen OptionList { height: auto; max-height: 10; }
    NewCampaignScreen .hint { color: $text-muted; }
    """

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"), id="new.cancel")]

    def __init__(self, folder: Path | None = None, system_id: str | None = None) -> None:
        super().__init__()
        self.folder = folder
        self.system_id = system_id

    def compose(self) -> ComposeResult:
        from gmscreen.rules import get_system, registry

        self._systems = list(registry.system_ids())
        options = [Option(Content.assemble(literal(get_system(sid).game, "bold"), "  ", (sid, "dim")), id=f"game-{sid}")
                   for sid in self._systems]
        with Vertical(classes="dialog"):
            yield Label(_("New campaign"), classes="title", markup=False)
            yield Label(_("Game (enter to choose):"), markup=False)
            yield OptionList(*options, id="new-game", markup=False)
            yield Label(_("File (enter to create and open it):"), markup=False)
            yield Input(value=str(self._default_path()), placeholder=_("path/to/campaign.toml"), id="new-path")
            yield Label(_("A commented template: one example character, the game's settings."), classes="hint",
                        markup=False)
            yield Label(_("escape: back"), classes="hint", markup=False)

    def _default_path(self) -> Path:
        folder = self.folder
        if folder is None or not folder.is_dir():
            folder = data_dir() / "campaigns"
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError:
                folder = Path.cwd()
        return free_path(folder, _("campaign"))

    def on_mount(self) -> None:
        games = self.query_one("#new-game", OptionList)
        if self.system_id in self._systems:
            games.highlighted = self._systems.index(self.system_id)
        elif self._systems:
            games.highlighted = 0
        games.focus()

    def chosen_system(self) -> str | None:
        index = self.query_one("#new-game", OptionList).highlighted
        return self._systems[index] if index is not None and 0 <= index < len(self._systems) else None

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A game chosen: on to the file (selected, so a name typed replaces it)."""
        event.stop()
        self.query_one("#new-path", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        system_id = self.chosen_system()
        if not text:
            self.app.notify(_("a file to create is required"), severity="error", markup=False)
            return
        if system_id is None:
            self.app.notify(_("choose a game first"), severity="error", markup=False)
            return
        path = Path(text).expanduser()
        if not path.suffix:
            path = path.with_name(path.name + ".toml")
        problem = create(path, system_id)
        if problem is not None:
            self.app.notify(problem, severity="error", markup=False)
            return
        self.dismiss(path)

    def action_cancel(self) -> None:
        self.dismiss(None)
