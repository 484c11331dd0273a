"""The roll log pane (`#log`): every roll of the campaign, newest last.

Drawn with Textual's Line API: `render_line` builds only the rows on screen, from
strips cached per row, so a 100,000-roll log opens and scrolls as fast as a short one
and appending a roll repaints one row. Bytes matter over SSH, so:

- a row uses few styles (each style change costs an escape sequence per segment);
- the cursor is drawn only while the log has focus (no second row to repaint per roll);
- when the newest roll falls off the bottom, the view jumps by a third of its height
  ("jump scroll", as terminals do) instead of scrolling one row: the next rolls land
  in the blank rows below without moving (repainting) the others, and the virtual
  height already counts those rows so the scrollbar and layout do not change either.
"""

from __future__ import annotations

import re
from array import array
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Sequence

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget

from gmscreen.campaign.rolllog import masked
from gmscreen.play.public import PUBLIC, Sight, hidden_words, public_line, roll_sight
from gmscreen.i18n import N_, _, language, ngettext
from gmscreen.i18n.typography import Name, signed

from gmscreen.ui.config import notable_luck
from gmscreen.ui.view import CampaignView
from gmscreen.play.logline import BAD, CRIT, FUMBLE, GOOD, LogLine, fold, log_line, search_text
from gmscreen.play.tables import campaign_table
from gmscreen.ui.sanitize import clean

if TYPE_CHECKING:
    from gmscreen.campaign.model import RollRecord
    from gmscreen.campaign.session import CampaignSession

# Row codes: a record index (>= 0), or a session separator -(session + 1).
_TONE_CLASS = {GOOD: "roll-log--good", BAD: "roll-log--bad", CRIT: "roll-log--crit", FUMBLE: "roll-log--fumble"}
_ROLES = ("time", "muted", "hidden", "good", "bad", "crit", "fumble", "cursor", "prompt", "luck")


_COPY_NUMBER = re.compile(r"\s\d+$")      # "Garde 2": the number a copy is told apart by


def _fit(text: str, width: int, ellipsis: str) -> str:
    """Crop `text` to `width` cells, ending with an ellipsis when cut."""
    if width <= 0:
        return ""
    if cell_len(text) <= width:
        return text
    if width <= len(ellipsis):
        return set_cell_size(text, width)
    return set_cell_size(text, width - cell_len(ellipsis)) + ellipsis


def _fit_who(text: str, width: int, ellipsis: str) -> str:
    """A name cut to `width` cells; a copy's number ("Garde du Louvre 2") is kept, cut before it,
    so that two copies never read the same in the log."""
    if cell_len(text) <= width:
        return text
    number = _COPY_NUMBER.search(text)
    if number and width - cell_len(number.group()) - cell_len(ellipsis) >= 3:
        tail = number.group()
        head = set_cell_size(text[:number.start()], width - cell_len(tail) - cell_len(ellipsis)).rstrip()
        return head + ellipsis + tail
    return _fit(text, width, ellipsis)


