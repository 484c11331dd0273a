"""One writer per campaign: an OS file lock on `X.toml.lock` holding "pid@host".

`fcntl.flock` is released by the kernel when the holder dies (even by SIGKILL), so a stale
lock file never blocks anyone; the "pid@host" inside only tells the second gmscreen who
holds the campaign. The holder deletes the file when it lets go (so a closed campaign, or
one that failed to load, leaves no file behind); it unlinks it while still holding the
lock, and whoever locks checks afterwards that the file it locked is still the one the
path names, so two processes never hold two different files of the same name. The lock
file is never opened through a symbolic link (`sidefile`): a folder carrying
`X.toml.lock -> ../../.bashrc` gets a refusal naming the link, the file it points to untouched.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import socket
from pathlib import Path

from gmscreen.i18n import _

from ._appendlog import real_path
from .errors import CampaignLocked
from .sidefile import open_side, read_side
from .textsafe import clean
from .paths import lock_path  # noqa: F401 (also said from here)

_HOLDER_BYTES = 256             # "pid@host": anything longer is not ours, cut when shown


def _same_file(fd: int, path: Path) -> bool:
    """The open file `fd` is the one `path` names now (not deleted or replaced)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (st.st_dev, st.st_ino) == (mine.st_dev, mine.st_ino)


def holder_text() -> str:
    return f"{os.getpid()}@{socket.gethostname()}"


def read_holder(campaign_path: str | Path, lock_file: Path | None = None) -> str:
    """Who holds the campaign, as its lock file says ("pid@host"), shown literally."""
    try:
        text = read_side(lock_file or lock_path(campaign_path), _HOLDER_BYTES).decode("utf-8", errors="replace")
    except OSError:
        text = ""
    text = clean(text).strip()[:80]
    return text or _("another process")


class CampaignLock:
    """Exclusive, non-blocking lock of a campaign; `acquire` raises CampaignLocked when held."""

    def __init__(self, campaign_path: str | Path, path: Path | None = None) -> None:
        self.campaign_path = Path(campaign_path)
        self.path = path if path is not None else lock_path(campaign_path)
        self.fd = -1

    @property
    def held(self) -> bool:
        return self.fd >= 0

    def acquire(self) -> None:
        if self.fd >= 0:
            return
        while True:
            fd = open_side(self.path, os.O_RDWR | os.O_CREAT, 0o644)     # SideFileRefused for a link
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                if _same_file(fd, self.path):
                    break
            except BlockingIOError:
                os.close(fd)
                raise CampaignLocked(str(self.campaign_path), read_holder(self.campaign_path, self.path)) from None
            except BaseException:
                os.close(fd)
                raise
            os.close(fd)        # locked a file its holder had just deleted: lock the new one
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, (holder_text() + "\n").encode(), 0)
        except OSError:
            pass            # the lock holds anyway; only the holder's name is missing
        self.fd = fd

    def release(self) -> None:
        """Delete the lock file (still holding it), then let go."""
        if self.fd < 0:
            return
        fd, self.fd = self.fd, -1
        try:
            if _same_file(fd, self.path):
                os.unlink(self.path)
        except OSError:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)     # cannot delete it: at least it names nobody
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def __enter__(self) -> "CampaignLock":
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
