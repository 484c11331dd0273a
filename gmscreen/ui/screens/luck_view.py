"""`L`: luck over time, the answer to "are the dice cursed tonight?" with the table's own numbers.

A view of `gmscreen.play.luck_stats`: one row for the table and one per character, one column
per session (the latest ones): successes out of the rolls counted, and the successes fair dice
give on average; under it the verdict of the current session in words. GM-only rolls count,
except while players are watching (`w` in the log). The odds of a long log are computed in a
thread, so the view opens at once.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Label, Static

from gmscreen.i18n import N_, _
from gmscreen.i18n.typography import number
from gmscreen.play import luck_stats

from ..sanitize import literal_text
from ..terminal.steady import SteadyModalScreen

SESSIONS_SHOWN = 5


def luck_rows(rolls: list[luck_stats.RollLuck], current: int) -> tuple[list[int], list[list[str]], list[str]]:
    """(sessions shown, rows of cells, sentences about the current session), in the language spoken."""
    series = luck_stats.over_time(rolls)
    sessions = sorted({r.session for r in rolls})[-SESSIONS_SHOWN:]
    rows: list[list[str]] = []
    for who, tallies in series.items():
        by_session = {t.session: t for t in tallies}
        cells = [who or _("The table")]
        for s in sessions:
            t = by_session.get(s)
            if t is None or not t.trials:
                cells.append("·")
                continue
            cell = f"{t.successes}/{len(t.trials)} ({number(t.expected, 1)})"
            if t.verdict in (luck_stats.CURSED, luck_stats.BLESSED):
                cell += " " + _(luck_stats.VERDICT_WORDS[t.verdict])
            cells.append(cell)
        rows.append(cells)
    sentences = [luck_stats.verdict_sentence(t) + (f" ({luck_stats.mean_sentence(t)})" if t.lucks else "")
                 for t in luck_stats.tallies(rolls, current) if t.rolls]
    return sessions, rows, sentences or [_("No roll this session yet.")]


class LuckScreen(SteadyModalScreen[None]):
    """The luck view (see the module); escape, q or L closes it."""

    DEFAULT_CSS = """
    LuckScreen { align: center middle; }
    LuckScreen > .dialog {
        width: 95%;
        max-width: 110;
        height: 90%;
        border: round $border;
        background: $surface;
    }
    LuckScreen DataTable { height: auto; max-height: 50%; }
    LuckScreen #luck-words { height: 1fr; padding: 0 1; }
    LuckScreen .hint { color: $text-muted; padding: 0 1; }
    """

    BINDINGS = [Binding("escape,q,L", "close", N_("Close"), id="luck.close")]

    def __init__(self, records: list[Any], current: int, *, include_masked: bool, campaign: Any = None) -> None:
        super().__init__()
        self._campaign = campaign
        self._records = list(records)
        self._current = current
        self._include_masked = include_masked

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(_("Luck over time · session {n}").format(n=self._current), id="luck-title")
            yield DataTable(id="luck-table", cursor_type="row", zebra_stripes=True)
            yield Static(_("Computing the odds…"), id="luck-words", markup=False)
            yield Label(_("k/n (e): successes / rolls (fair dice's average). escape: close."), classes="hint",
                        markup=False)

    def on_mount(self) -> None:
        self.query_one(DataTable).focus()
        self.run_worker(self._count, thread=True, group="luck", exit_on_error=False)

    def _count(self) -> None:
        from gmscreen.play.tables import campaign_table

        rolls = luck_stats.counted(self._records, include_masked=self._include_masked,
                                   campaign=self._campaign, game=campaign_table(self._campaign))
        shown = luck_rows(rolls, self._current)
        self.app.call_from_thread(self._show, *shown)

    def _show(self, sessions: list[int], rows: list[list[str]], sentences: list[str]) -> None:
        table = self.query_one(DataTable)
        table.clear(columns=True)
        table.add_columns(Text(_("Who")), *[Text(_("Session {n}").format(n=s)) for s in sessions])
        for cells in rows:
            table.add_row(*[literal_text(c) for c in cells])
        self.query_one("#luck-words", Static).update(literal_text("\n".join(sentences), single_line=False))

    def action_close(self) -> None:
        self.dismiss(None)
