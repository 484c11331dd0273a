"""Reading a campaign file into the model, with every problem found, never a traceback.

A campaign file is edited by hand, so validation reports *all* errors at once, each as
`FILE:LINE: key.path: what was expected`. tomllib gives no line for keys, so a light
scanner (`key_lines`) maps key paths to lines after a successful parse; it is only run
when there is something to report. Text is kept verbatim in the model: neutralising
markup and control characters is the screen's job, but they are reported as warnings.
"""

from __future__ import annotations

import dataclasses
import datetime
import difflib
import importlib
import re
import tomllib
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping, TypeGuard

from gmscreen.i18n import N_, _, os_reason
from gmscreen.i18n.parsers import toml_message
from gmscreen.i18n.typography import Name
from gmscreen.rules import get_system, registry
from gmscreen.rules.errors import type_key

from .errors import CampaignError, Problem
from .limits import MAX_COUNT, MAX_REVISION, MAX_STRING, MAX_TIMER_DICE, dice_count, shown, too_many_dice
from .model import (FORMAT, SIDES, Campaign, Character, Condition, Declaration, Track, Encounter, Entry, TickedCondition,
                    TickedCountdown, Timer, TurnTicks, from_data)
from .safeload import MAX_CAMPAIGN_BYTES, OUT_OF_MEMORY, long_number_line, nesting_line, parse_problem, thousands
from .textsafe import CONTROL as _CONTROL

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


MAX_ITEMS = 10_000          # entries in any one list or table (characters, entries, skills...)
MAX_DEPTH = 8               # nested tables/lists: the schema needs 6 (timers[i].dice.rolls[j][k])
MAX_NAME = 64               # ids and free stat names
MAX_FILE_BYTES = MAX_CAMPAIGN_BYTES
# MAX_STRING (characters in any one string), MAX_COUNT (round, session, countdown rounds),
# MAX_REVISION and MAX_TIMER_DICE: see `limits`, where each is decided with its reason.

SLUG = re.compile(r"[a-z0-9][a-z0-9_-]*\Z")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+\Z")

TIMER_KINDS = ("extended", "opposition", "countdown")
TIMER_STATUS = {
    "extended": ("running", "success", "failure"),
    "opposition": ("running", "actor", "opponent", "tie"),
    "countdown": ("running", "done"),
}



def field_names(cls: type[DataclassInstance]) -> tuple[str, ...]:
    """The keys a table of `cls` may hold: its fields, read from the model, so that a field
    added there is accepted here without a second list to keep."""
    return tuple(f.name for f in dataclasses.fields(cls))


# The campaign's keys as the file is written: `format` first (store.py), then the model's order.
TOP_KEYS = ("format", *(name for name in field_names(Campaign) if name != "format"))
CHARACTER_KEYS = field_names(Character)
GENDERS = ("f", "m")
CONDITION_KEYS = field_names(Condition)
TRACK_KEYS = field_names(Track)
ENCOUNTER_KEYS = field_names(Encounter)
ENTRY_KEYS = field_names(Entry)
DECLARATION_KEYS = field_names(Declaration)
TICKS_KEYS = field_names(TurnTicks)
TICKED_CONDITION_KEYS = field_names(TickedCondition)
TICKED_COUNTDOWN_KEYS = field_names(TickedCountdown)
TIMER_KEYS = field_names(Timer)
TIMER_SIDES = ("actor", "opponent")         # the sides a timer keeps from the players (`hidden_sides`)
# What a round played with its own settings may change (Magisphère R18), and the range of each.
ROUND_STATS_KEYS = {"actor_stat": 30, "actor_skill": 20, "actor_bonus": 20,
                    "opponent_stat": 30, "opponent_skill": 20, "opponent_bonus": 20}

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
        return [Problem(name, "", _("cannot read the file: {reason}").format(reason=os_reason(exc)))]
    if len(data) > MAX_FILE_BYTES:
        return [Problem(name, "", _too_big())]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return [Problem(name, "", _("invalid UTF-8 at byte offset {offset}: expected UTF-8 text").format(
            offset=exc.start), line)]
    try:
        _campaign, warnings = parse_campaign(text, name)
    except CampaignError as exc:
        return exc.problems
    except Exception as exc:  # a bug here must still end as one line, not a traceback
        return [Problem(name, "", _("internal error while checking this file: {error}").format(
            error=f"{type(exc).__name__}: {exc}"))]
    return warnings


def new_campaign(name: str, system: str) -> Campaign:
    """An empty campaign for `system`, with the initiative die and rule options spelled out."""
    if not registry.known(system):
        raise CampaignError([Problem(name or "campaign", "system",
                                     _("expected one of {choices}, got {value}").format(
                                         choices=", ".join(registry.system_ids()), value=_show(system))
                                     + registry.failure_note())])
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


_TYPE_WORDS = {"boolean": N_("a boolean"), "integer": N_("an integer"), "float": N_("a float"),
               "string": N_("a string"), "list": N_("an array"), "table": N_("a table"), "none": N_("no value")}


def _type_name(value: Any) -> str:
    """A value's type as TOML names it (arrays, dates and times), in the language spoken."""
    if isinstance(value, list):
        return _("an array")
    if isinstance(value, datetime.datetime):
        return _("a date-time")
    if isinstance(value, datetime.date):
        return _("a date")
    if isinstance(value, datetime.time):
        return _("a time")
    key = type_key(value)
    return _(_TYPE_WORDS[key]) if key in _TYPE_WORDS else type(value).__name__


