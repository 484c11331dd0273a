"""In a browser, every symbol the screen draws is in the page's font (Roboto Mono, served by
textual-serve, both faces) or drawn by xterm.js itself, once the web driver has swapped the
rest (`gmscreen.ui.web.glyphs`); letters, accents in italics too, are in both faces.

The font's character map is read from the served files, and xterm.js's own drawings from
textual.js (`_fonts.py`), so an upgrade of either is checked too.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from rich.cells import cell_len

from _fonts import drawn_by_xterm, in_both_faces, shown

from gmscreen.i18n import msgfmt
from gmscreen.ui.web.glyphs import BROWSER_GLYPHS, for_browser

PACKAGE = Path(__file__).resolve().parents[2] / "gmscreen"
PSEUDO = PACKAGE / "i18n" / "__init__.py"      # the test pseudo-language's look-alike letters


def symbols_the_screen_can_draw() -> dict[str, str]:
    """Every non-ASCII character that is not a letter in the code (its strings, and its comments:
    reading the text is quicker than parsing it) and the catalogs -> where it was found first."""
    found: dict[str, str] = {}

    def add(text: str, where: str) -> None:
        for char in text:
            if not char.isascii() and not unicodedata.category(char).startswith(("L", "M")):
                found.setdefault(char, where)
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PSEUDO:
            continue
        add(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE)))
    for lang in ("fr", "en"):
        for entry in msgfmt.catalog(lang).values():
            for text in entry.msgstr:
                add(text, entry.where)
    return found


def test_the_font_reader_reads_what_the_font_has() -> None:
    assert {ord(c) for c in "Aaé€…«»—·"} <= in_both_faces()
    assert not {ord(c) for c in "⧗⏸▶→✓◆"} & in_both_faces()     # the symbols the issue saw as boxes
    assert "─" in drawn_by_xterm() and "█" in drawn_by_xterm() and "▶" not in drawn_by_xterm()


def test_every_symbol_the_screen_can_draw_is_shown_in_the_browser() -> None:
    symbols = symbols_the_screen_can_draw()
    assert {"⧗", "⏸", "▶", "→", "✓", "◆"} <= set(symbols)
    missing = {char: where for char, where in symbols.items()
               if unicodedata.category(char) not in ("Cc", "Cf", "Zs", "Zl", "Zp", "Co", "Cs")
               and not shown(for_browser(char))}
    assert missing == {}, {f"{c} U+{ord(c):04X} {unicodedata.name(c, '?')}": w for c, w in missing.items()}


def test_every_letter_of_the_catalogs_is_in_both_faces_accents_in_italics_too() -> None:
    letters = {char for lang in ("fr", "en") for entry in msgfmt.catalog(lang).values()
               for text in entry.msgstr for char in text if char.isalpha()}
    assert {"é", "è", "à", "ç", "ô", "œ", "É"} <= letters
    assert sorted(c for c in letters if ord(c) not in in_both_faces()) == []


@pytest.mark.parametrize("symbol", sorted(BROWSER_GLYPHS))
def test_each_swap_is_in_both_faces_and_as_wide_as_the_symbol(symbol: str) -> None:
    swapped = BROWSER_GLYPHS[symbol]
    assert len(swapped) == 1 and ord(swapped) in in_both_faces(), (symbol, swapped)
    assert cell_len(swapped) == cell_len(symbol) == 1           # no column moves
    assert for_browser(f"a{symbol}b\x1b[1m{symbol}") == f"a{swapped}b\x1b[1m{swapped}"
