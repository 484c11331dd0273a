"""Reading untrusted TOML and JSON without a traceback: too deep, too big, or not valid.

tomllib and json recurse once per nested `[` or `{`: 100,000 of them end in a
RecursionError, and a file of several gigabytes in a MemoryError. Every reader of the
project (request files, the campaign, its journal and roll log, config.toml, themes)
goes through these helpers, so each of those cases becomes one `LoadError` whose text
says what went wrong and where (the line of the first bracket nested too deep), for the
caller to put in its own one-line error. Standard library only: the command line and
the screen import it at no cost.
"""

from __future__ import annotations

import os
import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any, Callable, Iterable

from gmscreen.i18n import N_, _
from gmscreen.i18n.parsers import json_message, toml_error

MiB = 1024 * 1024
MAX_REQUEST_BYTES = 4 * MiB          # a resolve request is a few lines
MAX_SETTINGS_BYTES = 1 * MiB         # config.toml, a theme file
MAX_CAMPAIGN_BYTES = 32 * MiB        # the state file (thousands of characters still fit)
MAX_LOG_BYTES = 1024 * MiB           # roll log, journal: they grow all campaign long
MAX_REQUEST_DEPTH = 8                # nested tables/lists in a request: it needs 3 (dice lists)
OUT_OF_MEMORY = N_("too big to read (out of memory)")      # translated where shown
# Python refuses to turn more than this many digits into an integer (a ValueError raised from
# inside tomllib and json, not their syntax error): such a number is reported, never a traceback.
MAX_DIGITS = 4300
LONG_NUMBER = N_("a number of more than {digits} digits: too long to read")   # translated where shown

# What a parser of untrusted text may raise besides its own syntax error: `PARSE_ERRORS`, made
# when first asked for (json is not imported to open a campaign; see `__getattr__`).


