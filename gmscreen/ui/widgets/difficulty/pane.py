"""The difficulty reference (`#difficulty`): the system's table, in its own words.

Each row shows the chance of success of the test being typed in the quick-roll line
at that difficulty (exact, from `gmscreen.rules.odds`); the row of the difficulty the
line already has is marked; Enter on a row puts its value in the line. Odds are
computed only when the draft changes and the pane is on screen, and cached per request.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from rich.cells import cell_len, set_cell_size
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from gmscreen.i18n import N_, _, language
from gmscreen.i18n.typography import percent
from gmscreen.rules import RequestError, System

from gmscreen.play import chances
from gmscreen.play import events as ev
from gmscreen.play.tables import table_for
from gmscreen.ui.view import CampaignView
from gmscreen.ui.terminal.option_list import SteadyOptionList
from gmscreen.ui.terminal.repaint import replace_prompts
from gmscreen.ui.sanitize import clean, literal

if TYPE_CHECKING:
    from gmscreen.campaign.session import CampaignSession



def chance_text(chance: float | None) -> str:
    """0.5954 -> "60 %" ("60%" in English); never "0 %" or "100 %" for a chance that is not
    certain, nor a whole number that misleads (0,1 %, 99,9 %, 12,5 %): `typography.percent`."""
    if chance is None:
        return "—"
    return percent(chance)


class _Rows(SteadyOptionList):
    """The table itself; Enter chooses the highlighted row."""

    BINDINGS = [Binding("enter", "select", N_("Choose"), id="difficulty.choose")]


class DifficultyPane(CampaignView, Widget, can_focus=False):
    """The system's difficulty table with the chance of the typed test at each row."""

    DEFAULT_CSS = """
    DifficultyPane {
        height: 1fr;
        layout: vertical;
        & > #difficulty-test { height: 1; color: $text-muted; padding: 0 1; }
        & > #difficulty-rows { height: 1fr; border: none; padding: 0; background: $surface; }
    }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._system: System | None = None
        self._draft: dict[str, Any] | None = None
        self._label = ""
        self._values: list[int | None] = []     # per option: the value Enter chooses (None: reference row)
        self._stale = True
        self._width = 0
        self._language = language()

    def compose(self) -> ComposeResult:
        yield Static("", id="difficulty-test", markup=False)
        yield _Rows(id="difficulty-rows")

    # ------------------------------------------------------------ CampaignView

    def show_campaign(self, session: CampaignSession) -> None:
        if session.system is not self._system or self._language != language():   # a switch rewords it
            self._system, self._language = session.system, language()
            self._stale = True
            self._redraw()
        self._take_draft()          # (built after the line was typed: the narrow layout's late panes)

    def hear(self, event: ev.Event) -> None:
        if isinstance(event, (ev.DraftChanged, ev.GmOnlyChanged)):
            self._take_draft()

    def show_watching(self, watching: bool) -> None:
        self._take_draft()

    def _take_draft(self) -> None:
        """The test typed in the quick-roll line, priced per row; none while players watch a
        roll they may not see whole (its difficulty, or who rolls): `Table.sight` says."""
        table = self.host.table
        draft = table.draft if table is not None else None
        if draft is None or table is None or (self.host.players_watching and not table.sight().whole):
            self.show_draft(None, "")
        else:
            self.show_draft(draft.odds_request, draft.label)

    @property
    def draft(self) -> dict[str, Any] | None:
        """The request the rows are priced for (the line's test, without its difficulty)."""
        return self._draft

    def show_draft(self, request: Mapping[str, Any] | None, label: str) -> None:
        draft = dict(request) if request is not None else None
        if draft == self._draft and label == self._label:
            return
        self._draft, self._label = draft, label
        self._stale = True
        self._redraw()

    # ------------------------------------------------------------ odds

    def difficulty_field(self) -> str | None:
        """The request field the table sets for the draft's kind, or None (opposed tests)."""
        if self._system is None or self._draft is None:
            return None
        kind = self._system.kinds.get(self._draft.get("kind", ""))
        name = self._system.difficulty_field
        if kind is None or not any(f.name == name for f in kind.fields):
            return None
        return name

    def chance_at(self, value: int | None) -> float | None:
        """Chance of success of the draft at that difficulty; None when it has no meaning."""
        field = self.difficulty_field()
        if field is None or value is None or self._draft is None:
            return None
        request = dict(self._draft)
        request[field] = value
        try:
            return chances.chance(request)
        except (RequestError, ValueError, TypeError, KeyError):
            return None

    # ------------------------------------------------------------ drawing

    def on_show(self) -> None:
        if self._stale:
            self._redraw()

    def presize(self, size: Any) -> None:
        """Drawn at `size` before its first showing (the pane it replaces has it): the layout
        showing it sends it once, not drawn again on being shown and on getting its size."""
        if self.size.width or size.width <= 0:
            return
        self._width = size.width
        self._stale = True
        self._redraw()

    def on_resize(self) -> None:
        width = self.size.width
        if width != self._width:
            self._width = width
            self._stale = True
            self._redraw()

    def _redraw(self) -> None:
        """Rebuild the rows; skipped while hidden (the host calls the hooks anyway)."""
        if not self.is_mounted or not self.display or self._system is None:
            return
        self._stale = False
        system = self._system
        game = table_for(system.id).sheet
        rows_widget = self.query_one(_Rows)
        field = self.difficulty_field()
        current = self._draft.get(field) if field is not None and self._draft is not None else None
        test = self.query_one("#difficulty-test", Static)
        if self._draft is None:
            test.update(literal(_("Odds: type a test in the roll line")))
        elif field is None:
            test.update(literal(_("{test}: no difficulty (opposition)").format(test=self._label or _("this test"))))
        else:
            test.update(literal(_("Odds: {test}").format(test=self._label or _("test being typed"))))
        width = max(20, (self.size.width or self._width or 0) - 1)
        labels = [clean(d.label) for d in system.difficulties]
        label_w = min(max((cell_len(t) for t in labels), default=8), max(8, width // 2 - 6))
        options: list[Option | None] = []
        self._values = []
        ascii = self.ascii
        marker = ">" if ascii else "▶"
        for row, label in zip(system.difficulties, labels):
            chosen = row.value is not None and row.value == current
            value = "" if row.value is None else game.difficulty_text(row.value)
            chance = chance_text(self.chance_at(row.value)) if field is not None else "—"
            if ascii:
                chance = chance.replace("—", "-")
            chance = " " * max(4 - cell_len(chance), 0) + chance
            text = (f"{marker if chosen else ' '} {set_cell_size(label, label_w)} {value:>3}  {chance}")
            if row.note:
                text += "  " + clean(_(row.note))           # (a note is an English msgid: the game's catalog words it)
            if cell_len(text) > width:
                text = set_cell_size(text, width - 1) + ("~" if ascii else "…")
            content = Content(text)
            if chosen:
                content = content.stylize("bold")
            options.append(Option(content, id=f"row-{len(self._values)}"))
            self._values.append(row.value)
        for title, table in system.extra_tables:
            options.append(None)
            options.append(Option(literal(_(title), "bold"), disabled=True))
            self._values.append(None)
            for row in table:
                parts = [clean(_(row.label))]        # a reference table's rows are described, not named
                if row.value is not None:
                    parts.append(str(row.value))
                if row.note:
                    parts.append(clean(_(row.note)))
                options.append(Option(literal("  " + " · ".join(parts)), id=f"row-{len(self._values)}"))
                self._values.append(None)
        highlighted = rows_widget.highlighted
        if not replace_prompts(rows_widget, options):      # the odds alone changed: only they are sent
            rows_widget.set_options(options)
        if current is not None and current in self._values:
            rows_widget.highlighted = self._option_index(current)
        elif highlighted is not None and highlighted < rows_widget.option_count:
            rows_widget.highlighted = highlighted

    def _option_index(self, value: int) -> int:
        rows_widget = self.query_one(_Rows)
        for index, option in enumerate(rows_widget.options):
            if option.id and option.id.startswith("row-") and self._values[int(option.id[4:])] == value:
                return index
        return 0

    # ------------------------------------------------------------ choosing

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        option_id = event.option.id or ""
        if not option_id.startswith("row-"):
            return
        value = self._values[int(option_id[4:])]
        if value is None:
            self.host.warn(_("reference table: nothing to choose here"), "information")
            return
        if self.host.table is not None:
            self.host.table.choose_difficulty(value)     # the line takes it (the tray hears it)

    def focus(self, scroll_visible: bool = True) -> DifficultyPane:
        """Focusing the pane focuses its table."""
        self.query_one(_Rows).focus(scroll_visible)
        return self

    @property
    def rows(self) -> OptionList:
        return self.query_one(_Rows)
