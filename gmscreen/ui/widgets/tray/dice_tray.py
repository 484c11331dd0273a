"""The dice tray: the quick-roll line, the exact odds of what is typed, the result, the choices.

The line, its draft, the roll in progress with its prompt, the GM-only flag and the history
are the live table's (`gmscreen.play.Table`, the host's `table`): this widget hands it what is
typed and the keys of a choice, and draws what its events say (`hear`). No game state here.

Its parts live next door: `roll_result` draws a result, `roll_odds` the odds row,
`choice_prompt` the pending choice, `line_completion` the completion, `grammar_help` the help.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Generic, Mapping, TypeVar, cast

from textual import events
from textual.app import ComposeResult
from textual.actions import SkipAction
from textual.binding import Binding
from textual.content import Content
from textual.widget import Widget
from textual.types import NoActiveAppError
from textual.widgets import Input
from textual.worker import Worker, WorkerState

from gmscreen import i18n
from gmscreen.i18n import N_, _
from gmscreen.rules import get_system

from gmscreen.ui.config import notable_luck
from gmscreen.play import events as ev
from gmscreen.ui.host import CampaignView
from gmscreen.ui.panes import set_title
from gmscreen.ui.sanitize import clean, literal
from gmscreen.ui.widgets.tray.choice_prompt import ChoicePrompt
from gmscreen.ui.widgets.tray.line_completion import LineSuggester, common_prefix
from gmscreen.ui.widgets.tray.result_view import RollResultView
from gmscreen.ui.widgets.tray.odds_row import OddsRow
from gmscreen.ui.widgets.tray.watched import (draft_visibility, line_visibility, watched_odds_content,
                                              watched_prompt_content)
from gmscreen.play.public import Sight

if TYPE_CHECKING:
    from gmscreen.play.quickroll import Completion, Draft, QuickRollError, RollFlow
    from gmscreen.play.table import Table
    from gmscreen.play.table_roll import TableRoll
    from gmscreen.campaign.model import RollRecord
    from gmscreen.campaign.session import CampaignSession

# The empty line's hint (an English id, translated where shown: the language may change live).
PLACEHOLDER = N_("/ quick roll — ? for the grammar")

# Names other modules (and tests) import from here, now defined next door.
__all__ = ["DIE_STYLES", "ChoicePrompt", "DiceTray", "GrammarHelp", "LineSuggester"]


def __getattr__(name: str) -> Any:
    """The names defined next door that the first frame does not need (the grammar's help,
    a roll's dice), imported when first asked for."""
    if name == "GrammarHelp":
        from gmscreen.ui.widgets.tray.grammar_help import GrammarHelp

        return GrammarHelp
    if name == "DIE_STYLES":
        from gmscreen.ui.widgets.tray.roll_result import DIE_STYLES

        return DIE_STYLES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

_HISTORY = 100               # lines the history keeps (the table's `HISTORY`)


def _qr() -> Any:
    """The quick-roll grammar: imported once the first frame is out (the app warms it up then),
    or at the first use, whichever comes first."""
    from gmscreen.play import quickroll

    return quickroll


# `/` is the key that brings the GM to the line: typed again there (the line already has the
# focus), it would start the line and hide what follows from the words read (`/mj` would not
# be seen as secret, and shown in clear while players watch). A line never starts with it.
LINE_START = r"(?s)(?!/).*"


T = TypeVar("T")


class _OfTable(Generic[T]):
    """A tray attribute that is the live table's own (read there; `default` with no table open):
    the tray keeps no game state."""

    def __init__(self, default: T) -> None:
        self.default = default
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, tray: DiceTray, owner: type) -> T:
        table = tray.table
        return self.default if table is None else cast(T, getattr(table, self.name))


