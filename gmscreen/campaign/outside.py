"""Changes made to the campaign file by someone else: a hand edit, git, a sync tool.

The session remembers what the file held when it last read or wrote it (`store.Stamp`).
`look` compares the file with it: its stat first (cheap enough for every two seconds), the
hash of its bytes only when the stat changed or before a save. Another version is read and
parsed by `read_version`, never written over: the session takes it in when it has nothing
unsaved, else keeps both and lets the GM choose. The side files made then (`keep_aside`)
hold every byte of the version the GM did not keep in `X.toml`. A link (or anything but a
regular file) put in place of `X.toml` is a version of its own (`refused_version`): never
read, taken in or saved through.
"""

from __future__ import annotations

import datetime as _dt
import errno
import os
from dataclasses import field
from pathlib import Path
from typing import Any

from gmscreen.i18n import _, os_reason
from gmscreen.rules.records import record

from ..rules import RequestError, get_system
from ._appendlog import real_path
from .errors import CampaignError, Problem
from .model import Campaign
from .store import Stamp, _migrated, campaign_data, current_signature, decode_text, digest_of, parse_text, \
    read_bytes, write_atomic

# Where the version the GM did not keep in X.toml goes (see `side_path`).
SIDE_KINDS = ("theirs", "mine-aside", "mine")


@record
class OutsideVersion:
    """A version of the campaign file this session did not write (or None bytes: gone)."""

    stamp: Stamp
    raw: bytes | None
    text: str = ""
    campaign: Campaign | None = None
    data: dict[str, Any] | None = None          # its plain data, for style-preserving saves
    warnings: list[Problem] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)   # why it does not load
    refused: str = ""           # a link or not a regular file: why it is neither read nor written

    @property
    def missing(self) -> bool:
        return self.raw is None and not self.refused

    @property
    def loads(self) -> bool:
        return self.campaign is not None


@record
class DiskEvent:
    """What a look at the disk found, for the screen to say. kind: "taken" (their version is
    now the session's), "conflict" (both changed: `session.disk_conflict` waits for the GM),
    "invalid" (theirs does not load: ours kept in memory, theirs left untouched), "missing"
    (the file was deleted: the next save writes it again)."""

    kind: str
    path: Path
    problems: list[Problem] = field(default_factory=list)


def look(path: Path, known: Stamp, *, thorough: bool = False) -> tuple[Stamp, bytes | None] | None:
    """None when the file is still the `known` version; else its stamp and bytes now (None
    bytes: no file). The stat is compared first; the bytes are read and hashed only when it
    differs, or always when `thorough` (before a save)."""
    signature = current_signature(path)
    if signature is not None and signature == known.signature and not thorough:
        return None
    if signature is None:
        return (Stamp(None, ""), None) if known.signature is not None or known.digest else None
    try:
        raw = read_bytes(path)
    except CampaignError:
        return None             # unreadable for a moment (being replaced): look again later
    stamp = Stamp(signature, digest_of(raw))
    return stamp, raw


def read_version(path: Path, stamp: Stamp, raw: bytes | None) -> OutsideVersion:
    """Parse (validate) a version found by `look`; never raises for a bad file."""
    version = OutsideVersion(stamp, raw)
    if raw is None:
        return version
    try:
        version.text = decode_text(raw, str(path))
        campaign, warnings = parse_text(version.text, str(path))
        get_system(campaign.system)
    except CampaignError as exc:
        version.problems = list(exc.problems) or [Problem(str(path), "", str(exc))]
        return version
    except RequestError as exc:
        version.problems = [Problem(str(path), "system", exc.reason)]
        return version
    except (RecursionError, MemoryError, ValueError) as exc:
        version.problems = [Problem(str(path), "", _("cannot be read: {error}").format(error=exc))]
        return version
    version.campaign = campaign
    version.warnings = warnings
    version.data = None if _migrated(warnings) else campaign_data(campaign)
    return version


def refused_version(path: Path, why: OSError) -> OutsideVersion:
    """The version that is a link (or a FIFO, a device) put in place of the campaign file:
    stamped by the link itself, never read through it."""
    try:
        st = os.lstat(path)
        signature = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        target = os.readlink(path) if os.path.islink(path) else ""
    except OSError:
        signature, target = None, ""
    reason = os_reason(why)
    return OutsideVersion(Stamp(signature, f"refused:{target}"), None, refused=reason,
                          problems=[Problem(str(path), "", reason)])


def side_path(path: str | Path, kind: str, when: _dt.datetime | None = None, n: int = 1, *,
              follow: bool = True) -> Path:
    """`X.toml.theirs-<time>` (theirs, replaced by mine), `X.toml.mine-<time>` (mine, dropped
    for theirs), `X.mine-<time>.toml` (mine, kept beside theirs as a campaign of its own)."""
    if kind not in SIDE_KINDS:
        raise ValueError(f"kind: expected one of {', '.join(SIDE_KINDS)}")
    p = real_path(path) if follow else Path(path)
    stamp = (when or _dt.datetime.now()).strftime("%Y%m%d-%H%M%S") + (f"-{n}" if n > 1 else "")
    if kind == "mine":
        stem, suffix = (p.name[:-5], ".toml") if p.name.endswith(".toml") else (p.name, "")
        return p.with_name(f"{stem}.mine-{stamp}{suffix}")
    # "mine-aside" is named as the README and the conflict dialog say it: X.toml.mine-<time>, the
    # twin of X.toml.theirs-<time> (X.mine-<time>.toml, a campaign of its own, differs by its end).
    word = "mine" if kind == "mine-aside" else kind
    return p.with_name(f"{p.name}.{word}-{stamp}")


def move_aside(path: Path, kind: str) -> Path:
    """Give the entry at `path` (a link, a FIFO: never opened) the first free side name of
    `kind`, beside it; its new path. OSError when it cannot be moved."""
    from ._appendlog import fsync_dir

    when = _dt.datetime.now()
    for n in range(1, 1000):
        target = side_path(path, kind, when, n, follow=False)
        try:
            os.link(path, target, follow_symlinks=False)     # never over an existing name
        except FileExistsError:
            continue
        except OSError:
            if os.path.lexists(target):
                continue
            os.rename(path, target)         # no hard links here
        else:
            os.unlink(path)
        fsync_dir(path.parent)
        return target
    raise FileExistsError(errno.EEXIST, "no free name for a side file", str(side_path(path, kind, when,
                                                                                      follow=False)))


def keep_aside(path: str | Path, data: bytes, kind: str, *, follow: bool = True) -> Path:
    """Write `data` to a new side file of `kind` (never over an existing file, never through a
    link); its path. `follow`: `path` may be a link, the side file goes beside the file it
    names (False: beside `path` itself, the file a session opened). OSError when it cannot be
    written: the caller then keeps everything as it was."""
    when = _dt.datetime.now()
    for n in range(1, 1000):
        target = side_path(path, kind, when, n, follow=follow)
        try:
            write_atomic(target, data, backup=False, exclusive=True, follow=False)
        except FileExistsError:
            continue
        return target
    raise FileExistsError(errno.EEXIST, "no free name for a side file", str(side_path(path, kind, when,
                                                                                      follow=follow)))
