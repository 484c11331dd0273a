"""The quick-roll line: one grammar for every system, pure Python (no Textual).

`parse(line, campaign, selected=...)` -> `Draft` or `QuickRollError(code, position, **params)`;
`complete(line, cursor, campaign, ...)` -> candidates; `grammar_help(system_id)` -> text;
`RollFlow` runs a roll with its choices (reroll, Impulsion, Providence, parry);
`rule_message(exc)` says a refusal of `gmscreen.rules` in French.

The engine modules below are handed their game (`grammar.parse(…, game=…)`); the names here
are the edge a screen, a script or a test calls by a campaign or a system id: each finds the
game (`tables.table_for`) when its caller holds none, then hands it on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from .choices import Option, Prompt, RollFlow, spending
from .completion import Completion
from .errors import rule_message
from .grammar import Choice, Draft, People, QuickRollError, Spend
from .help import DEFAULT_WIDTH

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign

    from ..game import GameTable

__all__ = [
    "Choice", "Completion", "Draft", "Option", "Prompt", "QuickRollError", "RollFlow", "Spend",
    "complete", "grammar_help", "opponent_name", "parse", "rule_message", "spending",
]


def _game_of(campaign: Campaign, game: GameTable | None) -> GameTable:
    """`game`, else the campaign's (an unknown system: the rules' one clear error first)."""
    if game is not None:
        return game
    from gmscreen.rules import get_system

    from ..tables import table_for

    get_system(campaign.system)
    return table_for(campaign.system)


def parse(line: str, campaign: Campaign, *, selected: str | None = None, people: People | None = None,
          game: GameTable | None = None) -> Draft:
    """`grammar.parse` with the campaign's game."""
    from .grammar import parse as read

    return read(line, campaign, game=_game_of(campaign, game), selected=selected, people=people)


def complete(line: str, cursor: int, campaign: Campaign, *, selected: str | None = None,
             game: GameTable | None = None) -> Completion:
    """`completion.complete` with the campaign's game."""
    from .completion import complete as candidates

    return candidates(line, cursor, campaign, game=_game_of(campaign, game), selected=selected)


def opponent_name(line: str, campaign: Campaign, game: GameTable | None = None) -> str | None:
    """`grammar.opponent_name` with the campaign's game."""
    from .grammar import opponent_name as named

    return named(line, campaign, _game_of(campaign, game))


def grammar_help(system_id: str, width: int = DEFAULT_WIDTH, names: Sequence[str] = (),
                 game: GameTable | None = None) -> str:
    """`help.grammar_help` of `system_id`'s game."""
    from gmscreen.rules import get_system

    from ..tables import table_for
    from .help import grammar_help as said

    if game is None:
        get_system(system_id)          # an unknown system: the rules' one clear error
        game = table_for(system_id)
    return said(game, width, names)
