"""An open campaign: the only writer of its files, with undo/redo and crash recovery.

Every edit is a `Change` appended to the journal (flushed and fsynced) before the call
returns; the state file is the result of those changes, rewritten atomically by
`save_now()` (the screen calls it on a timer, on quit and on SIGHUP), after which the
journal is emptied. Opening replays whatever the journal holds beyond the saved revision,
so a crash loses at most the change being made. Undo and redo are changes as well: they
are journalled, replayed, and a replay rebuilds both stacks.
"""

from __future__ import annotations

import contextlib
import errno
import os
import threading
from pathlib import Path
from typing import Any, Iterator, Mapping

from ..rules import RequestError, System, get_system
from .changes import Change, ChangeError, Op, apply_op, delete_op, get, insert_op, move_op, set_op
from .errors import CampaignError, CampaignLocked, Problem
from .journal import Journal, JournalEntry, journal_path
from .lock import CampaignLock
from .model import Campaign, RollRecord
from .rolllog import RollLog, rolls_path
from .store import load_campaign_with_warnings, read_text, remove_stale_temps, save_campaign

UNDO_DEPTH = 10_000          # steps kept on each stack
AUTOSAVE_EVERY = 200         # journalled changes before a full save is made anyway


class ReadOnlyError(RuntimeError):
    """A change asked of a session opened read-only; the message says why it is read-only."""


def _apply_all(campaign: Campaign, ops: list[Op]) -> None:
    """Apply every op or none: a failing op undoes the ones before it."""
    done: list[Op] = []
    try:
        for op in ops:
            apply_op(campaign, op)
            done.append(op)
    except BaseException:
        _revert(campaign, done)
        raise


def _revert(campaign: Campaign, ops: list[Op]) -> None:
    for op in reversed(ops):
        apply_op(campaign, op.inverse())


class EditBuilder:
    """Handed out by `CampaignSession.edit`: each call applies one op at once."""

    def __init__(self, campaign: Campaign) -> None:
        self._campaign = campaign
        self.ops: list[Op] = []

    def _do(self, make: Any, path: tuple | list, what: str) -> None:
        try:
            op = make()
        except ChangeError:
            raise
        except (IndexError, KeyError, TypeError, AttributeError) as exc:
            where = ".".join(map(str, path)) or "the campaign"
            raise ChangeError(f"cannot {what} at {where}: {exc}") from exc
        apply_op(self._campaign, op)
        self.ops.append(op)

    def get(self, path: tuple | list) -> Any:
        """The current value at `path` (sees the ops applied so far)."""
        return get(self._campaign, tuple(path))

    def set(self, path: tuple | list, value: Any) -> None:
        self._do(lambda: set_op(self._campaign, tuple(path), value), path, "set a value")

    def insert(self, path: tuple | list, index: int | None, value: Any) -> None:
        self._do(lambda: insert_op(self._campaign, tuple(path), index, value), path, "insert")

    def delete(self, path: tuple | list, index: int) -> None:
        self._do(lambda: delete_op(self._campaign, tuple(path), index), path, f"delete item {index}")

    def move(self, path: tuple | list, index: int, to: int) -> None:
        self._do(lambda: move_op(tuple(path), index, to), path, "move")


def replay(campaign: Campaign, entries: list[JournalEntry], file: str = "journal") -> tuple[
        list[Change], list[Change], list[JournalEntry], list[Problem]]:
    """Apply journal entries beyond `campaign.revision`, in order; rebuild the undo/redo stacks.

    Returns (undo, redo, applied entries, problems). Replay stops at the first entry that
    does not follow (a gap in revisions) or does not apply; that is reported as an error.
    """
    undo: list[Change] = []
    redo: list[Change] = []
    applied: list[JournalEntry] = []
    problems: list[Problem] = []
    for i, entry in enumerate(entries):
        if entry.revision <= campaign.revision:
            continue            # already in the saved state (crash between save and truncation)
        where = f"change[{i}]"
        if entry.revision != campaign.revision + 1:
            problems.append(Problem(file, where, f"revision {entry.revision} does not follow the campaign's "
                                                 f"revision {campaign.revision}: replay stopped here"))
            break
        try:
            _apply_all(campaign, entry.ops)
        except ChangeError as exc:
            problems.append(Problem(file, where, f"change {entry.label!r} (revision {entry.revision}) does not "
                                                 f"apply: {exc}: replay stopped here"))
            break
        campaign.revision = entry.revision
        applied.append(entry)
        change = entry.change
        if entry.action == "do":
            undo.append(change)
            redo.clear()
        elif entry.action == "undo":
            # The entry holds the inverse that was applied; the undone change is its inverse.
            redo.append(undo.pop() if undo else change.inverse())
        else:
            if redo:
                redo.pop()
            undo.append(change)
    return undo, redo, applied, problems


