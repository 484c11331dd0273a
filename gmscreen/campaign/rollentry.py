"""One entry of the roll log read back from its TOML table and checked (a roll or a reveal),
and the log's header: what `rolllog` (which writes and indexes) and `rollstream` (which reads a
piece at a time) share, so that neither imports the other."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from gmscreen.i18n import _, os_reason

from ._appendlog import EntryError, Scan, format_line, scan
from .errors import CampaignError, Problem
from .limits import MAX_COUNT, MAX_SEED, MAX_SEQ, is_int_in, out_of_range, shown
from .model import RollRecord

LOG_FORMAT = 1
NAMES = ("roll", "reveal")

_REQUIRED_ROLL = ("seq", "time", "session", "who", "line", "request", "result")


def convert_entry(name: str, d: Any) -> Any:
    """A `[[roll]]` table as a RollRecord, a `[[reveal]]` as the seq it shows; EntryError otherwise."""
    if not isinstance(d, dict):
        raise EntryError(_("expected a table"))
    if name == "reveal":
        seq = d.get("seq")
        if seq is None:
            raise EntryError(_("missing key {key}").format(key="'seq'"), incomplete=True)
        if "time" not in d:
            raise EntryError(_("missing key {key}").format(key="'time'"), incomplete=True)
        if not is_int_in(seq, 1, MAX_SEQ):
            raise _out_of_range("seq", seq, 1, MAX_SEQ)
        return seq
    try:
        seq = d["seq"]
        time = d["time"]
        session = d["session"]
        who = d["who"]
        line = d["line"]
        request = d["request"]
        result = d["result"]
    except KeyError:
        missing = next(k for k in _REQUIRED_ROLL if k not in d)
        raise EntryError(_("missing key {key}").format(key=repr(missing)), incomplete=True) from None
    if not is_int_in(seq, 1, MAX_SEQ):
        raise _out_of_range("seq", seq, 1, MAX_SEQ)
    if not is_int_in(session, 1, MAX_COUNT):
        raise _out_of_range("session", session, 1, MAX_COUNT)
    if type(time) is not str or type(who) is not str or type(line) is not str:
        bad = next(k for k in ("time", "who", "line") if type(d[k]) is not str)
        raise EntryError(_("{key}: expected a string, got {value}").format(key=bad, value=repr(d[bad])))
    if type(request) is not dict or type(result) is not dict:
        bad = "request" if type(request) is not dict else "result"
        raise EntryError(_("{key}: expected a table").format(key=bad))
    gm_only = d.get("gm_only", False)
    revealed = d.get("revealed", False)
    seed = d.get("seed")
    if type(gm_only) is not bool or type(revealed) is not bool:
        raise EntryError(_("{key}: expected true or false").format(key="gm_only, revealed"))
    if seed is not None and not is_int_in(seed, 0, MAX_SEED):
        raise _out_of_range("seed", seed, 0, MAX_SEED)
    pending = d.get("pending")           # optional: logs written before it read the same
    if pending is not None and type(pending) is not str:
        raise EntryError(_("{key}: expected a string, got {value}").format(key="pending", value=repr(pending)))
    return RollRecord(seq, time, session, who, line, request, result, gm_only, revealed, seed, pending)


def _out_of_range(key: str, value: Any, lo: int, hi: int) -> EntryError:
    """An entry whose number is not one gmscreen writes (see `limits` for each range)."""
    return EntryError(out_of_range(key, shown(value), lo, hi))


def header_warnings(path: Path, found: Scan, line: int | None = None) -> list[Problem]:
    """The log header's warnings (unknown keys); CampaignError when this version cannot read its format."""
    fmt = found.header.get("format", LOG_FORMAT)
    if type(fmt) is not int or fmt < 1:
        raise CampaignError([Problem(str(path), "format",
                                     _("expected the roll log format, an integer ({format}), got {found}").format(
                                         format=LOG_FORMAT, found=repr(fmt)), line)])
    if fmt > LOG_FORMAT:
        raise CampaignError([Problem(
            str(path), "format",
            _("written by a newer gmscreen (roll log format {found}); this version reads format {format}").format(
                found=fmt, format=LOG_FORMAT), line)])
    return [Problem(str(path), key, _("unknown key in the roll log: ignored"), None, True)
            for key in found.header if key != "format"]


def head_warnings(path: str | Path) -> list[Problem]:
    """The log's format checked from its head alone (its first entry): CampaignError when this
    version cannot read it (a newer format), else the warnings about its header."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise CampaignError([Problem(str(path), "", _("cannot read the {file}: {reason}").format(
            file=_("roll log"), reason=os_reason(exc)))]) from None
    try:
        head = os.pread(fd, min(os.fstat(fd).st_size, 4096), 0)
    finally:
        os.close(fd)
    cut = head.find(b"\n[[")
    found = scan(head[: cut + 1] if cut >= 0 else head, str(path), NAMES, convert_entry)
    return [] if found.torn else header_warnings(path, found, format_line(head))
