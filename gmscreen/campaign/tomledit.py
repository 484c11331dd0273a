"""Style-preserving TOML saves: only the values that changed are rewritten.

A campaign or config file is the GM's own text: comments, key order, blank lines, inline
tables and number style must survive a save. `patch_text` parses the text with tomlkit,
walks it alongside `old` (the data the text held, as the program understood it) and `new`
(the data to write), and touches only what differs between old and new: changed scalars
are replaced in their own style (quotes, multi-line strings, hex or `1_000` integers, the
comment after them), added keys go after their siblings, removed keys go, tables of an
array are matched by `id` (else `name`, else another text that tells them apart, else by
content, then position), inline tables stay inline.

A comment belongs to what follows it. Right after parsing, the comment lines and blank
lines before a key or a header are moved into that item's own leading text (tomlkit keeps
them at the end of whatever table came before): an entry that goes takes with it the
comment lines right above it and the comment after its values, and the comments that head
the next item stay, since they are the next item's. Comment lines set apart from the item
by a blank line head a place in the file, not the item: they stay where they are when the
item goes, and stay on top when an entry is put first.

The result is checked: it must parse back (tomllib) to exactly the text's data with these
edits applied, and hold every comment of the text but those of the items removed, else
`PatchError` is raised. The caller then writes the whole file, with `keep_comments` putting
every comment of the old text back in it. tomlkit is imported here only, and this module
only by the savers, so it stays off the start-up path.
"""

from __future__ import annotations

import copy
import difflib
import json
import re
import tomllib
from collections import Counter
from typing import Any, Callable, Iterator, Mapping, NamedTuple

import tomlkit
from tomlkit.container import Container, OutOfOrderTableProxy
from tomlkit.items import (AoT, Array, Bool, InlineTable, Integer, Item, Null, String, StringType, Table,
                           Trivia, Whitespace)


class PatchError(ValueError):
    """The text could not be patched faithfully: write the full dump instead."""


def patch_text(text: str, new: Mapping[str, Any], old: Mapping[str, Any] | None = None, *,
               cache: dict[str, Any] | None = None, check: bool = True) -> str:
    """`text` with the values that differ between `old` and `new` rewritten in place.

    `old` defaults to the data `text` holds. A key that `old` has (a default the program
    fills in) but `text` lacks is written only if its value changes. Raises PatchError.
    `cache`: a dict kept by the caller between saves; it holds the parsed document of the
    last text written, so the next save of that text does not parse it again (tomlkit's
    parser is the slow part). `check=False` leaves the re-parse check to the caller (the
    comments are checked either way).
    """
    return _edited(text, new, old, cache, check)


def _edited(text: str, new: Mapping[str, Any], old: Mapping[str, Any] | None,
            cache: dict[str, Any] | None, check: bool) -> str:
    doc = mirror = None
    if cache is not None and cache.get("text") == text:
        doc, mirror = cache.pop("doc", None), cache.pop("mirror", None)
    if cache is not None:
        cache.clear()                           # whatever happens below, the old document is used up
    if doc is None or mirror is None:
        try:
            doc = tomlkit.parse(text)
            mirror = tomllib.loads(text)
        except Exception as exc:                # noqa: BLE001 - any parser failure: not patchable
            raise PatchError(f"the text does not parse: {exc}") from None
        _own_gaps(doc, text)
    base = copy.deepcopy(mirror) if old is None else old
    edit = _Patch(doc)
    try:
        edit.table(doc, mirror, base, new)
        out = doc.as_string()
    except PatchError:
        raise
    except Exception as exc:                    # noqa: BLE001 - tomlkit refused an edit
        raise PatchError(f"cannot edit in place: {type(exc).__name__}: {exc}") from None
    if text.endswith("\n") and not text.endswith("\n\n"):
        out = out.rstrip("\n") + "\n"           # a table added last keeps no trailing blank line
    had, has = Counter(comments(text)), Counter(comments(out))
    if has - had or had - edit.gone - has:
        raise PatchError("a comment would be lost or moved into a value")
    if check:
        try:
            again = tomllib.loads(out)
        except tomllib.TOMLDecodeError as exc:
            raise PatchError(f"the edited text does not parse: {exc}") from None
        if not same(again, mirror):
            raise PatchError("the edited text does not hold the data asked for")
    if cache is not None:
        cache.update(text=out, doc=doc, mirror=mirror)
    return out


