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
from functools import lru_cache
from typing import TYPE_CHECKING, Sequence

from gmscreen.i18n import N_, _
from gmscreen.rules import System, get_system

from .text import fold, words

if TYPE_CHECKING:
    from ..game import GameTable

DEFAULT_WIDTH = 70
_EXAMPLE_COLUMN = 30            # widest example that keeps its meaning on the same line

_KEY_AND_WORD = re.compile(r"(?<!\S)(\S) (?=\w)")

_COMMON_TITLE = N_("One line = one test:")
_COMMON_FORM = N_("[gm] name skill difficulty [modifiers] [vs name skill] [= faces]")
_COMMON_NOTES = [
    N_("accents and capitals optional; names and skills by a unique beginning: {beginning}"),
    N_("no name: the selected character makes the test"),
    N_("vs / contre: opposed test · aide / help name: a character helps"),
    N_("mj / gm / secret: roll for the GM only (h toggles it too) · caché / hidden: secret difficulty"),
    N_("= faces: dice rolled at the table, in order (rerolls and explosions included), sides separated "
       "by / when needed"),
    N_("difficulty by number or by the beginning of its name in the table: {examples}"),
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


_NAME_AFTER = {"vs", "contre", "aide", "help"}           # the line's words a name follows
_NOT_A_HANDLE = {"le", "la", "les", "l", "de", "du", "des", "d", "mlle", "mme", "m", "the", "a", "an", "of",
                 "sir", "dame", "maitre", "frere", "capitaine"}


@lru_cache(maxsize=None)
def _sample_names(system_id: str) -> tuple[str, ...]:
    """The names of the game's sample campaign, which its examples type (none when it ships none)."""
    from gmscreen.campaign import CampaignError, load_campaign, sample_path

    try:
        return tuple(ch.name for ch in load_campaign(sample_path(system_id)).characters)
    except (CampaignError, OSError, KeyError, ValueError):
        return ()


def _handle(name: str) -> str:
    """How the GM types a character in the line: its first word that says who it is."""
    found = [w for w in words(name) if w.isalnum()] or [fold(name)]
    return next((w for w in found if w not in _NOT_A_HANDLE and len(w) > 1), found[0])


def _own_names(example: str, sample: Sequence[str], names: Sequence[str]) -> str:
    """`example` with the sample's characters it types swapped for the campaign's own, each
    for the one at its place in the list (a name the campaign shares is kept as typed)."""
    if not names or not sample:
        return example
    out, previous = [], ""
    for position, token in enumerate(example.split(" ")):
        if position == 0 or previous in _NAME_AFTER:
            folded = fold(token)
            index = next((i for i, name in enumerate(sample) if len(folded) >= 3
                          and any(w.startswith(folded) for w in words(name))), None)
            if index is not None and names[index % len(names)] != sample[index]:
                handles = [_handle(names[(index + k) % len(names)]) for k in range(len(names))]
                token = next((h for h in handles if h not in out), handles[0])   # never vs oneself
        out.append(token)
        previous = fold(token)
    return " ".join(out)


def difficulty_examples(system: System) -> str:
    """Two of the game's own difficulty names as a GM types them: one whole, one by its beginning."""
    labels = [d.label.lower() for d in system.difficulties if d.label and d.value is not None]
    quote = _("“{word}”").format
    if not labels:
        return quote(word="3")
    whole = next((label for label in labels[len(labels) // 2:] + labels if " " not in label), labels[0])
    longer = next((label for label in labels if " " in label and label != whole), "")
    if longer:
        first, rest = longer.split(" ", 1)
        start = next(f"{first} {rest[:n]}" for n in range(1, len(rest) + 1)
                     if sum(fold(other).startswith(fold(f"{first} {rest[:n]}")) for other in labels) == 1)
    else:
        other = next((label for label in labels if label != whole), whole)
        start = other[:max(3, min(4, len(other) - 1))]
    return f"{quote(word=whole)}, {quote(word=start)}"


def _beginning(examples: Sequence[str]) -> str:
    """A name and a skill by their beginnings, from the first example that types both ("lor élo")."""
    for example in examples:
        first = example.split(" ")
        if len(first) >= 2 and first[0].isalpha() and first[1].isalpha() and len(first[0]) >= 3 < len(first[1]):
            return _("“{word}”").format(word=f"{first[0][:3]} {first[1][:3]}")
    return _("“{word}”").format(word="lor élo")


def grammar_help(game: GameTable, width: int = DEFAULT_WIDTH, names: Sequence[str] = ()) -> str:
    """The quick-roll grammar with examples for this system, then the common rules, in lines
    of at most `width` cells (an example longer than that is the only exception). `names`:
    the open campaign's characters, whom the examples then type instead of the sample's."""
    system_id = game.system_id
    system = get_system(system_id)
    line = game.line
    sample = _sample_names(system_id) if names else ()
    examples = [(_own_names(example, sample, names), meaning) for example, meaning in line.help_examples]
    lines = _wrap(_(line.title(system)), width, "", "  ")
    lines += _examples([(example, _(meaning) if meaning else meaning) for example, meaning in examples], width)
    for note in line.help_notes:
        lines += _wrap(_(note), width, "  ", "  ")
    lines += _wrap(line.difficulty_help(system), width, "  ", "    ")
    lines += ["", _(_COMMON_TITLE)]
    lines += _wrap(_(_COMMON_FORM), width, "  ", "    ")
    bullet = "  · "
    for note in _COMMON_NOTES:
        said = _(note)
        if "{" in note:
            said = said.format(examples=difficulty_examples(system), beginning=_beginning([e for e, _m in examples]))
        lines += _wrap(said, width, bullet, " " * len(bullet))
    return "\n".join(lines) + "\n"
