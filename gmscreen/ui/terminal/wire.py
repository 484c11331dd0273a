"""What goes down the wire: as few bytes as the screen needs.

Textual writes every segment of a line as a reset and its whole style (both colours in
24 bits, bold…), even when the segment beside it differs by one attribute or not at all (a
table row's cells and padding, a border's glyphs: segments that differ only by mouse data the
terminal never sees). `join_runs` rewrites the SGR sequences of a frame so that each run of
text is preceded only by what changes from the style the terminal is in: nothing when the
style is the same, `ESC[1m` when only bold comes on. The terminal ends up in the same state
at every character drawn: the screen looks the same, in about half the bytes. Any sequence it
does not understand is passed on as it is and the state taken as unknown until a reset.
"""

from __future__ import annotations

import re
from typing import Any

_TOKEN = re.compile(r"\x1b\[([0-9;]*)m|\x1b\[[0-9]+;[0-9]+H")
# Attribute code -> the code that turns it off (which may turn off others too).
_OFF = {1: 22, 2: 22, 3: 23, 4: 24, 21: 24, 5: 25, 6: 25, 7: 27, 8: 28, 9: 29, 51: 54, 52: 54, 53: 55}
_CLEARS = {22: (1, 2), 23: (3,), 24: (4, 21), 25: (5, 6), 27: (7,), 28: (8,), 29: (9,), 54: (51, 52), 55: (53,)}

State = tuple[frozenset, str | None, str | None]     # attributes on, foreground, background
RESET: State = (frozenset(), None, None)


def _apply(state: State | None, params: str) -> State | None:
    """The state after SGR `params`; None when unknown (a code not understood)."""
    codes = params.split(";") if params else ["0"]
    attrs, fg, bg = state if state is not None else (None, None, None)
    i = 0
    while i < len(codes):
        try:
            code = int(codes[i]) if codes[i] else 0
        except ValueError:
            return None
        if code == 0:
            attrs, fg, bg = frozenset(), None, None
        elif attrs is None:
            return None                      # a change to an unknown state
        elif code in (38, 48):
            kind = codes[i + 1] if i + 1 < len(codes) else ""
            width = 3 if kind == "5" else 5 if kind == "2" else 0
            if not width or i + width > len(codes):
                return None
            colour = ";".join(codes[i:i + width])
            if code == 38:
                fg = colour
            else:
                bg = colour
            i += width
            continue
        elif 30 <= code <= 37 or 90 <= code <= 97:
            fg = str(code)
        elif 40 <= code <= 47 or 100 <= code <= 107:
            bg = str(code)
        elif code == 39:
            fg = None
        elif code == 49:
            bg = None
        elif code in _OFF:
            attrs = attrs | {code}
        elif code in _CLEARS:
            attrs = attrs - set(_CLEARS[code])
        else:
            return None
        i += 1
    if attrs is None:
        return None
    return (attrs, fg, bg)


def _full(state: State) -> str:
    attrs, fg, bg = state
    codes = ["0", *(str(a) for a in sorted(attrs))]
    if fg is not None:
        codes.append(fg)
    if bg is not None:
        codes.append(bg)
    return f"\x1b[{';'.join(codes)}m"


def _change(have: State | None, want: State) -> str:
    """The shortest SGR taking the terminal from `have` to `want` (a full one if unknown)."""
    if want == RESET:
        return "\x1b[0m"
    full = _full(want)
    if have is None:
        return full
    attrs, fg, bg = have
    codes: list[str] = []
    gone = attrs - want[0]
    offs = sorted({_OFF[a] for a in gone})
    for off in offs:
        attrs = attrs - set(_CLEARS[off])
    codes += [str(off) for off in offs]
    codes += [str(a) for a in sorted(want[0] - attrs)]
    if fg != want[1]:
        codes.append(want[1] if want[1] is not None else "39")
    if bg != want[2]:
        codes.append(want[2] if want[2] is not None else "49")
    diff = f"\x1b[{';'.join(codes)}m"
    return diff if len(diff) < len(full) else full


def join_runs(data: str) -> str:
    """`data` with its SGR sequences rewritten as the changes each run of text needs."""
    if "\x1b[" not in data:
        return data
    out: list[str] = []
    append = out.append
    have: State | None = None        # the terminal's style, as far as is known
    want: State | None = None        # the style the frame asks for next
    pos = 0
    for match in _TOKEN.finditer(data):
        start = match.start()
        if start > pos:              # text (or any other sequence): drawn in `want`
            if want != have:
                if want is None:
                    pass             # unknown: the raw sequences were written as they came
                else:
                    append(_change(have, want))
                have = want
            append(data[pos:start])
        pos = match.end()
        params = match.group(1)
        if params is None:           # a cursor move: the style carries over it
            append(match.group(0))
            continue
        after = _apply(want, params)
        if after is None:            # not understood: written as it is, from a known start
            if want != have and want is not None:
                append(_change(have, want))
            append(match.group(0))
            have = want = None
            continue
        want = after
    if pos < len(data):
        if want != have and want is not None:
            append(_change(have, want))
            have = want
        append(data[pos:])
    elif want != have and want is not None:
        append(_change(have, want))
    return "".join(out)


def render_from_first_cell(update: Any, console: Any) -> str:
    """`ChopsUpdate.render_segments`, but each line written from the first run of text its
    span asks for: Textual's writes a widget's row from its left edge even when only its end
    changed ("saved" at the end of the status line: the whole line went again). A line starts
    at the first cell changed, or at the start of its run when that cell is the second half
    of a wide character (never cut in half)."""
    from rich.control import Control

    move_to = Control.move_to
    out: list[str] = []
    append = out.append
    chops = update.chops
    chop_ends = update.chop_ends
    last_y = update.spans[-1][0]
    for y, x1, x2 in update.spans:
        for end, (x, strip) in zip(chop_ends[y], chops[y].items()):
            if strip is None or x > x2 or end <= x1:
                continue
            if x2 > x >= x1 and end <= x2:
                append(move_to(x, y).segment.text)
                append(strip.render(console))
                continue
            skip = 0
            if x < x1:
                for segment in strip:
                    width = segment.cell_length
                    if x + skip + width > x1:
                        skip += _boundary(segment.text, x1 - x - skip)
                        break
                    skip += width
            strip = strip.crop(skip, min(end, x2) - x)
            append(move_to(x + skip, y).segment.text)
            append(strip.render(console))
        if y != last_y:
            append("\n")
    return "".join(out)


def _boundary(text: str, cells: int) -> int:
    """The cells of `text` before the character boundary at `cells`, or 0 when that cell is
    the second half of a wide character (the run is then written from its start)."""
    from rich.cells import get_character_cell_size

    at = 0
    for char in text:
        if at == cells:
            return at
        at += get_character_cell_size(char)
        if at > cells:
            return 0
    return at if at == cells else 0


def send_changed_cells_only() -> None:
    """Partial updates written from the cells they change (see `render_from_first_cell`)."""
    from textual._compositor import ChopsUpdate

    if getattr(ChopsUpdate.render_segments, "_gmscreen", False):
        return

    def render_segments(self: Any, console: Any) -> str:
        return render_from_first_cell(self, console)

    render_segments._gmscreen = True  # type: ignore[attr-defined]
    ChopsUpdate.render_segments = render_segments  # type: ignore[method-assign]