# ---------------------------------------------------------------- comments of a text

# Strings first (a `#` in a string is no comment), then comments; the scan is left to right.
_TOKENS = re.compile(r'"""(?:[^"\\]|\\[\s\S]|"(?!""))*"""(?:"{0,2})'
                     r"|'''[\s\S]*?'''(?:'{0,2})"
                     r'|"(?:[^"\\\n]|\\.)*"'
                     r"|'[^'\n]*'"
                     r"|#[^\n]*")


def comments(text: str) -> list[str]:
    """Every comment of TOML text (`# ...`, whole-line ones and those after a value), in order."""
    return [m.group().rstrip("\r") for m in _TOKENS.finditer(text) if m.group().startswith("#")]


# ---------------------------------------------------------------- comparing plain data


def same(a: Any, b: Any) -> bool:
    """Equal data with equal types (True is not 1, 1 is not 1.0), recursively."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and a != a:
        return b != b                           # nan
    return a == b


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr) + type(value).__name__


def _minimal(old: Any, new: Any) -> Any:
    """What of `new` must be written where the text has nothing and the program assumed `old`."""
    if isinstance(old, dict) and isinstance(new, dict):
        return {k: _minimal(old[k], v) if k in old else v for k, v in new.items()
                if k not in old or not same(old[k], v)}
    return new


# ---------------------------------------------------------------- the document in the order of its text


class _Spot(NamedTuple):
    """An item that writes its own leading text (`trivia.indent`) before it: a key, a table's
    header, an entry's header. Or a gap item (`item` None): a comment or blank line, at
    `body[at]`. `around`: the ids of the tables and arrays it is in; `path`: its keys,
    an entry known by its `id` (else its place), for `keep_comments`."""

    item: Any
    around: tuple
    path: tuple
    body: list | None = None
    at: int = 0                 # (not `index`: a tuple has that method)


def _known(tables: list) -> list[tuple]:
    """How each entry of an array of tables is known: its `id`, else its `name`, else its place."""
    for field in ("id", "name"):
        names = [t.get(field) if isinstance(t.get(field), (str, int)) else None for t in tables]
        if None not in names and len(set(names)) == len(names):
            return [(field, name) for name in names]
    return [("at", n) for n in range(len(tables))]


def _shows_header(key: Any, table: Table) -> bool:
    """Whether `table` writes a `[header]` line (a super table writes only its children)."""
    if not table.is_super_table():
        return True
    if key.is_dotted():
        return False
    return any(not isinstance(v, (Table, AoT, Whitespace, Null)) for _, v in table.value.body) or \
        any(k is not None and k.is_dotted() for k, v in table.value.body if isinstance(v, Table))


def _spots(body: list, around: tuple = (), path: tuple = ()) -> Iterator[_Spot]:
    for i, (key, item) in enumerate(body):
        if key is None:
            yield _Spot(None, around, path, body, i)
        elif isinstance(item, AoT):
            known = _known(item.body)
            for n, table in enumerate(item.body):
                where = path + (key.key, known[n])
                yield _Spot(table, around + (id(item),), where)
                yield from _spots(table.value.body, around + (id(item), id(table)), where)
        elif isinstance(item, Table):
            if _shows_header(key, item):
                yield _Spot(item, around, path + (key.key,))
            yield from _spots(item.value.body, around + (id(item),), path + (key.key,))
        elif not isinstance(item, Null):
            yield _Spot(item, around, path + (key.key,))


def _own_gaps(doc: Container, text: str) -> None:
    """Move each run of comment and blank lines into the leading text of the item after it;
    those at the very end go to the end of the document. The text stays the same bytes."""
    pending: list[_Spot] = []
    for spot in _spots(doc.body):
        if spot.item is None:
            pending.append(spot)
            continue
        if pending:
            spot.item.trivia.indent = _take(pending) + spot.item.trivia.indent
            pending = []
    if pending and pending[0].body is not doc.body:
        tail = _take(pending)
        doc.body.append((None, Whitespace(tail)))
    if doc.as_string() != text:
        raise PatchError("tomlkit does not write this text back as it was")


def _take(gap: list[_Spot]) -> str:
    """The text of these gap items, which are left empty."""
    places = [(s.body, s.at) for s in gap if s.body is not None]   # (a gap item always has one)
    text = "".join(body[at][1].as_string() for body, at in places)
    for body, at in places:
        body[at] = (None, Null())
    return text


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _split(lead: str) -> tuple[str, str]:
    """(free, own): the leading text of an item cut where its own comment lines start (the
    comment lines right above it, no blank line between); free ends with a line break."""
    lines = _lines(lead)
    own = lines.pop() if lines and not lines[-1].endswith("\n") else ""
    k = len(lines)
    while k and lines[k - 1].lstrip().startswith("#"):
        k -= 1
    return "".join(lines[:k]), "".join(lines[k:]) + own


def _join(free: str, lead: str) -> str:
    """`free` put before `lead`, the blank lines where they meet not doubled."""
    a, b = _lines(free), _lines(lead)
    tail = 0
    while tail < len(a) and not a[len(a) - 1 - tail].strip():
        tail += 1
    head = 0
    while head < len(b) and not b[head].strip() and b[head].endswith("\n"):
        head += 1
    if tail >= head:
        return "".join(a) + "".join(b[head:])
    return "".join(a[:len(a) - tail]) + "".join(b)


def _has_comment(text: str) -> bool:
    return any(line.lstrip().startswith("#") for line in _lines(text))


# ---------------------------------------------------------------- walking the document


def _is_table(item: Any) -> bool:
    return isinstance(item, (Table, InlineTable, Container, OutOfOrderTableProxy))


def _body(tbl: Any) -> list:
    if isinstance(tbl, Container):
        return tbl.body
    value = getattr(tbl, "value", None)
    return value.body if isinstance(value, Container) else []     # (an out-of-order table: none to read)


def _get(tbl: Any, k: str) -> Any:
    """The item under `k` itself (`tbl[k]` gives a plain bool for a boolean)."""
    if isinstance(tbl, Container):
        return tbl.item(k)
    if isinstance(tbl, (Table, InlineTable)):
        return tbl.value.item(k)
    return tbl[k]


def _dotted(tbl: Any, k: str) -> bool:
    """`k` is written as dotted keys (`a.b = 1`): what goes under it must stay inline."""
    return any(key is not None and key.key == k and key.is_dotted() for key, _ in _body(tbl))


def _written(item: Any) -> str:
    """The text an item writes, its leading lines and its comment included (for counting comments)."""
    if isinstance(item, AoT):
        return "".join(_written(t) for t in item.body)
    trivia = getattr(item, "trivia", None)
    lead = f"{trivia.indent}{trivia.comment}\n" if trivia is not None else ""
    return lead + item.as_string()


def _shows(table: Table) -> bool:
    return table.is_aot_element() or _shows_header(tomlkit.key("_"), table)


def _first(item: Any) -> Any:
    """The first item that `item` writes with its own leading text (None: it writes none)."""
    if isinstance(item, AoT):
        return item.body[0] if item.body else None
    return next((s.item for s in _spots([(tomlkit.key("_"), item)]) if s.item is not None), None)


class _Patch:
    """One save's edits of the document; `gone` counts the comments that went with the items
    removed (their own comment lines, the comments in them)."""

    def __init__(self, doc: Container) -> None:
        self.doc = doc
        self.gone: Counter = Counter()

    # -- where the text of what goes is kept

    def _after(self, item: Any) -> _Spot | None:
        """The first item written after `item` and all it holds (None: it ends the document)."""
        seen = False
        for spot in _spots(self.doc.body):
            if spot.item is None:
                continue
            if seen and id(item) not in spot.around:
                return spot
            if spot.item is item or id(item) in spot.around:
                seen = True
        return None

    def _put(self, free: str, spot: _Spot | None) -> None:
        """Comment and blank lines that stay where they are: before the item `spot`, else at
        the end of the document."""
        if not free:
            return
        if spot is not None:
            spot.item.trivia.indent = _join(free, spot.item.trivia.indent)
        elif free.strip():
            self.doc.body.append((None, Whitespace(free)))

    def _lead(self, item: Any) -> tuple[str, str]:
        """(free, own) of the leading text of the first item that `item` writes."""
        first = _first(item)
        return _split(first.trivia.indent) if first is not None else ("", "")

    def _frees(self, item: Any) -> str:
        """The free lines of an item's leading text, and of each entry for an array."""
        if isinstance(item, AoT):
            free = ""
            for table in item.body:
                free = _join(free, _split(table.trivia.indent)[0])
            return free
        return self._lead(item)[0]

    def remove(self, tbl: Any, k: str) -> None:
        """Delete the key `k`; the lines above it that head its place stay."""
        item = _get(tbl, k)
        if isinstance(tbl, InlineTable) or not isinstance(item, Item) or isinstance(item, OutOfOrderTableProxy):
            del tbl[k]                          # (nothing leads a value of an inline table)
            return
        free = self._frees(item)
        after = self._after(item)
        self.gone.update(Counter(comments(_written(item))) - Counter(comments(free)))
        del tbl[k]
        self._put(free, after)

    def replace(self, tbl: Any, k: str, made: Any) -> None:
        """`tbl[k] = made`, a value of another kind: the comment lines right above the old
        one and its comment go to the new one, the free lines stay at their place."""
        item = _get(tbl, k)
        if not isinstance(item, (Table, AoT)) and not isinstance(made, (Table, AoT)):
            tbl[k] = made                       # tomlkit keeps its leading text and its comment
            return
        free, own = self._lead(item)
        head = item.body[0] if isinstance(item, AoT) and item.body else item
        shows = not isinstance(head, (Table, AoT)) or isinstance(head, Table) and _shows(head)
        note = head.trivia.comment if shows else ""     # (the comment after a value or a header)
        after = self._after(item)
        self.gone.update(Counter(comments(_written(item))) - Counter(comments(free + own + note)))
        tbl[k] = made
        first = _first(made)
        if first is not None:
            first.trivia.indent = _join("\n", own) if isinstance(first, Table) else own
            if note and not first.trivia.comment:
                first.trivia.comment_ws, first.trivia.comment = "  ", note
        self._put(free, after)

    # -- tables

    def table(self, tbl: Any, mirror: dict, old: Mapping[str, Any], new: Mapping[str, Any],
              inline: bool = False) -> None:
        inline = inline or isinstance(tbl, InlineTable)
        for k in [k for k in mirror if k not in new and k in old]:
            self.remove(tbl, k)
            del mirror[k]
        for k, v in new.items():
            if k in old and same(old[k], v):
                continue
            if k in mirror:
                self.value(tbl, k, mirror, old[k] if k in old else mirror[k], v, inline)
            else:
                value = _minimal(old[k], v) if k in old else copy.deepcopy(v)
                self.add(tbl, k, value, inline)
                mirror[k] = copy.deepcopy(value)

    def value(self, tbl: Any, k: str, mirror: dict, old: Any, new: Any, inline: bool) -> None:
        cur = mirror[k]
        item = _get(tbl, k)
        if isinstance(item, AoT) and new == []:
            # No table left: an empty array says it; the lines that headed them stay.
            free = self._frees(item)
            after = self._after(item)
            self.gone.update(Counter(comments(_written(item))) - Counter(comments(free)))
            tbl[k] = tomlkit.array()
            self._put(free, after)
            mirror[k] = []
            return
        if isinstance(item, Array) and not len(item) and not cur and new and not inline and \
                not _dotted(tbl, k) and all(isinstance(e, dict) for e in new):
            # An empty array filled with tables again: tables, as the file had them.
            lead, note = item.trivia.indent, item.trivia.comment
            made = AoT([_build(e, False) for e in new])
            tbl[k] = made
            self.spaced(made, lead)
            if note:
                made.body[0].trivia.comment_ws, made.body[0].trivia.comment = "  ", note
            mirror[k] = copy.deepcopy(new)
            return
        if isinstance(new, dict) and isinstance(cur, dict) and _is_table(item):
            dotted = _dotted(tbl, k)
            self.table(item, cur, old if isinstance(old, dict) else cur, new, inline or dotted)
            if not new and (dotted or isinstance(item, OutOfOrderTableProxy)
                            or isinstance(item, Table) and item.is_super_table()):
                # A table without its own header, left empty, would vanish from the text.
                tbl[k] = tomlkit.inline_table() if inline or dotted else tomlkit.table()
        elif isinstance(new, list) and isinstance(cur, list) and isinstance(item, (AoT, Array)) and \
                (isinstance(item, Array) or all(isinstance(e, dict) for e in new)):
            self.elements(item, cur, old if isinstance(old, list) and len(old) == len(cur) else cur, new,
                          inline or isinstance(item, Array))
        else:
            made = _build(new, inline, like=item)
            if inline:
                tbl[k] = made
            else:
                self.replace(tbl, k, made)
            mirror[k] = copy.deepcopy(new)

    def spaced(self, made: AoT | Table, lead: str = "") -> None:
        """A new table or array of tables: a blank line before its first header, `lead` above it."""
        if isinstance(made, AoT):
            for n, table in enumerate(made.body):
                table.trivia.indent = _join("\n", lead) if n == 0 else "\n"
            return
        first = _first(made)
        if first is not made:
            made.trivia.indent = ""             # a table without a header of its own writes nothing before
        if isinstance(first, Table):
            first.trivia.indent = _join("\n", lead)

    def add(self, tbl: Any, k: str, value: Any, inline: bool) -> None:
        # tomlkit puts a plain key after the table's last plain key, a table at its end.
        made = _build(value, inline)
        if isinstance(tbl, Table):
            # (`tbl[k] =` would indent it as the table's leading text, comments included)
            keys = [v for key, v in tbl.value.body if key is not None and not isinstance(v, (Table, AoT, Null))]
            tbl.raw_append(k, made)
            margin = keys[-1].trivia.indent.rpartition("\n")[2] if keys else ""
            if margin and not margin.strip() and not isinstance(made, (Table, AoT)):
                made.trivia.indent = margin     # as indented as the key before it
        else:
            tbl[k] = made
        if not inline and isinstance(made, (Table, AoT)):
            self.spaced(made)

    # -- arrays

    def elements(self, item: AoT | Array, cur: list, base: list, new: list, inline: bool) -> None:
        """Edit the list in place: kept elements (by id, else by content) keep their text."""
        sources = _match(base, new)
        if isinstance(item, AoT) and sources != list(range(len(cur))):
            self.entries(item, cur, base, new, sources)
            return
        self.patch_elements(item, cur, base, new, inline, sources)()

    def entries(self, item: AoT, cur: list, base: list, new: list, sources: list[int | None]) -> None:
        """Entries of an array of tables added, removed or moved: each takes its own comment
        lines; the free lines before each stay at their place, those of the first on top."""
        tables = list(item.body)
        leads = [_split(t.trivia.indent) for t in tables]
        spacing = "\n" if len(tables) < 2 or any(_lines(f)[:1] and not _lines(f)[0].strip()
                                                  for f, _own in leads[1:]) else ""
        margin = leads[-1][1].rpartition("\n")[2] if leads else ""
        margin = "" if margin.strip() else margin           # new entries as indented as the last one
        spacing += margin
        kept = {s for s in sources if s is not None}
        places: list[str] = []                  # the free lines of the places the kept entries hold
        carry = ""
        for i, (free, _own) in enumerate(leads):
            if i in kept:
                places.append(_join(carry, free))
                carry = ""
            else:
                carry = _join(carry, free)
                self.gone.update(Counter(comments(_written(tables[i]))) - Counter(comments(free)))
        after = self._after(item) if carry else None
        # The kept entries are edited once their leading text is set: an edit inside one may
        # leave lines before the entry that follows it.
        edit_kept = self.patch_elements(item, cur, base, new, False, sources)
        q = 0
        for j, src in enumerate(sources):
            table = item[j]
            if src is not None:
                table.trivia.indent = places[q] + leads[src][1]
                q += 1
            elif j == 0 and places:
                table.trivia.indent = places[0] + margin
                places[0] = spacing
            elif j == 0:
                table.trivia.indent = (_join(carry, "") if carry else spacing) + margin
                carry = ""
            else:
                table.trivia.indent = spacing
            if src is None and margin:
                for key, value in table.value.body:
                    if key is not None and not isinstance(value, (Table, AoT)):
                        value.trivia.indent = margin
        if carry:
            self._put(carry, after)
        edit_kept()

    def patch_elements(self, item: AoT | Array, cur: list, base: list, new: list, inline: bool,
                       sources: list[int | None]) -> Callable[[], None]:
        """Remove, move and insert the elements now; edit the kept ones when the function
        returned is called (at once for an inline array)."""
        unsaid = _unsaid(cur, base) if isinstance(item, AoT) else {}
        kept = [s for s in sources if s is not None]
        if kept != sorted(kept):
            _reorder(item, cur, kept)
            order = {old_index: pos for pos, old_index in enumerate(kept)}
            sources = [order[s] if s is not None else None for s in sources]
            base = [base[i] for i in kept]
            kept = list(range(len(kept)))
        for i in sorted(set(range(len(cur))) - set(kept), reverse=True):
            if isinstance(item, Array):
                was = Counter(comments(item.as_string()))
                del item[i]                     # (tomlkit takes the comment after it with it)
                self.gone.update(was - Counter(comments(item.as_string())))
            else:
                del item[i]
            del cur[i]
            base = base[:i] + base[i + 1:]
            sources = [s - 1 if s is not None and s > i else s for s in sources]
        for j, (src, value) in enumerate(zip(sources, new)):
            if src is None:
                value = {k: v for k, v in value.items() if k not in unsaid or not same(unsaid[k], v)} \
                    if isinstance(value, dict) else value
                _insert(item, j, value)
                cur.insert(j, copy.deepcopy(value))

        def edit_kept() -> None:
            for j, (src, value) in enumerate(zip(sources, new)):
                if src is not None and not same(base[src], value):
                    self.element(item, cur, j, base[src], value)

        if isinstance(item, AoT):
            return edit_kept
        edit_kept()
        return lambda: None

    def element(self, item: AoT | Array, cur: list, j: int, was: Any, value: Any) -> None:
        """Edit the kept element `j` (it was `was`) into `value`."""
        element = item[j]
        if isinstance(value, dict) and isinstance(cur[j], dict) and _is_table(element):
            self.table(element, cur[j], was if isinstance(was, dict) else cur[j], value)
        elif isinstance(value, list) and isinstance(cur[j], list) and isinstance(element, Array):
            self.elements(element, cur[j], was if isinstance(was, list) and len(was) == len(cur[j]) else cur[j],
                          value, True)
        else:
            item[j] = _build(value, True, like=element)
            cur[j] = copy.deepcopy(value)


