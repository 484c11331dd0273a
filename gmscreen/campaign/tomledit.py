"""Style-preserving TOML saves: only the values that changed are rewritten.

A campaign or config file is the GM's own text: comments, key order, blank lines, inline
tables and number style must survive a save. `patch_text` parses the text with tomlkit,
walks it alongside `old` (the data the text held, as the program understood it) and `new`
(the data to write), and touches only what differs between old and new: changed scalars
are replaced in their own style (quotes, multi-line strings, hex or `1_000` integers, the
comment after them), added keys go after their siblings, removed keys go, tables of an
array are matched by `id` (else by content, then position), inline tables stay inline.

The result is checked: it must parse back (tomllib) to exactly the text's data with these
edits applied, else `PatchError` is raised and the caller writes its full dump instead.
tomlkit is imported here only, and this module only by the savers, so it stays off the
start-up path.
"""

from __future__ import annotations

import copy
import difflib
import json
import tomllib
from typing import Any, Mapping

import tomlkit
from tomlkit.container import Container, OutOfOrderTableProxy
from tomlkit.items import (AoT, Array, Bool, Comment, InlineTable, Integer, String, StringType, Table, Trivia,
                           Whitespace)


class PatchError(ValueError):
    """The text could not be patched faithfully: write the full dump instead."""


def patch_text(text: str, new: Mapping[str, Any], old: Mapping[str, Any] | None = None, *,
               cache: dict[str, Any] | None = None, check: bool = True) -> str:
    """`text` with the values that differ between `old` and `new` rewritten in place.

    `old` defaults to the data `text` holds. A key that `old` has (a default the program
    fills in) but `text` lacks is written only if its value changes. Raises PatchError.
    `cache`: a dict kept by the caller between saves; it holds the parsed document of the
    last text written, so the next save of that text does not parse it again (tomlkit's
    parser is the slow part). `check=False` leaves the re-parse check to the caller.
    """
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
    base = copy.deepcopy(mirror) if old is None else old
    try:
        _patch_table(doc, mirror, base, new)
        out = doc.as_string()
    except PatchError:
        raise
    except Exception as exc:                    # noqa: BLE001 - tomlkit refused an edit
        raise PatchError(f"cannot edit in place: {type(exc).__name__}: {exc}") from None
    if text.endswith("\n") and not text.endswith("\n\n"):
        out = out.rstrip("\n") + "\n"           # a table added last keeps no trailing blank line
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


# ---------------------------------------------------------------- walking the document


def _is_table(item: Any) -> bool:
    return isinstance(item, (Table, InlineTable, Container, OutOfOrderTableProxy))


def _body(tbl: Any) -> list:
    if isinstance(tbl, Container):
        return tbl.body
    if isinstance(tbl, OutOfOrderTableProxy):
        return tbl._internal_container.body
    value = getattr(tbl, "value", None)
    return value.body if isinstance(value, Container) else []


def _dotted(tbl: Any, k: str) -> bool:
    """`k` is written as dotted keys (`a.b = 1`): what goes under it must stay inline."""
    return any(key is not None and key.key == k and key.is_dotted() for key, _ in _body(tbl))


def _patch_table(tbl: Any, mirror: dict, old: Mapping[str, Any], new: Mapping[str, Any],
                 inline: bool = False) -> None:
    inline = inline or isinstance(tbl, InlineTable)
    for k in [k for k in mirror if k not in new and k in old]:
        del tbl[k]
        del mirror[k]
    for k, v in new.items():
        if k in old and same(old[k], v):
            continue
        if k in mirror:
            _patch_value(tbl, k, mirror, old[k] if k in old else mirror[k], v, inline)
        else:
            value = _minimal(old[k], v) if k in old else copy.deepcopy(v)
            _add_key(tbl, k, value, inline)
            mirror[k] = copy.deepcopy(value)


