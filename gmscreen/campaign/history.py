"""The change history: `X.history.toml`, every change the campaign went through, kept for the recap.

The journal is emptied after each full save (it only has to bring back what a crash would lose),
but the recap of a session needs every change the session made. So each full save, once the
state is written and before the journal is emptied, appends the changes it saved here: one
write, append-only, never rewritten. The entries are the journal's own (`[[change]]` with
revision, action, time, label, ops), so undo and redo read the same. Only the recap reads it;
a history that cannot be written costs a warning, never the save.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import Sequence

from gmscreen.i18n import _, os_reason

from ._appendlog import beside, file_header
from .errors import Problem
from .journal import JOURNAL_FORMAT, Journal, JournalEntry, format_entry
from .sidefile import open_side
from .paths import history_path  # noqa: F401 (also said from here)

_HEADER = file_header(("gmscreen change history of {campaign}: every change saved, oldest first.",
                       "Append-only; read by gmscreen recap, never replayed."), JOURNAL_FORMAT)


def keep(campaign_path: str | Path, entries: Sequence[JournalEntry], path: Path | None = None) -> Problem | None:
    """Append `entries` to the history (`path`: the campaign's, found once when it was opened)
    in one write (fsynced), never through a link; a Problem (a warning) when it cannot be written."""
    if not entries:
        return None
    path = path if path is not None else history_path(campaign_path)
    text = "".join(format_entry(e) for e in entries)
    try:
        fd = open_side(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            if os.fstat(fd).st_size == 0:
                text = _HEADER.format(campaign=Path(campaign_path).name) + text
            os.write(fd, text.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        return Problem(str(path), "", _("saved, but the change history could not be written: {reason}").format(
            reason=os_reason(exc)), None, True)
    return None


def load(campaign_path: str | Path) -> tuple[list[JournalEntry], list[Problem]]:
    """Every change kept (none when there is no history), and what could not be read.
    Raises CampaignError when the file cannot be read at all."""
    read = Journal.load(history_path(campaign_path))
    return read.entries, list(read.warnings)