def _unsaid(cur: list, base: list) -> dict[str, Any]:
    """The keys the entries of a list leave out where the program assumes a value (the same
    for all of them): a new entry leaves them out too when it has that value."""
    found: dict[str, Any] = {}
    clash: set[str] = set()
    for written, meant in zip(cur, base):
        if not isinstance(written, dict) or not isinstance(meant, dict) or written is meant:
            continue
        for k, v in meant.items():
            if k not in written:
                if k in found and not same(found[k], v):
                    clash.add(k)
                found.setdefault(k, v)
    return {k: v for k, v in found.items() if k not in clash}


def _match(base: list, new: list) -> list[int | None]:
    """For each new element, the index of the old one it continues (None: a new element):
    by `id`, else by `name` (a condition whose rounds tick is the same condition), else by
    another text that tells them all apart (a declaration's `entry`), else by content, then
    position."""
    first = new[0] if new and isinstance(new[0], dict) else {}
    for field in ("id", "name", *(k for k in first if isinstance(first[k], str))):
        keys = _ids(base, field), _ids(new, field)
        if keys[0] is not None and keys[1] is not None:
            where = {key: i for i, key in enumerate(keys[0])}
            return [where.get(key) for key in keys[1]]
    sources: list[int | None] = [None] * len(new)
    ops = difflib.SequenceMatcher(None, [_canon(v) for v in base], [_canon(v) for v in new], autojunk=False)
    for tag, i1, i2, j1, j2 in ops.get_opcodes():
        if tag in ("equal", "replace"):
            for n in range(min(i2 - i1, j2 - j1)):
                sources[j1 + n] = i1 + n
    # A table edited and moved at once is still the one that shares the most texts with it.
    left = [i for i in range(len(base)) if i not in set(sources) and isinstance(base[i], dict)]
    for j, value in enumerate(new):
        if sources[j] is not None or not isinstance(value, dict) or not left:
            continue
        shared = [(sum(isinstance(v, str) and k in base[i] and same(base[i][k], v) for k, v in value.items()), -n, i)
                  for n, i in enumerate(left)]
        best = max(shared)
        if best[0]:
            sources[j] = best[2]
            left.remove(best[2])
    return sources


