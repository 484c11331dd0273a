"""Who had dice in a roll besides its actor, as the log keeps it: `sides` in the logged result.

The record's `who` is the actor. A character who rolled dice in the same roll (an opposition's
opponent, an attack's defender, a MIR helper's own dice) is named here, so that luck over a
session counts the roll for them too, from their side (`play.luck_stats`). An older entry has
no `sides`: its roll counts for its actor alone. A timer played against a hidden character
notes the sides it plays in each interval logged (`noted_timer_result`, `hidden_sides`).

    result = { ..., sides = { opponent = "le gros Bob", helpers = ["Loriane"] } }
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping

if TYPE_CHECKING:
    from gmscreen.campaign.model import Timer

SIDES = "sides"
OPPONENT, HELPERS = "opponent", "helpers"
# The sides a hidden character plays (`gmscreen.play.public`), kept in a roll's result and on a
# timer: `hidden_sides = ["opponent"]`.
HIDDEN_SIDES = "hidden_sides"


def with_sides(result: Mapping[str, Any], opponent: str | None = None, helpers: Iterable[str] = ()) -> dict[str, Any]:
    """The result as logged, naming the opponent and the helpers who rolled dice (none: unchanged)."""
    out = dict(result)
    named: dict[str, Any] = {}
    if opponent:
        named[OPPONENT] = opponent
    helpers = [h for h in helpers if h]
    if helpers:
        named[HELPERS] = helpers
    if named:
        out[SIDES] = named
    return out


def opponent_of(result: Mapping[str, Any]) -> str | None:
    """The opponent a logged result names (None: none, or an entry older than `sides`)."""
    sides = result.get(SIDES)
    name = sides.get(OPPONENT) if isinstance(sides, Mapping) else None
    return name if isinstance(name, str) and name else None


def helpers_of(result: Mapping[str, Any]) -> list[str]:
    """The helpers with dice a logged result names."""
    sides = result.get(SIDES)
    names = sides.get(HELPERS) if isinstance(sides, Mapping) else None
    if not isinstance(names, list):
        return []
    return [n for n in names if isinstance(n, str) and n]


def noted_timer_result(result: Mapping[str, Any], timer: Timer) -> dict[str, Any]:
    """An interval's result as logged, with the sides hidden the timer recorded (it is logged
    GM-only when the timer is, and keeps `hidden` from the timer's request)."""
    out = dict(result)
    if timer.hidden_sides:
        out[HIDDEN_SIDES] = list(timer.hidden_sides)
    return out
