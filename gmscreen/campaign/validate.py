"""Reading a campaign file into the model, with every problem found, never a traceback.

A campaign file is edited by hand, so validation reports *all* errors at once, each as
`FILE:LINE: key.path: what was expected`. tomllib gives no line for keys, so a light
scanner (`key_lines`) maps key paths to lines after a successful parse; it is only run
when there is something to report. Text is kept verbatim in the model: neutralising
markup and control characters is the screen's job, but they are reported as warnings.
"""

from __future__ import annotations

import datetime
import difflib
import importlib
import re
import tomllib
from pathlib import Path
from typing import Any, Iterable, Iterator

from gmscreen.rules import get_system, registry
from gmscreen.rules._base import type_name

from .errors import CampaignError, Problem
from .model import FORMAT, SIDES, Campaign, from_data
from .safeload import MAX_CAMPAIGN_BYTES, OUT_OF_MEMORY, nesting_line
from .textsafe import CONTROL as _CONTROL


MAX_STRING = 100_000        # characters in any one string
MAX_ITEMS = 10_000          # entries in any one list or table (characters, entries, skills...)
MAX_DEPTH = 8               # nested tables/lists: the schema needs 6 (timers[i].dice.rolls[j][k])
MAX_NAME = 64               # ids and free stat names
MAX_FILE_BYTES = MAX_CAMPAIGN_BYTES
MAX_COUNT = 1_000_000       # round, session, countdown rounds: anything above is a typo

SLUG = re.compile(r"[a-z0-9][a-z0-9_-]*\Z")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+\Z")

TIMER_KINDS = ("extended", "opposition", "countdown")
TIMER_STATUS = {
    "extended": ("running", "success", "failure"),
    "opposition": ("running", "actor", "opponent", "tie"),
    "countdown": ("running", "done"),
}

TOP_KEYS = ("format", "name", "system", "session", "notes", "initiative", "rules", "revision",
            "characters", "encounter", "timers")
CHARACTER_KEYS = ("id", "name", "side", "sheet", "conditions", "notes")
CONDITION_KEYS = ("name", "effect", "rounds")
ENCOUNTER_KEYS = ("round", "turn", "entries", "declared", "resort_at", "ticks")
ENTRY_KEYS = ("id", "name", "character", "initiative", "acted", "delayed")
DECLARATION_KEYS = ("entry", "actions")
TICKS_KEYS = ("round", "actor", "round_after", "following", "conditions", "countdowns", "declared",
              "order_before", "order_after")
TICKED_CONDITION_KEYS = ("character", "index", "before", "after")
TICKED_COUNTDOWN_KEYS = ("timer", "rounds", "status", "rounds_after", "status_after")
TIMER_KEYS = ("id", "label", "kind", "who", "opponent", "request", "dice", "rounds", "status")

# ---------------------------------------------------------------- public API


def parse_campaign(text: str, file: str) -> tuple[Campaign, list[Problem]]:
    """The campaign in `text` and its warnings; raises CampaignError listing every problem."""
    checker = _Checker(text, file)
    campaign = checker.run()
    problems = checker.problems()
    if campaign is None or any(not p.warning for p in problems):
        raise CampaignError(problems)
    return campaign, problems


