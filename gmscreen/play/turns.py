"""Turn order rules: ending a turn, starting a round, condition and countdown ticks, the
records (`TurnTicks`) that let `p` give ticks back, and the fair sort.

Each function adds its operations to an `EditBuilder` (one undoable change) and says what
happened through `notices`; `gmscreen.play.encounter` decides when to call them. The state
they keep between turns (the tick records, a full sort left for the round's end) is part of
the encounter in the campaign, written by the same ops: it is saved, undone and redone with
the turn it belongs to, so `p` still gives ticks back after a restart.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from gmscreen.campaign.model import Entry, TickedCondition, TickedCountdown, TurnTicks
from gmscreen.campaign.textsafe import clean
from gmscreen.i18n import N_, _, ngettext
from .timers import countdown_progress
from .tracks import defeated_ids

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign
    from gmscreen.campaign.session import EditBuilder

TURN_LABEL = N_("End of turn: ")    # the change `n` makes; `p` right after it undoes it
# The label in every language it may have been written in (the journal outlives a switch).
_TURN_LABELS = ("End of turn: ", "Fin du tour : ")


def turn_label(name: str) -> str:
    """The label of the change `n` makes for `name`'s turn, in the language spoken."""
    return _(TURN_LABEL) + clean(name)


def is_turn_label(label: str | None) -> bool:
    """Whether the last change was an `n` (in whichever language it was labelled)."""
    if not label:
        return False
    return any(label.startswith(p) for p in (*_TURN_LABELS, _(TURN_LABEL)))
MAX_TICK_RECORDS = 200    # ends of turn remembered for `p` (see `TurnTicks`)

# `TurnTicks` (campaign.model): `p` right after `n` is an undo; further back (other changes
# made since) the undo stack cannot be used without undoing those too, so `p` puts back what
# the record of that `n` says, by id, only where the campaign still holds what the tick left
# (anything changed since, by the screen or by hand in the file, is kept).


def first_ready(entries: list[Entry], start: int = 0, out: frozenset[str] = frozenset()) -> int | None:
    """The index of the first entry from `start` that neither waits nor has acted, nor plays
    a character in `out` (the defeated: `tracks.defeated_ids`)."""
    for i in range(start, len(entries)):
        entry = entries[i]
        if not entry.delayed and not entry.acted and (entry.character is None or entry.character not in out):
            return i
    return None


def forget_turns(b: EditBuilder, campaign: Campaign) -> None:
    """A fight starts or ends: the tick records and a pending full sort of another fight go."""
    enc = campaign.encounter
    if enc.ticks:
        b.set(("encounter", "ticks"), [])
    if enc.resort_at is not None:
        b.set(("encounter", "resort_at"), None)


def start_fight(b: EditBuilder, campaign: Campaign) -> None:
    """Round 1: acted flags reset, the first one ready plays."""
    enc = campaign.encounter
    forget_turns(b, campaign)
    b.set(("encounter", "round"), 1)
    for i, entry in enumerate(enc.entries):
        if entry.acted:
            b.set(("encounter", "entries", i, "acted"), False)
    first = first_ready(enc.entries, 0, defeated_ids(campaign))
    b.set(("encounter", "turn"), first if first is not None else 0)


def new_round(b: EditBuilder, campaign: Campaign, notices: list[str],
              ticks: TurnTicks | None = None, ended_by_wait: bool = False) -> None:
    """Round + 1: acted flags reset, declarations cleared, countdowns tick; the order is
    sorted now if a mid-round sort (`s`, `I`) left the full order for the next round
    (`encounter.resort_at`: the round it was made in). Those still waiting are named (they
    keep waiting into the new round: `w` brings them back when they choose), and when a
    `w` ended the round (`ended_by_wait`) the notice says so."""
    enc = campaign.encounter
    resort_at = enc.resort_at
    waiting = [clean(e.name) for e in enc.entries if e.delayed]
    b.set(("encounter", "round"), enc.round + 1)
    for i, entry in enumerate(enc.entries):
        if entry.acted:
            b.set(("encounter", "entries", i, "acted"), False)
    if ticks is not None:
        ticks.declared = copy.deepcopy(list(enc.declared))
    for j in range(len(enc.declared) - 1, -1, -1):
        b.delete(("encounter", "declared"), j)
    for j, timer in enumerate(campaign.timers):
        if timer.kind == "countdown" and timer.status == "running" and timer.rounds is not None:
            rounds, status = timer.rounds, timer.status      # before the ops change them in place
            left = max(rounds - 1, 0)
            b.set(("timers", j, "rounds"), left)
            if left == 0:
                b.set(("timers", j, "status"), "done")
                notices.append(_("Countdown over: {label}").format(label=clean(timer.label)))
            if ticks is not None:
                ticks.countdowns.append(TickedCountdown(timer.id, rounds, status, left,
                                                        "done" if left == 0 else status))
    if resort_at == enc.round - 1:      # the round that just ended (round already + 1)
        before = [e.id for e in enc.entries]
        ordered = sorted(enc.entries, key=lambda e: -e.initiative)
        if [e.id for e in ordered] != before:
            b.set(("encounter", "entries"), ordered)
            notices.append(_("New initiative order"))
            if ticks is not None:
                ticks.order_before, ticks.order_after = before, [e.id for e in ordered]
    first = first_ready(enc.entries, 0, defeated_ids(campaign))
    b.set(("encounter", "turn"), first if first is not None else 0)
    notices.insert(0, _("Round {n}").format(n=enc.round))
    if waiting:
        notices.insert(1, waited_notice(waiting, enc.round - 1, ended_by_wait))


