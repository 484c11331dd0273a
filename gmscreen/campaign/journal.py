"""The change journal: `X.journal.toml`, every change since the last full save, append-only.

The session appends each change (flushed and fsynced) before it returns, so a crash or a
lost SSH connection loses nothing: on the next open the saved state plus the journal's
changes is the state the GM last saw. Entries carry the campaign `revision` they produce,
so a crash between a full save and the journal's truncation replays nothing twice.
Undo and redo are journalled as changes too (`action = "undo"`), which also lets a replay
rebuild the undo and redo stacks.

    [[change]]
    revision = 42
    action = "do"
    time = "2025-03-01T21:04:11+01:00"
    label = "Blessure → Alexis"
    ops = [
      { op = "set", path = ["characters", 0, "sheet", "state", "blessures"], old = 1, new = 2 },
    ]
"""

from __future__ import annotations

from dataclasses import field
from pathlib import Path
from typing import Any

from gmscreen.i18n import N_, _
from gmscreen.rules.records import record

from . import _toml, safeload
from ._appendlog import AppendFile, EntryError, beside, file_header, format_line, read_whole
from .changes import OPS, Change, Op
from .errors import CampaignError, Problem
from .limits import MAX_REVISION, is_int_in, out_of_range, shown
from .rolllog import now_iso
from .paths import journal_path  # noqa: F401 (also said from here)

JOURNAL_FORMAT = 1
NAMES = ("change",)
ACTIONS = ("do", "undo", "redo")
_HEADER = file_header(("gmscreen change journal of {campaign}: the changes made since its last full save.",
                       "Replayed when the campaign is opened after a crash; emptied after each save."), JOURNAL_FORMAT)


@record
class JournalEntry:
    revision: int           # the campaign revision once this change is applied
    action: str             # "do", "undo" (ops are the inverse, label the undone change's), "redo"
    label: str
    ops: list[Op] = field(default_factory=list)
    time: str = ""

    @property
    def change(self) -> Change:
        """The change as applied (for an undo: the inverse of the undone change)."""
        return Change(self.label, list(self.ops))


_REQUIRED = ("revision", "action", "time", "label", "ops")
_OP_DEPTH = 16            # an op table, its path, and a value of the campaign (8 levels at most)


def _op(o: Any) -> Op:
    if not isinstance(o, dict):
        raise EntryError(_("{key}: expected inline tables").format(key="ops"))
    if safeload.too_deep(o, _OP_DEPTH) is not None:
        # Deeper than any campaign value: replaying it would only fail later, in a save.
        raise EntryError(_("{key}: nested more than {n} levels deep, deeper than a campaign holds").format(
            key="ops", n=_OP_DEPTH))
    kind = o.get("op")
    path = o.get("path")
    if kind not in OPS:
        raise EntryError(_("{key}: expected one of {choices}, got {value}").format(
            key="ops: op", choices=", ".join(OPS), value=repr(kind)))
    if not isinstance(path, list) or not all(isinstance(s, (str, int)) and not isinstance(s, bool) for s in path):
        raise EntryError(_("{key}: expected a list of keys and indexes").format(key="ops: path"))
    for k in ("index", "to"):
        if k in o and (type(o[k]) is not int):
            raise EntryError(_("{key}: expected an integer, got {value}").format(key=f"ops: {k}", value=repr(o[k])))
    return Op.from_data(o)


def _convert(name: str, d: Any) -> JournalEntry:
    if not isinstance(d, dict):
        raise EntryError(_("expected a table"))
    missing = [k for k in _REQUIRED if k not in d]
    if missing:
        raise EntryError(_("missing key {key}").format(key=repr(missing[0])), incomplete=True)
    revision, action, time, label, ops = (d[k] for k in _REQUIRED)
    if not is_int_in(revision, 1, MAX_REVISION):
        raise EntryError(out_of_range("revision", shown(revision), 1, MAX_REVISION))
    if action not in ACTIONS:
        raise EntryError(_("{key}: expected one of {choices}, got {value}").format(
            key="action", choices=", ".join(ACTIONS), value=repr(action)))
    if type(time) is not str or type(label) is not str:
        raise EntryError(_("{key}: expected strings").format(key="time, label"))
    if not isinstance(ops, list):
        raise EntryError(_("{key}: expected a list of inline tables").format(key="ops"))
    return JournalEntry(revision, action, label, [_op(o) for o in ops], time)


