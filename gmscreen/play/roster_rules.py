"""What a change to the cast does beyond the cast: a character leaving the roster, and a new session.

A character who leaves also leaves the turn order (the turn passing on if it was theirs),
their declared actions and the timers they roll; an opposition against them keeps their name.
A new session bumps its number and applies the game's between-session rules (its fight
part's `session_gains`). Each is ops added to one `EditBuilder`, so one undo takes it all back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmscreen.rules.records import record

from .exchange import SheetGain     # what a game's `FightRules.session_gains` gives, named here as ever
from .turns import pass_turn

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign, Timer
    from gmscreen.campaign.session import EditBuilder

    from .fight_rules import FightRules


@record
class Leaving:
    """What a character leaving the roster takes with them."""

    in_order: bool            # they have entries in the turn order
    timers: list[Timer]       # the timers they roll (removed with them)


def leaving(campaign: Campaign, char_id: str) -> Leaving:
    return Leaving(any(e.character == char_id for e in campaign.encounter.entries),
                   [t for t in campaign.timers if t.who == char_id])


def remove_character(b: EditBuilder, campaign: Campaign, char_id: str, notices: list[str]) -> bool:
    """Remove a character and what leaves with them (see the module); False when no such character.

    `notices` gets what the GM should hear (a new round starting when it was the last turn).
    """
    index = next((i for i, c in enumerate(campaign.characters) if c.id == char_id), None)
    if index is None:
        return False
    ch = campaign.characters[index]
    enc = campaign.encounter
    current = enc.entries[enc.turn].id if 0 <= enc.turn < len(enc.entries) else None
    gone = [e.id for e in enc.entries if e.character == char_id]
    start = enc.turn - sum(1 for e in enc.entries[:enc.turn] if e.character == char_id)
    for j in range(len(enc.declared) - 1, -1, -1):
        if enc.declared[j].entry in gone:
            b.delete(("encounter", "declared"), j)
    for j in range(len(enc.entries) - 1, -1, -1):
        if enc.entries[j].character == char_id:
            b.delete(("encounter", "entries"), j)
    if gone:
        ids = [e.id for e in enc.entries]
        if current in ids:
            turn = ids.index(current)
        elif enc.round > 0 and ids:
            # It was their turn: the next one ready plays (not one who waits or has
            # acted), or the round ends if they were the last to play.
            pass_turn(b, campaign, start, notices)
            turn = enc.turn
        else:
            turn = min(start, max(len(ids) - 1, 0))
        if turn != enc.turn:
            b.set(("encounter", "turn"), turn)
    for j in range(len(campaign.timers) - 1, -1, -1):
        timer = campaign.timers[j]
        if timer.who == char_id:
            b.delete(("timers",), j)
        elif timer.opponent == char_id:
            b.set(("timers", j, "opponent"), ch.name)
    b.delete(("characters",), index)
    return True


def start_session(b: EditBuilder, fight: FightRules, campaign: Campaign) -> list[SheetGain]:
    """The next session: its number, and what the game's rules give back between sessions
    (`fight.session_gains`, read now). Returns the gains given."""
    gains = fight.session_gains(campaign)
    b.set(("session",), campaign.session + 1)
    for gain in gains:
        b.set(gain.path, gain.value)
    return gains