def waited_notice(names: list[str], round_ended: int, ended_by_wait: bool) -> str:
    """Who waited through the round that ended without coming back (never carried silently)."""
    if ended_by_wait:
        text = ngettext("Round {n} ends, nobody else to play: {names} waits (w: come back)",
                        "Round {n} ends, nobody else to play: {names} wait (w: come back)", len(names))
    else:
        text = ngettext("Waited the whole round {n} and still waits: {names}",
                        "Waited the whole round {n} and still wait: {names}", len(names))
    return text.format(n=round_ended, names=", ".join(names))


def tick_conditions(b: EditBuilder, campaign: Campaign, char_id: str | None,
                    notices: list[str], ticks: TurnTicks | None = None) -> None:
    """End of the bearer's turn: durations go down; a condition at its last round expires."""
    if not char_id:
        return
    for i, ch in enumerate(campaign.characters):
        if ch.id != char_id:
            continue
        for j in range(len(ch.conditions) - 1, -1, -1):
            cond = ch.conditions[j]
            if cond.rounds is None:
                continue
            before = copy.deepcopy(cond)
            if cond.rounds <= 1:
                b.delete(("characters", i, "conditions"), j)
                notices.append(_("{condition} expires: {name}").format(condition=clean(cond.name),
                                                                        name=clean(ch.name)))
                after = None
            else:
                after = cond.rounds - 1
                b.set(("characters", i, "conditions", j, "rounds"), after)
            if ticks is not None:
                ticks.conditions.append(TickedCondition(ch.id, j, before, after))
        return


def end_turn(b: EditBuilder, campaign: Campaign, turn: int, notices: list[str],
             ticks: TurnTicks | None = None) -> None:
    """The actor at `turn` has acted: their conditions tick, the next one ready plays, or a
    new round starts when nobody is left to play in this one."""
    enc = campaign.encounter
    current = enc.entries[turn]
    if not current.delayed:
        b.set(("encounter", "entries", turn, "acted"), True)
        tick_conditions(b, campaign, current.character, notices, ticks)
    pass_turn(b, campaign, turn + 1, notices, ticks)


def pass_turn(b: EditBuilder, campaign: Campaign, start: int, notices: list[str],
              ticks: TurnTicks | None = None, ended_by_wait: bool = False) -> None:
    """The turn goes to the first one ready from `start` (not one who waits or has acted),
    or, nobody being left to play this round, a new round starts."""
    following = first_ready(campaign.encounter.entries, start, defeated_ids(campaign))
    if following is None:
        new_round(b, campaign, notices, ticks, ended_by_wait)
    else:
        b.set(("encounter", "turn"), following)


def wait(b: EditBuilder, campaign: Campaign, index: int, notices: list[str],
         ticks: TurnTicks | None = None) -> None:
    """The entry at `index` waits (`w`); on their turn the next one ready plays, or, everyone
    left waiting, the round ends and says why. A round it ends is recorded for `p`."""
    enc = campaign.encounter
    round_before = enc.round
    b.set(("encounter", "entries", index, "delayed"), True)
    if enc.round > 0 and index == enc.turn:
        pass_turn(b, campaign, index + 1, notices, ticks, ended_by_wait=True)
        if ticks is not None and enc.round != round_before:     # a new round: kept for `p`
            remember(b, campaign, ticks)


def remember(b: EditBuilder, campaign: Campaign, ticks: TurnTicks) -> None:
    """Keep what an end of turn ticked, for `p` further back (see TurnTicks): the last op of
    the change that made the turn, so that undoing the turn forgets it too."""
    enc = campaign.encounter
    ticks.round_after = enc.round
    ticks.following = enc.entries[enc.turn].id if 0 <= enc.turn < len(enc.entries) else None
    b.insert(("encounter", "ticks"), None, ticks)
    for _extra in range(len(enc.ticks) - MAX_TICK_RECORDS):
        b.delete(("encounter", "ticks"), 0)


