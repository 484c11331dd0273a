"""What a `Table` tells its front ends: one frozen record per thing that happened.

Each event says who may see it (`visibility`): the players' surfaces (the player view, the
screen while they watch, the recap) read that one decision, made where the event is made,
instead of working it out again. A front end subscribes to the table (`Table.subscribe`) and
draws what each event says; the table never waits for it.
"""

from __future__ import annotations

from dataclasses import KW_ONLY
from typing import TYPE_CHECKING, Any

from gmscreen.rules.records import record

from .public import Visibility

if TYPE_CHECKING:
    from gmscreen.campaign.model import RollRecord

    from .exchange import Draft, Prompt, Spend
    from .quickroll.grammar_base import QuickRollError


@record(frozen=True)
class Event:
    """Base of every event: who may see it (keyword, public unless said)."""

    _: KW_ONLY
    visibility: Visibility = Visibility.PUBLIC


@record(frozen=True)
class Notice(Event):
    """Something to tell the GM (a refusal, what a move ticked, a roll not kept)."""

    text: str
    severity: str = "warning"            # "information", "warning" or "error"
    routine: bool = False                # what a routine action did (undo: …): a status line will do


@record(frozen=True)
class DraftChanged(Event):
    """The quick-roll line was read again: its draft (a test ready to roll) or why not."""

    line: str
    draft: Draft | None
    error: QuickRollError | None


@record(frozen=True)
class PromptOpened(Event):
    """A roll asks a choice (a reroll, Providence, a parry). `result`: the dice already on the
    table (None when the question comes before any die)."""

    draft: Draft
    prompt: Prompt
    result: dict[str, Any] | None


@record(frozen=True)
class RollShown(Event):
    """Dice on the table. `record` is None while a choice is still open (the roll is kept on
    disk, not logged yet), else the roll as logged. `draft` is None for a roll logged by a pane
    (an interval of a timer: no line was read)."""

    draft: Draft | None
    result: dict[str, Any]
    record: RollRecord | None = None
    pending: bool = False


@record(frozen=True)
class RollLogged(Event):
    """A roll entered the log: from the line, from a pane (initiative, an interval), or from
    another process. `spends`: what it took off the sheets; `timer`: the timer it started."""

    record: RollRecord
    spends: tuple[Spend, ...] = ()
    timer: str | None = None


@record(frozen=True)
class RollEnded(Event):
    """A roll that asked a choice ended without the usual log: given up before any die
    (`record` None), or logged as it stood because a choice failed."""

    record: RollRecord | None
    kept: bool


@record(frozen=True)
class RollRevealed(Event):
    """A GM-only roll is shown to the players from now on."""

    record: RollRecord


@record(frozen=True)
class CampaignChanged(Event):
    """The campaign changed: `how` is "change", "undo", "redo", "open" or "outside"; `label`
    the change's words (for the status line)."""

    how: str
    label: str = ""


@record(frozen=True)
class SelectionChanged(Event):
    char_id: str | None


@record(frozen=True)
class WatchingChanged(Event):
    """The players can see the GM's screen (or no longer)."""

    watching: bool


@record(frozen=True)
class GmOnlyChanged(Event):
    """The next rolls are for the GM only (or no longer)."""

    gm_only: bool


@record(frozen=True)
class DifficultyChosen(Event):
    """The GM chose a row of the difficulty table: the line takes it."""

    value: int


__all__ = ["CampaignChanged", "DifficultyChosen", "DraftChanged", "Event", "GmOnlyChanged", "Notice",
           "PromptOpened", "RollEnded", "RollLogged", "RollRevealed", "RollShown", "SelectionChanged",
           "WatchingChanged"]
