"""Campaign timers as the initiative pane shows and advances them: what a test timer's dice
say so far, its progress in words, and the dice of its next interval.

Kept apart from the pane (and free of Textual) so the words the table, the detail line and
the notices use come from one place and can be checked without an app. What one kind of test
timer means (its form, its request, its dice, its words) is the game's: a `TimedTest` its
fight part lists (`FightRules.timed_tests`), asked of the game each function is handed (the
campaign's, as its caller holds it: the `Table`, a view) for the kind its timer names.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from gmscreen import rules
from gmscreen.campaign.model import Timer
from gmscreen.campaign.textsafe import clean
from gmscreen.i18n import N_, _, ngettext

# What a game's fight part lists and an interval rolled: records of `exchange`, named here as ever.
from .exchange import IntervalRoll, TimedTest

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign
    from gmscreen.campaign.session import EditBuilder

    from .game import GameTable

STATUS_WORDS = {"running": N_("running"), "success": N_("succeeded"), "failure": N_("failed"),
                "done": N_("over"), "actor": N_("won"), "opponent": N_("lost"), "tie": N_("tie")}


def status_word(status: str) -> str:
    """A timer's status in words, in the language spoken (an unknown one as written, cleaned)."""
    return _(STATUS_WORDS[status]) if status in STATUS_WORDS else clean(status)


def timed_test_of(timer: Timer, *, game: GameTable) -> TimedTest | None:
    """The kind of test a timer runs, asked of `game` (None: a countdown, a timer whose request
    names another system or none, or a game that has no such timer)."""
    if timer.kind == "countdown" or str(timer.request.get("system", "")) != game.system_id:
        return None
    return game.fight.timed_test(timer.kind)


def timer_result(timer: Timer, *, game: GameTable) -> dict | None:
    """What the rules say of a test timer's dice so far (None for countdowns or a broken timer)."""
    if timer.kind == "countdown":
        return None
    test = timed_test_of(timer, game=game)
    own = test.result_of(timer) if test is not None else None
    if own is not None:
        return own
    try:
        kind = rules.get_system(timer.request.get("system", "")).kinds[timer.request.get("kind", "")]
        forced: dict[str, Any] = {name: [] for name in kind.dice_fields}
        forced.update(timer.dice)
        return rules.resolve({**timer.request, **forced})
    except (rules.RequestError, KeyError, TypeError, ValueError):
        return None


def name_of(campaign: Campaign, ref: str | None) -> str:
    """The name of the character `ref` points to, else `ref` itself (a free name), "?" for none."""
    if ref is None:
        return "?"
    ch = campaign.character(ref)
    return ch.name if ch is not None else ref


def countdown_progress(timer: Timer) -> str:
    """A countdown's progress: '3 rounds' (no game is asked: a countdown is every game's)."""
    left = max(timer.rounds or 0, 0)
    return ngettext("{n} round", "{n} rounds", left).format(n=left)


def timer_progress(campaign: Campaign, timer: Timer, *, game: GameTable) -> str:
    """'6/8 · test 2/3 · 1 jour', 'Granok 2 – 1 le gros Bob · en 3', '3 rounds' (plain, cleaned).

    Never the status word (terminé, réussi…): the table shows it in its own column, so the
    progress saying it too read "terminé terminé".
    """
    if timer.kind == "countdown":
        return countdown_progress(timer)
    result = timer_result(timer, game=game)
    kind = timed_test_of(timer, game=game)
    if result is None or kind is None:
        return _("unreadable test (see the file)")
    return kind.progress(campaign, timer, result)


def status_of(result: dict) -> str:
    """A timer's status from the rules' result: 'running' while undecided, else the outcome."""
    decided: Any = result.get("outcome", result.get("winner"))     # the rules' word (a str)
    return "running" if decided == "pending" else decided


def next_interval_dice(timer: Timer, before: dict, request: dict[str, Any] | None = None, *,
                       game: GameTable) -> tuple[dict, str]:
    """The timer's dice with one more interval rolled, and the step's name ('test 3', 'manche 2').

    `before` is `timer_result(timer, game=game)`; `request` the interval's own (`interval_request`: it
    says how many dice the next test of an extended test rolls), None: the timer's.
    """
    kind = timed_test_of(timer, game=game)
    if kind is None:
        raise KeyError(f"no test timer of kind {timer.kind!r}")
    rng = random.Random(random.SystemRandom().getrandbits(63))
    dice = {k: [list(v) if isinstance(v, list) else v for v in vals] for k, vals in timer.dice.items()}
    step = kind.next_dice(dice, before, rng, request)
    return dice, step


