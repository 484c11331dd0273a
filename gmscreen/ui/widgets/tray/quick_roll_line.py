"""The quick-roll line: what the GM types, with its own keys (Tab completes, ↑ ↓ walk the
history, `?` asks for the grammar). It keeps no game state: the history and the completions
are its owner's (the tray's, read from the live table), and what the GM asks goes up as
messages, as Textual's `Input` does (`Changed`, `Submitted`, `GrammarAsked`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from textual.actions import SkipAction
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input
from textual.worker import Worker, WorkerState

from gmscreen.i18n import N_
from gmscreen.ui.widgets.tray.line_completion import LineSuggester, common_prefix

if TYPE_CHECKING:
    from gmscreen.play.quickroll import Completion
    from gmscreen.play.table import Table

# `/` is the key that brings the GM to the line: typed again there (the line already has the
# focus), it would start the line and hide what follows from the words read (`/mj` would not
# be seen as secret, and shown in clear while players watch). A line never starts with it.
LINE_START = r"(?s)(?!/).*"


class LineOwner(Protocol):
    """What the line asks of the tray that holds it."""

    @property
    def table(self) -> Table | None: ...

    @property
    def history(self) -> list[str]: ...

    def completion_for(self, value: str, cursor: int) -> Completion | None: ...

    def hint(self, candidates: tuple[str, ...]) -> None:
        """Several completions: they are listed where the odds are."""


class QuickRollLine(Input):
    """`#quick-roll`. Its `Changed` is held back for the first key typed (see `read_once`)."""

    BINDINGS = [
        # English ids (N_): the footer and the keys help translate them where they are shown.
        Binding("tab", "complete", N_("Complete"), show=False, id="dice-tray.complete"),
        Binding("up", "history(-1)", N_("Previous line"), show=False, id="dice-tray.history-previous"),
        Binding("down", "history(1)", N_("Next line"), show=False, id="dice-tray.history-next"),
    ]

    class Changed(Input.Changed):
        """The line reads differently: the table reads it again."""

    class Submitted(Input.Submitted):
        """Enter: roll what the line says."""

    class GrammarAsked(Message):
        """`?` typed alone: the grammar's help."""

    def __init__(self, owner: LineOwner, **kwargs: Any) -> None:
        super().__init__(suggester=LineSuggester(self), select_on_focus=False, restrict=LINE_START,
                         compact=True, **kwargs)
        self.owner = owner
        self.read_once = False          # the first key's line has been read (`_read_first`)
        self._first_read_due = False
        self._history_pos: int | None = None

    def restricted(self) -> None:
        """No bell: `/` is the key that came here, pressed once more."""

    def completion_for(self, value: str, cursor: int) -> Completion | None:
        return self.owner.completion_for(value, cursor)

    def set_text(self, text: str) -> None:
        """`text` in the line, the cursor at its end."""
        self.value = text
        self.cursor_position = len(text)

    def forget_position(self) -> None:
        """↑ starts again from the newest line (a roll made, a history read back)."""
        self._history_pos = None

    def load_history(self, table: Table) -> None:
        """After a restart, ↑ and `.` still know the lines of the roll log. Read in a thread from
        the newest rolls only: re-reading every logged line on the UI thread stopped the screen
        (and every key) for seconds on a long log."""
        from gmscreen.play.table import HISTORY

        recent, campaign = table.history_source()

        def read() -> tuple[Table, list[str]]:
            from gmscreen.play.quickroll.history import history_from_log
            from gmscreen.ui.terminal.quick_switch import give_way, quick_switches

            with quick_switches():          # the keys typed meanwhile do not wait for it
                return table, history_from_log(recent, campaign, HISTORY, pause=give_way, game=table.game)

        self.run_worker(read, thread=True, name="quick-roll-history", group="quick-roll-history",
                        exclusive=True, exit_on_error=False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.name != "quick-roll-history":
            return
        event.stop()
        if event.state == WorkerState.SUCCESS and event.worker.result is not None:
            table, lines = event.worker.result
            if table is self.owner.table and table is not None:     # (another campaign opened meanwhile)
                table.take_history(lines)     # lines typed before the log was read stay the newest
                self.forget_position()

    def _on_quick_roll_line_changed(self, event: Changed) -> None:
        """Runs on the line before the message goes up to the tray."""
        if event.value == "?":
            event.stop()
            self.value = ""
            self.post_message(self.GrammarAsked())
            return
        history, pos = self.owner.history, self._history_pos
        if pos is None or event.value != (history[pos] if pos < len(history) else ""):
            self._history_pos = None        # typed: ↑ starts again from the newest line
        if not self.read_once:
            # The first key typed: its echo goes out first, then the line is read (its grammar
            # loaded, its odds priced), as a key typed while the screen still starts up
            # would otherwise wait for all of it. Keys typed before that read are in it.
            event.stop()
            if not self._first_read_due:
                self._first_read_due = True
                self.call_after_refresh(self._read_first)

    def _read_first(self) -> None:
        """The first key's line, read once its echo is out; then the suggestion it was not
        given (`LineSuggester` waits for this)."""
        self.read_once = True
        self.post_message(self.Changed(self, self.value))
        if self.suggester is not None and self.value:
            self.run_worker(LineSuggester.ask(self, self.value))

    def action_complete(self) -> None:
        completion = self.completion_for(self.value, self.cursor_position)
        if completion is None or not completion.candidates:
            # Nothing to complete: the GM stays in the line (tab would otherwise go to the next
            # pane and the next keys would be pane keys); escape is the way out.
            self.app.bell()
            return
        if len(completion.candidates) == 1:
            self.value, self.cursor_position = completion.apply(self.value, completion.candidates[0])
            return
        # Several: complete their common beginning, and list them.
        common = common_prefix(completion.candidates)
        typed = self.value[completion.start:self.cursor_position]
        if len(common) > len(typed):
            self.value = self.value[:completion.start] + common + self.value[self.cursor_position:]
            self.cursor_position = completion.start + len(common)
        self.owner.hint(completion.candidates)

    def action_history(self, step: int) -> None:
        history = self.owner.history
        if not history:
            raise SkipAction()
        pos = len(history) if self._history_pos is None else self._history_pos
        pos = max(0, min(len(history), pos + step))
        self.set_text(history[pos] if pos < len(history) else "")
        self._history_pos = pos
