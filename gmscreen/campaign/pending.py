"""A roll shown to the table and still waiting for a choice: `X.pending.toml` beside `X.toml`.

The dice of such a roll (an Éclats reroll, a Magisphère Impulsion, an Arpèges parry) are on
screen before the roll is logged. So that no way out loses them — SIGKILL, a power cut — the
screen writes this file (atomically, fsynced) before it shows them, holding exactly what the
roll would log if every open choice took its default (what Enter does), with the resources
it would spend. Once the roll is in the log the file is removed; a crash before that leaves it
behind, and the next opening logs it as it stood (`CampaignSession.recover_pending`). The
logged roll carries the file's `id`, so a crash between logging and removing is recognised
and the roll is not logged twice. The file names its campaign (the file's name) and its game,
so that one from another campaign or game is set aside rather than logged (`recovery`); it is
never written or read through a link (`sidefile`).
"""

from __future__ import annotations

import contextlib
import os
import re
import tomllib
from dataclasses import field
from pathlib import Path
from typing import Any, Sequence

from gmscreen.i18n import N_, _, os_reason
from gmscreen.i18n.parsers import toml_error
from gmscreen.rules.records import record

from . import _toml
from ._appendlog import beside, fsync_dir, scan
from .errors import CampaignError, Problem
from .limits import MAX_COUNT, MAX_SEED, is_int_in
from .model import RollRecord
from .safeload import parse_problem
from .paths import pending_path  # noqa: F401 (also said from here)

PENDING_FORMAT = 1
MAX_BYTES = 1 << 20          # a pending roll is a few hundred bytes: anything this big is not one
_HEADER = (
    "# gmscreen: a roll shown to the table, waiting for a choice. Removed once the roll is logged;\n"
    "# if gmscreen stopped before that, the next opening logs it as it stood (each choice at its default).\n"
)


@record(frozen=True)
class PendingSpend:
    """One resource the roll uses up: the value at `path` after it (an absolute value, so that
    applying it twice is applying it once)."""

    path: tuple[str | int, ...]
    after: Any
    text: str


@record(frozen=True)
class PendingRoll:
    """What the roll logs if it is settled with its defaults (see module doc)."""

    id: str
    time: str
    session: int
    who: str
    line: str
    request: dict[str, Any]
    result: dict[str, Any]
    gm_only: bool = False
    seed: int | None = None
    spends: tuple[PendingSpend, ...] = field(default_factory=tuple)
    campaign: str = ""          # the campaign's file name, filled in by the session that writes it
    game: str = ""              # its system id, likewise


def new_pending_id() -> str:
    return os.urandom(8).hex()


# ---------------------------------------------------------------- writing


def format_pending(pending: PendingRoll) -> str:
    s, v = _toml.string, _toml.value
    lines = [_HEADER + f"format = {PENDING_FORMAT}", f"campaign = {s(pending.campaign)}", f"game = {s(pending.game)}",
             f"id = {s(pending.id)}", f"time = {s(pending.time)}",
             f"session = {int(pending.session)}", f"who = {s(pending.who)}", f"line = {s(pending.line)}",
             f"gm_only = {v(bool(pending.gm_only))}"]
    if pending.seed is not None:
        lines.append(f"seed = {int(pending.seed)}")
    lines.append(f"request = {v(_toml.drop_none(dict(pending.request)))}")
    lines.append(f"result = {v(_toml.drop_none(dict(pending.result)))}")
    spends = [{"path": list(sp.path), "after": _toml.drop_none(sp.after), "text": sp.text}
              for sp in pending.spends if sp.after is not None]
    lines.append(f"spend = {v(spends)}")
    return "\n".join(lines) + "\n"


def write_pending(path: str | Path, pending: PendingRoll) -> None:
    """Replace the pending file atomically (temp file, fsync, rename, folder fsync), never
    through a link. OSError on failure (`sidefile.SideFileRefused` for a link)."""
    from .store import write_atomic

    write_atomic(path, format_pending(pending).encode("utf-8"), backup=False, follow=False)


def remove_pending(path: str | Path) -> None:
    """The roll is logged: the file goes, durably (a power cut must not bring it back)."""
    path = Path(path)
    try:
        os.unlink(path)
    except FileNotFoundError:
        return
    fsync_dir(path.parent)


def remove_stale_temps(path: str | Path) -> None:
    """Temporary files of a pending write that a kill cut short. Call only holding the lock."""
    path = Path(path)
    pattern = re.compile(rf"\.{re.escape(path.name)}\.\d+\.[0-9a-f]+\.tmp\Z")
    with contextlib.suppress(OSError):
        for name in os.listdir(path.parent):
            if pattern.match(name):
                with contextlib.suppress(OSError):
                    os.unlink(path.parent / name)


def set_aside(path: str | Path) -> Path:
    """Rename a damaged pending file to `X.pending.toml.damaged` (`.damaged-2`…): kept for the
    GM to read, out of the way of the next roll."""
    from .sidefile import set_aside as rename_aside

    return rename_aside(path)


# ---------------------------------------------------------------- reading


