"""The full save of the campaign file, off the UI thread, a moment after the last change.

Every change is already durable in the journal when `change` returns; this layer writes the
file whole (atomic, the GM's comments kept) `SAVE_DELAY` seconds after the last one, and says
so only when it fails.
"""

from __future__ import annotations

from typing import Any

from gmscreen.i18n import _

from .host import CampaignHost

# Seconds after the last change before the full (atomic) save runs in a thread.
SAVE_DELAY = 0.5


class AppAutosave(CampaignHost):
    """The host, saving its campaign file a moment after each change."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._save_timer: Any = None

    @property
    def writable(self) -> bool:
        return self.session is not None and not self.session.read_only and not self.session.closed

    def after_change(self) -> None:
        super().after_change()
        self.schedule_save()

    def schedule_save(self) -> None:
        if not self.writable:
            return
        if self._save_timer is not None:
            self._save_timer.stop()
        self._save_timer = self.set_timer(SAVE_DELAY, self._start_save)

    def save_soon(self) -> None:
        """The save a change would start a moment later, started at once (palette "Save now")."""
        if self._save_timer is not None:
            self._save_timer.stop()
        self._start_save()

    def _start_save(self) -> None:
        self._save_timer = None
        self.run_worker(self._save_in_thread, thread=True, group="autosave", exit_on_error=False,
                        name="autosave")

    def _save_in_thread(self) -> None:
        from gmscreen.campaign.errors import CampaignError

        session = self.session
        if session is None or session.closed:
            return
        try:
            notice = session.save_now()
        except (CampaignError, OSError) as exc:
            from gmscreen.i18n import os_reason
            from gmscreen.play.problem_words import problem_words

            message = ("; ".join(problem_words(p, session.campaign, session.path) for p in exc.problems)
                       if isinstance(exc, CampaignError) else os_reason(exc))
            self.call_from_thread(self.warn, _("save failed (changes kept in the journal): {problem}").format(
                problem=message), "error")
            return
        if notice:          # written whole, its comments kept: said once
            self.call_from_thread(self.warn, notice, "warning")
