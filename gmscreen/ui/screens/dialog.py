"""The one look every dialog shares: where the focus is, seen at a glance in 16 and 256 colours.

Textual marks the focus with a 5 % tint of a field's background, which a terminal of 256
colours shows one grey up and one of 16 not at all: over SSH, a GM typing in a dialog could
not tell which field the keys went to, nor which button Enter would press. Every dialog
derives from `Dialog`, whose style — written here only — makes the widget with the focus
stand out:

- a field (Input, Select, TextArea), or a list of text one reads with the keys: a background
  of its own, the theme's primary colour half mixed in (the terminal's own blue on the
  16-colour theme), with bright text;
- a button: drawn whole in the text's colour, its label in the background's (a light block on
  a dark theme; the terminal's blue on the 16-colour theme): never the colour of a button
  without the focus, a primary one (blue) or a dangerous one (red) included;
- the line chosen in a list (OptionList, ListView): Textual's block cursor, in full colour with
  the focus and faint without, the theme's own cursor colours, as in the panes.

Here rather than in the app's CSS: it goes with the dialogs into whichever app shows them (the
GM's screen; the players' view, which asks its language too), and touches neither the panes
nor Textual's own screens (the command palette). Not in `ui.terminal` either: that package
fixes Textual's behaviour, this is our look.
"""

from __future__ import annotations

from typing import TypeVar

from ..terminal.steady import SteadyModalScreen

Answer = TypeVar("Answer")

# Textual scopes a screen's DEFAULT_CSS to its type, which every subclass matches. Each
# selector names a class of the widget too (`.-style-default`) where Textual's own rule for
# its variants would outweigh it.
FOCUS_CSS = """
Dialog Input:focus, Dialog TextArea:focus, Dialog Select:focus > SelectCurrent,
Dialog VerticalScroll:focus {
    background: $primary 50%;
    color: $text;
}
Dialog Button.-style-default:focus {
    background: $foreground;
    color: $background;
    text-style: bold;
    border-top: tall $foreground;
    border-bottom: tall $foreground;
}

Dialog Input:ansi:focus, Dialog TextArea:ansi:focus, Dialog Select:ansi:focus > SelectCurrent,
Dialog VerticalScroll:ansi:focus, Dialog Button:ansi.-style-default:focus {
    background: ansi_blue;
    color: ansi_bright_white;
}
Dialog TextArea:ansi:focus .text-area--cursor-line { background: ansi_blue; }
Dialog Button:ansi.-style-default:focus { border: tall ansi_blue; }
"""


class Dialog(SteadyModalScreen[Answer]):
    """A modal dialog whose widget with the focus stands out (`FOCUS_CSS`). A scroll that only
    holds fields is better left out of the tab order (`can_focus=False`): tab goes field to field."""

    DEFAULT_CSS = FOCUS_CSS
