"""A compact TOML writer for the append-only files (roll log, change journal).

tomli-w writes every array one item per line and nested tables as `[roll.result]`
sections; for a log that gains one entry per roll that costs size and, worse, spreads an
entry over sub-tables. Here each entry is a handful of `key = value` lines whose values are
inline (`{ ... }`, `[ ... ]`), so an entry reads on a few lines and a torn write always
leaves an unclosed value or a missing key behind, which the loader detects.
"""

from __future__ import annotations

import math
import re
from functools import cache
from typing import Any

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+\Z")
_ESCAPES = {
    "\\": "\\\\",
    '"': '\\"',
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}


# Characters a TOML basic string must escape: backslash, quote, C0 controls and DEL; and lone
# surrogates (text decoded with errors="surrogateescape"), which UTF-8 cannot hold at all.
@cache
def _needs_escape() -> re.Pattern[str]:
    return re.compile('[\\\\"\x00-\x1f\x7f\ud800-\udfff]')


def _escape(match: re.Match) -> str:
    ch = match.group()
    if "\ud800" <= ch <= "\udfff":
        return "\ufffd"
    return _ESCAPES.get(ch) or f"\\u{ord(ch):04x}"


def string(text: str) -> str:
    """A TOML basic string on one line: newlines and controls are escaped."""
    return '"' + _needs_escape().sub(_escape, text) + '"'


def key(name: str) -> str:
    if not isinstance(name, str):
        raise TypeError(f"table keys must be strings, got {type(name).__name__} {name!r}")
    return name if _BARE_KEY.match(name) else string(name)


def value(obj: Any) -> str:
    """One inline TOML value. None is refused here: callers drop None keys beforehand."""
    if obj is True:
        return "true"
    if obj is False:
        return "false"
    if isinstance(obj, int):
        return str(int(obj))
    if isinstance(obj, str):
        return string(obj)
    if isinstance(obj, float):
        if math.isnan(obj):
            return "nan"
        if math.isinf(obj):
            return "inf" if obj > 0 else "-inf"
        return repr(obj)
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        return "{ " + ", ".join(f"{key(k)} = {value(v)}" for k, v in obj.items()) + " }"
    if isinstance(obj, (list, tuple)):
        return "[" + ", ".join(value(v) for v in obj) + "]"
    if obj is None:
        raise TypeError("None cannot be written in TOML (drop the key instead)")
    raise TypeError(f"cannot write a {type(obj).__name__} in TOML: {obj!r}")


def drop_none(obj: Any) -> Any:
    """A copy without None values in tables, recursively (TOML has no null)."""
    if isinstance(obj, dict):
        return {k: drop_none(v) for k, v in obj.items() if v is not None}
    if isinstance(obj, (list, tuple)):
        return [drop_none(v) for v in obj]
    return obj
