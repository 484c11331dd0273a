"""The encounter as the GM runs it: joining the fight (ids for new entries and characters, the
campaign's initiative roll, the insertion of an entry at its place), moving the turn (`n`,
`p`) and ending the fight.

The roster (`i`), the initiative pane and the command line (`gmscreen turn`) all call these
on the campaign session; none needs a widget. A move goes through the one change path
(`change(label, build)`, by default `session.edit`), so it is journalled, saved and undone
like any other change, tick records included (see `turns`).
"""

from __future__ import annotations

import random
import re
import unicodedata
from dataclasses import field
from typing import TYPE_CHECKING, Any, Callable

from gmscreen import rules
from gmscreen.campaign.model import Entry
from gmscreen.rules.expr import parse_expression

from gmscreen.campaign.textsafe import clean
from gmscreen.i18n import _
from gmscreen.rules.records import record
from .tracks import defeated_ids
from .turns import TURN_LABEL, TurnTicks, is_turn_label, turn_label, end_turn, forget_turns, give_back, remember, start_fight, ticks_before, wait

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign
    from gmscreen.campaign.session import CampaignSession, EditBuilder

    from .writes import RollTable

Build = Callable[["EditBuilder"], None]
ChangeFn = Callable[[str, Build], bool]     # makes one undoable change; False: refused (and said why)

MAX_ID = 64
_SLUG_JUNK = re.compile(r"[^a-z0-9_-]+")


def current_character(campaign: Campaign) -> str | None:
    """The character whose turn it is in a fight under way (None between fights, or when the
    current entry is an ad-hoc name): whom a line without a name is about."""
    enc = campaign.encounter
    if enc.round > 0 and 0 <= enc.turn < len(enc.entries):
        return enc.entries[enc.turn].character
    return None


def slugify(text: str, fallback: str = "x") -> str:
    """An id for the file: ASCII, lower case, dashes ('Frère Anselme' -> 'frere-anselme')."""
    folded = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode().lower()
    slug = _SLUG_JUNK.sub("-", folded).strip("-_")[: MAX_ID - 4]
    return slug or fallback


def unique_slug(base: str, taken: set[str]) -> str:
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def roll_initiative(table: RollTable, session: CampaignSession, who: str) -> int | None:
    """Roll the campaign's initiative expression and log it through `table` (the live
    `Table`, or a bare `TableWrites`); None (the GM told) when it cannot."""
    text = session.campaign.initiative.strip()
    try:
        expr = parse_expression(text)
    except rules.RequestError as exc:
        table.warn(_("the campaign's initiative {text}: {reason}").format(text=repr(text), reason=exc.reason))
        return None
    seed = random.SystemRandom().getrandbits(63)
    total, faces = expr.roll(random.Random(seed))
    table.record_roll(who=who, line=f"initiative {expr}", request={"expression": str(expr)},
                    result={"expression": str(expr), "total": total, "dice": faces}, seed=seed)
    return total


def insertion_index(entries: list[Entry], initiative: int) -> int:
    """Where an entry goes in a descending order: after every entry with as much or more."""
    for i, entry in enumerate(entries):
        if entry.initiative < initiative:
            return i
    return len(entries)


# ---------------------------------------------------------------- moving the turn


@record
class TurnMove:
    """What `n` or `p` did, for the screen or the command line to say."""

    moved: bool = False             # a change was made (or, `undone`, the last turn undone)
    notices: list[str] = field(default_factory=list)   # a new round, expiries, ticks given back
    problem: str = ""               # why nothing moved ("": it moved, or the change was refused)
    kept: list[str] = field(default_factory=list)      # `p`: changed since, left as it is
    undone: bool = False            # `p` right after `n`: that turn was undone


def session_change(session: CampaignSession) -> ChangeFn:
    """The plain change path: one `session.edit` (errors are raised to the caller)."""

    def change(label: str, build: Build) -> bool:
        with session.edit(label) as b:
            build(b)
        return True

    return change


def next_turn(session: CampaignSession, change: ChangeFn | None = None) -> TurnMove:
    """The current actor has acted: their conditions tick, the next one plays, a new round
    starts when nobody is left (`n`). Round 0: the fight starts. The ticks are recorded in the
    encounter, in the same change, for `previous_turn`."""
    change = change or session_change(session)
    campaign = session.campaign
    enc = campaign.encounter
    if not enc.entries:
        return TurnMove(problem=_("nobody in the initiative order: a to add"))
    if all(e.delayed for e in enc.entries):
        return TurnMove(problem=_("everyone is waiting: w on a row to bring it back"))
    out = defeated_ids(campaign)
    if out and all(e.delayed or e.character in out for e in enc.entries):
        return TurnMove(problem=_("nobody left to play: everyone waits or is defeated (a hit healed brings one back)"))
    if enc.round == 0:
        started = bool(change(_("Start of the fight"), lambda b: start_fight(b, campaign)))
        return TurnMove(moved=started, notices=[_("Round {n}").format(n=1)] if started else [])
    turn = min(enc.turn, len(enc.entries) - 1)
    ticks = TurnTicks(round=enc.round, actor=enc.entries[turn].id)
    notices: list[str] = []

    def build(b: EditBuilder) -> None:
        end_turn(b, campaign, turn, notices, ticks)
        remember(b, campaign, ticks)

    moved = bool(change(turn_label(enc.entries[turn].name), build))
    return TurnMove(moved=moved, notices=notices if moved else [])


