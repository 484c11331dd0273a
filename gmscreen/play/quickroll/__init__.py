"""The quick-roll line: one grammar for the five systems, pure Python (no Textual).

`parse(line, campaign, selected=...)` -> `Draft` or `QuickRollError(message, position)`;
`complete(line, cursor, campaign, ...)` -> candidates; `grammar_help(system_id)` -> text;
`RollFlow` runs a roll with its choices (reroll, Impulsion, Providence, parry);
`rule_message(exc)` says a refusal of `gmscreen.rules` in French.
"""

from __future__ import annotations

from .choices import Option, Prompt, RollFlow
from .completion import Completion, complete
from .errors import rule_message
from .grammar import Choice, Draft, QuickRollError, Spend, opponent_name, parse
from .help import grammar_help
from .systems import spending

__all__ = [
    "Choice", "Completion", "Draft", "Option", "Prompt", "QuickRollError", "RollFlow", "Spend",
    "complete", "grammar_help", "opponent_name", "parse", "rule_message", "spending",
]
