"""Every key of the screen and of each pane, grouped, with the ids a keymap remaps; Textual's own
moving and editing keys (the tables', the line's) once, in a group of their own at the end."""

from __future__ import annotations

from typing import Any, Iterator

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Label

from gmscreen.i18n import N_, _

from ..binding_words import describe, tr
from ..config import CONFIG_NAME, config_dir
from ..key_owners import SCREEN_GROUP, binding_owners
from ..sanitize import literal_text
from ..terminal.bindings import bindings_of
from ..terminal.steady import SteadyModalScreen

# Textual's own keys (a binding without an id, in a pane): the same everywhere, listed once.
TEXTUAL_GROUP = N_("Moving and editing")


def binding_table(app: Any) -> list[tuple[str, Any, Binding, list[str]]]:
    """(group, node, binding, key displays) per action of each node, the user's keymap applied."""
    owners = binding_owners(app)
    rows: dict[tuple[int, str], list[Any]] = {}
    config = getattr(app, "config", None)
    keymap = config.keymap if config is not None else {}    # the one the app set (`set_keymap`)
    for group, node in owners:
        bindings_map = bindings_of(node)
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
    return [tuple(row) for row in rows.values()]


def key_rows(app: Any) -> Iterator[tuple[str, str, str, str]]:
    """(group, keys, description, binding id) for the keys screen, in the language spoken: the
    screen's and each pane's own keys, then Textual's own once (`TEXTUAL_GROUP`), without the
    keys a pane answers itself (the roster's home and end)."""
    table = binding_table(app)
    ours = [row for row in table if row[2].id or row[0] == SCREEN_GROUP]
    theirs = [row for row in table if not (row[2].id or row[0] == SCREEN_GROUP)]
    for group, _node, binding, keys in ours:
        yield tr(group), " ".join(keys), describe(binding), binding.id or ""
    taken = {(group, key) for group, _node, _binding, keys in ours for key in keys}
    seen: set[tuple[str, str]] = set()
    for group, _node, binding, keys in theirs:
        free = " ".join(key for key in keys if (group, key) not in taken)
        entry = (free, describe(binding))
        if free and entry not in seen:
            seen.add(entry)
            yield _(TEXTUAL_GROUP), *entry, ""


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
    KeysHelpScreen .hint { color: $text-muted; padding: 0 1; width: 100%; }
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
        rows = list(key_rows(self.app))
        keys_width = max(cell_len(row[1]) for row in rows)
        id_width = max(cell_len(row[3]) for row in rows)
        # The ids whole whatever the width (a keymap names them): the descriptions give way.
        width = min(self.app.size.width * 95 // 100, 110) - 2 - table.styles.scrollbar_size_vertical
        action_width = max(12, width - 3 * 2 * table.cell_padding - keys_width - id_width)
        table.add_column(Text(_("Keys")), width=keys_width)
        table.add_column(Text(_("Action")), width=action_width)
        table.add_column(Text(_("Id")), width=id_width)
        last_group = None
        for group, keys, description, binding_id in rows:
            if group != last_group:
                table.add_row(Text(group, style="bold"), Text(""), Text(""))
                last_group = group
            # A description longer than its column (Textual's longest) on two lines, not cut.
            long = cell_len(description) > action_width
            table.add_row(literal_text(keys, "bold"), Text(description, no_wrap=not long),
                          literal_text(binding_id, "dim"), height=None if long else 1)
        table.focus()

    def action_close(self) -> None:
        self.dismiss(None)