def _got(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return _("got {type}").format(type=_type_name(value))
    return _("got {type} {value}").format(type=_type_name(value), value=_show(value))


def _too_big() -> str:
    return _("file larger than {size} MB: not a campaign").format(size=MAX_FILE_BYTES // (1024 * 1024))


def _too_deep() -> str:
    return _("nesting deeper than the schema allows (at most {n} levels)").format(n=MAX_DEPTH)


def _stat_expected(stat: Any) -> str:
    """What a stat of the sheet takes (the rules' `expected()`, in the language spoken)."""
    if stat.choices:
        return _("one of {choices}").format(choices=", ".join(str(c) for c in stat.choices))
    return _("an integer from {lo} to {hi}").format(lo=stat.lo, hi=stat.hi)


_STATS_BY_KEY: dict[int, tuple[Any, dict[str, Any]]] = {}


def _stats_by_key(group: Any) -> dict[str, Any]:
    """A fixed group's stats by key, worked out once per group (the sheet of every character
    goes through it)."""
    found = _STATS_BY_KEY.get(id(group))
    if found is None or found[0] is not group:
        found = _STATS_BY_KEY[id(group)] = (group, {s.key: s for s in group.stats})
    return found[1]


def _within_limits(data: dict) -> bool:
    """No table or list too deep or too long, no string too long or with a control character:
    one pass that builds no paths (the checker's own walk, which names where, runs only when
    this says no)."""
    texts: list[str] = []
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth >= MAX_DEPTH or len(value) > MAX_ITEMS:
            return False
        if isinstance(value, dict):
            texts += value
            value = value.values()
        for item in value:
            if isinstance(item, str):
                texts.append(item)
            elif isinstance(item, (dict, list)):
                stack.append((item, depth + 1))
    return all(len(text) <= MAX_STRING for text in texts) and not _CONTROL.search("\n".join(texts))


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


# ---------------------------------------------------------------- line numbers


@cache
def _token() -> re.Pattern[str]:
    return re.compile(r'''
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


@cache
def _escape() -> re.Pattern[str]:
    return re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)", re.S)


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

        return _escape().sub(unescape, raw[1:-1])
    if kind == "ls":
        return raw[1:-1]
    return raw


def key_lines(text: str, wanted: Iterable[tuple] | None = None) -> dict[tuple, int]:
    """Best-effort map key path -> line for a TOML text that tomllib accepted.

    Follows table headers (`[a.b]`), arrays of tables (`[[characters]]`, counted per parent),
    dotted keys, inline tables and arrays (one index per element), and skips strings and
    comments, so a `key =` inside a multi-line string is not mistaken for a key. With `wanted`,
    it stops at the end of the line where the last of those paths is found (a problem near the
    top of a 30 MB file costs that much, not the whole file).
    """
    lines: dict[tuple, int] = {}
    missing = set(wanted) if wanted is not None else None
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
        if missing:
            missing.discard(path)

    def start_value(path: tuple, kind: str) -> None:
        if kind == "[":
            stack.append(["array", path, "value", 0])
        elif kind == "{":
            stack.append(["table", path, "key_start", None])

    while pos < end:
        m = _token().match(text, pos)
        if m is None:            # not valid TOML here: skip the character
            pos += 1
            continue
        kind = m.lastgroup
        tok = m.group()
        pos = m.end()
        if kind == "nl":
            if missing is not None and not missing:
                break
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
_NO_CHARACTER = N_("no character with id {value}; expected one of: {known}")
_NO_ENTRY = N_("no encounter entry with id {value}; expected one of: {known}")


@cache
def _syntax_where() -> re.Pattern[str]:
    return re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$|\s*\(at end of document\)\s*$")


def _linked(campaign: Campaign) -> Campaign:
    """A fight entry written without `character =` whose id is a character's is that
    character's place in the turn order (its sheet, its conditions, its turn), unless another
    entry already is. Linked in memory only: the file is not rewritten for it."""
    entries = campaign.encounter.entries
    ids = {ch.id for ch in campaign.characters}
    linked = {e.character for e in entries if e.character is not None}
    for entry in entries:
        if entry.character is None and entry.id in ids and entry.id not in linked:
            entry.character = entry.id
            linked.add(entry.id)
    return campaign


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
        self.character_ids_by_name: dict[str, list[str]] = {}    # folded name -> the ids bearing it

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
                    self._lines = key_lines(self.text, {p for p, _m, _w, at in self.found if at is None and p})
                line = line_of(self._lines, path)
            out.append(Problem(self.file, format_path(path), message, line, warning))
        out.sort(key=lambda p: p.line or 0)
        return out

    # -- the run

    def run(self) -> Campaign | None:
        text = self.text
        if len(text) > MAX_FILE_BYTES:
            self.at_line(None, _too_big())
            return None
        if not text.strip():
            self.at_line(None, _("the file is empty: expected a campaign ({example})").format(
                example=f'format = {FORMAT}, name = "...", system = "..."'))
            return None
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            message = str(exc)
            where = _syntax_where().search(message)
            line = None
            if where:
                message = toml_message(message[: where.start()])
                if where.group(1):
                    line = int(where.group(1))
                    message += " " + _("(column {column})").format(column=where.group(2))
                else:
                    line = text.count("\n") + 1
                    message += " " + _("(at the end of the file: is it cut short?)")
            self.at_line(line, _("not valid TOML: {reason}").format(reason=message))
            return None
        except RecursionError:
            self.at_line(nesting_line(text, MAX_DEPTH), _too_deep())
            return None
        except MemoryError:
            self.at_line(None, _("{problem}: not a campaign").format(problem=_(OUT_OF_MEMORY)))
            return None
        except ValueError as exc:     # a number of more digits than Python converts
            self.at_line(long_number_line(text), parse_problem(exc))
            return None
        self._limits(data)
        fmt = data.get("format")
        if "format" not in data:
            self.error(("format",), _("missing: the schema version (format = {format})").format(format=FORMAT))
        elif not _is_int(fmt):
            self.error(("format",), _("expected the schema version, an integer ({format}), {got}").format(
                format=FORMAT, got=_got(fmt)))
        elif fmt > FORMAT:
            self.error(("format",), _("written by a newer gmscreen (format {found}); this version reads format "
                                      "{format}").format(found=fmt, format=FORMAT))
            return None     # the rest follows a schema this version does not know
        elif fmt < 1:
            self.error(("format",), _("expected a format from 1 to {format}, got {found}").format(
                format=FORMAT, found=fmt))
        self._campaign(data)
        if any(not warning for _, _, warning, _ in self.found):
            return None
        return _linked(from_data(Campaign, data))

    # -- size, depth, control characters: every value of the file, iteratively

    def _limits(self, data: dict) -> None:
        if _within_limits(data):
            return              # the usual file: nothing to say, no path worked out
        stack: list[tuple[tuple, Any, int]] = [((), data, 0)]
        while stack:
            path, value, depth = stack.pop()
            if isinstance(value, (dict, list)):
                if depth >= MAX_DEPTH:
                    self.error(path, _too_deep())
                    self.poisoned.add(path)
                    continue
                if len(value) > MAX_ITEMS:
                    self.error(path, _("too many entries: at most {most}, got {count}").format(
                        most=thousands(MAX_ITEMS), count=thousands(len(value))))
                    self.poisoned.add(path)
                    continue
                if isinstance(value, dict):
                    items = list(value.items())
                    for key, _value in items:
                        self._text(path + (key,), key, what="key")
                else:
                    items = list(enumerate(value))
                for key, item in reversed(items):
                    stack.append((path + (key,), item, depth + 1))
            elif isinstance(value, str):
                self._text(path, value)

    def _text(self, path: tuple, value: str, what: str = "text") -> None:
        if len(value) > MAX_STRING:
            message = (_("key too long: at most {most} characters, got {count}") if what == "key"
                       else _("text too long: at most {most} characters, got {count}"))
            self.error(path, message.format(most=thousands(MAX_STRING), count=thousands(len(value))))
            self.poisoned.add(path)
            return
        m = _CONTROL.search(value)
        if m:
            message = (_("control character {code} in the key (kept as written; the screen shows it "
                         "neutralised)") if what == "key"
                       else _("control character {code} in the text (kept as written; the screen shows it "
                              "neutralised)"))
            self.warn(path, message.format(code=f"U+{ord(m.group()):04X}"))

    # -- small typed readers; each returns True when the value is fine

    def check_table(self, path: tuple, value: Any, what: str = "") -> bool:
        if not isinstance(value, dict):
            self.error(path, _("expected {what}, {got}").format(what=what or _("a table"), got=_got(value)))
            return False
        return path not in self.poisoned     # too big or too deep: reported once, not item by item

    def check_array(self, path: tuple, value: Any, what: str) -> bool:
        if not isinstance(value, list):
            self.error(path, _("expected {what}, {got}").format(what=what, got=_got(value)))
            return False
        return path not in self.poisoned

    def tables(self, path: tuple, parent: dict, key: str, header: str, what: str,
               allowed: Iterable[str]) -> Iterator[tuple[tuple, dict]]:
        """Each table of the array `parent[key]` ([[header]]; none when the key is absent), with
        its path, once it is known to be a table of `what` with only `allowed` keys."""
        if key not in parent or not self.check_array(path + (key,), parent[key],
                                                     _("an array of tables ([[{header}]])").format(
                                                         header=header)):
            return
        for j, table in enumerate(parent[key]):
            where = path + (key, j)
            if self.check_table(where, table, _("{what} table").format(what=what)):
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
        guess = " " + _("(did you mean {key}?)").format(key=repr(close[0])) if close else ""
        self.error(path, _(hint) if hint else _("unknown key in {what}{guess}; expected one of {choices}").format(
            what=what, guess=guess, choices=", ".join(allowed)))

    def required(self, path: tuple, table: dict, key: str, what: str) -> bool:
        if key not in table:
            self.error(path + (key,), _("missing: {what}").format(what=what))
            return False
        return True

    def check_int(self, path: tuple, value: Any, lo: int | None = None, hi: int | None = None, what: str = "") -> bool:
        if lo is not None and hi is not None:
            expected = _("an integer from {lo} to {hi}").format(lo=lo, hi=hi)
        elif lo is not None:
            expected = _("an integer ≥ {lo}").format(lo=lo)
        else:
            expected = _("an integer")
        if what:
            expected = f"{what}, {expected}"
        if not _is_int(value):
            self.error(path, _("expected {what}, {got}").format(what=expected, got=_got(value)))
            return False
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            self.error(path, _("expected {what}, got {value}").format(what=expected, value=shown(value)))
            return False
        return True

    def check_str(self, path: tuple, value: Any, *, nonempty: bool = False, what: str = "") -> bool:
        what = what or _("text")
        if not isinstance(value, str):
            self.error(path, _("expected {what} (a string), {got}").format(what=what, got=_got(value)))
            return False
        if nonempty and not value.strip():
            self.error(path, _("expected {what}, got an empty string").format(what=what))
            return False
        return True

    def check_bool(self, path: tuple, value: Any) -> bool:
        if not isinstance(value, bool):
            self.error(path, _("expected true or false, {got}").format(got=_got(value)))
            return False
        return True

    def check_choice(self, path: tuple, value: Any, choices: tuple) -> bool:
        if not isinstance(value, str) or value not in choices:
            self.error(path, _("expected one of {choices}, {got}").format(
                choices=", ".join(repr(c) for c in choices), got=_got(value)))
            return False
        return True

    def check_slug(self, path: tuple, value: Any) -> bool:
        if not self.check_str(path, value, what=_("an id")):
            return False
        if len(value) > MAX_NAME or not SLUG.match(value):
            self.error(path, _("expected an id: lowercase letters, digits, '-' and '_', starting with a letter "
                               "or digit, at most {most} characters; got {value}").format(most=MAX_NAME,
                                                                                        value=_show(value)))
            return False
        return True

    # -- the campaign

    def _campaign(self, data: dict) -> None:
        self.keys((), data, TOP_KEYS, _("the campaign"))
        if self.required((), data, "name", _("the campaign's name (name = \"...\")")):
            self.check_str(("name",), data["name"], nonempty=True, what=_("the campaign's name"))
        if "system" in data or self.required((), data, "system", _("the rules system, one of {choices}").format(
                choices=_system_list())):
            system = data["system"]
            if isinstance(system, str) and registry.known(system):
                self.system = system
            else:
                self.error(("system",), _("expected one of {choices}, {got}").format(choices=_system_list(),
                                                                                     got=_got(system))
                           + registry.failure_note())
        if "session" in data:
            self.check_int(("session",), data["session"], 1, MAX_COUNT, what=_("the session number"))
        if "revision" in data:
            self.check_int(("revision",), data["revision"], 0, MAX_REVISION,
                           what=_("the number of changes made to the campaign"))
        if "notes" in data:
            self.check_str(("notes",), data["notes"], what=_("notes"))
        if "initiative" in data:
            self._initiative(data["initiative"])
        if "rules" in data and self.check_table(("rules",), data["rules"], _("a table of rule options")):
            self._rules(data["rules"])
        characters: dict[str, int] = {}
        if "characters" in data and self.check_array(("characters",), data["characters"],
                                                _("an array of tables ([[{header}]])").format(header="characters")):
            for i, ch in enumerate(data["characters"]):
                self._character(("characters", i), ch, characters)
        if "encounter" in data and self.check_table(("encounter",), data["encounter"], _("a table ([encounter])")):
            self._encounter(data["encounter"], characters)
        if "timers" in data and self.check_array(("timers",), data["timers"],
                                                        _("an array of tables ([[{header}]])").format(header="timers")):
            ids: dict[str, int] = {}
            for i, timer in enumerate(data["timers"]):
                self._timer(("timers", i), timer, characters, ids)

    def _initiative_example(self) -> str:
        return get_system(self.system).initiative if self.system else "1d10"

    def _initiative(self, value: Any) -> None:
        path = ("initiative",)
        if not self.check_str(path, value, what=_("a dice expression such as {example}").format(example='"1d10"')):
            return
        if not value.strip():
            return      # "" = the GM types each initiative
        try:
            expr = importlib.import_module("gmscreen.rules.expr")
        except ModuleNotFoundError as exc:
            if exc.name == "gmscreen.rules.expr":
                return  # no expression parser in this build: nothing to check against
            self.error(path, _("cannot check the dice expression: {error}").format(error=exc))
            return
        try:
            expr.parse_expression(value)
        except Exception as exc:  # any refusal of the parser is the file's problem, not a crash
            reason = getattr(exc, "reason", None) or str(exc)
            self.error(path, _("expected a dice expression such as {example}, got {value}: {reason}").format(
                example=repr(self._initiative_example()), value=_show(value), reason=reason))

    def _rules(self, table: dict) -> None:
        if self.system is None:
            return
        options = get_system(self.system).rule_options
        for key, value in table.items():
            path = ("rules", key)
            if key not in options:
                if options:
                    self.error(path, _("not a rule option of {system}; expected one of {choices}").format(
                        system=self.system, choices=", ".join(options)))
                else:
                    self.error(path, _("not a rule option: {system} has none (expected an empty [rules] table)").format(
                        system=self.system))
                continue
            choices = options[key]
            if isinstance(choices[0], bool):
                self.check_bool(path, value)
            else:
                self.check_choice(path, value, choices)

    # -- characters and sheets

    def _character(self, path: tuple, ch: Any, seen: dict[str, int]) -> None:
        if not self.check_table(path, ch, _("a character table")):
            return
        for key in ch:
            if key not in CHARACTER_KEYS:
                hint = get_system(self.system).derived_keys.get(key, "") if self.system else ""
                self.unknown(path + (key,), key, CHARACTER_KEYS, _("a character"), hint)
        self.unique_id(path, ch, _("the character's id (a slug such as {example})").format(example='"loriane"'), seen,
                       _("duplicate id {id!r} (also characters[{first}]); expected an id unique in the campaign"))
        if self.required(path, ch, "name", _("the character's name")):
            if self.check_str(path + ("name",), ch["name"], nonempty=True, what=_("the character's name")):
                self.character_names.add(ch["name"].casefold())
                if isinstance(ch.get("id"), str):
                    self.character_ids_by_name.setdefault(ch["name"].casefold(), []).append(ch["id"])
        if "side" in ch:
            self.check_choice(path + ("side",), ch["side"], SIDES)
        if "notes" in ch:
            self.check_str(path + ("notes",), ch["notes"], what=_("notes"))
        if "gender" in ch:
            self.check_choice(path + ("gender",), ch["gender"], GENDERS)
        if "hidden" in ch:
            self.check_bool(path + ("hidden",), ch["hidden"])
        if "conditions" in ch and self.check_array(path + ("conditions",), ch["conditions"],
                                              _("an array of tables ([[{header}]])").format(
                                                  header="characters.conditions")):
            for j, cond in enumerate(ch["conditions"]):
                self._condition(path + ("conditions", j), cond)
        if "tracks" in ch and self.check_array(path + ("tracks",), ch["tracks"],
                                               _("an array of tables ([[{header}]])").format(
                                                   header="characters.tracks")):
            for j, track in enumerate(ch["tracks"]):
                self._track(path + ("tracks", j), track)
        sheet = ch.get("sheet", {})
        if self.check_table(path + ("sheet",), sheet, _("a sheet table ([characters.sheet.<group>])")) and self.system:
            self._sheet(path + ("sheet",), sheet, self.system)

    def _condition(self, path: tuple, cond: Any) -> None:
        if not self.check_table(path, cond, _("a condition table")):
            return
        self.keys(path, cond, CONDITION_KEYS, _("a condition"))
        if self.required(path, cond, "name", _("the condition's name")):
            self.check_str(path + ("name",), cond["name"], nonempty=True, what=_("the condition's name"))
        if "effect" in cond:
            self.check_str(path + ("effect",), cond["effect"], what=_("the effect in the system's terms ({examples})")
                           .format(examples='"−1 dé", "Malus"'))
        if "rounds" in cond:
            self.check_int(path + ("rounds",), cond["rounds"], 0, MAX_COUNT, what=_("rounds left"))

    def _track(self, path: tuple, track: Any) -> None:
        """A damage track: a name, a maximum of at least 1, hits taken from 0 to that maximum."""
        if not self.check_table(path, track, _("a track table")):
            return
        self.keys(path, track, TRACK_KEYS, _("a track"))
        if self.required(path, track, "name", _("the track's name")):
            self.check_str(path + ("name",), track["name"], nonempty=True, what=_("the track's name"))
        cap = track.get("max", Track.max)
        if "max" in track and not self.check_int(path + ("max",), cap, 1, MAX_COUNT,
                                                 what=_("the hits that defeat (the track's maximum)")):
            return
        if "value" in track:
            self.check_int(path + ("value",), track["value"], 0, cap, what=_("the hits taken"))

    def _sheet(self, path: tuple, sheet: dict, system: str) -> None:
        groups = {g.key: g for g in sheet_groups(system)}
        derived = get_system(system).derived_keys
        for key in sheet:
            if key not in groups:
                hint = derived.get(key, "")
                sheet_of = _("{system:a} sheet").format(system=Name(get_system(system).game))    # "an Éclats sheet"
                self.unknown(path + (key,), key, tuple(groups), sheet_of, hint)
        for gkey, group in groups.items():
            gpath = path + (gkey,)
            if gkey not in sheet:
                if group.required and group.stats:
                    self.error(gpath, _("missing: {what}").format(
                        what=f"{group.label} ({', '.join(s.key for s in group.stats)})"))
                continue
            values = sheet[gkey]
            if not self.check_table(gpath, values, _("a table of {group}").format(group=group.label)):
                continue
            if group.stats:
                self._fixed_group(gpath, group, values, derived)
            elif group.parent_group:
                self._nested_group(gpath, group, values, sheet, groups[group.parent_group])
            else:
                self._free_group(gpath, group, values)

    def _fixed_group(self, path: tuple, group: Any, values: dict, derived: Mapping[str, str]) -> None:
        stats = _stats_by_key(group)
        for key, value in values.items():
            stat = stats.get(key)
            if stat is None:
                hint = derived.get(key, "")
                self.unknown(path + (key,), key, tuple(stats), group.label, hint)
                continue
            if not (_is_int(value) and stat.allows(value)):      # (a path made only for a problem)
                self._stat(path + (key,), stat, value)
        if group.required:
            for stat in group.stats:
                if stat.key not in values:
                    self.error(path + (stat.key,), _("missing: {what}").format(
                        what=f"{stat.label}, {_stat_expected(stat)}"))

    def _stat(self, path: tuple, stat: Any, value: Any) -> None:
        if _is_int(value) and stat.allows(value):
            return              # (the usual case: no words looked up for it)
        label = stat.label or _("value")
        if not _is_int(value):
            self.error(path, _("expected {what}: {expected}, {got}").format(
                what=label, expected=_stat_expected(stat), got=_got(value)))
        elif not stat.allows(value):
            self.error(path, _("expected {what}: {expected}, got {value}").format(
                what=label, expected=_stat_expected(stat), value=value))

    def _free_name(self, path: tuple, name: str, what: str) -> bool:
        if not name.strip() or len(name) > MAX_NAME:
            self.error(path, _("expected a {what} name of 1 to {most} characters, got {value}").format(
                what=what, most=MAX_NAME, value=_show(name)))
            return False
        return True

    def _free_group(self, path: tuple, group: Any, values: dict) -> None:
        for name, value in values.items():
            if name.strip() and len(name) <= MAX_NAME and _is_int(value) and group.free.allows(value):
                continue                # (the usual entry: nothing to say, no path made)
            if self._free_name(path + (name,), name, group.free.label.lower()):
                self._stat(path + (name,), group.free, value)

    def _nested_group(self, path: tuple, group: Any, values: dict, sheet: dict, parent: Any) -> None:
        if parent.stats:
            parents = tuple(s.key for s in parent.stats)
            where = _("a key of {group}: {keys}").format(group=parent.label, keys=", ".join(parents))
        else:
            given = sheet.get(parent.key)
            parents = tuple(given) if isinstance(given, dict) else ()
            where = (_("one of this sheet's {group}: {names}").format(group=parent.label, names=", ".join(parents))
                     if parents else _("a name listed in [characters.sheet.{key}] first").format(key=parent.key))
        for pkey, sub in values.items():
            ppath = path + (pkey,)
            if pkey not in parents:
                self.error(ppath, _("{group} are grouped under {parent}; expected {where}").format(
                    group=group.label, parent=parent.label.lower(), where=where))
                continue
            if self.check_table(ppath, sub, _("a table of {group} under {key}").format(group=group.label, key=pkey)):
                self._free_group(ppath, group, sub)

    # -- encounter

    def _encounter(self, enc: dict, characters: dict[str, int]) -> None:
        path = ("encounter",)
        self.keys(path, enc, ENCOUNTER_KEYS, _("the encounter"))
        if "round" in enc:
            self.check_int(path + ("round",), enc["round"], 0, MAX_COUNT, what=_("the round (0: no fight running)"))
        ids: dict[str, int] = {}
        count = 0
        if "entries" in enc and self.check_array(path + ("entries",), enc["entries"],
                                            _("an array of tables ([[{header}]])").format(
                                                header="encounter.entries")):
            count = len(enc["entries"])
            for i, entry in enumerate(enc["entries"]):
                self._entry(path + ("entries", i), entry, characters, ids)
                if isinstance(entry, dict) and isinstance(entry.get("name"), str):
                    self.entry_names.add(entry["name"].casefold())
            self._unlinked(path + ("entries",), enc["entries"], characters)
        self.entry_ids = set(ids)
        if "turn" in enc:
            hi = max(count - 1, 0)
            what = _("whose turn it is, an index into the entries") if count else _("0 (no entries)")
            self.check_int(path + ("turn",), enc["turn"], 0, hi, what=what)
        if "declared" in enc and self.check_array(path + ("declared",), enc["declared"],
                                             _("an array of tables ([[{header}]])").format(
                                                 header="encounter.declared")):
            declared: dict[str, int] = {}
            for i, decl in enumerate(enc["declared"]):
                self._declaration(path + ("declared", i), decl, ids, declared)
        if "resort_at" in enc:
            self.check_int(path + ("resort_at",), enc["resort_at"], 0, MAX_COUNT,
                           what=_("the round whose end sorts the whole order"))
        if "ticks" in enc and self.check_array(path + ("ticks",), enc["ticks"],
                                          _("an array of tables ([[{header}]])").format(header="encounter.ticks")):
            for i, ticks in enumerate(enc["ticks"]):
                self._ticks(path + ("ticks", i), ticks)

    def _ticks(self, path: tuple, ticks: Any) -> None:
        """What one end of turn ticked, kept for `p`. Only the shapes are checked: the ids name
        what was there then (a character or timer removed since is fine, `p` leaves it be)."""
        if not self.check_table(path, ticks, _("a table of what one end of turn ticked")):
            return
        self.keys(path, ticks, TICKS_KEYS, _("a turn's ticks"))
        if self.required(path, ticks, "round", _("the round the turn was in")):
            self.check_int(path + ("round",), ticks["round"], 0, MAX_COUNT, what=_("the round"))
        if "round_after" in ticks:
            self.check_int(path + ("round_after",), ticks["round_after"], 0, MAX_COUNT, what=_("the round"))
        for key in ("actor", "following"):
            if key in ticks:
                self.check_str(path + (key,), ticks[key], nonempty=True, what=_("an entry id"))
        for key in ("order_before", "order_after"):
            if key in ticks and self.check_array(path + (key,), ticks[key], _("an array of entry ids")):
                for j, ident in enumerate(ticks[key]):
                    self.check_str(path + (key, j), ident, nonempty=True, what=_("an entry id"))
        for where, tick in self.tables(path, ticks, "conditions", "encounter.ticks.conditions",
                                       _("a ticked condition"), TICKED_CONDITION_KEYS):
            if self.required(where, tick, "character", _("the id of the character who bore it")):
                self.check_str(where + ("character",), tick["character"], nonempty=True, what=_("a character id"))
            if self.required(where, tick, "index", _("its place among the character's conditions")):
                self.check_int(where + ("index",), tick["index"], 0, MAX_ITEMS, what=_("a place in the list"))
            if self.required(where, tick, "before", _("the condition before the tick")):
                self._condition(where + ("before",), tick["before"])
            if "after" in tick:
                self.check_int(where + ("after",), tick["after"], 0, MAX_COUNT, what=_("rounds left after the tick"))
        for where, tick in self.tables(path, ticks, "countdowns", "encounter.ticks.countdowns",
                                       _("a ticked countdown"), TICKED_COUNTDOWN_KEYS):
            if self.required(where, tick, "timer", _("the id of the countdown")):
                self.check_str(where + ("timer",), tick["timer"], nonempty=True, what=_("a timer id"))
            for key in ("rounds", "rounds_after"):
                if key in tick:
                    self.check_int(where + (key,), tick[key], 0, MAX_COUNT, what=_("rounds left"))
            for key in ("status", "status_after"):
                if key in tick:
                    self.check_choice(where + (key,), tick[key], TIMER_STATUS["countdown"])
        for where, decl in self.tables(path, ticks, "declared", "encounter.ticks.declared", _("a declaration"),
                                       DECLARATION_KEYS):
            if self.required(where, decl, "entry", _("the id of the entry that declared")):
                self.check_str(where + ("entry",), decl["entry"], nonempty=True, what=_("an entry id"))
            if "actions" in decl and self.check_array(where + ("actions",), decl["actions"], _("an array of actions")):
                for k, action in enumerate(decl["actions"]):
                    self.check_str(where + ("actions", k), action, what=_("an action"))

    def _entry(self, path: tuple, entry: Any, characters: dict[str, int], ids: dict[str, int]) -> None:
        if not self.identified(path, entry, _("an entry table"), ENTRY_KEYS, _("an encounter entry"),
                               _("the entry's id (a slug, unique in the encounter)"), ids,
                               _("duplicate entry id {id!r} (also encounter.entries[{first}]); "
                                 "expected an id unique in the encounter")):
            return
        if self.required(path, entry, "name", _("the name shown in the turn order")):
            self.check_str(path + ("name",), entry["name"], nonempty=True, what=_("the name shown in the turn order"))
        if "character" in entry:
            self._character_ref(path + ("character",), entry["character"], characters)
        if "initiative" in entry:
            self.check_int(path + ("initiative",), entry["initiative"], -MAX_COUNT, MAX_COUNT, what=_("the initiative"))
        for flag in ("acted", "delayed"):
            if flag in entry:
                self.check_bool(path + (flag,), entry[flag])

    def _unlinked(self, path: tuple, entries: list, characters: dict[str, int]) -> None:
        """An entry without `character =` that bears the name of one character not in the fight
        otherwise: most likely that character, the key forgotten. Said with what to write (an
        entry whose id is a character's is linked on load, see `_linked`)."""
        taken = {e.get("character") for e in entries if isinstance(e, dict)}
        taken |= {e.get("id") for e in entries if isinstance(e, dict) and "character" not in e}
        for i, entry in enumerate(entries):
            if not isinstance(entry, dict) or "character" in entry or entry.get("id") in characters:
                continue
            name = entry.get("name")
            ids = self.character_ids_by_name.get(name.casefold(), []) if isinstance(name, str) else []
            if len(ids) == 1 and ids[0] in characters and ids[0] not in taken:
                self.warn(path + (i,), _("{name} is a character's name, but this entry has no sheet (no character "
                                         "key): to make it theirs (sheet, conditions, turn), write "
                                         "character = {id} in it").format(name=_show(name), id=_quote(ids[0])))

    def _character_ref(self, path: tuple, value: Any, characters: dict[str, int]) -> bool:
        if not self.check_str(path, value, what=_("a character id")):
            return False
        if value not in characters:
            self.dangling(path, _NO_CHARACTER, value, characters)
            return False
        return True

    def dangling(self, path: tuple, what: str, value: Any, known: Iterable[str], *, warning: bool = False,
                 more: str = "") -> None:
        """Every reference to an id that does not exist is reported in these words (`what`:
        _NO_CHARACTER or _NO_ENTRY)."""
        ids = list(known)
        shown = ", ".join(ids[:_KNOWN_SHOWN]) or _("none")
        if len(ids) > _KNOWN_SHOWN:
            shown += ", … " + _("({n} in all)").format(n=len(ids))
        message = _(what).format(value=_show(value), known=shown) + more
        (self.warn if warning else self.error)(path, message)

    def _declaration(self, path: tuple, decl: Any, entries: dict[str, int], declared: dict[str, int]) -> None:
        if not self.check_table(path, decl, _("a declaration table")):
            return
        self.keys(path, decl, DECLARATION_KEYS, _("a declaration"))
        if self.required(path, decl, "entry", _("the id of the entry that declares")):
            entry = decl["entry"]
            if self.check_str(path + ("entry",), entry, what=_("an entry id")):
                if entry not in entries:
                    self.dangling(path + ("entry",), _NO_ENTRY, entry, entries)
                elif entry in declared:
                    self.error(path + ("entry",), _("{entry} already declared (encounter.declared[{first}]); "
                                                    "expected one declaration per entry").format(
                        entry=repr(entry), first=declared[entry]))
                else:
                    declared[entry] = path[-1]
        if "actions" in decl and self.check_array(path + ("actions",), decl["actions"], _("an array of actions")):
            for j, action in enumerate(decl["actions"]):
                self.check_str(path + ("actions", j), action, nonempty=True, what=_("an action"))

    # -- timers

    def _timer(self, path: tuple, timer: Any, characters: dict[str, int], ids: dict[str, int]) -> None:
        if not self.identified(path, timer, _("a timer table"), TIMER_KEYS, _("a timer"), _("the timer's id (a slug)"),
                               ids, _("duplicate timer id {id!r} (also timers[{first}])")):
            return
        if self.required(path, timer, "label", _("the timer's label")):
            self.check_str(path + ("label",), timer["label"], nonempty=True, what=_("the timer's label"))
        kind = timer.get("kind", "countdown")
        if not self.check_choice(path + ("kind",), kind, TIMER_KINDS):
            return
        if "status" in timer:
            self.check_choice(path + ("status",), timer["status"], TIMER_STATUS[kind])
        if "who" in timer:
            self._character_ref(path + ("who",), timer["who"], characters)
        elif kind != "countdown":
            self.error(path + ("who",), _("missing: {what}").format(what=_("the id of the character who rolls")))
        if "opponent" in timer:
            self._opponent(path + ("opponent",), timer["opponent"], characters)
        if "gm_only" in timer:                  # what the players may not see of it (gmscreen.play.public)
            self.check_bool(path + ("gm_only",), timer["gm_only"])
        if "hidden_sides" in timer and self.check_array(path + ("hidden_sides",), timer["hidden_sides"],
                                                        _("an array of sides (\"actor\", \"opponent\")")):
            for n, side in enumerate(timer["hidden_sides"]):
                self.check_choice(path + ("hidden_sides", n), side, TIMER_SIDES)
        if kind == "countdown":
            for key in ("request", "dice"):     # the model writes them empty
                if timer.get(key, {}) != {}:
                    self.error(path + (key,), _("a countdown has no test: expected only rounds (or an empty table)"))
            if self.required(path, timer, "rounds", _("the rounds left (rounds = 3)")):
                self.check_int(path + ("rounds",), timer["rounds"], 0, MAX_COUNT, what=_("the rounds left"))
            return
        if "rounds" in timer:
            self.error(path + ("rounds",), _("only countdowns count rounds: a test timer counts its tests"))
        request_ok = (self.required(path, timer, "request", _("the test's request table ([timers.request])"))
                      and self.check_table(path + ("request",), timer["request"],
                                           _("a request table ([timers.request])")))
        dice = timer.get("dice", {})
        dice_ok = self.check_table(path + ("dice",), dice, _("a table of the dice rolled so far ([timers.dice])"))
        if dice_ok:
            dice_ok = self._dice_count(path + ("dice",), dice)
        if "round_stats" in timer:
            self._round_stats(path + ("round_stats",), timer["round_stats"])
        elif request_ok and dice_ok:    # rounds with their own settings: the game adds them up, not `resolve`
            self._test_timer(path, kind, timer["request"], dice, timer.get("status", "running"))

    def _dice_count(self, path: tuple, dice: dict) -> bool:
        """At most MAX_TIMER_DICE faces in a timer, whatever adds them up (the rules or the
        game's own rounds): more is no test a table plays, and would cost every open."""
        count = dice_count(dice)
        if count <= MAX_TIMER_DICE:
            return True
        self.error(path, too_many_dice(count))
        self.poisoned.add(path)
        return False

    def _round_stats(self, path: tuple, value: Any) -> None:
        """One table a round played: the statistics and skills that round used ({}: the request's)."""
        if not self.check_array(path, value, _("an array of tables, one a round played")):
            return
        for n, stats in enumerate(value):
            if not self.check_table(path + (n,), stats, _("a table of the round's statistics and skills")):
                continue
            for key, val in stats.items():
                if key == "label":
                    self.check_str(path + (n, key), val, what=_("the round's skill"))
                elif key in ROUND_STATS_KEYS:
                    self.check_int(path + (n, key), val, 0, ROUND_STATS_KEYS[key], what=key)
                else:
                    self.error(path + (n, key), _("expected one of {keys}").format(
                        keys=", ".join((*ROUND_STATS_KEYS, "label"))))

    def _opponent(self, path: tuple, value: Any, characters: dict[str, int]) -> None:
        """A character id, or a free name (someone not in the roster, or a removed character's
        name, which the screen writes itself). A value shaped like an id that names no
        character nor encounter entry is a dangling reference, reported as such; a warning, not
        an error, because the screen may also keep a one-word free name such as "garde"."""
        if not self.check_str(path, value, nonempty=True, what=_("a character id or a name")):
            return
        if value in characters or value in self.entry_ids or value.casefold() in self.entry_names:
            return
        if value.casefold() in self.character_names or not SLUG.match(value):
            return      # a free name
        self.dangling(path, _NO_CHARACTER, value, characters, warning=True,
                      more=" " + _("(kept as a free name; write the name as the table says it, {example}, "
                                   "for someone who is not in the campaign)").format(example='"Le garde"'))

    def _test_timer(self, path: tuple, kind: str, request: dict, dice: dict, status: Any) -> None:
        system = self.system if self.system is not None and kind in get_system(self.system).test_timers \
            else _timer_owner(kind)
        rkind = get_system(system).test_timers[kind]
        rpath, dpath = path + ("request",), path + ("dice",)
        if self.system is not None and self.system != system:
            self.error(path + ("kind",), _("{kind} timers run {system} tests; this campaign plays {campaign}: "
                                           "expected a countdown").format(kind=repr(kind), system=system,
                                                                          campaign=self.system))
            return
        if request.get("system") != system:
            self.error(rpath + ("system",), _("expected {system} (the campaign's system), {got}").format(
                system=repr(system), got=_got(request.get("system")))
                       if "system" in request else _("missing: {what}").format(what=f"system = {system!r}"))
            return
        if request.get("kind") != rkind:
            self.error(rpath + ("kind",), _("expected {kind} for a {timer} timer, {got}").format(
                kind=repr(rkind), timer=repr(kind), got=_got(request.get("kind")))
                       if "kind" in request else _("missing: {what}").format(what=f"kind = {rkind!r}"))
            return
        if any(p[: len(path)] == path for p in self.poisoned):
            return
        try:
            from gmscreen import rules

            dice_fields = rules.get_system(system).kinds[rkind].dice_fields
        except Exception as exc:  # rules module missing or broken: a problem, not a crash
            self.error(rpath, _("cannot check this test: the rules of {system} are not available ({error})").format(
                system=system, error=exc))
            return
        ok = True
        for key in request:
            if key in dice_fields:
                self.error(rpath + (key,), _("dice rolled so far go in [timers.dice], not in the request"))
                ok = False
        for key in dice:
            if key not in dice_fields:
                self.error(dpath + (key,), _("expected dice fields of {system} {kind}: {fields}").format(
                    system=system, kind=rkind, fields=", ".join(dice_fields)))
                ok = False
        if not ok:
            return
        forced: dict[str, Any] = {name: [] for name in dice_fields}
        forced.update(dice)
        try:
            result = rules.resolve({**request, **forced})
        except rules.RequestError as exc:
            field = exc.field
            where = dpath + (field,) if field in dice_fields else rpath + (field,)
            self.error(where, exc.reason)
            return
        except Exception as exc:  # a rules bug must not crash validation
            self.error(rpath, _("cannot check this test: {error}").format(error=f"{type(exc).__name__}: {exc}"))
            return
        if not isinstance(status, str) or status not in TIMER_STATUS[kind]:
            return      # already reported
        decided = result.get("outcome", result.get("winner"))
        if decided == "pending":
            if status != "running":
                self.error(path + ("status",), _("the dice so far leave the test undecided: expected {status}, "
                                                 "{got}").format(status="'running'", got=_got(status)))
        elif status != decided:
            self.error(path + ("status",), _("the dice so far decide the test ({outcome}): expected {status}, "
                                             "{got}").format(outcome=decided, status=f"status = {decided!r}",
                                                             got=_got(status)))


