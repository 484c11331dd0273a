"""Joining the fight: a whole group in one key (the party, the NPCs, the selected character),
and a combatant arriving mid-round whose slot has already passed.

Put at their place by initiative, a mid-round joiner lands behind the current actor and would
silently wait for the next round. So the GM chooses (`THIS_ROUND` or `NEXT_ROUND`): acting this round places the joiner right after the
current actor (the turn reaches them before the round ends) and leaves the full sort for the
round's end (`encounter.resort_at`, as a mid-round `s` does), so they take their place by
initiative from the next round; the next round keeps today's placement, said in a notice.
Each join is one undoable change; every initiative is rolled with the campaign's expression
and logged before it.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING

from gmscreen.campaign.model import Entry
from gmscreen.campaign.textsafe import clean
from gmscreen.i18n import N_, _, ngettext
from gmscreen.rules.records import record
from .encounter import insertion_index, roll_initiative, slugify, unique_slug

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign, Character
    from gmscreen.campaign.session import CampaignSession, EditBuilder

    from .writes import RollTable

PARTY, NPCS, EVERYONE, SELECTION = "party", "npc", "everyone", "selection"
GROUPS = (PARTY, NPCS, EVERYONE, SELECTION)
GROUP_LABELS = {PARTY: N_("The whole party"), NPCS: N_("All NPCs"), EVERYONE: N_("Party and NPCs"),
                SELECTION: N_("The selected character")}
THIS_ROUND, NEXT_ROUND = "this", "next"


@record
class Join:
    """What a join did, for the screen or a command to say."""

    added: list[str] = field(default_factory=list)       # entry ids, in the order they were added
    notices: list[str] = field(default_factory=list)
    problem: str = ""                                   # why nothing was added


def candidates(campaign: Campaign, group: str, selected: str | None = None) -> list[Character]:
    """The characters of `group` not yet in the fight, in roster order."""
    present = {e.character for e in campaign.encounter.entries if e.character}
    if group == SELECTION:
        chosen = [c for c in campaign.characters if c.id == selected]
    else:
        sides = {PARTY: ("party",), NPCS: ("npc",), EVERYONE: ("party", "npc")}.get(group, ())
        chosen = [c for c in campaign.characters if c.side in sides]
    return [c for c in chosen if c.id not in present]


def slot_passed(campaign: Campaign, initiative: int) -> bool:
    """Whether a joiner with this initiative would land before the current actor mid-round
    (at their place by initiative the turn would not reach them before the round ends)."""
    enc = campaign.encounter
    if enc.round <= 0 or not enc.entries:
        return False
    return insertion_index(enc.entries, initiative) <= min(enc.turn, len(enc.entries) - 1)


def join(table: RollTable, session: CampaignSession, joiners: list[tuple[str, str | None, int]],
         when: str = NEXT_ROUND) -> Join:
    """Add `joiners` ((name, character id or None, initiative)) in one undoable change.

    Before the fight or at an unpassed slot, each goes to its place by initiative. A joiner
    whose slot has passed mid-round acts this round (`THIS_ROUND`: right after the current
    actor, joiners of higher initiative first, the full order sorted at the round's end) or
    from the next round (`NEXT_ROUND`: at their place, said)."""
    if not joiners:
        return Join(problem=_("nobody to add: everyone is already in the fight"))
    campaign = session.campaign
    enc = campaign.encounter
    taken = {e.id for e in enc.entries}
    # An ad-hoc name never takes a character's id: that entry would be the character's on load.
    characters = {ch.id for ch in campaign.characters}
    entries: list[tuple[Entry, bool]] = []
    for name, character, initiative in joiners:
        entry = Entry(id=unique_slug(slugify(character or name, "pnj"), taken if character else taken | characters),
                      name=name, character=character, initiative=initiative)
        taken.add(entry.id)
        entries.append((entry, slot_passed(campaign, initiative)))
    now = [(e, passed) for e, passed in entries if passed and when == THIS_ROUND]
    later = [e for e, passed in entries if passed and when != THIS_ROUND]
    result = Join(added=[e.id for e, _passed in entries])

    def build(b: EditBuilder) -> None:
        # Placed by initiative first (each insertion against the order as it is now).
        for entry, passed in entries:
            if passed and when == THIS_ROUND:
                continue
            index = insertion_index(enc.entries, entry.initiative)
            had = bool(enc.entries)
            b.insert(("encounter", "entries"), index, entry)
            if enc.round > 0 and had and index <= enc.turn:
                b.set(("encounter", "turn"), enc.turn + 1)
        # Then those who act this round, right after the current actor, highest first.
        after = enc.turn + 1
        for entry, _passed in sorted(now, key=lambda p: -p[0].initiative):
            b.insert(("encounter", "entries"), after, entry)
            after += 1
        if now and enc.resort_at != enc.round:
            b.set(("encounter", "resort_at"), enc.round)

    names = ", ".join(clean(name) for name, _c, _i in joiners)
    label = (_("Initiative {value}: {name}").format(value=joiners[0][2], name=clean(joiners[0][0]))
             if len(joiners) == 1 else _("To the fight: {names}").format(names=names))
    if not table.change(label, build):
        return Join(problem=_("nothing added"))
    for entry, _passed in now:
        result.notices.append(_("{name} acts this round, after the current actor; in place by initiative "
                                "from round {n}").format(name=clean(entry.name), n=enc.round + 1))
    for entry in later:
        result.notices.append(_("{name} acts from round {n} (their place this round has passed)").format(
            name=clean(entry.name), n=enc.round + 1))
    if len(joiners) > 1:
        result.notices.insert(0, ngettext("{n} added to the fight", "{n} added to the fight",
                                          len(joiners)).format(n=len(joiners)))
    return result


def roll_joiners(table: RollTable, session: CampaignSession,
                 characters: list[Character]) -> list[tuple[str, str | None, int]] | None:
    """Each character's initiative rolled with the campaign's expression, each roll logged;
    None (the GM told why) when the campaign has no expression that rolls."""
    if not session.campaign.initiative.strip():
        table.warn(_("no initiative expression in the campaign: i to type it"))
        return None
    joiners: list[tuple[str, str | None, int]] = []
    for ch in characters:
        value = roll_initiative(table, session, ch.name)
        if value is None:
            return None
        joiners.append((ch.name, ch.id, value))
    return joiners

