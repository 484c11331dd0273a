"""The roster (`#roster`): party and NPCs with the stats their game looks at, one key per edit.

Moving the cursor selects the character for the whole screen (the dice tray rolls for
them by default). Every edit is one undoable change asked of the host; forms and
questions are modal screens, so the roster itself only draws and dispatches.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Label

from gmscreen.campaign.model import Character, Condition, to_data
from gmscreen.i18n import N_, _, language
from gmscreen.i18n.typography import Name

from gmscreen.rules.records import record
from gmscreen.ui.panes import is_wide, set_title
from gmscreen.play.tables import table_for
from gmscreen.play.public import character_sight, hidden_character_words
from gmscreen.ui.sanitize import clean, literal_text
from gmscreen.ui.terminal.start_slices import next_slice
from gmscreen.ui.widgets.conditions import condition_line, conditions_text
from gmscreen.ui.widgets.roster.sheet import glance, glance_header, resource_of, side_label, side_mark
from gmscreen.ui.widgets.table_pane import TablePane, editing, editing_row, row_after_removal, update_row


def _dialogs() -> Any:
    """The small dialogs, imported on first use (they pull in TextArea and friends)."""
    from gmscreen.ui.screens import roster_dialogs

    return roster_dialogs


def _edit() -> Any:
    from gmscreen.ui.screens import edit_character

    return edit_character


def _sheet() -> Any:
    from gmscreen.ui.screens import roster_sheet

    return roster_sheet


if TYPE_CHECKING:
    from textual.screen import Screen

    from gmscreen.campaign.session import CampaignSession, EditBuilder

MAX_COPIES = 50
NAME_WIDTH = 20          # long names and conditions are cut in the table; the sheet (enter) has all
CONDITIONS_WIDTH = 18
NAME_MIN = 12            # a narrow pane cuts names down to this, conditions to CONDITIONS_MIN, before the stats
CONDITIONS_MIN = 8
NAME_FLOOR = 6           # ...and even narrower, the stats give way only once these are reached
FIRST_ROWS = 24          # rows drawn before the first frame (or the terminal's height if taller)
FILL_SLICE = 40          # the rest's lines measured this many per turn of the loop (a few ms each)
_NUMBERED = re.compile(r"^(.*\S)\s+(\d+)$")


def copy_names(base: str, count: int, taken: set[str]) -> list[str]:
    """Names for `count` copies of `base`: 'Garde 2', 'Garde 3'... skipping names in use.

    A base already numbered ('Garde 2') continues from its number.
    """
    match = _NUMBERED.match(base)
    stem, n = (match.group(1), int(match.group(2))) if match else (base, 1)
    names: list[str] = []
    while len(names) < count:
        n += 1
        name = f"{stem} {n}"
        if name not in taken:
            names.append(name)
            taken.add(name)
    return names


@record(frozen=True)
class Columns:
    """Content widths of the roster's columns (the table adds its padding around each)."""

    side: int           # 3: "PJ"/"PNJ"; 1: a one-character mark
    name: int
    conditions: int
    stats: int


def plan_columns(width: int, *, names: int, conditions: int, stats: int, padding: int = 1) -> Columns:
    """Fit the four columns in `width` cells: the stats first (the line the GM reads at a glance),
    then the names and conditions: when the pane is narrow, each gets up to NAME_MIN / CONDITIONS_MIN
    (names first) and what is left is shared between them; "PJ"/"PNJ" become a mark unless
    everything fits at full width. Only when even NAME_FLOOR does not fit is the stats line cut.

    `names`, `conditions`, `stats`: the widest cell of each (headers included).
    """
    room = width - 4 * 2 * padding
    name_header, cond_header = cell_len(_("Name")), cell_len(_("Conditions"))
    side = max(cell_len(_("PC")), cell_len(_("NPC")))
    names = max(min(names, NAME_WIDTH), name_header)
    conditions = max(min(conditions, CONDITIONS_WIDTH), cond_header)   # a column is never narrower than its header
    if room - side - stats >= names + conditions:
        return Columns(side, names, conditions, stats)
    rest = room - 1 - stats
    floor = min(names, NAME_FLOOR) + cond_header
    if rest < floor:
        stats, rest = max(room - 1 - floor, 1), floor
    name = min(names, NAME_MIN, rest - cond_header)
    cond = min(conditions, CONDITIONS_MIN, rest - name)
    extra = rest - name - cond
    while extra > 0 and (name < names or cond < conditions):     # the rest shared out, a cell each
        if name < names:
            name, extra = name + 1, extra - 1
        if extra > 0 and cond < conditions:
            cond, extra = cond + 1, extra - 1
    return Columns(1, name, cond, stats)


