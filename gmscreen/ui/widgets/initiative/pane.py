"""The initiative / action queue (`#initiative`): turn order, rounds, conditions, timers.

One table holds the turn order and, below it, the campaign's timers (extended tests,
extended oppositions, countdowns), because the GM advances both together: a new round
ticks countdowns, the end of a bearer's turn ticks their conditions. Each step is one
undoable change; rolls (initiative, the next interval of an extended test) are logged.

This module is the widget: drawing, keys, dialogs and dispatch. The rules it applies live
apart, free of Textual, in `gmscreen.play`: `encounter` (moving the turn, ending the fight),
`turns` (ends of turn, new rounds, ticks, `TurnTicks`, the fair sort), `timers` (timer
progress, results, intervals), `declarations` (declared actions and their malus) and the
game's `FightRules`. The state of play (ticks, a deferred sort) is in the campaign, not
here. Their public names are re-exported here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.geometry import Size
from textual.widgets import DataTable, Static

from gmscreen import rules
from gmscreen.i18n import N_, _, language, ngettext
from gmscreen.i18n.typography import Name, signed
from gmscreen.campaign.model import Declaration, Entry, Timer
from gmscreen.play.declarations import declared_actions, simultaneous_actions, simultaneous_malus
from gmscreen.play.encounter import end_fight, slugify, unique_slug, wait_turn
from gmscreen.play.tables import table_for
from gmscreen.ui.panes import set_title
from gmscreen.ui.sanitize import clean, literal, literal_text
from gmscreen.play.public import (PUBLIC, Sight, entry_sight, hidden_character_words, mark_timer, masked_timer_words,
                                  timer_sight)
from gmscreen.play.interval_dice import TableDiceError, interval_form, roll_interval_as, table_dice_words
from gmscreen.play.timers import (STATUS_WORDS, status_word, interval_log_fields, interval_refusal, record_interval,
                                  roll_interval, timer_progress, timer_result)
from gmscreen.play.tracks import is_defeated
from gmscreen.play.turns import (MAX_TICK_RECORDS, TURN_LABEL, TurnTicks, pass_turn, sort_fairly,
                                 start_fight)
from gmscreen.ui.fight_flow import ask_when, move_turn, offer_join
from gmscreen.ui.widgets.conditions import condition_line, conditions_text
from gmscreen.ui.widgets.table_pane import TablePane, editing, editing_row, row_after_removal, update_row

# Names other modules and the tests import from here, now defined in the logic modules.
__all__ = ["InitiativePane", "simultaneous_actions", "timer_progress", "timer_result", "STATUS_WORDS",
           "TurnTicks", "TURN_LABEL", "MAX_TICK_RECORDS"]


def _dialogs() -> Any:
    """The small dialogs, imported on first use (they pull in TextArea and friends)."""
    from gmscreen.ui.screens import roster_dialogs

    return roster_dialogs


if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign
    from gmscreen.campaign.session import CampaignSession, EditBuilder
    from gmscreen.play.timers import TimedTest

NAME_WIDTH = 24           # longer names and labels are cut in the table; the detail line has them
MIN_NAME = 10             # a narrow pane cuts names down to this before it starves the notes
MIN_NOTES = 12            # ...and gives the notes at least this much (or half the room) first
COLUMNS = ("mark", "init", "name", "state", "notes")
NOTES_LABEL = N_("Conditions · actions")


def _initiative_label(expr: str) -> str:
    """The initiative field's label: with the campaign's expression, empty rolls it."""
    return _("Initiative (empty: roll {expr})").format(expr=expr) if expr else _("Initiative")


# ---------------------------------------------------------------- the pane


class InitiativePane(TablePane[Entry]):
    """Turn order then timers in one table; keys act on the row under the cursor."""

    DEFAULT_CSS = """
    InitiativePane { height: 1fr; }
    InitiativePane > #initiative-status { height: 1; padding: 0 1; text-style: bold; }
    InitiativePane > DataTable { height: 1fr; background: transparent; scrollbar-size-horizontal: 0; }
    InitiativePane > #initiative-detail { height: auto; max-height: 4; padding: 0 1; color: $text-muted; }
    """
    BINDINGS = [
        # The ones shown in the order the footer gives them room.
        Binding("n", "next_turn", N_("Next"), id="initiative.next-turn"),
        Binding("i", "set_initiative", N_("Set initiative"), id="initiative.set-initiative"),
        Binding("w", "delay", N_("Wait/come back"), id="initiative.delay"),
        Binding("d", "declare", N_("Declare"), id="initiative.declare"),
        Binding("a", "add", N_("Add"), id="initiative.add"),
        Binding("r", "roll_timer", N_("Roll interval"), id="initiative.roll-timer"),
        Binding("p", "previous_turn", N_("Previous"), id="initiative.previous-turn", show=False),
        Binding("A", "add_group", N_("Add party/NPCs"), id="initiative.add-group", show=False),
        Binding("I", "roll_all", N_("Roll all"), id="initiative.roll-all", show=False),
        Binding("s", "sort", N_("Sort"), id="initiative.sort", show=False),
        Binding("shift+up,u", "move(-1)", N_("Move up"), id="initiative.move-up", show=False),
        Binding("shift+down,j", "move(1)", N_("Move down"), id="initiative.move-down", show=False),
        Binding("x,delete", "remove", N_("Remove"), id="initiative.remove", show=False),
        Binding("R", "roll_timer_at_table", N_("Interval, table dice"), id="initiative.roll-timer-table",
                show=False),
        Binding("t", "new_timer", N_("Timer"), id="initiative.new-timer", show=False),
        Binding("+", "adjust(1)", N_("+1"), id="initiative.increase", show=False),
        Binding("-", "adjust(-1)", N_("−1"), id="initiative.decrease", show=False),
        Binding("S", "start", N_("Start fight"), id="initiative.start", show=False),
        Binding("E", "end", N_("End fight"), id="initiative.end", show=False),
        Binding("home", "first_row", N_("First row"), id="initiative.first", show=False, priority=True),
        Binding("end", "last_row", N_("Last row"), id="initiative.last", show=False, priority=True),
    ]
    TABLE_ID = "initiative-table"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._keys: list[str] = []
        self._widths: tuple[int, ...] | None = None   # fixed column widths; None: fit content
        self._space = 0                                # the table's width, once laid out
        self._space_drawn = 0                          # the width the columns were last fitted to
        self._compact = False                          # short state words: the pane is narrow
        self._columns_language = language()            # the language of the column headers

    def compose(self) -> ComposeResult:
        yield Static("", id="initiative-status", markup=False)
        yield DataTable(id="initiative-table", cursor_type="row", cell_padding=1)
        yield Static("", id="initiative-detail", markup=False)

    def on_mount(self) -> None:
        self.border_title = _("Initiative")
        self._add_columns(None)
        session = self.session
        if session is not None:
            self.show_campaign(session)

    def _add_columns(self, widths: tuple[int, ...] | None) -> None:
        labels = ("", _("Init"), _("Name"), "", _(NOTES_LABEL))
        for i, (key, label) in enumerate(zip(COLUMNS, labels)):
            self.table.add_column(Text(label, no_wrap=True, overflow="ellipsis"), key=key,
                                  width=widths[i] if widths else None)
        self._widths = widths

    def presize(self, size: Size) -> None:
        """Drawn at `size` before its first showing (the app knows it: the pane it replaces),
        so that the layout showing it sends it once, not drawn again at its size right after."""
        width = size.width
        if self._space or width <= 0:
            return
        self._space, self._presized = width, True
        session = self.session
        if session is not None:
            self._draw(session)

    def on_resize(self) -> None:
        """Column widths follow the pane's width (the wide layout gives it about 46 cells)."""
        space = self.content_size.width
        if space and (space != self._space or getattr(self, "_presized", False)):
            self._space, self._presized = space, False     # (the same widths: no row sent again)
            session = self.session
            if session is not None:
                self._draw(session)

    # ------------------------------------------------------------ drawing

    def show_campaign(self, session: CampaignSession) -> None:
        if not self.is_mounted:
            return
        self._draw(session)

    def _draw(self, session: CampaignSession) -> None:
        if not self.query("#initiative-status"):
            return          # not composed yet (a resize or a turn moved that early): on_mount draws
        set_title(self, _("Initiative"))
        if self._columns_language != language():          # headers again in the language spoken
            self._columns_language = language()
            self._keys, self._widths = [], (0,)             # columns and rows made again below
        campaign = session.campaign
        enc = campaign.encounter
        current = enc.entries[enc.turn] if enc.round > 0 and 0 <= enc.turn < len(enc.entries) else None
        if enc.round > 0:
            turn = (_("{name}'s turn").format(name=Name(self._entry_name(campaign, current))) if current
                    else _("nobody's turn"))
            status = Content.assemble(_("Round {n}").format(n=enc.round), (" · ", "dim"), literal(turn))
        else:
            status = Content.assemble((_("No fight under way"), "dim"),
                                      (_(" · n or S to start") if enc.entries else _(" · a to add"), "dim"))
        self.query_one("#initiative-status", Static).update(status)

        def build() -> list[tuple[str, list[Text]]]:
            return ([(f"e:{e.id}", self._entry_cells(session, e, e is current)) for e in enc.entries]
                    + [(f"t:{t.id}", self._timer_cells(campaign, t)) for t in campaign.timers])

        self._compact = False
        rows = build()
        widths, squeezed = self._fit(rows)
        if squeezed:                    # short states ("⏸" for "⏸ attend") give names and notes more room
            self._compact = True
            rows = build()
            widths, _squeezed = self._fit(rows)
        keys = [k for k, _ in rows]
        if (widths is not None and self._widths and widths != self._widths and keys == self._keys
                and len(self._widths) == len(widths) and self._space_drawn == self._space
                and all(cells[i].cell_len <= self._widths[i] for _, cells in rows for i in range(4))):
            widths = self._widths       # the columns drawn still hold every cell: rows sent, not the table
        if widths is not None:          # notes too long for their column: shortened so rounds stay visible
            for i, entry in enumerate(enc.entries):
                if rows[i][1][4].cell_len > widths[4]:
                    rows[i] = (rows[i][0], self._entry_cells(session, entry, entry is current, widths[4]))
        table = self.table
        self._space_drawn = self._space
        if keys == self._keys and widths == self._widths:
            for key, cells in rows:
                if widths is not None:          # fixed widths: the row alone is repainted
                    update_row(table, key, zip(COLUMNS, cells))
                    continue
                for col, cell in zip(COLUMNS, cells):
                    if table.get_cell(key, col) != cell:
                        table.update_cell(key, col, cell, update_width=widths is None)
        else:
            first = not self._keys
            keep = self.current_key()
            keep = row_after_removal(self._keys, keep, keys, kind=lambda key: key[:2]) or keep    # its row gone (`x`)
            if widths != self._widths:
                table.clear(columns=True)
                self._add_columns(widths)
            else:
                table.clear()
            for key, cells in rows:
                table.add_row(*cells, key=key)
            self._keys = keys
            if first and current is not None:
                keep = f"e:{current.id}"
            if keep in keys:
                table.move_cursor(row=keys.index(keep), animate=False)
        self._show_detail()

    def _fit(self, rows: list[tuple[str, list[Text]]]) -> tuple[tuple[int, ...] | None, bool]:
        """Fixed column widths so that the row fits the pane (None before it is laid out), and
        whether names had to be cut shorter than NAME_WIDTH to leave the notes some room.

        Marks, initiative and state keep their width; names are cut at NAME_WIDTH, and down
        to MIN_NAME when the pane is narrow; the notes (États · actions) get the rest, so
        nothing falls off the right edge. A cut cell ends in "…" and the detail line under
        the table shows the row under the cursor in full.
        """
        if not self._space:
            return None, False

        def widest(col: int, floor: int) -> int:
            return max([floor, *(cells[col].cell_len for _, cells in rows)])

        mark, init, state = widest(0, 1), widest(1, 4), widest(3, 0)
        name = min(widest(2, 3), NAME_WIDTH)
        notes = widest(4, 0)
        table = self.table
        space = self._space
        if table.size.height and len(rows) + table.header_height > table.size.height:
            space -= table.styles.scrollbar_size_vertical
        free = space - 2 * table.cell_padding * len(COLUMNS) - mark - init - state
        wanted = name
        if name + notes > free:
            name = min(name, max(MIN_NAME, free - min(notes, max(MIN_NOTES, free // 2))))
        return (mark, init, name, state, max(free - name, 1)), name < wanted

    def _entry_cells(self, session: CampaignSession, entry: Entry, is_current: bool,
                     room: int | None = None) -> list[Text]:
        """The row of an entry; with `room`, notes shortened to fit it (rounds and malus kept)."""
        campaign = session.campaign
        mark = Text((">" if self.ascii else "▶") if is_current else "", style="bold reverse" if is_current else "")
        state = Text()
        ch = campaign.character(entry.character) if entry.character else None
        down = ch is not None and bool(ch.tracks) and is_defeated(ch)
        if down:                        # passed over by the turn order (`play.tracks`)
            words = (_("out"), "✗") if self._compact else (_("defeated"), "✗ " + _("defeated"))
            state.append(words[0] if self.ascii else words[1], style="bold")
        elif entry.delayed:
            words = (_("wait."), "⏸") if self._compact else (_("waits"), "⏸ " + _("waits"))
            state.append(words[0] if self.ascii else words[1], style="italic")
        elif entry.acted:
            state.append("ok" if self.ascii and self._compact else _("acted") if self.ascii else "✓", style="dim")
        masked = not self._entry_sight(campaign, entry).whole     # players watching: a hidden character
        name = literal_text(self._entry_name(campaign, entry),
                            "bold" if is_current else ("dim" if entry.acted or down else ""))
        if masked:
            name.stylize("italic")
        name.truncate(NAME_WIDTH, overflow="ellipsis")
        name.overflow = "ellipsis"
        if masked:                      # neither conditions nor actions: they would tell who it is
            return [mark, Text(str(entry.initiative)), name, state, Text()]
        ch = campaign.character(entry.character) if entry.character else None
        actions = declared_actions(campaign, entry.id)
        said = Text()
        if actions:
            count = len(actions)
            malus = simultaneous_malus(table_for(session.system.id), count)
            word = ngettext("{n} action", "{n} actions", count).format(n=count)
            forms = [Text.assemble(word, (" " + _("{malus} each").format(malus=signed(-malus)) if malus else "", "bold")),
                     Text.assemble(word, (f" {signed(-malus)}" if malus else "", "bold")),
                     Text.assemble(_("{n} act.").format(n=count), (f" {signed(-malus)}" if malus else "", "bold"))]
            shown = conditions_text(ch).cell_len if ch is not None and ch.conditions else 0
            gap = 3 if shown else 0
            # The longest form that fits beside the conditions; the detail line says it in full.
            said = forms[0] if room is None else next(
                (f for f in forms if shown + gap + f.cell_len <= room), forms[-1])
            if room is not None and not malus and shown and shown + gap + said.cell_len > room:
                said = Text()                           # no malus to warn of: the conditions first
        notes = Text(no_wrap=True, overflow="ellipsis")
        if ch is not None:
            rest = None if room is None else max(room - (said.cell_len + 3 if said.plain else 0), 3)
            notes.append_text(conditions_text(ch, rest))
        if said.plain:
            if notes.plain:
                notes.append(" · ", style="dim")
            notes.append_text(said)
        return [mark, Text(str(entry.initiative)), name, state, notes]

    def _timer_cells(self, campaign: Campaign, timer: Timer) -> list[Text]:
        running = timer.status == "running"
        mark = Text("~" if self.ascii else "⧗", style="" if running else "dim")
        word = "" if running and self._compact else status_word(timer.status)
        state = Text(word, style="italic" if running else "bold")   # compact: the ⧗ says it is running
        sight = self._timer_sight(campaign, timer)
        if sight.whole:
            shown, said = timer.label, timer_progress(campaign, timer, game=table_for(campaign.system))
        else:
            shown, said = masked_timer_words(campaign, timer, sight)
        label = literal_text(shown, "" if running else "dim")
        label.truncate(NAME_WIDTH, overflow="ellipsis")
        label.overflow = "ellipsis"
        progress = literal_text(said)
        progress.overflow = "ellipsis"
        return [mark, Text(""), label, state, progress]

    def _entry_sight(self, campaign: Campaign, entry: Entry) -> Sight:
        """What the players may see of a place in the turn order while they watch
        (`gmscreen.play.public`): nothing of a hidden character's but its place; all of it
        while they do not watch."""
        return entry_sight(campaign, entry) if self.host.players_watching else PUBLIC

    def _entry_name(self, campaign: Campaign, entry: Entry) -> str:
        return entry.name if self._entry_sight(campaign, entry).whole else hidden_character_words()

    def _timer_sight(self, campaign: Campaign, timer: Timer) -> Sight:
        """What the players may see of a timer while they watch (`gmscreen.play.public`): a
        GM-only test nothing, a hidden-difficulty test neither its label nor its progress (a
        threshold, "6/8"), only who rolls it; all of it while they do not watch."""
        return timer_sight(campaign, timer) if self.host.players_watching else PUBLIC

    def show_watching(self, watching: bool) -> None:
        if self.session is not None and self.is_mounted:
            self._draw(self.session)
            self._show_detail()

    def current_key(self) -> str | None:
        if not self.is_mounted or not self._keys:
            return None
        row = self.table.cursor_row
        return self._keys[row] if 0 <= row < len(self._keys) else None

    def _show_detail(self) -> None:
        session = self.session
        key = self.current_key()
        detail = self.query_one("#initiative-detail", Static)
        if session is None or key is None:
            detail.update("")
            return
        campaign = session.campaign
        kind, _sep, ident = key.partition(":")
        lines: list[str] = []
        if kind == "e":
            entry = next((e for e in campaign.encounter.entries if e.id == ident), None)
            if entry is None:
                detail.update("")
                return
            if not self._entry_sight(campaign, entry).whole:
                detail.update(literal(hidden_character_words()))
                return
            ch = campaign.character(entry.character) if entry.character else None
            if ch is not None and ch.conditions:
                lines.append(_("Conditions: {list}").format(list=_("; ").join(condition_line(c) for c in ch.conditions)))
            actions = declared_actions(campaign, entry.id)
            malus = simultaneous_malus(table_for(session.system.id), len(actions))
            for action in actions:
                lines.append(f"• {clean(action)}" + (f"  ({signed(-malus)})" if malus else ""))
            if not lines:
                lines.append(_("ad hoc, no sheet") if entry.character is None else _("no condition"))
            if cell_len(clean(entry.name)) > (self._widths[2] if self._widths else NAME_WIDTH):
                lines.insert(0, clean(entry.name))      # cut in the table: whole here
        else:
            timer = next((t for t in campaign.timers if t.id == ident), None)
            if timer is None:
                detail.update("")
                return
            sight = self._timer_sight(campaign, timer)
            if not sight.whole:
                detail.update(literal("\n".join(w for w in masked_timer_words(campaign, timer, sight) if w),
                                      single_line=False))
                return
            lines.append(clean(timer.label))
            game = table_for(campaign.system)
            result = timer_result(timer, game=game)
            if result is not None and session.system.describe is not None and result.get("system") == session.system.id:
                words = session.system.describe(result)
                lines.append(_("{headline}: {detail}").format(headline=clean(words.headline), detail=clean(words.detail)))
            elif timer.kind == "countdown":
                lines.append(f"{status_word(timer.status)} · {timer_progress(campaign, timer, game=game)}")
            else:
                lines.append(timer_progress(campaign, timer, game=game))
            if timer.kind != "countdown" and timer.status == "running":
                lines.append(_("r: roll the next interval"))
        detail.update(literal("\n".join(lines), single_line=False))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_detail()
        if event.cursor_row != self.table.cursor_row:
            return          # stale: the cursor moved again since
        session = self.session
        key = self.current_key()
        if session is None or not key or not key.startswith("e:"):
            return
        entry = next((e for e in session.campaign.encounter.entries if e.id == key[2:]), None)
        if (entry is not None and entry.character and self.table.has_focus
                and entry.character != self.host.selected_id):
            self.host.select_character(entry.character)

    # ------------------------------------------------------------ helpers

    def _warn(self, text: str, severity: str = "warning") -> None:
        self.host.warn(text, severity)

    def _current(self) -> tuple[int, Entry] | None:
        """The entry under the cursor (a timer's row is none: the GM is told)."""
        session = self.session
        key = self.current_key()
        if session is None or key is None or not key.startswith("e:"):
            self._warn(_("choose a row of the initiative order"))
            return None
        for i, entry in enumerate(session.campaign.encounter.entries):
            if entry.id == key[2:]:
                return i, entry
        return None

    def _selected_timer(self) -> tuple[int, Timer] | None:
        session = self.session
        key = self.current_key()
        if session is None or key is None or not key.startswith("t:"):
            return None
        for i, timer in enumerate(session.campaign.timers):
            if timer.id == key[2:]:
                return i, timer
        return None

    def action_first_row(self) -> None:
        if self._keys:
            self._cursor_to(self._keys[0])

    def action_last_row(self) -> None:
        if self._keys:
            self._cursor_to(self._keys[-1])

    def _cursor_to(self, key: str) -> None:
        if key in self._keys:
            self.table.move_cursor(row=self._keys.index(key), animate=False)

    def follow_current(self) -> None:
        """Put the cursor on the current actor and select their character for the dice tray."""
        session = self.session
        if session is None:
            return
        enc = session.campaign.encounter
        if enc.round > 0 and 0 <= enc.turn < len(enc.entries):
            entry = enc.entries[enc.turn]
            self._cursor_to(f"e:{entry.id}")
            if entry.character:
                self.host.select_character(entry.character)

    # ------------------------------------------------------------ turns

    def next_turn(self) -> None:
        """The current actor has acted: their conditions tick, the next one plays (app key `n`)."""
        move_turn(self.host, True, self)

    def previous_turn(self) -> None:
        """Back to the actor before (a mistake at the table: `p`, see `play.encounter.previous_turn`)."""
        move_turn(self.host, False, self)

    def action_next_turn(self) -> None:
        self.next_turn()

    def action_previous_turn(self) -> None:
        self.previous_turn()

    @editing
    def action_start(self, session: CampaignSession) -> None:
        campaign = session.campaign
        if campaign.encounter.round > 0:
            self._warn(_("fight already under way (round {n}): E to end it").format(n=campaign.encounter.round))
            return
        if not campaign.encounter.entries:
            offer_join(self.host, _("Nobody in the fight: add"), start=True, pane=self)
            return
        if self._change(_("Start of the fight"), lambda b: start_fight(b, campaign)):
            self._warn(_("Round {n}").format(n=1), "information")
            self.follow_current()

    @editing
    def action_end(self, session: CampaignSession) -> None:
        campaign = session.campaign
        enc = campaign.encounter
        if enc.round == 0 and not enc.entries:
            self._warn(_("no fight under way"))
            return

        def done(yes: bool | None) -> None:
            if yes and self._change(_("End of the fight"), lambda b: end_fight(b, campaign)):
                self._warn(_("Fight over"), "information")

        self.app.push_screen(_dialogs().ConfirmScreen(
            _("End the fight?"), _("The initiative order is emptied (the timers stay). ctrl+z undoes it."),
            yes=_("End")), done)

    # ------------------------------------------------------------ the order

    @editing
    def action_add(self, session: CampaignSession) -> None:
        campaign = session.campaign
        present = {e.character for e in campaign.encounter.entries}
        options: list[tuple[str, str]] = [("", _("Free name (no sheet)…"))]
        options += [(c.id, c.name) for c in campaign.characters if c.id not in present]

        def chosen(choice: str | None) -> None:
            if choice is None:
                return
            ch = campaign.character(choice) if choice else None
            self._ask_initiative(ch.name if ch else None, ch.id if ch else None)

        self.app.push_screen(_dialogs().ChoiceScreen(_("Add to the initiative"), options), chosen)

    @editing
    def action_add_group(self, session: CampaignSession) -> None:
        """`A`: the party, the NPCs, both or the selected character to the fight in one change."""
        offer_join(self.host, _("Add to the fight"), pane=self)

    def _ask_initiative(self, name: str | None, character: str | None) -> None:
        session = self.session
        assert session is not None
        expr = session.campaign.initiative.strip()
        fields = []
        if name is None:
            fields.append(_dialogs().Field("name", _("Name"), check=_dialogs().nonempty(_("Name"))))
        fields.append(_dialogs().Field("value", _initiative_label(expr),
                            check=_dialogs().int_check(-999, 999, empty_ok=bool(expr), what=_("Initiative"))))

        def done(values: dict[str, str] | None) -> None:
            if values is None:
                return
            who = name if name is not None else values["name"].strip()
            text = values["value"].strip().replace("\u2212", "-")
            value = int(text) if text else self.live.roll_initiative(who)
            if value is None:
                return

            def added(ok: bool) -> None:
                entry = next((e for e in session.campaign.encounter.entries
                              if e.name == who and e.character == character and e.initiative == value), None)
                if ok and entry is not None:
                    self._cursor_to(f"e:{entry.id}")

            ask_when(self.host, [(who, character, value)], added)

        title = (_("Initiative of {name}").format(name=Name(clean(name))) if name is not None
                 else _("Ad hoc entry"))
        self.app.push_screen(_dialogs().PromptScreen(title, fields), done)

    @editing_row
    def action_set_initiative(self, session: CampaignSession, _index: int, entry: Entry) -> None:
        entry_id = entry.id
        expr = session.campaign.initiative.strip()

        def done(values: dict[str, str] | None) -> None:
            if values is None:
                return
            text = values["value"].strip().replace("\u2212", "-")
            value = int(text) if text else self.live.roll_initiative(entry.name)
            if value is None:
                return
            idx = next((i for i, e in enumerate(session.campaign.encounter.entries) if e.id == entry_id), None)
            if idx is not None:
                self._change(_("Initiative {value}: {name}").format(value=value, name=clean(entry.name)),
                             lambda b: b.set(("encounter", "entries", idx, "initiative"), value))

        self.app.push_screen(_dialogs().PromptScreen(_("Initiative of {name}").format(name=Name(clean(entry.name))), [
            _dialogs().Field("value", _initiative_label(expr), str(entry.initiative),
                  check=_dialogs().int_check(-999, 999, empty_ok=bool(expr), what=_("Initiative")))]), done)

    @editing
    def action_roll_all(self, session: CampaignSession) -> None:
        """`I`: everyone's initiative rolled (each roll logged), then sorted fairly (`sort_fairly`)."""
        campaign = session.campaign
        enc = campaign.encounter
        if not campaign.initiative.strip():
            self._warn(_("no initiative expression in the campaign: i to type it"))
            return
        if not enc.entries:
            self._warn(_("nobody in the initiative order"))
            return
        values: dict[str, int] = {}
        for entry in enc.entries:
            value = self.live.roll_initiative(entry.name)
            if value is None:
                return
            values[entry.id] = value

        def build(b: EditBuilder) -> None:
            for i, entry in enumerate(enc.entries):
                b.set(("encounter", "entries", i, "initiative"), values[entry.id])
            deferred.append(sort_fairly(b, campaign))

        deferred: list[bool] = []
        if self._change(_("Initiative for everyone"), build):
            self._after_sort(campaign, deferred[0])

    def _after_sort(self, campaign: Campaign, deferred: bool) -> None:
        """Say that a full sort is left for the next round (`sort_fairly` noted it in the encounter)."""
        enc = campaign.encounter
        if not deferred:
            return
        name = enc.entries[enc.turn].name if 0 <= enc.turn < len(enc.entries) else "?"
        self._warn(_("Round {n} under way: those who have acted and {name} keep their places; "
                     "new full order at round {next}").format(n=enc.round, name=clean(name), next=enc.round + 1),
                   "information")

    @editing
    def action_sort(self, session: CampaignSession) -> None:
        """`s`: sorted by the initiatives as they are, fairly (`sort_fairly`)."""
        campaign = session.campaign
        deferred: list[bool] = []
        if self._change(_("Sort by initiative"), lambda b: deferred.append(sort_fairly(b, campaign))):
            self._after_sort(campaign, deferred[0])

    @editing_row
    def action_move(self, session: CampaignSession, index: int, entry: Entry, delta: int) -> None:
        enc = session.campaign.encounter
        target = index + delta
        if not 0 <= target < len(enc.entries):
            return
        current = enc.entries[enc.turn].id if 0 <= enc.turn < len(enc.entries) else None

        def build(b: EditBuilder) -> None:
            b.move(("encounter", "entries"), index, target)
            if current is not None:
                turn = [e.id for e in enc.entries].index(current)
                if turn != enc.turn:
                    b.set(("encounter", "turn"), turn)

        self._change((_("Move up {name}") if delta < 0 else _("Move down {name}")).format(name=Name(clean(entry.name))),
                     build)

    @editing_row
    def action_delay(self, session: CampaignSession, index: int, entry: Entry) -> None:
        campaign = session.campaign
        enc = campaign.encounter
        notices: list[str] = []
        if entry.delayed:
            def build(b: EditBuilder) -> None:
                turn = min(enc.turn, len(enc.entries) - 1)
                target = turn - 1 if index < turn else turn
                if enc.round == 0:
                    target = index
                if target != index:
                    b.move(("encounter", "entries"), index, target)
                b.set(("encounter", "entries", target, "delayed"), False)
                b.set(("encounter", "entries", target, "acted"), False)
                if enc.round > 0:
                    b.set(("encounter", "turn"), target)

            label = _("Comes back: {name}").format(name=clean(entry.name))
        else:       # on the play core: a round it ends says so and names who waits
            move = wait_turn(session, index, self._change)
            for notice in move.notices:
                self._warn(notice, "information")
            if move.moved:
                self.follow_current()
            return
        if self._change(label, build):
            for notice in notices:
                self._warn(notice, "information")
            self.follow_current()

    def action_remove(self) -> None:
        session = self.session
        if session is None:
            return
        timer = self._selected_timer()
        if timer is not None:
            if not self._writable():
                return
            index, t = timer
            self._change(_("Remove the timer {label}").format(label=clean(t.label)), lambda b: b.delete(("timers",), index))
            return
        target = self._editable()
        if target is None:
            return
        _kind, index, entry = target
        campaign = session.campaign
        enc = campaign.encounter
        notices: list[str] = []

        def build(b: EditBuilder) -> None:
            for j in range(len(enc.declared) - 1, -1, -1):
                if enc.declared[j].entry == entry.id:
                    b.delete(("encounter", "declared"), j)
            current = index == enc.turn
            b.delete(("encounter", "entries"), index)
            if current and enc.round > 0 and enc.entries:
                # It was their turn: the next one ready plays (not one who waits or has
                # acted), or the round ends if they were the last to play.
                pass_turn(b, campaign, index, notices)
                return
            turn = enc.turn - 1 if index < enc.turn else enc.turn
            turn = min(turn, max(len(enc.entries) - 1, 0))
            if turn != enc.turn:
                b.set(("encounter", "turn"), turn)

        if self._change(_("Remove {name} from the initiative").format(name=Name(clean(entry.name))), build):
            for notice in notices:
                self._warn(notice, "information")

    def action_adjust(self, delta: int) -> None:
        session = self.session
        if session is None:
            return
        timer = self._selected_timer()
        if timer is not None:
            index, t = timer
            if t.kind != "countdown":
                self._warn(_("+/− set the countdowns; r rolls the next interval of a test"))
                return
            if not self._writable():
                return
            left = max((t.rounds or 0) + delta, 0)

            def build(b: EditBuilder) -> None:
                b.set(("timers", index, "rounds"), left)
                status = "running" if left > 0 else "done"
                if status != t.status:
                    b.set(("timers", index, "status"), status)

            self._change(_("{label}: {rounds}").format(label=clean(t.label),
                                                       rounds=ngettext("{n} round", "{n} rounds", left).format(n=left)),
                         build)
            return
        target = self._editable()
        if target is None:
            return
        _kind, index, entry = target
        value = entry.initiative + delta
        self._change(_("Initiative {value}: {name}").format(value=value, name=clean(entry.name)),
                     lambda b: b.set(("encounter", "entries", index, "initiative"), value))

    # ------------------------------------------------------------ declared actions

    @editing_row
    def action_declare(self, session: CampaignSession, _index: int, entry: Entry) -> None:
        campaign = session.campaign
        entry_id = entry.id
        note = table_for(session.system.id).fight.declaration_note()

        def done(values: dict[str, str] | None) -> None:
            if values is None:
                return
            actions = [line.strip() for line in values["actions"].splitlines() if line.strip()]
            enc = campaign.encounter
            where = next((j for j, d in enumerate(enc.declared) if d.entry == entry_id), None)

            def build(b: EditBuilder) -> None:
                if where is not None:
                    if actions:
                        b.set(("encounter", "declared", where, "actions"), actions)
                    else:
                        b.delete(("encounter", "declared"), where)
                elif actions:
                    b.insert(("encounter", "declared"), None, Declaration(entry_id, actions))

            malus = simultaneous_malus(table_for(session.system.id), len(actions))
            label = ngettext("Declares {n} action: {name}", "Declares {n} actions: {name}",
                             len(actions)).format(n=len(actions), name=clean(entry.name))
            if self._change(label, build) and malus:
                self._warn(_("{name}: {n} simultaneous actions, {malus} to each").format(
                    name=clean(entry.name), n=len(actions), malus=signed(-malus)), "information")

        self.app.push_screen(_dialogs().PromptScreen(
            _("Actions declared by {name} (one per line)").format(name=Name(clean(entry.name))), [
            _dialogs().Field("actions", _("Actions of the round"), "\n".join(declared_actions(campaign, entry_id)),
                             multiline=True),
        ], note=note), done)

    # ------------------------------------------------------------ timers

    def action_roll_timer(self) -> None:
        found = self._timer_to_roll()
        if found is not None and self.session is not None:
            self._roll_interval(self.session, *found)

    def action_roll_timer_at_table(self) -> None:
        """The next interval with the dice rolled at the table, typed as after `=` in the line
        (empty: rolled here), and what the game lets the GM change for it."""
        found = self._timer_to_roll()
        session = self.session
        if found is None or session is None:
            return
        index, timer = found
        form = interval_form(session.campaign, timer, game=table_for(session.campaign.system))

        def done(values: dict[str, str] | None) -> None:
            if values is not None and self.session is session:
                self._roll_interval(session, index, timer, values)

        self.app.push_screen(_dialogs().PromptScreen(form.title, form.fields, note=form.note), done)

    def _timer_to_roll(self) -> tuple[int, Timer] | None:
        """The test timer whose next interval `r` rolls (the one chosen, or the only one running),
        or None with a word saying why none."""
        session = self.session
        if session is None:
            return None
        found = self._selected_timer()
        if found is None:
            running = [(i, t) for i, t in enumerate(session.campaign.timers)
                       if t.kind != "countdown" and t.status == "running"]
            if len(running) != 1:
                self._warn(_("choose an extended test in the list (arrows), then r"))
                return None
            found = running[0]
        if not self._writable():
            return None
        index, timer = found
        if timer.kind == "countdown":
            self._warn(_("a countdown moves on each round (+/− to set it)"))
            return None
        if timer.status != "running":
            word = status_word(timer.status)
            self._warn(_("{label} is already {word}").format(label=clean(timer.label), word=word)
                       if timer.status == "done"
                       else _("{label} is already over ({word})").format(label=clean(timer.label), word=word))
            return None
        refusal = interval_refusal(session.campaign, timer, game=table_for(session.campaign.system))     # the game's (MIR R20: not in a fight)
        if refusal is not None:
            self._warn(refusal)
            return None
        return index, timer

    def _roll_interval(self, session: CampaignSession, index: int, timer: Timer,
                       values: dict[str, str] | None = None) -> None:
        campaign = session.campaign
        sight = self._timer_sight(campaign, timer)
        named = clean(timer.label) if sight.whole else masked_timer_words(campaign, timer, sight)[0]
        try:
            game = table_for(campaign.system)
            rolled = (roll_interval(timer, campaign, game=game) if values is None
                      else roll_interval_as(timer, values, campaign, game=game))
        except TableDiceError as exc:
            self._warn(_("{label}: {problem}").format(label=named, problem=exc.message), "error")
            return
        except rules.RequestError as exc:
            self._warn(_("{label}: {problem}").format(label=named, problem=exc), "error")
            return
        if rolled is None:
            self._warn(_("{label}: this timer's test cannot be read").format(label=named))
            return
        status, step = rolled.status, rolled.step
        table = self.host.table
        record = (table.record_roll(**interval_log_fields(campaign, timer, rolled, table_dice_words(values)))
                  if table is not None else None)

        def build(b: EditBuilder) -> None:
            record_interval(b, index, timer, rolled)

        if not self._change(f"{clean(timer.label)} · {step}", build):
            return
        if record is not None and table is not None:
            table.show_record(record)           # the GM sees the dice, not only a notice
        progress = timer_progress(campaign, campaign.timers[index], game=table_for(campaign.system))
        label = clean(timer.label)
        if not sight.whole:                     # players watching: the notice names no threshold either
            (label, progress), step = masked_timer_words(campaign, timer, sight), ""
        if sight.secret:                        # nor how a GM's secret test went
            self._warn(_("{label}: rolled").format(label=label), "information")
        elif status == "running":
            self._warn(_("{label}: {progress}").format(label=f"{label} · {step}" if step else label, progress=progress),
                       "information")
        elif status in ("success", "actor"):
            self._warn(_("{label}: succeeded ({progress})").format(label=label, progress=progress), "information")
        elif status == "tie":
            self._warn(_("{label}: tie ({progress})").format(label=label, progress=progress), "information")
        else:
            self._warn(_("{label}: failed ({progress})").format(label=label, progress=progress), "warning")

    @editing
    def action_new_timer(self, session: CampaignSession) -> None:
        tests = table_for(session.system.id).fight.timed_tests()    # what this game allows
        options = [("countdown", _("Countdown (rounds)"))] + [(t.kind, _(t.option)) for t in tests]

        def chosen(kind: str | None) -> None:
            if kind == "countdown":
                self._new_countdown(session)
            else:
                test = next((t for t in tests if t.kind == kind), None)
                if test is not None:
                    self._new_timed_test(session, test)

        if len(options) == 1:
            chosen("countdown")
        else:
            self.app.push_screen(_dialogs().ChoiceScreen(_("New timer"), options), chosen)

    def _add_timer(self, session: CampaignSession, timer: Timer) -> None:
        mark_timer(session.campaign, timer)         # what players may see of it, decided now
        timer.id = unique_slug(slugify(timer.label, "minuteur"), {t.id for t in session.campaign.timers})
        if self._change(_("Timer: {label}").format(label=clean(timer.label)), lambda b: b.insert(("timers",), None, timer)):
            self._cursor_to(f"t:{timer.id}")

    def _new_countdown(self, session: CampaignSession) -> None:
        def done(values: dict[str, str] | None) -> None:
            if values is not None:
                self._add_timer(session, Timer(id="", label=values["label"].strip(), kind="countdown",
                                               rounds=int(values["rounds"].strip())))

        self.app.push_screen(_dialogs().PromptScreen(_("New countdown"), [
            _dialogs().Field("label", _("What happens at the end"), check=_dialogs().nonempty(_("Label"))),
            _dialogs().Field("rounds", _("In how many rounds?"), check=_dialogs().int_check(1, 999, what=_("Rounds"))),
        ]), done)

    def _new_timed_test(self, session: CampaignSession, test: TimedTest) -> None:
        """The game's form for this test timer, for the selected character; the timer it makes."""
        campaign = session.campaign
        char_id = self.host.selected_id
        ch = campaign.character(char_id) if char_id else None
        if ch is None:
            self._warn(_(test.who_missing))
            return
        form = test.form(campaign, session.system, ch)

        def done(values: dict[str, str] | None) -> None:
            if values is not None:
                self._add_timer(session, test.make(campaign, session.system, ch, values))

        self.app.push_screen(_dialogs().PromptScreen(form.title, form.fields, note=form.note), done)
