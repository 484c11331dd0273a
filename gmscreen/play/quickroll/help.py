"""The grammar, told to the GM in the words of each game (`?` in an empty quick-roll line).

Each game keeps its part as data on its `LineRules` (title, examples and their meaning,
notes); the common rules follow. Laid out for the width the help screen has: at 80×24 a
long example takes a line of its own and its meaning goes below, aligned with the others,
and every line wraps on words.
"""

from __future__ import annotations

import re
import textwrap
from typing import Sequence

from gmscreen.rules import get_system

from .grammar import line_rules

DEFAULT_WIDTH = 70
_EXAMPLE_COLUMN = 30            # widest example that keeps its meaning on the same line

_KEY_AND_WORD = re.compile(r"(?<!\S)(\S) (?=\w)")

_COMMON_TITLE = "Une ligne = un test :"
_COMMON_FORM = "[mj] nom compétence difficulté [modificateurs] [vs nom compétence] [= faces]"
_COMMON_NOTES = [
    "accents et majuscules facultatifs ; noms et compétences par début unique (« lor élo »)",
    "sans nom : le personnage sélectionné fait le test",
    "vs / contre : test opposé · aide / help nom : un personnage aide",
    "mj / gm / secret : jet réservé au MJ (h bascule aussi) · caché / hidden : difficulté secrète",
    "= faces : dés lancés à la table, dans l'ordre (relances et explosions comprises), camps séparés "
    "par / quand il le faut",
    "difficulté par nombre ou par le début de son nom dans la table (« difficile », « très f »)",
    "Entrée lance · ↑ reprend la ligne · . relance le dernier jet · Tab complète · Échap sort de la ligne",
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
    lines = _wrap(line.title(system), width, "", "  ")
    lines += _examples(line.help_examples, width)
    for note in line.help_notes:
        lines += _wrap(note, width, "  ", "  ")
    table = ", ".join(f"{d.label} {d.value}" for d in system.difficulties if d.label and d.value is not None)
    lines += _wrap(f"Difficultés : {table}", width, "  ", "    ")
    lines += ["", _COMMON_TITLE]
    lines += _wrap(_COMMON_FORM, width, "  ", "    ")
    bullet = "  · "
    for note in _COMMON_NOTES:
        lines += _wrap(note, width, bullet, " " * len(bullet))
    return "\n".join(lines) + "\n"
