"""The judge of saves that keep comments, written apart from the patcher (no tomlkit): TOML text
cut into statements (headers, keys, comment lines), each comment given to what it belongs to.

The rule judged: a comment belongs to what follows it. Comment lines directly above a header or
a key (no blank line between) and the comment after a value belong to that table, array entry
or key; comment lines set apart by a blank line head a place in the file: they belong to the
table or entry that holds what follows them (the whole file, for a heading between two
characters), not to what follows. Array entries are known by their `id`, else their `name`,
else another text that tells them apart, else their place.

`expected_comments(before, after)` is what a faithful save keeps: every comment of `before`
except those of the items gone in `after`; `kept_lines(before, after)` the lines whose values
did not change, which must keep their bytes.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from functools import lru_cache
from typing import Any, NamedTuple


_SPECIAL = re.compile(r"[\"'#\[\]{}=\n]")


class Statement(NamedTuple):
    kind: str                   # "blank", "comment", "table", "aot", "key"
    keys: tuple                 # the dotted key of a header or key, as written ("" for others)
    text: str                   # the statement's text, its comment included
    comments: tuple             # the comments inside it ('# ...'), in order


def _string_end(text: str, i: int) -> int:
    """The index just after the string starting at `i`."""
    for quote in ('"""', "'''"):
        if text.startswith(quote, i):
            j = i + 3
            while True:
                j = text.index(quote, j)
                if quote == '"""' and _escaped(text, j):
                    j += 1
                    continue
                j += 3
                while j < len(text) and text[j] == quote[0] and j - i < len(text):
                    j += 1                  # up to two quotes of the content before the closing ones
                return j
    quote = text[i]
    j = i + 1
    while text[j] != quote or quote == '"' and _escaped(text, j):
        j += 1
    return j + 1


def _escaped(text: str, j: int) -> bool:
    n = 0
    while text[j - 1 - n] == "\\":
        n += 1
    return n % 2 == 1


def _split_keys(raw: str) -> tuple:
    parts, i, start = [], 0, 0
    while i < len(raw):
        if raw[i] in "\"'":
            i = _string_end(raw, i)
            continue
        if raw[i] == ".":
            parts.append(raw[start:i])
            start = i + 1
        i += 1
    parts.append(raw[start:])
    return tuple(_unquoted(p.strip()) for p in parts)


def _unquoted(key: str) -> str:
    if key[:1] == "'" or key[:1] == '"' and "\\" not in key:
        return key[1:-1]
    return tomllib.loads(f"k = {key}")["k"] if key[:1] == '"' else key


@lru_cache(maxsize=64)
def _data(text: str) -> dict:
    return tomllib.loads(text)          # (read only, shared between the calls on the same text)


def statements(text: str) -> list[Statement]:
    """The statements of TOML text, in order."""
    out: list[Statement] = []
    i, n = 0, len(text)
    while i < n:
        j = i
        while j < n and text[j] in " \t\r":
            j += 1
        if j >= n:
            break
        if text[j] == "\n":
            out.append(Statement("blank", (), "", ()))
            i = j + 1
            continue
        if text[j] == "#":
            end = text.find("\n", j)
            end = n if end < 0 else end
            comment = text[j:end].rstrip("\r")
            out.append(Statement("comment", (), comment, (comment,)))
            i = end + 1
            continue
        k, depth, comments, split = j, 0, [], None
        while k < n:
            found = _SPECIAL.search(text, k)
            if found is None:
                k = n
                break
            k = found.start()
            ch = text[k]
            if ch in "\"'":
                k = _string_end(text, k)
                continue
            if ch == "#":
                end = text.find("\n", k)
                end = n if end < 0 else end
                comments.append(text[k:end].rstrip("\r"))
                k = end
                continue
            if ch in "[{":
                depth += 1
            elif ch in "]}":
                depth -= 1
            elif ch == "=" and depth == 0 and split is None:
                split = k
            elif ch == "\n" and depth <= 0:
                break
            k += 1
        body = text[j:k].rstrip("\r")
        if body.startswith("[["):
            kind, keys = "aot", _split_keys(body[2:body.index("]]")])
        elif body.startswith("["):
            kind, keys = "table", _split_keys(body[1:body.index("]")])
        else:
            kind, keys = "key", _split_keys(text[j:split])
        out.append(Statement(kind, keys, body, tuple(comments)))
        i = k + 1
    return out


def comments(text: str) -> list[str]:
    """Every comment of the text, in order."""
    return [c for s in statements(text) for c in s.comments]


def _identity(values: list, index: int) -> tuple:
    """How an array entry is known: the first field whose values tell every entry apart
    (`id`, `name`, else any text), as (field, value); else ("index", its place)."""
    first = values[index] if isinstance(values[index], dict) else {}
    for field in ("id", "name", *first):
        found = [v.get(field) if isinstance(v, dict) else None for v in values]
        if all(isinstance(f, str) or field == "id" and isinstance(f, int) and not isinstance(f, bool)
               for f in found) and len(set(found)) == len(found):
            return (field, first[field])
    return ("index", index)


