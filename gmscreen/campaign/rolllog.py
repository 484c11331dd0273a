"""The roll log: `X.rolls.toml` beside `X.toml`, one `[[roll]]` table per roll, append-only.

A roll is recorded by appending one small chunk (one `os.write`, then fsync), so recording
costs the same whatever the size of the log, and a crash can tear at most the entry being
written. Showing a GM-only roll to the players later appends a `[[reveal]]` entry instead of
touching the roll. An entry reads on a few lines:

    [[roll]]
    seq = 12
    time = "2025-03-01T21:04:11+01:00"
    session = 3
    who = "Loriane"
    line = "loriane eloquence sd3"
    request = { system = "<id>", kind = "simple", pool = 5, difficulty = 3 }
    result = { system = "<id>", kind = "simple", hidden = false, outcome = "success", ... }
"""

from __future__ import annotations

import datetime as _dt
import os
from pathlib import Path
from typing import Any, Callable, Mapping

from gmscreen.i18n import N_, _, os_reason

from . import _toml
from ._appendlog import (AppendFile, EntryError, Scan, beside, check_size, file_header, format_line,
                         oversize_message, read_whole, scan)
from .errors import CampaignError, Problem
from .limits import (MAX_COUNT, MAX_LOG_ENTRY_BYTES, MAX_SEED, MAX_SEQ, MAX_STRING, is_int_in, out_of_range,
                     shown)
from .safeload import thousands
from .model import RollRecord
from .rolltail import (TAIL_ROLLS, LazyRecords, OlderIndex, SeqLookup, build_index, revealed_after, session_range,
                       tail_start)
from .paths import rolls_path  # noqa: F401 (also said from here)
from .rollentry import LOG_FORMAT, NAMES, convert_entry, head_warnings, header_warnings  # noqa: F401 (said here too)

_HEADER = file_header(("gmscreen roll log of {campaign}: one [[roll]] table per roll, oldest first.",
                       "Append-only: gmscreen never rewrites an entry; [[reveal]] shows a GM-only roll later."),
                      LOG_FORMAT)


def now_iso() -> str:
    """Local time with its UTC offset, to the second: what a GM reads in the log."""
    return _dt.datetime.now().astimezone().isoformat(timespec="seconds")


def _writable(path: Path, rec: RollRecord) -> RollRecord:
    """`rec` as it may be written (what the reader takes back, `limits`): its session and seed in
    range, else CampaignError (nothing written); its `who` and `line` at most MAX_STRING characters."""
    for key, value, lo, hi in (("session", rec.session, 1, MAX_COUNT), ("seed", rec.seed, 0, MAX_SEED)):
        if not (value is None and key == "seed") and not is_int_in(value, lo, hi):
            raise CampaignError([Problem(str(path), key, _("roll not recorded: {problem}").format(
                problem=out_of_range(key, shown(value), lo, hi)))])
    rec.who, rec.line = rec.who[:MAX_STRING], rec.line[:MAX_STRING]
    return rec


def _next_seq(path: Path, last: int) -> int:
    if last >= MAX_SEQ:
        raise CampaignError([Problem(str(path), "roll", _("roll not recorded: the log has reached roll number "
                                                          "{n}, the most it numbers; move it away to start a new "
                                                          "one").format(n=thousands(MAX_SEQ)))])
    return last + 1


def _entry_text(path: Path, rec: RollRecord) -> str:
    text = format_roll(rec)
    size = len(text.encode("utf-8"))
    if size > MAX_LOG_ENTRY_BYTES:
        raise CampaignError([Problem(str(path), "roll", _("roll not recorded: {problem}").format(
            problem=oversize_message(size)))])
    return text