class CampaignSession:
    """One open campaign (see module doc). Build it with `open_session`."""

    def __init__(self, path: Path, campaign: Campaign, system: System, *, read_only: bool,
                 lock: CampaignLock | None, lock_holder: str | None, read_only_reason: str,
                 warnings: list[Problem], journal: Journal, rolls: RollLog | None, undo: list[Change],
                 redo: list[Change], history: list[JournalEntry], dirty: bool,
                 autosave_every: int = AUTOSAVE_EVERY) -> None:
        self.path = path
        self.campaign = campaign
        self.system = system
        self.read_only = read_only
        self.lock_holder = lock_holder
        self.read_only_reason = read_only_reason
        self.warnings = warnings
        self.history = history          # journal entries applied since the last full save
        self.dirty = dirty
        self.autosave_every = autosave_every
        self._lock_file = lock
        self._journal = journal
        self._rolls = rolls             # None until `load_rolls` (open_session(defer_rolls=True))
        self._rolls_mutex = threading.Lock()
        self._undo = undo
        self._redo = redo
        self._mutex = threading.RLock()
        self._busy = 0
        self._save_pending = False
        self._closed = False

    # -- state

    @property
    def rolls(self) -> list[RollRecord]:
        """The whole log, oldest first; empty while a deferred log is still being read."""
        return self._rolls.records if self._rolls is not None else []

    @property
    def rolls_loaded(self) -> bool:
        return self._rolls is not None

    def load_rolls(self) -> list[Problem]:
        """Read a deferred roll log (a thread may do it after the first frame); returns its warnings.

        A log that cannot be read (unreadable, newer format) leaves the session read-only, so
        that no roll is appended to a file this version does not understand.
        """
        with self._rolls_mutex:
            if self._rolls is not None:
                return []
            try:
                rolls = RollLog.load(rolls_path(self.path))
            except CampaignError as exc:
                rolls = RollLog(rolls_path(self.path))
                found = list(exc.problems)
                # No self._mutex here: record_roll holds it while waiting for this load.
                if not self.read_only:
                    self.read_only = True
                    self.read_only_reason = "the roll log cannot be read"
                    found.append(Problem(str(self.path), "", "the roll log cannot be read: opened read-only, "
                                         "changes and rolls are not saved", None, True))
            else:
                rolls.campaign_name = self.path.name
                if not self.read_only and not self._closed:
                    rolls.open_append()
                found = list(rolls.warnings)
            self._rolls = rolls
            self.warnings += [p for p in found if p not in self.warnings]
            return found

    def _log(self) -> RollLog:
        if self._rolls is None:
            self.load_rolls()
        assert self._rolls is not None
        return self._rolls

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def last_label(self) -> str | None:
        """The label of the change `undo()` would take back."""
        return self._undo[-1].label if self._undo else None

    @property
    def redo_label(self) -> str | None:
        return self._redo[-1].label if self._redo else None

    @property
    def closed(self) -> bool:
        return self._closed

    # -- plumbing

    @contextlib.contextmanager
    def _guard(self) -> Iterator[None]:
        """Hold the session (threads) and mark it busy, so a save asked meanwhile from a
        signal handler on this thread waits for the end of the operation."""
        with self._mutex:
            self._busy += 1
            try:
                yield
            finally:
                self._busy -= 1
            if self._busy == 0 and self._save_pending and not self._closed:
                self._save_pending = False
                self.save_now()

    def _require_writable(self) -> None:
        if self._closed:
            raise ReadOnlyError(f"{self.path.name} is closed: the change is not applied")
        if self.read_only:
            raise ReadOnlyError(f"{self.path.name} is open read-only ({self.read_only_reason}): "
                                "the change is not applied")

    def _commit(self, action: str, change: Change) -> None:
        """Journal an already applied change; on failure take it back and report."""
        revision = self.campaign.revision + 1
        try:
            entry = self._journal.append(revision, action, change)
        except OSError as exc:
            _revert(self.campaign, change.ops)
            raise CampaignError([Problem(str(self._journal.path), "", f"cannot record the change "
                                                                     f"{change.label!r}: {exc.strerror or exc}")]) from None
        self.campaign.revision = revision
        self.history.append(entry)
        self.dirty = True
        if len(self.history) >= self.autosave_every:
            self._save_pending = True

    @staticmethod
    def _push(stack: list[Change], change: Change) -> None:
        stack.append(change)
        if len(stack) > UNDO_DEPTH:
            del stack[: len(stack) - UNDO_DEPTH]

    # -- changes

    def apply(self, change: Change) -> None:
        """Apply a change, journal it (durably), make it the next undo; clears redo."""
        with self._guard():
            self._require_writable()
            _apply_all(self.campaign, change.ops)
            self._commit("do", change)
            self._push(self._undo, change)
            self._redo.clear()

    @contextlib.contextmanager
    def edit(self, label: str) -> Iterator[EditBuilder]:
        """Several ops as one undoable change; an exception in the block takes them all back.

        Ops apply at once (later ones see earlier ones). Do not await inside the block.
        """
        with self._guard():
            self._require_writable()
            builder = EditBuilder(self.campaign)
            try:
                yield builder
            except BaseException:
                _revert(self.campaign, builder.ops)
                raise
            if builder.ops:
                change = Change(label, builder.ops)
                self._commit("do", change)
                self._push(self._undo, change)
                self._redo.clear()

    def undo(self) -> Change | None:
        """Take back the last change (many steps deep); returns it, or None when none is left."""
        with self._guard():
            self._require_writable()
            if not self._undo:
                return None
            change = self._undo[-1]
            inverse = change.inverse()
            _apply_all(self.campaign, inverse.ops)
            self._commit("undo", inverse)
            self._undo.pop()
            self._push(self._redo, change)
            return change

    def redo(self) -> Change | None:
        """Apply again the last undone change; returns it, or None."""
        with self._guard():
            self._require_writable()
            if not self._redo:
                return None
            change = self._redo[-1]
            _apply_all(self.campaign, change.ops)
            self._commit("redo", change)
            self._redo.pop()
            self._push(self._undo, change)
            return change

    # -- the roll log

    def record_roll(self, *, who: str, line: str, request: Mapping[str, Any], result: Mapping[str, Any],
                    gm_only: bool = False, seed: int | None = None) -> RollRecord:
        """Append a roll to the log (durably). Read-only sessions keep it in memory only."""
        with self._guard():
            if self._closed:
                raise ReadOnlyError(f"{self.path.name} is closed: the roll is not recorded")
            if self.read_only:
                return self._log().add_unsaved(session=self.campaign.session, who=who, line=line,
                                               request=request, result=result, gm_only=gm_only, seed=seed)
            try:
                return self._log().record(session=self.campaign.session, who=who, line=line, request=request,
                                          result=result, gm_only=gm_only, seed=seed)
            except OSError as exc:
                raise CampaignError([Problem(str(rolls_path(self.path)), "",
                                             f"cannot record the roll: {exc.strerror or exc}")]) from None

    def reveal_roll(self, seq: int) -> None:
        """Show a GM-only roll to the players from now on (a [[reveal]] entry is appended)."""
        with self._guard():
            if self.read_only or self._closed:
                rec = self._log().by_seq.get(seq)
                if rec is None:
                    raise KeyError(f"no roll {seq} in the log")
                rec.revealed = True
                return
            try:
                self._log().reveal(seq)
            except OSError as exc:
                raise CampaignError([Problem(str(rolls_path(self.path)), "",
                                             f"cannot record the reveal: {exc.strerror or exc}")]) from None

    # -- saving

    def save_now(self) -> None:
        """Full atomic save, then the journal is emptied. Thread-safe. Called again while an
        operation is under way on this thread (a signal handler), it runs when that ends."""
        with self._mutex:
            if self.read_only or self._closed:
                return
            if self._busy:
                self._save_pending = True
                return
            if not self.dirty:
                return
            self._busy += 1
            try:
                save_campaign(self.campaign, self.path)
                try:
                    self._journal.truncate()
                except OSError as exc:
                    # The state is saved; the journal's entries are all at or below its revision
                    # and will be skipped by a replay. Say so, do not fail the save.
                    self.warnings.append(Problem(str(self._journal.path), "", f"saved, but the journal could "
                                                 f"not be emptied: {exc.strerror or exc}", None, True))
                self.history = []
                self.dirty = False
            finally:
                self._busy -= 1

    def close(self) -> None:
        """Save, then release the files and the lock. Idempotent."""
        with self._mutex:
            if self._closed:
                return
            try:
                self.save_now()
            finally:
                self._closed = True
                self._journal.close()
                if self._rolls is not None:
                    self._rolls.close()
                if self._lock_file is not None:
                    if not self.dirty and not self.read_only:
                        # Everything is in the state file: no empty journal left lying around.
                        with contextlib.suppress(FileNotFoundError):
                            os.unlink(self._journal.path)
                    self._lock_file.release()

    def __enter__(self) -> "CampaignSession":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_session(path: str | Path, *, read_only: bool = False, if_locked: str = "read_only",
                 autosave_every: int = AUTOSAVE_EVERY, defer_rolls: bool = False) -> CampaignSession:
    """Open a campaign for the screen: lock, load, replay the journal, load the roll log.

    When another gmscreen holds the campaign, the session opens read-only with
    `lock_holder` set (or, with `if_locked="raise"`, CampaignLocked is raised). A journal
    damaged before its last entry also opens read-only: nothing is written over it.
    Raises CampaignError when the campaign itself cannot be loaded. With `defer_rolls`, the
    roll log (which grows all campaign long) is read later by `load_rolls` (or by the first
    roll), so that the screen can show the campaign at once.
    """
    if if_locked not in ("read_only", "raise"):
        raise ValueError("if_locked: expected 'read_only' or 'raise'")
    path = Path(path).absolute()
    if not path.is_file():      # said before any lock file is made beside it
        if not path.exists():
            read_text(path)     # raises the "no such file" error
        raise CampaignError([Problem(str(path), "", "not a regular file: expected a campaign")])
    warnings: list[Problem] = []
    lock: CampaignLock | None = None
    holder: str | None = None
    reason = "asked for" if read_only else ""
    if not read_only:
        lock = CampaignLock(path)
        try:
            lock.acquire()
        except CampaignLocked as exc:
            if if_locked == "raise":
                raise
            lock, holder, read_only = None, exc.holder, True
            reason = f"open in another gmscreen: {exc.holder}"
            warnings.append(Problem(str(path), "", f"{reason}; opened read-only, changes will not be saved",
                                    None, True))
        except OSError as exc:
            if exc.errno not in (errno.EACCES, errno.EROFS, errno.EPERM):
                raise CampaignError([Problem(str(path), "", f"cannot lock the campaign: {exc.strerror or exc}")]) \
                    from None
            lock, read_only = None, True
            reason = f"cannot create {path.name}.lock: {exc.strerror}"
            warnings.append(Problem(str(path), "", f"{reason}; opened read-only", None, True))
    journal: Journal | None = None
    rolls: RollLog | None = None
    try:
        campaign, found = load_campaign_with_warnings(path)
        warnings += found
        migrated = any(p.path == "format" and "migrated to format" in p.message for p in found)
        try:
            system = get_system(campaign.system)
        except RequestError as exc:
            raise CampaignError([Problem(str(path), "system", exc.reason)]) from None
        journal = Journal.load(journal_path(path))
        journal.campaign_name = path.name
        warnings += journal.warnings
        undo, redo, applied, problems = replay(campaign, journal.entries, str(journal.path))
        warnings += problems
        if (problems or journal.damaged) and not read_only:
            read_only = True
            reason = f"{journal.path.name} could not be replayed entirely; fix or remove it"
            warnings.append(Problem(str(journal.path), "", f"{reason}: opened read-only so that nothing is "
                                                             "written over it", None, True))
            if lock is not None:
                lock.release()
                lock = None
        if not defer_rolls:
            rolls = RollLog.load(rolls_path(path))
            rolls.campaign_name = path.name
            warnings += rolls.warnings
        if not read_only:
            remove_stale_temps(path)
            journal.open_append()
            if rolls is not None:
                rolls.open_append()
                warnings += [p for p in rolls.warnings if p not in warnings]
    except BaseException:
        if journal is not None:
            journal.close()
        if rolls is not None:
            rolls.close()
        if lock is not None:
            lock.release()
        raise
    return CampaignSession(path, campaign, system, read_only=read_only, lock=lock, lock_holder=holder,
                           read_only_reason=reason, warnings=warnings, journal=journal, rolls=rolls,
                           undo=undo, redo=redo, history=list(applied), dirty=bool(applied) or migrated,
                           autosave_every=autosave_every)