def format_entry(entry: JournalEntry) -> str:
    """One chunk; the `ops` array comes last so a torn write leaves it unclosed."""
    s = _toml.string
    lines = ["", "[[change]]", f"revision = {entry.revision}", f"action = {s(entry.action)}",
             f"time = {s(entry.time)}", f"label = {s(entry.label)}", "ops = ["]
    lines += [f"  {_toml.value(op.to_data())}," for op in entry.ops]
    lines.append("]")
    return "\n".join(lines) + "\n"


class Journal:
    """The journal of one campaign: its entries as loaded, and the appending end if writable."""

    def __init__(self, path: Path, campaign_name: str = "") -> None:
        self.path = Path(path)
        self.campaign_name = campaign_name or self.path.name.replace(".journal.toml", ".toml")
        self.entries: list[JournalEntry] = []
        self.warnings: list[Problem] = []
        self.torn = False
        self._file: AppendFile | None = None
        self._writable = False
        self._size = 0
        self._lines = 0

    @classmethod
    def load(cls, path: str | Path) -> "Journal":
        """The journal's entries (none when there is no journal). Reads only.

        A torn last entry is reported and ignored; a damaged entry elsewhere is reported in
        `warnings` as well (the session then refuses to write, see `damaged`).
        """
        j = cls(Path(path))
        read = read_whole(j.path, NAMES, _convert, what=N_("journal entry"), called=N_("journal"),
                          expected=N_("expected the changes since the last save (remove the journal if they do "
                                      "not matter)"))
        if read is None:
            return j
        data, found = read
        fmt = found.header.get("format", JOURNAL_FORMAT)
        if type(fmt) is not int or fmt > JOURNAL_FORMAT or fmt < 1:
            raise CampaignError([Problem(
                str(j.path), "format",
                _("written by a newer gmscreen (journal format {found}); this version reads format {format}").format(
                    found=fmt, format=JOURNAL_FORMAT)
                if type(fmt) is int and fmt > JOURNAL_FORMAT else _("expected journal format {format}, got {found}")
                .format(format=JOURNAL_FORMAT, found=repr(fmt)), format_line(data))])
        j.entries = found.entries["change"]
        j.warnings = list(found.problems)
        j.torn = found.torn
        j._size = found.good_end
        j._lines = found.lines
        return j

    @property
    def damaged(self) -> bool:
        """Entries were lost other than a torn last one: replaying may not give the state."""
        return len(self.warnings) > (1 if self.torn else 0)

    def open_append(self) -> None:
        """Start appending; a torn last entry is cut off by the next change, not now. A
        journal that does not exist yet is created with the first change."""
        self._writable = True
        if self.path.exists():
            self._open_file()

    def _open_file(self) -> AppendFile:
        if self._file is None:
            self._file = AppendFile(self.path, NAMES, _HEADER.format(campaign=self.campaign_name), _convert,
                                    what=N_("journal entry"), end=self._size, lines=self._lines,
                                    counts={"change": len(self.entries)})
            with self._file.locked():
                self._file.sync()
        return self._file

    def append(self, revision: int, action: str, change: Change) -> JournalEntry:
        """Write one change, flushed and fsynced before returning."""
        if not self._writable:
            raise RuntimeError("journal not open for appending")
        entry = JournalEntry(revision, action, change.label, list(change.ops), now_iso())
        text = format_entry(entry)
        file = self._open_file()
        with file.locked():
            file.sync()         # follows the file if it was deleted or replaced meanwhile
            file.write(text, "change")
        return entry

    def truncate(self) -> None:
        """Forget every entry: they are all in the state file now."""
        if not self._writable:
            raise RuntimeError("journal not open for appending")
        self.entries = []
        if self._file is None:
            return              # never created: nothing to empty
        with self._file.locked():
            self._file.sync()
            self._file.truncate()

    def close(self) -> None:
        self._writable = False
        if self._file is not None:
            self._file.close()
            self._file = None