def format_roll(rec: RollRecord) -> str:
    """The chunk appended for one roll; `result` last so a torn write leaves it unclosed."""
    s = _toml.string
    lines = ["", "[[roll]]", f"seq = {rec.seq}", f"time = {s(rec.time)}", f"session = {rec.session}",
             f"who = {s(rec.who)}", f"line = {s(rec.line)}"]
    if rec.gm_only:
        lines.append("gm_only = true")
    if rec.seed is not None:
        lines.append(f"seed = {rec.seed}")
    if rec.pending is not None:
        lines.append(f"pending = {s(rec.pending)}")
    lines.append(f"request = {_toml.value(rec.request)}")
    lines.append(f"result = {_toml.value(rec.result)}")
    return "\n".join(lines) + "\n"


def format_reveal(seq: int, time: str) -> str:
    return f"\n[[reveal]]\nseq = {seq}\ntime = {_toml.string(time)}\n"


def masked(rec: RollRecord) -> bool:
    """A roll the players must not see yet: GM-only, or with a secret difficulty, and not revealed."""
    return (rec.gm_only or bool(rec.result.get("hidden"))) and not rec.revealed


class RollLog:
    """The roll log of one campaign: every record in memory, and the appending end if writable."""

    def __init__(self, path: Path, campaign_name: str = "") -> None:
        self.path = Path(path)
        self.campaign_name = campaign_name or self.path.name.replace(".rolls.toml", ".toml")
        # Read whole: a list and a dict; read from its tail (`load_recent`): the same reads
        # on a `LazyRecords` and a `SeqLookup`.
        self.records: list[RollRecord] | LazyRecords = []
        self.by_seq: dict[int, RollRecord] | SeqLookup = {}
        self.warnings: list[Problem] = []
        self.last_seq = 0
        self._file: AppendFile | None = None
        self._writable = False
        self._size = 0
        self._lines = 0
        self._counts: dict[str, int] = {}

    # -- reading

    @classmethod
    def load(cls, path: str | Path) -> "RollLog":
        """Every roll of the log (none when the file does not exist yet). Reads only.

        Raises CampaignError when the file cannot be read or has a newer format; a torn
        last entry or a damaged one is reported in `warnings` and skipped.
        """
        log = cls(Path(path))
        read = read_whole(log.path, NAMES, convert_entry, what=N_("roll log entry"), called=N_("roll log"),
                          expected=N_("expected a roll log gmscreen can read"))
        if read is None:
            return log
        data, found = read
        log._check_header(found, format_line(data))
        log._integrate(found)
        log._size = found.good_end
        log._lines = found.lines
        log._counts = {n: len(v) for n, v in found.entries.items()}
        return log

    @classmethod
    def load_recent(cls, path: str | Path, tail: int = TAIL_ROLLS) -> "RollLog":
        """The newest `tail` rolls only, read backwards from the end of the file: what the
        screen needs first, at the same cost with 1,000 or 100,000 rolls. `records` is then
        a `LazyRecords` (a sequence); `index_older` + `install_index` put the older rolls
        behind it, parsed when asked for. Raises as `load` does."""
        log = cls(Path(path))
        fd = log._open_read()
        if fd is None:
            return log
        try:
            size = os.fstat(fd).st_size
            check_size(str(log.path), size, N_("expected a roll log gmscreen can read"))
            start = tail_start(fd, size, tail)
            if start == 0:
                os.close(fd)
                fd = -1
                return cls.load(path)       # a short log: read whole, as before
            log._check_head(fd, size)
            data = os.pread(fd, size - start, start)
            found = scan(data, str(log.path), NAMES, convert_entry, what=N_("roll log entry"))
            if found.problems:      # (rare) said with their line and place: what comes before is counted
                lines, before = _count_before(fd, start)
                found = scan(data, str(log.path), NAMES, convert_entry, what=N_("roll log entry"), base_line=lines,
                             first_index=before)
        finally:
            if fd >= 0:
                os.close(fd)
        log.records = LazyRecords([], start, log._parse_between)
        log.by_seq = SeqLookup(log.records)
        log._integrate(found)
        log._size = start + found.good_end
        log._lines = found.lines            # counted from the tail until the older part is indexed
        log._counts = {n: len(v) for n, v in found.entries.items()}
        return log

    @classmethod
    def load_session(cls, path: str | Path, session: int) -> "RollLog":
        """The rolls of one session only (`gmscreen export --session N`): found by bisection
        over the file, since sessions only grow along the log, so the cost is that session's,
        not the log's. A log laid out by hand (or numbered out of order) is read whole and
        filtered: slower, the same rolls."""
        log = cls(Path(path))
        fd = log._open_read()
        if fd is None:
            return log
        try:
            size = os.fstat(fd).st_size
            check_size(str(log.path), size, N_("expected a roll log gmscreen can read"))
            log._check_head(fd, size)
            end, revealed = 0, set()                # (read only when the range is found)
            try:
                start, end = session_range(fd, size, session)
                if end < size and _last_session(fd, size) < session + 1:
                    raise ValueError("sessions numbered back by hand")
                revealed = revealed_after(fd, size, end)
            except ValueError:
                start = -1
            data = os.pread(fd, end - start, start) if start >= 0 else b""
            found = scan(data, str(log.path), NAMES, convert_entry, what=N_("roll log entry"))
            if found.problems and start > 0:    # said with their line and place, as in the whole log
                lines, before = _count_before(fd, start)
                found = scan(data, str(log.path), NAMES, convert_entry, what=N_("roll log entry"), base_line=lines,
                             first_index=before)
        finally:
            os.close(fd)
        if start < 0 or any(r.session != session for r in found.entries["roll"]) or (
                not found.entries["roll"] and session_seen_elsewhere(log.path, session)):
            return cls._load_where(path, lambda rec: rec.session == session)
        revealed |= set(found.entries["reveal"])
        found.entries["reveal"] = []
        log._integrate(found)
        for seq in revealed:
            rec = log.by_seq.get(seq)
            if rec is not None:
                rec.revealed = True
        return log

    @classmethod
    def _load_where(cls, path: str | Path, keep: Callable[[RollRecord], bool]) -> "RollLog":
        """The rolls that `keep` keeps, from the whole log read a piece at a time (`rollstream`):
        memory for those rolls only, whatever the length of the log."""
        from .rollstream import RollStream

        log = cls(Path(path))
        stream = RollStream(log.path, on_problem=log.warnings.append)
        log.records = [rec for rec in stream.rolls() if keep(rec)]
        for rec in log.records:
            rec.revealed = rec.revealed or stream.revealed(rec.seq)
        log.by_seq = {rec.seq: rec for rec in log.records}
        log.last_seq = stream.last_seq
        return log

    def _open_read(self) -> int | None:
        """A read-only descriptor on the log (None: no log yet); CampaignError when unreadable."""
        try:
            return os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise CampaignError([Problem(str(self.path), "", _("cannot read the {file}: {reason}").format(
                file=_("roll log"), reason=os_reason(exc)))]) from None

    def _check_head(self, fd: int, size: int) -> None:
        """The header's format checked from the file's first entry alone (a read from the end)."""
        head = os.pread(fd, min(size, 4096), 0)
        cut = head.find(b"\n[[")
        found = scan(head[: cut + 1] if cut >= 0 else head, str(self.path), NAMES, convert_entry)
        if not found.torn:
            self._check_header(found, format_line(head))

    def _parse_between(self, start: int, end: int) -> list[RollRecord]:
        """The rolls of the bytes [start, end) of the file (entry boundaries)."""
        with open(self.path, "rb") as f:
            f.seek(start)
            data = f.read(end - start)
        return scan(data, str(self.path), NAMES, convert_entry, what=N_("roll log entry")).entries["roll"]

    def index_older(self, pause: Callable[[], object] | None = None) -> OlderIndex | None:
        """Where each roll before the tail is (in a thread); None when all are already there.
        `install_index` (on the thread that reads the records) puts them in place. `pause`: see
        `build_index`."""
        records = self.records
        if not isinstance(records, LazyRecords) or records.indexed:
            return None

        def parse_whole(data: bytes) -> list[RollRecord]:
            found = scan(data, str(self.path), NAMES, convert_entry, what=N_("roll log entry"))
            self.warnings.extend(p for p in found.problems if p not in self.warnings)
            return found.entries["roll"]

        with open(self.path, "rb") as f:
            return build_index(f.fileno(), records.older_end, parse_whole, pause, str(self.path))

    def install_index(self, index: OlderIndex | None) -> None:
        records = self.records
        if index is None or not isinstance(records, LazyRecords) or records.indexed:
            return
        records.install(index)
        self.warnings.extend(p for p in index.problems if p not in self.warnings)
        if index.seqs:
            self.last_seq = max(self.last_seq, max(index.seqs))
        elif index.records:
            self.last_seq = max(self.last_seq, max(r.seq for r in index.records))
        self._lines += index.lines
        self._counts["roll"] = self._counts.get("roll", 0) + records.older_count
        if self._file is not None:
            self._file.lines += index.lines
            self._file.counts["roll"] = self._file.counts.get("roll", 0) + records.older_count

    def follow(self) -> int:
        """Take in rolls another process appended (`gmscreen roll --campaign`, `gmscreen line`):
        a stat when nothing changed, else only the new bytes. Returns how many rolls came."""
        end = self._file.end if self._file is not None else self._size
        try:
            size = os.stat(self.path).st_size
        except OSError:
            return 0
        if size == end:
            return 0
        before = len(self.records)
        self.catch_up()
        return max(0, len(self.records) - before)

    def read_appended(self) -> int:
        """`follow` for a reader that must not write (the player view): the new bytes through a
        read-only descriptor, no lock taken, nothing created. An entry still being written is
        left for the next call. Returns how many rolls came."""
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            return 0
        try:
            size = os.fstat(fd).st_size
            data = os.pread(fd, size - self._size, self._size) if size > self._size else b""
        finally:
            os.close(fd)
        if not data:
            return 0
        found = scan(data, str(self.path), NAMES, convert_entry, what=N_("roll log entry"))
        if found.torn:
            found.problems = []         # an entry being written: read whole next time, not a fault
        before = len(self.records)
        self._integrate(found)
        self._size += found.good_end
        return len(self.records) - before

    def _check_header(self, found: Scan, line: int | None = None) -> None:
        self.warnings.extend(header_warnings(self.path, found, line))

    def _integrate(self, found: Scan) -> None:
        for p in found.problems:
            if p not in self.warnings:
                self.warnings.append(p)
        for rec in found.entries["roll"]:
            if rec.seq in self.by_seq or rec.seq <= self.last_seq:
                self.warnings.append(Problem(str(self.path), "roll", _("roll seq {seq} out of order or repeated "
                                                                       "(after {last}): kept").format(
                    seq=rec.seq, last=self.last_seq), None, True))
            self.records.append(rec)
            self.by_seq[rec.seq] = rec
            if rec.seq > self.last_seq:
                self.last_seq = rec.seq
        for seq in found.entries["reveal"]:
            rec = self.by_seq.get(seq)
            if rec is None and isinstance(self.records, LazyRecords) and self.records.may_be_older(seq):
                self.records.mark_revealed(seq)     # a roll older than the tail read so far
            elif rec is None:
                self.warnings.append(Problem(str(self.path), "reveal", _("reveal of roll {seq}, which is not "
                                                                         "in the log: ignored").format(seq=seq),
                                             None, True))
            else:
                rec.revealed = True
                if isinstance(self.records, LazyRecords):
                    self.records.mark_revealed(seq)

    # -- writing

    @property
    def writable(self) -> bool:
        return self._writable

    def open_append(self) -> None:
        """Start appending; a torn last entry (already reported on load) is cut off by the
        next roll, not now. A log that does not exist yet is created with the first roll."""
        self._writable = True
        if self.path.exists():
            self._open_file()

    def _open_file(self) -> AppendFile:
        if self._file is None:
            header = _HEADER.format(campaign=self.campaign_name)
            self._file = AppendFile(self.path, NAMES, header, convert_entry, what=N_("roll log entry"),
                                    end=self._size, lines=self._lines, counts=self._counts)
            with self._file.locked():
                self._sync()
        return self._file

    def _sync(self) -> None:
        assert self._file is not None
        reset, found = self._file.sync()
        if reset:
            self.records, self.by_seq, self.last_seq = [], {}, 0
        if found.header:
            self._check_header(found)
        self._integrate(found)

    def catch_up(self) -> None:
        """Take in what was appended since this log was read (a roll recorded meanwhile)."""
        file = self._open_file()
        with file.locked():
            self._sync()

    def record(self, *, session: int, who: str, line: str, request: Mapping[str, Any],
               result: Mapping[str, Any], gm_only: bool = False, seed: int | None = None,
               time: str | None = None, pending: str | None = None) -> RollRecord:
        """Append one roll (flushed and fsynced before returning); None values are dropped.
        `pending`: the id of the pending roll (X.pending.toml) this roll settles."""
        if not self._writable:
            raise RuntimeError("roll log not open for appending")
        rec = _writable(self.path, RollRecord(0, time or now_iso(), session, str(who), str(line),
                                              _toml.drop_none(dict(request)), _toml.drop_none(dict(result)),
                                              bool(gm_only), False, seed, pending))
        file = self._open_file()
        with file.locked():
            self._sync()
            rec.seq = _next_seq(self.path, self.last_seq)
            file.write(_entry_text(self.path, rec), "roll")
        self.records.append(rec)
        self.by_seq[rec.seq] = rec
        self.last_seq = rec.seq
        return rec

    def add_unsaved(self, *, session: int, who: str, line: str, request: Mapping[str, Any],
                    result: Mapping[str, Any], gm_only: bool = False, seed: int | None = None,
                    pending: str | None = None) -> RollRecord:
        """A roll kept in memory only (read-only sessions)."""
        rec = _writable(self.path, RollRecord(self.last_seq + 1, now_iso(), session, str(who), str(line),
                                              _toml.drop_none(dict(request)), _toml.drop_none(dict(result)),
                                              bool(gm_only), False, seed, pending))
        self.records.append(rec)
        self.by_seq[rec.seq] = rec
        self.last_seq = rec.seq
        return rec

    def reveal(self, seq: int) -> None:
        """Show a GM-only (or secret-difficulty) roll: appends a [[reveal]] entry."""
        rec = self.by_seq.get(seq)
        if rec is None:
            raise KeyError(f"no roll {seq} in the log")
        if not (rec.gm_only or rec.result.get("hidden")):
            raise ValueError(f"roll {seq} is not a GM-only roll: there is nothing to reveal")
        if rec.revealed:
            return
        if self._writable:
            file = self._open_file()
            with file.locked():
                self._sync()
                if not rec.revealed:
                    file.write(format_reveal(seq, now_iso()), "reveal")
        rec.revealed = True
        if isinstance(self.records, LazyRecords):
            self.records.mark_revealed(seq)

    def _number_from_tail(self) -> None:
        """Set `last_seq` from the last roll of the file, cutting off a torn tail. Under the file lock."""
        f = self._file
        assert f is not None
        size = os.fstat(f.fd).st_size
        head = os.pread(f.fd, min(size, 4096), 0)
        cut = head.find(b"\n[[")
        if cut >= 0 or size <= 4096:
            head_scan = scan(head[: cut + 1] if cut >= 0 else head, str(self.path), NAMES, convert_entry)
            if not head_scan.torn:
                self._check_header(head_scan)
        end = size
        while end > 0:
            start = _last_roll_line(f.fd, end)
            found = scan(os.pread(f.fd, end - start, start), str(self.path), NAMES, convert_entry,
                         what=N_("roll log entry"))
            # Line numbers are unknown here (the head of the file is not read).
            self.warnings.extend(Problem(p.file, p.path, p.message, None, True) for p in found.problems)
            if found.torn and end == size:
                os.ftruncate(f.fd, start + found.good_end)
                os.fsync(f.fd)
                size = start + found.good_end
            rolls = found.entries["roll"]
            if rolls or start == 0:
                self.last_seq = max((r.seq for r in rolls), default=0)
                break
            end = start         # the last roll was torn: number from the one before
        f.end = size

    def close(self) -> None:
        self._writable = False
        if self._file is not None:
            self._file.close()
            self._file = None


