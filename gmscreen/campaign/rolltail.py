"""The roll log read from its end: the newest rolls parsed, older ones on demand.

A campaign's log grows for years (100,000 rolls is 40 MB of TOML, 400 MB once parsed), while
the screen shows a screenful and the quick-roll history wants a few hundred lines. So the
screen reads only the last `TAIL_ROLLS` entries (backwards from the end of the file), and
an index of the older ones — the byte offset, number and session of each, found by a fast
scan of the entry headers our writer lays out the same way every time — is built afterwards
in a thread. An older roll is then parsed when something asks for it (scrolling back,
search, reveal), a chunk of neighbours at a time, and forgotten again when other chunks are
needed. A log laid out otherwise (a hand edit) is parsed whole, as before: slower, still right.
"""

from __future__ import annotations

import os
import re
import threading
from array import array
from bisect import bisect_left
from collections import OrderedDict
from dataclasses import field
from functools import cache
from typing import Any, Callable, Iterator, Sequence, overload

from gmscreen.i18n import N_
from gmscreen.rules.records import record

from ._appendlog import ignored, oversize_message
from .errors import Problem
from .limits import MAX_COUNT, MAX_LOG_ENTRY_BYTES, MAX_SEQ, out_of_range, shown, shown_digits
from .model import RollRecord

TAIL_ROLLS = 500                # the newest rolls read at start: a screenful and the quick-roll history
CHUNK_ROLLS = 128               # older rolls parsed together when one of them is asked for
CACHED_CHUNKS = 16
_PIECE = 1 << 20                # bytes of the older part scanned at a time
_OVERLAP = 512                  # an entry header never spans more than this past a piece


# Every entry our writer appends starts so (see rolllog.format_roll / format_reveal); any
# other entry line (the empty alternative) means a hand-laid file, parsed whole.
@cache
def _entry() -> re.Pattern[bytes]:
    return re.compile(rb'\n\[\[(?:roll\]\]\nseq = (\d+)\ntime = "[^"\\\n]*"\nsession = (\d+)\n'
                      rb'|reveal\]\]\nseq = (\d+)\n|)')


@cache
def _roll_line() -> re.Pattern[bytes]:
    return re.compile(rb"\n\[\[roll\]\]")


def tail_start(fd: int, size: int, want: int) -> int:
    """Offset of the line starting the `want`-th last `[[roll]]` entry, 0 when there are fewer."""
    window = max(64 * 1024, want * 1024)
    while True:
        start = max(0, size - window)
        data = os.pread(fd, size - start, start)
        found = [m.start() for m in _roll_line().finditer(data)]
        if len(found) >= want:
            return start + found[-want] + 1
        if start == 0:
            return 0
        window *= 4


@record
class OlderIndex:
    """Where each roll before the tail starts, its number and session; the rolls revealed there."""

    offsets: array = field(default_factory=lambda: array("q"))
    seqs: array = field(default_factory=lambda: array("q"))
    sessions: array = field(default_factory=lambda: array("q"))
    revealed: set[int] = field(default_factory=set)
    end: int = 0                    # where the tail starts (the older part ends)
    lines: int = 0                  # newlines before `end`
    records: list[RollRecord] | None = None     # a hand-laid older part, parsed whole
    sorted: bool = True             # seqs increasing (as our writer numbers them)
    problems: list[Problem] = field(default_factory=list)   # entries left out: a number out of range


