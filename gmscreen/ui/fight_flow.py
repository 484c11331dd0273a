"""The fight's flows that ask the GM on the way: the turn moved (`n`/`p`), people added to the
fight (the party, the NPCs, the selected character), and when a late joiner acts. Shared by
the app's keys, the initiative pane and the roster. The moves, what they say and whom they
select are the live table's (`gmscreen.play.table.Table`, `host.table`); what is here needs a
screen: the small dialogs and the initiative pane's cursor following the turn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol, runtime_checkable

from gmscreen.i18n import _
from gmscreen.play.joins import GROUP_LABELS, NEXT_ROUND, THIS_ROUND
from gmscreen.ui.sanitize import clean

if TYPE_CHECKING:
    from gmscreen.play.encounter import TurnMove
    from gmscreen.play.table import Joiners, Table

    from gmscreen.ui.view import ViewHost


@runtime_checkable
class TurnFollower(Protocol):
    """A view whose cursor follows the current actor (the initiative pane)."""

    def follow_current(self) -> None: ...


def _dialogs() -> Any:
    """The small dialogs, imported on first use (they pull in TextArea and friends)."""
    from gmscreen.ui.screens import roster_dialogs

    return roster_dialogs


def _follow(host: ViewHost, pane: TurnFollower | None) -> None:
    """The initiative pane's cursor on the current actor, when it is built (the table has
    selected their character already)."""
    shown = pane if pane is not None else host.pane("initiative")
    if isinstance(shown, TurnFollower):
        shown.follow_current()


def move_turn(host: ViewHost, forward: bool, pane: TurnFollower | None = None) -> TurnMove | None:
    """`n` (forward) or `p` on the live table, which says what moved (as the players may see
    it while they watch) and selects the actor; the pane need not be built (the app calls
    this at once), and when it is its cursor follows the turn. `n` on an empty fight offers
    to add people, and the fight starts once they are in."""
    table = host.table
    if table is None:
        return None
    move = table.next_turn() if forward else table.previous_turn()
    if move is None:
        return None
    if forward and table.fight_empty:
        offer_join(host, _("Nobody in the fight: add"), start=True, pane=pane)
    elif move.moved:
        _follow(host, pane)
    return move


def offer_join(host: ViewHost, title: str, start: bool = False,
               pane: TurnFollower | None = None) -> None:
    """A small choice: the party, the NPCs, both or the selected character to the fight (those
    not in it yet); `start`: the fight starts once they are in (`n`/`S` on an empty queue)."""
    table = host.table
    if table is None:
        return
    # Said as the players may see it while they watch: a hidden character is not named.
    options = [(group, table.as_seen(_("{group}: {names}").format(group=_(GROUP_LABELS[group]),
                                                                  names=", ".join(clean(name) for name in names))))
               for group, names in table.join_groups()]
    if not options:
        table.nobody_to_join()
        return

    def chosen(group: str | None) -> None:
        if group is not None:
            add_group(host, group, start, pane)

    host.push_screen(_dialogs().ChoiceScreen(title, options), chosen)


def add_group(host: ViewHost, group: str, start: bool = False, pane: TurnFollower | None = None) -> None:
    """Roll (and log) each one's initiative, ask when a mid-round joiner acts, add them all in
    one change; then start the fight when asked to (the table does), the pane's cursor on
    the current actor."""
    table = host.table
    if table is None:
        return
    joiners = table.roll_joiners(group, start=start)
    if joiners is None:
        return

    def added(ok: bool) -> None:
        if ok and table.session.campaign.encounter.round > 0 and (start or pane is not None):
            _follow(host, pane)

    _ask(host, table, joiners, added)


def ask_when(host: ViewHost, people: list[tuple[str, str | None, int]],
             then: Callable[[bool], object] | None = None) -> None:
    """Add `people` ((name, character id or None, initiative), already rolled); when one of
    them has missed their slot mid-round, the GM first says whether they act this round or
    from the next one. `then(ok)` once they are added (ok: nothing refused); not called when
    the GM gives the question up."""
    table = host.table
    if table is not None:
        _ask(host, table, table.joiners(people), then)


def _ask(host: ViewHost, table: Table, joiners: Joiners, then: Callable[[bool], object] | None) -> None:
    def add(when: str | None) -> None:
        result = table.add_joiners(joiners, when)       # None: given up, "nobody added" said
        if result is not None and then is not None:
            then(not result.problem)

    if not joiners.needs_when:
        add(NEXT_ROUND)
        return
    late = ", ".join(clean(name) for name in joiners.late)
    host.push_screen(_dialogs().ChoiceScreen(
        table.as_seen(_("Round {n} under way, {names}: this round or the next?").format(
            n=table.session.campaign.encounter.round, names=late)), [
            (THIS_ROUND, _("This round, right after the current actor")),
            (NEXT_ROUND, _("Next round (their place this round has passed)"))]), add)