def _ids(values: list, field: str = "id") -> list | None:
    """The `field` of every element when all are tables with distinct values of it, else None."""
    if not values or not all(isinstance(v, dict) and isinstance(v.get(field), (str, int)) for v in values):
        return None
    keys = [v[field] for v in values]
    return keys if len(set(keys)) == len(keys) else None


def _reorder(item: AoT | Array, cur: list, kept: list[int]) -> None:
    """Move the kept elements into their new order (their text moves with them)."""
    values = [item[i] for i in kept]
    mirrors = [cur[i] for i in kept]
    for i in range(len(item) - 1, -1, -1):
        del item[i]
    for n, value in enumerate(values):
        item.insert(n, value)
    cur[:] = mirrors


def _insert(item: AoT | Array, j: int, value: Any) -> None:
    if isinstance(item, AoT):
        table = _build(value, False)
        if not isinstance(table, Table):
            raise PatchError("an array of tables can only hold tables")
        item.insert(j, table)                   # (its leading text is set by `entries`)
    else:
        item.insert(j, _build(value, True))


# ---------------------------------------------------------------- new values, in the old one's style


def _build(value: Any, inline: bool, like: Any = None) -> Any:
    """A tomlkit item for `value`; `like` is the item it replaces, whose style it keeps."""
    if isinstance(value, bool):
        return tomlkit.item(value)
    if isinstance(value, int):
        return _integer(value, like)
    if isinstance(value, float):
        return tomlkit.item(value)
    if isinstance(value, str):
        return _string(value, like)
    if isinstance(value, dict):
        if inline or isinstance(like, InlineTable):
            inline_table = tomlkit.inline_table()
            for k, v in value.items():
                inline_table[k] = _build(v, True)
            return inline_table
        table = tomlkit.table()
        for k, v in value.items():
            table[k] = _build(v, False)
        return table
    if isinstance(value, list):
        if value and all(isinstance(v, dict) for v in value) and not inline and not isinstance(like, Array):
            return AoT([_build(v, False) for v in value])
        array = tomlkit.array()
        for v in value:
            array.append(_build(v, True))
        return array
    raise PatchError(f"cannot write a {type(value).__name__} in TOML")


