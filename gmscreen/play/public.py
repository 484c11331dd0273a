"""What the players may see of a roll: the one rule the player view and the GM's masks share.

A GM-only roll shows nothing until revealed; a roll with a hidden difficulty shows its dice
and outcome but nothing that names the difficulty (or lets it be worked out, the margin).
"""

from __future__ import annotations

import enum
from typing import Any

from gmscreen.campaign.model import RollRecord

# Result keys that name the difficulty, or give it away with the total.
_DIFFICULTY_WORDS = ("difficulty", "threshold", "margin")


class Visibility(enum.Enum):
    PUBLIC = "public"
    DIFFICULTY_HIDDEN = "difficulty_hidden"
    SECRET = "secret"


def visibility(rec: RollRecord) -> Visibility:
    """Revealed: public; GM-only: secret; a hidden difficulty: all but the difficulty."""
    if rec.revealed:
        return Visibility.PUBLIC
    if rec.gm_only:
        return Visibility.SECRET
    if rec.result.get("hidden"):
        return Visibility.DIFFICULTY_HIDDEN
    return Visibility.PUBLIC


def public_result(rec: RollRecord) -> dict[str, Any]:
    """The result fields a player may see: {} when secret, no difficulty fields when hidden."""
    seen = visibility(rec)
    if seen is Visibility.SECRET:
        return {}
    result = dict(rec.result)
    if seen is Visibility.DIFFICULTY_HIDDEN:
        result = {k: v for k, v in result.items() if not any(w in k for w in _DIFFICULTY_WORDS)}
    return result
