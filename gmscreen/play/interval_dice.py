"""The next interval of an extended test rolled at the table: the faces typed as the quick-roll
line takes them after `=` ("3 7 12 1 5", "14 / 9"), put where the game's own interval would
put its dice (a MIR test's d12s; a Magisphère round's d20, the actor's then the opponent's).

The shape of one interval is the game's (`TimedTest.next_dice`): the faces fill it in order, so
a new game's timer takes table dice without a line of its own. The rules check the faces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gmscreen import rules
from gmscreen.campaign.textsafe import clean
from gmscreen.i18n import _, ngettext

from .timers import IntervalRoll, interval_setup, next_interval_dice, noted_interval, status_of, timed_test_of, timer_result

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign, Timer

    from .forms import Form
    from .game import GameTable


class TableDiceError(ValueError):
    """Faces typed for an interval that cannot be its dice; the message says why, in words."""

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


def _slots(added: list[Any]) -> list[int]:
    """How many faces each item of an interval takes: a test's list of dice, or one die."""
    return [len(item) if isinstance(item, list) else 1 for item in added]


def interval_size(timer: Timer, campaign: Campaign | None = None, *, game: GameTable) -> int:
    """How many dice the next interval of `timer` rolls (0: it cannot be read), the roller's
    conditions as they stand in `campaign` (None: as the timer keeps them)."""
    before = timer_result(timer, game=game)
    if before is None or timed_test_of(timer, game=game) is None:
        return 0
    template, _step = next_interval_dice(timer, before, interval_setup(timer, campaign, game=game)[0], game=game)
    return sum(sum(_slots(template[f][len(timer.dice.get(f, [])):])) for f in template)


def table_interval_dice(timer: Timer, text: str, request: dict[str, Any] | None = None, *,
                        game: GameTable) -> tuple[dict, str]:
    """The timer's dice with its next interval made of the faces in `text`, and the step's name;
    `request` the interval's own (`timers.interval_setup`), None: the timer's. TableDiceError
    when the faces do not read or are not as many as the interval rolls."""
    from .quickroll.grammar import QuickRollError, typed_faces

    before = timer_result(timer, game=game)
    if before is None or timed_test_of(timer, game=game) is None:
        raise TableDiceError(_("this timer's test cannot be read"))
    try:
        faces = [f for group in typed_faces(text) for f in group]
    except QuickRollError as exc:
        raise TableDiceError(exc.message) from None
    template, step = next_interval_dice(timer, before, request, game=game)
    dice = {k: [list(v) if isinstance(v, list) else v for v in vals] for k, vals in timer.dice.items()}
    wanted = sum(sum(_slots(template[f][len(dice.get(f, [])):])) for f in template)
    if len(faces) != wanted:
        raise TableDiceError(ngettext("this interval rolls {n} die: {given} typed",
                                      "this interval rolls {n} dice: {given} typed", wanted).format(
                                          n=wanted, given=len(faces)))
    pos = 0
    for field in template:
        kept = dice.setdefault(field, [])
        for item in template[field][len(kept):]:
            if isinstance(item, list):
                kept.append(faces[pos:pos + len(item)])
                pos += len(item)
            else:
                kept.append(faces[pos])
                pos += 1
    return dice, step


def roll_table_interval(timer: Timer, text: str, campaign: Campaign | None = None, *, game: GameTable) -> IntervalRoll:
    """The next interval with the faces typed: the logged request and result, as `roll_interval`
    gives them (the roller's conditions as they stand in `campaign`). TableDiceError for faces
    that do not fit; `rules.RequestError` for faces the rules refuse (a 13 on a d12)."""
    request, met = interval_setup(timer, campaign, game=game)
    dice, step = table_interval_dice(timer, text, request, game=game)
    logged = {**request, **dice}
    result = rules.resolve(logged)
    return IntervalRoll(logged, noted_interval(result, met), dice, status_of(result), step,
                        timer_request=request if request != timer.request else None)


def faces_check(timer: Timer, campaign: Campaign | None = None, *, game: GameTable):
    """The form's check of the faces typed: empty (the dice are rolled) or an interval's dice."""

    def check(text: str) -> str | None:
        if not text.strip().lstrip("="):
            return None
        try:
            roll_interval_as(timer, {DICE_FIELD: text}, campaign, game=game)
        except TableDiceError as exc:
            return exc.message
        except rules.RequestError as exc:
            from .quickroll import rule_message

            return rule_message(exc)
        return None

    return check


DICE_FIELD = "dice"


def interval_form(campaign: Campaign, timer: Timer, *, game: GameTable) -> Form:
    """What `R` asks before the next interval: the dice rolled at the table (empty: rolled
    here), and what the game lets the GM change for this interval (`TimedTest.round_fields`)."""
    from .forms import Field, Form
    from .timers import name_of

    kind = timed_test_of(timer, game=game)
    n = interval_size(timer, campaign, game=game)
    example = " ".join(str(f) for f in (3, 7, 12, 1, 5, 9, 2, 11, 4, 6, 10, 8)[:max(n, 1)])
    fields = [Field(DICE_FIELD, ngettext("Die rolled at the table ({n}; empty: rolled here)",
                                         "Dice rolled at the table ({n}; empty: rolled here)", n).format(n=n),
                    placeholder=example, check=faces_check(timer, campaign, game=game))]
    if kind is not None:
        fields += kind.round_fields(campaign, timer)
    return Form(_("Next interval of {label}").format(label=clean(timer.label)), fields,
                note=_("{who}: faces as after = in the quick-roll line, in the order the interval rolls "
                       "them").format(who=clean(name_of(campaign, timer.who))))


def roll_interval_as(timer: Timer, values: dict[str, str], campaign: Campaign | None = None, *,
                     game: GameTable) -> IntervalRoll:
    """The next interval as the form says: the faces typed (else rolled), with what the GM set
    for it (`TimedTest.round_fields`), the roller's conditions as they stand in `campaign`.
    TableDiceError, `rules.RequestError` as above."""
    from .timers import roll_interval

    kind = timed_test_of(timer, game=game)
    own_round = kind is not None and kind.rounds_of_their_own and (
        bool(timer.round_stats) or kind.round_fields_changed(timer, values) or kind.round_of_its_own(campaign, timer))
    if own_round and kind is not None:
        return kind.roll_round(timer, values, (values.get(DICE_FIELD) or "").strip().lstrip("=").strip(), campaign)
    text = (values.get(DICE_FIELD) or "").strip()
    if text.lstrip("=").strip():
        return roll_table_interval(timer, text, campaign, game=game)
    rolled = roll_interval(timer, campaign, game=game)
    if rolled is None:
        raise TableDiceError(_("this timer's test cannot be read"))
    return rolled


def table_dice_words(values: dict[str, str] | None) -> str:
    """" = 3 7 12" after the logged line when the faces were typed (the log says so)."""
    text = (values or {}).get(DICE_FIELD, "").strip().lstrip("=").strip()
    return f" = {clean(text)}" if text else ""
