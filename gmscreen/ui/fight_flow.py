"""The fight's flows that ask the GM on the way: the turn moved (`n`/`p`), people added to the
fight (the party, the NPCs, the selected character), and when a late joiner acts. Shared by
the app's keys, the initiative pane and the roster; the moves themselves are the play core's
(`gmscreen.play.encounter`, `gmscreen.play.joins`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from gmscreen.i18n import _
from gmscreen.play.encounter import TurnMove, next_turn, previous_turn
from gmscreen.play.joins import (GROUP_LABELS, GROUPS, NEXT_ROUND, THIS_ROUND, candidates, join, needs_choice,
                                 roll_joiners, slot_passed)
from gmscreen.play.public import public_notice
from gmscreen.ui.sanitize import clean

if TYPE_CHECKING:
    from gmscreen.campaign.session import CampaignSession

    from gmscreen.ui.host import CampaignHost


@runtime_checkable
class TurnFollower(Protocol):
    """A view whose cursor follows the current actor (the initiative pane)."""

    def follow_current(self) -> None: ...


def _dialogs() -> Any:
    """The small dialogs, imported on first use (they pull in TextArea and friends)."""
    from gmscreen.ui.screens import roster_dialogs

    return roster_dialogs


def move_turn(host: CampaignHost, forward: bool, pane: TurnFollower | None = None) -> TurnMove | None:
    """`n` (forward) or `p` on the play core, said through the host's notices; the pane need
    not be built (the app calls this at once), and when it is the cursor follows the turn."""
    session = host.session
    if session is None or not host.may_edit():
        return None
    if forward and not session.campaign.encounter.entries:
        offer_join(host, _("Nobody in the fight: add"), start=True, pane=pane)
        return None
    move = (next_turn(session, host.change) if forward
            else previous_turn(session, host.change, host.action_undo))  # the app's undo waits for a choice
    # Said as a screen players watch may say it: a notice naming a hidden character is masked.
    said = (lambda text: public_notice(text, session.campaign)) if host.players_watching else (lambda text: text)
    if move.problem:
        host.warn(said(move.problem))
    for notice in move.notices:
        host.warn(said(notice), "information")
    if move.kept:
        host.warn(said(_("changed since, left as it is: {what} (ctrl+z goes back step by step)").format(
            what=", ".join(move.kept))))
    if move.moved:
        shown = pane if pane is not None else host.pane("initiative")
        if isinstance(shown, TurnFollower):
            shown.follow_current()
        else:
            enc = session.campaign.encounter
            if enc.round > 0 and 0 <= enc.turn < len(enc.entries) and enc.entries[enc.turn].character:
                host.select_character(enc.entries[enc.turn].character)
    return move


def offer_join(host: CampaignHost, title: str, start: bool = False,
               pane: TurnFollower | None = None) -> None:
    """A small choice: the party, the NPCs, both or the selected character to the fight (those
    not in it yet); `start`: the fight starts once they are in (`n`/`S` on an empty queue)."""
    session = host.session
    if session is None:
        return
    campaign = session.campaign
    options: list[tuple[str, str]] = []
    for group in GROUPS:
        found = candidates(campaign, group, host.selected_id)
        if found:
            names = ", ".join(clean(c.name) for c in found)
            options.append((group, _("{group}: {names}").format(group=_(GROUP_LABELS[group]), names=names)))
    if not options:
        host.warn(_("nobody to add: everyone is already in the fight") if campaign.characters
                  else _("nobody in the initiative order: a to add"))
        return

    def chosen(group: str | None) -> None:
        if group is not None:
            add_group(host, group, start, pane)

    host.push_screen(_dialogs().ChoiceScreen(title, options), chosen)


def add_group(host: CampaignHost, group: str, start: bool = False, pane: TurnFollower | None = None) -> None:
    """Roll (and log) each one's initiative, ask when a mid-round joiner acts, add them all in
    one change; then start the fight when asked to."""
    session = host.session
    if session is None or not host.may_edit():
        return
    joiners = roll_joiners(host, session, candidates(session.campaign, group, host.selected_id))
    if joiners is None:
        return

    def added(ok: bool) -> None:
        campaign = session.campaign
        if ok and start and campaign.encounter.round == 0 and campaign.encounter.entries:
            move_turn(host, True, pane)
        elif ok and pane is not None and campaign.encounter.round > 0:
            pane.follow_current()

    ask_when(host, session, joiners, added)


def ask_when(host: CampaignHost, session: CampaignSession, joiners: list[tuple[str, str | None, int]],
             then: Any = None) -> None:
    """Add `joiners`; when one of them has missed their slot mid-round, the GM first says
    whether they act this round or from the next one."""

    def add(when: str | None) -> None:
        if when is None:
            host.warn(_("nobody added"), "information")
            return
        result = join(host, session, joiners, when)
        if result.problem:
            host.warn(result.problem)
        for notice in result.notices:
            host.warn(notice, "information")
        if then is not None:
            then(not result.problem)

    campaign = session.campaign
    if not needs_choice(campaign, joiners):
        add(NEXT_ROUND)
        return
    late = ", ".join(clean(name) for name, _c, initiative in joiners if slot_passed(campaign, initiative))
    host.push_screen(_dialogs().ChoiceScreen(
        _("Round {n} under way, {names}: this round or the next?").format(n=campaign.encounter.round, names=late), [
            (THIS_ROUND, _("This round, right after the current actor")),
            (NEXT_ROUND, _("Next round (their place this round has passed)"))]), add)
