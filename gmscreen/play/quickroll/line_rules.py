"""The quick-roll part of a game: its grammar, words, examples and help.

The base class is every default; a game overrides only what its rules change. Nothing here
imports the grammar engine at module level: the part is built with its `GameTable`, the
grammar only when a line is read (after the first frame).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from gmscreen.i18n import _

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign
    from gmscreen.rules._base import System

    from .grammar_base import SystemGrammar

# One example of the `?` help: (what to type, what it means); no meaning makes a sub-heading.
Example = tuple[str, str]


class LineRules:
    """Defaults shared by every game: the engine's words only, a difficulty as a plain number."""

    # The `SystemGrammar` subclass that reads this game's lines (None: the engine's base,
    # which understands names and traits but builds no request).
    grammar_class: ClassVar[type[SystemGrammar] | None] = None
    # Words Tab offers for a typed prefix, after names, traits and difficulties.
    completion_words: ClassVar[tuple[str, ...]] = ()
    # The `?` help: a title (default: the game and its dice), examples, then notes.
    help_title: ClassVar[str] = ""
    help_examples: ClassVar[tuple[Example, ...]] = ()
    help_notes: ClassVar[tuple[str, ...]] = ()

    def grammar(self, campaign: Campaign) -> SystemGrammar:
        """What this game's words mean, for the characters of `campaign`."""
        cls = self.grammar_class
        if cls is None:
            from .grammar_base import SystemGrammar

            cls = SystemGrammar
        return cls(campaign)

    def title(self, system: System) -> str:
        """The first line of the `?` help."""
        return self.help_title or f"{system.game} — {_(system.dice)}"

    def difficulty_help(self, system: System) -> str:
        """The `?` help's line on difficulties, in the game's own words: its word for the
        difficulty ("SD", "seuil") and each row of its table with its note. A game may say more."""
        rows = ", ".join(f"{d.label} {d.value}" + (f" ({_(d.note)})" if d.note else "")
                         for d in system.difficulties if d.label and d.value is not None)
        return _("Difficulties ({word}): {table}").format(word=system.difficulty_word, table=rows)

    def difficulty_token(self, value: int) -> str:
        """How a difficulty picked in the table is written into the line, so that the
        grammar reads it back as the difficulty (`sd3` in MIR, `-3` in Arpèges)."""
        return str(value)