def wait_turn(session: CampaignSession, index: int, change: ChangeFn | None = None) -> TurnMove:
    """The entry at `index` waits (`w`): on their turn the next one ready plays; when everyone
    left to play waits, the round ends and the notices say so and name them (`turns.wait`)."""
    change = change or session_change(session)
    campaign = session.campaign
    enc = campaign.encounter
    if not 0 <= index < len(enc.entries) or enc.entries[index].delayed:
        return TurnMove(problem=_("nobody to make wait on this row"))
    ticks = TurnTicks(round=enc.round, actor=None)      # kept if waiting starts a new round
    notices: list[str] = []
    moved = bool(change(_("Waits: {name}").format(name=clean(enc.entries[index].name)),
                        lambda b: wait(b, campaign, index, notices, ticks)))
    return TurnMove(moved=moved, notices=notices if moved else [])


def previous_turn(session: CampaignSession, change: ChangeFn | None = None,
                  undo: Callable[[], Any] | None = None) -> TurnMove:
    """Back to the actor before (a mistake at the table: `p`).

    Right after `n`, going back is exactly undoing that turn (`undo`, by default
    `session.undo`). Further back, other changes may have been made since, so it cannot be
    an undo: the order moves back one step and what the `n` of that step ticked (its actor's
    condition rounds, an expired condition, and across a round the countdowns, the
    declarations and a deferred sort) is put back from what that `n` recorded in the
    encounter (`TurnTicks`), where nothing changed it since; the rest is listed in `kept`.
    """
    change = change or session_change(session)
    if is_turn_label(session.last_label):
        if not (undo or session.undo)():
            return TurnMove()               # the undo was refused, and said why: nothing moved
        return TurnMove(moved=True, undone=True)
    campaign = session.campaign
    enc = campaign.encounter
    if enc.round == 0 or not enc.entries:
        return TurnMove(problem=_("no fight under way"))
    turn = min(enc.turn, len(enc.entries) - 1)
    out = defeated_ids(campaign)
    previous = next((i for i in range(turn - 1, -1, -1)
                     if not enc.entries[i].delayed and enc.entries[i].character not in out), None)
    if previous is None and enc.round <= 1:
        return TurnMove(problem=_("start of the fight: no turn before"))
    crossing = previous is None
    ticks = ticks_before(enc.ticks, enc.round, enc.entries[turn].id, crossing)
    by_id = {e.id: e for e in enc.entries}
    order = [e.id for e in enc.entries]
    if (crossing and ticks is not None and ticks.order_before and ticks.order_after == order
            and sorted(ticks.order_before) == sorted(order)):
        order = ticks.order_before          # the sort the new round made is taken back too
    if crossing:
        target_id = next((i for i in reversed(order) if not by_id[i].delayed and by_id[i].character not in out),
                         order[-1])
    else:
        target_id = enc.entries[previous].id   # type: ignore[index]
    if ticks is not None and ticks.actor not in (None, target_id):
        ticks = None                        # the order was changed since: not that step
    notices: list[str] = []
    kept: list[str] = []

    def build(b: EditBuilder) -> None:
        if order != [e.id for e in enc.entries]:
            b.set(("encounter", "entries"), [by_id[i] for i in order])
        if crossing:
            b.set(("encounter", "round"), enc.round - 1)
            for i, e in enumerate(enc.entries):
                if not e.delayed and not e.acted:
                    b.set(("encounter", "entries", i, "acted"), True)
        target = next(i for i, e in enumerate(enc.entries) if e.id == target_id)
        b.set(("encounter", "entries", target, "acted"), False)
        b.set(("encounter", "turn"), target)
        if ticks is not None:
            give_back(b, campaign, ticks, notices, kept)

    if not change(_("Previous turn"), build):
        return TurnMove()
    return TurnMove(moved=True, notices=notices, kept=kept)


def end_fight(b: EditBuilder, campaign: Campaign) -> None:
    """The fight is over: the order and the declarations emptied, round 0 (timers stay)."""
    enc = campaign.encounter
    for j in range(len(enc.declared) - 1, -1, -1):
        b.delete(("encounter", "declared"), j)
    for j in range(len(enc.entries) - 1, -1, -1):
        b.delete(("encounter", "entries"), j)
    b.set(("encounter", "round"), 0)
    b.set(("encounter", "turn"), 0)
    forget_turns(b, campaign)
