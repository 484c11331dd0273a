"""The players' view of a running session: what the table may see, read from the GM's files.

`CampaignWatch` follows a campaign another process (the GM's screen, `gmscreen line`,
`gmscreen turn`) is playing: it looks at the files' signatures (a `stat` each) and reads a
file again only when it changed: the state file plus the journal of the changes since its
last save (replayed as an opening does), and the roll log (read once, then caught up).
It never writes a file, never creates one and never takes the campaign's lock.

`player_state` turns what it holds into a `PlayerState`: the round, the turn order with the
current actor, public conditions and countdowns, running extended tests and the recent
rolls, each through `gmscreen.play.public` (a GM-only roll shows nothing, a hidden
difficulty shows no difficulty) and without the characters the GM marked hidden. No Textual.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Sequence

from gmscreen.campaign.errors import CampaignError, Problem
from gmscreen.campaign.journal import Journal, journal_path
from gmscreen.campaign.lock import lock_path
from gmscreen.campaign.model import Campaign, RollRecord
from gmscreen.campaign.rolllog import RollLog, rolls_path
from gmscreen.campaign.recovery import replay_journal
from gmscreen.campaign.store import current_signature, load_campaign
from gmscreen.campaign.textsafe import clean
from gmscreen.i18n import _, os_reason
from gmscreen.rules import RequestError, System, get_system
from gmscreen.rules.records import record

from .logline import PLAIN, hhmm
from .public import PublicEntry, PublicTimer, hidden_ids, public_line, public_order, public_timer

RECENT_ROLLS = 30           # rolls a player view keeps (the newest on top of the screen)
POLL_SECONDS = 0.3          # how often the view looks at the files (updates within 1 s)
PLAYED_FOR = 2.0            # a lock held this long is a GM playing, not one `gmscreen line` or `turn`

Signature = tuple[int, int, int, int] | None


# ---------------------------------------------------------------- what players see


@record(frozen=True)
class PublicRoll:
    """One roll as players see it; `secret`: only the mark of a GM's secret roll."""

    seq: int
    time: str
    who: str
    test: str                           # the line typed ("" when it would tell a hidden difficulty)
    dice: str
    outcome: str                        # in the game's words
    detail: str
    tone: str                           # logline's GOOD, BAD, CRIT, FUMBLE, PLAIN
    secret: bool = False


@record(frozen=True)
class PlayerState:
    name: str
    game: str
    session: int
    round: int                          # 0: no fight under way
    current: str | None                 # the current actor's name (None: nobody's turn, or hidden)
    order: tuple[PublicEntry, ...]
    timers: tuple[PublicTimer, ...]
    rolls: tuple[PublicRoll, ...]       # oldest first, the RECENT_ROLLS newest


def public_timers(campaign: Campaign) -> tuple[PublicTimer, ...]:
    """Countdowns and extended tests as players may see them (`public.public_timer`), read by
    the campaign's game (found here: the player view is an edge the engines are driven from)."""
    from .tables import table_for

    game = table_for(campaign.system)
    return tuple(t for t in (public_timer(campaign, timer, game=game) for timer in campaign.timers) if t is not None)


def public_roll(record: RollRecord, campaign: Campaign | None, *, show_secret: bool = False,
                ascii: bool = False) -> PublicRoll | None:
    """`record` as players may see it (`public.public_line`); None when they see nothing of it
    (a GM-only roll, unless the GM chose to show its mark, `show_secret`). The player view is
    an edge: it finds the campaign's game that reads the line."""
    from .tables import campaign_table

    line = public_line(record, campaign, ascii=ascii, game=campaign_table(campaign))
    if line is None:
        if not show_secret:
            return None
        return PublicRoll(record.seq, hhmm(record.time), "", "", "", _("GM's secret roll"), "", PLAIN, True)
    return PublicRoll(line.seq, line.time, line.who, line.test, line.dice, line.outcome, line.detail, line.tone)


def player_state(campaign: Campaign, records: Sequence[RollRecord], *, show_secret: bool = False,
                 ascii: bool = False, recent: int = RECENT_ROLLS) -> PlayerState:
    """Everything a player view shows, from the campaign and its roll log."""
    try:
        system: System | None = get_system(campaign.system)
    except RequestError:
        system = None
    order, current = public_order(campaign)
    rolls: list[PublicRoll] = []
    for record in reversed(records):
        if len(rolls) >= recent:
            break
        shown = public_roll(record, campaign, show_secret=show_secret, ascii=ascii)
        if shown is not None:
            rolls.append(shown)
    rolls.reverse()
    return PlayerState(clean(campaign.name), system.game if system is not None else clean(campaign.system),
                       campaign.session, campaign.encounter.round, current, order, public_timers(campaign),
                       tuple(rolls))


# ---------------------------------------------------------------- following the GM's files


def load_played(path: Path) -> Campaign:
    """The campaign as the GM's session holds it now: the state file plus the journal of the
    changes since its last save, replayed as an opening would (never written)."""
    campaign = load_campaign(path)
    try:
        journal = Journal.load(journal_path(path))
    except CampaignError:
        return campaign             # a journal being replaced or damaged: the saved state meanwhile
    replay_journal(campaign, journal)           # a journal that does not fit: none of it
    return campaign


