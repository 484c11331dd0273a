"""What a browser can draw of the served screen: the code points of the page's font (Roboto
Mono, both faces, read from textual-serve's static folder: a TrueType `cmap`, formats 4 and 12)
and the characters xterm.js draws itself (box drawing, block elements)."""

from __future__ import annotations

import re
import struct
from functools import cache
from pathlib import Path

import textual_serve

from gmscreen.ui.web import page

STATIC = Path(textual_serve.__file__).parent / "static"


def character_map(path: Path) -> frozenset[int]:
    """The code points a TrueType font has a glyph for."""
    data = path.read_bytes()
    tables = struct.unpack(">H", data[4:6])[0]
    offset = next(struct.unpack(">I", data[12 + 16 * i + 8:12 + 16 * i + 12])[0]
                  for i in range(tables) if data[12 + 16 * i:12 + 16 * i + 4] == b"cmap")
    found: set[int] = set()
    for i in range(struct.unpack(">H", data[offset + 2:offset + 4])[0]):
        platform, encoding, sub = struct.unpack(">HHI", data[offset + 4 + 8 * i:offset + 12 + 8 * i])
        if platform not in (0, 3):
            continue
        at = offset + sub
        kind = struct.unpack(">H", data[at:at + 2])[0]
        if kind == 4:
            segments = struct.unpack(">H", data[at + 6:at + 8])[0] // 2
            ends = struct.unpack(f">{segments}H", data[at + 14:at + 14 + 2 * segments])
            starts = struct.unpack(f">{segments}H", data[at + 16 + 2 * segments:at + 16 + 4 * segments])
            deltas = struct.unpack(f">{segments}h", data[at + 16 + 4 * segments:at + 16 + 6 * segments])
            ranges_at = at + 16 + 6 * segments
            ranges = struct.unpack(f">{segments}H", data[ranges_at:ranges_at + 2 * segments])
            for s, (start, end, delta, range_offset) in enumerate(zip(starts, ends, deltas, ranges)):
                for code in range(start, end + 1):
                    if code == 0xFFFF:
                        continue
                    if range_offset == 0:
                        glyph = (code + delta) & 0xFFFF
                    else:
                        where = ranges_at + 2 * s + range_offset + 2 * (code - start)
                        glyph = struct.unpack(">H", data[where:where + 2])[0]
                        glyph = (glyph + delta) & 0xFFFF if glyph else 0
                    if glyph:
                        found.add(code)
        elif kind == 12:
            for g in range(struct.unpack(">I", data[at + 12:at + 16])[0]):
                start, end, glyph = struct.unpack(">III", data[at + 16 + 12 * g:at + 28 + 12 * g])
                found.update(code for code in range(start, end + 1) if glyph + code - start)
    return frozenset(found)


@cache
def in_both_faces() -> frozenset[int]:
    normal, italic = (character_map(STATIC / page.FONTS[face]) for face in ("normal", "italic"))
    return normal & italic


@cache
def drawn_by_xterm() -> frozenset[str]:
    """Box drawing and block elements: xterm.js draws them itself (its `customGlyphs`)."""
    script = (STATIC / "js/textual.js").read_text(encoding="utf-8")
    found: set[str] = set()
    for name in ("blockElementDefinitions", "boxDrawingDefinitions"):
        start = script.index(name + "={")
        found.update(re.findall(r'"(.)":', script[start:script.index("};", start)]))
    assert len(found) > 150
    return frozenset(found)


def shown(char: str) -> bool:
    return ord(char) in in_both_faces() or char in drawn_by_xterm()
