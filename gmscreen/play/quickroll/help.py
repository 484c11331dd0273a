"""The grammar, told to the GM in the words of each game (`?` in an empty quick-roll line).

Each game keeps its part as data on its `LineRules` (title, examples and their meaning,
notes: English message ids, translated here as they are shown; what to type stays as typed,
the line's keywords being French in every language); the common rules follow. Laid out for the width the help screen has: at 80×24 a
long example takes a line of its own and its meaning goes below, aligned with the others,
and every line wraps on words.
"""

from __future__ import annotations

import re
import textwrap
from typing import Sequence

from gmscreen.i18n import N_, _
from gmscreen.rules import get_system

from .grammar import line_rules

DEFAULT_WIDTH = 70
_EXAMPLE_COLUMN = 30            # widest example that keeps its meaning on the same line

_KEY_AND_WORD = re.compile(r"(?<!\S)(\S) (?=\w)")

_COMMON_TITLE = N_("One line = one test:")
_COMMON_FORM = N_("[gm] name skill difficulty [modifiers] [vs name skill] [= faces]")
_COMMON_NOTES = [
    N_("accents and capitals optional; names and skills by a unique beginning (“lor élo”)"),
    N_("no name: the selected character makes the test"),
    N_("vs / contre: opposed test · aide / help name: a character helps"),
    N_("mj / gm / secret: roll for the GM only (h toggles it too) · caché / hidden: secret difficulty"),
    N_("= faces: dice rolled at the table, in order (rerolls and explosions included), sides separated "
       "by / when needed"),
    N_("difficulty by number or by the beginning of its name in the table (“difficile”, “très f”)"),
    N_("Enter rolls · ↑ recalls the line · . repeats the last roll · Tab completes · Esc leaves the line"),
]


def _wrap(text: str, width: int, first: str, rest: str) -> list[str]:
    """Wrap on words; a French space before « : ; » or after «, or after a one-letter key,
    never starts or ends a line."""
    for before in (" :", " ;", " »"):
        text = text.replace(before, "\u00a0" + before[1:])
    text = text.replace("« ", "«\u00a0")
    text = _KEY_AND_WORD.sub("\\1\u00a0", text)             # "p Providence", "r relancer"
    return textwrap.wrap(text, width=max(width, len(first) + 10), initial_indent=first, subsequent_indent=rest,
                         break_on_hyphens=False, break_long_words=False) or [first.rstrip()]


def _examples(examples: Sequence[tuple[str, str]], width: int) -> list[str]:
    """Examples in a column, their meanings aligned after it (below it when an example is long)."""
    column = 2 + min(_EXAMPLE_COLUMN, max((len(e) for e, _ in examples), default=0)) + 2
    if width - column < 24:             # too narrow for two columns: meaning under the example
        column = 6
    pad = " " * column
    out: list[str] = []
    for example, meaning in examples:
        head = "  " + example
        if len(head) + 2 <= column:
            out += _wrap(meaning, width, head.ljust(column), pad)
        else:
            out.append(head)
            out += _wrap(meaning, width, pad, pad)
    return out


def grammar_help(system_id: str, width: int = DEFAULT_WIDTH) -> str:
    """The quick-roll grammar with examples for this system, then the common rules, in lines
    of at most `width` cells (an example longer than that is the only exception)."""
    system = get_system(system_id)
    line = line_rules(system_id)
    lines = _wrap(_(line.title(system)), width, "", "  ")
    lines += _examples([(example, _(meaning) if meaning else meaning) for example, meaning in line.help_examples],
                       width)
    for note in line.help_notes:
        lines += _wrap(_(note), width, "  ", "  ")
    lines += _wrap(line.difficulty_help(system), width, "  ", "    ")
    lines += ["", _(_COMMON_TITLE)]
    lines += _wrap(_(_COMMON_FORM), width, "  ", "    ")
    bullet = "  · "
    for note in _COMMON_NOTES:
        lines += _wrap(_(note), width, bullet, " " * len(bullet))
    return "\n".join(lines) + "\n"
