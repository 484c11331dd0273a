"""A screen opened read-only because another gmscreen held the campaign takes it once let go.

`gmscreen line`, `gmscreen turn`, another terminal or another browser tab (each its own
process) held the lock when this screen opened it, so it showed the campaign read-only. Every
LOCK_RETRY_SECONDS the lock is tried again in a thread (a non-blocking `flock`: nothing is read
while someone holds it). Once it is free the campaign is opened afresh — what the other
process saved, journalled and rolled taken in, a roll it left waiting settled — and swapped in
for the read-only one; the GM is told, and the keys write from then on. Until then the holder
named is the one holding it now, never a process that has ended.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from gmscreen.i18n import _

LOCK_RETRY_SECONDS = 0.5        # taken within a second of its release (a browser tab: the same)


def try_lock(path: Path) -> Any:
    """In a thread: the campaign opened with its lock (a new session), else who holds it (a
    string), else the exception that says why it cannot be opened now."""
    from gmscreen.campaign import open_session
    from gmscreen.campaign.errors import CampaignError, CampaignLocked

    try:
        return open_session(path, if_locked="raise", defer_rolls=True)
    except CampaignLocked as exc:
        return exc.holder
    except (CampaignError, OSError, UnicodeError, ValueError) as exc:
        return exc


class LockRetry:
    """Owned by the app; `look` runs on its interval."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.busy = False

    def waiting(self, session: Any) -> bool:
        """This session is read-only only because another process holds its lock."""
        return (session is not None and not session.closed and session.read_only
                and session.lock_holder is not None)

    def _quiet(self) -> bool:
        """Nothing is under way on the read-only session that a swap would cut: no dialog
        editing it, no roll waiting for a choice."""
        app = self.app
        return len(app.screen_stack) <= 1 and not (app.table is not None and app.table.roll_waiting)

    async def look(self) -> None:
        app = self.app
        session = app.session
        if self.busy or not self.waiting(session) or not self._quiet():
            return
        self.busy = True
        try:
            found = await asyncio.to_thread(try_lock, Path(session.path))
        finally:
            self.busy = False
        self._found(session, found)

    def _found(self, session: Any, found: Any) -> None:
        from gmscreen.campaign.session import CampaignSession

        app = self.app
        if not isinstance(found, CampaignSession):
            if isinstance(found, str) and found != session.lock_holder and not session.closed:
                session.held_by(found)          # another process took it meanwhile: name that one
            return                              # (a file that cannot be opened now: tried again later)
        if session is not app.session or not app.is_running or not self.waiting(session) or not self._quiet():
            found.close()                       # let go at once: asked again at the next tick
            return
        self._take_over(session, found)

    def _take_over(self, old: Any, fresh: Any) -> None:
        app = self.app
        app.session = fresh
        old.close()                             # read-only: writes nothing
        recovered = fresh.recover_pending()     # a roll the other screen left waiting: logged
        app.refresh_views()
        app.refresh_bindings()
        app.show_status()
        name = fresh.path.name
        if fresh.read_only:
            app.warn(_("{name} is open read-only ({reason}): changes and rolls are not saved").format(
                name=name, reason=fresh.read_only_reason), "warning")
        else:
            app.warn(_("{name} is no longer open elsewhere: this screen now saves its changes and rolls").format(
                name=name), "information")
        from gmscreen.play.problem_words import problem_words

        app._warn_all([problem_words(p, fresh.campaign, fresh.path) for p in fresh.warnings
                       if p not in old.warnings and "read-only" not in p.message],
                      "warning", f"gmscreen validate {fresh.path}")
        if recovered is not None:
            secret = recovered.gm_only or bool(recovered.result.get("hidden"))
            what = _("the GM's secret roll") if secret else f"{recovered.who} · {recovered.line}"
            app.warn(_("roll shown before the stop, logged as it stood: {roll}").format(roll=what))
        app._load_rolls(fresh)                  # the log as the other process left it, in a thread