def ticks_before(records: list[TurnTicks], round_now: int, current: str, crossing: bool) -> TurnTicks | None:
    """The latest end of turn that led to this round and actor from the step `p` goes back to."""
    for ticks in reversed(records):
        if (ticks.round_after == round_now and ticks.following == current
                and ticks.round == round_now - (1 if crossing else 0)):
            return ticks
    return None


def give_back(b: EditBuilder, campaign: Campaign, ticks: TurnTicks,
              notices: list[str], kept: list[str]) -> None:
    """Put back what `ticks` took, by id, where the campaign still holds what it left."""
    chars = {ch.id: i for i, ch in enumerate(campaign.characters)}
    # Expired conditions first, at their old places in order, then the rounds of the others.
    for tick in sorted(ticks.conditions, key=lambda t: (t.after is not None, t.index)):
        index, before, after = tick.index, tick.before, tick.after
        ci = chars.get(tick.character)
        if ci is None:
            kept.append(clean(before.name))
            continue
        ch = campaign.characters[ci]
        if after is None:
            if any(c.name == before.name for c in ch.conditions):
                kept.append(f"{clean(before.name)} ({clean(ch.name)})")
                continue
            b.insert(("characters", ci, "conditions"), min(index, len(ch.conditions)), before)
            notices.append(_("{condition} is back: {name}").format(condition=clean(before.name),
                                                                     name=clean(ch.name)))
            continue
        conds = ch.conditions
        j = index if index < len(conds) and conds[index].name == before.name and conds[index].rounds == after \
            else next((k for k, c in enumerate(conds) if c.name == before.name and c.rounds == after), None)
        if j is None:
            kept.append(f"{clean(before.name)} ({clean(ch.name)})")
            continue
        b.set(("characters", ci, "conditions", j, "rounds"), before.rounds)
    timers = {t.id: j for j, t in enumerate(campaign.timers)}
    for countdown in ticks.countdowns:
        rounds, status = countdown.rounds, countdown.status
        j = timers.get(countdown.timer)
        timer = campaign.timers[j] if j is not None else None
        if timer is None or timer.rounds != countdown.rounds_after or timer.status != countdown.status_after:
            kept.append(clean(timer.label) if timer is not None else clean(countdown.timer))
            continue
        b.set(("timers", j, "rounds"), rounds)
        if status != countdown.status_after:
            b.set(("timers", j, "status"), status)
            notices.append(_("{label}: again {progress}").format(label=clean(timer.label),
                                                                  progress=countdown_progress(timer)))
    enc = campaign.encounter
    present = {e.id for e in enc.entries}
    for decl in ticks.declared:
        if decl.entry in present and not any(d.entry == decl.entry for d in enc.declared):
            b.insert(("encounter", "declared"), None, copy.deepcopy(decl))


def sort_fairly(b: EditBuilder, campaign: Campaign) -> bool:
    """Sort by initiative without anyone skipping a turn or playing twice in the round.

    Before the fight (round 0) or between rounds (round under way but nobody has acted
    yet in it) the whole order is sorted and the first one ready plays. Mid-round the
    round keeps going as it was: those who have acted stay marked and keep their places,
    the current actor comes right after them and stays current, and only those still to
    play this round (waiting ones included) are sorted, after the current actor. The
    whole order is sorted when the next round starts (`new_round`). Returns True when
    that full sort is left for the next round (then `encounter.resort_at` says so).
    """
    enc = campaign.encounter
    entries = list(enc.entries)
    ids = [e.id for e in entries]
    by_initiative = sorted(entries, key=lambda e: -e.initiative)
    mid_round = enc.round > 0 and 0 <= enc.turn < len(entries) and any(e.acted for e in entries)
    if not mid_round:
        if [e.id for e in by_initiative] != ids:
            b.set(("encounter", "entries"), by_initiative)
        if enc.round > 0:
            first = first_ready(enc.entries, 0, defeated_ids(campaign))
            turn = first if first is not None else 0
            if turn != enc.turn:
                b.set(("encounter", "turn"), turn)
        return False
    current = entries[enc.turn]
    played = [e for e in entries if e.acted and e is not current]
    to_come = sorted((e for e in entries if not e.acted and e is not current), key=lambda e: -e.initiative)
    ordered = [*played, current, *to_come]
    if [e.id for e in ordered] != ids:
        b.set(("encounter", "entries"), ordered)
    if len(played) != enc.turn:
        b.set(("encounter", "turn"), len(played))
    deferred = [e.id for e in ordered] != [e.id for e in by_initiative]
    if deferred and enc.resort_at != enc.round:
        b.set(("encounter", "resort_at"), enc.round)
    return deferred
