"""No frame dropped on odds: the tray prices what is typed within a frame, or off its thread.

Most odds take well under a millisecond; a few (a Magisphère opposition with dozens of
Impulsions on each side) take tens. The tray waits for them at most `ODDS_WAIT` (under a
frame at 60 fps); past that they are priced in the pricing thread (`chances.price_soon`),
an exclusive worker waits for them, and the tray keeps its previous figure until they are
in the memo. The next keystroke replaces the worker and drops a pricing not yet started, so
keys are answered in order at once and only the last line is priced.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gmscreen.play import chances
from gmscreen.play.choice_odds import assumed

if TYPE_CHECKING:
    from gmscreen.play.quickroll import Draft

ODDS_WAIT = 0.012          # seconds the screen's thread may wait for odds (a frame is 16.7 ms)


def odds_ready(tray: Any, draft: Draft) -> bool:
    """True when the odds `draft` shows are in the memo (priced now, within `ODDS_WAIT`); else
    False, with an exclusive worker "odds" of `tray` returning `draft` once they are."""
    requests = shown_requests(draft)
    future = chances.price_soon(requests, ODDS_WAIT)
    if future is None:
        return True

    def wait() -> Any:
        future.result()
        return draft

    tray.run_worker(wait, thread=True, name="odds", group="odds", exclusive=True, exit_on_error=False)
    return False


def shown_requests(draft: Draft) -> list[dict[str, Any]]:
    """Every request whose chance the odds row says: the roll typed, without its modifier,
    without its conditions, and played the other way when the odds assume a choice."""
    choice = assumed(draft)
    requests = (draft.odds_request, draft.baseline, draft.unconditioned, choice.request if choice else None)
    return [r for r in requests if r]
