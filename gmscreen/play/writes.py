"""What the table writes: a roll logged, one undoable change, each refusal told once, never raised.

`TableWrites` is the write half of the live table and the one place these steps live: the
`Table` builds on it, and a roll played with no table around it (`TableRoll(session, draft)`,
a test, a script) writes through a bare one. What the GM is to be told comes out as a
`Notice` to whoever subscribed; nothing is half done. Light on purpose (the campaign modules
only, imported when first used): the screen builds its table before the quick-roll grammar is
loaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol

from gmscreen.i18n import _

from . import events as ev
from .public import Visibility, visibility

if TYPE_CHECKING:
    from gmscreen.campaign.model import RollRecord
    from gmscreen.campaign.session import CampaignSession, EditBuilder

Listener = Callable[[ev.Event], object]


class RollTable(Protocol):
    """Where a roll and its spending land: what `TableRoll`, the joins and the timers write
    through (a `Table`, or a bare `TableWrites`)."""

    def record_roll(self, *, who: str, line: str, request: Mapping[str, Any], result: Mapping[str, Any],
                    gm_only: bool = False, seed: int | None = None,
                    pending: str | None = None) -> RollRecord | None: ...

    def change(self, label: str, build: Callable[[EditBuilder], None]) -> bool: ...

    def warn(self, message: str, severity: str = "warning") -> None: ...


class TableWrites:
    """One open session's writes and the events they make. `subscribe` to hear them."""

    def __init__(self, session: CampaignSession) -> None:
        self.session = session
        self._listeners: list[Listener] = []

    # ------------------------------------------------------------ events

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener(event)` for each event from now on; returns the way to stop."""
        self._listeners.append(listener)

        def stop() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return stop

    def emit(self, event: ev.Event) -> None:
        for listener in list(self._listeners):
            listener(event)

    def warn(self, message: str, severity: str = "warning", *, secret: bool = False,
             routine: bool = False) -> None:
        """Tell the GM something (`secret`: it names what the players may not see)."""
        self.emit(ev.Notice(message, severity, routine,
                            visibility=Visibility.SECRET if secret else Visibility.PUBLIC))

    def tell(self, message: str) -> None:
        """What a routine action did (the screen says it on its status line, not in a toast)."""
        self.warn(message, "information", routine=True)

    # ------------------------------------------------------------ writes

    @property
    def writable(self) -> bool:
        return not self.session.read_only and not self.session.closed

    def may_edit(self) -> bool:
        """The campaign takes changes; else False, the GM told why."""
        if self.writable:
            return True
        reason = getattr(self.session, "read_only_reason", "") or _("read-only")
        self.warn(_("campaign open read-only ({reason}): nothing is changed").format(reason=reason))
        return False

    def change(self, label: str, build: Callable[[EditBuilder], None]) -> bool:
        """Apply `build(b)` as one undoable change; False (the GM told why) when it is refused or
        does not fit the campaign (a path gone, an index out of range), and nothing is half
        applied then. A programming mistake in `build` (a TypeError…) is raised, not hidden."""
        from gmscreen.campaign.errors import CampaignError
        from gmscreen.campaign.session import ReadOnlyError

        try:
            with self.session.edit(label) as builder:
                build(builder)
        except ReadOnlyError as exc:
            self.warn(str(exc))
            return False
        except CampaignError as exc:        # said by names ("Ada Quill · Inspired: …"), not the file's paths
            from .problem_words import problem_words

            said = "; ".join(problem_words(p, self.session.campaign) for p in exc.problems)
            self.warn(said or str(exc), "error")
            return False
        except (ValueError, KeyError, IndexError) as exc:       # ChangeError is a ValueError
            path = getattr(exc, "path", None)
            if path and isinstance(path, tuple):      # a value refused: said by names, as above
                from .problem_words import where_words

                where = where_words(path, self.session.campaign)
                self.warn(_("{about}: {problem}").format(about=where, problem=getattr(exc, "reason", exc)), "error")
            else:
                self.warn(f"{label}: {exc}", "error")
            return False
        self.changed("change", label)
        return True

    def changed(self, how: str, label: str = "") -> None:
        """The campaign changed (a change, undo, redo, or taken in from disk): said to all."""
        self.emit(ev.CampaignChanged(how, label))

    def record_roll(self, *, who: str, line: str, request: Mapping[str, Any], result: Mapping[str, Any],
                    gm_only: bool = False, seed: int | None = None, pending: str | None = None) -> RollRecord | None:
        """Log a roll (durable when this returns); None, the GM told why, when it cannot be. A
        read-only campaign shows the roll but cannot keep it: said too."""
        from gmscreen.campaign.errors import CampaignError
        from gmscreen.campaign.session import ReadOnlyError

        try:
            record = self.session.record_roll(who=who, line=line, request=request, result=result,
                                              gm_only=gm_only, seed=seed, pending=pending)
        except ReadOnlyError as exc:
            self.warn(_("roll not logged: {reason}").format(reason=exc))
            return None
        except CampaignError as exc:
            self.warn(_("roll not logged: {reason}").format(reason="; ".join(str(p) for p in exc.problems)),
                      "error")
            return None
        if self.session.read_only:
            self.warn(_("read-only campaign: the roll is shown but not saved"))
        self.emit(ev.RollLogged(record, visibility=visibility(record)))
        return record

    def show_record(self, record: RollRecord) -> None:
        """A roll logged by a pane (an interval of a timer): shown where dice are shown."""
        self.emit(ev.RollShown(None, record.result, record, visibility=visibility(record)))


__all__ = ["Listener", "RollTable", "TableWrites"]