def _integer(value: int, like: Any) -> Any:
    raw = like.as_string() if isinstance(like, Integer) and not isinstance(like, Bool) else ""
    text = str(value)
    if raw[:2].lower() in ("0x", "0o", "0b") and value >= 0:
        base = raw[1].lower()
        digits = format(value, {"x": "x", "o": "o", "b": "b"}[base])
        if base == "x" and any(c.isupper() for c in raw[2:]):
            digits = digits.upper()
        text = raw[:2] + digits
    elif "_" in raw:
        text = f"{value:_}"
    if raw.startswith("+") and value >= 0 and text[0] != "0" or raw.startswith("+") and text == "0":
        text = "+" + text
    return Integer(value, Trivia(), text)


_CONTROL = {chr(c) for c in range(0x20) if c not in (0x09, 0x0A)} | {"\x7f"}


def _string(value: str, like: Any) -> Any:
    kind = like.type if isinstance(like, String) else StringType.SLB
    multiline = "\n" in value and "\r" not in value
    if multiline and kind.is_singleline():
        kind = StringType.MLB
    elif not multiline and kind.is_multiline():
        kind = StringType.SLB
    if kind is StringType.SLL and ("'" in value or any(c in _CONTROL or c == "\n" for c in value)):
        kind = StringType.SLB
    if kind is StringType.MLL and ("'''" in value or value.endswith("'") or any(c in _CONTROL for c in value)):
        kind = StringType.MLB
    made = String.from_raw(value, kind)
    if kind.is_multiline():
        # (a new one starts on the line after its quotes, as the old one did if it was multi-line)
        leading = not isinstance(like, String) or like.type.is_multiline() and like.as_string()[3:4] == "\n"
        raw = made.as_string()[3:-3]
        if kind is StringType.MLB and raw.endswith('"'):
            raw = raw[:-1] + '\\"'             # `""""` would close the string early
        if leading or value.startswith("\n"):
            raw = "\n" + raw                    # the newline right after the quotes is not part of the value
        made = String(kind, value, raw, Trivia())
    return made