def append_one(path: str | Path, *, campaign_name: str, session: int, who: str, line: str,
               request: Mapping[str, Any], result: Mapping[str, Any], gm_only: bool = False,
               seed: int | None = None, time: str | None = None,
               pending: str | None = None) -> tuple[RollRecord, list[Problem]]:
    """Record one roll without loading the log (`gmscreen roll --campaign`, a pending roll
    recovered while the screen's log is still unread).

    The cost does not grow with the log: only the last entries are read, backwards from
    the end, to number the new roll. Returns the record and any warnings (a torn last
    entry, cut off before appending).
    """
    path = Path(path)
    log = RollLog(path, campaign_name)
    log._writable = True
    header = _HEADER.format(campaign=log.campaign_name)
    log._file = AppendFile(path, NAMES, header, convert_entry, what=N_("roll log entry"), end=0, lines=0, counts={})
    try:
        with log._file.locked():
            log._number_from_tail()
            rec = _writable(path, RollRecord(_next_seq(path, log.last_seq), time or now_iso(), session, str(who),
                                             str(line), _toml.drop_none(dict(request)), _toml.drop_none(dict(result)),
                                             bool(gm_only), False, seed, pending))
            log._file.write(_entry_text(path, rec), "roll")
    finally:
        log.close()
    return rec, log.warnings