class CampaignWatch:
    """A campaign followed from its files, for reading only (see the module's doc)."""

    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.path = Path(path).absolute()
        self.campaign: Campaign | None = None
        self.log: RollLog | None = None
        self.problem: str = ""          # why the last look could not read a file (the last good state stays)
        self.replaced: str = ""         # another campaign in the file since the view opened: said so
        self.left = False               # the GM let the campaign go (closed it, or opened another)
        self._held_since: float | None = None   # when the lock was first seen, this time (None: not held)
        self._clock = clock
        self._looked = False            # the first look is done
        self._state_signatures: tuple[Signature, Signature] | None = None
        self._rolls_signature: Signature | object = object()

    @property
    def records(self) -> Sequence[RollRecord]:
        return self.log.records if self.log is not None else []

    def open(self) -> None:
        """The first reading; CampaignError when the campaign cannot be read (not a campaign,
        not valid, a system unknown)."""
        if not self.path.is_file():
            load_campaign(self.path)        # says what is wrong (no such file, not readable)
            raise CampaignError([Problem(str(self.path), "", _("not a regular file: expected a campaign"))])
        self.poll(first=True)

    def poll(self, first: bool = False) -> bool:
        """Read again what changed since the last look; True when something did."""
        changed = False
        state = (current_signature(self.path), current_signature(journal_path(self.path)))
        if state != self._state_signatures:
            try:
                campaign = load_played(self.path)
                get_system(campaign.system)
            except (CampaignError, RequestError) as exc:
                if first:
                    if isinstance(exc, RequestError):
                        raise CampaignError([Problem(str(self.path), "system", exc.reason)]) from None
                    raise
                self.problem = _problem_text(exc)
            else:
                if self.campaign is not None and (campaign.system, campaign.name) != (self.campaign.system,
                                                                                     self.campaign.name):
                    self.replaced = _("the campaign file now holds another campaign: {name} ({game}); each roll "
                                    "keeps its own game's words").format(name=clean(campaign.name),
                                                                         game=_game(campaign.system))
                self.campaign, self._state_signatures, self.problem = campaign, state, ""
                changed = True
        changed = self._follow_rolls() or changed
        return self._follow_gm() or changed

    def _follow_gm(self) -> bool:
        """Whether someone plays the campaign: its lock file is there while the GM's screen (or a
        command) holds it, and goes when they let go. A view that saw a GM play it (the lock
        there when the view opened, or for PLAYED_FOR seconds at least: `gmscreen line` holds
        it a moment) and then saw it go says so (`left`): the GM closed the campaign or opened
        another, and what the view shows is where it was left."""
        held = lock_path(self.path).exists()
        left = self.left
        if held:
            if self._held_since is None:        # held already when the view opened: played for long
                self._held_since = self._clock() if self._looked else float("-inf")
            self.left = False
        elif self._held_since is not None:
            self.left = self._clock() - self._held_since >= PLAYED_FOR
            self._held_since = None
        self._looked = True
        return self.left != left

    @property
    def notice(self) -> str:
        """What the view says of what changed under it ("" when nothing)."""
        words = [self.replaced] if self.replaced else []
        if self.left:
            words.append(_("the GM is no longer playing this campaign (closed, or another one opened): "
                           "this is where it was left"))
        return " · ".join(words)

    def _follow_rolls(self) -> bool:
        path = rolls_path(self.path)
        signature = current_signature(path)
        if signature == self._rolls_signature:
            return False
        try:
            if signature is None:
                log = RollLog(path)             # no roll yet: nothing to read, nothing created
            elif (self.log is None or not self.log.records or not isinstance(self._rolls_signature, tuple)
                  or self._rolls_signature[:2] != signature[:2] or signature[2] < self._rolls_signature[2]):
                log = RollLog.load_recent(path)  # first look, or another file now: its tail
            else:
                log = self.log
                log.read_appended()             # only what was appended since, read-only
        except (CampaignError, OSError) as exc:
            self.problem = _problem_text(exc)
            return False
        if self.log is not None and self.log is not log:
            self.log.close()
        self.log, self._rolls_signature = log, signature
        return True

    def state(self, *, show_secret: bool = False, ascii: bool = False) -> PlayerState | None:
        if self.campaign is None:
            return None
        return player_state(self.campaign, self.records, show_secret=show_secret, ascii=ascii)

    def close(self) -> None:
        if self.log is not None:
            self.log.close()
            self.log = None


def _game(system_id: str) -> str:
    try:
        return get_system(system_id).game
    except RequestError:
        return clean(system_id)


def _problem_text(exc: Exception) -> str:
    if isinstance(exc, CampaignError) and exc.problems:
        return str(exc.problems[0])
    if isinstance(exc, OSError):
        return f"{exc.filename or ''}: {os_reason(exc)}"
    return str(exc)


__all__ = ["CampaignWatch", "POLL_SECONDS", "PlayerState", "PublicEntry", "PublicRoll", "PublicTimer", "hidden_ids",
           "load_played", "player_state", "public_order", "public_roll", "public_timers"]
