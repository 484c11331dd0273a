"""Every key of the screen and of each pane, grouped, with the ids a keymap remaps."""

from __future__ import annotations

from typing import Any, Iterator

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Label

from gmscreen.i18n import N_, _

from ..binding_words import describe, tr
from ..config import CONFIG_NAME, config_dir
from ..host import SCREEN_GROUP, CampaignHost
from ..sanitize import literal_text
from ..terminal.steady import SteadyModalScreen


def binding_table(app: Any) -> list[tuple[str, Any, Binding, list[str]]]:
    """(group, node, binding, key displays) per action of each node, the user's keymap applied."""
    owners = app.binding_owners() if isinstance(app, CampaignHost) else [(SCREEN_GROUP, app)]
    rows: dict[tuple[int, str], list[Any]] = {}
    config = getattr(app, "config", None)
    keymap = config.keymap if config is not None else {}    # the one the app set (`set_keymap`)
    for group, node in owners:
        bindings_map = node._bindings.copy()
        if keymap:
            bindings_map.apply_keymap(keymap)
        for bindings in bindings_map.key_to_bindings.values():
            for binding in bindings:
                if binding.system:
                    continue
                key = (id(node) if group != SCREEN_GROUP else 0, binding.action)
                row = rows.get(key)
                if row is None:
                    row = rows[key] = [group, node, binding, []]
                elif binding.id and not row[2].id:
                    row[2] = binding
                display = app.get_key_display(binding)
                if display not in row[3]:
                    row[3].append(display)
    return [tuple(row) for row in rows.values()]  # type: ignore[misc]


def key_rows(app: Any) -> Iterator[tuple[str, str, str, str]]:
    """(group, keys, description, binding id) for the keys screen, in the language spoken."""
    for group, _node, binding, keys in binding_table(app):
        yield tr(group), " ".join(keys), describe(binding), binding.id or ""


class KeysHelpScreen(SteadyModalScreen[None]):
    """`?`: all keys; escape or `?` closes it."""

    DEFAULT_CSS = """
    KeysHelpScreen { align: center middle; }
    KeysHelpScreen > .dialog {
        width: 95%;
        max-width: 110;
        height: 90%;
        border: round $border;
        background: $surface;
    }
    KeysHelpScreen DataTable { height: 1fr; }
    KeysHelpScreen .hint { color: $text-muted; padding: 0 1; }
    """

    BINDINGS = [
        Binding("escape,question_mark,q", "close", N_("Close"), id="keys.close"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield DataTable(id="keys-table", cursor_type="row", zebra_stripes=True)
            yield Label(_("Remap any key by its id in {file}, table [keymap], e.g. \"app.next-turn\" = "
                          "\"n,space\". escape: close.").format(file=config_dir() / CONFIG_NAME),
                        classes="hint", markup=False)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(Text(_("Keys")), Text(_("Action")), Text(_("Id")))
        app = self.app
        last_group = None
        for group, keys, description, binding_id in key_rows(app):
            if group != last_group:
                table.add_row(Text(group, style="bold"), Text(""), Text(""))
                last_group = group
            table.add_row(literal_text(keys, "bold"), literal_text(description), literal_text(binding_id, "dim"))
        table.focus()

    def action_close(self) -> None:
        self.dismiss(None)
