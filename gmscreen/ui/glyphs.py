"""`--ascii`: what the screen draws, in ASCII, for consoles that cannot show the rest.

One line filter maps every glyph the screen draws (box drawing, "…", "—", "·", "−", "±", "×",
arrows, blocks, symbols, no-break spaces) to an ASCII character of the same width, after
Textual has laid the line out, so no column moves. Letters (accented, œ) and « » stay: a French
console shows them. The mapping is per character, so it cannot tell the screen's glyphs from
the same glyph typed in a campaign: a "—" in a note is drawn "-" too, which an ASCII console
needs anyway.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from rich.cells import cell_len
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

__all__ = ["AsciiGlyphs", "to_ascii"]

KEPT = frozenset("«»")
GLYPHS = {
    "…": ".", "—": "-", "–": "-", "‒": "-", "−": "-", "‐": "-", "‑": "-", "·": ".", "•": "*", "∙": ".",
    "±": "+", "×": "x", "÷": "/", "≤": "<", "≥": ">", "≠": "#", "≈": "~", "°": "o",
    "’": "'", "‘": "'", "‚": ",", "“": '"', "”": '"', "„": '"', "′": "'", "″": '"',
    "↶": "<", "↷": ">", "⏎": "<", "✓": "v", "✔": "v", "✗": "x", "✘": "x", "★": "*", "☆": "*",
    "▲": "^", "△": "^", "▼": "v", "▽": "v", "►": ">", "▶": ">", "◀": "<", "◄": "<", "●": "o", "○": "o",
    "◆": "*", "◇": "*", "■": "#", "□": "#", "§": "S", "¶": "P", "†": "+", "‡": "+", "⚔": "x",
}


@lru_cache(4096)
def _glyph(char: str) -> str:
    """`char` as the screen draws it in ASCII: itself, or as many ASCII characters as it has cells."""
    if char.isascii() or char in KEPT or unicodedata.category(char).startswith(("L", "M")):
        return char
    width = cell_len(char)
    if width == 0:
        return ""
    name = unicodedata.name(char, "")
    if char in GLYPHS:
        ascii = GLYPHS[char]
    elif unicodedata.category(char) == "Zs":
        ascii = " "
    elif name.startswith("BOX DRAWINGS"):
        ascii = "-" if "HORIZONTAL" in name and "VERTICAL" not in name and "AND" not in name else (
            "|" if "VERTICAL" in name and "AND" not in name else "+")
    elif name.startswith(("LEFT ", "RIGHT ")) and "BLOCK" in name or "QUADRANT" in name and "LEFT" in name:
        ascii = "|"
    elif "BLOCK" in name or "SHADE" in name or name.startswith("QUADRANT"):
        ascii = "#"
    elif "LEFTWARDS" in name:
        ascii = "<"
    elif "RIGHTWARDS" in name:
        ascii = ">"
    elif "UPWARDS" in name:
        ascii = "^"
    elif "DOWNWARDS" in name:
        ascii = "v"
    else:
        decomposed = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
        ascii = decomposed[:1] or "?"
    return (ascii * width)[:width] if len(ascii) == 1 else ascii[:width].ljust(width)


@lru_cache(4096)
def to_ascii(text: str) -> str:
    """`text` with every glyph but letters and « » made ASCII, each as wide as before."""
    return text if text.isascii() else "".join(_glyph(char) for char in text)


class AsciiGlyphs(LineFilter):
    """Textual line filter drawing the whole screen's glyphs in ASCII (`--ascii`)."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [segment if segment.control or segment.text.isascii()
                else Segment(to_ascii(segment.text), segment.style, segment.control)
                for segment in segments]