class QuickRollInput(Input):
    """The quick-roll line: a `/` that would start it does nothing (see LINE_START)."""

    def restricted(self) -> None:
        """No bell: `/` is the key that came here, pressed once more."""


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
        Binding("tab", "complete", N_("Complete"), show=False, id="dice-tray.complete"),
        Binding("up", "history(-1)", N_("Previous line"), show=False, id="dice-tray.history-previous"),
        Binding("down", "history(1)", N_("Next line"), show=False, id="dice-tray.history-next"),
        Binding("ctrl+g", "toggle_gm_only", N_("GM-only"), id="dice-tray.gm-only"),
        Binding("ctrl+r", "repeat_last", N_("Repeat"), show=False, id="dice-tray.repeat"),
    ]

    def __init__(self, *, rng: random.Random | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._rng = rng                           # handed to the table (tests seed the dice)
        self.session: CampaignSession | None = None
        self._history_pos: int | None = None
        self._previous_focus: Widget | None = None
        self._history_of: CampaignSession | None = None   # the session whose log the history holds
        self.line_read_once = False               # the first key's line read (see `on_input_changed`)
        self._first_read_due = False
        # The parts, top to bottom: the line, the odds row, a pending choice, the result.
        self.line = QuickRollInput(placeholder=_(PLACEHOLDER), id="quick-roll", compact=True,
                                   suggester=LineSuggester(self), select_on_focus=False, restrict=LINE_START)
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

    roll: _OfTable[TableRoll | None] = _OfTable(None)      # the roll under way (`flow`: its steps)
    draft: _OfTable[Draft | None] = _OfTable(None)
    error: _OfTable[QuickRollError | None] = _OfTable(None)
    gm_only: _OfTable[bool] = _OfTable(False)
    selected: _OfTable[str | None] = _OfTable(None)
    last_line: _OfTable[str | None] = _OfTable(None)

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
        self.line.value = clean(text)
        self.line.cursor_position = len(self.line.value)
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
            self._load_history(session)
        if self.is_mounted and self.line_read_once and table is not None and table.line != self.line.value:
            self._reparse(self.line.value)          # a new table: the line typed is read by it

    def _load_history(self, session: CampaignSession) -> None:
        """After a restart, ↑ and `.` still know the lines of the roll log. Read in a thread from
        the newest rolls only: re-reading every logged line on the UI thread stopped the screen
        (and every key) for seconds on a long log."""
        table = self.table
        if table is None:
            return
        recent, campaign = table.history_source()

        def read() -> tuple[CampaignSession, list[str]]:
            from gmscreen.play.quickroll.history import history_from_log
            from gmscreen.ui.terminal.quick_switch import give_way, quick_switches

            with quick_switches():          # the keys typed meanwhile do not wait for it
                return session, history_from_log(recent, campaign, _HISTORY, pause=give_way, game=table.game)

        self.run_worker(read, thread=True, name="quick-roll-history", group="quick-roll-history",
                        exclusive=True, exit_on_error=False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.name == "quick-roll-history" and event.state == WorkerState.SUCCESS:
            assert event.worker.result is not None      # (a worker that succeeded has its result)
            session, lines = event.worker.result
            if session is self.session:
                self._take_history(lines)
        elif event.worker.name == "odds" and event.state == WorkerState.SUCCESS:
            if event.worker.result is self.draft and self.error is None:
                self._show_draft_info()            # priced: shown now (the memo has them)

    def _take_history(self, lines: list[str]) -> None:
        """Lines typed before the log was read (it is read after the first frame) stay the newest."""
        if self.table is not None:
            self.table.take_history(lines)
        self._history_pos = None

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
                self._show_draft()
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

        text = with_difficulty(self.line.value, self.draft, self._difficulty_token(value))
        self.line.value = text
        self.line.cursor_position = len(text)

    def _difficulty_token(self, value: int) -> str:
        if self.session is None:
            return str(value)
        from gmscreen.play.tables import table_for

        return table_for(self.session.campaign.system).line.difficulty_token(value)

    # ------------------------------------------------------------ typing

    def completion_for(self, value: str, cursor: int) -> Completion | None:
        if self.session is None:
            return None
        try:
            return _qr().complete(value, cursor, self.session.campaign, selected=self.selected)
        except _qr().QuickRollError:
            return None

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id != "quick-roll":
            return
        event.stop()
        if event.value == "?":
            self.line.value = ""
            self.show_grammar()
            return
        pos = self._history_pos
        if pos is None or event.value != (self.history[pos] if pos < len(self.history) else ""):
            self._history_pos = None        # typed: ↑ starts again from the newest line
        if not self.line_read_once:
            # The first key typed: its echo goes out first, then the line is read (its grammar
            # loaded, its odds priced), as a key typed while the screen still starts up
            # would otherwise wait for all of it. Keys typed before that read are in it.
            if not self._first_read_due:
                self._first_read_due = True
                self.call_after_refresh(self._read_first_line)
            return
        self._reparse(event.value)

    def _read_first_line(self) -> None:
        """The first key's line, read once its echo is out; then the suggestion it was not
        given (`LineSuggester` waits for this)."""
        self.line_read_once = True
        self._reparse(self.line.value)
        if self.line.suggester is not None and self.line.value:
            self.line.run_worker(LineSuggester.ask(self.line, self.line.value))

    def show_grammar(self) -> None:
        from gmscreen.rules.registry import system_ids

        # No campaign yet: the first game of the registry, as the help needs one.
        system = self.session.campaign.system if self.session else system_ids()[0]
        from gmscreen.ui.widgets.tray.grammar_help import GrammarHelp

        names = tuple(ch.name for ch in self.session.campaign.characters) if self.session else ()
        self.app.push_screen(GrammarHelp(system, names))          # the examples type this campaign's people

    def _reparse(self, value: str, *, again: bool = False) -> None:
        """The line as it now reads, handed to the table (its `DraftChanged` is drawn); a line the
        table holds already (emptied by the roll it made) is not read twice unless `again`."""
        if self.table is None:
            self._show_draft()
        elif again or self.table.line != value:
            self.table.type_line(value)

    def _show_draft(self) -> None:
        if self.draft is not None:
            self._publish(self.draft.odds_request, self.draft.label)
        else:
            self._publish(None, "")
        self._show_draft_info()

    def _publish(self, request: Mapping[str, Any] | None, label: str) -> None:
        if request is not None and not self._draft_visibility().whole:
            request, label = None, ""          # players watching: the difficulty table shows no choice
        self.host.set_draft(request, label)

    def _draft_visibility(self) -> Sight:
        """What the players may see of the roll typed (or waiting for a choice) right now."""
        draft = self.flow.draft if self.flow is not None else self.draft
        if draft is None and self.error is not None:        # a line that does not parse: its words say
            hidden = [ch.name for ch in self.session.campaign.characters if ch.hidden] if self.session else []
            return line_visibility(self.line.value, gm_only=self.gm_only, watching=self.players_watching,
                                   hidden_names=hidden)
        return draft_visibility(draft, gm_only=self.gm_only, watching=self.players_watching,
                                campaign=self.session.campaign if self.session is not None else None)

    def _show_watched(self) -> None:
        """Players came or went: the line, its odds, the difficulty table and a pending choice
        show the roll typed as they may see it."""
        if not self.is_mounted:
            return
        if self.draft is not None:
            self._publish(self.draft.odds_request, self.draft.label)
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
        draft = self.draft
        if self.error is not None:
            self.info.say_error(self.error, visible, ascii=self.ascii)
        elif draft is None:
            self.info.say(Content(""))
        elif not visible.whole:
            self.info.say(watched_odds_content(draft, visible, ascii=self.ascii))
        else:
            from gmscreen.ui.widgets.tray.odds_pricing import odds_ready

            if not odds_ready(self, draft):
                return              # the previous figure stays until these odds are priced
            self.info.say_odds(draft, gm_only=self.gm_only, ascii=self.ascii, room=max(20, self.app.size.width - 4))
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

    def action_complete(self) -> None:
        line = self.line
        if not line.has_focus:
            raise SkipAction()
        completion = self.completion_for(line.value, line.cursor_position)
        if completion is None or not completion.candidates:
            # Nothing to complete: the GM stays in the line (tab would otherwise go to the next
            # pane and the next keys would be pane keys); escape is the way out.
            self.app.bell()
            return
        if len(completion.candidates) == 1:
            value, cursor = completion.apply(line.value, completion.candidates[0])
            line.value = value
            line.cursor_position = cursor
            return
        # Several: complete their common beginning, and list them.
        common = common_prefix(completion.candidates)
        typed = line.value[completion.start:line.cursor_position]
        if len(common) > len(typed):
            line.value = line.value[:completion.start] + common + line.value[line.cursor_position:]
            line.cursor_position = completion.start + len(common)
        self._set_info(Content.assemble(("↹ " if not self.ascii else "tab: ", "bold"),
                                        literal(" · ".join(completion.candidates[:12]))))

    def action_history(self, step: int) -> None:
        if not self.history or not self.line.has_focus:
            raise SkipAction()
        pos = len(self.history) if self._history_pos is None else self._history_pos
        pos = max(0, min(len(self.history), pos + step))
        value = self.history[pos] if pos < len(self.history) else ""
        self.line.value = value
        self.line.cursor_position = len(value)
        self._history_pos = pos

    def action_toggle_gm_only(self) -> None:
        self.toggle_gm_only()

    def action_repeat_last(self) -> None:
        self.repeat_last()

    # ------------------------------------------------------------ rolling

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "quick-roll":
            return
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
        self._history_pos = None

    def _show_prompt(self) -> None:
        flow = self.flow
        if flow is None or flow.prompt is None:
            return
        view = self.choice_view
        view.ask(flow.prompt)
        view.update(self._prompt_content())
        view.add_class("-active")
        self.add_class("-choosing")
        view.focus()
        self.app.refresh_bindings()

    def choose(self, key: str) -> None:
        """One key of the pending choice."""
        table, roll = self.table, self.roll
        if table is None or roll is None or roll.prompt is None:
            return
        if not table.choose(key):
            self.app.bell()

    def warn_dice_cast(self, message: str) -> None:
        """Escape with dice on the table: the prompt says why it stays."""
        self.host.warn(message)

    def _close_prompt(self) -> None:
        view = self.choice_view
        view.done()
        view.remove_class("-active")
        view.update("")
        self.remove_class("-choosing")

    def cancel_flow(self) -> None:
        """Abandon a roll waiting for a choice asked before any die (Te Deum's Providence):
        nothing is logged or spent. Dice the table saw are never dropped: when a choice fails
        after them (a rules error), the roll is logged as it stood, each choice at its default."""
        if self.table is not None:
            self.table.cancel_roll()

    def _ended(self, kept: bool) -> None:
        self._close_prompt()
        if kept:
            self._set_info(literal(_("choice impossible: the roll is logged as it stood"), "$warning"))
        else:
            self._set_info(literal(_("roll abandoned: nothing is logged"), "$warning"))
        self.line.focus()
        self.app.refresh_bindings()

    def settle_pending(self) -> None:
        """The campaign is closing (quit, SIGHUP, another campaign) with a choice unanswered:
        each choice ends the roll as the table saw it (`Prompt.settles`), and the roll is logged."""
        if self.table is not None:
            self.table.settle()

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

