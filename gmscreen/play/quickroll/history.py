"""The quick-roll history rebuilt from the roll log, so that ↑ and `.` survive a restart."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable

from .grammar import People, parse

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign, RollRecord

    from ..game import GameTable


def history_from_log(records: Iterable[RollRecord], campaign: Campaign, limit: int,
                     pause: Callable[[], object] | None = None, *, game: GameTable) -> list[str]:
    """The newest `limit` lines of the log that the quick-roll line can take, oldest first, a line
    repeated in a row kept once (as typing keeps it). Other panes log descriptions, not lines
    ("initiative 1d10", "Guérison · test 3"), and a line the campaign no longer understands (a
    character gone) would only fail again: both are left out. `records` is oldest first; `game` reads them (the
    campaign's, as its caller holds it).
    `pause`, called before each line is read, may hold the thread a moment (a key answered)."""
    lines: list[str] = []
    understood: dict[str, bool] = {}
    people = People(campaign)           # once: rebuilt a line, 500 names cost seconds
    for record in reversed(list(records)):
        line = record.line
        if lines and lines[-1] == line:
            continue
        if line not in understood:
            if pause is not None:
                pause()
            try:
                parse(line, campaign, game=game, people=people)
                understood[line] = True
            except Exception:  # noqa: BLE001 - a refused (or damaged) line is simply left out
                understood[line] = False
        if understood[line]:
            lines.append(line)
            if len(lines) >= limit:
                break
    lines.reverse()
    return lines
