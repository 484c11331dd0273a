"""The campaign file changed on disk (a hand edit, git, a sync tool): taken in, or asked about.

Every few seconds the app looks at the file in a thread (a stat; the hash and the parse only
when it changed), and acts on what it found in its own queue, in order with the keys. With
nothing unsaved the outside version is taken in; when both sides changed the GM chooses
(`screens/disk_conflict.py`), and the session writes nothing meanwhile.
"""

from __future__ import annotations

import asyncio
from typing import Any

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
            app.warn(f"{session.path.name} : impossible de regarder le fichier sur le disque ({exc})", "error")
        finally:
            self.busy = False

    def _found(self, session: Any, found: Any) -> None:
        app = self.app
        if session is not app.session or session.closed or self.asking or len(app.screen_stack) > 1:
            return
        if found is not None:
            if app.roll_waiting():
                return              # a roll waits for its choice: looked at again later
            try:
                event = session.take_in(found)
            except Exception as exc:  # noqa: BLE001 - said; the file is looked at again later
                app.warn(f"{session.path.name} : version du disque non chargée ({exc})", "error")
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
            app.warn(f"{name} a été modifié sur le disque : sa nouvelle version est chargée "
                     "(rien n'attendait d'être enregistré)", "information")
        elif event.kind == "invalid":
            first = str(event.problems[0]) if event.problems else ""
            app.warn(f"{name} a été modifié sur le disque mais ne se charge pas ({first}) : l'écran garde "
                     "sa version, leur fichier n'est pas touché", "error")
        elif event.kind == "missing":
            app.warn(f"{name} a disparu du disque : il sera réécrit au prochain enregistrement")

    async def _resolve(self, session: Any, choice: str | None) -> None:
        """The GM's choice, carried out in a thread (side files, a save), then shown."""
        from gmscreen.campaign.errors import CampaignError

        app = self.app
        name = session.path.name
        try:
            side = await asyncio.to_thread(session.resolve_conflict, choice or "both")
        except (CampaignError, OSError, ValueError) as exc:
            message = "; ".join(str(p) for p in exc.problems) if isinstance(exc, CampaignError) else str(exc)
            app.warn(f"{name} : choix impossible ({message}) ; la question reviendra", "error")
            return
        finally:
            self.asking = False
        if session is not app.session:
            return
        app.refresh_views()
        app.refresh_bindings()
        app._show_save_state("" if session.dirty else "saved")
        kept = side.name if side is not None else "—"
        said = {"theirs": f"la version du disque de {name} est chargée ; vos changements sont gardés dans {kept}",
                "mine": f"votre version de {name} est enregistrée ; celle du disque est gardée dans {kept}",
                "both": f"la version du disque de {name} est chargée ; la vôtre est enregistrée à côté : {kept}"}
        message = said[choice if choice in said else "both"]
        app.warn(message if side is not None else message.split(" ; ")[0], "information")