def read_pending(path: str | Path) -> PendingRoll | None:
    """The pending roll, None when there is none. CampaignError (file, key, what was expected)
    when the file cannot be used."""
    path = Path(path)
    name = str(path)
    from .sidefile import read_side

    try:
        data = read_side(path, MAX_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CampaignError([Problem(name, "", _("cannot read the pending roll: {reason}").format(
            reason=os_reason(exc)))]) from None
    if len(data) > MAX_BYTES:
        raise CampaignError([Problem(name, "", _("larger than {count} bytes: expected one pending roll").format(
            count=MAX_BYTES))])
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise CampaignError([Problem(name, "", _("invalid UTF-8 at byte offset {offset}: expected UTF-8 text").format(
            offset=exc.start))]) from None
    except tomllib.TOMLDecodeError as exc:
        raise CampaignError([Problem(name, "", _("not valid TOML ({reason}): expected one pending roll").format(
            reason=toml_error(exc)))]) from None
    except RecursionError:
        raise CampaignError([Problem(name, "", _("nested too deeply: expected one pending roll"))]) from None
    except ValueError as exc:           # a number of more digits than Python reads
        raise CampaignError([Problem(name, "", parse_problem(exc))]) from None
    return parse_pending(doc, name)


def parse_pending(doc: dict[str, Any], name: str = "pending roll") -> PendingRoll:
    def bad(key: str, expected: str) -> CampaignError:
        return CampaignError([Problem(name, key, _("expected {what}, got {value}").format(
            what=expected, value=_short(doc.get(key))))])

    fmt = doc.get("format")
    if type(fmt) is not int or fmt < 1:
        raise bad("format", _("the pending roll format, an integer ({format})").format(format=PENDING_FORMAT))
    if fmt > PENDING_FORMAT:
        raise CampaignError([Problem(name, "format", _("written by a newer gmscreen (pending roll format {found}); "
                                                       "this version reads format {format}").format(
            found=fmt, format=PENDING_FORMAT))])
    for key in ("campaign", "game"):
        if type(doc.get(key)) is not str or not doc[key]:
            raise bad(key, _("the campaign's file name") if key == "campaign" else _("the campaign's game"))
    for key in ("id", "time", "who", "line"):
        if type(doc.get(key)) is not str or (key == "id" and not doc[key]):
            raise bad(key, _("a string") if key != "id" else _("a non-empty string"))
    if not is_int_in(doc.get("session"), 1, MAX_COUNT):       # (`limits`: what the roll log takes)
        raise bad("session", _("an integer from {lo} to {hi}").format(lo=1, hi=MAX_COUNT))
    for key in ("request", "result"):
        if type(doc.get(key)) is not dict:
            raise bad(key, _("a table"))
    if type(doc.get("gm_only", False)) is not bool:
        raise bad("gm_only", _("true or false"))
    seed = doc.get("seed")
    if seed is not None and not is_int_in(seed, 0, MAX_SEED):
        raise bad("seed", _("an integer from {lo} to {hi}").format(lo=0, hi=MAX_SEED))
    spends_data = doc.get("spend", [])
    if type(spends_data) is not list:
        raise bad("spend", _("an array of tables"))
    spends = []
    for i, item in enumerate(spends_data):
        where = f"spend[{i}]"
        if type(item) is not dict:
            raise CampaignError([Problem(name, where, _("expected a table (path, after, text)"))])
        path = item.get("path")
        if (type(path) is not list or not path
                or any(type(step) not in (str, int) for step in path)):
            raise CampaignError([Problem(name, where + ".path", _("expected a non-empty array of keys and indexes"))])
        if "after" not in item:
            raise CampaignError([Problem(name, where + ".after", _("expected the value after the spending"))])
        if type(item.get("text")) is not str:
            raise CampaignError([Problem(name, where + ".text", _("expected a string"))])
        spends.append(PendingSpend(tuple(path), item["after"], item["text"]))
    return PendingRoll(doc["id"], doc["time"], doc["session"], doc["who"], doc["line"], doc["request"],
                       doc["result"], doc.get("gm_only", False), seed, tuple(spends), doc["campaign"], doc["game"])


def _short(value: Any) -> str:
    text = repr(value) if value is not None else _("nothing")
    return text if len(text) <= 40 else text[:37] + "..."


# ---------------------------------------------------------------- was it logged already?


_TAIL = 64 * 1024


def logged_in_tail(rolls_file: str | Path, pending_id: str) -> bool:
    """Whether one of the last rolls of the log (its last 64 KiB, read without loading the log)
    carries `pending_id`: the screen logged it, then stopped before removing the pending file."""
    from .rollentry import NAMES, convert_entry

    try:
        with open(rolls_file, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - _TAIL))
            data = f.read()
    except FileNotFoundError:
        return False
    if size > _TAIL:
        cut = data.find(b"\n[[roll]]")
        if cut < 0:
            return False
        data = data[cut + 1:]
    try:
        found = scan(data, str(rolls_file), NAMES, convert_entry, what=N_("roll log entry"))
    except RecursionError:
        return False
    return any(isinstance(rec, RollRecord) and rec.pending == pending_id for rec in found.entries["roll"])


def logged_in(records: Sequence[RollRecord], pending_id: str, last: int = 50) -> bool:
    """The same question asked of a log already in memory."""
    return any(rec.pending == pending_id for rec in records[-last:])