# ---------------------------------------------------------------- a file written whole, its comments kept


def whole_text(data: Mapping[str, Any], written: Mapping[str, Any] | None = None,
               meant: Mapping[str, Any] | None = None) -> str | None:
    """`data` written whole in the style of the files gmscreen reads: arrays of tables as
    `[[...]]` tables (a conditions list stays tables, not an inline array), a blank line
    before each header, multi-line notes. A key the old text left out (`written`: its data)
    where the program assumed the value it still has (`meant`) is left out again. None when
    it would not read back as `data` (left out keys aside: the caller checks those)."""
    try:
        text = _edited("", data, {}, None, True)
        if not same(tomllib.loads(text), dict(data)):
            return None
        if written is not None and meant is not None:
            text = _edited("", _unwritten(data, written, meant), {}, None, True)
        return text
    except (PatchError, tomllib.TOMLDecodeError, RecursionError):
        return None


def _unwritten(new: Any, written: Any, meant: Any) -> Any:
    """`new` without what the old text left out and the program assumed, unchanged since."""
    if isinstance(new, dict) and isinstance(written, dict) and isinstance(meant, dict):
        return {k: _unwritten(v, written[k], meant.get(k)) if k in written else v for k, v in new.items()
                if k in written or k not in meant or not same(meant[k], v)}
    if isinstance(new, list) and isinstance(written, list) and isinstance(meant, list) and \
            len(written) == len(meant):
        sources = _match(meant, new)
        return [_unwritten(v, written[i], meant[i]) if i is not None else v for i, v in zip(sources, new)]
    return new


