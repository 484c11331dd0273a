"""Pick a campaign to open: a typed path, a recent campaign, a copy of a bundled sample, or a
new one (`NewCampaignScreen`: the template `gmscreen new` writes)."""

from __future__ import annotations

import shutil
from pathlib import Path

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from gmscreen.i18n import N_, _, os_reason

from ..config import Config, data_dir
from ..sanitize import literal
from .dialog import Dialog


def sample_copy(system_id: str) -> Path:
    """The GM's own copy of a bundled sample in the data folder (made on first use)."""
    from gmscreen.campaign import sample_path

    target = data_dir() / "campaigns" / f"{system_id}.toml"
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(sample_path(system_id), target)
    return target


class OpenCampaignScreen(Dialog[Path | None]):
    """Dismissed with the chosen path, or None (escape)."""

    DEFAULT_CSS = """
    OpenCampaignScreen { align: center middle; }
    OpenCampaignScreen > .dialog {
        width: 90%;
        max-width: 100;
        height: auto;
        max-height: 90%;
        border: round $border;
        background: $surface;
        padding: 0 1;
    }
    OpenCampaignScreen .title { text-style: bold; }
    OpenCampaignScreen OptionList { height: auto; max-height: 12; }
    OpenCampaignScreen .hint { color: $text-muted; }
    """

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"), id="open.cancel")]

    title_text = N_("Open a campaign")          # msgids, shown through `_`
    cancel_hint = N_("escape: back")

    def __init__(self, current: Path | None, config: Config) -> None:
        super().__init__()
        self.current = current
        self.config = config
        self._choices: dict[str, tuple[str, str]] = {}   # option id -> ("path"|"sample"|"new", value)
        self._typed = False          # the path field takes the focus from a key typed in the list

    def compose_problems(self) -> ComposeResult:
        yield from ()

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(_(self.title_text), classes="title", markup=False)
            yield from self.compose_problems()
            yield Label(_("File (enter to open):"), markup=False)
            # Not selected on focus: typing from the list has already put its first key there.
            yield Input(value=str(self.current) if self.current else "", placeholder=_("path/to/campaign.toml"),
                        id="open-path", select_on_focus=False)
            yield Label(_("Recent campaigns and samples:"), markup=False)
            yield OptionList(*self._options(), id="open-choices", markup=False)
            yield Label(_(self.cancel_hint), classes="hint", markup=False)

    def _options(self) -> list[Option]:
        from gmscreen.campaign.samples import list_samples

        options: list[Option] = []
        shown: set[Path] = set()
        for index, path in enumerate(self.config.recent):
            path = Path(path)
            if path in shown or not path.is_file():
                continue
            shown.add(path)
            option_id = f"recent-{index}"
            self._choices[option_id] = ("path", str(path))
            options.append(Option(Content.assemble(literal(path.name, "bold"), "  ", literal(path.parent, "dim")),
                                  id=option_id))
        self._choices["new"] = ("new", "")
        options.append(Option(Content.assemble(("+ " + _("New campaign…"), "bold"),
                                               ("  " + _("(choose the game and the file)"), "dim")), id="new"))
        for system_id in list_samples():
            option_id = f"sample-{system_id}"
            self._choices[option_id] = ("sample", system_id)
            options.append(Option(Content.assemble((_("sample") + " ", "dim"), (system_id, "bold"),
                                                   ("  " + _("(a copy in your data folder)"), "dim")),
                                  id=option_id))
        from gmscreen.rules import registry

        for index, failure in enumerate(registry.failures()):   # a game whose package is broken: said, not offered
            options.append(Option(literal(failure.text, "$warning"), id=f"failed-{index}", disabled=True))
        return options

    def on_mount(self) -> None:
        self.query_one("#open-choices", OptionList).focus()

    def on_key(self, event: events.Key) -> None:
        """Typing from the list starts a path: the keys go to the path field (in place of the
        path shown), so a path typed at once after ctrl+o lands whole where it belongs."""
        field = self.query_one("#open-path", Input)
        if event.is_printable and event.character and not field.has_focus:
            event.stop()
            event.prevent_default()
            field.value = event.character
            field.cursor_position = len(field.value)
            self._typed = True
            field.focus()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The path field reached otherwise than by typing (tab, a click): its path selected whole,
        so what is typed next replaces it rather than being added to its end."""
        field = self.query_one("#open-path", Input)
        if event.widget is not field:
            return
        if self._typed:
            self._typed = False
        else:
            field.select_all()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text:
            return
        path = Path(text).expanduser()
        if not path.is_file():
            self.app.notify(_("{path}: no such campaign file").format(path=text), severity="error", markup=False)
            return
        self.dismiss(path)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        kind, value = self._choices.get(event.option.id or "", ("", ""))
        if kind == "new":
            self._new_campaign()
        elif kind == "path":
            self.dismiss(Path(value))
        elif kind == "sample":
            try:
                self.dismiss(sample_copy(value))
            except OSError as exc:
                self.app.notify(_("cannot copy the {system} sample: {problem}").format(
                    system=value, problem=os_reason(exc)), severity="error", markup=False)

    def _new_campaign(self) -> None:
        from .new_campaign import NewCampaignScreen

        session = getattr(self.app, "session", None)
        system_id = session.campaign.system if session is not None else None
        folder = self.current.parent if self.current is not None else None

        def made(path: Path | None) -> None:
            if path is not None:
                self.dismiss(path)

        self.app.push_screen(NewCampaignScreen(folder, system_id), made)

    def action_cancel(self) -> None:
        self.dismiss(None)
