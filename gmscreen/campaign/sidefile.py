"""A campaign's side files are never written through a symbolic link.

Beside `X.toml` live its lock, roll log, journal, change history and pending roll, and the
copies kept aside. A shared campaign folder (a git clone, a zip) can carry any of them as a
link, `camp.toml.lock -> ../../.bashrc`: opening, appending or replacing through it would
truncate, grow or replace the file it points to. Every writer of a side file opens it here,
with O_NOFOLLOW (and O_EXCL where it creates one), so a link is refused with one clear line
naming the file, and never followed. A file that is not a regular file (a FIFO, a device) is
refused the same way: nothing but the GM's own files is ever written.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from gmscreen.i18n import _
from gmscreen.rules.records import record

from .paths import fsync_dir, history_path, journal_path, lock_path, pending_path, real_path, rolls_path

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


class SideFileRefused(OSError):
    """A side file that is a symbolic link (or not a regular file): not opened, not written.
    Its `strerror` is the line said to the GM."""

    strerror: str                       # (always given: the reason)

    def __init__(self, path: str | Path, reason: str) -> None:
        super().__init__(errno.ELOOP, reason, str(path))


def link_refused(path: str | Path) -> SideFileRefused:
    name = Path(path).name
    return SideFileRefused(path, _("{file} is a symbolic link: gmscreen never writes through one "
                                   "(remove it, or put the file itself in its place)").format(file=name))


def not_regular_refused(path: str | Path) -> SideFileRefused:
    name = Path(path).name
    return SideFileRefused(path, _("{file} is not a regular file: gmscreen writes only its own files "
                                   "(remove it)").format(file=name))


def refused(path: str | Path) -> SideFileRefused | None:
    """Why `path` cannot be a side file gmscreen writes (a link, a FIFO...); None when it can,
    or when it does not exist yet."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError:
        return None                 # unreadable folder: the open itself says why
    if stat.S_ISLNK(st.st_mode):
        return link_refused(path)
    if not stat.S_ISREG(st.st_mode):
        return not_regular_refused(path)
    return None


def check(path: str | Path) -> None:
    """Raise SideFileRefused when `path` is a link or not a regular file."""
    problem = refused(path)
    if problem is not None:
        raise problem


def open_side(path: str | Path, flags: int, mode: int = 0o644) -> int:
    """`os.open(path, flags)` that never follows a link at `path` (its folder may be one).
    SideFileRefused for a link or anything but a regular file; other OSErrors as they come."""
    check(path)                     # a FIFO is refused before an open could wait on it
    try:
        fd = os.open(path, flags | _NOFOLLOW | _NONBLOCK | os.O_CLOEXEC, mode)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise link_refused(path) from None        # made a link since the check
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise not_regular_refused(path)
        if _NONBLOCK:
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_side(path: str | Path, limit: int) -> bytes:
    """At most `limit` bytes of a side file, never through a link; FileNotFoundError when absent."""
    fd = open_side(path, os.O_RDONLY)
    try:
        parts, left = [], limit
        while left > 0:
            part = os.read(fd, min(left, 1 << 20))
            if not part:
                break
            parts.append(part)
            left -= len(part)
        return b"".join(parts)
    finally:
        os.close(fd)


def aside_path(path: str | Path, tag: str = "damaged") -> Path:
    """`X.<tag>`, else `X.<tag>-2`, `-3`…: the first name not taken (a link counts as taken)."""
    path = Path(path)
    n = 1
    while True:
        target = path.with_name(path.name + (f".{tag}" if n == 1 else f".{tag}-{n}"))
        if not os.path.lexists(target):
            return target
        n += 1


def set_aside(path: str | Path, tag: str = "damaged") -> Path:
    """Rename a side file that cannot be used to `X.<tag>` (see `aside_path`): kept for the GM
    to read, out of the way. OSError when it cannot be renamed."""
    path = Path(path)
    target = aside_path(path, tag)
    os.rename(path, target)
    fsync_dir(path.parent)
    return target


@record(frozen=True)
class CampaignFiles:
    """Where a campaign's files are, found once when it is opened, from the file it names then:
    a campaign swapped for a link while open never moves its side files (or its saves) along
    the link."""

    real: Path                  # the campaign file itself (a link followed once, at opening)
    lock: Path
    journal: Path
    rolls: Path
    history: Path
    pending: Path

    @classmethod
    def of(cls, campaign_path: str | Path) -> "CampaignFiles":
        real = real_path(Path(campaign_path).absolute())
        return cls(real, lock_path(real), journal_path(real), rolls_path(real), history_path(real),
                   pending_path(real))

    def sides(self) -> tuple[Path, ...]:
        """The side files gmscreen writes beside the campaign, the lock first."""
        return (self.lock, self.journal, self.rolls, self.history, self.pending)

    def first_refused(self) -> SideFileRefused | None:
        """The first side file that is a link (or not a regular file), if any."""
        for path in self.sides():
            problem = refused(path)
            if problem is not None:
                return problem
        return None