def build_index(fd: int, end: int, parse_whole: Callable[[bytes], list[RollRecord]],
                pause: Callable[[], object] | None = None, file: str = "") -> OlderIndex:
    """Scan [0, end) of the file for entry headers, a megabyte at a time (in a thread: each
    piece is short work, so the screen's loop gets the interpreter between them). `pause`,
    called before each piece, may hold the thread a moment (the screen answering a key).
    An entry whose number is out of its range (`limits`) is left out, with a problem naming
    its line (`file`), as the parser leaves it out when the entry is read."""
    index = OlderIndex(end=end)
    rolls = 0                       # roll entries seen, indexed or not (their place in messages)
    base, buffer, pos = -1, b"\n", 0
    nonstandard = False
    # The last roll indexed, until the entry after it says how large it is: [where it starts,
    # where in `buffer` (None once the buffer moved on), its line (known once it did), its place].
    last_roll: list | None = None

    def line_of(at: int) -> int:
        return index.lines + buffer.count(b"\n", 0, at + 1)

    def sized(next_start: int) -> None:
        """The last roll indexed ends where the next entry starts: left out if too large."""
        if last_roll is None or next_start - last_roll[0] <= MAX_LOG_ENTRY_BYTES:
            return
        line = last_roll[2] if last_roll[1] is None else line_of(last_roll[1])
        index.problems.append(Problem(file, f"roll[{last_roll[3]}]", ignored(
            oversize_message(next_start - last_roll[0]), N_("roll log entry")), line, True))
        del index.offsets[-1], index.seqs[-1], index.sessions[-1]
    while True:
        if pause is not None:
            pause()
        piece = os.pread(fd, min(_PIECE, end - pos), pos) if pos < end else b""
        pos += len(piece)
        buffer += piece
        last = pos >= end or not piece
        cut = len(buffer) if last else max(0, len(buffer) - _OVERLAP)
        for m in _entry().finditer(buffer, 0, len(buffer)):
            if m.start() >= cut:
                break
            sized(base + m.start() + 1)
            last_roll = None
            seq, session, reveal = m.group(1, 2, 3)
            if seq is not None:
                rolls += 1
                bad = _out_of_range(seq, session)
                if bad:
                    index.problems.append(Problem(file, f"roll[{rolls - 1}]", bad, line_of(m.start()), True))
                    continue
                index.offsets.append(base + m.start() + 1)
                index.seqs.append(int(seq))
                index.sessions.append(int(session))
                last_roll = [base + m.start() + 1, m.start(), None, rolls - 1]
            elif reveal is not None:
                if len(reveal) <= _DIGITS:
                    index.revealed.add(int(reveal))
            else:
                nonstandard = True
                break
        if nonstandard:
            break
        if last_roll is not None and last_roll[1] is not None:     # the buffer moves on: its line now
            last_roll[1:3] = [None, line_of(last_roll[1])]
        index.lines += buffer.count(b"\n", 0, cut)
        if last:
            sized(end)
            break
        base += cut
        buffer = buffer[cut:]
    index.lines -= 1                # the newline put before the first piece
    seqs = index.seqs
    index.sorted = all(seqs[k] < seqs[k + 1] for k in range(len(seqs) - 1))
    if nonstandard:
        data = os.pread(fd, end, 0)
        index.records = parse_whole(data)
        index.lines = data.count(b"\n")
        index.offsets, index.seqs, index.sessions = array("q"), array("q"), array("q")
        index.revealed = set()
        index.problems = []         # the parser said it, entry by entry
    return index


_DIGITS = len(str(MAX_SEQ))         # a number with more digits is out of range (and never int() it)


def _out_of_range(seq: bytes, session: bytes) -> str:
    """Why an indexed roll's numbers are not ones gmscreen writes ("" when they are fine)."""
    for key, digits, lo, hi in (("seq", seq, 1, MAX_SEQ), ("session", session, 1, MAX_COUNT)):
        value = int(digits) if len(digits) <= _DIGITS else None
        if value is None or not lo <= value <= hi:
            shown_value = shown(value) if value is not None else shown_digits(digits)
            return ignored(out_of_range(key, shown_value, lo, hi), N_("roll log entry"))
    return ""


