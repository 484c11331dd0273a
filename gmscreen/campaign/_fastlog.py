"""Entries of an append-only log read at the speed of the file, not of a TOML parser.

Our writer (`_toml`) puts each entry on `key = value` lines whose values are inline and on
one line, so a piece of such a log turns into JSON by renaming its keys, and Python's C
JSON parser reads it ten times faster than `tomllib`. Anything this translation could read
otherwise than TOML does — a comment, a literal string, a dotted or quoted key, a date, an
escape JSON knows and TOML does not, `null` — makes it give up (None), and the caller
parses the piece with `tomllib` as before: the fast path never decides what a file means.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any


# A key where our writer puts one: at the start of a line (entries start with their header
# line, so a newline comes before), or after "{ " or ", " in an inline table. One found
# inside a string splits it in two: JSON then refuses what follows.
@cache
def _key() -> re.Pattern[str]:
    return re.compile(r"(\n|\{ |, )([A-Za-z0-9_-]+) = ")


# JSON escapes TOML refuses (\/, surrogate halves), DEL, CR, multi-line strings and the word
# null (TOML's own rules apply to those; null may be in a string: tomllib then reads it).
_NOT_TOML = ("\x7f", "\r", '"""', "\\/", "null")


@cache
def _surrogate() -> re.Pattern[str]:
    return re.compile(r"\\u[dD][89a-fA-F]")


_LINES = "\\u0000"                # first key of an entry: how many lines it had


class _Refused(Exception):
    pass


def _check(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """Every table: no key twice (TOML refuses it); an entry: one key a line (two pairs on a
    line are not TOML)."""
    if pairs and pairs[0][0] == "\x00":
        lines = pairs[0][1]
        pairs = pairs[1:]
        if len(pairs) != lines:
            raise _Refused
    found = dict(pairs)
    if len(found) != len(pairs):
        raise _Refused
    return found


def _refuse_constant(name: str) -> Any:
    raise _Refused                  # NaN, Infinity: JSON's words, not TOML's


def _keys_quoted(text: str) -> str:
    """`_key().sub(r'\1"\2": ', text)`, twice as fast: Python 3.11 expands a template in Python
    code at each match, while a split and a join stay in C but for one string a key."""
    parts = _key().split(text)              # [text, sep, key, text, sep, key, ..., text]
    parts[2::3] = [f'"{key}": ' for key in parts[2::3]]
    return "".join(parts)


def loads_entries(text: str, names: tuple[str, ...]) -> dict[str, list[dict[str, Any]]] | None:
    """`tomllib.loads(text)` for text made only of `[[name]]` entries laid out by our writer;
    None when the text is anything else (then parse it with tomllib)."""
    if not text.startswith("[[") or any(bad in text for bad in _NOT_TOML):
        return None
    if "\\u" in text and _surrogate().search(text):
        return None
    header = re.compile(r"(?:\A|\n)\n*\[\[(" + "|".join(map(re.escape, names)) + r")\]\]\n")
    parts = header.split(_keys_quoted(text))
    if parts[0].strip():
        return None
    pieces = []
    for k in range(1, len(parts), 2):
        body = parts[k + 1].rstrip("\n")
        lines = body.count("\n") + 1 if body else 0
        pieces.append(f'["{parts[k]}",{{"{_LINES}":{lines}' + ("," + body.replace("\n", ",") if body else "") + "}]")
    import json   # (the log is read after the first frame)

    try:
        items = json.loads("[" + ",".join(pieces) + "]", object_pairs_hook=_check, parse_constant=_refuse_constant)
    except (ValueError, _Refused, RecursionError):
        return None
    doc: dict[str, list[dict[str, Any]]] = {}
    for name, entry in items:
        doc.setdefault(name, []).append(entry)
    return doc


def loads_piece(text: str, names: tuple[str, ...]) -> dict[str, Any] | None:
    """A piece of a log (its header first, if it holds it) as `tomllib.loads` reads it, or
    None to leave it to tomllib."""
    if text.startswith("[["):
        cut = 0
    else:
        cut = text.find("\n[[") + 1
        if cut <= 0:
            return None
    entries = loads_entries(text[cut:], names)
    if entries is None:
        return None
    if not cut:
        return dict(entries)
    import tomllib

    doc = tomllib.loads(text[:cut])
    if any(name in doc for name in entries):
        return None
    doc.update(entries)
    return doc