def _count_before(fd: int, end: int) -> tuple[int, dict[str, int]]:
    """(newlines, entries of each name) in [0, end) of the file, a megabyte at a time: where the
    tail read from the end starts, for the lines and places of its problems."""
    lines, counts = 0, {name: 0 for name in NAMES}
    heads = {name: b"\n[[" + name.encode() + b"]]" for name in NAMES}
    pos, carry = 0, b"\n"
    while pos < end:
        piece = os.pread(fd, min(1 << 20, end - pos), pos)
        if not piece:
            break
        lines += piece.count(b"\n")
        joined = carry + piece
        for name, head in heads.items():
            counts[name] += joined.count(head) - carry.count(head)
        carry = joined[-16:]
        pos += len(piece)
    return lines, counts


_TAIL_WINDOW = 64 * 1024


def _last_session(fd: int, size: int) -> int:
    """The session of the last roll of the file (its log read backwards)."""
    start = _last_roll_line(fd, size)
    found = scan(os.pread(fd, size - start, start), "", NAMES, convert_entry)
    rolls = found.entries["roll"]
    return rolls[-1].session if rolls else 0


def session_seen_elsewhere(path: Path, session: int) -> bool:
    """Whether a log whose bisection found no roll of `session` names it anyway (hand-numbered
    sessions): a cheap look for the text `session = N` before reading it whole."""
    needle = f"\nsession = {session}\n".encode()
    with open(path, "rb") as f:
        tail = b""
        while piece := f.read(1 << 20):
            if needle in tail + piece:
                return True
            tail = piece[-len(needle):]
    return False


def _last_roll_line(fd: int, end: int) -> int:
    """Offset of the last `[[roll]]` line before `end`, reading backwards in growing windows; 0 if none."""
    window = _TAIL_WINDOW
    while True:
        start = max(0, end - window)
        data = os.pread(fd, end - start, start)
        i = data.rfind(b"\n[[roll]]")
        if i >= 0:
            return start + i + 1
        if start == 0:
            return 0
        window *= 4