def _patch_value(tbl: Any, k: str, mirror: dict, old: Any, new: Any, inline: bool) -> None:
    cur = mirror[k]
    item = tbl[k]
    if isinstance(item, AoT) and new == []:
        tbl[k] = tomlkit.array()                # no table left: an empty array says it
        mirror[k] = []
        return
    if isinstance(new, dict) and isinstance(cur, dict) and _is_table(item):
        dotted = _dotted(tbl, k)
        _patch_table(item, cur, old if isinstance(old, dict) else cur, new, inline or dotted)
        if not new and (dotted or isinstance(item, OutOfOrderTableProxy)
                        or isinstance(item, Table) and item.is_super_table()):
            # A table without its own header, left empty, would vanish from the text.
            tbl[k] = tomlkit.inline_table() if inline or dotted else tomlkit.table()
    elif isinstance(new, list) and isinstance(cur, list) and isinstance(item, (AoT, Array)) and \
            (isinstance(item, Array) or all(isinstance(e, dict) for e in new)):
        _patch_list(item, cur, old if isinstance(old, list) and len(old) == len(cur) else cur, new,
                    inline or isinstance(item, Array))
    else:
        tbl[k] = _build(new, inline, like=item)
        mirror[k] = copy.deepcopy(new)


def _patch_list(item: AoT | Array, cur: list, base: list, new: list, inline: bool) -> None:
    """Edit the list in place: kept elements (by id, else by content) keep their text."""
    sources = _match(base, new)
    if isinstance(item, AoT) and len(item) and sources != list(range(len(cur))):
        # The comments after the last table lead to what follows the array (a section
        # heading): they stay at its end whichever table ends up last.
        tail = _detach_tail(item[len(item) - 1])
        _patch_elements(item, cur, base, new, inline, sources)
        if len(item):
            _last_body(item[len(item) - 1]).extend(tail)
        return
    _patch_elements(item, cur, base, new, inline, sources)


def _last_body(table: Table) -> list:
    """The body the text of `table` ends with (its last sub-table's, if any)."""
    body = table.value.body
    while body and isinstance(body[-1][1], (Table, AoT)):
        last = body[-1][1]
        body = (last.body[-1] if isinstance(last, AoT) else last).value.body
    return body


def _detach_tail(table: Table) -> list:
    """Remove and return the trailing comment lines of `table` (from its first comment on)."""
    body = _last_body(table)
    start = len(body)
    while start and body[start - 1][0] is None and isinstance(body[start - 1][1], (Whitespace, Comment)):
        start -= 1
    first = next((i for i in range(start, len(body)) if isinstance(body[i][1], Comment)), None)
    if first is None:
        return []
    tail = body[first:]
    del body[first:]
    return tail


def _patch_elements(item: AoT | Array, cur: list, base: list, new: list, inline: bool,
                    sources: list[int | None]) -> None:
    kept = [s for s in sources if s is not None]
    if kept != sorted(kept):
        _reorder(item, cur, base, kept)
        order = {old_index: pos for pos, old_index in enumerate(kept)}
        sources = [order[s] if s is not None else None for s in sources]
        base = [base[i] for i in kept]
        kept = list(range(len(kept)))
    for i in sorted(set(range(len(cur))) - set(kept), reverse=True):
        del item[i]
        del cur[i]
        base = base[:i] + base[i + 1:]
        sources = [s - 1 if s is not None and s > i else s for s in sources]
    for j, (src, value) in enumerate(zip(sources, new)):
        if src is None:
            _insert(item, j, value, inline)
            cur.insert(j, copy.deepcopy(value))
            continue
        was = base[src]                         # kept elements are in order: item[j] is this one
        if same(was, value):
            continue
        element = item[j]
        if isinstance(value, dict) and isinstance(cur[j], dict) and _is_table(element):
            _patch_table(element, cur[j], was if isinstance(was, dict) else cur[j], value)
        elif isinstance(value, list) and isinstance(cur[j], list) and isinstance(element, Array):
            _patch_list(element, cur[j], was if isinstance(was, list) and len(was) == len(cur[j]) else cur[j],
                        value, True)
        else:
            item[j] = _build(value, True, like=element)
            cur[j] = copy.deepcopy(value)