def fit_name(name: Text, width: int) -> Text:
    """A name cut to `width` cells; copies ("Garde 2", "Garde 3") keep their number apart."""
    if name.cell_len <= width:
        return name
    number = re.search(r"\s\d+$", name.plain)
    if number and width - len(number.group()) >= 3:     # cut the middle, keep the number
        tail = number.group()
        head = Text(name.plain[:number.start()])
        head.truncate(width - len(tail) - 1)
        return Text(head.plain.rstrip() + "…" + tail, style=name.style)
    cut = name.copy()
    cut.truncate(width, overflow="ellipsis")
    return cut


class RosterPane(TablePane[Character]):
    """Party then NPCs; the row under the cursor is the selected character."""

    DEFAULT_CSS = """
    RosterPane { height: 1fr; }
    RosterPane > DataTable { height: 1fr; background: transparent; scrollbar-size-horizontal: 0; }
    RosterPane > #roster-empty { display: none; color: $text-muted; padding: 0 1; }
    RosterPane.-empty > #roster-empty { display: block; }
    RosterPane.-empty > DataTable { height: auto; }
    """
    # What an empty roster says: the first thing to do (a new campaign from a bare file).
    EMPTY_HINT = N_("No characters yet: a to add a character, ? for keys")
    # In the order the footer gives them room (the keys of play first); home/end with priority:
    # the table's own would scroll it sideways, not move its cursor.
    BINDINGS = [
        Binding("c", "add_condition", N_("Add condition"), id="roster.add-condition"),
        Binding("+", "resource(1)", N_("Resource +1"), id="roster.resource-up"),
        Binding("-", "resource(-1)", N_("Resource −1"), id="roster.resource-down"),
        Binding("enter", "sheet", N_("Sheet"), id="roster.sheet", priority=True),
        Binding("C", "remove_condition", N_("Remove condition"), id="roster.remove-condition"),
        Binding("i", "to_initiative", N_("To initiative"), id="roster.to-initiative"),
        Binding("e", "edit", N_("Edit"), id="roster.edit"),
        Binding("a", "add", N_("Add"), id="roster.add"),
        Binding("x,delete", "remove", N_("Remove"), id="roster.remove"),
        Binding("d", "duplicate", N_("Duplicate"), id="roster.duplicate"),
        Binding("T", "add_track", N_("Track"), id="roster.add-track", show=False),
        Binding("H", "toggle_hidden", N_("Hide"), id="roster.hide"),
        Binding("N", "new_session", N_("New session"), id="roster.new-session", show=False),
        Binding("home", "first", N_("First character"), id="roster.first", show=False, priority=True),
        Binding("end", "last", N_("Last character"), id="roster.last", show=False, priority=True),
    ]
    TABLE_ID = "roster-table"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._ids: list[str] = []
        self._columns_for: tuple[str, str] | None = None
        self._shown: tuple[Any, ...] | None = None
        self._filling: tuple[object, str | None] | None = None   # a long roster's pending rest, and its cursor
        self._drawn = False                      # the first draw is out (later ones come whole)
        self.fill_slices = 0                     # turns of the loop the rest of a long roster took
        self._system: Any = None
        self._ordered: list[Character] = []      # every character, in the table's order
        self._glances: dict[str, Text] = {}      # their stats lines, by id
        self._header = ""
        self._columns: Columns | None = None     # the widths the drawn rows were cut to

    def compose(self) -> ComposeResult:
        yield DataTable(id="roster-table", cursor_type="row", zebra_stripes=True, cell_padding=1)
        yield Label(_(self.EMPTY_HINT), id="roster-empty", markup=False)

    def on_mount(self) -> None:
        self.border_title = _("Characters")
        session = self.host.session
        if session is not None:
            self.show_campaign(session)

    # ------------------------------------------------------------ drawing

    def show_campaign(self, session: CampaignSession) -> None:
        if not self.is_mounted:
            return
        # Every change bumps the campaign's revision: an unchanged one needs no redraw
        # (the host refreshes all views at start-up and after each change). A version taken
        # in from disk is a new campaign object, whatever its revision.
        # A change of language redraws too (headers, sides, sheets' words).
        lang = language()
        shown = (id(session), id(session.campaign), session.campaign.revision, lang, self._watched())
        if shown == self._shown:
            return
        self._shown = shown
        set_title(self, _("Characters"))
        system = session.system
        if self._columns_for != (system.id, lang):
            self._header = glance_header(system, ascii=self.ascii)
            self._columns_for = (system.id, lang)
            self._ids, self._columns = [], None         # drawn again, under the new header
        chars = session.campaign.characters
        ordered = [c for c in chars if c.side == "party"] + [c for c in chars if c.side != "party"]
        self.set_class(not ordered, "-empty")
        if not ordered:
            self.query_one("#roster-empty", Label).update(_(self.EMPTY_HINT))
        self._system, self._ordered, self._glances = system, ordered, {}
        keys = [c.id for c in ordered]
        pending, self._filling = self._filling, None
        if keys == self._ids:
            columns = self._columns
            self._measure(ordered)
            if self._columns == columns or self._still_fits(columns):
                self._columns = columns      # narrower content (a condition gone): rows only
                self._update_rows(ordered)
                return
        else:
            self._measure(ordered[:self._first_rows()] if not self._drawn else ordered)
        # The character to keep under the cursor: while the rest of a long roster is pending,
        # the one it was to land on (the cursor cannot be there yet); when its row is gone (`x`),
        # the row that took its place, or the one above the last, selected.
        keep = pending[1] if pending else self.current_id() or self.host.selected_id
        after = row_after_removal(self._ids, keep, keys)
        self._redraw(after or keep)
        if after is not None and self.table.has_focus:
            self.host.select_character(after)

    def _still_fits(self, columns: Columns | None) -> bool:
        """Every cell of the rows measured fits the columns drawn: a condition running out
        need not draw the whole table again (only its row changes) to narrow a column."""
        if columns is None or self._columns is None or self._columns.side != columns.side:
            return False
        ordered = [c for c in self._ordered if c.id in self._glances]
        # Names cut to their column stay cut as they were drawn (a condition gone leaves room
        # that a whole table sent again would give them): only a new or longer name needs it.
        names = {c.id: c.name for c in ordered}
        names_drawn = names == getattr(self, "_names_drawn", None)
        return ((names_drawn or max((cell_len(clean(c.name)) for c in ordered), default=0) <= columns.name)
                and max((conditions_text(c).cell_len for c in ordered), default=0) <= columns.conditions
                and max([cell_len(self._header), *(g.cell_len for g in self._glances.values())]) <= columns.stats)

    def _first_rows(self) -> int:
        return max(FIRST_ROWS, self.app.size.height)

    def _redraw(self, keep: str | None) -> None:
        """Every row again, in columns made again at the widths measured. (Fixed widths: the
        cells are cut to them, and a table lays out a column it sizes itself only once idle.)"""
        table = self.table
        columns = self._columns
        assert columns is not None
        table.clear(columns=True)
        self._names_drawn = {c.id: c.name for c in self._ordered}
        # Headers as Text: a string would be read as markup (a stat named "[x]" lost), and the
        # markup reader loads Rich's emoji table, 2 ms of the first frame.
        table.add_column(Text(""), width=columns.side, key="side")
        table.add_column(Text(_("Name")), width=columns.name, key="name")
        table.add_column(Text(_("Conditions")), width=columns.conditions, key="conditions")
        table.add_column(Text(self._header), width=columns.stats, key="stats")
        self._ids = []
        # At start-up a long roster (a campaign's whole cast of NPCs) is drawn a screenful first
        # and the rest right after that frame is out: a table measures every cell it is given
        # (and the columns are fitted to the screenful's lines, then again with the rest's).
        # Later draws come whole: split, the table would empty below and jump under the GM.
        ordered = self._ordered
        first = len(ordered) if self._drawn else self._first_rows()
        self._add_rows(ordered[:first], keep)
        if len(ordered) > first:
            token = self._filling = (object(), keep)
            self.call_after_refresh(next_slice, self.app, self._add_rest, token, ordered[first:], keep)
        else:
            self._drawn = True

    def _add_rows(self, characters: list[Character], keep: str | None,
                  cells: dict[str, list[Text]] | None = None) -> None:
        table = self.table
        for ch in characters:
            table.add_row(*(cells[ch.id] if cells else self._cells(ch)), key=ch.id)
            self._ids.append(ch.id)
        if keep in self._ids and self.current_id() != keep:
            table.move_cursor(row=self._ids.index(keep), animate=False)

    def _add_rest(self, token: tuple[object, str | None], characters: list[Character], keep: str | None,
                  cells: dict[str, list[Text]] | None = None) -> None:
        """The rest of a long roster, `FILL_SLICE` characters per turn of the loop (a key typed
        meanwhile waits for one slice, not for all): their lines measured, then their cells made
        at the columns fitted to all, then the rows added at once (added in slices, the table
        would be laid out and sent again for each)."""
        if token is not self._filling or not self.is_mounted:     # redrawn since: that draw has them all
            return
        self.fill_slices += 1
        todo = [c for c in characters if c.id not in self._glances][:FILL_SLICE]
        if todo:
            self._glances.update((c.id, glance(self._system, c, ascii=self.ascii)) for c in todo)
            next_slice(self.app, self._add_rest, token, characters, keep)
            return
        if cells is None:
            columns = self._columns
            self._columns = self._plan()
            if self._columns != columns:        # a wider line among the rest: drawn anew, a screenful
                self._filling = None            # first again, then the rest (measured already)
                self._redraw(keep)
                return
            cells = {}
        todo = [c for c in characters if c.id not in cells][:FILL_SLICE]
        if todo:
            cells.update((c.id, self._cells(c)) for c in todo)
            next_slice(self.app, self._add_rest, token, characters, keep, cells)
            return
        self._filling = None
        self._drawn = True
        self._add_rows(characters, keep, cells)

    def _update_rows(self, characters: list[Character]) -> None:
        """Redraw the cells that changed in rows already in the table (the columns unchanged)."""
        table = self.table
        columns = ("side", "name", "conditions", "stats")
        for ch in characters:
            update_row(table, ch.id, zip(columns, self._cells(ch)))

    # The stats line must show whole within the pane: the columns are cut to the pane's width,
    # measured again whenever it changes (a resize, the layout switching, a pane maximized).

    def on_resize(self, event: events.Resize) -> None:
        if self._system is None or not self._ids:
            return
        columns = self._plan()
        if columns != self._columns:
            self._columns = columns
            pending, self._filling = self._filling, None
            self._redraw(pending[1] if pending else self.current_id())

    def _measure(self, characters: list[Character]) -> None:
        """The stats lines of these characters (to be drawn) and the columns fitted to them."""
        self._glances.update((c.id, glance(self._system, c, ascii=self.ascii)) for c in characters)
        self._columns = self._plan()

    def _room(self) -> int:
        """Cells the table can give its columns: its width, less a vertical scrollbar when the
        rows overflow. Before the first layout, the app's: the whole width, or 3/5 of it in the
        wide layout (`panes.is_wide`)."""
        table = self.table
        width, height = table.size
        if not width:
            app_width, app_height = self.app.size
            wide = is_wide(app_width, app_height)
            width = (app_width * 3 // 5 if wide else app_width) - self.styles.gutter.width
            height = (app_height - 11) // 2 - 2 if wide else app_height - 11
        if len(self._ordered) + (1 if table.show_header else 0) > height:
            width -= table.styles.scrollbar_size_vertical
        return width

    def _plan(self) -> Columns:
        ordered = [c for c in self._ordered if c.id in self._glances]     # those measured so far
        return plan_columns(
            self._room(),
            names=max((cell_len(clean(c.name)) for c in ordered), default=0),
            conditions=max((conditions_text(c).cell_len for c in ordered), default=0),
            stats=max([cell_len(self._header), *(g.cell_len for g in self._glances.values())]),
            padding=self.table.cell_padding)

    def _cells(self, ch: Character) -> list[Text]:
        columns = self._columns
        assert columns is not None
        party = ch.side == "party"
        side_text = side_label(ch.side) if columns.side > 1 else side_mark(ch.side, ascii=self.ascii)
        side = Text(side_text, style="bold" if party else "dim")
        if self._watched() and character_sight(ch).secret:
            # Players watching: a character the GM hides is a row without a name, conditions or
            # stats (`gmscreen.play.public`), in its place so the cursor stays where it was.
            return [side, fit_name(literal_text(hidden_character_words(), "italic"), columns.name), Text(), Text()]
        name = fit_name(literal_text(ch.name, "bold" if party else ""), columns.name)
        if ch.hidden:                   # kept from the player view: in italics, struck through
            name.stylize("italic strike")
        conditions = conditions_text(ch, columns.conditions)
        conditions.truncate(columns.conditions, overflow="ellipsis")
        stats = self._glances.get(ch.id) or Text()
        if stats.cell_len > columns.stats:
            stats = stats.copy()
            stats.truncate(columns.stats, overflow="ellipsis")
        return [side, name, conditions, stats]

    def _watched(self) -> bool:
        return bool(self.host.players_watching)

    def show_watching(self, watching: bool) -> None:
        session = self.host.session
        if session is not None:
            self.show_campaign(session)         # its rows as the players may see them, or whole again

    def current_id(self) -> str | None:
        if not self.is_mounted or not self._ids:
            return None
        row = self.table.cursor_row
        return self._ids[row] if 0 <= row < len(self._ids) else None

    def show_selection(self, char_id: str | None) -> None:
        if not self.is_mounted or char_id is None or char_id not in self._ids:
            return
        row = self._ids.index(char_id)
        if self.table.cursor_row != row:
            self.table.move_cursor(row=row, animate=False)

    def action_first(self) -> None:
        self._cursor_to(0)

    def action_last(self) -> None:
        self._cursor_to(len(self._ids) - 1)

    def _cursor_to(self, row: int) -> None:
        """The cursor on that row (the character selected as the GM's own moves select)."""
        if self._ids and self.table.cursor_row != row:
            self.table.move_cursor(row=row, animate=False)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if event.cursor_row != self.table.cursor_row:
            return          # stale: the cursor moved again since (a redraw); acting on it would ping-pong
        key = self.current_id()
        selected = self.host.selected_id
        # Redrawing moves the cursor too: only the GM's moves (or the first row) select.
        if key is not None and key != selected and (self.table.has_focus or selected is None):
            self.host.select_character(key)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_sheet()

    # ------------------------------------------------------------ helpers

    def _current(self) -> tuple[int, Character] | None:
        """Index in campaign.characters and the character under the cursor; tells the GM if none."""
        session = self.session
        char_id = self.current_id()
        if session is None or char_id is None:
            self.host.warn(_("no character selected"))
            return None
        for i, ch in enumerate(session.campaign.characters):
            if ch.id == char_id:
                return i, ch
        return None

    @staticmethod
    def _index_of(session: CampaignSession, char_id: str) -> int | None:
        for i, ch in enumerate(session.campaign.characters):
            if ch.id == char_id:
                return i
        return None

    def _ask(self, screen: Screen[Any], session: CampaignSession, char_id: str,
             then: Callable[[int, Any], None], gone: str = "") -> None:
        """Ask `screen` about a character; once answered (not cancelled), `then(index, answer)`
        with the character's index as the campaign is then. A character removed meanwhile is
        left alone (`gone`, when given, tells the GM)."""

        def done(answer: Any) -> None:
            if answer is None:
                return
            index = self._index_of(session, char_id)
            if index is None:
                if gone:
                    self.host.warn(gone)
                return
            then(index, answer)

        self.app.push_screen(screen, done)

    # ------------------------------------------------------------ sheet and form

    def action_sheet(self) -> None:
        found = self._current()
        if found is None or self.session is None:
            return
        _index, ch = found

        def done(result: str | None) -> None:
            if result == "edit":
                self.action_edit()

        self.app.push_screen(_sheet().SheetScreen(self.session.system, ch), done)

    @editing_row
    def action_edit(self, session: CampaignSession, _index: int, ch: Character) -> None:

        def apply(index: int, data: dict) -> None:
            current = session.campaign.characters[index]

            def build(b: EditBuilder) -> None:
                for field in ("name", "side", "gender", "notes", "sheet"):
                    old = getattr(current, field)
                    if to_data(old) != data.get(field):
                        b.set(("characters", index, field), data.get(field))

            self._change(_("Sheet: {name}").format(name=clean(data['name'])), build)

        self._ask(_edit().EditCharacterScreen(session.system, ch), session, ch.id, apply,
                  gone=_("this character no longer exists"))

    @editing
    def action_add(self, session: CampaignSession) -> None:
        from gmscreen.play.encounter import slugify, unique_slug

        found = self.current_id()
        current = session.campaign.character(found) if found else None
        side = current.side if current else "party"

        def done(data: dict | None) -> None:
            if data is None:
                return
            taken = {c.id for c in session.campaign.characters}
            new_id = unique_slug(slugify(data["name"], "perso"), taken)
            character = Character(id=new_id, name=data["name"], side=data["side"], sheet=data["sheet"],
                                  notes=data["notes"], gender=data.get("gender"))
            if self._change(_("New: {name}").format(name=clean(data['name'])),
                            lambda b: b.insert(("characters",), None, character)):
                self.host.select_character(new_id)

        self.app.push_screen(_edit().EditCharacterScreen(session.system, None, side=side), done)

    @editing_row
    def action_duplicate(self, session: CampaignSession, _index: int, ch: Character) -> None:
        from gmscreen.play.encounter import slugify, unique_slug

        def apply(index: int, values: dict[str, str]) -> None:
            count = int(values["count"].strip() or "1")
            original = session.campaign.characters[index]
            names = copy_names(original.name, count, {c.name for c in session.campaign.characters})
            taken = {c.id for c in session.campaign.characters}
            data = to_data(original)

            def build(b: EditBuilder) -> None:
                for n, name in enumerate(names, 1):
                    copy = dict(data, name=name, id=unique_slug(slugify(name, original.id), taken))
                    taken.add(copy["id"])
                    b.insert(("characters",), index + n, copy)

            self._change(_("Duplicate {name} ×{n}").format(name=Name(clean(original.name)), n=count), build)

        self._ask(_dialogs().PromptScreen(
            _("Duplicate {name}").format(name=Name(clean(ch.name))),
            [_dialogs().Field("count", _("How many copies? (1 to {n})").format(n=MAX_COPIES), "1",
                   check=_dialogs().int_check(1, MAX_COPIES, what=_("copies")))],
            note=_("The copies will be called {names}…").format(names=", ".join(copy_names(ch.name, 2, set())))),
            session, ch.id, apply)

    @editing_row
    def action_remove(self, session: CampaignSession, _index: int, ch: Character) -> None:
        from gmscreen.play.roster_rules import leaving

        char_id = ch.id
        takes = leaving(session.campaign, char_id)
        detail = []
        if takes.in_order:
            detail.append(_("They leave the initiative order too."))
        if takes.timers:
            detail.append(_("Timers removed: {labels}").format(labels=", ".join(clean(t.label) for t in takes.timers)))
        detail.append(_("ctrl+z undoes it."))

        def done(yes: bool | None) -> None:
            if not yes:
                return
            self._remove(session, char_id)

        self.app.push_screen(_dialogs().ConfirmScreen(_("Remove {name}?").format(name=Name(clean(ch.name))), "\n".join(detail),
                                                      yes=_("Remove")), done)

    def _remove(self, session: CampaignSession, char_id: str) -> None:
        """The character leaves, and all that leaves with them (`play.roster_rules`), as one change."""
        from gmscreen.play.roster_rules import remove_character

        ch = session.campaign.character(char_id)
        if ch is None:
            return
        notices: list[str] = []

        def build(b: EditBuilder) -> None:
            remove_character(b, session.campaign, char_id, notices)

        if self._change(_("Remove {name}").format(name=Name(clean(ch.name))), build):
            for notice in notices:
                self.host.warn(notice, "information")

    # ------------------------------------------------------------ resources and conditions

    def action_resource(self, delta: int) -> None:
        """`+`/`-`: one hit more or healed on the character's track when they have one
        (`play.tracks`), else the game's resource on the sheet; one undoable change."""
        session = self.session
        if session is None:
            return
        found = self._current()
        if found is not None and found[1].tracks:
            if self._writable():
                self._move_track(session, found[1], delta)
            return
        resource = resource_of(session.system)
        if resource is None:
            self.host.warn(_("{game} keeps no resource on the sheet").format(game=session.system.game))
            return
        target = self._editable()
        if target is None:
            return
        _kind, index, ch = target
        group = ch.sheet.get(resource.group)
        group = group if isinstance(group, dict) else {}
        value = group.get(resource.key, resource.stat.default)
        steps = resource.steps()
        if value in steps:
            pos = steps.index(value) + delta
            new = steps[pos] if 0 <= pos < len(steps) else None
        else:
            new = value + delta if resource.stat.allows(value + delta) else None
        cap = group.get(resource.max_key) if resource.max_key else None
        if new is not None and delta > 0 and isinstance(cap, int) and cap > 0 and new > cap:
            self.host.warn(_("{resource} of {name} already at the maximum ({value})").format(
                resource=resource.label, name=Name(clean(ch.name)), value=cap))
            return
        if new is None:
            said = (_("{resource} of {name} already at the maximum ({value})") if delta > 0
                    else _("{resource} of {name} already at the minimum ({value})"))
            self.host.warn(said.format(resource=resource.label, name=Name(clean(ch.name)), value=value))
            return

        def build(b: EditBuilder) -> None:
            if resource.group not in ch.sheet:
                b.set(("characters", index, "sheet", resource.group), {})
            b.set(("characters", index, "sheet", resource.group, resource.key), new)

        shown = resource.text        # the game's words for the value (SheetLook.resource_text)
        self._change(_("{what}: {name}").format(what=f"{resource.label} {shown(value)} → {shown(new)}",
                                                name=clean(ch.name)), build)

    def _move_track(self, session: CampaignSession, ch: Character, delta: int) -> None:
        """A hit more or healed on their track; which one is asked when they have several."""
        from gmscreen.play.tracks import track_text

        char_id = ch.id

        def move(position: int) -> None:
            self.live.move_track(char_id, delta, position)      # (what it did, said by the table)

        if len(ch.tracks) == 1:
            move(0)
            return
        title = (_("One hit more on which track of {name}?") if delta > 0
                 else _("One hit healed on which track of {name}?")).format(name=Name(clean(ch.name)))
        self.app.push_screen(_dialogs().ChoiceScreen(title, [(str(j), track_text(t)) for j, t in enumerate(ch.tracks)]),
                             lambda choice: move(int(choice)) if choice is not None else None)

    @editing_row
    def action_add_track(self, session: CampaignSession, index: int, ch: Character) -> None:
        """`T`: a damage track on the character; with tracks already, a new one or one taken off."""
        from gmscreen.play.tracks import track_text

        if not ch.tracks:
            self._new_track(session, ch)
            return
        char_id = ch.id

        def chosen(choice: str | None) -> None:
            if choice == "new":
                self._new_track(session, ch)
            elif choice is not None:
                self.live.remove_track(char_id, int(choice))

        options = [("new", _("New track…")),
                   *((str(j), _("Remove {track}").format(track=track_text(t))) for j, t in enumerate(ch.tracks))]
        self.app.push_screen(_dialogs().ChoiceScreen(_("Tracks of {name}").format(name=Name(clean(ch.name))), options),
                             chosen)

    def _new_track(self, session: CampaignSession, ch: Character) -> None:
        """The form of a new track, the game's own proposed (MIR: Blessures)."""
        from gmscreen.play.tracks import MAX_HITS, default_track

        game = table_for(session.campaign.system)
        spec = default_track(game)
        taken = {t.name.casefold() for t in ch.tracks}
        name = spec.name if spec.name.casefold() not in taken else ""

        def apply(_index: int, values: dict[str, str]) -> None:
            self.live.add_track(ch.id, values["name"], int(values["max"].strip()))

        self._ask(_dialogs().PromptScreen(_("New track for {name}").format(name=Name(clean(ch.name))), [
            _dialogs().Field("name", _("Name"), name, check=_dialogs().nonempty(_("Name"))),
            _dialogs().Field("max", _("Hits that defeat (the maximum)"), str(spec.max),
                             check=_dialogs().int_check(1, MAX_HITS, what=_("Maximum"))),
        ], note=_("+ is one hit more, - one healed; at the maximum the turn order skips them.")),
            session, ch.id, apply)

    @editing_row
    def action_add_condition(self, session: CampaignSession, _index: int, ch: Character) -> None:

        def apply(index: int, values: dict[str, str]) -> None:
            rounds = values["rounds"].strip()
            cond = Condition(values["name"].strip(), values["effect"].strip(),
                             int(rounds.replace("\u2212", "-")) if rounds else None)
            self._change(_("Condition {condition} → {name}").format(condition=clean(cond.name), name=clean(ch.name)),
                         lambda b: b.insert(("characters", index, "conditions"), None, cond))

        from gmscreen.play.effects import effect_hint

        game = table_for(session.campaign.system)
        rules = game.effects
        presets = [(condition_line(p), {"name": p.name, "effect": p.effect,
                                        "rounds": "" if p.rounds is None else str(p.rounds)})
                   for p in rules.presets]
        self._ask(_dialogs().ConditionScreen(_("New condition for {name}").format(name=Name(clean(ch.name))), [
            _dialogs().Field("name", _("Name"), check=_dialogs().nonempty(_("Name"))),
            _dialogs().Field("effect", _("Effect (in the game's terms, optional)"), placeholder=rules.examples()),
            _dialogs().Field("rounds", _("Length in rounds (empty: until it is removed)"),
                  check=_dialogs().int_check(1, 999, empty_ok=True, what=_("Length"))),
        ], presets, hint=lambda text: effect_hint(game, text)), session, ch.id, apply)

    @editing_row
    def action_remove_condition(self, session: CampaignSession, index: int, ch: Character) -> None:
        if not ch.conditions:
            self.host.warn(_("{name} has no condition").format(name=clean(ch.name)))
            return
        char_id = ch.id

        def remove(position: int) -> None:
            idx = self._index_of(session, char_id)
            if idx is None:
                return
            conds = session.campaign.characters[idx].conditions
            if not 0 <= position < len(conds):
                return
            name = conds[position].name
            self._change(_("End of the condition {condition}: {name}").format(condition=clean(name), name=clean(ch.name)),
                         lambda b: b.delete(("characters", idx, "conditions"), position))

        if len(ch.conditions) == 1:
            remove(0)
            return
        options = [(str(j), condition_line(c)) for j, c in enumerate(ch.conditions)]
        self.app.push_screen(_dialogs().ChoiceScreen(_("Remove which condition of {name}?").format(
                                 name=Name(clean(ch.name))), options),
                             lambda choice: remove(int(choice)) if choice is not None else None)

    @editing_row
    def action_toggle_hidden(self, session: CampaignSession, index: int, ch: Character) -> None:
        """`H`: keep a character from the player view (`gmscreen players`), or show them again;
        one undoable change, saved like any other."""
        hide = not ch.hidden
        label = (_("Hidden from the players: {name}") if hide else _("Shown to the players: {name}")).format(
            name=clean(ch.name))
        if self._change(label, lambda b: b.set(("characters", index, "hidden"), hide)):
            self.host.warn(label, "information")

    # ------------------------------------------------------------ initiative and sessions

    @editing_row
    def action_to_initiative(self, session: CampaignSession, _index: int, ch: Character) -> None:
        if any(e.character == ch.id for e in session.campaign.encounter.entries):
            self.host.warn(_("{name} is already in the initiative order").format(name=clean(ch.name)))
            return
        char_id = ch.id

        def add(value: int) -> None:
            from gmscreen.ui.fight_flow import ask_when   # a late joiner: this round or next

            ask_when(self.host, [(ch.name, char_id, value)])

        if session.campaign.initiative.strip():
            value = self.live.roll_initiative(ch.name)
            if value is not None:
                add(value)
            return

        def done(values: dict[str, str] | None) -> None:
            if values is not None:
                add(int(values["value"].strip().replace("\u2212", "-")))

        self.app.push_screen(_dialogs().PromptScreen(_("Initiative of {name}").format(name=Name(clean(ch.name))), [
            _dialogs().Field("value", _("Initiative"), check=_dialogs().int_check(-999, 999, what=_("Initiative")))]),
            done)

    @editing
    def action_new_session(self, session: CampaignSession) -> None:
        from gmscreen.play.roster_rules import start_session

        campaign = session.campaign
        number = campaign.session + 1
        fight = table_for(session.system.id).fight
        detail = fight.session_rule(session.system, campaign, fight.session_gains(campaign))

        def done(yes: bool | None) -> None:
            if not yes:
                return
            given: list = []

            def build(b: EditBuilder) -> None:
                given[:] = start_session(b, fight, campaign)    # the gains as they are now

            if not self._change(_("Session {n}").format(n=campaign.session + 1), build):
                return
            if given:
                notice = fight.session_notice(campaign, given)
                if notice:
                    self.host.warn(notice, "information")
            from gmscreen.ui.screens.recap_view import offer_recap     # the session just ended, told

            offer_recap(self.app, session.path, number - 1)

        self.app.push_screen(_dialogs().ConfirmScreen(_("Start session {n}?").format(n=number), detail,
                                                      yes=_("New session")), done)