def interval_setup(timer: Timer, campaign: Campaign | None, *, game: GameTable) -> tuple[dict[str, Any], list]:
    """The request of the timer's next interval, the roller's conditions re-read in `campaign`
    (None: the timer's request as kept), and what became of each condition met."""
    kind = timed_test_of(timer, game=game)
    if campaign is None or kind is None:
        return timer.request, []
    return kind.interval_request(campaign, timer)


def noted_interval(result: dict, conditions: list) -> dict:
    """The interval's result as logged: with the conditions re-read for it, as a roll's are."""
    from .effects import noted_conditions

    return noted_conditions(result, conditions)


def roll_interval(timer: Timer, campaign: Campaign | None = None, *, game: GameTable) -> IntervalRoll | None:
    """Roll the next interval of a test timer (None: its test cannot be read), the roller's
    conditions as they stand in `campaign` (None: as the timer keeps them).

    Raises `rules.RequestError` when the rules refuse the request with the new dice.
    """
    before = timer_result(timer, game=game)
    kind = timed_test_of(timer, game=game)
    if before is None or kind is None:
        return None
    if kind.rounds_of_their_own and (timer.round_stats or kind.round_of_its_own(campaign, timer)):
        return kind.roll_round(timer, {}, "", campaign)     # the game adds its rounds up
    request, met = interval_setup(timer, campaign, game=game)
    dice, step = next_interval_dice(timer, before, request, game=game)
    logged = {**request, **dice}
    result = rules.resolve(logged)
    return IntervalRoll(logged, noted_interval(result, met), dice, status_of(result), step,
                        timer_request=request if request != timer.request else None)


def interval_log_fields(campaign: Campaign, timer: Timer, rolled: IntervalRoll, said: str = "") -> dict[str, Any]:
    """What the roll log keeps of one interval rolled (`RollTable.record_roll`'s arguments): who
    rolls, the line ("label · test 3", `said`: the table's dice typed), the request and the
    result; GM-only when the timer is, the sides a hidden character plays noted
    (`gmscreen.play.public`: what players may see of it was decided when the timer started)."""
    from .roll_sides import noted_timer_result, with_sides

    result = with_sides(noted_timer_result(rolled.result, timer), name_of(campaign, timer.opponent) if timer.opponent else None)
    return {"who": name_of(campaign, timer.who), "line": f"{timer.label} · {rolled.step}" + said,
            "request": rolled.request, "result": result, "gm_only": timer.gm_only}


def record_interval(b: EditBuilder, index: int, timer: Timer, rolled: IntervalRoll) -> None:
    """The ops keeping a rolled interval in the timer at `index`: its dice, its request when the
    interval changed it, and its status if decided."""
    if rolled.timer_request is not None:
        for key in sorted(set(rolled.timer_request) | set(timer.request)):
            if rolled.timer_request.get(key) != timer.request.get(key):     # a key at a time: the file's comments stay
                b.set(("timers", index, "request", key), rolled.timer_request.get(key))
    b.set(("timers", index, "dice"), rolled.dice)
    if rolled.round_stats is not None and rolled.round_stats != timer.round_stats:
        b.set(("timers", index, "round_stats"), rolled.round_stats)
    if rolled.status != timer.status:
        b.set(("timers", index, "status"), rolled.status)


def interval_refusal(campaign: Campaign, timer: Timer, *, game: GameTable) -> str | None:
    """Why the game forbids rolling this timer's next interval now (None: allowed); a timer
    whose next interval could take its dice past what a timer keeps (`limits`) is one."""
    from gmscreen.campaign.limits import MAX_INTERVAL_DICE, MAX_TIMER_DICE, dice_count
    from gmscreen.campaign.safeload import thousands

    count = dice_count(timer.dice)
    if count + MAX_INTERVAL_DICE > MAX_TIMER_DICE:
        return _("{label} keeps {count} dice, the most a timer keeps: end it and start another").format(
            label=clean(timer.label), count=thousands(count))
    kind = timed_test_of(timer, game=game)
    return kind.refusal(campaign, timer) if kind is not None else None


def start_refusal(campaign: Campaign, timer: dict[str, Any], request: dict[str, Any], *,
                  game: GameTable) -> str | None:
    """Why the game forbids starting now the test timer a quick-roll line describes (`timer`:
    its fields, `request`: the test), whose first interval the line rolls at once: the very
    refusal `r` gives on such a timer (MIR R20), asked of the same game."""
    fields = {k: v for k, v in timer.items() if k in ("label", "kind", "who", "opponent")}
    return interval_refusal(campaign, Timer(id="", **{"label": "", **fields}, request=dict(request)), game=game)