def _match(base: list, new: list) -> list[int | None]:
    """For each new element, the index of the old one it continues (None: a new element)."""
    ids = _ids(base), _ids(new)
    if ids[0] is not None and ids[1] is not None:
        where = {key: i for i, key in enumerate(ids[0])}
        return [where.get(key) for key in ids[1]]
    sources: list[int | None] = [None] * len(new)
    ops = difflib.SequenceMatcher(None, [_canon(v) for v in base], [_canon(v) for v in new], autojunk=False)
    for tag, i1, i2, j1, j2 in ops.get_opcodes():
        if tag in ("equal", "replace"):
            for n in range(min(i2 - i1, j2 - j1)):
                sources[j1 + n] = i1 + n
    return sources


def _ids(values: list) -> list | None:
    """The `id` of every element when all are tables with distinct ids, else None."""
    if not values or not all(isinstance(v, dict) and isinstance(v.get("id"), (str, int)) for v in values):
        return None
    keys = [v["id"] for v in values]
    return keys if len(set(keys)) == len(keys) else None


def _reorder(item: AoT | Array, cur: list, base: list, kept: list[int]) -> None:
    """Move the kept elements into their new order (their text moves with them)."""
    if isinstance(item, Array):
        values = [item[i] for i in kept]
        mirrors = [cur[i] for i in kept]
        for i in range(len(item) - 1, -1, -1):
            del item[i]
        for n, value in enumerate(values):
            item.insert(n, value)
        cur[:] = mirrors
        return
    tables = [item[i] for i in kept]
    spaced = any(t.as_string().endswith("\n\n") for t in item.body[:-1])
    mirrors = [cur[i] for i in kept]
    for i in range(len(item) - 1, -1, -1):
        del item[i]
    for n, table in enumerate(tables):
        item.insert(n, table)
    if spaced:
        for table in tables[:-1]:
            if not table.as_string().endswith("\n\n"):
                table.add(tomlkit.nl())
    cur[:] = mirrors


def _insert(item: AoT | Array, j: int, value: Any, inline: bool) -> None:
    if isinstance(item, AoT):
        table = _build(value, False)
        if not isinstance(table, Table):
            raise PatchError("an array of tables can only hold tables")
        neighbour = item[j - 1] if j > 0 else (item[0] if len(item) else None)
        if neighbour is not None and neighbour.as_string().endswith("\n\n"):
            table.add(tomlkit.nl())
        elif j > 0:
            table.trivia.indent = "\n"
        item.insert(j, table)
    else:
        item.insert(j, _build(value, True))


def _add_key(tbl: Any, k: str, value: Any, inline: bool) -> None:
    new_item = _build(value, inline)
    if isinstance(new_item, (Table, AoT)) and not inline:
        body = tbl.body if isinstance(tbl, Container) else getattr(getattr(tbl, "value", None), "body", None)
        last = next((v for key, v in reversed(body or []) if key is not None), None)
        if last is not None and last.as_string().endswith("\n\n"):
            for table in (new_item.body if isinstance(new_item, AoT) else [new_item]):
                table.add(tomlkit.nl())
        else:
            for table in (new_item.body[:1] if isinstance(new_item, AoT) else [new_item]):
                table.trivia.indent = "\n"
    elif not inline and not isinstance(new_item, (Table, AoT)):
        # Right after the last plain key, rather than after the comments that lead to a table.
        container = tbl if isinstance(tbl, Container) else getattr(tbl, "value", None)
        if isinstance(container, Container):
            plain = [key for key, v in container.body
                     if key is not None and not key.is_dotted() and not isinstance(v, (Table, AoT))]
            if plain and any(isinstance(v, (Table, AoT)) for _, v in container.body):
                container._insert_after(plain[-1], k, new_item)
                return
    tbl[k] = new_item


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
            table = tomlkit.inline_table()
            for k, v in value.items():
                table[k] = _build(v, True)
            return table
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
        leading = isinstance(like, String) and like.type.is_multiline() and like.as_string()[3:4] == "\n"
        raw = made.as_string()[3:-3]
        if kind is StringType.MLB and raw.endswith('"'):
            raw = raw[:-1] + '\\"'             # `""""` would close the string early
        if leading or value.startswith("\n"):
            raw = "\n" + raw                    # the newline right after the quotes is not part of the value
        made = String(kind, value, raw, Trivia())
    return made
