"""A roll log longer than the tail the screen reads at start, written as gmscreen writes it."""

from __future__ import annotations

from pathlib import Path

from gmscreen.campaign.model import RollRecord
from gmscreen.campaign.rolllog import _HEADER, format_roll, rolls_path
from gmscreen.rules import resolve

OLD_WHO = "Ancienne"         # who made rolls 1-3 only: found by scrolling back, searching
GONE_LINE = "disparu tir sd2"   # names a character no longer in the campaign


def write_long_log(campaign: Path, rolls: int, *, session_rolls: int = 100) -> Path:
    """`rolls` MIR rolls: 1-3 by OLD_WHO (roll 2 GM-only), one in three naming a removed character,
    the others `loriane eloquence sd3`; 100 a session."""
    path = rolls_path(campaign)
    request = {"system": "mir", "kind": "simple", "pool": 5, "difficulty": 3}
    result = {k: v for k, v in resolve(dict(request), seed=1).items() if v is not None}
    parts = [_HEADER.format(campaign=campaign.name)]
    for seq in range(1, rolls + 1):
        if seq <= 3:
            who, line = OLD_WHO, f"ancienne{seq} tir sd3"
        elif seq % 3 == 0:
            who, line = "Disparu", GONE_LINE
        else:
            who, line = "Loriane", "loriane eloquence sd3"
        parts.append(format_roll(RollRecord(seq, "2025-03-01T21:04:11+01:00", 1 + seq // session_rolls, who, line,
                                            request, result, seq == 2, False, seq)))
    path.write_text("".join(parts), encoding="utf-8")
    return path
