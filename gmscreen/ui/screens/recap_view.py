"""The recap of a session on the screen: offered by `N` once the new session has started (a
yes/no question), shown as Markdown (Textual's `Markdown`, imported only here: the first frame
never pays for it). A view of `gmscreen.play.recap`, read from the files in a thread; as
`gmscreen recap` without `--gm`, it is what the table may hear: secret rolls left out.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Label, Static

from gmscreen.i18n import N_, _

from ..terminal.steady import SteadyModalScreen


def offer_recap(app: Any, path: Path, session: int) -> None:
    """Ask whether to show the recap of `session` (the one just ended); show it on yes."""
    from .roster_dialogs import ConfirmScreen

    def answered(yes: bool | None) -> None:
        if yes:
            app.push_screen(RecapScreen(path, session))

    app.push_screen(ConfirmScreen(_("Show the recap of session {n}?").format(n=session),
                                  _("What changed, the fight, the notable rolls and each one's luck, to read "
                                    "aloud next time (gmscreen recap prints it too)."), yes=_("Show")), answered)


class RecapScreen(SteadyModalScreen[None]):
    """The recap in Markdown; escape or q closes it, the arrows scroll."""

    DEFAULT_CSS = """
    RecapScreen { align: center middle; }
    RecapScreen > .dialog {
        width: 95%;
        max-width: 110;
        height: 90%;
        border: round $border;
        background: $surface;
    }
    RecapScreen VerticalScroll { height: 1fr; }
    RecapScreen .hint { color: $text-muted; padding: 0 1; }
    """

    BINDINGS = [Binding("escape,q", "close", N_("Close"), id="recap.close")]

    def __init__(self, path: Path, session: int) -> None:
        super().__init__()
        self.path = Path(path)
        self.session_number = session
        self.markdown = ""              # the text shown, once read

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            with VerticalScroll(id="recap-scroll"):
                yield Static(_("Reading the session…"), id="recap-wait", markup=False)
            yield Label(_("escape: close · gmscreen recap {file} --session {n}").format(
                file=self.path.name, n=self.session_number), classes="hint", markup=False)

    def on_mount(self) -> None:
        self.query_one("#recap-scroll").focus()
        self.run_worker(self._read, thread=True, group="recap", exit_on_error=False)

    def _read(self) -> None:
        from gmscreen.campaign.errors import CampaignError
        from gmscreen.play.recap import RecapError, build_recap, recap_markdown
        from gmscreen.play.tables import table_for

        try:
            text = recap_markdown(build_recap(self.path, self.session_number, tables=table_for))
        except (CampaignError, RecapError, OSError) as exc:
            problems = getattr(exc, "problems", None)
            text = "; ".join(str(p) for p in problems) if problems else str(exc)
            self.app.call_from_thread(self._failed, text)
            return
        # mypy solves Textual's `Callable[..., T | Awaitable[T]]` as Never for a coroutine function
        self.app.call_from_thread(self._show, text)  # type: ignore[arg-type]

    def _failed(self, text: str) -> None:
        from ..sanitize import literal_text

        self.query_one("#recap-wait", Static).update(literal_text(_("No recap: {problem}").format(problem=text)))

    async def _show(self, text: str) -> None:
        from textual.widgets import Markdown

        self.markdown = text
        scroll = self.query_one("#recap-scroll")
        await self.query_one("#recap-wait").remove()
        await scroll.mount(Markdown(text, id="recap-markdown"))

    def action_close(self) -> None:
        self.dismiss(None)
