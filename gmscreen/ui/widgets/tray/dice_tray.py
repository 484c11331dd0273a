"""The dice tray: the quick-roll line, the exact odds of what is typed, the result, the choices.

The line, its draft, the roll in progress with its prompt, the GM-only flag and the history
are the live table's (`gmscreen.play.Table`, the host's `table`): this widget hands it what is
typed and the keys of a choice, and draws what its events say (`hear`). No game state here.

Its parts live next door: `quick_roll_line` is the line and its keys, `odds_row` the odds,
`choice_prompt` the pending choice, `result_view` the result, `grammar_help` the help. They
post what the GM asks (`QuickRollLine.Submitted`, `ChoicePrompt.Picked`…) and the tray hands
it to the table.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.widget import Widget
from textual.types import NoActiveAppError

from gmscreen import i18n
from gmscreen.i18n import N_, _
from gmscreen.rules import get_system

from gmscreen.ui.config import notable_luck
from gmscreen.play import events as ev
from gmscreen.ui.view import CampaignView
from gmscreen.ui.panes import set_title
from gmscreen.ui.sanitize import clean, literal
from gmscreen.ui.widgets.tray.choice_prompt import ChoicePrompt
from gmscreen.ui.widgets.tray.result_view import RollResultView
from gmscreen.ui.widgets.tray.odds_row import OddsRow
from gmscreen.ui.widgets.tray.of_table import OfTable
from gmscreen.ui.widgets.tray.quick_roll_line import QuickRollLine
from gmscreen.ui.widgets.tray.watched import watched_prompt_content
from gmscreen.play.public import PUBLIC, Sight

if TYPE_CHECKING:
    from gmscreen.play.quickroll import Completion, Draft, QuickRollError, RollFlow
    from gmscreen.play.table import Table
    from gmscreen.play.table_roll import TableRoll
    from gmscreen.campaign.model import RollRecord
    from gmscreen.campaign.session import CampaignSession

# The empty line's hint (an English id, translated where shown: the language may change live).
PLACEHOLDER = N_("/ quick roll — ? for the grammar")


class DiceTray(CampaignView, Widget):
    """The quick-roll line `#quick-roll`, its odds, the last result and any pending choice."""

    DEFAULT_CSS = """
    DiceTray { height: 7; layout: vertical; padding: 0 1; }
    DiceTray > #quick-roll { height: 1; border: none; padding: 0; margin: 0; }
    DiceTray > #quick-roll:focus { border: none; }
    DiceTray > #tray-info { height: 1; color: $text-muted; text-wrap: nowrap; text-overflow: ellipsis; }
    DiceTray > #tray-info.-error { color: $error; height: auto; max-height: 2; text-wrap: wrap; }
    DiceTray > #tray-info.-empty { display: none; }
    DiceTray.-choosing > #tray-info { display: none; }    /* the odds are past: the dice need the row */
    DiceTray > #tray-choice { height: auto; max-height: 2; display: none; background: $boost; }
    DiceTray > #tray-choice.-active { display: block; }
    DiceTray > #tray-choice:focus { background: $accent 30%; }
    DiceTray > #tray-result { height: 1fr; }
    DiceTray.-gm-only > #quick-roll { background: $warning 15%; }
    """
    BINDINGS = [
        # English ids (N_): the footer and the keys help translate them where they are shown.
        Binding("escape", "leave", N_("Leave line"), id="dice-tray.leave"),
        Binding("ctrl+g", "toggle_gm_only", N_("GM-only"), id="dice-tray.gm-only"),
        Binding("ctrl+r", "repeat_last", N_("Repeat"), show=False, id="dice-tray.repeat"),
    ]

    def __init__(self, *, rng: random.Random | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._rng = rng                           # handed to the table (tests seed the dice)
        self.session: CampaignSession | None = None
        self._previous_focus: Widget | None = None
        self._history_of: CampaignSession | None = None   # the session whose log the history holds
        # The parts, top to bottom: the line, the odds row, a pending choice, the result.
        self.line = QuickRollLine(self, placeholder=_(PLACEHOLDER), id="quick-roll")
        self.info = OddsRow(id="tray-info")
        self.choice_view = ChoicePrompt(self, id="tray-choice")
        self.result_view = RollResultView(id="tray-result")

    def compose(self) -> ComposeResult:
        yield from (self.line, self.info, self.choice_view, self.result_view)

    def on_mount(self) -> None:
        self._forget_language = i18n.on_change(self._relabel)

    def on_unmount(self) -> None:
        forget = getattr(self, "_forget_language", None)
        if forget is not None:
            forget()

    # ------------------------------------------------------------ the table's state, read there

    @property
    def table(self) -> Table | None:
        """The live table the tray drives (None before a campaign is open, or outside an app)."""
        try:
            return self.host.table
        except NoActiveAppError:
            return None

    @property
    def rng(self) -> random.Random | None:
        table = self.table
        return table.rng if table is not None else self._rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._rng = rng
        if self.table is not None:
            self.table.rng = rng

    roll: OfTable[TableRoll | None] = OfTable(None)      # the roll under way (`flow`: its steps)
    draft: OfTable[Draft | None] = OfTable(None)
    error: OfTable[QuickRollError | None] = OfTable(None)
    gm_only: OfTable[bool] = OfTable(False)
    selected: OfTable[str | None] = OfTable(None)
    last_line: OfTable[str | None] = OfTable(None)

    @property
    def history(self) -> list[str]:
        return self.table.history if self.table is not None else []

    @property
    def flow(self) -> RollFlow | None:
        """The roll under way (its prompt, dice and request), None between rolls."""
        return self.roll.flow if self.roll is not None else None

    def _relabel(self, _lang: str) -> None:
        """The language changed (palette): everything the tray wrote is written again."""
        if not self.is_attached:
            return
        self.line.placeholder = _(PLACEHOLDER)
        self._update_title()
        if self.line.value.strip() and self.session is not None:
            self._reparse(self.line.value, again=True)     # its words in the new language
        if self.flow is not None and self.flow.prompt is not None:
            self.choice_view.update(self._prompt_content())
        self._render_shown()

    # ------------------------------------------------------------ public, for the app

    def focus_line(self) -> None:
        """Focus the quick-roll line, remembering where to go back on escape."""
        focused = self.app.focused
        if focused is not None and focused not in (self.line, self.choice_view):
            self._previous_focus = focused
        if self.flow is not None and self.flow.prompt is not None:
            self.choice_view.focus()
        else:
            self.line.focus()

    def toggle_gm_only(self) -> None:
        """The next rolls are GM-only (masked for players) until toggled back (a roll waiting for
        a choice is logged as it says): the table's flag, drawn when it says so (`hear`)."""
        if self.table is not None:
            self.table.toggle_gm_only()

    def _show_gm_only(self) -> None:
        self.set_class(self.gm_only, "-gm-only")
        self._update_title()
        self._show_watched()            # players watching: the odds, the line and the table hide it now

    def repeat_last(self) -> None:
        """Roll the last line again (`.`)."""
        if self.last_line is None:
            self.host.warn(_("no roll to repeat"))
            return
        focused = self.app.focused
        outside = focused is not None and focused not in (self.line, self.choice_view)
        typed = self.line.value
        if outside:
            self._previous_focus = focused
        self.line.value = self.last_line
        self.submit(self.last_line)
        if outside and self.flow is None and focused is not None and focused.is_attached:
            # `.` from a pane: the GM stays there (their next keys are pane keys, not text)
            # and a line they had typed is still there.
            self.line.value = typed
            focused.focus()

    def set_line(self, text: str) -> None:
        """Put `text` in the line and focus it (palette "Roll <name> <skill>")."""
        self.line.set_text(clean(text))
        self.focus_line()

    # ------------------------------------------------------------ CampaignView hooks

    def show_campaign(self, session: CampaignSession) -> None:
        if self.session is not None and session is not self.session:
            self._history_of = None                 # another campaign (its table's history is its own)
        self.session = session
        table = self.table
        if table is not None and self._rng is not None and table.rng is not self._rng:
            table.rng = self._rng
        self._update_title()
        self.set_class(self.gm_only, "-gm-only")     # a new table: its flag (drawn again only if it differs)
        if session is not self._history_of and session.rolls_loaded:
            self._history_of = session
            if table is not None:
                self.line.load_history(table)
        if self.is_mounted and self.line.read_once and table is not None and table.line != self.line.value:
            self._reparse(self.line.value)          # a new table: the line typed is read by it

    def on_odds_row_priced(self, event: OddsRow.Priced) -> None:
        event.stop()
        if event.draft is self.draft and self.error is None:
            self._show_draft_info()            # priced: shown now (the memo has them)

    def show_roll(self, record: RollRecord) -> None:
        """A roll revealed in the log: the tray shows it to the players too, if it is the one shown."""
        if self.result_view.revealed(record):
            self._render_shown()

    def show_watching(self, watching: bool) -> None:
        self._render_shown()
        self._show_watched()

    def show_record(self, record: RollRecord) -> None:
        """Show a logged roll as if it had just been rolled here (an interval of a timer)."""
        from gmscreen.ui.widgets.tray.shown_roll import shown_from_record

        self.result_view.shown = shown_from_record(record, self.session.campaign if self.session else None,
                                                   notable=notable_luck(self.app))
        self._render_shown()

    def hear(self, event: ev.Event) -> None:
        """What the table did with the line and the roll, drawn."""
        if isinstance(event, ev.DraftChanged):
            if self.is_mounted:
                self._show_draft_info()
        elif isinstance(event, ev.PromptOpened):
            self._show_prompt()
        elif isinstance(event, ev.RollShown) and event.draft is not None:     # (a log record: `show_record`)
            if event.pending:
                self._show_result(event.draft, event.result, pending=True)
            else:
                self._rolled(event.draft, event.result, event.record)
        elif isinstance(event, ev.RollEnded):
            self._ended(event.kept)
        elif isinstance(event, ev.GmOnlyChanged):
            self._show_gm_only()

    def use_difficulty(self, value: int) -> None:
        """Put the chosen difficulty in the line, replacing the one typed."""
        from gmscreen.play.quickroll.line_edit import with_difficulty

        token = self.table.game.line.difficulty_token(value) if self.table is not None else str(value)
        self.line.set_text(with_difficulty(self.line.value, self.draft, token))

    # ------------------------------------------------------------ typing

    def completion_for(self, value: str, cursor: int) -> Completion | None:
        return self.table.complete(value, cursor) if self.table is not None else None

    def hint(self, candidates: tuple[str, ...]) -> None:
        """Tab with several completions: listed in the odds row."""
        self._set_info(Content.assemble(("↹ " if not self.ascii else "tab: ", "bold"),
                                        literal(" · ".join(candidates[:12]))))

    def on_quick_roll_line_changed(self, event: QuickRollLine.Changed) -> None:
        event.stop()
        self._reparse(event.value)

    def on_quick_roll_line_grammar_asked(self, event: QuickRollLine.GrammarAsked) -> None:
        event.stop()
        self.show_grammar()

    def show_grammar(self) -> None:
        from gmscreen.ui.widgets.tray.grammar_help import GrammarHelp

        self.app.push_screen(GrammarHelp.of(self.session.campaign if self.session else None))

    def _reparse(self, value: str, *, again: bool = False) -> None:
        """The line as it now reads, handed to the table (its `DraftChanged` is drawn); a line the
        table holds already (emptied by the roll it made) is not read twice unless `again`."""
        if self.table is None:
            self._show_draft_info()
        elif again or self.table.line != value:
            self.table.type_line(value)

    def _draft_visibility(self) -> Sight:
        """What the players may see of the roll typed (or waiting for a choice) right now: the
        table's decision (`Table.sight`), everything while they are not watching."""
        if not self.players_watching or self.table is None:
            return PUBLIC
        return self.table.sight()

    def _show_watched(self) -> None:
        """Players came or went: the line, its odds, the difficulty table and a pending choice
        show the roll typed as they may see it."""
        if not self.is_mounted:
            return
        self._show_draft_info()
        if self.flow is not None and self.flow.prompt is not None:
            self.choice_view.update(self._prompt_content())

    def _prompt_content(self) -> Content:
        flow = self.flow
        assert flow is not None and flow.prompt is not None
        return watched_prompt_content(flow.prompt, self._draft_visibility(), who=flow.draft.who, ascii=self.ascii)

    def _show_draft_info(self) -> None:
        visible = self._draft_visibility()
        self.line.password = not visible.whole      # what was typed says the difficulty, or names a hidden side
        if self.info.show_draft(self.draft, self.error, visible, gm_only=self.gm_only, ascii=self.ascii,
                                room=max(20, self.app.size.width - 4)):
            self._fit_info_row()

    def _set_info(self, content: Content, *, error: bool = False) -> None:
        self.info.say(content, error=error)
        self._fit_info_row()

    def _fit_info_row(self) -> None:
        self.info.fit(self.result_view.rows, self.content_size.height - 2)    # (the line and the odds row)

    # ------------------------------------------------------------ keys in the line

    def action_leave(self) -> None:
        previous = self._previous_focus
        if previous is not None and previous.is_attached and previous.focusable:
            previous.focus()
        else:
            self.app.set_focus(None)

    def action_toggle_gm_only(self) -> None:
        self.toggle_gm_only()

    def action_repeat_last(self) -> None:
        self.repeat_last()

    # ------------------------------------------------------------ rolling

    def on_quick_roll_line_submitted(self, event: QuickRollLine.Submitted) -> None:
        event.stop()
        self.submit(event.value)

    def submit(self, value: str) -> None:
        """Enter: the table reads, rolls and asks any choice (or says why not); drawn in `hear`."""
        table = self.table
        if table is None or self.session is None:
            return
        if self.flow is not None and self.flow.prompt is not None:
            self.choice_view.focus()
            return
        if not value.strip():
            return
        if table.submit(value) is None:
            self.app.bell()
        self.line.forget_position()

    def _show_prompt(self) -> None:
        flow = self.flow
        if flow is None or flow.prompt is None:
            return
        self.choice_view.open(flow.prompt, self._prompt_content())
        self.add_class("-choosing")
        self.app.refresh_bindings()

    def on_choice_prompt_picked(self, event: ChoicePrompt.Picked) -> None:
        """One key of the pending choice."""
        event.stop()
        table, roll = self.table, self.roll
        if table is not None and roll is not None and roll.prompt is not None and not table.choose(event.key):
            self.app.bell()

    def on_choice_prompt_cancelled(self, event: ChoicePrompt.Cancelled) -> None:
        """Escape: a choice asked before any die (Te Deum's Providence) gives the roll up, nothing
        logged or spent. Once the dice are on the table, abandoning would drop a roll the players
        saw (and let it be rolled again): the prompt stays, and says why."""
        event.stop()
        flow = self.flow
        if flow is not None and flow.prompt is not None and flow.result is not None:
            self.app.bell()
            keys = " / ".join(o.key for o in flow.prompt.options)
            self.host.warn(_("the dice are cast: choose ({keys})").format(keys=keys))
        elif self.table is not None:
            self.table.cancel_roll()

    def _close_prompt(self) -> None:
        self.choice_view.close()
        self.remove_class("-choosing")

    def _ended(self, kept: bool) -> None:
        self._close_prompt()
        if kept:
            self._set_info(literal(_("choice impossible: the roll is logged as it stood"), "$warning"))
        else:
            self._set_info(literal(_("roll abandoned: nothing is logged"), "$warning"))
        self.line.focus()
        self.app.refresh_bindings()

    def _rolled(self, draft: Draft, result: dict[str, Any], record: RollRecord | None) -> None:
        """Logged, spent, its timer started (`TableRoll.finish`): the result shown."""
        self._close_prompt()
        self._show_result(draft, result, record=record)
        self.line.value = ""
        self.line.focus()
        self.app.refresh_bindings()

    # ------------------------------------------------------------ showing a result

    def _show_result(self, draft: Draft, result: dict[str, Any], *, record: RollRecord | None = None,
                     pending: bool = False) -> None:
        from gmscreen.ui.widgets.tray.shown_roll import shown_from_draft

        self.result_view.shown = shown_from_draft(
            draft, result, campaign=self.session.campaign if self.session else None, gm_only=self.gm_only,
            notable=notable_luck(self.app), record=record, pending=pending)
        self._render_shown()

    @property
    def players_watching(self) -> bool:
        """One state of the screen, held by the host: the log's `w` turns it on and off."""
        return self.host.players_watching

    def on_resize(self, event: events.Resize) -> None:
        if self.result_view.shown is not None:
            self._render_shown()
        if self.draft is not None and self.error is None:
            self.call_after_refresh(self._show_draft_info)     # what the odds assume, in the new room

    def _render_shown(self) -> None:
        if self.result_view.shown is None or not self.is_mounted:
            return
        self.result_view.redraw(watching=self.players_watching, ascii=self.ascii, room=max(20, self.size.width - 4))
        self._fit_info_row()          # unmasked, revealed, resized: the result may need the row now

    def _update_title(self) -> None:
        if self.session is None:
            return
        sep = " | " if self.ascii else " · "    # --ascii: nothing but ASCII chrome
        title = f"{_('Dice')}{sep}{get_system(self.session.campaign.system).game}"
        if self.gm_only:
            title += f"{sep}{_('GM only')}"
        set_title(self, title)