def validate_file(path: str | Path) -> list[Problem]:
    """Every problem of the campaign at `path` (errors and warnings). Reads only."""
    name = str(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        return [Problem(name, "", f"cannot read the file: {exc.strerror or exc}")]
    if len(data) > MAX_FILE_BYTES:
        return [Problem(name, "", f"file larger than {MAX_FILE_BYTES // (1024 * 1024)} MB: not a campaign")]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return [Problem(name, "", f"invalid UTF-8 at byte offset {exc.start}: expected UTF-8 text", line)]
    try:
        _, warnings = parse_campaign(text, name)
    except CampaignError as exc:
        return exc.problems
    except Exception as exc:  # a bug here must still end as one line, not a traceback
        return [Problem(name, "", f"internal error while checking this file: {type(exc).__name__}: {exc}")]
    return warnings


def new_campaign(name: str, system: str) -> Campaign:
    """An empty campaign for `system`, with the initiative die and rule options spelled out."""
    if not registry.known(system):
        raise CampaignError([Problem(name or "campaign", "system",
                                     f"expected one of {', '.join(registry.system_ids())}, got {_show(system)}")])
    rules_ = get_system(system)
    rules = {option: values[0] for option, values in rules_.rule_options.items()}
    return Campaign(name=name, system=system, initiative=rules_.initiative, rules=rules)


def format_path(path: Iterable) -> str:
    """('characters', 2, 'sheet', 'skills', 'Mains nues') -> characters[2].sheet.skills."Mains nues"."""
    out = ""
    for step in path:
        if isinstance(step, int):
            out += f"[{step}]"
        else:
            key = step if _BARE_KEY.match(step) else _quote(step)
            out += f".{key}" if out else key
    return out


def _system_list() -> str:
    return ", ".join(registry.system_ids())


def _timer_owner(kind: str) -> str:
    """The system whose tests a timer of `kind` runs (`TIMER_KINDS` names only such kinds)."""
    return next(sid for sid in registry.system_ids() if kind in get_system(sid).test_timers)


def sheet_groups(system_id: str) -> tuple:
    """The system's `StatGroup`s."""
    return get_system(system_id).sheet


# ---------------------------------------------------------------- helpers


def _quote(text: str) -> str:
    def esc(m: re.Match) -> str:
        ch = m.group()
        return {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t"}.get(ch, f"\\u{ord(ch):04x}")

    return '"' + re.sub(r'["\\\n\t]|' + _CONTROL.pattern, esc, text) + '"'


def _show(value: Any) -> str:
    """A short, single-line, escaped rendering of a value for a message, TOML-spelled."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return text


def _type_name(value: Any) -> str:
    """The rules' words for a value's type, but TOML's for arrays, dates and times."""
    if isinstance(value, list):
        return "an array"
    if isinstance(value, datetime.datetime):
        return "a date-time"
    if isinstance(value, datetime.date):
        return "a date"
    if isinstance(value, datetime.time):
        return "a time"
    return type_name(value)


def _got(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return f"got {_type_name(value)}"
    return f"got {_type_name(value)} {_show(value)}"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# ---------------------------------------------------------------- line numbers

_TOKEN = re.compile(r'''
  (?P<nl>\n)
| (?P<ws>[ \t\r]+)
| (?P<comment>\#[^\n]*)
| (?P<mlb>"""[^"\\]*(?:(?:\\.|"{1,2}(?!"))[^"\\]*)*"{3,5})
| (?P<mll>'\'\'[^']*(?:'{1,2}(?!')[^']*)*'{3,5})
| (?P<bs>"[^"\\\n]*(?:\\.[^"\\\n]*)*")
| (?P<ls>'[^'\n]*')
| (?P<p>[\[\]{}=,.])
| (?P<bare>[^\s\#\[\]{}=,."']+)
''', re.X | re.S)

_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)", re.S)
_SIMPLE_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\", "e": "\x1b"}


def _key_text(kind: str, raw: str) -> str:
    if kind == "bs":
        def unescape(m: re.Match) -> str:
            code = m.group(1)
            if code[0] in "uU" and len(code) > 1:
                try:
                    return chr(int(code[1:], 16))
                except ValueError:
                    return code
            return _SIMPLE_ESCAPES.get(code, code)

        return _ESCAPE.sub(unescape, raw[1:-1])
    if kind == "ls":
        return raw[1:-1]
    return raw


def key_lines(text: str) -> dict[tuple, int]:
    """Best-effort map key path -> line for a TOML text that tomllib accepted.

    Follows table headers (`[a.b]`), arrays of tables (`[[characters]]`, counted per parent),
    dotted keys, inline tables and arrays (one index per element), and skips strings and
    comments, so a `key =` inside a multi-line string is not mistaken for a key.
    """
    lines: dict[tuple, int] = {}
    aot: dict[tuple, int] = {}          # array-of-tables path -> tables seen so far
    # Frames: [kind, path, state, extra]; kind "doc"/"table" read keys, "array" reads values.
    stack: list[list] = [["doc", (), "key_start", None]]
    keyparts: list[str] = []
    key_line = 1
    header: list = []                   # [is_aot, parts] while reading a table header
    line = 1
    pos = 0
    end = len(text)

    def record(path: tuple, at: int, override: bool = False) -> None:
        if override:
            lines[path] = at
        else:
            lines.setdefault(path, at)

    def start_value(path: tuple, kind: str) -> None:
        if kind == "[":
            stack.append(["array", path, "value", 0])
        elif kind == "{":
            stack.append(["table", path, "key_start", None])

    while pos < end:
        m = _TOKEN.match(text, pos)
        if m is None:            # not valid TOML here: skip the character
            pos += 1
            continue
        kind = m.lastgroup
        tok = m.group()
        pos = m.end()
        if kind == "nl":
            line += 1
            frame = stack[0]
            if len(stack) == 1 and frame[2] != "header":
                frame[2] = "key_start"
            continue
        if kind in ("ws", "comment"):
            continue
        frame = stack[-1]
        fkind, fpath, state = frame[0], frame[1], frame[2]
        if fkind in ("doc", "table"):
            if state == "header":
                if kind == "p" and tok == "]":
                    is_aot, parts = header
                    if is_aot and pos < end and text[pos] == "]":
                        pos += 1
                    resolved: tuple = ()
                    for i, part in enumerate(parts):
                        resolved = resolved + (part,)
                        if i == len(parts) - 1 and is_aot:
                            count = aot.get(resolved, 0)
                            aot[resolved] = count + 1
                            record(resolved, line)
                            resolved = resolved + (count,)
                        elif resolved in aot:
                            resolved = resolved + (aot[resolved] - 1,)
                        record(resolved, line)
                    record(resolved, line, override=True)
                    frame[1] = resolved
                    frame[2] = "after_value"
                elif kind in ("bare", "bs", "ls"):
                    header[1].append(_key_text(kind, tok))
                continue
            if state == "key_start":
                if fkind == "doc" and kind == "p" and tok == "[":
                    is_aot = pos < end and text[pos] == "["
                    if is_aot:
                        pos += 1
                    header = [is_aot, []]
                    frame[2] = "header"
                elif fkind == "table" and kind == "p" and tok == "}":
                    stack.pop()
                elif kind in ("bare", "bs", "ls"):
                    keyparts = [_key_text(kind, tok)]
                    key_line = line
                    frame[2] = "in_key"
            elif state == "in_key":
                if kind in ("bare", "bs", "ls"):
                    keyparts.append(_key_text(kind, tok))
                elif kind == "p" and tok == "=":
                    path = fpath
                    for part in keyparts:
                        path = path + (part,)
                        record(path, key_line)
                    frame[3] = path
                    frame[2] = "after_eq"
            elif state == "after_eq":
                frame[2] = "after_value"
                start_value(frame[3], tok if kind == "p" else "")
            elif state == "after_value":
                if fkind == "table" and kind == "p":
                    if tok == ",":
                        frame[2] = "key_start"
                    elif tok == "}":
                        stack.pop()
        else:  # array
            if state == "value":
                if kind == "p" and tok == "]":
                    stack.pop()
                else:
                    element = fpath + (frame[3],)
                    record(element, line)
                    frame[2] = "after_value"
                    start_value(element, tok if kind == "p" else "")
            elif kind == "p" and tok == ",":
                frame[3] += 1
                frame[2] = "value"
            elif kind == "p" and tok == "]":
                stack.pop()
        if kind in ("mlb", "mll"):
            line += tok.count("\n")
    return lines


def line_of(lines: dict[tuple, int], path: tuple) -> int | None:
    """The line of `path`, else of its nearest ancestor that has one (None for the file)."""
    path = tuple(path)
    while path:
        if path in lines:
            return lines[path]
        path = path[:-1]
    return None


_KNOWN_SHOWN = 12          # ids listed in a dangling-reference message, at most

_SYNTAX_WHERE = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$|\s*\(at end of document\)\s*$")


# ---------------------------------------------------------------- the checker


class _Checker:
    """One validation run: collects (path, message, warning) and builds the model at the end."""

    def __init__(self, text: str, file: str) -> None:
        self.text = text[1:] if text.startswith("\ufeff") else text   # a BOM some editors write
        self.file = file
        self.found: list[tuple[tuple, str, bool, int | None]] = []
        self.poisoned: set[tuple] = set()   # paths with size/depth errors: not handed to the rules
        self._lines: dict[tuple, int] | None = None
        self.system: str | None = None
        self.entry_ids: set[str] = set()           # encounter entries, for the timers' opponents
        self.entry_names: set[str] = set()
        self.character_names: set[str] = set()

    # -- reporting

    def error(self, path: tuple, message: str) -> None:
        self.found.append((tuple(path), message, False, None))

    def warn(self, path: tuple, message: str) -> None:
        self.found.append((tuple(path), message, True, None))

    def at_line(self, line: int | None, message: str) -> None:
        self.found.append(((), message, False, line))

    def problems(self) -> list[Problem]:
        out = []
        for path, message, warning, line in self.found:
            if line is None and path:
                if self._lines is None:
                    self._lines = key_lines(self.text)
                line = line_of(self._lines, path)
            out.append(Problem(self.file, format_path(path), message, line, warning))
        out.sort(key=lambda p: p.line or 0)
        return out

    # -- the run

    def run(self) -> Campaign | None:
        text = self.text
        if len(text) > MAX_FILE_BYTES:
            self.at_line(None, f"file larger than {MAX_FILE_BYTES // (1024 * 1024)} MB: not a campaign")
            return None
        if not text.strip():
            self.at_line(None, f"the file is empty: expected a campaign (format = {FORMAT}, name = \"...\", "
                               "system = \"...\")")
            return None
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            message = str(exc)
            where = _SYNTAX_WHERE.search(message)
            line = None
            if where:
                message = message[: where.start()]
                if where.group(1):
                    line = int(where.group(1))
                    message += f" (column {where.group(2)})"
                else:
                    line = text.count("\n") + 1
                    message += " (at the end of the file: is it cut short?)"
            self.at_line(line, f"not valid TOML: {message}")
            return None
        except RecursionError:
            self.at_line(nesting_line(text, MAX_DEPTH),
                         f"nesting deeper than the schema allows (at most {MAX_DEPTH} levels)")
            return None
        except MemoryError:
            self.at_line(None, f"{OUT_OF_MEMORY}: not a campaign")
            return None
        self._limits(data)
        fmt = data.get("format")
        if "format" not in data:
            self.error(("format",), f"missing: the schema version (format = {FORMAT})")
        elif not _is_int(fmt):
            self.error(("format",), f"expected the schema version, an integer ({FORMAT}), {_got(fmt)}")
        elif fmt > FORMAT:
            self.error(("format",), f"written by a newer gmscreen (format {fmt}); this version reads format {FORMAT}")
            return None     # the rest follows a schema this version does not know
        elif fmt < 1:
            self.error(("format",), f"expected a format from 1 to {FORMAT}, got {fmt}")
        self._campaign(data)
        if any(not warning for _, _, warning, _ in self.found):
            return None
        return from_data(Campaign, data)

    # -- size, depth, control characters: every value of the file, iteratively

    def _limits(self, data: dict) -> None:
        stack: list[tuple[tuple, Any, int]] = [((), data, 0)]
        while stack:
            path, value, depth = stack.pop()
            if isinstance(value, (dict, list)):
                if depth >= MAX_DEPTH:
                    self.error(path, f"nesting deeper than the schema allows (at most {MAX_DEPTH} levels)")
                    self.poisoned.add(path)
                    continue
                if len(value) > MAX_ITEMS:
                    self.error(path, f"too many entries: at most {MAX_ITEMS:,}, got {len(value):,}")
                    self.poisoned.add(path)
                    continue
                if isinstance(value, dict):
                    items = list(value.items())
                    for key, _ in items:
                        self._text(path + (key,), key, what="key")
                else:
                    items = list(enumerate(value))
                for key, item in reversed(items):
                    stack.append((path + (key,), item, depth + 1))
            elif isinstance(value, str):
                self._text(path, value)

    def _text(self, path: tuple, value: str, what: str = "text") -> None:
        if len(value) > MAX_STRING:
            self.error(path, f"{what} too long: at most {MAX_STRING:,} characters, got {len(value):,}")
            self.poisoned.add(path)
            return
        m = _CONTROL.search(value)
        if m:
            self.warn(path, f"control character U+{ord(m.group()):04X} in the {what} "
                            "(kept as written; the screen shows it neutralised)")

    # -- small typed readers; each returns True when the value is fine

    def check_table(self, path: tuple, value: Any, what: str = "a table") -> bool:
        if not isinstance(value, dict):
            self.error(path, f"expected {what}, {_got(value)}")
            return False
        return path not in self.poisoned     # too big or too deep: reported once, not item by item

    def check_array(self, path: tuple, value: Any, what: str) -> bool:
        if not isinstance(value, list):
            self.error(path, f"expected {what}, {_got(value)}")
            return False
        return path not in self.poisoned

    def tables(self, path: tuple, parent: dict, key: str, header: str, what: str,
               allowed: Iterable[str]) -> Iterator[tuple[tuple, dict]]:
        """Each table of the array `parent[key]` ([[header]]; none when the key is absent), with
        its path, once it is known to be a table of `what` with only `allowed` keys."""
        if key not in parent or not self.check_array(path + (key,), parent[key],
                                                     f"an array of tables ([[{header}]])"):
            return
        for j, table in enumerate(parent[key]):
            where = path + (key, j)
            if self.check_table(where, table, f"{what} table"):
                self.keys(where, table, allowed, what)
                yield where, table

    def identified(self, path: tuple, table: Any, table_what: str, allowed: Iterable[str], what: str,
                   id_what: str, ids: dict[str, int], duplicate: str) -> bool:
        """A table with only `allowed` keys and an id unique in its array (see `unique_id`);
        False when it is not a table at all."""
        if not self.check_table(path, table, table_what):
            return False
        self.keys(path, table, allowed, what)
        self.unique_id(path, table, id_what, ids, duplicate)
        return True

    def unique_id(self, path: tuple, table: dict, what: str, ids: dict[str, int], duplicate: str) -> None:
        """`table["id"]`: required, a slug, and none of `ids` (id -> its index in the array),
        which it then joins; a repeat is reported in the words of `duplicate` ({id}, {first})."""
        if self.required(path, table, "id", what) and self.check_slug(path + ("id",), table["id"]):
            ident = table["id"]
            if ident in ids:
                self.error(path + ("id",), duplicate.format(id=ident, first=ids[ident]))
            else:
                ids[ident] = path[-1]

    def keys(self, path: tuple, table: dict, allowed: Iterable[str], what: str) -> None:
        allowed = tuple(allowed)
        for key in table:
            if key not in allowed:
                self.unknown(path + (key,), key, allowed, what)

    def unknown(self, path: tuple, key: str, allowed: tuple, what: str, hint: str = "") -> None:
        close = difflib.get_close_matches(key, allowed, n=1)
        guess = f" (did you mean {close[0]!r}?)" if close else ""
        self.error(path, hint or f"unknown key in {what}{guess}; expected one of {', '.join(allowed)}")

    def required(self, path: tuple, table: dict, key: str, what: str) -> bool:
        if key not in table:
            self.error(path + (key,), f"missing: {what}")
            return False
        return True

    def check_int(self, path: tuple, value: Any, lo: int | None = None, hi: int | None = None, what: str = "") -> bool:
        if lo is not None and hi is not None:
            expected = f"an integer from {lo} to {hi}"
        elif lo is not None:
            expected = f"an integer ≥ {lo}"
        else:
            expected = "an integer"
        if what:
            expected = f"{what}, {expected}"
        if not _is_int(value):
            self.error(path, f"expected {expected}, {_got(value)}")
            return False
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            self.error(path, f"expected {expected}, got {value}")
            return False
        return True

    def check_str(self, path: tuple, value: Any, *, nonempty: bool = False, what: str = "text") -> bool:
        if not isinstance(value, str):
            self.error(path, f"expected {what} (a string), {_got(value)}")
            return False
        if nonempty and not value.strip():
            self.error(path, f"expected {what}, got an empty string")
            return False
        return True

    def check_bool(self, path: tuple, value: Any) -> bool:
        if not isinstance(value, bool):
            self.error(path, f"expected true or false, {_got(value)}")
            return False
        return True

    def check_choice(self, path: tuple, value: Any, choices: tuple) -> bool:
        if not isinstance(value, str) or value not in choices:
            self.error(path, f"expected one of {', '.join(repr(c) for c in choices)}, {_got(value)}")
            return False
        return True

    def check_slug(self, path: tuple, value: Any) -> bool:
        if not self.check_str(path, value, what="an id"):
            return False
        if len(value) > MAX_NAME or not SLUG.match(value):
            self.error(path, f"expected an id: lowercase letters, digits, '-' and '_', starting with a letter "
                             f"or digit, at most {MAX_NAME} characters; got {_show(value)}")
            return False
        return True

    # -- the campaign

    def _campaign(self, data: dict) -> None:
        self.keys((), data, TOP_KEYS, "the campaign")
        if self.required((), data, "name", "the campaign's name (name = \"...\")"):
            self.check_str(("name",), data["name"], nonempty=True, what="the campaign's name")
        if "system" in data or self.required((), data, "system", f"the rules system, one of {_system_list()}"):
            system = data["system"]
            if isinstance(system, str) and registry.known(system):
                self.system = system
            else:
                self.error(("system",), f"expected one of {_system_list()}, {_got(system)}")
        if "session" in data:
            self.check_int(("session",), data["session"], 1, MAX_COUNT, what="the session number")
        if "revision" in data:
            self.check_int(("revision",), data["revision"], 0, None)
        if "notes" in data:
            self.check_str(("notes",), data["notes"], what="notes")
        if "initiative" in data:
            self._initiative(data["initiative"])
        if "rules" in data and self.check_table(("rules",), data["rules"], "a table of rule options"):
            self._rules(data["rules"])
        characters: dict[str, int] = {}
        if "characters" in data and self.check_array(("characters",), data["characters"],
                                                "an array of tables ([[characters]])"):
            for i, ch in enumerate(data["characters"]):
                self._character(("characters", i), ch, characters)
        if "encounter" in data and self.check_table(("encounter",), data["encounter"], "a table ([encounter])"):
            self._encounter(data["encounter"], characters)
        if "timers" in data and self.check_array(("timers",), data["timers"], "an array of tables ([[timers]])"):
            ids: dict[str, int] = {}
            for i, timer in enumerate(data["timers"]):
                self._timer(("timers", i), timer, characters, ids)

    def _initiative_example(self) -> str:
        return get_system(self.system).initiative if self.system else "1d10"

    def _initiative(self, value: Any) -> None:
        path = ("initiative",)
        if not self.check_str(path, value, what="a dice expression such as \"1d10\""):
            return
        if not value.strip():
            return      # "" = the GM types each initiative
        try:
            expr = importlib.import_module("gmscreen.rules.expr")
        except ModuleNotFoundError as exc:
            if exc.name == "gmscreen.rules.expr":
                return  # no expression parser in this build: nothing to check against
            self.error(path, f"cannot check the dice expression: {exc}")
            return
        try:
            expr.parse_expression(value)
        except Exception as exc:  # any refusal of the parser is the file's problem, not a crash
            reason = getattr(exc, "reason", None) or str(exc)
            self.error(path, f"expected a dice expression such as {self._initiative_example()!r}"
                             f", got {_show(value)}: {reason}")

    def _rules(self, table: dict) -> None:
        if self.system is None:
            return
        options = get_system(self.system).rule_options
        for key, value in table.items():
            path = ("rules", key)
            if key not in options:
                if options:
                    self.error(path, f"not a rule option of {self.system}; expected one of {', '.join(options)}")
                else:
                    self.error(path, f"not a rule option: {self.system} has none (expected an empty [rules] table)")
                continue
            choices = options[key]
            if isinstance(choices[0], bool):
                self.check_bool(path, value)
            else:
                self.check_choice(path, value, choices)

    # -- characters and sheets

    def _character(self, path: tuple, ch: Any, seen: dict[str, int]) -> None:
        if not self.check_table(path, ch, "a character table"):
            return
        for key in ch:
            if key not in CHARACTER_KEYS:
                hint = get_system(self.system).derived_keys.get(key, "") if self.system else ""
                self.unknown(path + (key,), key, CHARACTER_KEYS, "a character", hint)
        self.unique_id(path, ch, "the character's id (a slug such as \"loriane\")", seen,
                       "duplicate id {id!r} (also characters[{first}]); expected an id unique in the campaign")
        if self.required(path, ch, "name", "the character's name"):
            if self.check_str(path + ("name",), ch["name"], nonempty=True, what="the character's name"):
                self.character_names.add(ch["name"].casefold())
        if "side" in ch:
            self.check_choice(path + ("side",), ch["side"], SIDES)
        if "notes" in ch:
            self.check_str(path + ("notes",), ch["notes"], what="notes")
        if "conditions" in ch and self.check_array(path + ("conditions",), ch["conditions"],
                                              "an array of tables ([[characters.conditions]])"):
            for j, cond in enumerate(ch["conditions"]):
                self._condition(path + ("conditions", j), cond)
        sheet = ch.get("sheet", {})
        if self.check_table(path + ("sheet",), sheet, "a sheet table ([characters.sheet.<group>])") and self.system:
            self._sheet(path + ("sheet",), sheet)

    def _condition(self, path: tuple, cond: Any) -> None:
        if not self.check_table(path, cond, "a condition table"):
            return
        self.keys(path, cond, CONDITION_KEYS, "a condition")
        if self.required(path, cond, "name", "the condition's name"):
            self.check_str(path + ("name",), cond["name"], nonempty=True, what="the condition's name")
        if "effect" in cond:
            self.check_str(path + ("effect",), cond["effect"], what="the effect in the system's terms (\"−1 dé\", \"Malus\")")
        if "rounds" in cond:
            self.check_int(path + ("rounds",), cond["rounds"], 0, MAX_COUNT, what="rounds left")

    def _sheet(self, path: tuple, sheet: dict) -> None:
        groups = {g.key: g for g in sheet_groups(self.system)}
        derived = get_system(self.system).derived_keys
        for key in sheet:
            if key not in groups:
                hint = derived.get(key, "")
                self.unknown(path + (key,), key, tuple(groups), f"a {self.system} sheet", hint)
        for gkey, group in groups.items():
            gpath = path + (gkey,)
            if gkey not in sheet:
                if group.required and group.stats:
                    self.error(gpath, f"missing: {group.label} ({', '.join(s.key for s in group.stats)})")
                continue
            values = sheet[gkey]
            if not self.check_table(gpath, values, f"a table of {group.label}"):
                continue
            if group.stats:
                self._fixed_group(gpath, group, values, derived)
            elif group.parent_group:
                self._nested_group(gpath, group, values, sheet, groups[group.parent_group])
            else:
                self._free_group(gpath, group, values)

    def _fixed_group(self, path: tuple, group: Any, values: dict, derived: Mapping[str, str]) -> None:
        stats = {s.key: s for s in group.stats}
        for key, value in values.items():
            stat = stats.get(key)
            if stat is None:
                hint = derived.get(key, "")
                self.unknown(path + (key,), key, tuple(stats), group.label, hint)
                continue
            self._stat(path + (key,), stat, value)
        if group.required:
            for stat in group.stats:
                if stat.key not in values:
                    self.error(path + (stat.key,), f"missing: {stat.label}, {stat.expected()}")

    def _stat(self, path: tuple, stat: Any, value: Any) -> None:
        label = stat.label or "value"
        if not _is_int(value):
            self.error(path, f"expected {label}: {stat.expected()}, {_got(value)}")
        elif not stat.allows(value):
            self.error(path, f"expected {label}: {stat.expected()}, got {value}")

    def _free_name(self, path: tuple, name: str, what: str) -> bool:
        if not name.strip() or len(name) > MAX_NAME:
            self.error(path, f"expected a {what} name of 1 to {MAX_NAME} characters, got {_show(name)}")
            return False
        return True

    def _free_group(self, path: tuple, group: Any, values: dict) -> None:
        for name, value in values.items():
            if self._free_name(path + (name,), name, group.free.label.lower()):
                self._stat(path + (name,), group.free, value)

    def _nested_group(self, path: tuple, group: Any, values: dict, sheet: dict, parent: Any) -> None:
        if parent.stats:
            parents = tuple(s.key for s in parent.stats)
            where = f"a key of {parent.label}: {', '.join(parents)}"
        else:
            given = sheet.get(parent.key)
            parents = tuple(given) if isinstance(given, dict) else ()
            where = (f"one of this sheet's {parent.label}: {', '.join(parents)}" if parents
                     else f"a name listed in [characters.sheet.{parent.key}] first")
        for pkey, sub in values.items():
            ppath = path + (pkey,)
            if pkey not in parents:
                self.error(ppath, f"{group.label} are grouped under {parent.label.lower()}; expected {where}")
                continue
            if self.check_table(ppath, sub, f"a table of {group.label} under {pkey}"):
                self._free_group(ppath, group, sub)

    # -- encounter

    def _encounter(self, enc: dict, characters: dict[str, int]) -> None:
        path = ("encounter",)
        self.keys(path, enc, ENCOUNTER_KEYS, "the encounter")
        if "round" in enc:
            self.check_int(path + ("round",), enc["round"], 0, MAX_COUNT, what="the round (0: no fight running)")
        ids: dict[str, int] = {}
        count = 0
        if "entries" in enc and self.check_array(path + ("entries",), enc["entries"],
                                            "an array of tables ([[encounter.entries]])"):
            count = len(enc["entries"])
            for i, entry in enumerate(enc["entries"]):
                self._entry(path + ("entries", i), entry, characters, ids)
                if isinstance(entry, dict) and isinstance(entry.get("name"), str):
                    self.entry_names.add(entry["name"].casefold())
        self.entry_ids = set(ids)
        if "turn" in enc:
            hi = max(count - 1, 0)
            what = "whose turn it is, an index into the entries" if count else "0 (no entries)"
            self.check_int(path + ("turn",), enc["turn"], 0, hi, what=what)
        if "declared" in enc and self.check_array(path + ("declared",), enc["declared"],
                                             "an array of tables ([[encounter.declared]])"):
            declared: dict[str, int] = {}
            for i, decl in enumerate(enc["declared"]):
                self._declaration(path + ("declared", i), decl, ids, declared)
        if "resort_at" in enc:
            self.check_int(path + ("resort_at",), enc["resort_at"], 0, MAX_COUNT,
                           what="the round whose end sorts the whole order")
        if "ticks" in enc and self.check_array(path + ("ticks",), enc["ticks"],
                                          "an array of tables ([[encounter.ticks]])"):
            for i, ticks in enumerate(enc["ticks"]):
                self._ticks(path + ("ticks", i), ticks)

    def _ticks(self, path: tuple, ticks: Any) -> None:
        """What one end of turn ticked, kept for `p`. Only the shapes are checked: the ids name
        what was there then (a character or timer removed since is fine, `p` leaves it be)."""
        if not self.check_table(path, ticks, "a table of what one end of turn ticked"):
            return
        self.keys(path, ticks, TICKS_KEYS, "a turn's ticks")
        if self.required(path, ticks, "round", "the round the turn was in"):
            self.check_int(path + ("round",), ticks["round"], 0, MAX_COUNT, what="the round")
        if "round_after" in ticks:
            self.check_int(path + ("round_after",), ticks["round_after"], 0, MAX_COUNT, what="the round")
        for key in ("actor", "following"):
            if key in ticks:
                self.check_str(path + (key,), ticks[key], nonempty=True, what="an entry id")
        for key in ("order_before", "order_after"):
            if key in ticks and self.check_array(path + (key,), ticks[key], "an array of entry ids"):
                for j, ident in enumerate(ticks[key]):
                    self.check_str(path + (key, j), ident, nonempty=True, what="an entry id")
        for where, tick in self.tables(path, ticks, "conditions", "encounter.ticks.conditions",
                                       "a ticked condition", TICKED_CONDITION_KEYS):
            if self.required(where, tick, "character", "the id of the character who bore it"):
                self.check_str(where + ("character",), tick["character"], nonempty=True, what="a character id")
            if self.required(where, tick, "index", "its place among the character's conditions"):
                self.check_int(where + ("index",), tick["index"], 0, MAX_ITEMS, what="a place in the list")
            if self.required(where, tick, "before", "the condition before the tick"):
                self._condition(where + ("before",), tick["before"])
            if "after" in tick:
                self.check_int(where + ("after",), tick["after"], 0, MAX_COUNT, what="rounds left after the tick")
        for where, tick in self.tables(path, ticks, "countdowns", "encounter.ticks.countdowns",
                                       "a ticked countdown", TICKED_COUNTDOWN_KEYS):
            if self.required(where, tick, "timer", "the id of the countdown"):
                self.check_str(where + ("timer",), tick["timer"], nonempty=True, what="a timer id")
            for key in ("rounds", "rounds_after"):
                if key in tick:
                    self.check_int(where + (key,), tick[key], 0, MAX_COUNT, what="rounds left")
            for key in ("status", "status_after"):
                if key in tick:
                    self.check_choice(where + (key,), tick[key], TIMER_STATUS["countdown"])
        for where, decl in self.tables(path, ticks, "declared", "encounter.ticks.declared", "a declaration",
                                       DECLARATION_KEYS):
            if self.required(where, decl, "entry", "the id of the entry that declared"):
                self.check_str(where + ("entry",), decl["entry"], nonempty=True, what="an entry id")
            if "actions" in decl and self.check_array(where + ("actions",), decl["actions"], "an array of actions"):
                for k, action in enumerate(decl["actions"]):
                    self.check_str(where + ("actions", k), action, what="an action")

    def _entry(self, path: tuple, entry: Any, characters: dict[str, int], ids: dict[str, int]) -> None:
        if not self.identified(path, entry, "an entry table", ENTRY_KEYS, "an encounter entry",
                               "the entry's id (a slug, unique in the encounter)", ids,
                               "duplicate entry id {id!r} (also encounter.entries[{first}]); "
                               "expected an id unique in the encounter"):
            return
        if self.required(path, entry, "name", "the name shown in the turn order"):
            self.check_str(path + ("name",), entry["name"], nonempty=True, what="the name shown in the turn order")
        if "character" in entry:
            self._character_ref(path + ("character",), entry["character"], characters)
        if "initiative" in entry:
            self.check_int(path + ("initiative",), entry["initiative"], -MAX_COUNT, MAX_COUNT, what="the initiative")
        for flag in ("acted", "delayed"):
            if flag in entry:
                self.check_bool(path + (flag,), entry[flag])

    def _character_ref(self, path: tuple, value: Any, characters: dict[str, int]) -> bool:
        if not self.check_str(path, value, what="a character id"):
            return False
        if value not in characters:
            self.dangling(path, "character", value, characters)
            return False
        return True

    def dangling(self, path: tuple, what: str, value: Any, known: Iterable[str], *, warning: bool = False,
                 more: str = "") -> None:
        """Every reference to an id that does not exist is reported in these words."""
        ids = list(known)
        shown = ", ".join(ids[:_KNOWN_SHOWN]) or "none"
        if len(ids) > _KNOWN_SHOWN:
            shown += f", … ({len(ids)} in all)"
        message = f"no {what} with id {_show(value)}; expected one of: {shown}{more}"
        (self.warn if warning else self.error)(path, message)

    def _declaration(self, path: tuple, decl: Any, entries: dict[str, int], declared: dict[str, int]) -> None:
        if not self.check_table(path, decl, "a declaration table"):
            return
        self.keys(path, decl, DECLARATION_KEYS, "a declaration")
        if self.required(path, decl, "entry", "the id of the entry that declares"):
            entry = decl["entry"]
            if self.check_str(path + ("entry",), entry, what="an entry id"):
                if entry not in entries:
                    self.dangling(path + ("entry",), "encounter entry", entry, entries)
                elif entry in declared:
                    self.error(path + ("entry",), f"{entry!r} already declared (encounter.declared[{declared[entry]}]);"
                                                  " expected one declaration per entry")
                else:
                    declared[entry] = path[-1]
        if "actions" in decl and self.check_array(path + ("actions",), decl["actions"], "an array of actions"):
            for j, action in enumerate(decl["actions"]):
                self.check_str(path + ("actions", j), action, nonempty=True, what="an action")

    # -- timers

    def _timer(self, path: tuple, timer: Any, characters: dict[str, int], ids: dict[str, int]) -> None:
        if not self.identified(path, timer, "a timer table", TIMER_KEYS, "a timer", "the timer's id (a slug)", ids,
                               "duplicate timer id {id!r} (also timers[{first}])"):
            return
        if self.required(path, timer, "label", "the timer's label"):
            self.check_str(path + ("label",), timer["label"], nonempty=True, what="the timer's label")
        kind = timer.get("kind", "countdown")
        if not self.check_choice(path + ("kind",), kind, TIMER_KINDS):
            return
        if "status" in timer:
            self.check_choice(path + ("status",), timer["status"], TIMER_STATUS[kind])
        if "who" in timer:
            self._character_ref(path + ("who",), timer["who"], characters)
        elif kind != "countdown":
            self.error(path + ("who",), "missing: the id of the character who rolls")
        if "opponent" in timer:
            self._opponent(path + ("opponent",), timer["opponent"], characters)
        if kind == "countdown":
            for key in ("request", "dice"):     # the model writes them empty
                if timer.get(key, {}) != {}:
                    self.error(path + (key,), "a countdown has no test: expected only rounds (or an empty table)")
            if self.required(path, timer, "rounds", "the rounds left (rounds = 3)"):
                self.check_int(path + ("rounds",), timer["rounds"], 0, MAX_COUNT, what="the rounds left")
            return
        if "rounds" in timer:
            self.error(path + ("rounds",), "only countdowns count rounds: a test timer counts its tests")
        request_ok = (self.required(path, timer, "request", "the test's request table ([timers.request])")
                      and self.check_table(path + ("request",), timer["request"], "a request table ([timers.request])"))
        dice = timer.get("dice", {})
        dice_ok = self.check_table(path + ("dice",), dice, "a table of the dice rolled so far ([timers.dice])")
        if request_ok and dice_ok:
            self._test_timer(path, kind, timer["request"], dice, timer.get("status", "running"))

    def _opponent(self, path: tuple, value: Any, characters: dict[str, int]) -> None:
        """A character id, or a free name (someone not in the roster, or a removed character's
        name, which the screen writes itself). A value shaped like an id that names no
        character nor encounter entry is a dangling reference, reported as such; a warning, not
        an error, because the screen may also keep a one-word free name such as "garde"."""
        if not self.check_str(path, value, nonempty=True, what="a character id or a name"):
            return
        if value in characters or value in self.entry_ids or value.casefold() in self.entry_names:
            return
        if value.casefold() in self.character_names or not SLUG.match(value):
            return      # a free name
        self.dangling(path, "character", value, characters, warning=True,
                      more=" (kept as a free name; write the name as the table says it, \"Le garde\", "
                           "for someone who is not in the campaign)")

    def _test_timer(self, path: tuple, kind: str, request: dict, dice: dict, status: Any) -> None:
        system = self.system if self.system is not None and kind in get_system(self.system).test_timers \
            else _timer_owner(kind)
        rkind = get_system(system).test_timers[kind]
        rpath, dpath = path + ("request",), path + ("dice",)
        if self.system is not None and self.system != system:
            self.error(path + ("kind",), f"{kind!r} timers run {system} tests; this campaign plays {self.system}: "
                                         "expected a countdown")
            return
        if request.get("system") != system:
            self.error(rpath + ("system",), f"expected {system!r} (the campaign's system), {_got(request.get('system'))}"
                       if "system" in request else f"missing: system = {system!r}")
            return
        if request.get("kind") != rkind:
            self.error(rpath + ("kind",), f"expected {rkind!r} for a {kind!r} timer, {_got(request.get('kind'))}"
                       if "kind" in request else f"missing: kind = {rkind!r}")
            return
        if any(p[: len(path)] == path for p in self.poisoned):
            return
        try:
            from gmscreen import rules

            dice_fields = rules.get_system(system).kinds[rkind].dice_fields
        except Exception as exc:  # rules module missing or broken: a problem, not a crash
            self.error(rpath, f"cannot check this test: the rules of {system} are not available ({exc})")
            return
        ok = True
        for key in request:
            if key in dice_fields:
                self.error(rpath + (key,), "dice rolled so far go in [timers.dice], not in the request")
                ok = False
        for key in dice:
            if key not in dice_fields:
                self.error(dpath + (key,), f"expected dice fields of {system} {rkind}: {', '.join(dice_fields)}")
                ok = False
        if not ok:
            return
        forced = {name: [] for name in dice_fields}
        forced.update(dice)
        try:
            result = rules.resolve({**request, **forced})
        except rules.RequestError as exc:
            field = exc.field
            where = dpath + (field,) if field in dice_fields else rpath + (field,)
            self.error(where, exc.reason)
            return
        except Exception as exc:  # a rules bug must not crash validation
            self.error(rpath, f"cannot check this test: {type(exc).__name__}: {exc}")
            return
        if not isinstance(status, str) or status not in TIMER_STATUS[kind]:
            return      # already reported
        decided = result.get("outcome", result.get("winner"))
        if decided == "pending":
            if status != "running":
                self.error(path + ("status",), f"the dice so far leave the test undecided: expected 'running', "
                                               f"{_got(status)}")
        elif status != decided:
            self.error(path + ("status",), f"the dice so far decide the test ({decided}): expected status = "
                                           f"{decided!r}, {_got(status)}")


