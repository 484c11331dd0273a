"""The campaign file changed on disk (a hand edit, git, a sync tool): taken in, or asked about.

Every few seconds the app looks at the file in a thread (a stat; the hash and the parse only
when it changed), and acts on what it found in its own queue, in order with the keys. With
nothing unsaved the outside version is taken in; when both sides changed the GM chooses
(`screens/disk_conflict.py`), and the session writes nothing meanwhile.
"""

from __future__ import annotations

import asyncio
from typing import Any

from gmscreen.i18n import _

DISK_CHECK_SECONDS = 2.0


class DiskWatch:
    """Owned by the app; `look` runs on its interval."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.busy = False           # a look at the disk is under way
        self.asking = False         # the conflict screen is open, or its choice being carried out

    async def look(self) -> None:
        app = self.app
        session = app.session
        if session is None or session.closed or session.read_only or self.busy or self.asking:
            return
        if len(app.screen_stack) > 1:
            return                  # a dialog is open: its change would be made on the old text
        self.busy = True
        try:
            found = None if session.disk_conflict is not None else await asyncio.to_thread(session.look_at_disk)
            if found is not None or session.disk_conflict is not None:
                app.call_later(self._found, session, found)
        except Exception as exc:    # noqa: BLE001 - looked at again at the next tick
            app.warn(_("{name}: cannot look at the file on disk ({problem})").format(name=session.path.name,
                                                                                    problem=exc), "error")
        finally:
            self.busy = False

    def _found(self, session: Any, found: Any) -> None:
        app = self.app
        if session is not app.session or session.closed or self.asking or len(app.screen_stack) > 1:
            return
        if found is not None:
            if app.table is not None and app.table.roll_waiting:
                return              # a roll waits for its choice: looked at again later
            try:
                event = session.take_in(found)
            except Exception as exc:  # noqa: BLE001 - said; the file is looked at again later
                app.warn(_("{name}: the version on disk was not loaded ({problem})").format(
                    name=session.path.name, problem=exc), "error")
                return
            self._say(session, event)
        if session.disk_conflict is not None:
            from .screens.disk_conflict import DiskConflictScreen

            self.asking = True
            problems = [str(p) for p in session.disk_conflict.problems]
            app.push_screen(DiskConflictScreen(session.path, problems),
                            lambda choice: app.run_worker(self._resolve(session, choice), group="disk",
                                                          exit_on_error=False))

    def _say(self, session: Any, event: Any) -> None:
        app = self.app
        name = session.path.name
        if event is None:
            return
        if event.kind == "taken":
            app.refresh_views()
            app.refresh_bindings()
            app.show_status()
            app.warn(_("{name} was changed on disk: its new version is loaded (nothing was waiting to be "
                       "saved)").format(name=name), "information")
        elif event.kind == "invalid":
            first = str(event.problems[0]) if event.problems else ""
            app.warn(_("{name} was changed on disk but does not load ({problem}): the screen keeps its "
                       "version, their file is not touched").format(name=name, problem=first), "error")
        elif event.kind == "missing":
            app.warn(_("{name} is gone from the disk: it will be written again at the next save").format(name=name))

    async def _resolve(self, session: Any, choice: str | None) -> None:
        """The GM's choice, carried out in a thread (side files, a save), then shown."""
        from gmscreen.campaign.errors import CampaignError

        app = self.app
        name = session.path.name
        try:
            side = await asyncio.to_thread(session.resolve_conflict, choice or "both")
        except (CampaignError, OSError, ValueError) as exc:
            from gmscreen.i18n import os_reason
            from gmscreen.play.problem_words import problem_words

            message = ("; ".join(problem_words(p, session.campaign, session.path) for p in exc.problems)
                       if isinstance(exc, CampaignError) else os_reason(exc) if isinstance(exc, OSError) else str(exc))
            app.warn(_("{name}: the choice could not be carried out ({problem}); you will be asked again").format(
                name=name, problem=message), "error")
            return
        finally:
            self.asking = False
        if session is not app.session:
            return
        app.refresh_views()
        app.refresh_bindings()
        app._show_save_state("" if session.dirty else "saved")
        kept = side.name if side is not None else "—"
        choice = choice if choice in ("theirs", "mine", "both") else "both"
        if side is None:
            said = (_("the version of {name} on disk is loaded") if choice != "mine"
                    else _("your version of {name} is saved"))
        elif choice == "theirs":
            said = _("the version of {name} on disk is loaded; your changes are kept in {kept}")
        elif choice == "mine":
            said = _("your version of {name} is saved; the one on disk is kept in {kept}")
        else:
            said = _("the version of {name} on disk is loaded; yours is saved beside it: {kept}")
        app.warn(said.format(name=name, kept=kept), "information")
