"""Append-only TOML files of `[[name]]` entries: the roll log and the change journal.

Writing: each entry is one fully formatted chunk ("\\n[[roll]]\\n...") written by a single
`os.write` on an O_APPEND descriptor, then fsynced, under an `fcntl.flock` of the file so
that several writers (the screen, `gmscreen roll --campaign`) never interleave. Nothing
already written is ever rewritten, so recording costs the same with 10 or 100,000 entries.

Reading: the whole file but the last entry is parsed by one `tomllib.loads` (as fast as
TOML gets), and the last entry alone. A crash can only tear that last entry; it is then
reported and ignored, and the next writer cuts it off when it appends (never on open).
Damage anywhere else (a hand edit) falls back to parsing entry by entry so one bad entry
costs only itself.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import tomllib
from dataclasses import KW_ONLY, field
from pathlib import Path
from typing import Any, Callable, Iterator

from gmscreen.i18n import N_, _, os_reason
from gmscreen.rules.records import record

from . import safeload
from ._fastlog import loads_piece
from .errors import CampaignError, Problem
from .limits import MAX_LOG_ENTRY_BYTES
from .safeload import parse_problem
from .paths import beside, fsync_dir, real_path  # noqa: F401 (also said from here)

# A chunk that does not parse: bad bytes, bad TOML, a number of more digits than Python
# converts (a bare ValueError), or nesting deeper than the parser can follow (RecursionError),
# which is damage to report, never a traceback. (Both decode errors are ValueErrors.)
_UNPARSABLE = (ValueError, RecursionError)


def _damage(exc: BaseException) -> bool:
    """Text that parses to something no torn write leaves: nesting too deep, a number too long."""
    return isinstance(exc, RecursionError) or safeload.too_many_digits(exc)


class EntryError(ValueError):
    """An entry that cannot be used. `incomplete`: a key is missing, as after a torn write."""

    def __init__(self, message: str, incomplete: bool = False) -> None:
        super().__init__(message)
        self.incomplete = incomplete


Convert = Callable[[str, dict], Any]


@record
class Scan:
    header: dict[str, Any] = field(default_factory=dict)   # top-level keys (format)
    entries: dict[str, list[Any]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    good_end: int = 0       # offset (from the scanned segment's base) where a torn tail starts, or its end
    seen: dict[str, int] = field(default_factory=dict)    # entries of each name, read or left out
    torn: bool = False
    lines: int = 0          # newlines in the good part


def _header_lines(names: tuple[str, ...]) -> tuple[bytes, ...]:
    return tuple(f"[[{n}]]".encode() for n in names)


_CHUNK = 1 << 20             # bytes of a long log parsed at a time


def _loads_in_chunks(body: bytes, names: tuple[str, ...]) -> dict[str, Any]:
    """`tomllib.loads(body)`, a megabyte of entries at a time, cut only where an entry starts.

    The screen reads its log in a thread: one decode and one parse of a 40 MB log hold the
    interpreter lock for tens of milliseconds at a stretch, and every key waits for them.
    The entries are arrays of tables, so parsing them piece by piece gives the same document;
    a cut that lands inside a multi-line string does not parse, and the whole is parsed then.
    """
    if len(body) <= _CHUNK:
        return _loads_piece(body.decode("utf-8"), names)
    starts = tuple(b"\n" + h for h in _header_lines(names))
    doc: dict[str, Any] = {}
    begin = 0
    try:
        while begin < len(body):
            end = len(body) if len(body) - begin <= _CHUNK else _next_entry(body, begin + _CHUNK, starts)
            part = _loads_piece(body[begin:end].decode("utf-8"), names)
            for key, value in part.items():
                if key in names and isinstance(value, list) and isinstance(doc.setdefault(key, []), list):
                    doc[key].extend(value)
                elif begin == 0 and key not in names:
                    doc[key] = value                # the header
                else:                               # anything else: the whole file decides
                    raise tomllib.TOMLDecodeError(f"{key!r} is not an entry")
            begin = end
    except _UNPARSABLE:
        return tomllib.loads(body.decode("utf-8"))
    return doc


def _loads_piece(text: str, names: tuple[str, ...]) -> dict[str, Any]:
    """`tomllib.loads(text)`, through the JSON translation of `_fastlog` when the piece is laid
    out as our writer lays it (ten times faster), else by tomllib itself."""
    fast = loads_piece(text, names)
    return fast if fast is not None else tomllib.loads(text)


def _next_entry(body: bytes, at: int, starts: tuple[bytes, ...]) -> int:
    """Offset of the first entry line at or after `at` (the end when there is none)."""
    found = [i for i in (body.find(s, at) for s in starts) if i >= 0]
    return min(found) + 1 if found else len(body)


def _tail_start(data: bytes, headers: tuple[bytes, ...]) -> int | None:
    """Offset of the line that starts the last entry (or a torn fragment of its header)."""
    nl = data.rfind(b"\n")
    last_line = data[nl + 1:]
    if last_line and last_line not in headers and any(h.startswith(last_line) for h in headers):
        return nl + 1
    best = -1
    for h in headers:
        i = data.rfind(b"\n" + h)
        if i >= 0:
            best = max(best, i + 1)
        elif data.startswith(h):
            best = max(best, 0)
    return best if best >= 0 else None


def _entry_regex(names: tuple[str, ...]) -> re.Pattern:
    alts = "|".join(re.escape(n) for n in names)
    return re.compile(rb"^[ \t]*\[\[[ \t]*(" + alts.encode() + rb")[ \t]*\]\][ \t]*(?:#[^\n]*)?\r?$", re.M)


def _toml_message(exc: Exception) -> str:
    return parse_problem(exc)


class _Reporter:
    """Turns entry indexes into line numbers, scanning the headers only when needed."""

    def __init__(self, data: bytes, file: str, names: tuple[str, ...], base_line: int,
                 first_index: dict[str, int]) -> None:
        self.data = data
        self.file = file
        self.names = names
        self.base_line = base_line
        self.first_index = first_index
        self._lines: dict[str, list[int]] | None = None
        self.blanked: dict[str, list[int]] = {}     # entries left out before parsing (too large)

    def line_of(self, name: str, index: int) -> int | None:
        if self._lines is None:
            self._lines = {n: [] for n in self.names}
            line, pos = 1, 0
            for m in _entry_regex(self.names).finditer(self.data):
                line += self.data.count(b"\n", pos, m.start())
                pos = m.start()
                self._lines[m.group(1).decode()].append(self.base_line + line)
        found = self._lines.get(name, [])
        return found[index] if index < len(found) else None

    def place(self, name: str, index: int) -> int:
        """The place among the entries of `data` of the `index`-th one the parser saw (the
        parser does not see the entries left out as too large)."""
        for skipped in self.blanked.get(name, ()):
            if skipped <= index:
                index += 1
        return index

    def problem(self, name: str, index: int, message: str, line: int | None = None, *,
                placed: bool = False) -> Problem:
        if not placed:
            index = self.place(name, index)
        if line is None:
            line = self.line_of(name, index)
        return Problem(self.file, f"{name}[{self.first_index.get(name, 0) + index}]", message, line, True)


def _chunk_start(data: bytes, line_start: int) -> int:
    """Where the chunk of the entry starting at `line_start` began: its blank separator line
    belongs to it, so cutting a torn entry leaves the file exactly as before that write."""
    if line_start >= 2 and data[line_start - 2:line_start] == b"\n\n":
        return line_start - 1
    if line_start == 1 and data[:1] == b"\n":       # a segment starts on an entry boundary
        return 0
    return line_start


def _torn_message(what: str, reason: str) -> str:
    """`what`: an N_() phrase ("roll log entry"), translated here, where it is shown."""
    return _("last {what} is incomplete ({reason}): ignored; a write was cut short, probably by a crash; "
             "the entries before it are intact").format(what=_(what), reason=reason)


def ignored(reason: object, what: str) -> str:
    """`reason: <what> ignored`, the words for an entry left out (`what`: an N_() phrase)."""
    return _("{reason}: {what} ignored").format(reason=reason, what=_(what))


def scan(data: bytes, file: str, names: tuple[str, ...], convert: Convert, *, what: str = N_("entry"),
         base_line: int = 0, first_index: dict[str, int] | None = None, final: bool = True) -> Scan:
    """Parse a whole file or an appended segment (which starts at an entry boundary).

    `final`: the segment ends the file, so its last entry may be a write cut short (torn);
    a piece of a file read piece by piece (`stream_scan`) is followed by more entries, so an
    entry of it that does not parse is damage. An entry larger than MAX_LOG_ENTRY_BYTES is
    left out unparsed, with a problem naming its place."""
    out = Scan(entries={n: [] for n in names})
    first_index = dict(first_index or {})
    rep = _Reporter(data, file, names, base_line, first_index)
    if not data:
        return out
    parsed = _blank_oversize(data, names, rep, out, what)
    blanked = Scan(problems=list(out.problems), seen=dict(out.seen))    # for the entry-by-entry fallback
    split = _tail_start(parsed, _header_lines(names))
    body, tail = (parsed, b"") if split is None else (parsed[:split], parsed[split:])
    try:
        doc = _loads_in_chunks(body, names)
    except _UNPARSABLE:
        return _slow_scan(parsed, file, names, convert, what, base_line, first_index, final, rep, blanked)
    for key, value in doc.items():
        if key in names:
            if not isinstance(value, list):
                return _slow_scan(parsed, file, names, convert, what, base_line, first_index, final, rep, blanked)
            entries = out.entries[key]
            for i, item in enumerate(value):
                try:
                    entries.append(convert(key, item))
                except EntryError as exc:
                    out.problems.append(rep.problem(key, i, ignored(exc, what)))
            out.seen[key] = out.seen.get(key, 0) + len(value)
        else:
            out.header[key] = value
    out.good_end = len(data)
    if tail and split is not None:                  # (a tail is what follows the split)
        _scan_tail(out, tail, split, parsed, names, convert, what, rep, doc, final)
    if out.torn:
        out.lines = data.count(b"\n", 0, out.good_end)
    else:
        out.lines = data.count(b"\n")
    return out


# Every byte but the newline turned into a space: an entry left out keeps its lines and length.
_BLANK = bytes(b if b == 0x0A else 0x20 for b in range(256))


def oversize_message(size: int) -> str:
    return _("larger than {size} ({count} bytes), the most one entry holds").format(
        size=safeload.size_text(MAX_LOG_ENTRY_BYTES), count=safeload.thousands(size))


def _blank_oversize(data: bytes, names: tuple[str, ...], rep: _Reporter, out: Scan, what: str) -> bytes:
    """`data` with every entry larger than MAX_LOG_ENTRY_BYTES blanked out (spaces, its lines
    kept), each reported with its place; `data` itself when none is (always so when the
    whole segment is no larger)."""
    if len(data) <= MAX_LOG_ENTRY_BYTES:
        return data
    starts = [(m.start(), m.group(1).decode()) for m in _entry_regex(names).finditer(data)]
    seen: dict[str, int] = {}
    big = []
    for k, (start, name) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else len(data)
        index = seen[name] = seen.get(name, -1) + 1
        if end - start > MAX_LOG_ENTRY_BYTES:
            big.append((start, end, name, index))
    if not big:
        return data
    blanked = bytearray(data)
    for start, end, name, index in big:
        blanked[start:end] = data[start:end].translate(_BLANK)
        rep.blanked.setdefault(name, []).append(index)
        out.problems.append(rep.problem(name, index, ignored(oversize_message(end - start), what), placed=True))
        out.seen[name] = out.seen.get(name, 0) + 1
    return bytes(blanked)


def _scan_tail(out: Scan, tail: bytes, split: int, data: bytes, names: tuple[str, ...], convert: Convert,
               what: str, rep: _Reporter, body_doc: dict, final: bool) -> None:
    line = rep.base_line + data.count(b"\n", 0, split) + 1
    name = next((n for n in names if tail.lstrip().startswith(f"[[{n}]".encode())), names[0])
    index = len(body_doc.get(name, ()))
    out.seen[name] = out.seen.get(name, 0) + 1
    try:
        tdoc = tomllib.loads(tail.decode("utf-8"))
    except _UNPARSABLE as exc:
        if _damage(exc):                # not a torn write: a damaged entry, reported and kept
            out.problems.append(rep.problem(name, index, ignored(_toml_message(exc), what), line))
            return
        reason = _("invalid UTF-8") if isinstance(exc, UnicodeDecodeError) else _("it does not parse as TOML")
        _mark_torn(out, split, name, index, what, rep, line, reason, final)
        return
    keys = [k for k in tdoc if k in names]
    if len(tdoc) != 1 or len(keys) != 1 or not isinstance(tdoc[keys[0]], list) or len(tdoc[keys[0]]) != 1:
        _mark_torn(out, split, name, index, what, rep, line, _("not one whole entry"), final)
        return
    try:
        out.entries[keys[0]].append(convert(keys[0], tdoc[keys[0]][0]))
    except EntryError as exc:
        if exc.incomplete:
            _mark_torn(out, split, name, index, what, rep, line, str(exc), final)
        else:
            out.problems.append(rep.problem(name, index, ignored(exc, what), line))


def _mark_torn(out: Scan, split: int, name: str, index: int, what: str, rep: _Reporter, line: int, reason: str,
               final: bool) -> None:
    """The last entry cut short: torn when it ends the file, else damage (more follows it)."""
    if not final:
        out.problems.append(rep.problem(name, index, ignored(reason, what), line))
        return
    out.torn = True
    out.good_end = _chunk_start(rep.data, split)
    out.problems.append(rep.problem(name, index, _torn_message(what, reason), line))


def _slow_scan(data: bytes, file: str, names: tuple[str, ...], convert: Convert, what: str,
               base_line: int, first_index: dict[str, int], final: bool = True, rep: _Reporter | None = None,
               found: Scan | None = None) -> Scan:
    """Entry by entry: used only when the file was damaged somewhere before its last entry.
    (`rep` and `found`: the reporter and the problems of `scan`, which left out entries too large.)"""
    out = Scan(entries={n: [] for n in names})
    if found is not None:
        out.problems = list(found.problems)
        out.seen = dict(found.seen)
    rep = rep or _Reporter(data, file, names, base_line, first_index)
    starts = [(m.start(), m.group(1).decode()) for m in _entry_regex(names).finditer(data)]
    frag = _tail_start(data, _header_lines(names))
    if frag is not None and (not starts or frag > starts[-1][0]):
        starts.append((frag, names[0]))        # a torn fragment of a header line
    head_end = starts[0][0] if starts else len(data)
    if data[:head_end].strip():
        try:
            out.header = tomllib.loads(data[:head_end].decode("utf-8"))
        except _UNPARSABLE as exc:
            if not starts and isinstance(exc, RecursionError):
                # No entry at all, only a header nested too deeply: not a log this version can use.
                raise CampaignError([Problem(file, "", _("{problem}: expected a format line then {entries} entries")
                                             .format(problem=_toml_message(exc), entries=f"[[{names[0]}]]"),
                                             base_line + 1)]) from None
            if not starts and final:
                # Nothing but a header cut short while the file was being created.
                out.torn = True
                out.good_end = 0
                out.problems.append(Problem(file, "", _torn_message(N_("file header"), _toml_message(exc)),
                                            base_line + 1, True))
                return out
            out.problems.append(Problem(file, "", _("file header: {problem}: ignored").format(
                problem=_toml_message(exc)),
                                        base_line + 1, True))
    counts = {n: 0 for n in names}
    out.good_end = len(data)
    line = base_line + 1 + data.count(b"\n", 0, head_end)
    for k, (start, name) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else len(data)
        if k:
            line += data.count(b"\n", starts[k - 1][0], start)
        chunk = data[start:end]
        last = k + 1 == len(starts)
        index = counts[name]
        counts[name] += 1
        out.seen[name] = out.seen.get(name, 0) + 1
        try:
            doc = tomllib.loads(chunk.decode("utf-8"))
            items = doc.get(name)
            if set(doc) != {name} or not isinstance(items, list) or len(items) != 1:
                raise EntryError(_("not one whole entry"), incomplete=True)
            out.entries[name].append(convert(name, items[0]))
        except (*_UNPARSABLE, EntryError) as exc:
            incomplete = (exc.incomplete if isinstance(exc, EntryError) else not _damage(exc))
            reason = str(exc) if isinstance(exc, EntryError) else _toml_message(exc)
            if last and incomplete and final:
                out.torn = True
                out.good_end = _chunk_start(data, start)
                out.problems.append(rep.problem(name, index, _torn_message(what, reason), line))
            else:
                out.problems.append(rep.problem(name, index, ignored(reason, what), line))
    out.lines = data.count(b"\n", 0, out.good_end)
    return out


PIECE_BYTES = 1 << 20           # a log read piece by piece: this much at a time, cut where an entry starts


def stream_scan(path: str | Path, names: tuple[str, ...], convert: Convert, *, what: str, called: str,
                expected: str) -> Iterator[Scan]:
    """The log at `path` scanned a piece at a time, oldest entries first (nothing when it does
    not exist yet): each `Scan` holds whole entries, its problems with the lines and places of
    the whole file, and `final` set on the last piece only (the one whose last entry may be
    torn). Memory holds one piece, at most PIECE_BYTES + MAX_LOG_ENTRY_BYTES bytes, whatever the
    length of the log: an entry larger than that is skipped over unread, and reported. Raises
    CampaignError as `read_whole` does (naming the `called` file, or what was `expected`)."""
    file = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise CampaignError([Problem(file, "", _("cannot read the {file}: {reason}").format(
            file=_(called), reason=os_reason(exc)))]) from None
    try:
        size = os.fstat(fd).st_size
        check_size(file, size, expected)
        yield from _pieces(fd, size, file, names, convert, what)
    except OSError as exc:
        raise CampaignError([Problem(file, "", _("cannot read the {file}: {reason}").format(
            file=_(called), reason=os_reason(exc)))]) from None
    finally:
        os.close(fd)


def check_size(file: str, size: int, expected: str) -> None:
    """CampaignError when a log of `size` bytes is larger than any reader of it reads, in the
    words of `read_whole` (`expected`: an N_() phrase)."""
    if size > safeload.MAX_LOG_BYTES:
        why = _("larger than {size} ({count} bytes)").format(size=safeload.size_text(safeload.MAX_LOG_BYTES),
                                                              count=safeload.thousands(size))
        raise CampaignError([Problem(file, "", f"{why}: {_(expected)}")])


_LOOKAHEAD = 64 * 1024              # read past a piece to find where the next entry starts


def _pieces(fd: int, size: int, file: str, names: tuple[str, ...], convert: Convert, what: str) -> Iterator[Scan]:
    """The pieces of [0, size), each scanned; every byte is read once (what follows a cut is
    kept for the next piece), but for an entry too large, whose rest is skipped over unread."""
    headers = _entry_regex(names)
    pos, lines = 0, 0
    counts: dict[str, int] = {}
    buffer = b""                        # the bytes from `pos` on, read already
    while pos < size:
        final, cut = False, None
        for want in (PIECE_BYTES + _LOOKAHEAD, PIECE_BYTES + MAX_LOG_ENTRY_BYTES):
            if len(buffer) < want and pos + len(buffer) < size:
                buffer += os.pread(fd, min(want, size - pos) - len(buffer), pos + len(buffer))
            final = pos + len(buffer) >= size
            cut = None if final else _cut(buffer, headers)
            if final or cut is not None:
                break
        if not buffer:
            return                          # cut shorter meanwhile: what was there is read
        if not final and not cut:           # the entry starting here runs past the window: too large
            skipped, newlines = _skip_entry(fd, size, pos, headers)
            m = headers.match(buffer)
            name = m.group(1).decode() if m is not None else None
            reason = ignored(oversize_message(skipped - pos), what)
            if name is None:                # no entry starts the file: its header is too large
                problem = Problem(file, "", _("file header: {problem}").format(problem=reason), lines + 1, True)
            else:
                problem = Problem(file, f"{name}[{counts.get(name, 0)}]", reason, lines + 1, True)
                counts[name] = counts.get(name, 0) + 1
            yield Scan(entries={n: [] for n in names}, problems=[problem], good_end=skipped - pos, lines=newlines)
            pos, lines, buffer = skipped, lines + newlines, b""
            continue
        data, buffer = (buffer, b"") if final else (buffer[:cut], buffer[cut:])
        found = scan(data, file, names, convert, what=what, base_line=lines, first_index=counts, final=final)
        yield found
        for name, seen in found.seen.items():
            counts[name] = counts.get(name, 0) + seen
        lines += data.count(b"\n")
        pos += len(data)


def _cut(buffer: bytes, headers: re.Pattern[bytes]) -> int | None:
    """Where to end a piece of `buffer`: the first entry line at or past PIECE_BYTES, else the
    last one before it (0: the entry starting the buffer runs past it; None: no line found yet)."""
    m = headers.search(buffer, PIECE_BYTES)
    if m is not None and m.end() < len(buffer):     # (a line the buffer's end cuts may go on past it)
        return m.start()
    if len(buffer) < PIECE_BYTES + MAX_LOG_ENTRY_BYTES:
        return None                                 # read more first
    return max((m.start() for m in headers.finditer(buffer, 1, PIECE_BYTES)), default=0)


def _skip_entry(fd: int, size: int, pos: int, headers: re.Pattern[bytes]) -> tuple[int, int]:
    """(where the next entry after the one at `pos` starts, or the end; newlines before it),
    read a piece at a time: an entry too large to be read is never held whole."""
    at = pos + 1
    found = size
    while at < size:
        buffer = os.pread(fd, min(PIECE_BYTES, size - at) + 1, at - 1)     # (the byte before: is `at` a line start?)
        m = headers.search(buffer, 1)
        if m is not None:
            found = at - 1 + m.start()
            break
        at += max(1, len(buffer) - 1 - 512)       # (a header cut by the piece's end is found by the next one)
    newlines, at = 0, pos
    while at < found:
        piece = os.pread(fd, min(PIECE_BYTES, found - at), at)
        if not piece:
            break
        newlines += piece.count(b"\n")
        at += len(piece)
    return found, newlines


_FORMAT_KEY = re.compile(rb"^[ \t]*format[ \t]*=", re.M)


def format_line(data: bytes) -> int | None:
    """The line of the top-level `format` key, for messages about it."""
    m = _FORMAT_KEY.search(data)
    return data.count(b"\n", 0, m.start()) + 1 if m else None


def file_header(about: tuple[str, ...], version: int) -> str:
    """What a new log starts with: comment lines saying what it is ("{campaign}" is filled in
    when the file is created), then the format this version writes."""
    return "".join(f"# {line}\n" for line in about) + f"format = {version}\n"


def read_whole(path: Path, names: tuple[str, ...], convert: Convert, *, what: str, called: str,
               expected: str) -> tuple[bytes, Scan] | None:
    """A whole log read and scanned, None when it does not exist yet. A file that cannot be
    read, or is too large or deep to parse, is one CampaignError naming the `called` file or
    saying what was `expected` of it, never a traceback."""
    try:
        data = safeload.read_limited(path, safeload.MAX_LOG_BYTES)
        return data, scan(data, str(path), names, convert, what=what)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CampaignError([Problem(str(path), "", _("cannot read the {file}: {reason}").format(
            file=_(called), reason=os_reason(exc)))])
    except (safeload.LoadError, MemoryError) as exc:
        why = exc.message if isinstance(exc, safeload.LoadError) else parse_problem(exc)
        raise CampaignError([Problem(str(path), "", f"{why}: {_(expected)}")]) from None


@record(eq=False)
class AppendFile:
    """The writing end of an append-only file, shared safely between processes.

    `end` is the offset up to which the owner has read and accounted for the file; `sync()`
    (under `locked()`) scans whatever other writers appended since; `write` cuts off a torn
    tail left by a writer that died, so every new entry starts on a clean boundary.
    """

    path: Path
    names: tuple[str, ...]
    header: str
    convert: Convert
    _: KW_ONLY
    what: str
    end: int
    lines: int
    counts: dict[str, int]              # entries of each name before `end` (problem indexes)
    fd: int = field(init=False, default=-1)

    def __post_init__(self) -> None:
        self.counts = dict(self.counts)
        from .sidefile import open_side

        created = not os.path.lexists(self.path)
        self.fd = open_side(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)     # never through a link
        if created:
            fsync_dir(self.path.parent)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(self.fd, fcntl.LOCK_UN)

    def _reopen_if_replaced(self) -> bool:
        """The path now names another file (deleted, replaced): follow it. True when so."""
        from .sidefile import open_side

        try:
            st_path = os.lstat(self.path)
        except FileNotFoundError:
            st_path = None
        st_fd = os.fstat(self.fd)
        if st_path is not None and (st_path.st_ino, st_path.st_dev) == (st_fd.st_ino, st_fd.st_dev):
            return False
        fd = open_side(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)     # a link put there: refused
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)
        self.fd = fd
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        if st_path is None:
            fsync_dir(self.path.parent)
        return True

    def sync(self) -> tuple[bool, Scan]:
        """(reset, scan of what others appended). reset: the file was replaced or cut
        shorter than what was read, so the scan covers it from the start. Call under locked()."""
        reset = self._reopen_if_replaced()
        size = os.fstat(self.fd).st_size
        if size < self.end:
            reset = True
        if reset:
            self.end, self.lines, self.counts = 0, 0, {}
        if size == self.end:
            return reset, Scan(entries={n: [] for n in self.names})
        data = os.pread(self.fd, size - self.end, self.end)
        found = scan(data, str(self.path), self.names, self.convert, what=self.what,
                     base_line=self.lines, first_index=self.counts)
        # A torn tail is left in place here (opening writes nothing): `write` cuts it.
        self.end += found.good_end
        self.lines += found.lines
        for name, items in found.entries.items():
            self.counts[name] = self.counts.get(name, 0) + len(items)
        return reset, found

    def write(self, text: str, name: str) -> None:
        """Append one entry chunk (with the file header first when the file is empty).
        Call under locked(), after sync(): past `end` there is then only a torn tail, cut
        off here, just before the entry that follows it."""
        if os.fstat(self.fd).st_size > self.end:
            os.ftruncate(self.fd, self.end)
        if self.end == 0:
            text = self.header + text
        data = text.encode("utf-8")
        if self.end + len(data) > safeload.MAX_LOG_BYTES:      # past what any reader of it reads
            raise OSError(errno.EFBIG, _("the file has reached {size}, the most gmscreen reads; move it away to "
                                         "start a new one").format(size=safeload.size_text(safeload.MAX_LOG_BYTES)),
                          str(self.path))
        view = memoryview(data)
        written = 0
        try:
            while written < len(data):
                written += os.write(self.fd, view[written:])
            os.fsync(self.fd)
        except OSError:
            # Disk full or similar: leave no partial entry behind for the next writer.
            with contextlib.suppress(OSError):
                os.ftruncate(self.fd, self.end)
            raise
        self.end += len(data)
        self.lines += data.count(b"\n")
        self.counts[name] = self.counts.get(name, 0) + 1

    def truncate(self) -> None:
        """Empty the file back to its header (the journal, after a full save). Under locked()."""
        os.ftruncate(self.fd, 0)
        data = self.header.encode("utf-8")
        os.write(self.fd, data)
        os.fsync(self.fd)
        self.end = len(data)
        self.lines = data.count(b"\n")
        self.counts = {}
