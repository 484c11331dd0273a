"""An open campaign: the only writer of its files, with undo/redo and crash recovery.

Every edit is a `Change` appended to the journal (flushed and fsynced) before the call
returns; the state file is the result of those changes, rewritten atomically by
`save_now()` (the screen calls it on a timer, on quit and on SIGHUP), after which the
journal is emptied. Opening replays whatever the journal holds beyond the saved revision,
so a crash loses at most the change being made. Undo and redo are changes as well: they
are journalled, replayed, and a replay rebuilds both stacks.

Nothing a stop left behind is trusted (`recovery`): a journal that does not fit the campaign
is set aside whole, a pending roll of another campaign or game too. Every file is found once,
at opening (`sidefile.CampaignFiles`), and none is written through a link: a side file that
is one, or a campaign file the GM cannot write, opens the campaign read-only and says why.
"""

from __future__ import annotations

import contextlib
import errno
import os
import threading
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from gmscreen.i18n import _, os_reason

from ..rules import RequestError, System, get_system
from .changes import Change, ChangeError, Op, apply_op, delete_op, get, insert_op, move_op, set_op
from .errors import CampaignError, CampaignLocked, Problem
from .journal import Journal, JournalEntry
from .limits import MAX_REVISION, REVISION_WRAP, over_limit
from .lock import CampaignLock
from .model import Campaign, RollRecord
from .rolllog import RollLog, append_one
from .outside import DiskEvent, OutsideVersion, keep_aside, look, move_aside, read_version, refused_version
from .recovery import pending_misfit, replay_journal
from .recovery import replay as replay
from .safeload import thousands
from .sidefile import CampaignFiles, SideFileRefused, refused, set_aside
from .store import (FileState, Stamp, current_signature, load_file_state, read_text, remove_stale_temps,
                    render_campaign, save_campaign, write_refusal)

UNDO_DEPTH = 10_000          # steps kept on each stack
AUTOSAVE_EVERY = 200         # journalled changes before a full save is made anyway


class ReadOnlyError(RuntimeError):
    """A change asked of a session opened read-only; the message says why it is read-only."""


class _ChangedMeanwhile(Exception):
    """X.toml changed between the look before a save and its replacement: not replaced."""


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
        refused = over_limit(tuple(path), value)      # what the validator would refuse is never written
        if refused:
            dotted = ".".join(map(str, path)) + ": "
            raise ChangeError(refused, path=tuple(path), reason=refused.removeprefix(dotted))
        self._do(lambda: set_op(self._campaign, tuple(path), value), path, "set a value")

    def insert(self, path: tuple | list, index: int | None, value: Any) -> None:
        self._do(lambda: insert_op(self._campaign, tuple(path), index, value), path, "insert")

    def delete(self, path: tuple | list, index: int) -> None:
        self._do(lambda: delete_op(self._campaign, tuple(path), index), path, f"delete item {index}")

    def move(self, path: tuple | list, index: int, to: int) -> None:
        self._do(lambda: move_op(tuple(path), index, to), path, "move")


