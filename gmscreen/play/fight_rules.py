"""The FightRules part of a game: what a fight does in one system: turn rules, leaving, opposed and extended tests.

The base class is every default; a game overrides only what its rules change."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign
    from gmscreen.rules._base import System

    from .exchange import SheetGain, TimedTest, TrackSpec


class FightRules:
    """Defaults shared by every game."""

    # ---- declared actions: acting several times in one round

    def simultaneous_malus(self, count: int) -> int:
        """The malus each of `count` actions declared for one round takes (0: the game has none)."""
        return 0

    def declaration_note(self) -> str:
        """A line under the declaration dialog saying the game's rule on several actions ("": none)."""
        return ""

    # ---- timers: the test timers a game allows besides countdowns

    def timed_tests(self) -> tuple[TimedTest, ...]:
        """The extended tests / oppositions this game's rules run over several rolls, as timers
        the GM starts from the initiative pane (`t`). None by default: countdowns only."""
        return ()

    def timed_test(self, kind: str) -> TimedTest | None:
        """The test timer making timers of `kind` ("extended", "opposition"…), if this game has one."""
        return next((t for t in self.timed_tests() if t.kind == kind), None)

    # ---- damage tracks: counting hits at the table

    def default_track(self, system: System) -> TrackSpec:
        """The track `T` adds by default (`gmscreen.play.tracks`): a generic one the GM names;
        a game whose rules count wounds gives its own, bound to the sheet value they use."""
        from gmscreen.i18n import _

        from .exchange import TrackSpec

        return TrackSpec(_("Hits"), 10)

    # ---- between sessions: what a new session gives back by the rules

    def session_gains(self, campaign: Campaign) -> list[SheetGain]:
        """The sheet values a new session sets (each a character's index, path and value): none by default."""
        return []

    def session_rule(self, system: System, campaign: Campaign, gains: list[SheetGain]) -> str:
        """What the rules do between sessions, in words, for the GM to confirm a new session."""
        from gmscreen.i18n import _

        return _("{game}: no rule between sessions; only the session's number changes.").format(game=system.game)

    def session_notice(self, campaign: Campaign, gains: list[SheetGain]) -> str | None:
        """The notice once the new session has started and `gains` are given (None: nothing to say)."""
        return None
