"""The quick-roll line: one grammar for every system, pure Python (no Textual).

`parse(line, campaign, selected=...)` -> `Draft` or `QuickRollError(code, position, **params)`;
`complete(line, cursor, campaign, ...)` -> candidates; `grammar_help(system_id)` -> text;
`RollFlow` runs a roll with its choices (reroll, Impulsion, Providence, parry);
`rule_message(exc)` says a refusal of `gmscreen.rules` in French.
"""

from __future__ import annotations

from .choices import Option, Prompt, RollFlow, spending
from .completion import Completion, complete
from .errors import rule_message
from .grammar import Choice, Draft, QuickRollError, Spend, opponent_name, parse
from .help import grammar_help

__all__ = [
    "Choice", "Completion", "Draft", "Option", "Prompt", "QuickRollError", "RollFlow", "Spend",
    "complete", "grammar_help", "opponent_name", "parse", "rule_message", "spending",
]