class CampaignSession:
    """One open campaign (see module doc). Build it with `open_session`."""

    def __init__(self, path: Path, campaign: Campaign, system: System, *, read_only: bool,
                 lock: CampaignLock | None, lock_holder: str | None, read_only_reason: str,
                 warnings: list[Problem], journal: Journal, rolls: RollLog | None, undo: list[Change],
                 redo: list[Change], history: list[JournalEntry], dirty: bool,
                 autosave_every: int = AUTOSAVE_EVERY, disk: FileState | None = None,
                 files: CampaignFiles | None = None) -> None:
        self.path = path
        self.files = files if files is not None else CampaignFiles.of(path)
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
        self._rolls_unreadable = False  # not followed: it would be read whole each time
        self._early_lock = threading.Lock()     # a roll appended while the log is being read
        self._early_rolls = 0
        self._undo = undo
        self._redo = redo
        self._mutex = threading.RLock()
        self._busy = 0
        self._save_pending = False
        self._closed = False
        # What X.toml held when this session last read or wrote it: `_base` is the text saves
        # patch, `_stamp` the version on disk already accounted for (theirs, once the GM chose
        # to keep mine over it). `disk_conflict`: another version found while changes were
        # unsaved; saves wait until `resolve_conflict`.
        self._base = disk
        self._stamp = disk.stamp if disk is not None else Stamp(None, "")
        self.disk_conflict: OutsideVersion | None = None
        self._seen: OutsideVersion | None = None        # the last outside version parsed
        self._reported: str | None = None               # digest of one already reported

    # -- state

    @property
    def rolls(self) -> Sequence[RollRecord]:
        """The whole log, oldest first; empty while a deferred log is still being read. Read
        with `load_rolls(tail=...)`, a sequence whose older rolls are parsed when asked for."""
        return self._rolls.records if self._rolls is not None else []

    @property
    def rolls_loaded(self) -> bool:
        return self._rolls is not None

    def load_rolls(self, tail: int | None = None) -> list[Problem]:
        """Read a deferred roll log (a thread may do it after the first frame); returns its warnings.
        `tail`: read only the newest rolls (the screen), the older ones indexed later
        (`index_rolls`, `install_roll_index`) and parsed on demand.

        A log that cannot be read (unreadable, newer format) leaves the session read-only, so
        that no roll is appended to a file this version does not understand.
        """
        with self._rolls_mutex:
            if self._rolls is not None:
                return []
            log = self.files.rolls
            try:
                if refused(log) is not None:        # a link: not read (the session is read-only)
                    raise CampaignError([])
                rolls = RollLog.load(log) if tail is None else RollLog.load_recent(log, tail)
            except CampaignError as exc:
                rolls = RollLog(log)
                self._rolls_unreadable = True
                found = list(exc.problems)
                # No self._mutex here: record_roll holds it while waiting for this load.
                if not self.read_only:
                    self.read_only = True
                    self.read_only_reason = _("the roll log cannot be read")
                    found.append(Problem(str(self.path), "", _("the roll log cannot be read: opened read-only, "
                                                               "changes and rolls are not saved"), None, True))
            else:
                rolls.campaign_name = self.path.name
                if not self.read_only and not self._closed:
                    rolls.open_append()
                found = list(rolls.warnings)
            with self._early_lock:
                if self._early_rolls and rolls.writable:
                    rolls.catch_up()        # rolls appended meanwhile by `_record_while_loading`
                self._rolls = rolls
            self.warnings += [p for p in found if p not in self.warnings]
            return found

    def index_rolls(self, pause: Any = None) -> Any:
        """Index the rolls older than the tail read by `load_rolls(tail=...)` (in a thread;
        `pause`: see `rolltail.build_index`)."""
        rolls = self._rolls
        return rolls.index_older(pause) if rolls is not None else None

    def install_roll_index(self, index: Any) -> None:
        """Put the indexed older rolls behind the tail: call it on the thread that shows them."""
        if self._rolls is not None:
            with self._rolls_mutex:
                self._rolls.install_index(index)

    def follow_rolls(self) -> int:
        """Rolls appended by another process since the log was read; how many came. A stat
        when nothing changed; never waits for the session (a save under way): asked again later."""
        rolls = self._rolls
        if rolls is None or self._closed or self.read_only or self._rolls_unreadable:
            return 0
        if not self._mutex.acquire(blocking=False):
            return 0
        try:
            if not self._rolls_mutex.acquire(blocking=False):
                return 0
            try:
                return rolls.follow()
            except (OSError, CampaignError):
                return 0
            finally:
                self._rolls_mutex.release()
        finally:
            self._mutex.release()

    def roll_by_seq(self, seq: int) -> RollRecord | None:
        """The roll numbered `seq`, found without walking the whole log."""
        return self._rolls.by_seq.get(seq) if self._rolls is not None else None

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
    def last_change(self) -> Change | None:
        """The change `undo()` would take back (the status line says its label, as players may
        see it while they watch: `gmscreen.play.public.public_label`)."""
        return self._undo[-1] if self._undo else None

    @property
    def closed(self) -> bool:
        return self._closed

    def held_by(self, holder: str) -> None:
        """Another process holds the campaign now (this read-only session tried its lock
        again): name that one, not the one it opened under, which may have ended."""
        if self.lock_holder is not None:
            self.lock_holder = holder
            self.read_only_reason = _("open in another gmscreen: {holder}").format(holder=holder)

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
            raise ReadOnlyError(_("{file} is closed: the change is not applied").format(file=self.path.name))
        if self.read_only:
            raise ReadOnlyError(_("{file} is open read-only ({reason}): the change is not applied").format(
                file=self.path.name, reason=self.read_only_reason))

    def _commit(self, action: str, change: Change) -> None:
        """Journal an already applied change; on failure take it back and report."""
        revision = self.campaign.revision + 1
        if revision > MAX_REVISION:
            revision = self._count_again(change)
        try:
            entry = self._journal.append(revision, action, change)
        except OSError as exc:
            _revert(self.campaign, change.ops)
            raise CampaignError([Problem(str(self._journal.path), "", _("cannot record the change {label}: "
                                                                       "{reason}").format(
                label=repr(change.label), reason=os_reason(exc)))]) from None
        self.campaign.revision = revision
        self.history.append(entry)
        self.dirty = True
        if len(self.history) >= self.autosave_every:
            self._save_pending = True

    def _count_again(self, change: Change) -> int:
        """The revision of `change` when the count has reached MAX_REVISION: the campaign as it
        was before it is saved first (as revision 0, its journal emptied), so that the change is
        journalled as revision 1; CampaignError (the change taken back) when it cannot be saved."""
        _revert(self.campaign, change.ops)
        try:
            saved = self._save()
        except (OSError, CampaignError):
            saved = False
        if not saved or self.campaign.revision != 0:
            raise CampaignError([Problem(str(self.path), "revision", _(
                "the campaign has counted {n} changes, the most it counts: it counts again from 0 once it is "
                "saved (the change {label} is not applied)").format(n=thousands(MAX_REVISION),
                                                                     label=repr(change.label)))])
        _apply_all(self.campaign, change.ops)
        return 1

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
        return self._step("undo", self._undo, self._redo)

    def redo(self) -> Change | None:
        """Apply again the last undone change; returns it, or None."""
        return self._step("redo", self._redo, self._undo)

    def _step(self, action: str, source: list[Change], target: list[Change]) -> Change | None:
        """Undo or redo: the change on top of `source` is applied (its inverse for an undo) and
        journalled, then moved onto `target`; it leaves `source` only once that is done."""
        with self._guard():
            self._require_writable()
            if not source:
                return None
            change = source[-1]
            applied = change.inverse() if action == "undo" else change
            _apply_all(self.campaign, applied.ops)
            self._commit(action, applied)
            source.pop()
            self._push(target, change)
            return change

    # -- the roll log

    def record_roll(self, *, who: str, line: str, request: Mapping[str, Any], result: Mapping[str, Any],
                    gm_only: bool = False, seed: int | None = None, pending: str | None = None) -> RollRecord:
        """Append a roll to the log (durably). Read-only sessions keep it in memory only.
        `pending`: the id of the pending roll (`write_pending`) this roll settles."""
        with self._guard():
            if self._closed:
                raise ReadOnlyError(_("{file} is closed: the roll is not recorded").format(file=self.path.name))
            if self.read_only:
                return self._log().add_unsaved(session=self.campaign.session, who=who, line=line,
                                               request=request, result=result, gm_only=gm_only, seed=seed,
                                               pending=pending)
            try:
                early = self._record_while_loading(who=who, line=line, request=request, result=result,
                                                   gm_only=gm_only, seed=seed, pending=pending)
                if early is not None:
                    return early
                return self._log().record(session=self.campaign.session, who=who, line=line, request=request,
                                          result=result, gm_only=gm_only, seed=seed, pending=pending)
            except OSError as exc:
                raise CampaignError([Problem(str(self.files.rolls), "",
                                             _("cannot record the roll: {reason}").format(
                                                 reason=os_reason(exc)))]) from None

    def _record_while_loading(self, **roll: Any) -> RollRecord | None:
        """A roll made while a thread still reads a long log is appended at once, numbered from
        the file's tail, instead of waiting for the whole log (seconds at 100,000 rolls). The
        reader's own sync (`load_rolls`) then finds it in the file, once."""
        with self._early_lock:
            if self._rolls is not None:
                return None
            rec, problems = append_one(self.files.rolls, campaign_name=self.path.name,
                                       session=self.campaign.session, **roll)
            self._early_rolls += 1
            self.warnings += [p for p in problems if p not in self.warnings]
            return rec

    def reveal_roll(self, seq: int) -> None:
        """Show a GM-only roll to the players from now on (a [[reveal]] entry is appended)."""
        with self._guard():
            if self.read_only or self._closed:
                rec = self._log().by_seq.get(seq)
                if rec is None:
                    raise KeyError(f"no roll {seq} in the log")
                rec.revealed = True
                mark = getattr(self._log().records, "mark_revealed", None)
                if mark is not None:
                    mark(seq)
                return
            try:
                self._log().reveal(seq)
            except OSError as exc:
                raise CampaignError([Problem(str(self.files.rolls), "",
                                             _("cannot record the reveal: {reason}").format(
                                                 reason=os_reason(exc)))]) from None

    # -- the pending roll: dice shown to the table, a choice still open (see pending.py)

    def write_pending(self, pending: Any) -> None:
        """Make a roll the table is about to see durable (`X.pending.toml`, atomic and fsynced)
        before its dice are shown. Read-only or closed sessions write nothing. CampaignError
        when the file cannot be written."""
        from dataclasses import replace

        from .pending import write_pending

        if self.read_only or self._closed:
            return
        file = self.files.pending
        try:
            write_pending(file, replace(pending, campaign=self.files.real.name, game=self.campaign.system))
        except OSError as exc:
            raise CampaignError([Problem(str(file), "", _("cannot keep the roll shown: {reason}").format(
                reason=os_reason(exc)))]) from None
        except (TypeError, ValueError) as exc:          # a value TOML cannot hold
            raise CampaignError([Problem(str(file), "", _("cannot keep the roll shown: {reason}").format(
                reason=exc))]) from None

    def clear_pending(self) -> None:
        """The pending roll is in the log: its file goes. Call it once the roll is recorded."""
        from .pending import remove_pending

        if self.read_only or self._closed:
            return
        file = self.files.pending
        try:
            remove_pending(file)
        except OSError as exc:
            # The roll carries the pending id: the next opening sees it logged and only removes it.
            self.warnings.append(Problem(str(file), "", _("cannot remove the settled roll: {reason}").format(
                reason=os_reason(exc)), None, True))

    def recover_pending(self) -> RollRecord | None:
        """A roll whose dice the table saw before gmscreen stopped short (SIGKILL, power cut):
        logged as it stood — each open choice at its default — with its spending as one undoable
        change, then its file removed. Returns the roll logged, or None (no pending roll, or it
        was logged already). Read-only sessions leave the file alone; a damaged one, or one that
        does not fit this campaign (`recovery.pending_misfit`), is renamed aside with one
        warning, nothing of it logged or spent; nothing here raises for a bad or unwritable file."""
        from .pending import read_pending, remove_pending, remove_stale_temps

        if self.read_only or self._closed:
            return None
        file = self.files.pending
        remove_stale_temps(file)
        try:
            pending = read_pending(file)
        except CampaignError as exc:
            first = exc.problems[0] if exc.problems else Problem(str(file), "", str(exc))
            self._pending_aside(file, first)
            return None
        if pending is None:
            return None
        misfit = pending_misfit(pending, self.campaign, self.files.real.name, str(self.path))
        if misfit is not None:
            self._pending_aside(file, Problem(str(file), "", _("does not fit this campaign: {reason}").format(
                reason=misfit)))
            return None
        try:
            record = self._log_pending(pending)
        except (CampaignError, OSError) as exc:
            reason = "; ".join(p.message for p in exc.problems) if isinstance(exc, CampaignError) \
                else (os_reason(exc))
            self.warnings.append(Problem(str(file), "", _("the roll shown before the last stop could not be logged "
                                                          "({reason}): kept for the next opening").format(
                reason=reason), None, True))
            return None
        self._spend_pending(pending, file)
        try:
            remove_pending(file)
        except OSError:
            pass        # the roll carries its id: the next opening only removes the file
        return record

    def _pending_aside(self, file: Path, problem: Problem) -> None:
        """A pending file that cannot be logged: renamed aside, said in one warning."""
        from .pending import set_aside as pending_aside

        try:
            aside = pending_aside(file)
        except OSError as err:
            kept = _("left in place ({reason})").format(reason=os_reason(err))
        else:
            kept = _("kept as {name}").format(name=aside.name)
        self.warnings.append(Problem(problem.file, problem.path, _("{problem}; the roll shown before the last "
                                                                   "stop is not logged, the file is {kept}").format(
            problem=problem.message, kept=kept), problem.line, True))

    def _log_pending(self, pending: Any) -> RollRecord | None:
        """Append the pending roll unless the log already holds it; None when it does."""
        from .pending import logged_in, logged_in_tail
        from .rolllog import append_one

        fields = dict(session=pending.session, who=pending.who, line=pending.line, request=pending.request,
                      result=pending.result, gm_only=pending.gm_only, seed=pending.seed, time=pending.time,
                      pending=pending.id)
        with self._guard(), self._rolls_mutex:
            if self._rolls is None:
                # The screen reads its log after the first frame: only the tail is needed here.
                log = self.files.rolls
                if logged_in_tail(log, pending.id):
                    return None
                record, found = append_one(log, campaign_name=self.path.name, **fields)
                self.warnings += [p for p in found if p not in self.warnings]
                return record
            if logged_in(self._rolls.records, pending.id):
                return None
            if not self._rolls.writable:
                self._rolls.open_append()
            return self._rolls.record(**fields)

    def _spend_pending(self, pending: Any, file: Path) -> None:
        """Its spending as one undoable change. Each spend is an absolute value: one already on
        the sheet (logged and spent, then stopped before the file went) is not spent twice."""
        from .model import to_data

        todo = []
        for spend in pending.spends:
            try:
                if to_data(get(self.campaign, spend.path)) == spend.after:
                    continue
            except (ChangeError, KeyError, IndexError, TypeError, AttributeError):
                pass
            todo.append(spend)
        if not todo:
            return
        label = " · ".join(spend.text for spend in pending.spends)
        try:
            with self.edit(label) as b:
                for spend in todo:
                    b.set(spend.path, spend.after)
        except (ChangeError, CampaignError, ReadOnlyError, ValueError, KeyError, IndexError, TypeError) as exc:
            reason = "; ".join(p.message for p in exc.problems) if isinstance(exc, CampaignError) else str(exc)
            self.warnings.append(Problem(str(file), "spend", _("the roll is logged, but its spending ({label}) "
                                                               "could not be applied: {reason}").format(
                label=label, reason=reason), None, True))

    # -- saving

    def save_now(self) -> str | None:
        """Full atomic save, then the journal is emptied. Thread-safe. Called again while an
        operation is under way on this thread (a signal handler), it runs when that ends.

        The file is first compared with what this session last read or wrote: a version
        written by someone else is never saved over. `disk_conflict` is set instead, and saves
        wait for the GM's choice (`resolve_conflict`); the changes stay in the journal.
        Only the file opened is written, never through a link put in its place; one made
        read-only meanwhile is not replaced (CampaignError: the changes stay in the journal).

        Returns what the GM must be told of this save (the file could not be patched and was
        written whole, its comments kept: see `store.save_campaign`), also kept in `warnings`;
        None when there is nothing to say."""
        with self._mutex:
            if self.read_only or self._closed:
                return None
            if self._busy:
                self._save_pending = True
                return None
            if not self.dirty or self.disk_conflict is not None:
                return None
            self._busy += 1
            try:
                if self._save() and self._base is not None and self._base.notice:
                    return self._base.notice
                return None
            finally:
                self._busy -= 1

    def _save(self) -> bool:
        """The save itself (the session held and busy); True when the file was written. Only
        the file opened is written, never through a link swapped in since. A revision at or
        past REVISION_WRAP is saved as 0 (`limits`): the journal is emptied right after, so no
        entry refers to the old numbers and a count never nears 64 bits."""
        if self.disk_conflict is not None or self._outside_before_save():
            return False
        real = self.files.real
        why = write_refusal(real)
        if why is not None:
            raise CampaignError([Problem(str(self.path), "", _("{reason}: not saved, the changes stay in "
                                                               "the journal").format(reason=why))])
        expected = self._stamp.signature

        def still_ours() -> None:       # the instant before X.toml is replaced
            if current_signature(real) != expected:
                raise _ChangedMeanwhile

        counted = self.campaign.revision
        if counted >= REVISION_WRAP:
            self.campaign.revision = 0
        try:
            try:
                self._base = save_campaign(self.campaign, real, base=self._base, before_replace=still_ours,
                                           follow=False)
            except BaseException:
                self.campaign.revision = counted
                raise
        except _ChangedMeanwhile:
            self._outside_before_save()
            return False
        self._stamp = self._base.stamp
        self._reported = None
        self._keep_history()
        self._empty_journal()
        self.history = []
        self.dirty = False
        if self._base.notice:
            self.warnings.append(Problem(str(self.path), "", self._base.notice, None, True))
        return True

    def _keep_history(self) -> None:
        """The changes just saved go on to the change history (`history.py`, for the recap)."""
        from .history import keep

        problem = keep(self.path, self.history, self.files.history)
        if problem is not None and problem not in self.warnings:
            self.warnings.append(problem)

    def _empty_journal(self) -> None:
        try:
            self._journal.truncate()
        except OSError as exc:
            # The state is saved; the journal's entries are all at or below its revision
            # and will be skipped by a replay. Say so, do not fail the save.
            self.warnings.append(Problem(str(self._journal.path), "", _("saved, but the journal could not be "
                                                                        "emptied: {reason}").format(
                reason=os_reason(exc)), None, True))

    def close(self) -> None:
        """Save, then release the files and the lock. Idempotent. A conflict with a version
        written on disk by someone else that the GM has not settled keeps both: theirs stays
        in X.toml, the session's is written beside it (`X.mine-<time>.toml`)."""
        with self._mutex:
            if self._closed:
                return
            try:
                if self.disk_conflict is not None and not self.read_only:
                    self._keep_both_at_close()
                self.save_now()
            finally:
                self._closed = True
                self._journal.close()
                if self._rolls is not None:
                    self._rolls.close()
                if self._lock_file is not None:
                    if not self.dirty and not self.read_only and refused(self._journal.path) is None:
                        # Everything is in the state file: no empty journal left lying around.
                        with contextlib.suppress(FileNotFoundError):
                            os.unlink(self._journal.path)
                    self._lock_file.release()

    # -- changes made on disk by someone else (see outside.py)

    def check_disk(self) -> DiskEvent | None:
        """Notice a change made to X.toml by someone else (a hand edit, git, a sync tool) and
        act on it: with nothing unsaved, their version is taken in (or, when it does not load,
        reported and left alone); with unsaved changes, `disk_conflict` is set for the GM to
        choose. Cheap when nothing changed (one stat). Returns what happened, once per version.
        Call it on the thread that shows the campaign, or split it: `look_at_disk` in a
        thread, then `take_in` on that thread."""
        found = self.look_at_disk()
        return self.take_in(found) if found is not None else None

    def look_at_disk(self, thorough: bool = False) -> OutsideVersion | None:
        """The version of X.toml written by someone else, read and parsed; None when the file
        is still the one this session knows. Changes nothing of the campaign (thread-safe)."""
        if self._closed or self.read_only or self._base is None:
            return None                         # (no base: a session not built by open_session)
        known = self._stamp
        real = self.files.real
        link = refused(real)
        if link is not None:                    # a link (or a FIFO) put in its place: never read
            version = refused_version(real, link)
            if version.stamp == known:
                return None
            self._seen = version
            return version
        seen = look(real, known, thorough=thorough)
        if seen is None:
            return None
        stamp, raw = seen
        if raw is not None and stamp.digest == known.digest:
            with self._mutex:
                if self._stamp is known:
                    self._stamp = stamp         # touched, or copied back: the same bytes
            return None
        cached = self._seen
        if cached is not None and cached.stamp == stamp:
            return cached
        version = read_version(real, stamp, raw)
        self._seen = version
        return version

    def take_in(self, version: OutsideVersion) -> DiskEvent | None:
        """Act on a version found by `look_at_disk` (see `check_disk`)."""
        with self._mutex:
            if self._closed or self.read_only or version.stamp.digest == self._stamp.digest:
                return None
            if self.disk_conflict is not None:
                self.disk_conflict = version    # changed again: the choice is about the newest
                return None
            if version.missing:
                self._stamp = version.stamp     # nothing of theirs to keep: the next save writes it
                return DiskEvent("missing", self.path)
            if self.dirty or self.history:
                self.disk_conflict = version
                return DiskEvent("conflict", self.path, list(version.problems))
            if not version.loads:
                if self._reported == version.stamp.digest:
                    return None
                self._reported = version.stamp.digest
                return DiskEvent("invalid", self.path, list(version.problems))
            self._adopt(version)
            return DiskEvent("taken", self.path, list(version.warnings))

    def resolve_conflict(self, choice: str) -> Path | None:
        """The GM's answer to `disk_conflict`; returns the side file written, if any.

        "theirs": their version is taken in; the session's unsaved changes go to
        `X.toml.mine-<time>`. "mine": theirs is kept as `X.toml.theirs-<time>`, then the
        session's version is saved over it. "both": the session's version is saved as
        `X.mine-<time>.toml` beside theirs, which is taken in. CampaignError when it cannot
        be done (theirs does not load, a side file cannot be written): nothing changes then.
        """
        if choice not in ("theirs", "mine", "both"):
            raise ValueError("choice: expected 'theirs', 'mine' or 'both'")
        with self._mutex:
            if self.disk_conflict is None or self.read_only or self._closed:
                return None
            theirs = self.look_at_disk(thorough=True)     # what is on disk now is what is chosen
            if theirs is None:                              # back to what this session knew
                self.disk_conflict = None
                self.save_now()
                return None
            self.disk_conflict = theirs
            if choice == "mine":
                side = None
                if theirs.refused:
                    # A link put in its place: the link itself is kept aside (never what it
                    # points to, never written through), and mine is written where it was.
                    side = self._aside_moved()
                    self._stamp = Stamp(None, "")
                else:
                    if not theirs.missing:
                        side = self._aside(theirs.raw or b"", "theirs")
                    self._stamp = theirs.stamp      # accounted for: the save goes over it
                self.disk_conflict = None
                self.save_now()
                return side
            if not theirs.loads:
                what = "; ".join(str(p) for p in theirs.problems) or "the file is gone"
                raise CampaignError([Problem(str(self.path), "", f"their version cannot be taken in ({what}): "
                                                                 "keep yours, or fix their file first")])
            try:
                text, _data = render_campaign(self.campaign, self.path, base=self._base)
                raw = text.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise CampaignError([Problem(str(self.path), "", f"text that is not valid Unicode "
                                                                 f"({exc.reason}): not kept aside")]) from None
            side = self._aside(raw, "mine-aside" if choice == "theirs" else "mine")
            self._adopt(theirs)
            return side

    def _aside_moved(self) -> Path:
        try:
            return move_aside(self.files.real, "theirs")
        except OSError as exc:
            raise CampaignError([Problem(str(self.path), "", _("cannot keep it aside: {reason}").format(
                reason=os_reason(exc)))]) from None

    def _aside(self, raw: bytes, kind: str) -> Path:
        try:
            return keep_aside(self.files.real, raw, kind, follow=False)
        except OSError as exc:
            raise CampaignError([Problem(str(self.path), "", f"cannot keep a copy beside it: "
                                                             f"{os_reason(exc)}")]) from None

    def _adopt(self, version: OutsideVersion) -> None:
        """Their version becomes the session's: the undo history (about the old state) goes,
        and so does the journal (nothing in it is unsaved: it was kept aside or there was none)."""
        assert version.campaign is not None
        self.campaign = version.campaign
        self.system = get_system(version.campaign.system)
        self._undo.clear()
        self._redo.clear()
        self._empty_journal()
        self.history = []
        self.dirty = False
        self._base = FileState(version.stamp, version.text, version.data)
        self._stamp = version.stamp
        self._reported = None
        self.disk_conflict = None
        self.warnings += [w for w in version.warnings if w not in self.warnings]

    def _outside_before_save(self) -> bool:
        """Look (hashing the bytes) for a version written by someone else; True when the save
        must not go on (a conflict is now waiting for the GM)."""
        found = self.look_at_disk(thorough=True)
        if found is not None:
            self.take_in(found)
        return self.disk_conflict is not None

    def _keep_both_at_close(self) -> None:
        try:
            text, _data = render_campaign(self.campaign, self.path, base=self._base)
            side = keep_aside(self.files.real, text.encode("utf-8"), "mine", follow=False)
        except (CampaignError, OSError, UnicodeEncodeError) as exc:
            self.warnings.append(Problem(str(self.path), "", f"changed on disk by someone else; your unsaved "
                                         f"changes could not be kept aside ({exc}): they stay in the journal",
                                         None, True))
            return
        self._empty_journal()
        self.history = []
        self.dirty = False
        self.disk_conflict = None
        self.warnings.append(Problem(str(self.path), "", f"changed on disk by someone else while changes were "
                                     f"unsaved: yours are kept in {side.name}, theirs stay in {self.path.name}",
                                     None, True))

    def __enter__(self) -> "CampaignSession":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_session(path: str | Path, *, read_only: bool = False, if_locked: str = "read_only",
                 autosave_every: int = AUTOSAVE_EVERY, defer_rolls: bool = False) -> CampaignSession:
    """Open a campaign for the screen: lock, load, replay the journal, load the roll log.

    When another gmscreen holds the campaign, the session opens read-only with
    `lock_holder` set (or, with `if_locked="raise"`, CampaignLocked is raised). A campaign
    file the GM cannot write, or a side file that is a link, opens read-only too, saying why.
    A journal that does not fit the campaign (`recovery.replay`) is set aside whole and the
    campaign opens as last saved (left alone, not applied, when the session is read-only).
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
        raise CampaignError([Problem(str(path), "", _("not a regular file: expected a campaign"))])
    files = CampaignFiles.of(path)
    warnings: list[Problem] = []
    lock: CampaignLock | None = None
    holder: str | None = None
    reason = _("asked for") if read_only else ""
    if not read_only:
        why = write_refusal(files.real) or _refused_reason(files)
        if why is not None:
            read_only, reason = True, why
            warnings.append(Problem(str(path), "", _("{reason}; opened read-only, changes will not be saved").format(
                reason=reason), None, True))
    if not read_only:
        lock = CampaignLock(files.real, files.lock)
        try:
            lock.acquire()
        except CampaignLocked as exc:
            if if_locked == "raise":
                raise
            lock, holder, read_only = None, exc.holder, True
            reason = _("open in another gmscreen: {holder}").format(holder=exc.holder)
            warnings.append(Problem(str(path), "", _("{reason}; opened read-only, changes will not be saved").format(
                reason=reason), None, True))
        except OSError as exc:
            if not isinstance(exc, SideFileRefused) and exc.errno not in (errno.EACCES, errno.EROFS, errno.EPERM):
                raise CampaignError([Problem(str(path), "", _("cannot lock the campaign: {reason}").format(
                    reason=os_reason(exc)))]) \
                    from None
            lock, read_only = None, True
            reason = exc.strerror if isinstance(exc, SideFileRefused) else _(
                "cannot create {file}: {reason}").format(file=files.lock.name, reason=os_reason(exc))
            warnings.append(Problem(str(path), "", _("{reason}; opened read-only").format(reason=reason), None, True))
    journal: Journal | None = None
    rolls: RollLog | None = None
    try:
        campaign, found, disk = load_file_state(files.real)
        warnings += found
        migrated = any(p.path == "format" and p.warning for p in found)     # the migration note
        try:
            system = get_system(campaign.system)
        except RequestError as exc:
            raise CampaignError([Problem(str(path), "system", exc.reason)]) from None
        journal = Journal(files.journal) if refused(files.journal) else Journal.load(files.journal)
        journal.campaign_name = path.name
        undo, redo, applied, said, outcome = _replay_journal(campaign, journal, read_only)
        warnings += said
        if outcome == "aside":
            journal = Journal(files.journal, path.name)     # the next change starts a new one
        elif outcome == "stuck":                            # not set aside: nothing may be written over it
            read_only, reason = True, _("{file} does not fit the campaign and could not be set aside").format(
                file=journal.path.name)
            if lock is not None:
                lock.release()
                lock = None
        if not defer_rolls:
            rolls = RollLog(files.rolls) if refused(files.rolls) else RollLog.load(files.rolls)
            rolls.campaign_name = path.name
            warnings += rolls.warnings
        if not read_only:
            remove_stale_temps(files.real)
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
                           autosave_every=autosave_every, disk=disk, files=files)


def _refused_reason(files: CampaignFiles) -> str | None:
    """Why the campaign cannot be written: one of its side files is a link (or not a file)."""
    problem = files.first_refused()
    return problem.strerror if problem is not None else None


def _replay_journal(campaign: Campaign, journal: Journal, read_only: bool) -> tuple[
        list[Change], list[Change], list[JournalEntry], list[Problem], str]:
    """The journal's changes applied to `campaign` (see `recovery.replay`), or none of them:
    a journal damaged before its last entry, or one that does not fit, is set aside whole
    (`X.journal.toml.damaged`) when the session holds the campaign, else left alone; one
    line says so. Returns (undo, redo, applied entries, warnings, outcome), outcome "applied",
    "aside" (set aside), "left" (read-only: left alone) or "stuck" (could not be set aside)."""
    undo, redo, applied, problems = replay_journal(campaign, journal)
    if not problems:
        return undo, redo, applied, list(journal.warnings), "applied"     # at most a torn last entry
    misfit = problems[0]
    outcome = "left"
    if read_only:
        said = _("{problem}: none of its changes is shown (the campaign as last saved)").format(
            problem=misfit.message)
    else:
        try:
            aside = set_aside(journal.path)
        except OSError as exc:
            outcome = "stuck"
            said = _("{problem}: none of its changes is applied, and it could not be set aside ({reason})").format(
                problem=misfit.message, reason=os_reason(exc))
        else:
            outcome = "aside"
            said = _("{problem}: none of its changes is applied; the journal is set aside as {name}, the campaign "
                     "opens as last saved").format(problem=misfit.message, name=aside.name)
    return [], [], [], [Problem(misfit.file, misfit.path, said, misfit.line, True)], outcome