class Kept(NamedTuple):
    """What `keep_comments` did: the text, how many comments it kept, and how many of them
    could not stay by what they were written above or after (an item gone: put before the
    next one still there, or at the end)."""

    text: str
    kept: int
    moved: int


def keep_comments(old_text: str, new_text: str) -> Kept:
    """`new_text` (the file written whole) with every comment of `old_text` put back: before
    the same key or header, after the same value; those of an item that is no longer there
    before the next one that is. When even that cannot be done, the comments are put first
    in the file, in their order. The text always holds the data of `new_text`."""
    wanted = comments(old_text)
    if not wanted:
        return Kept(new_text, 0, 0)
    try:
        text, moved = _put_back(old_text, new_text)
        if Counter(comments(text)) >= Counter(wanted) and same(tomllib.loads(text), tomllib.loads(new_text)):
            return Kept(text, len(wanted), moved)
    except Exception:                           # noqa: BLE001 - tomlkit refused: the plain way below
        pass
    block = "".join(f"{c}\n" for c in wanted) + "\n"
    return Kept(block + new_text, len(wanted), len(wanted))


def _put_back(old_text: str, new_text: str) -> tuple[str, int]:
    old, made = tomlkit.parse(old_text), tomlkit.parse(new_text)
    _own_gaps(old, old_text)
    _own_gaps(made, new_text)
    targets = {spot.path: spot.item for spot in _spots(made.body) if spot.item is not None}
    pending, moved = "", 0
    for spot in _spots(old.body):
        if spot.item is None:
            continue
        lead = spot.item.trivia.indent
        note = spot.item.trivia.comment
        inner = [] if isinstance(spot.item, (Table, AoT)) else comments(spot.item.as_string())
        target = targets.pop(spot.path, None)
        if target is None:
            # (its free lines head a place, still there: only its own comments have moved)
            pending += "".join(line for line in _lines(lead) if line.strip()) + \
                "".join(f"{c}\n" for c in ([note] if note else []) + inner)
            moved += len(comments(_split(lead)[1])) + bool(note) + len(inner)
            continue
        if _has_comment(lead) or pending:
            free, own = _split(lead)
            target.trivia.indent = _join(pending + free, own) + "".join(f"{c}\n" for c in inner)
            moved += len(inner)
            pending = ""
        elif inner:
            target.trivia.indent += "".join(f"{c}\n" for c in inner)
            moved += len(inner)
        if note:
            if target.trivia.comment:
                target.trivia.indent += f"{note}\n"
                moved += 1
            else:
                target.trivia.comment_ws, target.trivia.comment = spot.item.trivia.comment_ws or "  ", note
    end = "".join(v.as_string() for k, v in old.body if k is None and not isinstance(v, Null))
    out = made.as_string()
    rest = pending + "".join(f"{c}\n" for c in comments(end))
    if rest:
        out = out.rstrip("\n") + "\n\n" + rest
    return out, moved
