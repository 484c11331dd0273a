"""The headless table: what a GM does at the table, with no screen.

The encounter (`encounter`, `turns`, `declarations`, `roster_rules`), timers and extended
tests (`timers`), the quick-roll line (`quickroll`: words, grammar, completion, history,
choices), the roll from Enter to the log (`table_roll`), the odds memo (`chances`), a
result in words (`render`, `logline`) and the catalogs that word every error (`messages`).
What one game means lives in `games/<id>/`, found through `tables.table_for` by the `Table`
(and the other edges) and handed to the engines, which never look a game up. It imports
`rules` and `campaign`, never Textual: the screen shows it, and `gmscreen line` / `gmscreen
turn` drive it alone.

`__all__` is the library's surface: a front end (or a third party) imports these names from
`gmscreen.play` and nothing deeper. Each loads on first use (PEP 562), so importing
`gmscreen.play` costs nothing and names no module the surface does not need. Driving a
table in ten lines (tests/play/test_surface.py runs this block):

    import random, shutil, tempfile
    from gmscreen.campaign.samples import sample_path
    from gmscreen.campaign.session import open_session
    from gmscreen.play import RollLogged, Table

    table = Table(open_session(shutil.copy(sample_path("mir"), tempfile.mkdtemp())), rng=random.Random(7))
    heard = []
    table.subscribe(heard.append)              # every event, each saying who may see it
    table.select("loriane")
    table.submit("éloquence sd3")              # a roll that asks nothing is logged at once
    table.close()
    print([event.record.result["outcome"] for event in heard if isinstance(event, RollLogged)])
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

# name -> the module (inside gmscreen.play) that defines it
_SURFACE: dict[str, str] = {
    # the live table and what it tells
    "Table": "table",
    "Joiners": "table",
    "Event": "events",
    "Notice": "events",
    "DraftChanged": "events",
    "PromptOpened": "events",
    "RollShown": "events",
    "RollLogged": "events",
    "RollEnded": "events",
    "RollRevealed": "events",
    "CampaignChanged": "events",
    "SelectionChanged": "events",
    "WatchingChanged": "events",
    "GmOnlyChanged": "events",
    "DifficultyChosen": "events",
    # who may see what
    "Visibility": "public",
    "Sight": "public",
    "PUBLIC": "public",
    "ACTOR": "public",
    # a game's parts and how they are found
    "GameTable": "game",
    "table_for": "tables",
    "SheetLook": "sheet_look",
    "RollRules": "roll_rules",
    "FightRules": "fight_rules",
    "EffectRules": "effect_rules",
    "LineRules": "quickroll.line_rules",
    "TimedTest": "exchange",
    "TrackSpec": "exchange",
    "Glance": "sheet_look",
    "Effect": "effect_rules",
    "Preset": "effect_rules",
    "signed_amount": "effect_rules",
    # the grammar kit: a game's quick-roll line from words to a request
    "SystemGrammar": "quickroll.grammar_base",
    "Choice": "exchange",
    "Spend": "exchange",
    "flat": "quickroll.grammar",
    "finish": "quickroll.grammar_kit",
    "trait": "quickroll.grammar_kit",
    "side_id": "quickroll.grammar_kit",
    "free_skills": "quickroll.grammar_kit",
    "flat_skills": "quickroll.grammar_kit",
    # the data the parts exchange
    "Draft": "exchange",
    "Side": "exchange",
    "QuickRollError": "quickroll.grammar_base",
    "Prompt": "exchange",
    "Option": "exchange",
    "RollFlow": "quickroll.choices",
    "Flow": "exchange",                 # the roll under way, as a game's `RollRules` hooks see it
    "Assumed": "exchange",
    "TableRoll": "table_roll",
    "Refused": "table_roll",
    "ChoiceError": "table_roll",
    # results in words, the recap, the player view
    "describe": "render",
    "outcome_words": "render",
    "difficulty_name": "render",
    "CliRenderer": "render",
    "LogLine": "logline",
    "log_line": "logline",
    "build_recap": "recap",
    "recap_markdown": "recap",
    "RecapError": "recap",
    "PlayerState": "player_view",
    "CampaignWatch": "player_view",
    "TurnMove": "encounter",
    "TrackMove": "tracks",
    # a game's own codes and field names, in each language
    "add_messages": "messages",
}

__all__ = sorted(_SURFACE)


def __getattr__(name: str) -> Any:
    module = _SURFACE.get(name)
    if module is None:
        # a submodule (`gmscreen.play.chances`) is found by the import system, not here
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value            # read from the module itself from now on
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:     # the same names, for a type checker (no run-time import)
    from .effect_rules import Effect, EffectRules, Preset, signed_amount
    from .encounter import TurnMove
    from .events import (CampaignChanged, DifficultyChosen, DraftChanged, Event, GmOnlyChanged, Notice,
                         PromptOpened, RollEnded, RollLogged, RollRevealed, RollShown, SelectionChanged,
                         WatchingChanged)
    from .exchange import Assumed, Choice, Draft, Flow, Option, Prompt, Side, Spend, TimedTest, TrackSpec
    from .fight_rules import FightRules
    from .game import GameTable
    from .logline import LogLine, log_line
    from .messages import add_messages
    from .player_view import CampaignWatch, PlayerState
    from .public import ACTOR, PUBLIC, Sight, Visibility
    from .quickroll.choices import RollFlow
    from .quickroll.grammar import flat
    from .quickroll.grammar_base import QuickRollError, SystemGrammar
    from .quickroll.grammar_kit import finish, flat_skills, free_skills, side_id, trait
    from .quickroll.line_rules import LineRules
    from .recap import RecapError, build_recap, recap_markdown
    from .render import CliRenderer, describe, difficulty_name, outcome_words
    from .roll_rules import RollRules
    from .sheet_look import Glance, SheetLook
    from .table import Joiners, Table
    from .table_roll import ChoiceError, Refused, TableRoll
    from .tables import table_for
    from .tracks import TrackMove
