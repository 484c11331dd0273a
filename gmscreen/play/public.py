"""What the players may see of a roll: all of it, all but its difficulty, or nothing.

Two different secrets (MIR R8, Éclats R10): a hidden difficulty (`caché`, `hidden` in the
request and the result) keeps only the difficulty from the players — their dice and the
outcome stay theirs, and an Éclats player sees the die they must decide on; a GM-only roll
(`mj`, `gm_only` on the record) keeps everything. A revealed roll is public. Every view that
shows rolls to players (the GM's screen while they watch, a player view) asks here.
"""

from __future__ import annotations

import enum
from typing import Any, Mapping

from gmscreen.campaign.model import RollRecord
from gmscreen.i18n import _

# Told by every kind of every game: how lucky a roll was says how hard it was.
_ALWAYS_SECRET = frozenset({"luck"})
# A system this copy cannot describe (a plugin gone): its fields are judged by their names, the
# words its contract would use for the difficulty and what gives it away.
_DIFFICULTY_WORDS = frozenset({"difficulty", "threshold", "target", "margin", "malus", "dc", "sd"})


class Visibility(enum.Enum):
    PUBLIC = "public"
    DIFFICULTY_HIDDEN = "difficulty_hidden"
    SECRET = "secret"


def visibility(rec: RollRecord) -> Visibility:
    """How much of `rec` the players may see now (a revealed roll is public)."""
    return roll_visibility(gm_only=rec.gm_only, hidden=is_hidden(rec.request, rec.result),
                           revealed=rec.revealed)


def roll_visibility(*, gm_only: bool, hidden: bool, revealed: bool = False) -> Visibility:
    """The same, for a roll not logged yet (typed in the tray, waiting for a choice)."""
    if revealed:
        return Visibility.PUBLIC
    if gm_only:
        return Visibility.SECRET
    return Visibility.DIFFICULTY_HIDDEN if hidden else Visibility.PUBLIC


def line_visibility(text: str, *, gm_only: bool) -> Visibility:
    """What the players may see of a line that does not read (yet): its words say whether it is
    secret (`mj`, `caché`), so that an error quoting it gives nothing away."""
    from .quickroll.grammar import GM_WORDS, HIDDEN_WORDS
    from .quickroll.text import fold

    words = set(fold(text).split())
    return roll_visibility(gm_only=gm_only or bool(words & GM_WORDS), hidden=bool(words & HIDDEN_WORDS))


def is_hidden(*mappings: Mapping[str, Any] | None) -> bool:
    """A request or result that says its difficulty is secret."""
    return any(bool(m.get("hidden")) for m in mappings if m)


def is_difficulty_field(name: str, secret: frozenset[str] | None = None) -> bool:
    """`name` tells a hidden difficulty: one of the `secret` fields the system declares
    (`difficulty_fields`, its table's `difficulty_field`, `luck`); for a system unknown here
    (None), a field whose name says difficulty, threshold, target, margin or malus."""
    if secret is not None:
        return name in secret
    return name in _ALWAYS_SECRET or name == "no_roll_needed" or bool(_DIFFICULTY_WORDS & set(name.split("_")))


def public_fields(fields: Mapping[str, Any], visible: Visibility) -> dict[str, Any]:
    """`fields` (a request, a result) as the players may see them."""
    if visible is Visibility.SECRET:
        return {}
    if visible is Visibility.PUBLIC:
        return dict(fields)
    secret = secret_fields(fields.get("system"))
    return {k: v for k, v in fields.items() if not is_difficulty_field(k, secret)}


def public_result(rec: RollRecord) -> dict:
    """The request and result fields a player may see, in one mapping (the result's value when
    both have a field): everything when public, all but the difficulty fields when the
    difficulty is hidden, nothing ({}) for a GM-only roll not revealed."""
    visible = visibility(rec)
    return public_fields({**rec.request, **rec.result}, visible)


def secret_difficulty_words() -> str:
    """What a view shows where a hidden difficulty would be, while players watch."""
    return "(" + _("secret difficulty") + ")"


def secret_fields(system_id: Any) -> frozenset[str] | None:
    """The fields a hidden difficulty keeps from the players in that system's rolls (None: a
    system this copy does not know)."""
    from gmscreen.rules import RequestError, get_system

    if not isinstance(system_id, str):
        return None
    try:
        system = get_system(system_id)
    except (RequestError, KeyError):
        return None
    return system.difficulty_fields | {system.difficulty_field} | _ALWAYS_SECRET