class RollLog(CampaignView, ScrollView, can_focus=True):
    """Every roll, newest last: time, who, test, dice, outcome; GM-only rolls marked."""

    BINDINGS = [
        Binding("f,ctrl+f", "search", N_("Search"), id="log.search"),
        Binding("r", "reveal", N_("Reveal"), id="log.reveal"),
        Binding("w", "watching", N_("Players"), id="log.watching"),
        Binding("up,k", "cursor(-1)", N_("Up"), show=False, id="log.cursor-up"),
        Binding("down,j", "cursor(1)", N_("Down"), show=False, id="log.cursor-down"),
        Binding("pageup", "page(-1)", N_("Page up"), show=False, id="log.page-up"),
        Binding("pagedown", "page(1)", N_("Page down"), show=False, id="log.page-down"),
        Binding("home", "first", N_("First"), show=False, id="log.first"),
        Binding("end", "last", N_("Last"), show=False, id="log.last"),
    ]

    COMPONENT_CLASSES = {f"roll-log--{role}" for role in _ROLES} | {"roll-log--cursor-blurred"}

    DEFAULT_CSS = """
    RollLog {
        background: $surface;
        color: $foreground;
        overflow-x: hidden;
        overflow-y: auto;
        scrollbar-size-vertical: 1;
        height: 1fr;
        & > .roll-log--time { color: $text-muted; }
        & > .roll-log--muted { color: $text-muted; }
        & > .roll-log--luck { color: $accent; text-style: italic; }
        & > .roll-log--hidden { color: $gm-hidden; text-style: bold; }
        & > .roll-log--good { color: $gm-good; }
        & > .roll-log--bad { color: $gm-bad; }
        & > .roll-log--crit { color: $gm-crit; text-style: bold; }
        & > .roll-log--fumble { color: $gm-fumble; text-style: bold; }
        & > .roll-log--cursor {
            background: $block-cursor-background;
            color: $block-cursor-foreground;
        }
        & > .roll-log--prompt { background: $panel; color: $foreground; }
    }
    """

    JUMP = 1 / 3
    """Fraction of the height the view jumps by when the newest roll falls off; 0 scrolls by rows."""

    def __init__(self, *, jump: float | None = None, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.jump = self.JUMP if jump is None else max(0.0, min(jump, 0.9))
        self._session: CampaignSession | None = None
        self._records: Sequence[RollRecord] = []
        self._count = 0                     # records already placed in rows
        self._rows = array("q")             # every row (records and separators)
        self._record_row = array("q")       # record index -> row in self._rows
        self._by_seq: dict[int, int] = {}   # seq -> record index
        self._view: array | None = None     # rows shown while filtering a search
        self._tail = 0                      # virtual height: rows plus the blank rows of a jump
        self._cursor = -1                   # row of the cursor in the shown rows
        self._lines: LRUCache[int, LogLine] = LRUCache(4096)
        self._strips: LRUCache[tuple[int, int, bool], Strip] = LRUCache(1024)
        self._styles: dict[str, Style] | None = None
        self._folded: list[str | None] = []     # search text per record, built on the first search (None: not yet)
        self._query: str | None = None      # None: search closed
        self._origin = -1                   # cursor when the search started
        self._matches = 0
        self.rows_built = 0                 # rows rendered from scratch (tests check laziness)
        self._language = language()         # the rows cached are worded in it
        self._version = 0                   # of a log read from its tail: older rolls placed
        self._folding = 0                   # the search text of older rolls being made in a thread

    # ------------------------------------------------------------ CampaignView

    def show_campaign(self, session: CampaignSession) -> None:
        if self._language != language():    # every row worded again in the language spoken
            self._language = language()
            self._lines.clear()
            self._strips.clear()
            self._folded = []
            self.refresh()
        records = session.rolls
        if (session is not self._session or records is not self._records or len(records) < self._count
                or getattr(records, "version", 0) != self._version):
            self._load(session)
        elif len(records) > self._count:
            self._append_new()

    def show_roll(self, record: RollRecord) -> None:
        if self._session is None:
            return
        if len(self._records) > self._count or self._session.rolls is not self._records:
            self.show_campaign(self._session)
            return
        index = self._index_of(record.seq)
        if index is not None:                       # revealed: same roll, new marks
            self._lines.discard(index)
            self._forget_strips(index)
            self._refresh_row(self._row_of(index))
            if index < len(self._folded):               # searching: revealed text becomes searchable
                self._folded[index] = self._fold(index)

    # ------------------------------------------------------------ rows

    @property
    def row_count(self) -> int:
        """Rows shown (records and session separators, or the matches while filtering)."""
        return len(self._view if self._view is not None else self._rows)

    @property
    def selected_record(self) -> RollRecord | None:
        code = self._code(self._cursor)
        return self._records[code] if code is not None and code >= 0 else None

    def _shown(self) -> array:
        return self._view if self._view is not None else self._rows

    def _code(self, row: int) -> int | None:
        rows = self._shown()
        return rows[row] if 0 <= row < len(rows) else None

    def _index_of(self, seq: int) -> int | None:
        """The record index of roll `seq` (a log read from its tail finds it in its index)."""
        index_of = getattr(self._records, "index_of", None)
        return index_of(seq) if index_of is not None else self._by_seq.get(seq)

    def _load(self, session: CampaignSession) -> None:
        self._session = session
        self._records = session.rolls
        self._version = getattr(self._records, "version", 0)
        self._count = 0
        self._rows = array("q")
        self._record_row = array("q")
        self._by_seq = {}
        self._view = None
        self._lines.clear()
        self._strips.clear()
        self._folded = []
        self._place(0, len(self._records))
        self._tail = len(self._rows)
        self._cursor = len(self._rows) - 1
        if self._query is not None:
            self._refold()
        self._update_virtual_size()
        self.scroll_to(y=self.max_scroll_y, animate=False, force=True)
        self.refresh()

    def _place(self, start: int, end: int) -> None:
        """Put records[start:end] into rows, with a separator when the session changes. Run by
        run of one session, not record by record: a 100,000-roll log is placed in a few
        milliseconds on the UI thread."""
        rows, record_row, records = self._rows, self._record_row, self._records
        if start >= end:
            self._count = max(self._count, end)
            return
        lazy_sessions = getattr(records, "sessions", None)
        sessions = (lazy_sessions(start, end) if lazy_sessions is not None
                    else [record.session for record in records[start:end]])
        cuts = [i for i in range(1, len(sessions)) if sessions[i] != sessions[i - 1]]
        last = None
        if start > 0:
            session_of = getattr(records, "session_of", None)
            last = session_of(start - 1) if session_of is not None else records[start - 1].session
        for run_start, run_end in zip([0, *cuts], [*cuts, len(sessions)]):
            session = sessions[run_start]
            if session != last:
                rows.append(-(session + 1))
                last = session
            first_row = len(rows)
            record_row.extend(range(first_row, first_row + run_end - run_start))
            rows.extend(range(start + run_start, start + run_end))
        if not hasattr(records, "index_of"):
            self._by_seq.update(zip([record.seq for record in records[start:end]], range(start, end)))
        self._count = end

    def _append_new(self) -> None:
        rows_before = len(self._rows)
        follow = self._cursor >= self.row_count - 1
        self._place(self._count, len(self._records))
        if self._query is not None:
            self._folded.extend(self._fold(i) for i in range(len(self._folded), self._count))
        if self._view is not None:                  # filtering: new rows show only if they match
            for row in range(rows_before, len(self._rows)):
                code = self._rows[row]
                if code >= 0 and self._query and self._is_match(code, self._query_folded()):
                    self._view.append(code)
            self._update_virtual_size()
            self.refresh()
            return
        added = len(self._rows) - rows_before
        old_cursor = self._cursor
        if follow:
            self._cursor = len(self._rows) - 1
        height = self._height()
        top = self.scroll_offset.y
        n = len(self._rows)
        if not follow or n <= top + height or height <= 0:
            self._tail = max(self._tail, n)
            self._update_virtual_size()
            self._refresh_rows(rows_before, added)
            if old_cursor != self._cursor and self.has_focus:
                self._refresh_row(old_cursor)
            return
        blank = int(height * self.jump) if height > 2 else 0
        self._tail = n + blank
        self._update_virtual_size()
        self.scroll_to(y=self._tail - height, animate=False, force=True)
        self.refresh()

    def _update_virtual_size(self) -> None:
        # Never less than the view: rows landing in the blank part change nothing but that row.
        rows = self.row_count if self._view is not None else max(self._tail, len(self._rows), self._height())
        extra = 1 if self._query is not None else 0     # the search prompt takes the last line
        self.virtual_size = Size(0, rows + extra)

    def _row_of(self, index: int) -> int:
        if self._view is None:
            return self._record_row[index] if 0 <= index < len(self._record_row) else -1
        try:
            return self._view.index(index)
        except ValueError:
            return -1

    # ------------------------------------------------------------ rendering

    def _height(self) -> int:
        return self.scrollable_content_region.height - (1 if self._query is not None else 0)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = None
        self._strips.clear()

    def presize(self, size: Size) -> None:
        """Before its first showing, at the size it gets (the pane it replaces): the newest
        rolls in view, so that the layout showing it sends it once, not scrolled right after."""
        height = size.height - (1 if self._query is not None else 0)
        if self.size.height or height <= 0 or self._view is not None or self._cursor < self.row_count - 1:
            return
        self._tail = len(self._rows)
        rows = max(self._tail, len(self._rows), height)
        self.set_reactive(Widget.virtual_size, Size(0, rows + (1 if self._query is not None else 0)))
        self.set_reactive(Widget.scroll_y, float(max(rows - height, 0)))
        self.set_reactive(Widget.scroll_target_y, float(max(rows - height, 0)))

    def on_resize(self, event: events.Resize) -> None:
        # A new height changes where the bottom is: follow it without leaving blank rows.
        if self._view is None and self._cursor >= self.row_count - 1:
            self._tail = len(self._rows)
            self._update_virtual_size()
            self.call_after_refresh(self.scroll_to, y=self.max_scroll_y, animate=False, force=True)

    def _role_styles(self) -> dict[str, Style]:
        if self._styles is None:
            base = self.rich_style
            styles = {"base": base}
            for role in _ROLES:
                styles[role] = base + self.get_component_rich_style(f"roll-log--{role}")
            self._styles = styles
        return self._styles

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        if self._query is not None and y == self._height():
            return self._prompt_strip(width)
        row = self.scroll_offset.y + y
        code = self._code(row)
        styles = self._role_styles()
        if code is None:
            return Strip.blank(width, styles["base"])
        cursor = row == self._cursor and self.has_focus
        key = (code, width, cursor)
        strip = self._strips.get(key)
        if strip is None:
            strip = self._build(code, width, cursor)
            self._strips[key] = strip
        return strip

    def _line(self, index: int) -> LogLine:
        line = self._lines.get(index)
        if line is None:
            session = self._session
            system = session.system if session is not None else None
            campaign = session.campaign if session is not None else None
            line = log_line(self._records[index], system, ascii=self.ascii, campaign=campaign,
                            notable=notable_luck(self.app), game=campaign_table(campaign))
            self._lines[index] = line
        return line

    def _sight(self, index: int) -> Sight:
        """What the players may see of a roll now: all of it while they do not watch."""
        if not self.players_watching:
            return PUBLIC
        session = self._session
        campaign = session.campaign if session is not None else None
        return roll_sight(self._records[index], campaign, campaign_table(campaign))

    def _public_line(self, index: int, sight: Sight) -> LogLine | None:
        session = self._session
        campaign = session.campaign if session is not None else None
        return public_line(self._records[index], campaign, sight=sight, ascii=self.ascii, game=campaign_table(campaign))

    def _build(self, code: int, width: int, cursor: bool) -> Strip:
        """One row as few segments as possible: each style change costs bytes on the wire."""
        self.rows_built += 1
        styles = self._role_styles()
        ascii = self.ascii
        ellipsis = "~" if ascii else "…"
        parts: list[tuple[str, str]]
        if code < 0:
            rule = "-" if ascii else "─"
            label = " " + _("Session {n}").format(n=-code - 1) + " "
            left = max(0, (width - cell_len(label)) // 2)
            parts = [(_fit(rule * left + label + rule * width, width, ""), "muted")]
        else:
            line = self._line(code)
            mark = ("*" if ascii else "◆") if line.gm_only and not line.revealed else (
                ("+" if ascii else "◇") if line.gm_only else " ")
            head = line.time + " "
            sight = self._sight(code)
            if sight.secret:
                parts = [(head, "time"), (mark + " " + _("GM's secret roll"), "hidden")]
            else:
                if not sight.whole:     # the dice and the outcome, not what was needed nor a hidden side's name
                    seen = self._public_line(code, sight)
                    line = replace(seen if seen is not None else line, test=hidden_words(sight), detail="", luck="")
                who_w = max(6, min(14, width // 6))
                rest = width - cell_len(head) - 2 - who_w - 1
                outcome = _fit(line.outcome, max(rest, 0), ellipsis)
                room = rest - cell_len(outcome)
                luck = " · " + line.luck if line.luck else ""       # a notable roll's luck: before the line
                if luck and room - cell_len(luck) < 16:
                    luck = ""
                room -= cell_len(luck)
                test = _fit(line.test, max(0, min(cell_len(line.test), room - 2)), ellipsis)
                room -= cell_len(test) + 2
                dice = _fit(line.dice, room - 2, ellipsis) if room - 2 >= 3 and line.dice else ""
                middle = " " + test + ("  " + dice if dice else "") + "  "
                who = set_cell_size(_fit_who(line.who, who_w, ellipsis), who_w)
                parts = [(head, "time")]
                if mark != " ":
                    parts.append((mark + " ", "hidden"))
                else:
                    parts[0] = (head + "  ", "time")
                parts += [(who + middle, "base"), (outcome, line.tone if line.tone in _TONE_CLASS else "base")]
                if luck:
                    parts.append((luck, "luck"))
                used = sum(cell_len(t) for t, _ in parts)
                if line.detail and width - used > 6:
                    parts.append((_fit(" · " + line.detail, width - used, ellipsis), "muted"))
        text_len = sum(cell_len(t) for t, _ in parts)
        if cursor:
            text = "".join(t for t, _ in parts)
            segments = [Segment(set_cell_size(text, width), styles["cursor"])]
        else:
            segments = [Segment(t, styles[role]) for t, role in parts if t]
            if text_len < width:
                last = segments[-1].style if segments else styles["base"]
                segments.append(Segment(" " * (width - text_len), last))
        return Strip(segments).crop(0, width).simplify()

    def _prompt_strip(self, width: int) -> Strip:
        styles = self._role_styles()
        count = " " + ngettext("{n} found", "{n} found", self._matches).format(n=self._matches) if self._query else ""
        mode = " · " + _("filter") if self._view is not None else ""
        hint = "  " + (_("enter/↑↓ next · tab filter · esc") if not self.ascii else _("enter/up/down next · tab filter · esc"))
        text = "/" + (self._query or "") + "▏" + count + mode
        text = _fit(clean(text), width, "")
        hint = _fit(hint, width - cell_len(text), "")
        return Strip([Segment(set_cell_size(text + hint, width), styles["prompt"])], width)

    def _forget_strips(self, code: int) -> None:
        for key in [k for k in self._strips.keys() if k[0] == code]:
            self._strips.discard(key)

    def _refresh_row(self, row: int) -> None:
        if row >= 0:
            self.refresh_line(row)

    def _refresh_rows(self, start: int, count: int) -> None:
        if count > 0:
            self.refresh_lines(start, count)

    # ------------------------------------------------------------ cursor

    def _move_to(self, row: int) -> None:
        count = self.row_count
        if count == 0:
            return
        row = max(0, min(row, count - 1))
        could_reveal = self.check_action("reveal", ())
        old, self._cursor = self._cursor, row
        if self.check_action("reveal", ()) != could_reveal:
            self.refresh_bindings()
        height = max(1, self._height())
        top = self.scroll_offset.y
        if row < top:
            self.scroll_to(y=row, animate=False, force=True)
        elif row >= top + height:
            self.scroll_to(y=row - height + 1, animate=False, force=True)
        else:
            self._refresh_row(old)
            self._refresh_row(row)

    def on_show(self) -> None:
        # Rolls recorded while the pane was hidden: land on the newest, as if following.
        if self._view is None and self._cursor >= self.row_count - 1:
            self._tail = len(self._rows)
            self._update_virtual_size()
            self.call_after_refresh(self.scroll_to, y=self.max_scroll_y, animate=False, force=True)

    def action_cursor(self, delta: int) -> None:
        self._move_to(self._cursor + delta)

    def action_page(self, direction: int) -> None:
        self._move_to(self._cursor + direction * max(1, self._height() - 1))

    def action_first(self) -> None:
        self._move_to(0)

    def action_last(self) -> None:
        self._move_to(self.row_count - 1)

    def on_click(self, event: events.Click) -> None:
        row = self.scroll_offset.y + event.y
        if self._query is None or event.y < self._height():
            self._move_to(row)

    def on_focus(self, event: events.Focus) -> None:
        self._refresh_row(self._cursor)

    def on_blur(self, event: events.Blur) -> None:
        self._refresh_row(self._cursor)

    # ------------------------------------------------------------ GM-only rolls

    def action_reveal(self) -> None:
        record = self.selected_record
        if record is None:
            self.app.bell()
            return
        if not (record.gm_only or record.result.get("hidden")):
            self.host.warn(_("roll {n} is not a GM-only roll: nothing to reveal").format(n=record.seq), "information")
            return
        if record.revealed:
            self.host.warn(_("roll {n} is already revealed").format(n=record.seq), "information")
            return
        # Shown at once to everyone watching, and for good (the log only grows; ctrl+z takes back
        # the change before it, not the reveal): asked first.
        from gmscreen.ui.screens.roster_dialogs import ConfirmScreen

        seq = record.seq

        def answered(yes: bool | None) -> None:
            if yes and self.host.table is not None:
                self.host.table.reveal(seq)

        detail = (_("The players will see this roll whole from now on. A reveal is not undone: ctrl+z takes "
                    "back the change before it.") if record.gm_only else
                  _("The players will see its difficulty from now on. A reveal is not undone: ctrl+z takes back "
                    "the change before it."))
        self.app.push_screen(ConfirmScreen(_("Show roll {n} to the players?").format(n=seq), detail,
                                           yes=_("Reveal")), answered)

    @property
    def players_watching(self) -> bool:
        """Players can see the screen: GM-only rolls not yet revealed show as secret rolls.
        One state of the screen, held by the host, so that the dice tray masks them too."""
        return self.host.players_watching

    def action_watching(self) -> None:
        self.host.toggle_players_watching()

    def show_watching(self, watching: bool) -> None:
        self._strips.clear()
        if self._query is not None:
            self._refold()
            self._search(self._origin)
        self.refresh()

    # ------------------------------------------------------------ search

    def start_search(self) -> None:
        """Open the search line at the bottom of the log and give the log focus."""
        if self._query is None:
            self._query = ""
            self._origin = self._cursor
            if len(self._folded) < self._count:
                self._refold(keep=True)
            self._matches = 0
            self._update_virtual_size()
            if self._cursor >= self.scroll_offset.y + self._height():
                self.scroll_to(y=self._cursor - self._height() + 1, animate=False, force=True)
        self.focus()
        self.refresh()

    def action_search(self) -> None:
        self.start_search()

    @property
    def search_query(self) -> str | None:
        return self._query

    def _fold(self, index: int) -> str:
        record = self._records[index]
        sight = self._sight(index)
        if sight.secret:
            return fold(" · ".join((_("GM's secret roll"), "jet secret du MJ", "GM's secret roll")))  # either language
        if not sight.whole:       # found by what the row shows, not by the difficulty nor a hidden name
            line = self._public_line(index, sight) or self._line(index)
            return fold(" ".join((line.time, line.who, line.dice, line.outcome, hidden_words(sight))))
        session = self._session
        campaign = session.campaign if session is not None else None
        return search_text(record, session.system if session is not None else None,
                           campaign, ascii=self.ascii, game=campaign_table(campaign))

    def _refold(self, keep: bool = False) -> None:
        """The search text of every roll: the ones in memory now, older ones of a log read from
        its tail in a thread, newest first (parsing them all on this thread would stop the keys
        for seconds), the search updated as they come. `keep`: only rolls added since are new."""
        if keep and self._folded and self._folded[0] is not None:
            self._folded.extend(self._fold(i) for i in range(len(self._folded), self._count))
            return
        older = getattr(self._records, "older_count", 0) if hasattr(self._records, "index_of") else 0
        older = min(older, self._count)
        self._folded = [None] * older + [self._fold(i) for i in range(older, self._count)]
        self._folding += 1
        if older:
            token, folded = self._folding, self._folded
            self.run_worker(lambda: self._fold_older(token, folded, older), thread=True, group="log-fold",
                            name="log-fold", exclusive=True, exit_on_error=False)

    def _fold_older(self, token: int, folded: list, older: int) -> None:
        """In a thread: fill `folded[:older]` from the newest down, a batch at a time."""
        from gmscreen.ui.terminal.quick_switch import quick_switches

        batch = 512
        with quick_switches():
            for top in range(older, 0, -batch):
                if token != self._folding or folded is not self._folded:
                    return
                for i in range(top - 1, max(0, top - batch) - 1, -1):
                    folded[i] = self._fold(i)
                self.app.call_from_thread(self._folded_more, token)

    def _folded_more(self, token: int) -> None:
        if token != self._folding or self._query is None:
            return
        if self._matches == 0 or self._view is not None:
            self._search(self._origin if self._view is None else self.row_count - 1)
        else:
            needle = self._query_folded()
            self._matches = sum(1 for text in self._folded if text is not None and needle in text)
            self.refresh_line(self._height())

    def _query_folded(self) -> str:
        return fold(self._query or "")

    def _is_match(self, code: int, needle: str) -> bool:
        if code < 0 or code >= len(self._folded):
            return False
        text = self._folded[code]
        return text is not None and needle in text

    def _search(self, start: int, step: int = -1) -> bool:
        """Move the cursor to the nearest match from `start` (included) going `step`, wrapping."""
        needle = self._query_folded()
        if self._view is not None:
            self._close_filter()
            self._open_filter()
        rows = self._shown()
        if not needle:
            self._matches = 0
            self.refresh()
            return False
        self._matches = sum(1 for text in self._folded if text is not None and needle in text)
        count = len(rows)
        if count == 0 or self._matches == 0:
            self.refresh()
            return False
        start = max(0, min(start, count - 1))
        for i in range(count):
            row = (start + step * i) % count
            if self._is_match(rows[row], needle):
                self._move_to(row)
                self.refresh()
                return True
        self.refresh()
        return False

    def _open_filter(self) -> None:
        needle = self._query_folded()
        record = self.selected_record
        self._view = array("q", (i for i, text in enumerate(self._folded) if text is not None and needle in text))
        found = self._index_of(record.seq) if record is not None else None
        index = -1 if found is None else found
        self._cursor = self._row_of(index) if index >= 0 and self._is_match(index, needle) else len(self._view) - 1
        self._update_virtual_size()

    def _close_filter(self) -> None:
        record = self.selected_record
        self._view = None
        self._tail = len(self._rows)
        found = self._index_of(record.seq) if record is not None else None
        self._cursor = self._record_row[found] if found is not None else len(self._rows) - 1
        self._update_virtual_size()

    def _toggle_filter(self) -> None:
        if self._view is None:
            self._open_filter()
        else:
            self._close_filter()
        self._strips.clear()
        self._move_to(self._cursor)
        self.refresh()

    def close_search(self) -> None:
        if self._query is None:
            return
        if self._view is not None:
            self._close_filter()
        self._query = None
        self._update_virtual_size()
        self._move_to(self._cursor)
        self.refresh()

    def on_key(self, event: events.Key) -> None:
        # While searching, keys type the query: stopped here, they never reach bindings.
        if self._query is None:
            return
        key = event.key
        handled = True
        if key == "escape":
            self.close_search()
        elif key in ("enter", "up"):
            self._search(self._cursor - 1, -1)
        elif key == "down":
            self._search(self._cursor + 1, 1)
        elif key == "tab":
            self._toggle_filter()
        elif key == "backspace":
            self._query = self._query[:-1]
            self._search(self._origin)
        elif key == "ctrl+u":
            self._query = ""
            self._search(self._origin)
        elif event.is_printable and event.character:
            self._query += clean(event.character)
            self._search(self._origin if self._view is None else self.row_count - 1)
        else:
            handled = False
        if handled:
            event.stop()
            event.prevent_default()

    def on_paste(self, event: events.Paste) -> None:
        if self._query is not None:
            event.stop()
            self._query += clean(event.text)
            self._search(self._origin)

    def check_action(self, action: str, parameters: tuple[Any, ...]) -> bool | None:
        if action == "reveal":
            record = self.selected_record
            return None if record is None or not masked(record) else True   # GM-only or secret, hidden
        return True
