"""The row under the quick-roll line: the exact odds of what is typed, or why it does not read,
each as the players may see it while they watch; given up while empty to a result that needs
the room."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.content import Content
from textual.message import Message
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from gmscreen.ui.sanitize import literal
from gmscreen.ui.widgets.tray.watched import watched_error_content, watched_odds_content

if TYPE_CHECKING:
    from gmscreen.play.exchange import Draft
    from gmscreen.play.public import Sight
    from gmscreen.play.quickroll import QuickRollError


class OddsRow(Static):
    """`say` what the line reads as; `fit` beside the result shown."""

    class Priced(Message):
        """The odds of `draft` are in the memo now: the tray shows them if it still reads so."""

        def __init__(self, draft: Draft) -> None:
            super().__init__()
            self.draft = draft

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("", markup=False, **kwargs)
        self.empty = True                   # nothing to say: the row may give way to the result

    def say(self, content: Content, *, error: bool = False) -> None:
        """Two rows for an error rather than a cut message."""
        self.set_class(error, "-error")
        self.update(content)
        self.empty = not content.plain

    def show_draft(self, draft: Draft | None, error: QuickRollError | None, visible: Sight, *, gm_only: bool,
                   ascii: bool, room: int) -> bool:
        """What the line reads as, as the players may see it (`visible`). False while its odds
        are being priced: the previous figure stays, and `Priced` comes once they are in the
        memo (`odds_pricing`)."""
        if error is not None:
            self.say_error(error, visible, ascii=ascii)
        elif draft is None:
            self.say(Content(""))
        elif not visible.whole:
            self.say(watched_odds_content(draft, visible, ascii=ascii))
        else:
            from gmscreen.ui.widgets.tray.odds_pricing import odds_ready

            if not odds_ready(self, draft):
                return False
            self.say_odds(draft, gm_only=gm_only, ascii=ascii, room=room)
        return True

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.name == "odds" and event.state == WorkerState.SUCCESS and event.worker.result is not None:
            self.post_message(self.Priced(event.worker.result))

    def say_error(self, error: QuickRollError, visible: Sight, *, ascii: bool) -> None:
        if not visible.whole:                                # the error quotes what was typed
            self.say(watched_error_content(visible, ascii=ascii), error=True)
        elif error.code in ("missing", "refused"):           # what the line lacks, or the game forbids now
            self.say(literal(error.message, "$warning"), error=True)
        else:
            from gmscreen.ui.widgets.tray.roll_odds import error_content

            self.say(error_content(error, ascii=ascii), error=True)

    def say_odds(self, draft: Draft, *, gm_only: bool, ascii: bool, room: int) -> None:
        """The chance before and after its modifier, fitted to the row (`room`: the width to
        assume before the first layout)."""
        from gmscreen.ui.widgets.tray.odds_fit import fit_odds
        from gmscreen.ui.widgets.tray.roll_odds import odds_content

        width = self.size.width or room

        def row(d: Draft, tail: bool) -> Content:
            return odds_content(d, gm_only=gm_only or d.gm_only, ascii=ascii, width=width, tail=tail)

        self.say(fit_odds(draft, width, lambda d: row(d, False), ascii=ascii, shown=lambda d: row(d, True)))

    def fit(self, result_rows: int, room: int) -> None:
        """An empty row gives way only to a result taller than the `room` left beside it (a
        contest at 80×24): giving it up for any result would resize the result on every roll,
        and Textual sends a resized widget down the wire a second time."""
        self.set_class(self.empty and result_rows > room, "-empty")
