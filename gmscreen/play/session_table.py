"""Writes at the table: a roll logged, one undoable change, each refusal said once, never raised.

The screen's host and the command line (`gmscreen line`, `gmscreen turn`) write through the
same steps, so a read-only or refused campaign tells the GM the same thing everywhere. Light on
purpose (the campaign modules only, imported when first used): the screen calls it before the
quick-roll grammar is loaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol

from gmscreen.i18n import _

if TYPE_CHECKING:
    from gmscreen.campaign.model import RollRecord
    from gmscreen.campaign.session import CampaignSession, EditBuilder


class RollTable(Protocol):
    """Where a roll lands. The screen's host fits it as it is (`CampaignHost`)."""

    def record_roll(self, *, who: str, line: str, request: Mapping[str, Any], result: Mapping[str, Any],
                    gm_only: bool = False, seed: int | None = None,
                    pending: str | None = None) -> RollRecord | None: ...

    def change(self, label: str, build: Callable[[EditBuilder], None]) -> bool: ...

    def warn(self, message: str, severity: str = "warning") -> None: ...


class SessionTable:
    """The session itself as the table: the same journal, undo and roll log as the screen's.
    What the GM is to be told is kept in `warnings` and handed to `tell` (the screen's notices)
    when there is one; nothing raises."""

    def __init__(self, session: CampaignSession, tell: Callable[[str, str], None] | None = None) -> None:
        self.session = session
        self.warnings: list[str] = []
        self._tell = tell

    def record_roll(self, *, who: str, line: str, request: Mapping[str, Any], result: Mapping[str, Any],
                    gm_only: bool = False, seed: int | None = None, pending: str | None = None) -> RollRecord | None:
        from gmscreen.campaign.errors import CampaignError
        from gmscreen.campaign.session import ReadOnlyError

        try:
            record = self.session.record_roll(who=who, line=line, request=request, result=result,
                                              gm_only=gm_only, seed=seed, pending=pending)
        except ReadOnlyError as exc:
            self.warn(_("roll not logged: {reason}").format(reason=exc))
            return None
        except CampaignError as exc:
            self.warn(_("roll not logged: {reason}").format(reason="; ".join(str(p) for p in exc.problems)), "error")
            return None
        if self.session.read_only:
            self.warn(_("read-only campaign: the roll is shown but not saved"))
        return record

    def change(self, label: str, build: Callable[[EditBuilder], None]) -> bool:
        """Apply `build(b)` as one undoable change; False (the GM told why) when it is refused,
        and nothing is half-applied then."""
        from gmscreen.campaign.changes import ChangeError
        from gmscreen.campaign.errors import CampaignError
        from gmscreen.campaign.session import ReadOnlyError

        try:
            with self.session.edit(label) as builder:
                build(builder)
        except ReadOnlyError as exc:
            self.warn(str(exc))
            return False
        except CampaignError as exc:
            self.warn("; ".join(str(p) for p in exc.problems) or str(exc), "error")
            return False
        except (ChangeError, ValueError, KeyError, IndexError, TypeError) as exc:
            self.warn(f"{label}: {exc}", "error")
            return False
        return True

    def warn(self, message: str, severity: str = "warning") -> None:
        self.warnings.append(message)
        if self._tell is not None:
            self._tell(message, severity)
