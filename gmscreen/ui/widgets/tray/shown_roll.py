"""What the tray shows of a roll, built once from where it came: a roll just made (its draft)
or a roll read from the log (its record). Drawn by `roll_result.shown_content`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gmscreen.play.luck_words import luck_words
from gmscreen.play.public import draft_sight, public_description, roll_sight
from gmscreen.play.tables import campaign_table
from gmscreen.rules import RequestError, get_system
from gmscreen.ui.sanitize import clean
from gmscreen.ui.widgets.tray.roll_result import ShownRoll, winner_words

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign, RollRecord
    from gmscreen.play.quickroll import Draft


def shown_from_draft(draft: Draft, result: dict[str, Any], *, campaign: Campaign | None, gm_only: bool,
                     notable: int, record: RollRecord | None = None, pending: bool = False) -> ShownRoll:
    """The roll just made from the line (`pending`: a choice is still open)."""
    from gmscreen.play.logline import name_description

    system = get_system(draft.system)
    description = system.describe(result) if system.describe else None
    gm_only = gm_only or draft.gm_only
    secret = gm_only or bool(result.get("hidden"))
    if description is None:
        return ShownRoll(who=draft.who, headline="", detail="", good=None, groups=(), gm_only=gm_only,
                         secret=secret, record=record, plain=str(result))
    opponent = draft.sides[1].name if len(draft.sides) > 1 else None
    sight = draft_sight(draft, gm_only=gm_only, campaign=campaign)
    hidden = public_description(description, result, sight, draft.who, opponent)
    description = name_description(description, result, draft.who, draft.line, campaign, opponent=opponent,
                                   game=draft.table)
    headline = description.headline
    if system.kinds[draft.kind].contest:
        headline = winner_words(result.get("winner"), draft.who, draft.sides[1].name if len(draft.sides) > 1 else None,
                                headline)
    return ShownRoll(who=draft.who, headline=headline, detail=description.detail, good=description.good,
                     groups=description.groups, gm_only=gm_only, secret=secret, record=record, pending=pending,
                     luck=clean(luck_words(result, notable)), hidden_sides=sight.hidden_sides, public=hidden)


def shown_from_record(record: RollRecord, campaign: Campaign | None, *, notable: int) -> ShownRoll:
    """A logged roll shown as if it had just been rolled here (an interval of a timer rolled
    from the initiative pane): every die and the outcome, masked while players watch."""
    from gmscreen.play.logline import describe_result, name_description
    from gmscreen.play.logline import opponent_in_line as description_opponent

    system_id = record.result.get("system") or record.request.get("system")
    system = None
    if isinstance(system_id, str):
        try:
            system = get_system(system_id)
        except RequestError:
            system = None
    if system is None and campaign is not None:
        system = get_system(campaign.system)
    who = clean(record.who)
    game = campaign_table(campaign)
    description = name_description(describe_result(system, record.result), record.result, who, record.line, campaign,
                                   game=game)
    sight = roll_sight(record, campaign, game)
    opponent = description_opponent(record.line, campaign, game)
    hidden = public_description(describe_result(system, record.result), record.result, sight, who, opponent)
    headline = description.headline
    if system is not None and record.result.get("kind") in system.kinds and system.kinds[record.result["kind"]].contest:
        headline = winner_words(record.result.get("winner"), who, opponent, headline)
    return ShownRoll(who=record.who, headline=headline, detail=description.detail,
                     good=description.good, groups=description.groups, gm_only=record.gm_only,
                     secret=bool(record.gm_only or record.result.get("hidden")), record=record,
                     luck=clean(luck_words(record.result, notable)), hidden_sides=sight.hidden_sides,
                     public=hidden)