def __getattr__(name: str) -> Any:
    if name == "PARSE_ERRORS":
        import json

        return (tomllib.TOMLDecodeError, json.JSONDecodeError, RecursionError, MemoryError)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class LoadError(ValueError):
    """Text that cannot be read: `message` says what was wrong, `line` where (or None).

    `syntax` holds the parser's own words when the text is simply not valid TOML or JSON
    (callers phrase that case themselves); it is "" for too deep or too big.
    """

    def __init__(self, message: str, line: int | None = None, syntax: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.syntax = syntax


def size_text(limit: int) -> str:
    return f"{limit // MiB} MiB" if limit >= MiB else f"{limit // 1024} KiB"


def thousands(n: int) -> str:
    """10,000 in English, 10 000 (narrow no-break space) in French."""
    from gmscreen.i18n import language

    return f"{n:,}" if language() == "en" else f"{n:,}".replace(",", "\u202f")


def read_limited(path: str | Path, limit: int) -> bytes:
    """The bytes of `path`; LoadError when it is larger than `limit` (nothing more is read).

    OSError (no such file, a folder, permission) is left to the caller, who names it.
    """
    with open(path, "rb") as fh:
        try:
            size = os.fstat(fh.fileno()).st_size
        except OSError:
            size = 0
        if size > limit:
            raise LoadError(_("larger than {size} ({count} bytes)").format(size=size_text(limit),
                                                                              count=thousands(size)))
        try:
            data = fh.read(limit + 1)
        except MemoryError:
            raise LoadError(_(OUT_OF_MEMORY)) from None
    if len(data) > limit:
        raise LoadError(_("larger than {size}").format(size=size_text(limit)))
    return data


def parse_problem(exc: BaseException) -> str:
    """The words for a failed parse, whatever raised it (syntax, depth, memory, encoding)."""
    if isinstance(exc, RecursionError):
        return _("nested too deeply to read (too many [ or {{ inside each other)").format()
    if isinstance(exc, MemoryError):
        return _(OUT_OF_MEMORY)
    if isinstance(exc, UnicodeDecodeError):
        return _("invalid UTF-8")
    if isinstance(exc, tomllib.TOMLDecodeError):
        return _("not valid TOML ({reason})").format(reason=exc)
    if isinstance(exc, ValueError) and too_many_digits(exc):
        return _(LONG_NUMBER).format(digits=thousands(MAX_DIGITS))
    return str(exc)


def too_many_digits(exc: BaseException) -> bool:
    """The ValueError Python raises for a number too long to convert (not a syntax error)."""
    return (isinstance(exc, ValueError) and not isinstance(exc, (tomllib.TOMLDecodeError, UnicodeDecodeError))
            and type(exc).__name__ != "JSONDecodeError")


def long_number_line(text: str) -> int | None:
    """The line of the first number longer than Python reads (MAX_DIGITS digits)."""
    m = re.search(r"[0-9_]{%d,}" % (MAX_DIGITS + 1), text)
    return text.count("\n", 0, m.start()) + 1 if m else None


def loads_toml(text: str, *, max_depth: int | None = None) -> dict[str, Any]:
    """tomllib.loads, with every failure a LoadError (a syntax error in tomllib's words, said in
    the language spoken: `gmscreen.i18n.parsers`)."""
    try:
        return _parse(tomllib.loads, text, max_depth)
    except tomllib.TOMLDecodeError as exc:
        reason = toml_error(exc)
        raise LoadError(_("not valid TOML: {reason}").format(reason=reason), syntax=reason) from None


def loads_json(text: str, *, max_depth: int | None = None) -> Any:
    """json.loads, with every failure a LoadError (line of the syntax error given)."""
    import json

    try:
        return _parse(json.loads, text, max_depth)
    except json.JSONDecodeError as exc:
        raise LoadError(_("invalid JSON: {reason} (line {line}, column {column})").format(
            reason=json_message(exc.msg), line=exc.lineno, column=exc.colno), exc.lineno,
                        syntax=str(exc)) from None


def _parse(parse: Callable[[str], Any], text: str, max_depth: int | None) -> Any:
    """`parse(text)` with too deep or too big a LoadError, then the depth checked; the parser's
    own syntax error is left to the caller, who words it for its format."""
    try:
        data = parse(text)
    except RecursionError:
        raise LoadError(deep_message(max_depth), nesting_line(text, max_depth or 64)) from None
    except MemoryError:
        raise LoadError(_(OUT_OF_MEMORY)) from None
    except ValueError as exc:
        if not too_many_digits(exc):
            raise                           # the parser's own syntax error: the caller words it
        raise LoadError(_(LONG_NUMBER).format(digits=thousands(MAX_DIGITS)), long_number_line(text)) from None
    _check_depth(data, max_depth)
    return data


def deep_message(max_depth: int | None) -> str:
    if max_depth:
        return _("nested more than {n} levels deep (too many [ or {{ inside each other)").format(n=max_depth)
    return _("nested too deep (too many [ or {{ inside each other)").format()


class DeepValue(LoadError):
    """A value nested deeper than allowed; `path` is its key path (keys and indexes)."""

    def __init__(self, path: tuple, max_depth: int) -> None:
        super().__init__(deep_message(max_depth))
        self.path = path


def _check_depth(data: Any, max_depth: int | None) -> None:
    if max_depth is not None:
        path = too_deep(data, max_depth)
        if path is not None:
            raise DeepValue(path, max_depth)


def too_deep(value: Any, max_depth: int) -> tuple | None:
    """Key path of the first table or list nested `max_depth` levels inside `value`, else None.

    Iterative, so it is safe on anything a parser returned.
    """
    stack: list[tuple[tuple, Any, int]] = [((), value, 0)]
    while stack:
        path, item, depth = stack.pop()
        children: Iterable[tuple[Any, Any]]
        if isinstance(item, dict):
            children = item.items()
        elif isinstance(item, list):
            children = enumerate(item)
        else:
            continue
        if depth >= max_depth:
            return path
        stack.extend((path + (key,), child, depth + 1) for key, child in children)
    return None


def dotted(path: tuple) -> str:
    """('dice', 0, 1) -> dice[0][1], for messages."""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out


@cache
def _token() -> re.Pattern[str]:
    return re.compile(r'''
  (?P<nl>\n)
| (?P<comment>\#[^\n]*)
| (?P<mlb>"""(?:[^"\\]|\\.|"(?!""))*(?:"""|\Z))
| (?P<mll>\'\'\'(?:[^']|'(?!''))*(?:\'\'\'|\Z))
| (?P<bs>"(?:[^"\\\n]|\\.)*(?:"|$))
| (?P<ls>'[^'\n]*(?:'|$))
| (?P<open>[\[{])
| (?P<close>[\]}])
| (?P<other>[^\n\#"'\[\]{}]+)
''', re.X | re.S | re.M)


def nesting_line(text: str, limit: int) -> int | None:
    """The line where `[` and `{` first nest deeper than `limit` (strings and comments
    skipped): where to look in a file that is nested too deeply to parse."""
    depth = 0
    line = 1
    pos = 0
    end = len(text)
    while pos < end:
        m = _token().match(text, pos)
        if m is None:
            pos += 1
            continue
        kind = m.lastgroup
        pos = m.end()
        if kind == "open":
            depth += 1
            if depth > limit:
                return line
        elif kind == "close":
            depth = max(0, depth - 1)
        elif kind == "nl":
            line += 1
        elif kind in ("mlb", "mll"):
            line += m.group().count("\n")
    return None