class LazyRecords(Sequence[RollRecord]):
    """The log's records oldest first, as a list reads: the tail kept, older ones parsed on demand.

    Until the older part is indexed (`install`), only the tail is there. Indexes are stable
    between two installs; the screen's thread installs, so a pane never sees them shift.
    """

    def __init__(self, tail: list[RollRecord], older_end: int,
                 parse_chunk: Callable[[int, int], list[RollRecord]]) -> None:
        self.tail = tail
        self._tail_pos: dict[int, int] = {}
        for k, rec in enumerate(tail):
            self._tail_pos.setdefault(rec.seq, k)
        self.older_end = older_end      # byte offset where the tail starts (0: nothing older)
        self.indexed = older_end == 0
        self.version = 0                # bumped by install: indexes changed meaning
        self.revealed: set[int] = set()
        self.parsed = 0                 # older entries parsed so far (tests count them)
        self._index = OlderIndex()
        self._older = 0
        self._parse_chunk = parse_chunk
        self._cache: OrderedDict[int, list[RollRecord]] = OrderedDict()
        self._lock = threading.Lock()

    # -- the index

    def install(self, index: OlderIndex) -> None:
        """Put the older rolls in front of the tail (call it where the records are read)."""
        with self._lock:
            self._index = index
            if index.records is not None:
                for rec in index.records:
                    if rec.seq in index.revealed or rec.seq in self.revealed:
                        rec.revealed = True
                self._older = len(index.records)
            else:
                self._older = len(index.offsets)
            self.revealed |= index.revealed
            self._cache.clear()
            self.indexed = True
            self.version += 1

    @property
    def older_count(self) -> int:
        return self._older

    def may_be_older(self, seq: int) -> bool:
        """A roll not in the tail that could be among the older ones not yet indexed."""
        return not self.indexed and bool(self.tail) and seq < self.tail[0].seq

    # -- the sequence

    def __len__(self) -> int:
        return self._older + len(self.tail)

    @overload
    def __getitem__(self, i: int) -> RollRecord: ...
    @overload
    def __getitem__(self, i: slice) -> list[RollRecord]: ...

    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("roll index out of range")
        if i >= self._older:
            return self.tail[i - self._older]
        return self._older_record(i)

    def __iter__(self) -> Iterator[RollRecord]:
        for i in range(len(self)):
            yield self[i]

    def __reversed__(self) -> Iterator[RollRecord]:
        for i in range(len(self) - 1, -1, -1):
            yield self[i]

    def append(self, rec: RollRecord) -> None:
        self._tail_pos.setdefault(rec.seq, len(self.tail))
        self.tail.append(rec)

    def _header(self, i: int, name: str) -> int:
        """Record i's `seq` or `session`, without parsing it: from the tail, the index's
        records (a log read whole), or the index's array of that name plus "s"."""
        if i >= self._older:
            return getattr(self.tail[i - self._older], name)
        if self._index.records is not None:
            return getattr(self._index.records[i], name)
        return getattr(self._index, name + "s")[i]

    def session_of(self, i: int) -> int:
        """The session of record i without parsing it."""
        return self._header(i, "session")

    def sessions(self, start: int, end: int) -> list[int]:
        older = min(end, self._older)
        out: list[int] = []
        if start < older:
            if self._index.records is not None:
                out = [r.session for r in self._index.records[start:older]]
            else:
                out = self._index.sessions[start:older].tolist()
        out += [r.session for r in self.tail[max(0, start - self._older):max(0, end - self._older)]]
        return out

    def index_of(self, seq: int) -> int | None:
        """Where the roll numbered `seq` is, without parsing older rolls."""
        k = self._tail_pos.get(seq)
        if k is not None:
            return self._older + k
        if self._index.records is not None:
            return next((k for k, r in enumerate(self._index.records) if r.seq == seq), None)
        seqs = self._index.seqs
        k = bisect_left(seqs, seq)
        if k < len(seqs) and seqs[k] == seq:
            return k
        if self._index.sorted:
            return None
        return next((k for k in range(len(seqs)) if seqs[k] == seq), None)    # a hand-numbered log

    def mark_revealed(self, seq: int) -> None:
        self.revealed.add(seq)

    # -- older rolls

    def _older_record(self, i: int) -> RollRecord:
        if self._index.records is not None:
            return self._index.records[i]
        chunk = i // CHUNK_ROLLS
        with self._lock:
            found = self._cache.get(chunk)
            if found is None:
                found = self._load_chunk(chunk)
                self._cache[chunk] = found
                while len(self._cache) > CACHED_CHUNKS:
                    self._cache.popitem(last=False)
            else:
                self._cache.move_to_end(chunk)
            return found[i - chunk * CHUNK_ROLLS]

    def _load_chunk(self, chunk: int) -> list[RollRecord]:
        index = self._index
        first = chunk * CHUNK_ROLLS
        last = min(first + CHUNK_ROLLS, self._older)
        end = index.offsets[last] if last < self._older else index.end
        parsed = self._parse_chunk(index.offsets[first], end)
        self.parsed += len(parsed)
        wanted = index.seqs[first:last]
        if [r.seq for r in parsed] != list(wanted):
            # A damaged entry (skipped by the parser): each slot takes the roll of its number.
            by_seq = {r.seq: r for r in parsed}
            parsed = [by_seq.get(seq) or _unreadable(seq, index.sessions[first + k]) for k, seq in enumerate(wanted)]
        for rec in parsed:
            if rec.seq in self.revealed:
                rec.revealed = True
        return parsed


