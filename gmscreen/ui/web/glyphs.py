"""The screen in a browser draws, for each symbol the browser's font lacks, one it has.

textual-serve's page draws every cell in Roboto Mono (served by textual-serve, `page.py`),
and xterm.js draws box drawing and block elements itself. Roboto Mono has Latin, Greek and
Cyrillic letters, accents in its italics too, but few symbols: ⧗, ⏸, ▶, the arrows, ✓, ◆ and
the like would fall to whatever font the visitor's system has, or show as boxes. The web
driver (`ui/terminal/web_driver.py`) writes the screen through `for_browser`, which swaps each such
symbol for a look-alike of the same width that Roboto Mono has, after Textual has laid the
line out, so no column moves. The terminal screen is not touched: it draws its own glyphs.

`tests/ui/test_serve_glyphs.py` reads the served font and checks that every symbol the
screen's code and catalog can draw is in it, drawn by xterm.js, or swapped here.
"""

from __future__ import annotations

__all__ = ["BROWSER_GLYPHS", "for_browser"]

BROWSER_GLYPHS = {
    # marks of the initiative, the difficulty table, the player view
    "▶": "›", "►": "›", "▸": "›", "◀": "‹", "◄": "‹", "◂": "‹",
    "⏸": "¦",                       # waits (delayed)
    "⧗": "¤",                       # a countdown or an extended test running
    "✓": "√", "✔": "√", "✗": "×", "✘": "×",
    # the roll log's GM-only rolls, the sheet's sides
    "◆": "•", "◇": "◊", "●": "•", "○": "°", "■": "•", "□": "◊",
    "▲": "^", "△": "^", "▼": "v", "▽": "v", "★": "*", "☆": "*", "⚔": "×",
    # arrows and keys
    "→": "›", "←": "‹", "↑": "^", "↓": "v", "↶": "‹", "↷": "›", "↹": "»", "⏎": "¬", "⌫": "«",
    # punctuation Roboto Mono draws under another code point
    "‐": "-", "‑": "-", "‒": "–", "∙": "·",
}
_TABLE = str.maketrans(BROWSER_GLYPHS)


def for_browser(text: str) -> str:
    """`text` with each symbol the served font lacks swapped for its look-alike."""
    return text if text.isascii() else text.translate(_TABLE)