class Owned(NamedTuple):
    path: tuple | None          # what the comments belong to (None: a place, no item)
    comments: tuple
    text: str                   # the statement (a key's whole line), "" for a place


@lru_cache(maxsize=64)
def owners(text: str) -> tuple[Owned, ...]:
    """Each comment of `text` with the item it belongs to (paths with entries by identity)."""
    data = _data(text)
    result: list[Owned] = []
    counts: dict[tuple, int] = {}
    last_element: dict[tuple, tuple] = {}       # an array's written keys -> its last entry's path
    table: tuple = ()
    gap: list[str] = []

    def resolve(keys: tuple, aot: bool) -> tuple:
        path: list = []
        node: Any = data
        for n, key in enumerate(keys):
            node = node[key] if isinstance(node, dict) else None
            path.append(key)
            if isinstance(node, list) and (n < len(keys) - 1 or not aot) and keys[: n + 1] in last_element:
                index = last_element[keys[: n + 1]][-1][1]
                path[-1:] = [key, (key, index)]
                node = node[index]
            elif isinstance(node, list) and aot and n == len(keys) - 1:
                index = counts.get(tuple(path), 0)
                counts[tuple(path)] = index + 1
                path.append((key, index))
                last_element[keys] = tuple(path)
                node = node[index]
        return tuple(path)

    free: list[str] = []
    for st in statements(text):
        if st.kind == "blank":
            free += gap
            gap = []
        elif st.kind == "comment":
            gap.extend(st.comments)
        else:
            if st.kind in ("table", "aot"):
                table = resolve(st.keys, st.kind == "aot")
                path = table
                holder = path[:-2] if isinstance(path[-1], tuple) else path[:-1]
            else:
                path = table + st.keys
                holder = table
            if free:
                result.append(Owned(holder, tuple(free), ""))
            result.append(Owned(path, (*gap, *st.comments), st.text if st.kind == "key" else ""))
            gap, free = [], []
    if gap or free:
        result.append(Owned(None, (*free, *gap), ""))
    return tuple(o._replace(path=_named(data, o.path)) if o.path is not None else o for o in result)


def _named(data: Any, path: tuple) -> tuple:
    """`path` with each array entry (key, index) as (key, identity)."""
    out: list = []
    node = data
    for part in path:
        if isinstance(part, tuple):
            out.append(_identity(node, part[1]))
            node = node[part[1]]
        else:
            out.append(part)
            node = node.get(part) if isinstance(node, dict) else None
    return tuple(out)


def value_at(data: Any, path: tuple) -> tuple[bool, Any]:
    """(found, value) of a path of `owners` in plain data."""
    node = data
    for part in path:
        if isinstance(part, tuple):
            if not isinstance(node, list):
                return False, None
            field, value = part
            if field == "index":
                found = [node[value]] if value < len(node) else []
            else:
                found = [e for e in node if isinstance(e, dict) and e.get(field) == value]
            if not found:
                return False, None          # (entries alike: the first is the one known so)
            node = found[0]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return False, None
    return True, node


def expected_comments(before: str, after: str) -> Counter:
    """The comments a faithful save of `after`'s data over `before` keeps."""
    data = _data(after)
    kept: Counter = Counter()
    for owned in owners(before):
        if owned.path is None or value_at(data, owned.path)[0]:
            kept.update(owned.comments)
    return kept


def lost_comments(before: str, after: str) -> Counter:
    """Comments of `before` that `after` lacks though their item is still there."""
    return expected_comments(before, after) - Counter(comments(after))


def kept_lines(before: str, after: str) -> Counter:
    """The key lines of `before` whose value is the same in `after` (they must keep their bytes)."""
    old, new = _data(before), _data(after)
    lines: Counter = Counter()
    for owned in owners(before):
        if owned.text and owned.path is not None:
            found, value = value_at(new, owned.path)
            was = value_at(old, owned.path)[1]
            if found and type(value) is type(was) and value == was:
                lines[owned.text] += 1
    return lines


def key_lines(text: str) -> Counter:
    return Counter(s.text for s in statements(text) if s.kind == "key")


def annotated(text: str) -> str:
    """The sample with a comment right above every header of an array of tables, and every
    third one a comment set apart by a blank line above that (a place in the file)."""
    out = []
    for n, line in enumerate(text.splitlines(keepends=True)):
        if line.startswith("[["):
            if n % 3 == 0:
                out.append(f"# à la ligne {n}\n\n")
            out.append(f"# sur {line.strip()} de la ligne {n}\n")
        out.append(line)
    return "".join(out)