def _unreadable(seq: int, session: int) -> RollRecord:
    """The place of an entry that does not parse (`gmscreen validate` says why)."""
    return RollRecord(seq, "", session, "", "?", {}, {})


class SeqLookup:
    """`by_seq` of a log read from its tail: `get(seq)` finds older rolls through the index."""

    def __init__(self, records: LazyRecords) -> None:
        self.records = records

    def get(self, seq: int, default: Any = None) -> Any:
        if type(seq) is not int:
            return default
        i = self.records.index_of(seq)
        return default if i is None else self.records[i]

    def __contains__(self, seq: object) -> bool:
        return isinstance(seq, int) and self.records.index_of(seq) is not None

    def __getitem__(self, seq: int) -> RollRecord:
        found = self.get(seq)
        if found is None:
            raise KeyError(seq)
        return found

    def __setitem__(self, seq: int, rec: RollRecord) -> None:
        pass                            # the records themselves say where a roll is

    def __len__(self) -> int:
        return len(self.records)


@cache
def _reveal_seq() -> re.Pattern[bytes]:
    return re.compile(rb"\n\[\[reveal\]\]\nseq = (\d+)\n")


def _roll_after(fd: int, size: int, at: int) -> tuple[int, int] | None:
    """(offset, session) of the first roll entry starting at or after `at`; None past the last.
    Raises ValueError on an entry not laid out as our writer lays it."""
    begin = max(0, at - 1)          # the newline before an entry starting at `at`
    prefix = b"\n" if at == 0 else b""
    window = 4096
    while True:
        data = prefix + os.pread(fd, min(window, size - begin), begin)
        complete = begin + len(data) - len(prefix) >= size
        pos = 0
        while True:
            m = _entry().search(data, pos)
            if m is None or (not complete and m.start() + _OVERLAP > len(data)):
                break
            if m.group(1) is not None:
                return begin + m.start() + 1 - len(prefix), int(m.group(2))
            if m.group(3) is None:
                raise ValueError("an entry laid out by hand")
            pos = m.end()
        if complete:
            return None
        window *= 4


def session_range(fd: int, size: int, session: int) -> tuple[int, int]:
    """Bytes [start, end) holding the rolls of `session`, by bisection over the file: sessions
    only grow along the log (`N` starts the next), so this reads a few kilobytes, whatever
    the length of the log. Raises ValueError when the layout is not our writer's."""

    def first_at_least(n: int) -> int:
        lo, hi = 0, size                # every roll starting before lo has a session < n
        while hi - lo > 8192:
            mid = (lo + hi) // 2
            found = _roll_after(fd, size, mid)
            if found is None or found[1] >= n:
                hi = mid
            else:
                lo = found[0] + 1
        at = lo
        while True:
            found = _roll_after(fd, size, at)
            if found is None:
                return size
            if found[1] >= n:
                return found[0]
            at = found[0] + 1

    return first_at_least(session), first_at_least(session + 1)


def revealed_after(fd: int, size: int, start: int) -> set[int]:
    """The rolls revealed by [[reveal]] entries in [start, size), a megabyte at a time."""
    seqs: set[int] = set()
    buffer, pos = b"\n", start
    while True:
        piece = os.pread(fd, min(_PIECE, size - pos), pos) if pos < size else b""
        pos += len(piece)
        buffer += piece
        last = pos >= size or not piece
        cut = len(buffer) if last else max(0, len(buffer) - _OVERLAP)
        seqs.update(int(m.group(1)) for m in _reveal_seq().finditer(buffer) if m.start() < cut)
        if last:
            return seqs
        buffer = buffer[cut:]
